"""What the site's pages ask the engine (docs/assets/*.js), as the worker receives it:
the browser flows, beside the YAML cases. The parity test runs them in Pyodide with the
site's trimmed standard library, so a module a page needs cannot be missing from it."""
from __future__ import annotations

from pathlib import Path

from casebook import complete_permit_answers


def page_requests(rules: dict, pypdf_wheel: Path, blank_pdf: Path) -> list[dict]:
    """{argv, files?, packages?, refusal?} for every kind of request a page sends, each in English
    and in Spanish (engine-client.js adds --lang): the estimator (estimate.js), the permit
    checker and its application (permit.js), the industry check (industry.js) and the
    Clerk's desk (clerk.js), with a refusal of each kind."""
    from calculator.permits import flow
    first = flow.evaluate(rules, [])["next_question"]
    permit_paths = [complete_permit_answers(rules, [(first["id"], c["value"])], rest)
                    for c in first["choices"] for rest in ("no", "yes")]
    words = lambda answers: [w for q, v in answers for w in ("--answer", f"{q}={v}")]  # noqa: E731
    # the refusals: a message that says what to do, in the page's language (not a defect)
    refused = [
        ["bill", "--with-proposed", "--quarter", "2027-Q1", "--water-gallons", "twelve"],
        ["bill", "--with-proposed", "--quarter", "2027-Q1", "--no-such-option", "1"],
        ["permit", "--answer", "work=rebuild"],
        ["industry", "--average-workday-gallons", ""],
        ["rates", "notice", "2028", "--published=2027-11-01", "--meeting=2027-11-16", "--time=19:00",
         "--place=Town Hall"],
        ["rates", "adopt", "2028", "--date=2027-11-20", "--recorded-on=2027-12-31", "--ayes=3", "--noes=1", "--absent=1"],
        ["rates", "propose", "--fiscal-year=2028", "--effective=2028-01-01", "--om-cost=-5",
         "--user-volume-gallons=85000000"],
    ]
    argvs = refused + [
        ["quarters", "--today", "2027-02-10"],
        ["bill", "--with-proposed", "--quarter", "2027-Q1", "--water-gallons", "12000", "--paid-on", "2027-03-01"],
        ["bill", "--with-proposed", "--quarter", "2027-Q1", "--meter", "water-cubic-feet",
         "--previous-reading", "1000", "--current-reading", "2604", "--vc-per-1000", "12.50"],
        ["permit", "--list-questions"],
        *(["permit", *words(answers)] for answers in permit_paths),
        ["industry", "--average-workday-gallons", "52000", "--system-gallons-per-day", "600000",
         "--no-toxic-pollutant", "--no-significant-impact", "--year", "2027"],
        ["rates", "propose", "--fiscal-year=2028", "--effective=2028-01-01", "--om-cost=856791",
         "--user-volume-gallons=85000000", "--proposed-on=2027-10-01", "--sewage-fraction=0.80",
         "--site-url=https://sewer.pawling.example/"],
        ["rates", "user-notice", "2025-illustrative", "--site-url=https://sewer.pawling.example/"],
    ]
    requests = [{"argv": argv, **({"refusal": True} if argv in refused else {})} for argv in argvs]
    # the application, filled by pypdf (loaded only now, as the permit page loads it)
    answers = permit_paths[0]
    requests.append({"argv": ["application", *words(answers), "--field", "owner-name=Sam Lee",
                              "--blank", "/tmp/blank.pdf", "--output", "/tmp/application.pdf", "--force"],
                     "files": {"/tmp/blank.pdf": str(blank_pdf)}, "packages": [str(pypdf_wheel)]})
    # the Clerk's bill run (bill-run.js): the sample files, written into the worker first
    from kit.billrun.sample import DOCS_COUNT, sample_files
    sample = blank_pdf.parent / "billing-sample"  # as the build publishes it, from these rules
    sample.mkdir(exist_ok=True)
    for name, text in sample_files(DOCS_COUNT, rules=rules).items():
        (sample / name).write_text(text, encoding="utf-8")
    inputs = {"accounts": "accounts.csv", "reads": "reads-2025-Q4.csv", "payments": "payments.csv",
              "earlier": "register-2025-Q3.csv"}
    requests.append({"argv": ["bills", "--quarter", "2025-Q4", "--out", "/tmp/bills-out",
                              *(w for option, name in inputs.items() for w in (f"--{option}", f"/tmp/{name}"))],
                     "files": {f"/tmp/{name}": str(sample / name) for name in inputs.values()}})
    return requests + [{**r, "argv": [*r["argv"], "--lang", "es"]} for r in requests]
