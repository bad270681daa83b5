"""The quarterly bill run (issue 23): the engine's run (calculator/bills/billing.py) on the cases in
tests/cases/bill-run/, on the fictional sample, against `bill` one account at a time; the
`bills` command's whole-or-nothing output folder; and the privacy guard of the site build."""
import base64
import csv
import hashlib
import io
import re
import shutil
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from calculator.bills import billing
from calculator.cli import run as cli_run
from calculator.core.errors import InputError
from calculator.core.rules import load
from kit.billrun import command, sample
from kit import privacy
from kit.errors import BuildError

ROOT = Path(__file__).resolve().parent.parent
RULES = load()
CASES = yaml.safe_load((ROOT / "tests" / "cases" / "bill-run" / "cases.yaml").read_text(encoding="utf-8"))


def run_case(case):
    # `earlier`: one earlier register, or {name: text} for several (each a register.csv of its quarter)
    earlier = case.get("earlier", {})
    registers = ([("register.csv", earlier)] if isinstance(earlier, str) else list(earlier.items()))
    return billing.run(RULES, case["quarter"], ("accounts.csv", case["accounts"]), ("reads.csv", case["reads"]),
                       ("payments.csv", case["payments"]) if "payments" in case else None, registers,
                       case.get("as_of"))


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_case(case):
    if "error" in case:
        with pytest.raises(InputError) as refused:
            run_case(case)
        assert case["error"] in str(refused.value)
        return
    result = run_case(case)
    got = [(r["file"], r["line"], r["account"]) for r in result["refused"]]
    assert got == [(r["file"], r["line"], r["account"]) for r in case["refused"]], result["refused"]
    for want, row in zip(case["refused"], result["refused"]):
        assert want["says"] in row["what_to_fix"]
    if "billed" in case:
        assert [r["account"] for r in result["register"]] == case["billed"]
    lines = {r["account"]: r for r in result["register"]}
    for account, columns in case.get("register", {}).items():
        assert {k: lines[account][k] for k in columns} == columns
    # the estimate the bill's link opens, and the printed bill, say the register's total
    for row in result["register"]:
        shown = billing.link_answer(RULES, row["estimate_link"])
        assert shown["total"] == row["total"], row["estimate_link"]
        # the link carries the bill's own total, and the same rules give it again
        assert shown["billed"] == {"printed": row["total"], "now": row["total"], "differs": False, "text": None}
        printed = billing.printable_bill(RULES, row, result["accounts"][row["account"]], "https://example.org/")
        assert printed["total"][1] == f"${Decimal(row['total']):,.2f}"
        # fiscal 2025 bills at the illustrative schedule: the paper bill says so at its total (issue 32, item 11)
        assert printed["total_note"].startswith("ILLUSTRATIVE: this total uses an invented rate")
    for account, words in case.get("if_late", {}).items():
        shown = billing.link_answer(RULES, lines[account]["estimate_link"])
        assert shown["if_late"]["text"] == words
        printed = billing.printable_bill(RULES, lines[account], result["accounts"][account], "https://example.org/")
        assert words in printed["late"]
    if "arrears" in case:
        assert [{k: row[k] for k in want} for row, want in zip(result["arrears"], case["arrears"])] == case["arrears"]
        assert len(result["arrears"]) == len(case["arrears"])


def test_every_refusal_the_issue_names_has_a_case():
    says = " ".join(r["says"] for c in CASES for r in c.get("refused", []))
    for kind in ("lower than the previous", "There is no account", "neither was billed. Delete one", "has no meter read",
                 "Write en (English) or es (Spanish)", "never billed"):
        assert kind in says, kind
    assert any("fiscal year" in c.get("error", "") for c in CASES)


@pytest.fixture(scope="module")
def sample_run():
    files = sample.sample_files(300)
    result = billing.run(RULES, sample.SECOND, ("accounts.csv", files["accounts.csv"]),
                         (f"reads-{sample.SECOND}.csv", files[f"reads-{sample.SECOND}.csv"]),
                         ("payments.csv", files["payments.csv"]),
                         [(f"register-{sample.FIRST}.csv", files[f"register-{sample.FIRST}.csv"])])
    return files, result


def _table(text):
    return list(csv.DictReader(io.StringIO(text)))


def test_the_summary_reconciles_with_the_register_to_the_cent(sample_run):
    _files, result = sample_run
    register = _table(result["files"]["register.csv"])
    summary = {r["item"]: r for r in _table(result["files"]["summary.csv"])}

    def total(rows, column):
        return sum((Decimal(r[column]) for r in rows), Decimal("0.00"))
    assert summary["accounts billed: total charged this quarter"]["amount"] == str(total(register, "charge"))
    assert int(summary["accounts billed: total charged this quarter"]["accounts"]) == len(register)
    minimum = [r for r in register if r["minimum_applied"] == "yes"]
    assert minimum and summary["minimum charges"]["amount"] == str(total(minimum, "charge"))
    assert summary["total penalties"]["amount"] == str(total(register, "penalties"))
    assert Decimal(summary["total penalties"]["amount"]) > 0
    # the summary adds up on its own: charge + arrears + penalties - credit used = the bills' total
    assert Decimal(summary["total of the bills"]["amount"]) == sum(
        Decimal(summary[item]["amount"]) for item in ("accounts billed: total charged this quarter",
                                                      "arrears from earlier quarters", "total penalties")) \
        - Decimal(summary["credits from earlier payments used on these bills"]["amount"])
    assert summary["credit carried to later bills"]["amount"] == str(total(register, "credit_carried"))
    for row in register:
        assert Decimal(row["total"]) == Decimal(row["charge"]) + Decimal(row["arrears"]) + Decimal(row["penalties"]) \
            - Decimal(row["credit"])
    arrears = _table(result["files"]["arrears.csv"].split("\n", 1)[1])
    assert summary["unpaid after the last day to pay (arrears.csv)"]["amount"] == str(total(arrears, "unpaid_total"))


def test_the_sample_has_each_kind_of_account_and_each_refusal(sample_run):
    files, result = sample_run
    register = result["register"]
    assert {r["meter"] for r in register} == {"water-gallons", "water-cubic-feet", "sewage-gallons"}
    assert any(r["usage"] == "0" for r in register)
    assert any(r["minimum_applied"] == "yes" and r["usage"] != "0" for r in register)
    assert any(r["rollover"] == "yes" for r in register)
    assert any(r["language"] == "es" for r in register)
    fixes = " ".join(r["what_to_fix"] for r in result["refused"])
    for kind in ("lower than the previous", "There is no account", "neither was billed. Delete one", "has no meter read",
                 "Write en (English) or es (Spanish)", "never billed"):
        assert kind in fixes, kind
    assert all("fictional" in a["mailing_name"] for a in result["accounts"].values())


def test_every_unbilled_row_of_the_accounts_file_is_a_refused_row_and_counted(sample_run):
    """The usability test: the duplicate SAMPLE-10004 was refused on line 122 only, while line 5 went unbilled
    and unlisted, and "rows refused" said 6 where 7 rows went unbilled."""
    files, result = sample_run
    billed = {r["account"] for r in _table(result["files"]["register.csv"])}
    accounts = _table(files["accounts.csv"])
    refused = _table(result["files"]["refused.csv"])
    # every unbilled row is refused: on its own line, or on the line of the read or payment that holds it
    assert {r["account"] for r in accounts if r["account"] not in billed} <= {r["account"] for r in refused}
    lines = [line for line, row in enumerate(accounts, start=2) if row["account"] == f"{sample.PREFIX}10004"]
    assert len(lines) == 2 and lines[0] == 5
    twice = [r for r in refused if r["account"] == f"{sample.PREFIX}10004"]
    assert [(r["file"], int(r["line"])) for r in twice] == [("accounts.csv", n) for n in lines]
    assert {r["what_to_fix"] for r in twice} == {
        f"{sample.PREFIX}10004 is on lines 5 and {lines[1]}; neither was billed. Delete one and run again."}
    summary = {r["item"]: r for r in _table(result["files"]["summary.csv"])}
    assert int(summary["rows refused (refused.csv)"]["accounts"]) == len(refused)


def test_arrears_csv_says_it_is_the_list_for_a_levy_not_a_levy(sample_run):
    first = sample_run[1]["files"]["arrears.csv"].splitlines()[0]
    assert "§ 452" in first and "not a levy" in first
    assert "as of 2025-10-15" in first


def test_the_register_is_the_same_bytes_every_time(sample_run):
    files, result = sample_run
    again = billing.run(RULES, sample.SECOND, ("accounts.csv", files["accounts.csv"]),
                        (f"reads-{sample.SECOND}.csv", files[f"reads-{sample.SECOND}.csv"]),
                        ("payments.csv", files["payments.csv"]),
                        [(f"register-{sample.FIRST}.csv", files[f"register-{sample.FIRST}.csv"])])
    assert again["files"] == result["files"]


# ---- every register line is `bill` on the command line for that account ----------------

ACCOUNT = st.tuples(st.sampled_from(("water-gallons", "water-cubic-feet", "sewage-gallons")),
                    st.sampled_from(("en", "es")), st.integers(0, 200_000), st.integers(0, 999_999), st.booleans())


@settings(max_examples=40, deadline=None)
@given(st.lists(ACCOUNT, min_size=1, max_size=8), st.sampled_from(("2025-Q1", "2025-Q2", "2025-Q3", "2025-Q4")))
def test_every_register_line_equals_bill_for_that_account(accounts, quarter):
    lines = ["account,parcel,service_address,mailing_name,mailing_address,language,meter,meter_digits"]
    reads = ["account,previous_reading,current_reading,rollover"]
    for i, (meter, language, use, start, by_usage) in enumerate(accounts):
        lines.append(f"P{i},p,a,n,m,{language},{meter},6")
        end = (start + use) % 1_000_000
        reads.append(f"P{i},,,," if False else (f"P{i},{start},{end},{'yes' if end < start else ''}"))
    result = billing.run(RULES, quarter, ("a.csv", "\n".join(lines)), ("r.csv", "\n".join(reads)))
    assert not result["refused"]
    for i, row in enumerate(result["register"]):
        meter, _language, use, start, _ = accounts[i]
        # every account is on one property "p": the link carries its charges (the reading minimum-per-property)
        one = cli_run(_link_argv(row["estimate_link"]) if len(accounts) > 1 else
                      ["bill", "--quarter", quarter, f"--{meter}", row["usage"]])
        assert row["usage"] == str(use % 1_000_000 if start + use >= 1_000_000 else use)
        assert (row["charge"], row["total"], row["computed_charge"], row["minimum_charge"], row["sewage_gallons"],
                row["due_date"], row["last_day_to_pay"], row["minimum_applied"]) == (
            one["charge"], one["total"], one["computed_charge"], one["minimum_charge"], one["volume_gallons"],
            one["due_date"], one["last_day_to_pay"], "yes" if one["minimum_applied"] else "no")
        assert row["water_gallons"] == (one["water_gallons"] or "")


def test_a_register_line_equals_the_command_line_s_own_answer(sample_run):
    """The same, through `python -m calculator bill` as a person types it, for a few accounts."""
    import json
    for row in sample_run[1]["register"][:3]:
        out = subprocess.run([sys.executable, "-m", "calculator", "bill", "--quarter", row["quarter"],
                              f"--{row['meter']}", row["usage"]], capture_output=True, text=True, cwd=ROOT, check=True)
        assert json.loads(out.stdout)["total"] == row["charge"]


# ---- the command: its output folder whole, or nothing ---------------------------------------

@pytest.fixture
def sample_dir(tmp_path):
    sample.write(tmp_path / "in", 30)
    return tmp_path / "in"


def _args(sample_dir, out, *extra):
    return ["--quarter", sample.SECOND, "--accounts", str(sample_dir / "accounts.csv"),
            "--reads", str(sample_dir / f"reads-{sample.SECOND}.csv"), "--payments", str(sample_dir / "payments.csv"),
            "--earlier", str(sample_dir / f"register-{sample.FIRST}.csv"), "--out", str(out), *extra]


def test_the_command_writes_the_whole_folder(sample_dir, tmp_path, capsys):
    out = tmp_path / "billing" / sample.SECOND
    assert command.main(_args(sample_dir, out, "--no-pdf")) == 0
    assert sorted(p.name for p in out.iterdir()) == ["arrears.csv", "refused.csv", "register.csv", "summary.csv",
                                                     "written.sha256"]
    err = capsys.readouterr().err
    assert "reads-2025-Q4.csv:12: SAMPLE-10011: The current reading" in err
    assert not [p for p in out.parent.iterdir() if p.name.startswith(".")]  # no staging folder left


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs Linux's /dev/full")
def test_a_report_that_cannot_be_printed_says_the_run_is_complete_and_where(sample_dir, tmp_path):
    """The hostile tester: `build.py bills … > /dev/full` exited 74, as if the run had failed, though every
    file was written. It ends with 3 (documented in --help), saying on stderr that the files are complete and
    where; `python -m calculator bills` says the same of the files it wrote."""
    out = tmp_path / "billing" / sample.SECOND
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, str(ROOT / "build.py"), "bills", *_args(sample_dir, out, "--no-pdf")],
                              cwd=ROOT, stdout=full, stderr=subprocess.PIPE, text=True, timeout=300)
    assert done.returncode == 3, done.stderr
    assert "Traceback" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last == (f"error: the run is complete: its files are written whole in {out} (arrears.csv, refused.csv, "
                    "register.csv, summary.csv). Only its report could not be printed (No space left on device).")
    assert sorted(p.name for p in out.iterdir()) == ["arrears.csv", "refused.csv", "register.csv", "summary.csv",
                                                     "written.sha256"]
    assert "3    done: the files are written whole, but the report could not be printed" in command.parser().format_help()
    engine = tmp_path / "engine"
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "calculator", "bills", *_args(sample_dir, engine)],
                              cwd=ROOT, stdout=full, stderr=subprocess.PIPE, text=True, timeout=300)
    assert done.returncode == 3 and "Traceback" not in done.stderr, done.stderr
    assert "The files are written and complete: " in done.stderr and str(engine / "register.csv") in done.stderr
    assert (engine / "register.csv").read_bytes() == (out / "register.csv").read_bytes()


@pytest.mark.parametrize("folder", ["site", "docs", "rules"])
def test_the_engines_run_never_writes_into_the_site_docs_or_rules(sample_dir, folder, capsys):
    """The fifth hostile tester: `python -m calculator bills --out site/billrun` wrote arrears.csv (names,
    addresses, amounts) into the served site (and into docs/ and rules/). Refused as `build.py bills`
    and `application --output` refuse it; nothing is written."""
    from calculator.cli import main
    out = ROOT / folder / "billrun-refused-by-a-test"
    assert main(["bills", *_args(sample_dir, out)]) == 2
    err = capsys.readouterr().err
    assert f"in the project's {folder}/ folder, which the website is made from: account files are never " \
           "written there" in err and "Traceback" not in err, err
    assert not out.exists()


@pytest.mark.parametrize("folder", ["calculator", ".", "kit", "tests", "bench", "rules/../bench"])
def test_the_engines_run_refuses_the_whole_project_but_billing_as_the_kits_run_does(sample_dir, folder, capsys):
    """The seventh hostile tester: `python -m calculator bills --out calculator` (also the project's root,
    kit/, tests/, bench/) wrote register.csv and arrears.csv (names, addresses, parcels, amounts owed) into
    the project, one `git add` from the repository that is pushed, while `build.py bills --out .` refused.
    Both refuse every folder of the project but billing/, in the same words; nothing is written."""
    from calculator.cli import main
    out = ROOT / folder
    before = sorted(p.name for p in out.iterdir())
    says = (f"--out {out} is inside the project, which publishes what is in it: account files must stay out of it. "
            "Choose a new folder, like billing/QUARTER/ (ignored by git), or a folder an earlier run made.")
    assert main(["bills", *_args(sample_dir, out)]) == 2
    err = capsys.readouterr().err
    assert err == f"error: {says}\n", err
    assert command.main(_args(sample_dir, out, "--no-pdf")) == 2
    assert capsys.readouterr().err.startswith(f"error: {says} Nothing was written.")
    assert sorted(p.name for p in out.iterdir()) == before


def test_the_engines_run_refuses_another_git_repository(sample_dir, tmp_path, capsys):
    from calculator.cli import main
    (tmp_path / "repo" / ".git").mkdir(parents=True)
    (tmp_path / "repo" / ".git" / "HEAD").write_text("ref: refs/heads/main\n")  # (what `git init` makes)
    out = tmp_path / "repo" / "notes"
    assert main(["bills", *_args(sample_dir, out)]) == 2
    assert f"--out {out} is inside the git repository {tmp_path / 'repo'}: account files must never be where " \
           "`git add` would take them." in capsys.readouterr().err
    assert not out.exists()
    assert main(["bills", *_args(sample_dir, tmp_path / "elsewhere")]) == 0  # outside any repository: written
    assert (tmp_path / "elsewhere" / "arrears.csv").is_file()


def test_an_empty_git_folder_is_not_a_repository(sample_dir, tmp_path, capsys):
    """The twenty-sixth hostile tester, #10: `mkdir x/.git` made x "the git repository x", and the run was refused;
    a .git file naming its git folder (a worktree's) is one."""
    from calculator.core.files import in_a_repository
    (tmp_path / "x" / ".git").mkdir(parents=True)
    assert in_a_repository(tmp_path / "x" / "a" / "out") is None
    assert command.main(_args(sample_dir, tmp_path / "x" / "a" / "out", "--no-pdf")) == 0
    (tmp_path / "w").mkdir()
    (tmp_path / "w" / ".git").write_text("gitdir: /somewhere/.git/worktrees/w\n")
    assert in_a_repository(tmp_path / "w" / "out") == ("repository", str(tmp_path / "w"))


@pytest.mark.parametrize("below", ["", "sub"])
def test_both_runs_refuse_a_git_repository_made_inside_billing(sample_dir, below, capsys):
    """hostile25 #1: `git init billing/g`, then `--out billing/g` (or billing/g/sub) wrote the account files
    into that repository: billing/ was let through before a nearer .git was looked for."""
    from calculator.cli import main
    repo = ROOT / "billing" / f"nested-repo-test-{below or 'top'}"
    try:
        (repo / ".git").mkdir(parents=True)
        (repo / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
        out = repo / below if below else repo
        assert main(["bills", *_args(sample_dir, out)]) == 2
        assert f"is inside the git repository {repo}: account files must never be where `git add` would take them" \
            in capsys.readouterr().err
        assert command.main(_args(sample_dir, out, "--no-pdf")) == 2
        assert f"is inside the git repository {repo}" in capsys.readouterr().err
        assert sorted(p.name for p in repo.iterdir()) == [".git"]
    finally:
        shutil.rmtree(repo, ignore_errors=True)


@pytest.mark.parametrize("argv, says", [
    # the hostile tester: --count 99999999 ran on, unbounded
    (["--sample", "S", "--count", "99999999"], "--count 99999999 is too many: the sample has at most 50,000 accounts "
                                               "(the Town has about 1,000). Give --count 50000 or fewer."),
    (["--sample", "S", "--count", "50001"], "--count 50001 is too many: the sample has at most 50,000 accounts"),
    # options the sample or the run would leave unused, without a word
    (["--sample", "S", "--quarter", "2025-Q4", "--no-pdf"], "--sample writes the fictional sample and nothing else, "
                                                             "so --quarter, --no-pdf would not be used."),
    (["--quarter", "2025-Q4", "--accounts", "a.csv", "--reads", "r.csv", "--count", "40"], "--count is for --sample"),
    (["--quarter", "2025-Q4", "--accounts", "a.csv", "--reads", "r.csv", "--no-pdf", "--site-url", "https://x.org/"],
     "--site-url is the site the PDF bills link to, and --no-pdf makes no PDF bills."),
])
def test_the_command_refuses_a_count_too_large_and_options_it_would_not_use(argv, says, tmp_path, capsys):
    argv = [str(tmp_path / "s") if a == "S" else a for a in argv]
    assert command.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {says}") and err.endswith(" Nothing was written.\n"), err
    assert list(tmp_path.iterdir()) == []
    assert command.LARGEST == 50_000 and sample.SMALLEST <= 2000 <= command.LARGEST


def test_a_refused_run_writes_nothing_and_keeps_the_last_output(sample_dir, tmp_path, capsys):
    out = tmp_path / "billing" / sample.SECOND
    assert command.main(_args(sample_dir, out, "--no-pdf")) == 0
    before = (out / "register.csv").read_bytes()
    (sample_dir / "bad.csv").write_text("account,parcel\nA1,1\n")
    bad = _args(sample_dir, out, "--no-pdf")
    bad[bad.index("--accounts") + 1] = str(sample_dir / "bad.csv")
    assert command.main(bad) == 2
    assert "the header has no column service_address" in capsys.readouterr().err
    assert (out / "register.csv").read_bytes() == before
    assert command.main([*_args(sample_dir, tmp_path / "2027-Q1", "--no-pdf")[2:], "--quarter", "2027-Q1"]) == 2
    assert not (tmp_path / "2027-Q1").exists()
    assert not [p for p in (tmp_path / "billing").iterdir() if p.name.startswith(".")]


def test_earlier_registers_are_found_beside_the_output_folder(sample_dir, tmp_path):
    billing_dir = tmp_path / "billing"
    (billing_dir / sample.FIRST).mkdir(parents=True)
    (billing_dir / sample.FIRST / "register.csv").write_text((sample_dir / f"register-{sample.FIRST}.csv").read_text())
    (billing_dir / "notes").mkdir()
    assert command.earlier_registers(billing_dir / sample.SECOND, sample.SECOND) == [
        billing_dir / sample.FIRST / "register.csv"]
    assert command.earlier_registers(billing_dir / sample.FIRST, sample.FIRST) == []


def test_billing_is_kept_out_of_the_repository():
    assert "/billing/" in (ROOT / ".gitignore").read_text().splitlines()


# ---- the privacy guard ------------------------------------------------------------------

def test_the_build_refuses_a_folder_with_an_account_file(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "ok.csv").write_text("quarter,due_date\n2025-Q4,2025-10-15\n")
    privacy.check(tmp_path / "docs")
    (tmp_path / "docs" / "export.txt").write_text("Account\tMailing_Name\nA1\tAnn\n")
    with pytest.raises(BuildError) as refused:
        privacy.check(tmp_path / "docs")
    assert "export.txt" in str(refused.value) and "Not publishing" in str(refused.value)


def test_a_refused_file_is_told_why_and_what_to_do(tmp_path):
    """The twelfth hostile tester (F19): a committed brochure PDF was told to `git add` it, already done. Each file
    refused is named with its own reason: a PDF is never published from docs/; a picture must be listed."""
    docs = tmp_path / "docs"
    (docs / "assets").mkdir(parents=True)
    (docs / "assets" / "brochure.pdf").write_bytes(b"%PDF-1.7 a brochure\n")
    (docs / "assets" / "photo.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    with pytest.raises(BuildError) as refused:
        privacy.check(docs)
    said = str(refused.value)
    pdf = next(line for line in said.splitlines() if "brochure.pdf" in line)
    assert "never published from docs/ or rules/" in pdf and "git add" not in pdf
    png = next(line for line in said.splitlines() if "photo.png" in line)
    assert "extra: pictures:" in png


def test_no_account_file_is_kept_in_the_sources_and_a_copied_sample_is_refused(tmp_path):
    """The sources hold no account file, not even the fictional sample (the build makes it); a
    copy of the sample put under docs/ by hand is refused like any account file."""
    assert privacy.account_files(ROOT / "docs", ROOT / "rules") == []
    assert not (ROOT / "docs" / sample.DOCS_FOLDER).exists()
    copied = tmp_path / "docs" / sample.DOCS_FOLDER
    copied.mkdir(parents=True)
    files = sample.sample_files(sample.SMALLEST)
    for name, text in files.items():
        (copied / name).write_text(text)
    assert privacy.account_files(tmp_path / "docs") == sorted(copied / name for name in files)


def test_the_built_site_publishes_the_sample_billed_by_its_rules(built_site):
    """/billing-sample/ is the generated sample with its earlier register billed by the rules built."""
    from kit.site.build import validate_rules
    published = built_site / sample.DOCS_FOLDER
    expected = sample.sample_files(sample.DOCS_COUNT, rules=validate_rules())
    assert sorted(p.name for p in published.iterdir()) == sorted(expected)
    for name, text in expected.items():
        assert (published / name).read_text(encoding="utf-8") == text, name


def test_the_site_build_runs_the_guard_first(tmp_path, monkeypatch):
    from kit.site import build as site
    monkeypatch.setattr(site, "ROOT", tmp_path)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "accounts.csv").write_text("account,mailing_name\nA1,Ann\n")
    with pytest.raises(BuildError):
        site.build(site=tmp_path / "site")
    assert not (tmp_path / "site").exists()


# what the fourth hostile tester committed under docs/ (tracked, so the source guard trusted it) and the
# build published: each format, as the file the site would serve
TRACKED = {
    "owners.csv": "10023,Zed Quixote,12 Main St,45.20\n10024,Ann Example,14 Main St,60.00\n",  # no header
    "church.csv": "10025,7 Church St,96.00\n",  # a street named like a Town place is still a street
    "owed.txt": "A-1001\tMaría de la Cruz\t7 Route 22\t$120.50\n",  # TSV named .txt
    "owed/index.html": "<table><tr><th>Acct</th><th>Owner</th></tr>"  # a Markdown table, as mkdocs renders it
                       "<tr><td>1001</td><td>Pat Smith</td><td>$45.20</td></tr></table>",
    "fenced/index.html": "<pre><code>account,mailing_name,service_address\n"  # a fenced accounts.csv
                         "1001,SMITH JOHN,3 Quaker Hill Rd\n</code></pre>",
    "roster.js": 'const roster=[{acct:"1001",owner:"Jane Doe",addr:"12 Main St",due:45.2}];',
    "roster.json": '[\n  {\n    "acct": "1001",\n    "owner": "Jane Doe"\n  }\n]\n',  # pretty: one key a line
    "owners.yml": "- account: A1\n  owner: Ann Example\n",
}


@pytest.mark.parametrize("name", sorted(TRACKED))
def test_the_built_site_is_read_for_account_data_whatever_its_format(tmp_path, name):
    """Issue 35, the fourth hostile tester: account data in files the repository tracks was published (a
    headerless CSV, a TSV named .txt, a Markdown table, a fenced accounts.csv, a script's roster). The
    built site is read before it is published; each of these is refused, and the site's own pages, the
    fictional sample's streets and the Town's figures are not."""
    site = tmp_path / "site"
    (site / "law").mkdir(parents=True)
    (site / "law" / "index.html").write_text(  # a rate table and an office's address: not account data
        "<table><tr><td>Minimum charge</td><td>8,000 gallons</td><td>$45.20</td></tr></table>"
        "<p>Town Hall, 160 Charles Colman Blvd, Pawling. Call 845-855-1122.</p>"
        "<table><tr><td>Pawling Town Hall</td><td>160 Charles Colman Blvd</td><td>2025-10-30</td><td>$64.51</td></tr>"
        "<tr><td>Resolution 2025-88</td><td>moved by Jane Smith</td><td>2025-11-10</td></tr></table>"
        "<pre><code>account,mailing_name,service_address\nS10001,Avery Alder,12 Example Lane\n</code></pre>")
    privacy.check_site(site)
    path = site / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(TRACKED[name], encoding="utf-8")
    with pytest.raises(BuildError) as refused:
        privacy.check_site(site)
    assert f"  {name}: " in str(refused.value) and "Take it out of the page or file under docs/" in str(refused.value)


# what the fifth hostile tester published from docs/notes/ (each as mkdocs renders it): billing exports
# as words, not cells, a row over several lines, a comment, entities, a record over three paragraphs
FREE_TEXT = {
    "caps": "<p>WHITFIELD DANA 22 ROUTE 22 1204.33</p>",
    "surname-first": "<p>Some notes\nOrtega, Luis: 388.10</p>",
    "words": "<ul>\n<li>Whitfield — twenty-two Route 22 — $1,204.33</li>\n</ul>",
    "comment": "<p>Notes.</p>\n<!-- shutoff list: Dana Whitfield 22 Route 22 Pawling NY 12564 $1,204.33 -->",
    "paragraphs": "<p>Dana Whitfield</p>\n<p>22 Route 22</p>\n<p>owed $1,204.33</p>",
    "entities": "<p>&#68;ana &#87;hitfield, &#50;2 &#82;oute 22, &#36;1,204.33</p>",
    "table": "<table>\n<thead>\n<tr>\n<th>Name</th>\n<th>Street</th>\n<th>Owed</th>\n</tr>\n</thead>\n<tbody>\n"
             "<tr>\n<td>D. Whitfield</td>\n<td>22 Rt 22</td>\n<td>1204.33</td>\n</tr>\n</tbody>\n</table>",
    "html-comment": "<html><head></head><body><!-- DANA WHITFIELD 22 ROUTE 22 PAWLING 1204.33 --></body></html>",
}


def _refused_beside(tmp_path, ours: tuple[str, str], theirs: tuple[str, str]) -> str:
    """The site's own page `ours` (its path, its HTML) passes the guard; with `theirs` beside it, the guard
    refuses: its message, to read the page it names."""
    site = tmp_path / "site"
    for (path, html), check in ((ours, privacy.check_site), (theirs, None)):
        (site / path).parent.mkdir(parents=True, exist_ok=True)
        (site / path).write_text(html, encoding="utf-8")
        if check:
            check(site)
    with pytest.raises(BuildError) as refused:
        privacy.check_site(site)
    return str(refused.value)


@pytest.mark.parametrize("case", sorted(FREE_TEXT))
def test_an_account_list_in_words_a_comment_or_entities_is_not_published(tmp_path, case):
    """The fifth hostile tester: "SURNAME FIRST street amount", "Surname, First: amount", a street in
    words, an HTML comment, entities, a name, street and amount as three paragraphs, and a Markdown
    table's row (mkdocs writes each cell on its own line) were all published. Each is refused; the
    Town's own address with a fee, and the sample's invented street with an amount, are not."""
    ours = ("contact/index.html",
            "<p>Pawling Town Hall</p>\n<p>160 Charles Colman Blvd</p>\n<p>The fee is $45.20.</p>\n"
            "<p>Avery Alder</p>\n<p>12 Example Lane</p>\n<p>$96.00</p>\n"
            "<table>\n<tr>\n<td>Minimum charge</td>\n<td>8,000 gallons</td>\n<td>$45.20</td>\n</tr>\n</table>\n"
            "<p>Route 22 is closed on 2025-10-30 from 8.00 to 9.30.</p>")
    assert "  notes/x.html: " in _refused_beside(tmp_path, ours, ("notes/x.html", FREE_TEXT[case]))


# what the seventh hostile tester published from docs/assets/ (tracked): a script's object literal, a parcel
# with a name and an amount in words
SEVENTH = {
    "notes.js": 'const owed = {"A-2231": ["Maria Gonzalez", "464.85"]};\n',
    "keyed.js": "export const owed = {'Maria Gonzalez': 464.85};\n",
    "objects.mjs": 'const rows = [\n  {who: "Maria Gonzalez",\n   left: 464.85},\n];\n',
    "string.ts": 'const note: string = "Ortega, Luis: 388.10";\n',
    "inline/index.html": '<p>Notes</p><script>var owed = {"A-2231": ["Maria Gonzalez", "464.85"]};</script>',
    "notes.txt": "The Board should call Maria Gonzalez about parcel 7158-00-123456; she still owes four hundred "
                 "sixty-four dollars.\n",
    "parcel.txt": "Check parcel 7158-00-123456 before the levy.\n",
    "swis.csv": "135889-7158-00-123456\n",
    "in-words.txt": "The Board should call Maria Gonzalez; she still owes four hundred sixty-four dollars.\n",
    "in-words/index.html": "<p>Dana Whitfield still owes one thousand two hundred and four dollars.</p>",
}


@pytest.mark.parametrize("name", sorted(SEVENTH))
def test_a_script_s_literals_a_parcel_and_an_amount_in_words_are_not_published(tmp_path, name):
    """The seventh hostile tester: `const owed = {"A-2231": ["Maria Gonzalez", "464.85"]};` (caught as
    JSON, published as a script) and "call Maria Gonzalez about parcel 7158-00-123456; she still owes four
    hundred sixty-four dollars" were published. A script's (and a page's <script>'s) arrays and objects are
    read by their literals, cell by cell, and its strings as words; a tax-map parcel is account data
    anywhere, and so is a name with an amount in words. The site's own scripts and words, and the fictional
    sample's parcels (9999-…), are not."""
    site = tmp_path / "site"
    (site / "assets").mkdir(parents=True)
    (site / "assets" / "own.js").write_text(
        'const labels = {"Minimum charge": "$64.00", "Total": "464.85"};\n'
        'const steps = [["Rate per 1,000 gallons", 12.24], ["Sewage volume", "9,600"]];\n'
        'const sample = {parcel: "9999-00-001000", name: "Avery Alder (fictional)"};\n'
        'if (a ? b : c) { x = {"Dana": 3}; }\n', encoding="utf-8")
    (site / "law").mkdir()
    (site / "law" / "index.html").write_text(
        "<p>The Town Board may charge one hundred dollars for a permit.</p>"
        "<p>Under Local Law 1-2026 the fee is fifty dollars.</p>"
        "<p>Sample parcel 9999-01-002000, Avery Alder (fictional).</p>"
        '<script>var config = {"base": "..", "features": ["navigation.tabs"], "version": "1.2.3"};</script>',
        encoding="utf-8")
    privacy.check_site(site)
    path = site / "assets" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(SEVENTH[name], encoding="utf-8")
    with pytest.raises(BuildError) as refused:
        privacy.check_site(site)
    assert f"  assets/{name}: " in str(refused.value), refused.value
    if "parcel" in SEVENTH[name] or name == "swis.csv":
        assert "'parcel " in str(refused.value) and "7158-00-123456" in str(refused.value)
    if name in ("notes.js", "inline/index.html"):
        assert "'Maria Gonzalez, 464.85'" in str(refused.value)


def test_a_tracked_bill_run_file_anywhere_in_the_repository_stops_the_build(tmp_path):
    """The seventh hostile tester committed calculator/register.csv and arrears.csv (written there by the
    engine's run) and the build said nothing: the repository is pushed whole. A file the repository tracks
    anywhere, by a run's name or a run's first line, is refused; the same files not tracked are left to the
    other checks."""
    repo = tmp_path / "repo"
    (repo / "calculator").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    out = billing.run(RULES, "2025-Q4", ("a.csv", CASES[1]["accounts"]), ("r.csv", CASES[1]["reads"]),
                      None, [("e.csv", "account,quarter,charge\nA1,2025-Q3,96.00\n")])
    (repo / "README.md").write_text("a project\n")
    (repo / "calculator" / "arrears.csv").write_text(out["files"]["arrears.csv"], encoding="utf-8")
    (repo / "levy.txt").write_text(out["files"]["register.csv"], encoding="utf-8")  # a run's file by another name
    subprocess.run(["git", "-C", str(repo), "add", "README.md"], check=True)
    privacy.check_repository(repo)  # not tracked: not this check's
    subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True)
    with pytest.raises(BuildError) as refused:
        privacy.check_repository(repo)
    assert "the repository tracks calculator/arrears.csv, levy.txt, the bill run's account files" in str(refused.value)
    assert "git rm --cached FILE" in str(refused.value)
    privacy.check_repository(tmp_path / "not-a-repository")  # a copy of the project without git: nothing to check


@pytest.mark.parametrize("where, words, line", [  # line: where the record of account data is complete
    ("rules/liens-2025.yaml", "liens:\n  - name: Dana Whitfield\n    street: 22 Route 22\n    owed: \"1204.33\"\n", 3),
    ("rules/holidays.yaml", "holidays: []\n# Whitfield Dana, 22 Route 22: 1204.33\n", 2),
    ("docs/templates/pages/index.md.j2", "# Home\n{# liens: Whitfield Dana, 22 Route 22: 1204.33 #}\n", 2),
    ("pyproject.toml", "[project]\nname = 'x'\n# liens: Maria Gonzalez, 14 Oak Street, 464.20\n", 3),
])
@pytest.mark.parametrize("tracked", [False, True])
def test_account_data_in_a_source_comments_included_stops_the_build_and_validate(tmp_path, where, words, line, tracked):
    """The twelfth hostile tester (F3): a list of liens in YAML under rules/ (as data, or as a comment), in a
    template's Jinja comment and in a comment of pyproject.toml was built and pushed; validate said "rules OK".
    The repository's sources are read whole, comments included, tracked or about to be, with the file and line
    named; the same sources without the line pass."""
    repo = tmp_path / "repo"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    path = repo / where
    path.parent.mkdir(parents=True, exist_ok=True)
    clean = "\n".join(line for line in words.splitlines() if not re.search(r"\d{3}\.\d\d|Whitfield|Gonzalez", line))
    path.write_text(clean + "\n", encoding="utf-8")
    (repo / "tests").mkdir()
    (repo / "tests" / "fixture.yaml").write_text(words, encoding="utf-8")  # the tests' fixtures are not read
    subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True)
    privacy.check_sources(repo)
    assert privacy.source_problems(repo) == []
    path.write_text(words, encoding="utf-8")
    if tracked:
        subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True)
    with pytest.raises(BuildError) as refused:
        privacy.check_sources(repo)
    said = str(refused.value)
    assert f"{where}:" in said and "looks like account data" in said and "pushed whole" in said
    assert privacy.source_problems(repo)[0].startswith(f"{where}:{line}: ")


@pytest.mark.parametrize("name, content", [
    ("bench/data/reads.csv", "account,previous_reading,current_reading,read_date\nA-1001,120500,132500,2025-09-30\n"),
    ("notes/owed.csv", "name,balance\nLuis Ortega,388\n"),
    ("paperwork/october-bills.pdf", "%PDF-1.7 the run's bills, renamed\n"),
    ("paperwork/accounts.xlsx", "PK\x03\x04 a spreadsheet\n"),
    ("paperwork/accounts.csv.gz", "\x1f\x8b a compressed list\n"),
])
def test_an_account_file_committed_anywhere_stops_the_build(tmp_path, name, content):
    """The fourteenth hostile tester: a committed reads file, a `name,balance` list, the run's PDF bills renamed, a
    spreadsheet and an archive outside docs/ and rules/ all built. The repository is pushed whole: each is refused."""
    repo = tmp_path / "repo"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    path = repo / name
    path.parent.mkdir(parents=True)
    path.write_text(content, encoding="utf-8")
    (repo / "notes").mkdir(exist_ok=True)
    (repo / "notes" / "dates.csv").write_text("quarter,due_date\n2025-Q4,2025-10-15\n", encoding="utf-8")
    subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True)
    with pytest.raises(BuildError) as refused:
        privacy.check_repository(repo)
    assert name in str(refused.value) and "notes/dates.csv" not in str(refused.value)


def test_base64_in_a_sources_comment_is_read(tmp_path):
    """The fourteenth hostile tester (listed out of scope, but the README says base64 runs are decoded): the
    accounts file base64-encoded in a comment of rules/contacts.yaml built without a word."""
    repo = tmp_path / "repo"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "rules").mkdir()
    listing = "account,mailing_name,service_address,amount\nA-1001,Dana Whitfield,22 Route 22,1204.33\n"
    (repo / "rules" / "contacts.yaml").write_text(
        "contacts: []\n# " + base64.b64encode(listing.encode()).decode() + "\n", encoding="utf-8")
    assert privacy.source_problems(repo) and "base64" in privacy.source_problems(repo)[0]


def test_the_projects_own_sources_hold_no_account_data():
    """The check the build runs on this repository finds nothing in its own sources (no false alarm)."""
    assert privacy.source_problems(ROOT) == []


# what the eighth hostile tester published (F1): amounts with a trailing $, USD or a decimal comma, and an
# e-mail address, a phone number or an account number with an amount; names with their amounts a line below
EIGHTH = {
    "comma": "<ul>\n<li>Jose Nunez Ortiz: 300,00 $</li>\n</ul>",
    "usd": "<ul>\n<li>Maria Gonzalez: USD 388.10</li>\n</ul>",
    "email": "<ul>\n<li>tcobble@example.com: 464.85</li>\n</ul>",
    "phone": "<ul>\n<li>(845) 555-0142: 381.92</li>\n</ul>",
    "account": "<ul>\n<li>S10021 — 464.85</li>\n<li>S10029 — 501.71</li>\n</ul>",
    "next-line": "<p>T. Cobble / I. Birchwood</p>\n<p>Balances, same order: 464.85; 501.71</p>",
    "cells": "<table><tr><td>A-1001</td><td>1.204,33 €</td></tr></table>",
}


@pytest.mark.parametrize("case", sorted(EIGHTH))
def test_who_owes_what_is_not_published_however_the_amount_is_written(tmp_path, case):
    """The eighth hostile tester (F1): only "$123.45" beside a name was caught; "Jose Nunez Ortiz: 300,00 $",
    "Maria Gonzalez: USD 388.10", "tcobble@example.com: 464.85", "(845) 555-0142: 381.92", "S10021 — 464.85"
    and names with their balances on the next line were published. Each is refused; the site's prices, the
    Town's phone and its example amounts are not."""
    ours = ("rates/index.html",
            "<p>The rate is $10.00 per 1,000 gallons.</p>\n<p>Example: 12,000 gallons cost $122.40.</p>\n"
            "<p>Call the Town Clerk at (845) 855-1122 about a $45.20 bill.</p>\n<p>Minimum charge: $64.00</p>\n"
            "<p>Local Law 1-2026: 15%</p>\n"
            "<p>From 8.00 to 9.30, Route 22.</p>\n<p>Avery Alder (fictional): $96.00</p>")
    assert "  extra/index.html: " in _refused_beside(tmp_path, ours, ("extra/index.html", EIGHTH[case]))


# what the twelfth hostile tester published (F4, F5, F9, F10): Spanish addresses and amounts, a name far from
# its balance in one sentence, residents' contacts, the County's parcel forms, a link's query, hex and gzip
_ARREARS = "account,parcel,mailing_name,service_address,amount\nA-1001,1234-00-123456,Dana Whitfield,22 Route 22,1204.33\n"
TWELFTH = {
    "spanish-sentence": "<p>La señora María González, con domicilio en la calle Roble número 14, adeuda 464,20 dólares.</p>",
    "spanish-address": "<p>María González, calle Roble 14, Pawling.</p>",
    "spanish-words": "<p>El señor Luis Ortega, calle Mayor 3, adeuda trescientos ochenta y ocho dólares.</p>",
    "far-apart": "<p>Our longtime neighbor Maria Gonzalez, who taught at the elementary school on Route 22 for many "
                 "years and still sings in the choir every Sunday, has a sewer balance of $464.20 from last quarter.</p>",
    "contacts": "<ul><li>dana.whitfield@gmail.com, 845-555-0134</li><li>mgonzalez1962@yahoo.com, (845) 555-0199</li></ul>",
    "grid-parcel": "<p>Parcels: 135889-7158-00-123456-0000</p>",
    "sbl": "<p>SBL 7158.00-12-3456</p>",
    "query": '<p><a href="https://pay.example.com/?name=Maria%20Gonzalez&addr=14%20Oak%20Street&amount=464.20">pay</a></p>',
    "hex": "<script>const h = \"" + "Whitfield Dana, 22 Route 22, 1204.33".encode().hex() + "\";</script>",
    "gzip-base64": "<script>const z = \"" + base64.b64encode(__import__("gzip").compress(_ARREARS.encode(), mtime=0)).decode()
                   + "\";</script>",
    # whole dollars in a sentence naming who owes (the fourteenth hostile tester)
    "whole-dollars": "<p>Lowered after Luis Ortega asked; he still owes $388.</p>",
    "whole-dollars-es": "<p>La tarifa bajó después de que Luis Ortega preguntara, que debe 388 dólares.</p>",
    "whole-thousands": "<p>Dana Whitfield has an unpaid balance of $1,204.</p>",
}


@pytest.mark.parametrize("case", sorted(TWELFTH))
def test_what_the_twelfth_hostile_tester_published_is_refused(tmp_path, case):
    """Each form the twelfth hostile tester published is refused; the Town's own contacts, the site's prices and
    a sentence about paying late with an amount and no person are not."""
    ours = ("rates/index.html",
            "<p>Town Clerk: (845) 855-1122, clerk@pawlingny.gov</p>\n"
            "<p>If you pay late, the unpaid charge of $74.80 gets a 15% late penalty of $11.22.</p>\n"
            "<p>Si paga tarde, el cargo sin pagar de $74.80 tiene un recargo de $11.22.</p>\n"
            "<p>Ayuntamiento, calle Principal 160, Pawling.</p>\n<p>Tax map 9999-00-000123: the sample's.</p>\n"
            "<p>If you pay late, you owe $14 more. The Town Board set a $150 fee.</p>")
    assert "  extra/index.html: " in _refused_beside(tmp_path, ours, ("extra/index.html", TWELFTH[case]))


# what the ninth hostile tester published (F1): account data in a tag's attributes, not its text
NINTH = {
    "title": '<p><span title="Whitfield D., 14 Maple Ave., owes 1204.33" data-x="acct S10044"></span></p>',
    "alt": "<p><img src=a.png alt='Ortega, Luis: 388.10'></p>",
    "aria": '<p><a href="#" aria-label="tcobble@example.com: 464.85">x</a></p>',
    "data": '<div data-owner="Maria Gonzalez" data-owed="Maria Gonzalez: USD 388.10"></div>',
    "meta": '<meta name="description" content="Dana Whitfield of 14 Maple Ave. owes $1,204.33">',
    "entities": '<span title="Whitfield D., 14 Maple Ave., owes 1204&#46;33">x</span>',
}


@pytest.mark.parametrize("case", sorted(NINTH))
def test_account_data_in_a_tags_attributes_is_not_published(tmp_path, case):
    """The ninth hostile tester (F1): `<span title="Whitfield D., 14 Maple Ave., owes 1204.33">` was
    published (only the page's text was read). The words in title, alt, aria-label, data-* and a <meta>'s
    content are read as the page's text is; the site's own attributes (a price in a title, a link's label)
    pass."""
    site = tmp_path / "site"
    (site / "rates").mkdir(parents=True)
    (site / "rates" / "index.html").write_text(
        '<meta name="description" content="The rate is $10.00 per 1,000 gallons.">\n'
        '<p><abbr title="12,000 gallons cost $122.40">Example</abbr></p>\n'
        '<p><a href="/" aria-label="Call the Town Clerk at (845) 855-1122">Call</a></p>\n'
        '<p><input name="water-gallons" value="12000" placeholder="12,000"></p>', encoding="utf-8")
    privacy.check_site(site)
    (site / "extra").mkdir()
    (site / "extra" / "index.html").write_text(NINTH[case], encoding="utf-8")
    with pytest.raises(BuildError) as refused:
        privacy.check_site(site)
    assert "  extra/index.html: " in str(refused.value)


def test_a_tracked_levy_list_without_its_header_stops_the_build(tmp_path):
    """The eighth hostile tester (F2): arrears.csv's rows without its first two lines, committed as
    notes/followup.csv, were not caught (with its header they were). The rows are read: a tax-map parcel,
    or a name with a street and an amount, stops the build; the fictional sample's rows and a tracked list
    of words do not."""
    repo = tmp_path / "repo"
    (repo / "notes").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "notes" / "sample.csv").write_text(
        'SAMPLE-10002,9999-00-001000,Avery Alder (fictional),"318 Example Lane, Pawling, NY 12564",2025-Q3,64.00\n')
    (repo / "notes" / "words.txt").write_text("gallons\nquarter\n$10.00 per 1,000 gallons\n")
    subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True)
    privacy.check_repository(repo)
    rows = {"followup.csv": 'S10002,7158-00-001000,Avery Dunmore,"318 Elm Street, Pawling, NY 12564",2025-Q3,'
                            '64.00,64.00,0.00,9.60\n',
            "no-parcel.csv": 'S10003,,Avery Dunmore,"318 Elm Street, Pawling, NY 12564",2025-Q3,64.00\n'}
    for name, text in rows.items():
        (repo / "notes" / name).write_text(text)
        subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True)
        with pytest.raises(BuildError) as refused:
            privacy.check_repository(repo)
        assert f"the repository tracks notes/{name}, " in str(refused.value)
        subprocess.run(["git", "-C", str(repo), "rm", "-q", "-f", f"notes/{name}"], check=True)


def test_the_bill_runs_register_without_its_header_is_not_published(tmp_path):
    """The fifth hostile tester: `tail -n +2 register.csv > docs/notes/r.txt` (account numbers, readings,
    arrears, each bill's link) was published. Its rows are known by their shape."""
    out = billing.run(RULES, "2025-Q4", ("a.csv", CASES[1]["accounts"]), ("r.csv", CASES[1]["reads"]),
                      None, [("e.csv", "account,quarter,charge\nA1,2025-Q3,96.00\n")])
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "r.txt").write_text(out["files"]["register.csv"].split("\n", 1)[1], encoding="utf-8")
    with pytest.raises(BuildError) as refused:
        privacy.check_site(tmp_path)
    assert "  notes/r.txt: " in str(refused.value)


def test_the_built_site_passes_with_its_sample_and_only_while_it_is_the_sample(built_site, tmp_path):
    """The site as built passes; its sample passes only as the bytes the build made (read without that
    allowance, the sample's own files are refused: the reader sees account files for what they are)."""
    from kit.site.build import validate_rules
    expected = {f"{sample.DOCS_FOLDER}/{name}": text.encode("utf-8")
                for name, text in sample.sample_files(sample.DOCS_COUNT, rules=validate_rules()).items()}
    privacy.check_site(built_site, generated=expected)
    # the sample's folder alone, as built, read without the allowance and with other bytes (the whole site is read
    # once, above: three readings of it took 12 s of every run)
    alone = tmp_path / "site"
    shutil.copytree(built_site / sample.DOCS_FOLDER, alone / sample.DOCS_FOLDER)
    with pytest.raises(BuildError) as refused:
        privacy.check_site(alone)
    assert f"  {sample.DOCS_FOLDER}/payments.csv: " in str(refused.value)
    changed = {**expected, f"{sample.DOCS_FOLDER}/payments.csv": b"account,quarter,amount,paid_on\n"}
    with pytest.raises(BuildError):
        privacy.check_site(alone, generated=changed)
    privacy.check_site(alone, generated=expected)


def test_a_committed_account_list_stops_the_build_and_keeps_the_site(tmp_path, monkeypatch):
    """End to end: a headerless list of owners and balances the repository tracks (so the source guard
    reads only its header, and finds none) stops the build once the site is built, and the site built
    before stays as it was."""
    from kit.site import build as site
    staged = site.stage_docs

    def with_a_committed_list(staging):
        docs = staged(staging)
        (docs / "owners.csv").write_text(TRACKED["owners.csv"], encoding="utf-8")
        return docs
    monkeypatch.setattr(site, "stage_docs", with_a_committed_list)
    target = tmp_path / "site"
    target.mkdir()
    (target / "index.html").write_text("the site built before")
    with pytest.raises(BuildError) as refused:
        site.build(target)
    assert "  owners.csv: '10023,Zed Quixote,12 Main St,45.20'" in str(refused.value)
    assert (target / "index.html").read_text() == "the site built before"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]  # no staging folder left


# ---- the PDF bills ----------------------------------------------------------------------

@pytest.mark.parametrize("chunk", [100, 2], ids=["one-process", "chunks-joined"])
def test_the_bills_are_tagged_pdfs_one_page_an_account_in_its_language(tmp_path, monkeypatch, chunk):
    """A small run with PDFs: one document a language, a page an account, pdfua with no finding,
    and each page's link is the estimate page for that usage and quarter, in that language. With
    chunks of 2 the bills are laid out in several processes and joined (tagged_pdf.join_tagged):
    the joined document keeps one structure tree whose elements point at its own pages."""
    import pikepdf
    from test_tagged_pdf import assert_pdfua_clean, pdfua_check

    from kit.billrun import bills_pdf
    monkeypatch.setattr(bills_pdf, "CHUNK", chunk)
    sample.write(tmp_path / "in", 12)
    out = tmp_path / "billing" / sample.SECOND
    assert command.main(_args(tmp_path / "in", out, "--site-url", "https://sewer.pawling.example/")) == 0
    register = _table((out / "register.csv").read_text())
    for language, tag in (("en", "en-US"), ("es", "es-US")):
        rows = [r for r in register if r["language"] == language]
        data = (out / f"bills-{language}.pdf").read_bytes()
        assert_pdfua_clean(pdfua_check(data, tmp_path, f"bills-{language}.pdf"))
        with pikepdf.open(out / f"bills-{language}.pdf") as pdf:
            assert str(pdf.Root.Lang) == tag
            assert len(pdf.pages) == len(rows)
            # one link a page (a link broken over two lines is two annotations with one address)
            links = [link for page in pdf.pages
                     for link in dict.fromkeys(str(a.A.URI) for a in page.get("/Annots", []) if "/A" in a)]
            _assert_one_structure_tree(pdf, len(rows))
        assert links == ["https://sewer.pawling.example/" + r["estimate_link"] for r in rows]
        assert all(link.startswith("https://sewer.pawling.example/" + ("es/" if language == "es" else "") + "estimate/?")
                   for link in links)


def _assert_one_structure_tree(pdf, bills):
    """One Document element with a section a bill; every element's page is one of the document's
    pages, every element's /P is its parent, and every link's /StructParent leads to its element."""
    import pikepdf
    tree = pdf.Root.StructTreeRoot
    (document,) = tree.K if isinstance(tree.K, pikepdf.Array) else [tree.K]
    assert [str(kid.S) for kid in document.K] == ["/Sect"] * bills
    pages = {page.obj.objgen for page in pdf.pages}
    seen = set()

    def walk(element):
        if element.objgen in seen:
            return
        seen.add(element.objgen)
        if "/Pg" in element:
            assert element.Pg.objgen in pages
        kids = element.get("/K", [])
        for kid in kids if isinstance(kids, pikepdf.Array) else [kids]:
            if isinstance(kid, pikepdf.Dictionary) and "/S" in kid:
                assert kid.P.objgen == element.objgen
                walk(kid)
    walk(document)
    parents = pikepdf.NumberTree(tree.ParentTree)
    annotations = [a for page in pdf.pages for a in page.get("/Annots", [])]
    assert annotations
    for annotation in annotations:
        element = parents[int(annotation.StructParent)]
        assert any(isinstance(k, pikepdf.Dictionary) and "/Obj" in k and k.Obj.objgen == annotation.objgen
                   for k in element.K)
    assert int(tree.ParentTreeNextKey) > max(int(key) for key, _ in parents.items())


def test_python_m_calculator_bills_writes_what_build_py_bills_writes(sample_dir, tmp_path):
    """The engine's own command (what the desk runs in the browser) and the kit's, on the same files."""
    import json
    kit_out = tmp_path / "kit"
    assert command.main(_args(sample_dir, kit_out, "--no-pdf")) == 0
    argv = _args(sample_dir, tmp_path / "engine")
    done = subprocess.run([sys.executable, "-m", "calculator", "bills", *argv], capture_output=True, text=True,
                          cwd=ROOT, check=True)
    answer = json.loads(done.stdout)
    assert [Path(p).name for p in answer["written"]] == ["register.csv", "summary.csv", "arrears.csv", "refused.csv"]
    for name in ("register.csv", "summary.csv", "arrears.csv", "refused.csv"):
        assert (tmp_path / "engine" / name).read_bytes() == (kit_out / name).read_bytes(), name
    assert answer["accounts_billed"] == len(_table((kit_out / "register.csv").read_text()))


def test_a_spreadsheet_s_byte_order_mark_and_header_case_are_read_as_written():
    plain = billing.run(RULES, "2025-Q4", ("a.csv", CASES[1]["accounts"]), ("r.csv", CASES[1]["reads"]))
    marked = billing.run(RULES, "2025-Q4", ("a.csv", "\ufeff" + CASES[1]["accounts"].replace("account,", "Account,", 1)),
                         ("r.csv", CASES[1]["reads"].upper().replace("YES", "yes")))
    assert marked["files"] == plain["files"]


def test_penalties_are_counted_to_the_as_of_day():
    case = next(c for c in CASES if c["name"].startswith("A payment for a quarter never billed"))
    later = billing.run(RULES, case["quarter"], ("accounts.csv", case["accounts"]), ("reads.csv", case["reads"]),
                        None, [("register.csv", case["earlier"])], as_of="2025-08-14")
    line = later["register"][0]
    # the Q3 bill's last day to pay is August 14: counted to that day, no penalty; to the due date
    # (October 15, the default), one period (August 15): 14.40
    assert (line["arrears"], line["penalties"], line["penalties_as_of"]) == ("96.00", "0.00", "2025-08-14")
    default = billing.run(RULES, case["quarter"], ("accounts.csv", case["accounts"]), ("reads.csv", case["reads"]),
                          None, [("register.csv", case["earlier"])])["register"][0]
    assert (default["penalties"], default["penalties_as_of"]) == ("14.40", "2025-10-15")


@pytest.mark.parametrize("chosen, unpaid_charge, penalties", [
    # counted to November 14, 2025 (the latest day a 2025-Q4 run may count to): one period begun
    # (August 15). 60.00 to the charge: its penalty stops at 9.00; 40.00 unpaid carries 6.00: 15.00
    ("charge-first", "40.00", "15.00"),
    # 15.00 to the penalty owed on 1 September, 45.00 to the charge (6.75 on it); 55.00 unpaid carries
    # 8.25: 15.00 accrued, all of it paid
    ("penalties-first", "55.00", "0.00"),
])
def test_a_part_payment_is_applied_as_the_recorded_reading_says(chosen, unpaid_charge, penalties):
    """rules/interpretations/payment-order.yaml: the run follows whichever option is chosen."""
    import copy
    rules = copy.deepcopy(RULES)
    rules["interpretations"]["payment-order"]["chosen"] = chosen
    result = billing.run(rules, "2025-Q4",
                         ("accounts.csv", "account,parcel,service_address,mailing_name,mailing_address,language,meter\n"
                                          "A1,1-1-1,1 Example Lane,Ann Example,PO Box 1,en,water-gallons\n"),
                         ("reads.csv", "account,usage\nA1,12000\n"),
                         ("payments.csv", "account,quarter,amount,paid_on\nA1,2025-Q3,60.00,2025-09-01\n"),
                         [("register.csv", "account,quarter,charge\nA1,2025-Q3,100.00\n")], "2025-11-14")
    (owed,) = result["arrears"]
    assert (owed["unpaid_charge"], owed["penalties"]) == (unpaid_charge, penalties)
    assert result["register"][0]["penalties"] == penalties


def test_the_paper_bill_names_the_rate_in_a_residents_words(sample_run):
    """The rate row of a paper bill says what the rate is ("Rate per 1,000 gallons"), not the
    law's letters "Rate (VC)" (issue 19), in English and in Spanish, with the register's rate beside it."""
    import re
    from calculator.core import money
    from calculator.core.i18n import localized, speaking
    from kit.billrun.bills_pdf import bill_html
    _, result = sample_run
    for language, label in (("en", "Rate per 1,000 gallons"), ("es", "Tarifa por cada 1,000 galones")):
        row = next(r for r in result["register"] if r["language"] == language)
        with speaking(language):
            html = bill_html(localized(RULES), row, result["accounts"][row["account"]], "https://example.org/")
        rate = money.dollars(Decimal(row["vc_per_1000_gallons"]))
        assert re.search(rf'<th scope="row">{label}</th><td>{re.escape(rate)}</td>', html), language
        # (the citations keep the law's own headings, "Computation of VC" among them)
        assert not re.search(r"<th[^>]*>[^<]*VC", html), language


def test_the_spanish_bill_names_the_law_in_spanish_and_tags_its_english(sample_run, tmp_path):
    """Issue 22: the steps of a Spanish bill named each section of the law in English, unmarked
    ("(Sewer rents F (Due dates and late penalty))"). They name it in Spanish, and what stays
    English (the law's name quoted once, each section's own heading) is a /Span with /Lang en in
    the tagged PDF, which pdfua passes; the English detector finds no English outside them."""
    import re

    import pikepdf
    from english import english_sentences, visible_text
    from test_tagged_pdf import assert_pdfua_clean, pdfua_check

    from calculator.core.i18n import localized, speaking
    from kit.billrun.bills_pdf import bill_html
    from kit.documents.layout import document_html
    from kit.documents.tagged_pdf import html_to_pdf
    _, result = sample_run
    row = next(r for r in result["register"] if r["language"] == "es")
    with speaking("es"):
        body = bill_html(localized(RULES), row, result["accounts"][row["account"]], "https://example.org/")
        html = document_html(body, title="Factura", lang="es-US", kind="bills")
    # the Spanish name alone, with no English gloss (spanish13 C-2, spanish14 C-1)
    assert "(en inglés, “sewer" not in body and "(Cargos de alcantarillado, sección " in body
    assert "Sewer rents" not in body and ">Sewer" not in body
    english = [s for s in english_sentences(visible_text(body)) if s.strip()]
    assert not english, english
    data = html_to_pdf(html, title="Factura", lang="es-US")
    assert_pdfua_clean(pdfua_check(data, tmp_path, "bill-es.pdf"))
    (tmp_path / "bill.pdf").write_bytes(data)
    with pikepdf.open(tmp_path / "bill.pdf") as pdf:
        tagged = []

        def walk(element):
            if "/Lang" in element:
                tagged.append((str(element.S), str(element.Lang)))
            kids = element.get("/K", [])
            for kid in kids if isinstance(kids, pikepdf.Array) else [kids]:
                if isinstance(kid, pikepdf.Dictionary) and "/S" in kid:
                    walk(kid)
        walk(pdf.Root.StructTreeRoot.K if not isinstance(pdf.Root.StructTreeRoot.K, pikepdf.Array)
             else pdf.Root.StructTreeRoot.K[0])
    marked = len(re.findall(r'<span lang="en">', body))
    # (a span broken over two lines is two /Span elements, both marked)
    assert marked >= 5 and set(tagged) == {("/Span", "en")} and len(tagged) >= marked


# ---- a bill's link to the estimate page shows the bill's total (arrears included) ------------

def _link_argv(link: str) -> list[str]:
    """`bill` on the command line with a bill's link's own values (what the estimate page sends the engine)."""
    from urllib.parse import parse_qsl, urlsplit
    return ["bill"] + [word for key, value in parse_qsl(urlsplit(link).query) for word in (f"--{key}", value)]


EARLIER_QUARTERS = ("2024-Q4", "2025-Q1", "2025-Q2", "2025-Q3")
DUE = {"2024-Q4": "2024-10-15", "2025-Q1": "2025-01-15", "2025-Q2": "2025-04-15", "2025-Q3": "2025-07-15",
       "2025-Q4": "2025-10-15"}
# an earlier bill: its charge in cents, and payments on it (days after its due date, cents)
EARLIER_BILL = st.tuples(st.integers(0, 60_000), st.lists(st.tuples(st.integers(-10, 420), st.integers(1, 70_000)),
                                                           max_size=3))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(("water-gallons", "water-cubic-feet", "sewage-gallons")),
                          st.sampled_from(("en", "es")), st.integers(0, 90_000),
                          st.dictionaries(st.sampled_from(EARLIER_QUARTERS), EARLIER_BILL, min_size=1, max_size=4)),
                min_size=1, max_size=5),
       st.one_of(st.none(), st.integers(-60, 30)), st.sampled_from(("charge-first", "penalties-first")))
def test_a_bill_s_link_gives_the_estimate_the_register_s_total_to_the_cent(accounts, as_of_days, order):
    """For random accounts with arrears (earlier bills, payments on time, late, in part, beyond the
    charge, after the as-of day), the estimate a bill's link opens (`bill` with the link's values) has
    the register's total, arrears and penalties, to the cent, under either reading of payment-order."""
    import copy
    import datetime as dt
    rules = copy.deepcopy(RULES)
    rules["interpretations"]["payment-order"]["chosen"] = order
    as_of = None if as_of_days is None else (dt.date(2025, 10, 15) + dt.timedelta(days=as_of_days)).isoformat()
    lines = ["account,parcel,service_address,mailing_name,mailing_address,language,meter"]
    reads, earlier, payments = ["account,usage"], ["account,quarter,charge"], ["account,quarter,amount,paid_on"]
    for i, (meter, language, use, bills) in enumerate(accounts):
        lines.append(f"P{i},p,a,n,m,{language},{meter}")
        reads.append(f"P{i},{use}")
        bills = {"2025-Q3": (0, []), **bills}  # every run's register holds every account: Q3's is needed
        for qtr, (cents, paid) in bills.items():
            earlier.append(f"P{i},{qtr},{Decimal(cents) / 100:.2f}")
            for days, amount in paid:
                day = dt.date.fromisoformat(DUE[qtr]) + dt.timedelta(days=days)
                if day > dt.date.fromisoformat(as_of or DUE["2025-Q4"]):
                    continue  # a payment after the as-of day refuses the run (its own test)
                payments.append(f"P{i},{qtr},{Decimal(amount) / 100:.2f},{day.isoformat()}")
    result = billing.run(rules, "2025-Q4", ("a.csv", "\n".join(lines)), ("r.csv", "\n".join(reads)),
                         ("p.csv", "\n".join(payments)), [("e.csv", "\n".join(earlier))], as_of)
    assert not result["refused"]
    for row in result["register"]:
        one = cli_run(_link_argv(row["estimate_link"]), rules)
        assert one["total"] == row["total"], row["estimate_link"]
        owed = one.get("arrears")
        assert (owed["unpaid"], owed["penalties"]) == (row["arrears"], row["penalties"]) if owed else \
            (row["arrears"], row["penalties"]) == ("0.00", "0.00")
        assert one["charge"] == row["charge"]


def test_the_sample_s_bills_with_arrears_link_to_their_own_total(sample_run):
    """The sample's accounts with arrears, penalties on part payments and on late full payments among them:
    each bill's link, in English and Spanish, opens an estimate with the bill's total, and the lines the
    page shows (this quarter's charge, each unpaid amount and its penalty, the total) each cite the law."""
    _files, result = sample_run
    owing = [r for r in result["register"] if r["arrears"] != "0.00" or r["penalties"] != "0.00"]
    assert {r["language"] for r in owing} == {"en", "es"}
    assert any(r["arrears"] == "0.00" for r in owing) and any(r["arrears"] != "0.00" for r in owing)
    for row in owing:
        argv = _link_argv(row["estimate_link"])
        one = cli_run(argv + ["--lang", row["language"]])
        assert one["total"] == row["total"]
        labels = [line["label"] for line in one["arrears"]["lines"]]
        assert [line["amount"] for line in one["arrears"]["lines"]] == [row["charge"], row["arrears"],
                                                                        row["penalties"], row["total"]]
        assert all(line["cite"] and line["anchor"] and line["where"] for line in one["arrears"]["lines"])
        assert labels[-1] == ("Total to pay" if row["language"] == "en" else "Total a pagar")
        assert one["explanation"][-2]["text"].startswith("Total =")


@pytest.mark.parametrize("change, says", [
    (lambda v: v.replace("earlier-bill=2025-Q3:", "earlier-bill=2025-Q3:1"), "do not match its check code"),
    (lambda v: v.replace("water-gallons=", "water-gallons=1"), "do not match its check code"),
    (lambda v: v.split("&check=")[0], "no check code"),
    (lambda v: v.replace("as-of=2025-10-15", "as-of=2025-10-32"), "do not match its check code"),
    (lambda v: v.split("&billed=")[0] + "&as-of=2025-10-15", "no earlier bill"),
    (lambda v: v.replace("earlier-bill=2025-Q3:96.00", "earlier-bill=2025-Q3:lots"), "cannot be read"),
    (lambda v: v.replace("earlier-bill=2025-Q3:96.00", "earlier-bill=2025-Q4:96.00"), "not before 2025-Q4"),
])
def test_a_changed_bill_link_gets_a_message_not_a_figure(change, says):
    from calculator.bills import arrears
    result = billing.run(RULES, "2025-Q4",
                         ("accounts.csv", "account,parcel,service_address,mailing_name,mailing_address,language,meter\n"
                                          "A1,1-1-1,1 Example Lane,Ann Example,PO Box 1,en,water-gallons\n"),
                         ("reads.csv", "account,usage\nA1,12000\n"), None,
                         [("register.csv", "account,quarter,charge\nA1,2025-Q3,96.00\n")])
    link = result["register"][0]["estimate_link"]
    assert cli_run(_link_argv(link))["total"] == result["register"][0]["total"]
    changed = change(link)
    argv = _link_argv(changed)
    if "check" in says:  # a well-formed change, with the check code of the link as it was
        pass
    elif "check=" in changed:  # a malformed value: refused for what it is, even with a fresh check code
        from urllib.parse import parse_qsl, urlsplit
        values = [(k, v) for k, v in parse_qsl(urlsplit(changed).query) if k != "check"]
        argv = _link_argv("?" + "&".join(f"{k}={v}" for k, v in values) + "&check=" + arrears.link_check(values))
    with pytest.raises(InputError) as refused:
        cli_run(argv)
    assert says in str(refused.value)
    assert "Open the link on your bill again" in str(refused.value)


def test_the_browser_s_snapshot_holds_the_bill_run_s_module():
    """The Clerk's desk may start from the Python snapshot an estimate page made in the same browser
    (engine-worker.js), where the wheel's files come back only after the first answer: every module a
    command imports must be in it (cli.warm), the bill run's `billing` too. Found by opening the
    estimate, then the desk: "cannot import name 'billing' from 'calculator'"."""
    code = ("import sys, pkgutil, calculator; from calculator import cli; cli.warm(); "
            "print(sorted(m.name for m in pkgutil.iter_modules(calculator.__path__) "
            "if 'calculator.' + m.name not in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "['__main__']"


def test_the_pdf_bills_are_the_same_bytes_for_the_same_inputs_and_each_page_is_its_own_letter(sample_run):
    """Laid out twice, the same bills are the same bytes (kit/documents/tagged_pdf.py keeps pydyf's page list
    between pages, and must change nothing). A bill is its own letter: no "Page 2 of 3" footer, and the
    Town speaks ("You used …")."""
    import io as _io

    from pypdf import PdfReader

    from kit.billrun import bills_pdf
    _files, result = sample_run
    rows = [r for r in result["register"] if r["language"] == "en"][:3]
    first = bills_pdf.bills_pdf(RULES, rows, result["accounts"], "en", "https://example.org/", workers=1)
    assert bills_pdf.bills_pdf(RULES, rows, result["accounts"], "en", "https://example.org/", workers=1) == first
    pages = [page.extract_text() for page in PdfReader(_io.BytesIO(first)).pages]
    assert len(pages) == 3
    assert all("You used" in text and "of 3" not in text for text in pages)


def test_cells_a_spreadsheet_would_run_as_formulas_are_written_as_text_and_read_back_as_written():
    """Issue 35, item 5: an account id, a name or an address that begins with =, +, - or @ goes into the
    register, the arrears list and the refused rows with a ' before it (read back by a spreadsheet as
    text), and a later run reads the register's account back as the account it is."""
    head = "account,parcel,service_address,mailing_name,mailing_address,language,meter\n"
    accounts = head + '=1+1,-2,"@SUM(A1)",+cmd|calc,PO 1,en,water-gallons\n'
    first = billing.run(RULES, "2025-Q3", ("accounts.csv", accounts),
                        ("reads.csv", "account,usage\n=1+1,12000\n=HYPERLINK(1),5\n"))
    later = billing.run(RULES, "2025-Q4", ("accounts.csv", accounts), ("reads.csv", "account,usage\n=1+1,12000\n"),
                        None, [("register.csv", first["files"]["register.csv"])])
    register = list(csv.reader(io.StringIO(later["files"]["register.csv"])))
    assert register[1][0] == "'=1+1"
    arrears = list(csv.reader(io.StringIO(later["files"]["arrears.csv"].split("\n", 1)[1])))
    assert arrears[1][:4] == ["'=1+1", "'-2", "'+cmd|calc", "'@SUM(A1)"]
    refused = list(csv.reader(io.StringIO(first["files"]["refused.csv"])))
    assert refused[1][2] == "'=HYPERLINK(1)"
    every = [cell for text in (*later["files"].values(), *first["files"].values())
             for row in csv.reader(io.StringIO(text)) for cell in row]
    assert not [cell for cell in every if cell.startswith(("=", "+", "-", "@"))]
    # the earlier bill is the same account's: $96.00 unpaid, one period by October 15
    assert (later["register"][0]["arrears"], later["register"][0]["penalties"]) == ("96.00", "14.40")


# ---- issue 35: the output folder is never one whose replacing loses or publishes something ----------

@pytest.mark.parametrize("where, says", [
    ("a file", "is not a folder: it is a file."),
    ("a folder of other files", "holds files the bill run did not write"),
    ("the input folder", "holds the input file"),
    ("docs", "is in the project's docs/ folder, which the website is made from"),
    ("site", "is in the project's site/ folder, which the website is made from"),
    ("a git repository", "is inside the git repository"),
])
def test_an_output_folder_whose_replacing_would_lose_or_publish_something_is_refused(sample_dir, tmp_path, capsys,
                                                                                      where, says):
    target = {"a file": tmp_path / "notes.txt", "a folder of other files": tmp_path / "mine",
              "the input folder": sample_dir, "docs": ROOT / "docs" / "billing-2025-Q4",
              "site": ROOT / "site", "a git repository": tmp_path / "repo" / "out"}[where]
    if where == "a file":
        target.write_text("a letter\n")
    if where == "a folder of other files":
        target.mkdir()
        (target / "letter.odt").write_text("keep me\n")
    if where == "a git repository":
        (tmp_path / "repo" / ".git").mkdir(parents=True)
        (tmp_path / "repo" / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    before = sorted(str(p) for p in target.rglob("*")) if target.is_dir() else None
    around = sorted(p.name for p in tmp_path.iterdir())
    assert command.main(_args(sample_dir, target, "--no-pdf")) == 2
    err = capsys.readouterr().err
    assert says in err and "Nothing was written." in err
    if where == "a file":
        assert target.read_text() == "a letter\n"
    elif before is not None:
        assert sorted(str(p) for p in target.rglob("*")) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == around  # nothing beside it either
    assert not target.is_relative_to(ROOT) or where == "site" or not target.exists()


def test_an_input_two_folders_down_is_refused_saying_the_folder_is_replaced_whole(tmp_path, capsys):
    """hostile27 (unclear): `--out /tmp` was refused as holding an input file two folders down, without saying why
    that mattered: the run replaces the folder whole, with what is inside its folders."""
    deep = tmp_path / "town" / "billing" / "in"
    sample.write(deep, 30)
    assert command.main(_args(deep, tmp_path / "town", "--no-pdf")) == 2
    err = capsys.readouterr().err
    assert f"--out {tmp_path / 'town'} holds the input file {deep / 'accounts.csv'}. The run replaces that folder " \
           "whole, with every file and folder inside it, so the input file would be lost." in err, err
    assert set(sample.sample_files(30)) <= {p.name for p in deep.iterdir()}  # nothing lost


def test_a_folder_an_earlier_run_made_is_replaced_and_what_a_killed_run_left_is_swept(sample_dir, tmp_path):
    out = tmp_path / "billing" / sample.SECOND
    assert command.main(_args(sample_dir, out, "--no-pdf")) == 0
    # a run killed mid-way left its staging folder and the folder it was replacing
    for name in (f".{out.name}.k1llid", f".{out.name}.old-99999"):
        shutil.copytree(out, out.parent / name)
    (out.parent / f".{out.name}.notours").mkdir()
    (out.parent / f".{out.name}.notours" / "keep.txt").write_text("keep\n")
    assert command.main(_args(sample_dir, out, "--no-pdf")) == 0
    assert sorted(p.name for p in out.parent.iterdir()) == [f".{out.name}.notours", out.name]


@pytest.mark.parametrize("how", ["SIGTERM to the run", "Ctrl-C to its process group", "SIGTERM to its group",
                                 "a hang-up to its group"])
def test_sigterm_mid_run_leaves_nothing_behind_and_ends_the_pdf_workers(tmp_path, how):
    """Issue 35, item 2: a run stopped by SIGTERM while its PDF workers lay out bills removes its staging
    folder, its workers end with it, and it says it stopped (no traceback). The second hostile tester:
    Ctrl-C in a terminal (SIGINT to the whole process group) or SIGTERM to the group gave each worker a
    traceback of its own, and a hang-up (the terminal closed) left the staging folder."""
    import os
    import signal
    import time
    folder = tmp_path / "sample"
    sample.write(folder, 600)
    out = tmp_path / "billing" / sample.SECOND
    proc = subprocess.Popen([sys.executable, str(ROOT / "build.py"), "bills", *_args(folder, out)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            # as from a terminal: a shell running the tests in the background (CI's `nohup … &`)
                            # leaves SIGINT ignored, and a child keeps that, so Ctrl-C would not reach it at all
                            # (and SIGHUP, which `nohup` leaves ignored)
                            preexec_fn=lambda: [signal.signal(s, signal.SIG_DFL) for s in (signal.SIGINT, signal.SIGHUP)])
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not list(out.parent.glob(f".{out.name}.*/register.csv")):
        time.sleep(0.05)
    assert list(out.parent.glob(f".{out.name}.*/register.csv")), "the run never reached its PDFs"
    while time.monotonic() < deadline and not _children(proc.pid):  # the PDF workers are laying out bills now
        time.sleep(0.02)
    children = _children(proc.pid)
    assert children, "the run never started its PDF workers"
    if how == "SIGTERM to the run":
        proc.send_signal(signal.SIGTERM)
    else:
        os.killpg(proc.pid, signal.SIGINT if how.startswith("Ctrl-C") else
                  signal.SIGHUP if "hang-up" in how else signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    # 128 + the signal's number, as a shell counts it: 130 is Ctrl-C's alone (the hostile tester)
    assert proc.returncode == {"SIGTERM to the run": 143, "Ctrl-C to its process group": 130,
                               "SIGTERM to its group": 143, "a hang-up to its group": 129}[how], err
    assert "Stopped before the end: nothing was written" in err and "Traceback" not in err
    assert not out.exists() and not list(out.parent.iterdir())
    # the workers end with it (on a busy machine a worker may take a moment to see its parent gone)
    ends = time.monotonic() + 15
    while time.monotonic() < ends and [pid for pid in children if _alive(pid)]:
        time.sleep(0.1)
    assert [pid for pid in children if _alive(pid)] == []


def _alive(pid: int) -> bool:
    """A process that still runs (not gone, and not a zombie waiting to be reaped)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def _children(pid: int) -> list[int]:
    """Every descendant of a process (Linux /proc)."""
    out, todo = [], [pid]
    while todo:
        parent = todo.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            kids = (task / "children").read_text().split() if (task / "children").exists() else []
            out += [int(k) for k in kids]
            todo += [int(k) for k in kids]
    return out


@pytest.mark.parametrize("name, text", [
    ("arrears.csv", None),  # the bill run's own, its first line a comment
    ("register.csv", None),
    ("r.txt", None),  # the fifth hostile tester: the register without its header (`tail -n +2`)
    ("export.csv", "Town of Pawling billing export\nAccount Number;Owner;Balance\nA1;Ann;96,00\n"),
    ("accounts.json", '[{"account_number": "A1", "mailing_name": "Ann"}]\n'),
    ("export.txt", "\n\n#,title\naccount|service address\nA1|1 Lane\n"),
    ("bills-en.pdf", "%PDF-1.7\n"),
    ("accounts.xlsx", "PK\x03\x04"),
])
def test_the_guard_refuses_every_format_an_account_file_comes_in(tmp_path, name, text):
    """Issue 35, item 3: the bill run's own outputs (whatever their first line), files with a title line,
    ;- or |-separated, JSON, an account_number header, and files that cannot be read to check
    (PDF, spreadsheets) are refused under docs/; the site's own sources are not."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "page.md").write_text("# Accounts\n\naccount, name and address are asked for at the counter.\n")
    (docs / "ok.csv").write_text("quarter,due_date\n2025-Q4,2025-10-15\n")
    assert privacy.account_files(docs) == []
    if text is None:
        out = billing.run(RULES, "2025-Q4", ("a.csv", CASES[1]["accounts"]), ("r.csv", CASES[1]["reads"]),
                          None, [("e.csv", "account,quarter,charge\nA1,2025-Q3,96.00\n")])
        text = out["files"].get(name) or out["files"]["register.csv"].split("\n", 1)[1]
    (docs / name).write_text(text, encoding="utf-8")
    assert privacy.account_files(docs) == [docs / name]


ROWS = [("A1", "Ann Example", "1 Lane", "96.00"), ("A2", "Bo Example", "2 Lane", "110.40")]
LOOSE = {  # what the second and third hostile testers published: each a file nobody added to the repository
    "custs.csv": "Customer Number,Property Owner,Service Address,Amount Due\nS77777,Zed Quixote,1 Main St,96.00\n",
    "owners.tsv": "Customer\tOwner Name\tBalance\nS77777\tZed Quixote\t96.00\n",
    "noheader.csv": "Zed Quixote,S77777,96.00\n",
    "plain.txt": "S77777 Zed Quixote owes 96.00\n",
    "owed.html": "<html><head></head><body><table>\n<tr>\n<th>account</th>\n<th>name</th>\n</tr>\n"
                 + "".join(f"<tr><td>{a}</td><td>{n}</td></tr>\n" for a, n, _s, _t in ROWS) + "</table></body></html>\n",
    "owed.md": "# Owed\n\n```\naccount,mailing_name,total\n" + "".join(f"{a},{n},{t}\n" for a, n, _s, t in ROWS) + "```\n",
    "owed.js": "const owed = " + str([{"account": a, "name": n} for a, n, _s, _t in ROWS]).replace("'", '"') + ";\n",
    "owed.yaml": "".join(f"- account: {a}\n  owner: {n}\n" for a, n, _s, _t in ROWS),
    "late.csv": "#\n" * 60 + "account,mailing_name,unpaid_total\n" + "".join(f"{a},{n},{t}\n" for a, n, _s, t in ROWS),
    "blank.csv": "\n" * 60 + "account,service_address\n" + "".join(f"{a},{s}\n" for a, _n, s, _t in ROWS),
    "owners.csv": "parcel,owner,balance\n" + "".join(f"p{a},{n},{t}\n" for a, n, _s, t in ROWS),
    "shot.png": "\x89PNG\r\n",
}


@pytest.mark.parametrize("name", sorted(LOOSE) + ["utf16.csv"])
def test_in_a_checkout_a_file_the_repository_does_not_track_is_read_whole_whatever_its_name(tmp_path, name):
    """Issue 35, item 3, tried again: an account table as an HTML page, in a Markdown code block, as a
    script or YAML, after 60 comment or blank lines, in UTF-16, or an owner list with balances and no
    account column, all passed the guard. In a git checkout the guard is an allow-list: a file the
    repository does not track is read whole, whatever its suffix, and refused when it looks like account
    data (or cannot be read to check); the same page, once added to the repository, is built."""
    docs = tmp_path / "docs"
    docs.mkdir()
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (docs / "page.md").write_text("# Accounts\n\naccount, name and address are asked for at the counter.\n")
    (docs / "ok.csv").write_text("quarter,due_date\n2025-Q4,2025-10-15\n")
    subprocess.run(["git", "-C", str(tmp_path), "add", "docs"], check=True)
    assert privacy.account_files(docs) == []  # tracked: the page's words are not an account list
    path = docs / name
    if name == "utf16.csv":
        path.write_bytes("account,mailing_name\nA1,Ann Example\n".encode("utf-16"))
    else:
        path.write_text(LOOSE[name], encoding="utf-8")
    assert privacy.account_files(docs) == [path]
    # an untracked page of the site's own kind, with no account data, is not refused; a table is, until added
    path.unlink()
    assert privacy.account_files(docs) == []
    (docs / "dates.csv").write_text("quarter,due_date\n2025-Q4,2025-10-15\n")
    assert privacy.account_files(docs) == [docs / "dates.csv"]
    subprocess.run(["git", "-C", str(tmp_path), "add", "docs/dates.csv"], check=True)
    (docs / "new-page.md").write_text("# Rates\n\nThe rate is set each year by the Town Board.\n")
    assert privacy.account_files(docs) == []


def test_a_picture_is_published_only_from_the_sites_assets_once_tracked(tmp_path):
    """The fifth hostile tester: a committed photo of the levy list under docs/notes/ was published (the
    README said only an untracked picture was refused). A picture is published only from docs/assets/,
    once the repository tracks it; anywhere else it is refused, tracked or not."""
    docs = tmp_path / "docs"
    (docs / "notes").mkdir(parents=True)
    (docs / "assets").mkdir()
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (docs / "notes" / "levy.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (docs / "assets" / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    assert privacy.account_files(docs) == [docs / "assets" / "logo.png", docs / "notes" / "levy.png"]
    subprocess.run(["git", "-C", str(tmp_path), "add", "docs"], check=True)
    # tracked, but not listed in mkdocs.yml's `extra: pictures:` (the eleventh hostile tester, F5: a tracked
    # picture of an account list in docs/assets/ was published): refused too
    assert privacy.account_files(docs) == [docs / "assets" / "logo.png", docs / "notes" / "levy.png"]
    digest = hashlib.sha256(b"\x89PNG\r\n\x1a\n").hexdigest()
    listed = {"assets/logo.png": {"sha256": digest, "shows": "the Town's seal"},
              "notes/levy.png": {"sha256": digest, "shows": "a chart"}}
    assert privacy.account_files(docs, pictures=listed) == [docs / "notes" / "levy.png"]
    for wrong in ({"sha256": digest}, {"sha256": "0" * 64, "shows": "the Town's seal"}):  # no note; other bytes
        assert privacy.account_files(docs, pictures={"assets/logo.png": wrong}) == \
            [docs / "assets" / "logo.png", docs / "notes" / "levy.png"]
    (docs / "assets" / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n-changed")  # changed since it was listed
    assert docs / "assets" / "logo.png" in privacy.account_files(docs, pictures=listed)
    with pytest.raises(BuildError) as refused:
        privacy.check(docs, pictures=listed)
    assert "levy.png" in str(refused.value) and "extra: pictures:" in str(refused.value)


def test_the_sites_pictures_are_read_from_mkdocs_extra(tmp_path):
    """The build passes mkdocs.yml's `extra: pictures:` to the guard; this project publishes no picture."""
    from kit.rules.config import project_config
    assert project_config()["pictures"] == {}
    (tmp_path / "rules").mkdir()
    (tmp_path / "mkdocs.yml").write_text("site_name: x\nextra:\n  pictures:\n    assets/a.png: {sha256: ab, shows: a map}\n")
    assert project_config(tmp_path / "rules")["pictures"] == {"assets/a.png": {"sha256": "ab", "shows": "a map"}}


@pytest.mark.parametrize("line", [
    "Whitfield, Dana — 22 Rte. 22",
    "Ortega, Luis — 14 Quaker Hill Rd.",
    "John Whitfield of 12 Main Street",
    "WHITFIELD, DANA 22 RTE 22",
])
def test_a_name_with_a_street_address_and_no_amount_is_account_data(line):
    """The eleventh hostile tester (F2): a name and an abbreviated street, or one written in a sentence, was
    published. The Town's own place, a street named without a person, and the sample's streets are not."""
    assert privacy.account_records(f"<p>{line}</p>")
    for ours in ("<p>Pawling Town Hall, 160 Charles Colman Blvd</p>",
                 "<p>The sewer main at 14 Quaker Hill Rd. was replaced in May.</p>",
                 "<p>Avery Alder (fictional), 12 Example Lane</p>"):
        assert not privacy.account_records(ours), ours


def test_account_lines_hidden_in_base64_are_found_in_the_built_site(tmp_path):
    """The eleventh hostile tester (F6): account lines base64-encoded in a tracked script were published. The
    built site's base64 runs are decoded (twice over) and read; a font or a digest in base64 is not text."""
    site = tmp_path / "site"
    (site / "assets").mkdir(parents=True)
    lines = "Whitfield, Dana, 22 Route 22, 1204.33\nOrtega, Luis, 14 Quaker Hill Rd., 388.10\n"
    once = base64.b64encode(lines.encode()).decode()
    (site / "assets" / "font.css").write_text(
        "@font-face{src:url(data:font/woff2;base64," + base64.b64encode(bytes(range(256)) * 4).decode() + ")}")
    (site / "assets" / "sri.js").write_text('const digest = "sha256-' + base64.b64encode(bytes(32)).decode() + '";')
    privacy.check_site(site)
    for name, blob in (("once.js", once), ("twice.js", base64.b64encode(once.encode()).decode()),
                       ("urlsafe.js", base64.urlsafe_b64encode(lines.encode()).decode().rstrip("="))):
        (site / "assets" / name).write_text(f'const data = atob("{blob}");')
        with pytest.raises(BuildError) as refused:
            privacy.check_site(site)
        assert name in str(refused.value) and "Whitfield" in str(refused.value)
        (site / "assets" / name).unlink()


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_a_device_as_an_input_file_is_refused_with_a_message(tmp_path, capsys, device):
    """The fifth hostile tester: `--accounts /dev/zero` read until memory ran out (a MemoryError traceback).
    A path that is not a file is refused, by build.py bills and by the engine's bills, nothing written."""
    if not Path(device).exists():
        pytest.skip(f"no {device} here")
    from calculator.cli import main
    (tmp_path / "r.csv").write_text(CASES[1]["reads"])
    argv = ["--quarter", "2025-Q4", "--accounts", device, "--reads", str(tmp_path / "r.csv"), "--first-quarter"]
    assert command.main([*argv, "--no-pdf", "--out", str(tmp_path / "o")]) == 2
    assert f"The accounts file {device} is not a file (it is a device or a pipe). Give the path of the CSV " \
           "file." in capsys.readouterr().err
    assert main(["bills", *argv, "--out", str(tmp_path / "e")]) == 2
    assert f"The accounts file {device} is not a file (it is a device or a pipe)." in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.csv"]


def test_control_characters_from_the_files_are_not_printed_raw(tmp_path, capsys):
    """Issue 35, item 6: an account id with an escape sequence is shown as \\x1b…, never sent raw."""
    (tmp_path / "a.csv").write_text(CASES[1]["accounts"])
    (tmp_path / "r.csv").write_text("account,usage\n\x1b[2J\x1b[31mEVIL,12000\n")
    assert command.main(["--quarter", "2025-Q4", "--accounts", str(tmp_path / "a.csv"), "--reads",
                         str(tmp_path / "r.csv"), "--out", str(tmp_path / "out"), "--no-pdf", "--first-quarter"]) == 0
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\\x1b[2J\\x1b[31mEVIL" in err
    # and refused.csv, a file for people too, holds it as the report shows it (the fifth hostile tester)
    refused = (tmp_path / "out" / "refused.csv").read_text()
    assert "\x1b" not in refused and "\\x1b[2J\\x1b[31mEVIL" in refused


def test_a_run_without_the_register_of_the_quarter_before_is_refused(tmp_path, capsys):
    """The fourth legal reading: a Q3 run given Q1's register but not Q2's, or a Q2 run given none,
    billed only Q3's $160.00, the unpaid quarters before it lost without a word. Both are refused, saying which register to give; --first-quarter says none exists."""
    accounts = "account,parcel,service_address,mailing_name,mailing_address,language,meter\nA2,p,a,n,m,en,water-gallons\n"
    q1 = billing.run(RULES, "2025-Q1", ("a.csv", accounts), ("r.csv", "account,usage\nA2,20000\n"))
    q2 = billing.run(RULES, "2025-Q2", ("a.csv", accounts), ("r.csv", "account,usage\nA2,20000\n"),
                     earlier=[("q1/register.csv", q1["files"]["register.csv"])])
    assert q2["register"][0]["charge"] == "160.00"  # 20,000 x 0.8 x $10.00 / 1,000, unpaid
    with pytest.raises(InputError) as gap:
        billing.run(RULES, "2025-Q3", ("a.csv", accounts), ("r.csv", "account,usage\nA2,20000\n"),
                    earlier=[("q1/register.csv", q1["files"]["register.csv"])])
    assert "No billing record (register.csv) of 2025-Q2, the quarter just before 2025-Q3" in str(gap.value)
    both = billing.run(RULES, "2025-Q3", ("a.csv", accounts), ("r.csv", "account,usage\nA2,20000\n"),
                       earlier=[("q1/register.csv", q1["files"]["register.csv"]), ("q2/register.csv", q2["files"]["register.csv"])])
    # Q3 $160 + Q2 $160 unpaid + Q1 $160 unpaid; 15% of $160 = $24 for each period begun: Q1 two (from
    # April 15 and July 15), Q2 one (from July 15): 480 + 3 x 24
    assert both["register"][0]["total"] == "552.00"
    (tmp_path / "a.csv").write_text(accounts)
    (tmp_path / "r.csv").write_text("account,usage\nA2,20000\n")
    argv = ["--quarter", "2025-Q2", "--accounts", str(tmp_path / "a.csv"), "--reads", str(tmp_path / "r.csv"),
            "--out", str(tmp_path / "out"), "--no-pdf"]
    assert command.main(argv) == 2
    assert "No billing record (register.csv) of an earlier run is given" in capsys.readouterr().err and not (tmp_path / "out").exists()
    assert command.main([*argv, "--first-quarter"]) == 0


def test_a_huge_field_a_folder_for_a_file_and_a_sample_too_small_get_messages(tmp_path, capsys):
    """Issue 35, item 13: no traceback for a 200 KB field, --accounts naming a folder, --count 0 or -1."""
    (tmp_path / "big.csv").write_text(CASES[1]["accounts"].splitlines()[0] + "\nA1," + "x" * 200_000
                                      + ",a,n,m,en,water-gallons\n")
    (tmp_path / "r.csv").write_text("account,usage\nA1,12000\n")
    common = ["--quarter", "2025-Q4", "--reads", str(tmp_path / "r.csv"), "--out", str(tmp_path / "o"), "--no-pdf"]
    assert command.main(["--accounts", str(tmp_path / "big.csv"), *common]) == 2
    # the fourth hostile tester: "(field larger than field limit (131072))" said neither what nor what to do
    assert ("error: big.csv:2: a value on this line is too long: more than 131,072 characters, where a cell of these "
            "files holds a number, a name or an address. A quote mark left open makes the rest of the file one value: "
            "check the quotes from this line on, then save the file again as CSV UTF-8. Nothing was written.\n"
            ) == capsys.readouterr().err
    assert command.main(["--accounts", str(tmp_path), *common]) == 2
    assert "is a folder. Give the path of the CSV file in it." in capsys.readouterr().err
    for count in ("0", "-1"):
        assert command.main(["--sample", str(tmp_path / "s"), "--count", count]) == 2
        assert f"--count {count} is too few" in capsys.readouterr().err
    assert not (tmp_path / "o").exists() and not (tmp_path / "s").exists()


@pytest.mark.parametrize("pdf", [False, True])
def test_the_sample_never_writes_into_a_bill_run_s_folder(sample_dir, tmp_path, capsys, pdf):
    """The seventh hostile tester: `bills --sample RUN --count 10` into a real run's folder wrote fictional
    accounts, reads and payments beside the Town's register and arrears list and replaced the run's
    written.sha256, so the next run into it was refused. The sample refuses it, naming the run's files;
    the folder stays byte for byte as the run left it."""
    out = tmp_path / "runX"
    assert command.main(_args(sample_dir, out, *(() if pdf else ("--no-pdf",)))) == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    capsys.readouterr()
    assert command.main(["--sample", str(out), "--count", "10"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: --sample {out} holds a bill run's files (arrears.csv, "
                          + ("bills-en.pdf, bills-es.pdf, " if pdf else "") + "refused.csv, register.csv, summary.csv), which may be "
                          "the Town's own: the sample never writes beside them, nor replaces that run's "
                          "written.sha256. Choose a new or empty folder, like billing/sample/."), err
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert command.main(_args(sample_dir, out, *(() if pdf else ("--no-pdf",)))) == 0  # the next run still replaces it


def test_the_sample_never_replaces_a_town_s_own_files(tmp_path, capsys):
    """The second hostile tester: `bills --sample R` replaced R's real accounts.csv, payments.csv and reads
    (the names the README gives a town's own files) without a word, and wrote into docs/. A folder with
    other files, a file, and a folder in the project but billing/ are refused; an earlier sample is
    made again."""
    real = tmp_path / "R"
    real.mkdir()
    (real / "accounts.csv").write_text("account,mailing_name\nA1,A real owner\n")
    assert command.main(["--sample", str(real), "--count", "10"]) == 2
    assert "not an earlier fictional sample" in capsys.readouterr().err
    assert (real / "accounts.csv").read_text() == "account,mailing_name\nA1,A real owner\n"
    assert sorted(p.name for p in real.iterdir()) == ["accounts.csv"]
    assert command.main(["--sample", str(real / "accounts.csv")]) == 2
    assert "is a file, not a folder" in capsys.readouterr().err
    assert command.main(["--sample", str(ROOT / "docs" / "sample"), "--count", "10"]) == 2
    assert "inside the project" in capsys.readouterr().err and not (ROOT / "docs" / "sample").exists()
    again = tmp_path / "S"
    assert command.main(["--sample", str(again), "--count", "10"]) == 0
    assert command.main(["--sample", str(again), "--count", "10"]) == 0  # its own earlier sample: made again


def test_a_run_never_replaces_another_quarter_s_run(sample_dir, tmp_path, capsys):
    """The second hostile tester: a 2025-Q3 run with --out naming the 2025-Q4 run's folder replaced it, the
    Q4 register and bills gone without a word. A folder holding another quarter's run is refused."""
    out = tmp_path / "billing" / "runs"
    assert command.main(_args(sample_dir, out, "--no-pdf")) == 0
    before = (out / "register.csv").read_text()
    q3 = ["--quarter", sample.FIRST, "--accounts", str(sample_dir / "accounts.csv"), "--reads",
          str(sample_dir / f"reads-{sample.FIRST}.csv"), "--first-quarter", "--out", str(out), "--no-pdf"]
    capsys.readouterr()
    assert command.main(q3) == 2
    assert f"holds the {sample.SECOND} run, which a {sample.FIRST} run would replace" in capsys.readouterr().err
    assert (out / "register.csv").read_text() == before
    assert command.main(_args(sample_dir, out, "--no-pdf")) == 0  # the same quarter again replaces its own run


def test_an_option_given_twice_is_refused_but_earlier_registers_may_be_many(sample_dir, tmp_path, capsys):
    """The second hostile tester: a repeated --quarter or --as-of used the last one without a word."""
    out = tmp_path / "billing" / sample.SECOND
    for twice in (["--quarter", sample.FIRST], ["--as-of", "2025-10-01", "--as-of", "2025-10-02"]):
        option = twice[0]
        assert command.main([*_args(sample_dir, out, "--no-pdf"), *twice]) == 2
        assert f"`{option}` is given" in capsys.readouterr().err and not out.exists()
    register = sample_dir / f"register-{sample.FIRST}.csv"  # --earlier may be given once for each register
    command.main([*_args(sample_dir, out, "--no-pdf"), "--earlier", str(register)])
    assert "is given" not in capsys.readouterr().err


def test_a_usage_written_beside_readings_that_say_another_is_refused():
    """The second hostile tester: a usage of 1 beside readings of 54,182 gallons was billed by the readings
    without a word. Both agreeing is billed; disagreeing is refused, naming both."""
    accounts = "account,parcel,service_address,mailing_name,mailing_address,language,meter\nA1,p,a,n,m,en,water-gallons\n"
    agree = billing.run(RULES, "2025-Q1", ("a.csv", accounts),
                        ("r.csv", "account,previous_reading,current_reading,usage\nA1,100,12100,12000\n"))
    assert agree["register"][0]["usage"] == "12000" and not agree["refused"]
    differ = billing.run(RULES, "2025-Q1", ("a.csv", accounts),
                         ("r.csv", "account,previous_reading,current_reading,usage\nA1,100,54282,1\n"))
    assert not differ["register"]
    [row] = differ["refused"]
    assert "The usage written, 1, is not the readings' 54182 (from 100 to 54282)" in row["what_to_fix"]


def test_read_and_payment_dates_that_cannot_be_this_quarter_s_are_refused():
    """The second hostile tester: a read dated 2025-02-30 and a payment dated 0001-01-01 were taken
    without a word. Each row is refused, saying why; the good rows are billed."""
    accounts = ("account,parcel,service_address,mailing_name,mailing_address,language,meter\n"
                "A1,p1,a,n,m,en,water-gallons\nA2,p2,a,n,m,en,water-gallons\nA3,p3,a,n,m,en,water-gallons\n")
    q3 = billing.run(RULES, "2025-Q3", ("a.csv", accounts), ("r.csv", "account,usage\nA1,20000\nA2,20000\nA3,20000\n"),
                     first_quarter=True)
    reads = ("account,usage,read_date\nA1,20000,2025-02-30\nA2,20000,2023-09-19\nA3,20000,2025-09-19\n")
    got = billing.run(RULES, "2025-Q4", ("a.csv", accounts), ("r.csv", reads),
                      earlier=[("q3/register.csv", q3["files"]["register.csv"])])
    why = {r["account"]: r["what_to_fix"] for r in got["refused"]}
    assert "“2025-02-30” is not a date" in why["A1"]
    assert "2023-09-19 is not in the year before this quarter ends (2025-12-31)" in why["A2"]
    assert [r["account"] for r in got["register"]] == ["A3"]
    payments = "account,quarter,amount,paid_on\nA3,2025-Q3,160.00,0001-01-01\n"
    got = billing.run(RULES, "2025-Q4", ("a.csv", accounts), ("r.csv", "account,usage\nA1,1\nA2,1\nA3,1\n"),
                      ("p.csv", payments), earlier=[("q3/register.csv", q3["files"]["register.csv"])])
    assert "more than a year before the 2025-Q3 bill's quarter began (2025-07-01)" in got["refused"][0]["what_to_fix"]
    assert "A3" not in [r["account"] for r in got["register"]]


def test_a_payment_after_the_quarter_s_last_day_is_sent_to_a_later_run_not_to_a_later_as_of():
    """The second hostile tester: a payment dated 9999-12-31 was answered "Count penalties to 9999-12-31
    or later", a day the run itself refuses."""
    accounts = "account,parcel,service_address,mailing_name,mailing_address,language,meter\nA1,p1,a,n,m,en,water-gallons\n"
    q3 = billing.run(RULES, "2025-Q3", ("a.csv", accounts), ("r.csv", "account,usage\nA1,20000\n"), first_quarter=True)
    earlier = [("q3/register.csv", q3["files"]["register.csv"])]
    with pytest.raises(InputError) as far:
        billing.run(RULES, "2025-Q4", ("a.csv", accounts), ("r.csv", "account,usage\nA1,1\n"),
                    ("p.csv", "account,quarter,amount,paid_on\nA1,2025-Q3,160.00,9999-12-31\n"), earlier=earlier)
    assert "after 2025-11-14, the last day to pay the 2025-Q4 bill" in str(far.value)
    assert "9999-12-31 or later" not in str(far.value) and "give it to the run for a later quarter" in str(far.value)
    with pytest.raises(InputError) as near:  # within the quarter: counting penalties to a later day is the fix
        billing.run(RULES, "2025-Q4", ("a.csv", accounts), ("r.csv", "account,usage\nA1,1\n"),
                    ("p.csv", "account,quarter,amount,paid_on\nA1,2025-Q3,160.00,2025-10-20\n"), earlier=earlier)
    assert "Count penalties to 2025-10-20 or later (as-of)" in str(near.value)


def test_a_payment_many_times_its_bill_is_counted_and_named_for_checking(tmp_path, capsys):
    """The second hostile tester: $16,000.00 paid on a $160.00 bill became a credit without a word."""
    accounts = "account,parcel,service_address,mailing_name,mailing_address,language,meter\nA1,p1,a,n,m,en,water-gallons\n"
    q3 = billing.run(RULES, "2025-Q3", ("a.csv", accounts), ("r.csv", "account,usage\nA1,20000\n"), first_quarter=True)
    (tmp_path / "q3").mkdir()
    (tmp_path / "q3" / "register.csv").write_text(q3["files"]["register.csv"])
    (tmp_path / "a.csv").write_text(accounts)
    (tmp_path / "r.csv").write_text("account,usage\nA1,20000\n")
    argv = ["--quarter", "2025-Q4", "--accounts", str(tmp_path / "a.csv"), "--reads", str(tmp_path / "r.csv"),
            "--earlier", str(tmp_path / "q3" / "register.csv"), "--out", str(tmp_path / "out"), "--no-pdf",
            "--payments", str(tmp_path / "p.csv")]
    (tmp_path / "p.csv").write_text("account,quarter,amount,paid_on\nA1,2025-Q3,16000.00,2025-08-01\n")
    assert command.main(argv) == 0
    err = capsys.readouterr().err
    assert ("Check: p.csv:2: account A1 paid $16,000.00 on the 2025-Q3 bill of $160.00, more than 10 times the "
            "bill.") in err
    register = next(csv.DictReader(io.StringIO((tmp_path / "out" / "register.csv").read_text())))
    assert register["credit"] == "160.00" and register["credit_carried"] == "15680.00"
    (tmp_path / "p.csv").write_text("account,quarter,amount,paid_on\nA1,2025-Q3,160.00,2025-08-01\n")
    assert command.main(argv) == 0 and "Check:" not in capsys.readouterr().err
    # the third hostile tester: a row entered twice became a credit without a word; now both count, and it is named
    (tmp_path / "p.csv").write_text("account,quarter,amount,paid_on\nA1,2025-Q3,64.00,2025-08-01\n"
                                    "A1,2025-Q3,64.00,2025-08-01\nA1,2025-Q3,64.00,2025-08-02\n")
    assert command.main(argv) == 0
    err = capsys.readouterr().err
    assert ("Check: p.csv:3: account A1's payment of $64.00 on 2025-08-01 for 2025-Q3 is the same as on line 2. Both "
            "are counted") in err and "p.csv:4" not in err


def _titled_pdf(path, title):
    import pikepdf
    with pikepdf.new() as pdf:
        pdf.add_blank_page()
        pdf.docinfo["/Title"] = title
        pdf.save(path)


def test_a_run_without_pdfs_says_it_removed_the_earlier_run_s_pdfs(sample_dir, tmp_path, capsys):
    """The second hostile tester: a --no-pdf run over a folder with PDF bills dropped them silently."""
    out = tmp_path / "billing" / sample.SECOND
    out.mkdir(parents=True)
    assert command.main(_args(sample_dir, out, "--no-pdf")) == 0
    for name, title in (("bills-en.pdf", "Sewer bills for 2025-Q4"), ("bills-es.pdf", "Facturas de alcantarillado "
                                                                                  "de 2025-Q4")):
        _titled_pdf(out / name, title)  # as an earlier run with PDFs left them: the bills' title, in its language
    from calculator.core.files import written_list  # and in its list of what it wrote
    (out / "written.sha256").write_bytes(written_list({p.name: p.read_bytes() for p in out.iterdir()
                                                       if p.name != "written.sha256"}))
    capsys.readouterr()
    assert command.main(_args(sample_dir, out, "--no-pdf")) == 0
    assert "the earlier run's bills-en.pdf and bills-es.pdf in" in capsys.readouterr().err
    assert not list(out.glob("*.pdf"))
    assert command.main(_args(sample_dir, out, "--no-pdf")) == 0
    assert "were removed" not in capsys.readouterr().err


def test_this_quarters_own_register_given_as_an_earlier_one_is_named():
    """The third hostile tester: the register of the quarter being billed, given as the earlier one,
    was set aside without a word and the run said "No earlier register is given"."""
    files = sample.sample_files(20)
    own = files[f"register-{sample.FIRST}.csv"]
    with pytest.raises(InputError) as err:
        billing.run(RULES, sample.FIRST, ("accounts.csv", files["accounts.csv"]),
                    (f"reads-{sample.SECOND}.csv", files[f"reads-{sample.SECOND}.csv"]),
                    ("payments.csv", files["payments.csv"]), [("register-same.csv", own)], None, False)
    assert f"register-same.csv is the billing record (register.csv) of {sample.FIRST}, not of a quarter before {sample.FIRST}" in str(
        err.value)
    assert "No billing record (register.csv) of an earlier run is given" not in str(err.value)


@pytest.mark.parametrize("url", ["javascript:alert(1)", "pawling.github.io/sewer", "https://", "https://x.org/\"><b>"])
def test_the_engine_s_bill_run_refuses_a_site_url_that_is_not_a_web_address_as_the_kit_does(sample_dir, tmp_path,
                                                                                             capsys, url):
    """The fourth hostile tester: `python -m calculator bills --printable --site-url X` took any X into every
    bill's link, where `build.py bills` refuses it. Both refuse it in the same words, before anything is
    written."""
    from calculator.cli import main
    says = (f"error: --site-url “{url}” is not a web address. Give the address the site is published at, like "
            "https://OWNER.github.io/REPO/.")
    assert main(["bills", *_args(sample_dir, tmp_path / "engine"), "--printable", "--site-url", url]) == 2
    assert capsys.readouterr().err == says + "\n"
    assert command.main(_args(sample_dir, tmp_path / "kit", "--site-url", url)) == 2
    assert capsys.readouterr().err == says + " Nothing was written.\n"
    assert not (tmp_path / "engine").exists() and not (tmp_path / "kit").exists()


@pytest.mark.parametrize("url, says", [("https://evil.example/?x=", "has a ? or a #"),
                                       ("https://sewer.pawling.example/#top", "has a ? or a #"),
                                       ("https://clerk:Secret123@sewer.example/", "user name or password")])
def test_a_site_url_with_a_query_a_fragment_or_a_password_is_refused_by_both_bill_runs(sample_dir, tmp_path, capsys,
                                                                                       url, says):
    """The fifteenth hostile tester, W1: `build.py bills --site-url 'https://evil.example/?x='` made every bill's
    link https://evil.example/?x=/estimate/?…, and '…/#top' opened the home page, with no word."""
    from calculator.cli import main
    assert main(["bills", *_args(sample_dir, tmp_path / "engine"), "--printable", "--site-url", url]) == 2
    assert says in capsys.readouterr().err
    assert command.main(_args(sample_dir, tmp_path / "kit", "--site-url", url)) == 2
    assert says in capsys.readouterr().err
    assert not (tmp_path / "engine").exists() and not (tmp_path / "kit").exists()


def test_a_payment_for_an_account_written_in_other_capitals_is_refused_naming_it_and_its_levy_lines_say_check():
    """The fourth hostile tester: a payment for s10001 (accounts.csv has S10001) was refused as an unknown
    account, yet S10001 was billed in full as unpaid and put on the levy list as if nothing were paid.
    Account numbers are matched as written; the row is refused naming the account it likely meant, which is
    held (not billed), as any account whose payment row is refused is, and its lines on arrears.csv say to
    check them before a levy. A read written so is refused naming the account too."""
    accounts = ("account,parcel,service_address,mailing_name,mailing_address,language,meter\n"
                "A1,p1,1 Example Lane,Ann Example,PO Box 1,en,water-gallons\nB2,p2,2 Example Lane,Bo Example,PO Box 2,"
                "en,water-gallons\n")
    q3 = billing.run(RULES, "2025-Q3", ("a.csv", accounts), ("r.csv", "account,usage\nA1,20000\nB2,20000\n"),
                     first_quarter=True)
    earlier = [("q3/register.csv", q3["files"]["register.csv"])]
    got = billing.run(RULES, "2025-Q4", ("a.csv", accounts), ("r.csv", "account,usage\nA1,12000\nb2,12000\n"),
                      ("p.csv", "account,quarter,amount,paid_on\na1,2025-Q3,160.00,2025-08-01\n"), earlier, None, False)
    why = {(r["file"], r["account"]): r["what_to_fix"] for r in got["refused"]}
    assert why[("p.csv", "a1")] == (
        "There is no account a1 in the accounts file, but there is A1: account numbers are matched as written, "
        "capital letters too. Write A1 on this line and run again. Until then account A1 is not billed, and its "
        "unpaid earlier bills are on arrears.csv marked to check.")
    assert why[("r.csv", "b2")].startswith("There is no account b2 in the accounts file, but there is B2: ")
    assert not any("has no meter read" in r["what_to_fix"] for r in got["refused"])  # said once, with what to write
    assert got["register"] == []  # A1 would ask for the $160.00 paid; B2 has no read it can take
    levy = {r["account"]: r for r in _table(got["files"]["arrears.csv"].split("\n", 1)[1])}
    assert levy["A1"]["check"] == "payment refused (p.csv:2): check it before levying"
    assert levy["B2"]["check"] == ""  # B2's payments are all counted: its line is the list's own
    summary = {r["item"]: r for r in _table(got["files"]["summary.csv"])}
    assert summary["of which to check: a payment row refused (the check column of arrears.csv)"]["accounts"] == "1"
    assert got["arrears_to_check"] == ["A1"]
    fixed = billing.run(RULES, "2025-Q4", ("a.csv", accounts), ("r.csv", "account,usage\nA1,12000\nB2,12000\n"),
                        ("p.csv", "account,quarter,amount,paid_on\nA1,2025-Q3,160.00,2025-08-01\n"), earlier, None, False)
    assert [r["account"] for r in fixed["register"]] == ["A1", "B2"] and not fixed["refused"]
    assert "A1" not in {r["account"] for r in fixed["arrears"]}


def _engine(argv, capsys):
    from calculator.cli import main
    status = main(["bills", *argv])
    return status, capsys.readouterr().err


@pytest.mark.parametrize("text", [
    "acct 10442 bal 1204.33", "cta 10442 saldo 1204,33",                     # hostile15 P1
    "Mr. Whitfield on Route 22 has paid nothing since March",
    "El Sr. Whitfield de la Ruta 22 no ha pagado nada desde marzo",
    "Shut-off list: Whitfield (Rt 22), Ortega (Oak St)",
    "# acct 10442 bal 1204.33 -- pd 0 since Mar (Whitfield, Rt 22)",
    "name;adeudo\nDana Whitfield;1204,33\n", "nombre;adeudo\nMaría González;464,20\n",  # P3: a decimal comma
    "Mrs. Whitfield owes $1,204.33; call before hearing.", "La señora González adeuda 464,20 dólares.",  # hostile16
    "Sra. Pérez adeuda 464,20 dólares", "Town Hall. Mrs. Whitfield owes $1,204.33 and will speak",
    "La señora Pérez, de la calle Roble número catorce, todavía adeuda cuatrocientos dólares.",
    "Luis Ortega debe cuatrocientos sesenta y cuatro dólares.", "Ortega Luis ..... 388.10",
    "Acct 10016 delinquent 228.19", "Account 10016 has not paid 228.19",
    "6957–18–409876", "6957 18 409876", "6957/18/409876",
    "Unpaid: Smith ........ 345.67", "Late payers: Smith 345.67, Jones 120.00", "Morosos: Smith 345,67, Jones 120,00",
    "Account S10001 is behind", "Town Hall, account P-20417 delinquent", "Don José Pérez debe",  # hostile17 F1
    "Smith: three hundred forty-five dollars and sixty-seven cents unpaid", "Smith\u3000３４５．６７ unpaid",
    "Smith 345.67 Jones 120.00",
    "Accounts S10001, S10002 and S10007 have not paid.", "Delinquent accounts: S10001; S10002; S10007",  # hostile18
    "Not yet paid: Ortega, Whitfield and Gonzalez.", "# Ortega, Luis .......... $388.10",
    "# <!-- Dana Whitfield, 22 Route 22, owes 1204.33 -->", "# Ortega L 388.10 / Whitfield D 1204.33 / Gonzalez M 464.20",
    "# D. Whitfield: 1,204.33",
    "Customer\tBalance\njanet okafor\t45.20\nluis ortega\t388.10\n",       # hostile25 #2-#5
    "<pre><code>Customer\tBalance\njanet okafor\t45.20\n</code></pre>",
    "A refund of 45.20 was sent to Mrs. Janet Okafor last week.", "A refund of $45.20 went to Janet Okafor.",
    "Janet Okafor paid 45.20 on March 3.", "Se envió un reembolso de 45,20 a Janet Okafor.",
    "Please check on the Okafor residence, 9 Dutcher Avenue.", "la casa de los Okafor, calle Roble número 9",
    "| OKAFOR | 388.10 |\n| ORTEGA | 45.20 |\n", "| Name | Amount |\n|---|---|\n| okafor | 388.10 |\n",
    "<table><tr><td>OKAFOR</td><td>388.10</td></tr><tr><td>ORTEGA, L.</td><td>45.20</td></tr></table>",
    "We thank Janet Okafor, who paid 412.50 last week.", "$412.50 is the balance of Okafor, Janet.",  # hostile26 #1
    "OKAFOR JANET USD 412.50", "Janet Okafor owes 412", "Janet Okafor, PO Box 868, Pawling, NY 12564",
    "Janet Okafor of nine Dutcher Avenue still owes money.", "Janet Okafor, twelve Route Twenty-Two",
    "https://example.org/?name=Janet+Okafor&addr=9+Dutcher+Avenue&owed=412.50",
    "Thanks to Janet Okafor, who paid 412.50.", "The Okafor family owes $412.50",               # hostile26 #2
    "Janet Okafor lives on Dutcher Avenue and paid 412.50", "Write to janet.okafor@gmail.com.",  # #3
    "Thanks to Dana Whitfield for paying $1,204.33 on time.", "The Ortegas still owe $388.10 from last year.",  # hostile30
    "Los Ortega todavía deben 388,10 dólares.", "Late payers this quarter: Luis Ortega, Dana Whitfield, Mary O'Brien.",
    "Shut-off list: W-10042 Whitfield; W-10043 Ortega.", "Dana Whitfield has $388.10 outstanding.",
])
def test_more_forms_of_who_owes_what_are_account_data(text):
    assert privacy.account_records(text), text
    assert privacy.account_records(text, blocks=True), text


@pytest.mark.parametrize("encoded", ["ref T3J0ZWdhLCBMdWlzOiAzODguMTA=", "x 4f72746567612c204c7569733a203338382e3130"])
def test_a_short_record_in_base64_or_hex_is_read_too(encoded):
    """The eighteenth hostile tester, F3: "Ortega, Luis: 388.10" in base64 (28 characters) or hex was published."""
    from calculator.core.privacy import encoded_texts
    assert any(privacy.account_records(d, blocks=True, script=True) for d in encoded_texts(encoded))


@pytest.mark.parametrize("text", [
    "If you have not paid by the due date, a penalty is added.",
    "The Town Board may put unpaid rents on the levy list (General Municipal Law § 452).",
    "Meet at Pawling Town Hall, 160 Charles Colman Blvd; the Clerk's fee is 12,50 in the example.",
    "Dr. Smith of the Town Board said unpaid rents are 12% of the levy.",
    "Bill: $96.00, due January 15, 2027.", "If you pay late: Penalty $14.40 unpaid", "Factura: $96.00 (tarifa de ejemplo)",
    "The bill for January–March is due 4/15/2027 … 30 days later the penalty applies.",
    "| VC | $5.70 |\n| TOTAL | $96.00 |\n", "| Minimum charge | $64.00 |\n| Sewer usage rent | $32.00 |\n",
    "If you paid $96.00 on time, no penalty is added.", "The Town Board home page lists the rate: $5.70.",
    "Write to the Town Clerk, P.O. Box 99.", "Contact clerk@pawlingny.gov about your bill of $96.00.",
    "See /estimate/?quarter=2027-Q1&water-gallons=12000 for a bill of $96.00.",
    "<tr><th>Schedule</th><td>Illustrative rate schedule (not adopted)</td><td>Share billed 80%</td><td>$64.00</td></tr>",
    "El Ayuntamiento está en 160 Charles Colman Boulevard.", "Salón del Ayuntamiento, 160 Charles Colman Boulevard",
    "Comentarios a la Secretaría del Pueblo, 160 Charles Colman Boulevard.",   # hostile27: false refusals
])
def test_the_sites_own_words_about_paying_are_not_account_data(text):
    assert privacy.account_records(text) == [] and privacy.account_records(text, blocks=True) == []


def test_files_that_cannot_be_written_leave_no_new_empty_folder(tmp_path, monkeypatch):
    """The sixteenth hostile tester, U2: on a full disk the engine's run and `rates user-notice` said "Nothing was
    written" and left a new empty folder. The folders made for the files go again; one that was there stays."""
    import errno
    import os
    from calculator.core import files

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError):
        files.write_all_atomic({tmp_path / "new" / "deep" / "a.csv": b"x", tmp_path / "new" / "b.csv": b"y"})
    assert not (tmp_path / "new").exists()
    (tmp_path / "kept").mkdir()
    with pytest.raises(OSError):
        files.write_all_atomic({tmp_path / "kept" / "a.csv": b"x"})
    assert (tmp_path / "kept").is_dir() and not list((tmp_path / "kept").iterdir())


def test_a_run_with_its_standard_error_closed_ends_as_done(sample_dir, tmp_path):
    """The fifteenth hostile tester, U4: `build.py bills … 2>&-` ended 1 after a complete run (a closed stream is
    None, and flushing it failed)."""
    import os
    done = subprocess.run([sys.executable, "build.py", "bills", *_args(sample_dir, tmp_path / "out", "--no-pdf")],
                          cwd=ROOT, stdout=subprocess.DEVNULL, preexec_fn=lambda: os.close(2), timeout=300)
    assert done.returncode == 0
    assert (tmp_path / "out" / "register.csv").is_file()


def test_a_sample_that_cannot_be_written_says_where_and_leaves_no_empty_folder(tmp_path, capsys, monkeypatch):
    """The fifteenth hostile tester, U1: `--sample` on a full or read-only disk said only "the output could not be
    written" (exit 74), named no folder, and left an empty one."""
    import errno
    from kit.billrun import sample as sample_module

    def full(folder, count):
        Path(folder).mkdir(parents=True, exist_ok=True)
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(sample_module, "write", full)
    target = tmp_path / "s"
    assert command.main(["--sample", str(target), "--count", "40"]) == 2
    err = capsys.readouterr().err
    assert f"--sample {target}: the sample cannot be written there (the disk is full)" in err, err
    assert not target.exists()


def test_the_engines_run_into_the_samples_own_folder_is_refused_and_removes_nothing(sample_dir, capsys):
    """The fifteenth hostile tester, D2: `python -m calculator bills --out` the sample's folder removed the
    sample's accounts, payments, reads and register as "the earlier run's bills". Refused, naming them, and
    every file is still as the sample wrote it; `build.py bills` refuses the same folder."""
    before = {p.name: p.read_bytes() for p in sample_dir.iterdir()}
    status, err = _engine(_args(sample_dir, sample_dir), capsys)
    assert status == 2 and "accounts.csv" in err and "another command wrote there" in err, err
    assert {p.name: p.read_bytes() for p in sample_dir.iterdir()} == before
    assert command.main(_args(sample_dir, sample_dir, "--no-pdf")) == 2
    assert {p.name: p.read_bytes() for p in sample_dir.iterdir()} == before


def test_the_run_never_replaces_a_file_it_did_not_write_and_writes_its_files_together(sample_dir, tmp_path, capsys,
                                                                                     monkeypatch):
    """The fourth hostile tester: `--out FOLDER` replaced the summary.csv a person kept there. Both commands
    refuse a folder holding a file by the name of one the run writes that the run did not write, naming it;
    the file is left as it was. A folder a run wrote is run into again. The engine's four files are written
    together: a disk that fills at the third leaves the folder as it was."""
    for where in ("engine", "kit"):
        mine = tmp_path / f"mine-{where}"
        if where == "kit":  # a run's own folder, with the person's own summary beside the run's register
            assert command.main(_args(sample_dir, mine, "--no-pdf")) == 0
            capsys.readouterr()
        else:
            mine.mkdir()
        (mine / "summary.csv").write_text("my own summary\n")
        before = sorted(p.name for p in mine.iterdir())
        status, err = (_engine(_args(sample_dir, mine), capsys) if where == "engine" else
                       (command.main(_args(sample_dir, mine, "--no-pdf")), capsys.readouterr().err))
        assert status == 2, err
        assert err.startswith(f"error: --out {mine} ") and "summary.csv" in err and "did not write" in err
        assert (mine / "summary.csv").read_text() == "my own summary\n"
        assert sorted(p.name for p in mine.iterdir()) == before
    assert err.startswith(f"error: --out {mine} already holds summary.csv, which the bill run did not write or which "
                          "was changed after it wrote it, and the run never replaces a file it did not write. Choose a new or empty folder for --out, or move "
                          "summary.csv out of it.")
    ours = tmp_path / "ours"
    assert _engine(_args(sample_dir, ours), capsys)[0] == 0
    assert _engine(_args(sample_dir, ours), capsys)[0] == 0  # its own files: run into again (the desk prints so)
    written = {p.name: p.read_bytes() for p in ours.iterdir()}
    from calculator.core import files
    real, calls = files.tempfile.mkstemp, []

    def full_at_the_third(*a, **k):
        calls.append(1)
        if len(calls) == 3:
            raise OSError(28, "No space left on device")
        return real(*a, **k)
    monkeypatch.setattr(files.tempfile, "mkstemp", full_at_the_third)
    (sample_dir / "payments.csv").write_text("account,quarter,amount,paid_on\n")  # another run: other files
    status, err = _engine(_args(sample_dir, ours), capsys)
    assert status == 2 and err == (f"error: The run's files cannot be written into {ours}: the disk is full. Nothing was "
                                   "written. Choose a folder you may write to (--out), or ask whoever manages this "
                                   "computer for access.\n")
    assert {p.name: p.read_bytes() for p in ours.iterdir()} == written  # no file new, no temporary file left


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs Linux's /dev/full")
def test_an_output_that_is_a_link_to_a_device_is_said_to_be_one(sample_dir, tmp_path, capsys):
    """The fourth hostile tester: `--out` naming a link to /dev/full was called a file (the kit) or ended in
    "could not answer this (FileExistsError …)" (the engine); a folder below it ended 74, as if standard
    output had failed. Each says what is there and to choose a folder, and exits 2."""
    link = tmp_path / "full"
    link.symlink_to("/dev/full")
    for out, says in ((link, f"--out {link} is not a folder: it is a link to /dev/full, a device, not a file. "),
                      (link / "x", f"--out {link / 'x'} cannot be made: {link} is not a folder, it is a link to "
                                   "/dev/full, a device, not a file. ")):
        then = "Choose a new or empty folder for --out, or one an earlier bill run made."
        assert _engine(_args(sample_dir, out), capsys) == (2, f"error: {says}{then}\n")
        assert command.main(_args(sample_dir, out, "--no-pdf")) == 2
        assert capsys.readouterr().err == f"error: {says}{then} Nothing was written.\n"


def test_a_file_or_folder_without_permission_gets_one_line_saying_so(sample_dir, tmp_path, capsys, monkeypatch):
    """The fourth hostile tester: an input file that cannot be read and an output folder that cannot be
    written ended "could not answer this (PermissionError …)" (the engine) or 74, "the output could not be
    written" (the kit), as if standard output had failed. One line names the path and what to do; exit 2.
    (Made so by the test: the tests may run as root, whom permissions do not stop.)"""
    import builtins
    accounts = str(sample_dir / "accounts.csv")
    real_open, real_read = builtins.open, Path.read_text

    def denied(path):
        raise PermissionError(13, "Permission denied", str(path))
    monkeypatch.setattr(billing, "open", lambda p, *a, **k: denied(p) if str(p) == accounts else real_open(p, *a, **k),
                        raising=False)
    monkeypatch.setattr(Path, "read_text", lambda p, *a, **k: denied(p) if str(p) == accounts else real_read(p, *a, **k))
    says = (f"The accounts file {accounts} cannot be read: permission denied. Ask whoever manages this computer to let "
            "you read it, or give a copy you may read.")
    assert _engine(_args(sample_dir, tmp_path / "e"), capsys) == (2, f"error: {says}\n")
    assert command.main(_args(sample_dir, tmp_path / "k", "--no-pdf")) == 2
    assert capsys.readouterr().err == f"error: {says} Nothing was written.\n"
    monkeypatch.undo()
    from calculator.core import files
    monkeypatch.setattr(files.tempfile, "mkstemp", lambda *a, **k: denied(tmp_path / "e"))
    monkeypatch.setattr(command.tempfile, "mkdtemp", lambda *a, **k: denied(tmp_path))
    assert _engine(_args(sample_dir, tmp_path / "e"), capsys) == (2, (
        f"error: The run's files cannot be written into {tmp_path / 'e'}: permission denied. Nothing was written. "
        "Choose a folder you may write to (--out), or ask whoever manages this computer for access.\n"))
    assert command.main(_args(sample_dir, tmp_path / "k", "--no-pdf")) == 2
    assert capsys.readouterr().err == (
        f"error: The run's files cannot be written into {tmp_path / 'k'}: permission denied. Choose a folder you may "
        "write to (--out), or ask whoever manages this computer for access. Nothing was written.\n")
    assert not (tmp_path / "k").exists() and not list((tmp_path / "e").glob("*.csv"))


def test_a_nul_byte_in_a_csv_file_is_named_by_its_line_and_column(tmp_path):
    """The fourth hostile tester: "this line cannot be read as CSV (line contains NUL)"."""
    accounts = CASES[1]["accounts"].replace("Ann Example", "Ann\x00Example", 1)
    line = next(i for i, text in enumerate(accounts.splitlines(), 1) if "\x00" in text)
    column = accounts.splitlines()[line - 1].index("\x00") + 1
    with pytest.raises(InputError) as refused:
        billing.run(RULES, "2025-Q4", ("accounts.csv", accounts), ("r.csv", CASES[1]["reads"]))
    assert str(refused.value) == (
        f"accounts.csv:{line}:{column}: there is a NUL character (a zero byte) here, which a CSV file does not hold. "
        "The file may be a spreadsheet's own format, or text saved as UTF-16: save it as CSV UTF-8 and try again.")


def test_a_reading_with_more_digits_than_the_meter_is_refused_and_a_usage_far_above_last_quarter_is_named():
    """The fifth hostile tester: S10001's 7-digit reading 2123430 on a 6-digit meter was billed 1,929,669
    gallons against 53,576 the quarter before, $15,437.35, without a word."""
    accounts = ("account,parcel,service_address,mailing_name,mailing_address,language,meter,meter_digits\n"
                "A1,p1,a,n,m,en,water-gallons,6\nA2,p2,a,n,m,en,water-gallons,\nA3,p3,a,n,m,en,water-gallons,6\n")
    q3 = billing.run(RULES, "2025-Q3", ("a.csv", accounts),
                     ("r.csv", "account,previous_reading,current_reading,usage\nA1,140185,193761,\nA2,100,20100,\n"
                               "A3,,,20000\n"), first_quarter=True)
    earlier = [("q3/register.csv", q3["files"]["register.csv"])]
    got = billing.run(RULES, "2025-Q4", ("a.csv", accounts),
                      ("r.csv", "account,previous_reading,current_reading,usage\nA1,193761,2123430,\n"
                                "A2,20100,420100,\nA3,,,1000000\n"), earlier=earlier)
    why = {r["account"]: r["what_to_fix"] for r in got["refused"]}
    assert why["A1"].startswith("The current reading, 2123430, has 7 digits, but the meter of account A1 shows only 6 digits")
    assert why["A3"].startswith("The usage, 1000000, has 7 digits, more than the meter of account A3 can count")
    # the Clerk's second usability test: the column's name only where she must write in it, plain words else
    assert "the accounts file says the meter shows 6 digits" in why["A3"] and "meter_digits" not in why["A3"]
    assert [r["account"] for r in got["register"]] == ["A2"]  # billed, and named to check
    assert got["checks"] == ["r.csv:3: account A2 used 400,000 gallons this quarter, more than 10 times its 20,000 "
                             "gallons in 2025-Q3. It is billed; check the readings (a digit too many?) before the "
                             "bills go out."]
    summary = {s["item"]: s for s in got["summary"]}
    line = summary["of which to check: usage more than 10 times the account's last quarter"]
    assert line["accounts"] == 1 and line["amount"] == got["register"][0]["charge"]
    usual = billing.run(RULES, "2025-Q4", ("a.csv", accounts),
                        ("r.csv", "account,usage\nA1,53576\nA2,200000\nA3,20000\n"), earlier=earlier)
    assert not usual["checks"] and not usual["refused"]  # ten times is not more than ten times


def test_a_run_s_or_a_sample_s_file_changed_after_it_was_written_is_never_replaced(sample_dir, tmp_path, capsys):
    """The fifth hostile tester: a summary.csv with the run's header and the person's own rows was replaced
    by a re-run without a word, and `--sample` replaced a sample accounts.csv to which a real account was
    added (the row was lost). A file is replaced only while it is what the run wrote (written.sha256)."""
    for where in ("engine", "kit"):
        out = tmp_path / f"run-{where}"
        again = (lambda: _engine(_args(sample_dir, out), capsys)) if where == "engine" else \
            (lambda: (command.main(_args(sample_dir, out, "--no-pdf")), capsys.readouterr().err))
        assert again()[0] == 0
        assert (out / "written.sha256").is_file()
        assert again()[0] == 0  # its own files, as written: run into again
        mine = (out / "summary.csv").read_text() + "my own line,1,2.00\n"  # the run's header, the person's rows
        (out / "summary.csv").write_text(mine)
        status, err = again()
        assert status == 2 and "summary.csv" in err and "changed after it wrote" in err, err
        assert (out / "summary.csv").read_text() == mine
    sample_folder = tmp_path / "S"
    assert command.main(["--sample", str(sample_folder), "--count", "10"]) == 0
    accounts = (sample_folder / "accounts.csv").read_text() + \
        "R1,1234-00-000000,1 Real Road,A Real Owner,1 Real Road,en,water-gallons,6\n"
    (sample_folder / "accounts.csv").write_text(accounts)
    assert command.main(["--sample", str(sample_folder), "--count", "10"]) == 2
    assert "accounts.csv, which the sample did not write or which was changed" in capsys.readouterr().err
    assert (sample_folder / "accounts.csv").read_text() == accounts
    # a sample written before the list (no written.sha256): a real account's row is still seen
    (sample_folder / "written.sha256").unlink()
    assert command.main(["--sample", str(sample_folder), "--count", "10"]) == 2
    assert "not an earlier fictional sample" in capsys.readouterr().err
    assert (sample_folder / "accounts.csv").read_text() == accounts


def test_a_run_folder_without_its_record_is_replaced_only_when_its_files_are_what_the_run_writes(sample_dir, tmp_path,
                                                                                                 capsys):
    """The eleventh hostile tester (F9): with written.sha256 deleted, a note added to a line of arrears.csv was
    replaced by a re-run (the folder was known by its files' first lines only). Without the record, a file is
    replaced only when it is byte for byte what the run writes; a changed one is refused, nothing written."""
    for where in ("engine", "kit"):
        out = tmp_path / f"run-{where}"
        again = (lambda: _engine(_args(sample_dir, out), capsys)) if where == "engine" else \
            (lambda: (command.main(_args(sample_dir, out, "--no-pdf")), capsys.readouterr().err))
        assert again()[0] == 0
        (out / "written.sha256").unlink()
        assert again()[0] == 0  # the same files the run writes: replaced, and the record written again
        assert (out / "written.sha256").is_file()
        (out / "written.sha256").unlink()
        lines = (out / "arrears.csv").read_text().splitlines(keepends=True)
        lines[2] = lines[2].rstrip("\n") + " NOTE: called owner\n"
        noted = "".join(lines)
        (out / "arrears.csv").write_text(noted)
        before = {p.name: p.read_bytes() for p in out.iterdir()}
        status, err = again()
        assert status == 2 and "arrears.csv" in err and "written.sha256" in err and "--out" in err, err
        assert {p.name: p.read_bytes() for p in out.iterdir()} == before  # nothing written, the note kept
        assert (out / "arrears.csv").read_text() == noted


def test_the_wrong_file_both_first_quarter_and_earlier_an_empty_out_and_semicolons_are_refused(sample_dir, tmp_path,
                                                                                                capsys):
    """The fifth hostile tester: `--reads` given the accounts file ended 0 with every row refused ("read …
    missing"); --first-quarter beside --earlier was taken; `--out ""` wrote billing/QUARTER/; a reads file
    separated by semicolons was said to have "no column account"."""
    def refused(*changes, engine=False):
        argv = _args(sample_dir, tmp_path / "out", "--no-pdf")
        for option, value in changes:
            if value is None:
                argv.append(option)
            else:
                argv[argv.index(option) + 1] = value
        if engine:
            argv.remove("--no-pdf")
        status, err = _engine(argv, capsys) if engine else (command.main(argv), capsys.readouterr().err)
        assert status == 2 and not (tmp_path / "out").exists(), err
        return err
    assert "accounts.csv:1: the header has no readings: neither previous_reading and current_reading, nor usage. " \
           "Is accounts.csv the file of meter reads?" in refused(("--reads", str(sample_dir / "accounts.csv")))
    assert "2025-Q4 is said to be the Town's first bill run on this website (--first-quarter), but billing " \
           "records (register.csv) of earlier runs are given" in refused(("--first-quarter", None))
    assert "--first-quarter" in refused(("--first-quarter", None), engine=True)
    assert "error: --out is empty." in refused(("--out", ""))
    assert "error: --out is empty." in refused(("--out", ""), engine=True)
    semi = tmp_path / "semi.csv"
    semi.write_text((sample_dir / f"reads-{sample.SECOND}.csv").read_text().replace(",", ";"))
    assert "semi.csv seems to be separated by semicolons (;)" in refused(("--reads", str(semi)))


def test_the_engine_s_run_into_a_folder_the_kit_made_removes_its_pdfs_and_says_so(sample_dir, tmp_path, capsys):
    """The eighth hostile tester, F5: a run by `python -m calculator bills` into a folder the kit's run made
    (with PDF bills) left the old bills there and listed them in its new written.sha256, vouching for bills
    that do not match its register. They are that run's bills: removed, and the answer says so (as
    `build.py bills --no-pdf` does); a PDF changed by hand (not as the run wrote it) is left alone, unlisted.
    The next run of the kit still replaces the folder."""
    import json
    out = tmp_path / "out"
    assert command.main(_args(sample_dir, out, "--no-pdf")) == 0
    from calculator.core.files import written_list
    for name in ("bills-en.pdf", "bills-es.pdf"):
        _titled_pdf(out / name, "Sewer bills for 2025-Q4")
    (out / "written.sha256").write_bytes(written_list({p.name: p.read_bytes() for p in out.iterdir()
                                                       if p.name != "written.sha256"}))
    mine = out / "bills-es.pdf"
    mine.write_bytes(mine.read_bytes() + b"\n% kept by hand\n")  # no longer as the run wrote it
    capsys.readouterr()
    from calculator.cli import main
    assert main(["bills", *_args(sample_dir, out)]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert not (out / "bills-en.pdf").exists() and mine.exists()
    assert answer["removed"] == [str(out / "bills-en.pdf")]
    assert answer["removed_note"].startswith("The earlier run's bills-en.pdf were removed: they were that run's bills")
    listed = (out / "written.sha256").read_text()
    assert "bills-en.pdf" not in listed and "bills-es.pdf" not in listed and "register.csv" in listed
    mine.unlink()
    assert command.main(_args(sample_dir, out, "--no-pdf")) == 0, capsys.readouterr().err
@pytest.mark.parametrize("url", ["http://127.0.0.1:8765/", "http://localhost:8000/", "http://[::1]/"])
def test_a_bill_never_links_to_this_computer_s_own_address(sample_dir, tmp_path, capsys, url):
    """The usability test: bills printed on the desk said "See this bill on the Town's estimate page:
    http://127.0.0.1:8765/estimate/…", the address the desk was opened from. A mailed bill carries only the
    public site's address: both bill runs refuse this computer's own, saying what to give, and write nothing."""
    from calculator.cli import main
    says = (f"error: --site-url “{url}” is this computer's own address: a mailed bill cannot link to it. Give the "
            "address the site is published at, like https://OWNER.github.io/REPO/, or leave it out: the bills then "
            "carry no link.")
    assert main(["bills", *_args(sample_dir, tmp_path / "engine"), "--printable", "--site-url", url]) == 2
    assert capsys.readouterr().err == says + "\n"
    assert command.main(_args(sample_dir, tmp_path / "kit", "--site-url", url)) == 2
    assert capsys.readouterr().err == says + " Nothing was written.\n"
    assert not (tmp_path / "engine").exists() and not (tmp_path / "kit").exists()


@pytest.mark.parametrize("configured", ["", "site_url: http://127.0.0.1:8000/\n"], ids=["none", "local"])
def test_without_a_public_address_the_pdf_bills_carry_no_link_and_the_run_says_so(tmp_path, monkeypatch, capsys,
                                                                                   configured):
    """With no site_url (or only this computer's own), the command line's PDF bills carried
    https://example.org/…, an address that is not the Town's. They carry no link at all, and the run says
    how to give one; the engine's printable bills (the desk's) likewise have no link without --site-url."""
    import json

    import pikepdf
    import pypdf

    from calculator.cli import run_json
    from kit.billrun import command as billrun
    (tmp_path / "mkdocs.yml").write_text("site_name: copy\n" + configured)
    monkeypatch.setattr(billrun, "project_config", lambda *a: {"site_url": configured.partition(": ")[2].strip()
                                                                or None, "repo_url": None})
    sample.write(tmp_path / "in", 12)
    out = tmp_path / "billing" / sample.SECOND
    assert command.main(_args(tmp_path / "in", out)) == 0
    err = capsys.readouterr().err
    assert "Note: the PDF bills carry no link to the estimate page: the site's public address is not set." in err
    for language in ("en", "es"):
        with pikepdf.open(out / f"bills-{language}.pdf") as pdf:
            assert not [a for page in pdf.pages for a in page.get("/Annots", []) if "/A" in a]
        text = "".join(p.extract_text() for p in pypdf.PdfReader(out / f"bills-{language}.pdf").pages)
        assert "example.org" not in text and "127.0.0.1" not in text and "estimate/?" not in text
    answer = json.loads(run_json(["bills", *_args(tmp_path / "in", tmp_path / "engine"), "--printable"]))
    assert answer["ok"] and answer["result"]["bills"]
    assert {(b["link"], b["link_label"]) for b in answer["result"]["bills"]} == {(None, None)}


@pytest.mark.parametrize("count", [sample.DOCS_COUNT, 30])
def test_the_desk_names_each_faulty_row_of_the_sample_and_no_other(count):
    """The usability test: a clerk trying the sample met refusals she did not expect (S10004 twice, 'fr',
    S99999 …). The desk says the sample has faulty rows on purpose, naming them (sample.faulty_rows): each
    one named is an account the run refuses, and the run refuses no other."""
    import re
    files = sample.sample_files(count)
    result = billing.run(RULES, sample.SECOND, ("accounts.csv", files["accounts.csv"]),
                         (f"reads-{sample.SECOND}.csv", files[f"reads-{sample.SECOND}.csv"]),
                         ("payments.csv", files["payments.csv"]),
                         [(f"register-{sample.FIRST}.csv", files[f"register-{sample.FIRST}.csv"])])
    named = [set(re.findall(r"SAMPLE-\d{5}", line)) for line in sample.faulty_rows(count)]
    assert all(named)
    assert {r["account"] for r in result["refused"]} == set().union(*named)


def test_the_bill_run_page_says_which_quarters_the_sample_bills_and_that_its_refusals_are_expected():
    """The usability test: with the sample (2025 only) the Clerk tried 2027-Q1 and every row failed. The page
    says which two quarters the sample bills, how to bill each ("first quarter" for the first), that another
    quarter needs the Town's own files, and which faulty rows it has on purpose."""
    import datetime as dt

    from kit.site import pages
    import tempfile
    ctx = pages.page_context(RULES, dt.date(2026, 12, 6), {"site_url": None, "repo_url": None})
    text = pages.render_pages(RULES, Path(tempfile.mkdtemp()), ctx)
    page = next(p for p in text if p.as_posix().endswith("clerk/bills/index.md")).read_text(encoding="utf-8")
    assert f"Their meter reads are for {sample.FIRST} and {sample.SECOND} only" in page
    assert (f'To bill {sample.FIRST} instead, choose {sample.FIRST} in the list of quarters, then accounts.csv and '
            f'reads-{sample.FIRST}.csv, '
            'and answer "No, this is the first bill run on this site"') in page
    # the Clerk's second usability test: her form first, the sample folded away after it
    assert page.index('<form id="bills-form"') < page.index('<details id="try-sample"') < page.index("Their meter reads")
    assert "first bill run on this website" not in page and 'type="checkbox"' not in page
    assert "Do you have a register.csv from an earlier bill run on this site?" in page
    assert "To bill a quarter of a year you adopted, like 2027-Q1, use the Town's own files" in page
    assert "**Some refusals are expected.**" in page
    assert all(line in page for line in sample.faulty_rows())


def test_dates_as_a_spreadsheet_saves_them_month_first_are_read_and_day_first_ones_refused():
    """The usability test: "12/18/2026", as a spreadsheet in the United States saves a date to CSV, was
    refused ("is not a date. Write it as YYYY-MM-DD"). Month/day/year with a four-digit year is read, as the
    Town's office in New York writes it; a day written first (18/12/2026) is refused, never read the other
    way round, with both ways to write it, and (the ninth hostile tester, F4) the day it looks like, asked."""
    accounts = "account,parcel,service_address,mailing_name,mailing_address,language,meter\n" \
               "A1,1-1-1,1 Lane,An,PO 1,en,water-gallons\nA2,2-2-2,2 Lane,Bo,PO 2,en,water-gallons\n"
    reads = "account,previous_reading,current_reading,read_date\nA1,100,12100,12/18/2025\nA2,100,12100,18/12/2025\n"
    payments = "account,quarter,amount,paid_on\nA1,2025-Q3,96.00,7/20/2025\nA2,2025-Q3,96.00,20/07/2025\n"
    earlier = "account,quarter,charge\nA1,2025-Q3,96.00\nA2,2025-Q3,96.00\n"
    result = billing.run(RULES, "2025-Q4", ("accounts.csv", accounts), ("reads.csv", reads),
                         ("payments.csv", payments), [("q3.csv", earlier)])
    refused = {(r["file"], r["account"]): r["what_to_fix"] for r in result["refused"]}
    assert ("reads.csv", "A1") not in refused and ("payments.csv", "A1") not in refused
    assert refused[("reads.csv", "A2")] == ("The read date “18/12/2025” is not a date. Write it as YYYY-MM-DD, like "
                                            "2025-09-19, or as month/day/year, like 9/19/2025, or leave it empty. "
                                            "This looks like day/month/year: did you mean December 18, 2025? "
                                            "Write it 12/18/2025 or 2025-12-18.")
    assert refused[("payments.csv", "A2")] == ("The date paid “20/07/2025” is not a date. Write it as YYYY-MM-DD, "
                                               "like 2027-03-01, or as month/day/year, like 3/1/2027. This looks like "
                                               "day/month/year: did you mean July 20, 2025? Write it 7/20/2025 or 2025-07-20.")
    assert billing._day_first("2/30/2025") == "" and billing._day_first("31/31/2025") == ""  # no day it could be
    a1 = next(r for r in result["register"] if r["account"] == "A1")
    assert a1["arrears"] in ("0.00", "0") and a1["total"] == a1["charge"]  # the payment of July 20 counted
    assert billing.csv_date("12/18/2026") == __import__("datetime").date(2026, 12, 18)
    with pytest.raises(ValueError):
        billing.csv_date("12/18/26")  # a two-digit year: which century is not guessed


# ---- issue 34: the Clerk's usability test of the 2027-Q1 run ------------------------------------------------

def _with_adopted(*schedules):
    """The rules with adopted schedules added (id, effective, rate), each for the fiscal year it starts in."""
    base = next(s for s in RULES["schedules"] if s["status"] == "illustrative")
    added = [dict(base, id=i, title=f"Rate schedule {i}", status="adopted", effective=day, fiscal_year=int(day[:4]),
                  vc_per_1000_gallons=rate, note=None) for i, day, rate in schedules]
    return dict(RULES, schedules=[*RULES["schedules"], *added])


def _one_account_run(rules, quarter, earlier=(), first_quarter=True):
    accounts = ("account,parcel,service_address,mailing_name,mailing_address,language,meter\n"
                "S1,P1,1 Main St,A Person,PO Box 1,en,water-gallons\n")
    return billing.run(rules, quarter, ("accounts.csv", accounts), ("reads.csv", "account,usage\nS1,12000\n"),
                       None, list(earlier), None, first_quarter)


def test_the_first_bills_of_a_year_or_of_a_new_schedule_remind_the_clerk_to_enclose_the_notice_to_users():
    """rate-schedules.D: "At least annually, each user shall be notified of the rate schedule in conjunction
    with a regular bill". The run reminds the Clerk (its answer, summary.csv, the command's note) with the
    first bills of each fiscal year and the first bills under a schedule adopted during a year, naming the
    notice step 4 of the Clerk's desk makes; the next quarter under the same schedule and year has none."""
    rules = _with_adopted(("2027", "2027-01-01", "9.50"), ("2027-mid", "2027-07-01", "9.90"))
    q1 = _one_account_run(rules, "2027-Q1")  # the quarter before (2026-Q4) is another fiscal year
    assert q1["enclose"]["notice"] == "user-notice-2027" and q1["enclose"]["year"] == 2027
    assert "the file user-notice-2027 (.txt or .html), made in step 4 of the Clerk's desk" in q1["enclose"]["text"]
    assert ("“At least annually, each user shall be notified of the rate schedule in conjunction with a regular "
            "bill” (Rate schedules D)") in q1["enclose"]["text"]
    summary = list(csv.DictReader(io.StringIO(q1["files"]["summary.csv"])))
    assert summary[-1] == {"item": "to enclose with each bill: the notice to users of the rate schedule (the file "
                                   "user-notice-2027, made in step 4 of the Clerk's desk; Rate schedules D)",
                           "accounts": "1", "amount": ""}
    q2 = _one_account_run(rules, "2027-Q2", [("register.csv", q1["files"]["register.csv"])], False)
    assert q2["enclose"] is None
    assert not any("to enclose" in row for row in q2["files"]["summary.csv"].splitlines())
    # a schedule adopted to start during the year: its first quarter carries its own notice
    q2_register = q2["files"]["register.csv"]
    q3 = _one_account_run(rules, "2027-Q3", [("r1.csv", q1["files"]["register.csv"]), ("r2.csv", q2_register)], False)
    assert q3["enclose"]["notice"] == "user-notice-2027-mid"
    # the first quarter the Town bills here, mid-year: no bill has carried the notice yet
    assert _one_account_run(rules, "2027-Q2")["enclose"]["notice"] == "user-notice-2027"


def test_the_command_line_reminds_to_enclose_the_notice_and_the_sample_s_second_quarter_does_not(sample_dir,
                                                                                                   tmp_path, capsys):
    """The same reminder from `build.py bills`, as a note; the sample's 2025-Q4 follows 2025-Q3 under the same
    schedule, so it has none, and 2025-Q3 billed first has one."""
    assert command.main(_args(sample_dir, tmp_path / "q4", "--no-pdf")) == 0
    assert "enclose" not in capsys.readouterr().err.lower()
    assert command.main(["--quarter", sample.FIRST, "--accounts", str(sample_dir / "accounts.csv"), "--reads",
                         str(sample_dir / f"reads-{sample.FIRST}.csv"), "--first-quarter", "--out",
                         str(tmp_path / "q3"), "--no-pdf"]) == 0
    err = capsys.readouterr().err
    assert "Note: Put the notice to users of the rate schedule in the envelope with each of these bills: the file " \
           "user-notice-2025-illustrative" in err
    assert "user-notice-2025-illustrative" in (tmp_path / "q3" / "summary.csv").read_text(encoding="utf-8")


def test_every_problem_of_a_refused_row_is_listed_at_once():
    """The usability test: S10041's language 'fr' hid its missing read until the next run. A row's problems are
    listed together, one line of refused.csv (and of the desk's list) for the row, and the read of an account
    whose own row is refused is still checked."""
    accounts = ("account,parcel,service_address,mailing_name,mailing_address,language,meter,meter_digits\n"
                "S1,P1,1 Main St,A,PO Box 1,fr,water-gallons,\n"          # no read either
                "S2,P2,2 Main St,B,PO Box 2,fr,water-litres,six\n"        # three problems, and a faulty read
                "S3,P3,3 Main St,C,PO Box 3,en,water-gallons,\n")
    reads = "account,previous_reading,current_reading,read_date\nS2,500,400,2025-09-01\nS3,100,200,2025-09-01\n"
    result = billing.run(RULES, sample.FIRST, ("accounts.csv", accounts), ("reads.csv", reads), None, [], None, True)
    rows = {(r["file"], r["line"]): r for r in result["refused"]}
    assert len(rows) == len(result["refused"]) == 3
    s1 = rows[("accounts.csv", 2)]["what_to_fix"]
    assert s1.startswith("The language “fr” is not one the bills are written in.") and \
        s1.endswith("Account S1 has no meter read for 2025-Q3. Add its read to reads.csv.")
    s2 = rows[("accounts.csv", 3)]["what_to_fix"]
    assert "The language “fr”" in s2 and "The meter “water-litres”" in s2 and "The number of digits on the meter, “six”, is not a number" in s2
    assert "has no meter read" not in s2
    assert rows[("reads.csv", 2)]["what_to_fix"].startswith("The current reading, 400, is lower than the previous one")
    assert [r["account"] for r in result["register"]] == ["S3"]
    text = result["files"]["refused.csv"]
    assert len(list(csv.DictReader(io.StringIO(text)))) == 3 and "Account S1 has no meter read" in text


@pytest.mark.parametrize("language, title, says", [
    ("en", "How to pay", "call or visit the office of the Town Clerk."),
    ("es", "Cómo pagar", "llame o visite la oficina de la Secretaría del Pueblo.")])
def test_a_bill_says_how_to_pay_from_what_the_town_publishes(sample_run, language, title, says):
    """The usability test: the printed bills said nothing of where or how to pay. Each bill (PDF and desk) has
    "How to pay" in its language, one short line (a bill stays one page), from rules/contacts.yaml: the Town
    Clerk's office, then each detail the Town publishes of it, as published; none is guessed, and a detail
    not published is left out of the Town's own letter."""
    from calculator.core.i18n import localized, speaking
    from kit.billrun.bills_pdf import bill_html
    _, result = sample_run
    row = next(r for r in result["register"] if r["language"] == language)
    with speaking(language):
        here = localized(RULES)
        printed = billing.printable_bill(here, row, result["accounts"][row["account"]], "https://example.org/")
        html = bill_html(here, row, result["accounts"][row["account"]], "https://example.org/")
    assert printed["pay_title"] == title and printed["pay"] == says
    assert f'<p class="bill-pay"><strong>{title}:</strong> {says}</p>' in html
    # a detail the Town publishes is printed as published, in contacts.yaml's order; the others are left out
    clerk = next(c for c in RULES["contacts"]["contacts"] if c["id"] == "town-clerk")
    published = dict(RULES, contacts={"contacts": [dict(clerk, phone="(845) 555-0100", address="Town Hall, Pawling")]})
    with speaking("en"):
        line = billing.how_to_pay(published)
    assert line == "call or visit the office of the Town Clerk, Town Hall, Pawling; (845) 555-0100."
    assert "confirmed" not in line


def test_a_second_run_of_the_quarter_bills_only_the_accounts_the_first_did_not():
    """The Clerk's second usability test: 38 of 42 accounts were billed, the rest refused until the water
    department fixed its rows, with no plain way to bill them later. The first run's register, given to a
    second run of the same quarter, says which accounts it billed: the second bills only the others, once
    each, and the next quarter's run, given both registers, carries each account's unpaid bill once."""
    head = "account,parcel,service_address,mailing_name,mailing_address,language,meter\n"
    a1 = "A1,P1,1 Main St,A Person,PO Box 1,en,water-gallons\n"
    reads = ("reads.csv", "account,usage\nA1,12000\nA2,20000\n")
    first = billing.run(RULES, "2025-Q3", ("accounts.csv", head + a1 + "A2,P2,2 Main St,B Person,PO Box 2,fr,water-gallons\n"),
                        reads, None, [], None, True)
    assert [r["account"] for r in first["register"]] == ["A1"] and [r["account"] for r in first["refused"]] == ["A2"]
    fixed = ("accounts.csv", head + a1 + "A2,P2,2 Main St,B Person,PO Box 2,en,water-gallons\n")
    run1 = ("register-run-1.csv", first["files"]["register.csv"])
    second = billing.run(RULES, "2025-Q3", fixed, reads, None, [run1], None, True)
    assert [r["account"] for r in second["register"]] == ["A2"] and second["refused"] == []
    assert second["already_billed"] == 1
    assert "register-run-1.csv already billed 1 of these accounts for 2025-Q3: they are not billed again" in \
        " ".join(second["notices"])
    # the first run was given no earlier register, and the second says it is not the first: what to do is said
    with pytest.raises(InputError) as err:
        billing.run(RULES, "2025-Q3", fixed, reads, None, [run1], None, False)
    assert "If register-run-1.csv is from an earlier run of 2025-Q3 that refused some rows" in str(err.value)
    assert "answer \"No, this is the first bill run on this site\"" in str(err.value)
    # the next quarter, given both registers: each account's 2025-Q3 charge is owed once, not twice
    third = billing.run(RULES, "2025-Q4", fixed, ("reads.csv", "account,usage\nA1,1000\nA2,1000\n"), None,
                        [run1, ("register-run-2.csv", second["files"]["register.csv"])], None, False)
    owed = {r["account"]: Decimal(r["arrears"]) for r in third["register"]}
    assert owed == {"A1": Decimal(first["register"][0]["charge"]), "A2": Decimal(second["register"][0]["charge"])}


def test_a_second_run_of_the_quarter_given_its_earlier_quarter_bills_only_the_rest():
    """The same, for a run that was given the register of the quarter before: the second run is given it
    again beside the first run's register, and bills only the account the first refused."""
    head = "account,parcel,service_address,mailing_name,mailing_address,language,meter\n"
    accounts = ("accounts.csv", head + "A1,P1,1 Main St,A Person,PO Box 1,en,water-gallons\n"
                "A2,P2,2 Main St,B Person,PO Box 2,en,water-gallons\n")
    q3 = ("register-2025-Q3.csv", "account,quarter,charge\nA1,2025-Q3,96.00\nA2,2025-Q3,96.00\n")
    first = billing.run(RULES, "2025-Q4", accounts, ("reads.csv", "account,usage\nA1,12000\n"), None, [q3], None, False)
    assert [r["account"] for r in first["register"]] == ["A1"]
    second = billing.run(RULES, "2025-Q4", accounts, ("reads.csv", "account,usage\nA1,12000\nA2,20000\n"), None,
                         [q3, ("register-run-1.csv", first["files"]["register.csv"])], None, False)
    assert [r["account"] for r in second["register"]] == ["A2"] and second["refused"] == []
    assert second["register"][0]["arrears"] == "96.00"


def test_a_payment_with_a_decimal_comma_is_asked_about_and_excels_sep_line_is_named():
    """The ninth hostile tester (F5): a payment of "64,00" was "not a payment" (the `bill` command asks "Did
    you mean 12.50?" of "12,50"), and a file whose first line is Excel's "sep=," was said to have "no
    column account". The comma is asked about; the sep= line is named, with what to do."""
    accounts = "account,parcel,service_address,mailing_name,mailing_address,language,meter\n" \
               "A1,1-1-1,1 Lane,An,PO 1,en,water-gallons\nA2,2-2-2,2 Lane,Bo,PO 2,en,water-gallons\n"
    reads = "account,previous_reading,current_reading\nA1,100,12100\nA2,100,12100\n"
    payments = "account,quarter,amount,paid_on\nA1,2025-Q3,\"64,00\",2025-10-01\nA2,2025-Q3,\"1.204,33\",2025-10-01\n"
    earlier = "account,quarter,charge\nA1,2025-Q3,96.00\nA2,2025-Q3,96.00\n"
    result = billing.run(RULES, "2025-Q4", ("accounts.csv", accounts), ("reads.csv", reads),
                         ("payments.csv", payments), [("q3.csv", earlier)])
    refused = {(r["file"], r["account"]): r["what_to_fix"] for r in result["refused"]}
    assert refused[("payments.csv", "A1")] == ("The amount “64,00” has a comma where dollars and cents take a point. "
                                               "Did you mean 64.00? If so, write 64.00.")
    assert "Did you mean 1204.33?" in refused[("payments.csv", "A2")]
    with pytest.raises(InputError) as refused_file:
        billing.run(RULES, "2025-Q4", ("accounts.csv", accounts), ("reads.csv", "sep=,\n" + reads), None, [])
    message = str(refused_file.value)
    assert message.startswith("reads.csv:1: the first line, “sep=,”, is a line some spreadsheets add")
    assert "Delete that line" in message and "no column" not in message


def test_two_registers_of_one_quarter_that_disagree_are_refused_not_merged(tmp_path):
    """The eleventh hostile tester (F8): a register and a copy of it with one account's charge changed were both
    read, the last given winning: the account's bill was $366.61 one way round and $326.36 the other. Two registers
    that bill an account for one quarter with different amounts are refused, naming both; the same one twice is not."""
    from kit.billrun import sample as kit_sample
    from calculator.bills import billing
    from calculator.core.rules import load
    folder = tmp_path / "s"
    kit_sample.write(folder, 50)
    register = folder / f"register-{kit_sample.FIRST}.csv"
    text = register.read_text(encoding="utf-8")
    lines = text.splitlines()
    header = lines[0].split(",")
    row = next(i for i, line in enumerate(lines) if line.startswith("SAMPLE-10002,"))
    cells = lines[row].split(",")
    charge = header.index("charge")
    changed = lines[:row] + [",".join(c if i != charge else "99.00" for i, c in enumerate(cells))] + lines[row + 1:]
    files = dict(accounts=("accounts.csv", (folder / "accounts.csv").read_text(encoding="utf-8")),
                 reads=(f"reads-{kit_sample.SECOND}.csv",
                        (folder / f"reads-{kit_sample.SECOND}.csv").read_text(encoding="utf-8")))
    twice = [(register.name, text), ("copy.csv", text)]
    assert billing.run(load(), kit_sample.SECOND, files["accounts"], files["reads"], earlier=twice)["register"]
    with pytest.raises(InputError) as err:
        billing.run(load(), kit_sample.SECOND, files["accounts"], files["reads"],
                    earlier=[(register.name, text), ("copy.csv", "\n".join(changed) + "\n")])
    assert "both bill account “SAMPLE-10002”" in str(err.value) and "copy.csv" in str(err.value)


@pytest.mark.parametrize("words", [
    "<p>Peter Alvarez owes $464.00.</p>",
    "<p>These residents still owe: Peter Alvarez owes $464.00; Karen Smith owes $1,204.33; Tom Hale owes $96.00. "
    "The Board will write to each of them before the next meeting, as the Clerk said at the last one.</p>",
    "<p>John Whitfield owes 1204.33 dollars.</p>",
    "<p>Luis Ortega debe 388,10 $ y Jorge Peña debe 1.204,33 $.</p>",
    "<p>Account 10442: $388.10 overdue</p>",          # F4: an account's number ties the amount to one household
    "<p>La cuenta n.º 10442 debe 388,10 $.</p>",
])
def test_a_person_said_to_owe_an_amount_in_prose_is_account_data(words):
    """The eleventh hostile tester (F1, F3): "Peter Alvarez owes $464.00." and a paragraph naming three debtors were
    published; so were Spanish amounts. The site's own sentences about what "you" or "a user" owe are not names."""
    assert privacy.account_records(words)
    for ours in ("<p>If you pay late, you owe $14.40 more.</p>", "<p>A user owes $96.00 each quarter.</p>",
                 "<p>The Town Board owes $5.00 to no one.</p>"):
        assert not privacy.account_records(ours), ours


@pytest.mark.parametrize("change,says", [
    (("bill-due-dates", ["01-20", "04-20", "07-20", "10-20"]), "the due date for 2025-Q3 was “2025-07-15”"),
    (("late-penalty-grace-days", 35), "the last day to pay for 2025-Q3 was “2025-08-14”"),
    # the penalty rate and the minimum, edited in place, re-priced mailed bills (the twelfth hostile tester, F6)
    (("late-penalty-rate", "0.10"), "the late penalty rate for 2025-Q3 was “0.15”"),
    (("minimum-charge-water-gallons", 10000), "the minimum charge for 2025-Q3 was “64.00”"),
])
def test_a_rule_changed_in_place_that_would_rebill_an_earlier_quarter_is_refused(tmp_path, change, says):
    """The eleventh hostile tester (N3): the due day edited in place (15th to 20th) moved a mailed bill's last day to
    pay from August 14 to August 19 in the next run's arrears, without a word. An earlier register whose quarter the
    rules now bill with another due date, last day or rate is refused, naming the file, the line and the dated form."""
    import copy
    from kit.billrun import sample as kit_sample
    from calculator.core.rules import load
    folder = tmp_path / "s"
    kit_sample.write(folder, 20)
    register = folder / f"register-{kit_sample.FIRST}.csv"
    files = dict(accounts=("accounts.csv", (folder / "accounts.csv").read_text(encoding="utf-8")),
                 reads=(f"reads-{kit_sample.SECOND}.csv",
                        (folder / f"reads-{kit_sample.SECOND}.csv").read_text(encoding="utf-8")),
                 earlier=[(register.name, register.read_text(encoding="utf-8"))])
    assert billing.run(load(), kit_sample.SECOND, **files)["register"]  # billed by these rules: taken
    rules = copy.deepcopy(load())
    name, value = change
    rules["parameters"][name]["value"] = value
    rules["parameters"][name].pop("values", None)
    with pytest.raises(InputError) as err:
        billing.run(rules, kit_sample.SECOND, **files)
    assert says in str(err.value) and f"{register.name}:2" in str(err.value) and "values:" in str(err.value), err.value
    # the rate recorded then, edited in the register (or an adopted schedule edited in place): refused too
    lines = files["earlier"][0][1].splitlines()
    header = lines[0].split(",")
    vc = header.index("vc_per_1000_gallons")
    lines[1] = ",".join(c if i != vc else "11.00" for i, c in enumerate(lines[1].split(",")))
    with pytest.raises(InputError) as err:
        billing.run(load(), kit_sample.SECOND, files["accounts"], files["reads"],
                    earlier=[(register.name, "\n".join(lines) + "\n")])
    assert "the rate per 1,000 gallons for 2025-Q3 was “11.00”" in str(err.value)
    # a schedule takes no values: list: the way is a new schedule (the twelfth hostile tester, F17)
    assert "as a new rate schedule" in str(err.value) and "values:" not in str(err.value)
    # the share of water billed as sewage, edited in place in the schedule (the twelfth hostile tester): refused too
    shared = copy.deepcopy(load())
    for schedule in shared["schedules"]:
        schedule["sewage_fraction"] = "0.9"
    with pytest.raises(InputError) as err:
        billing.run(shared, kit_sample.SECOND, **files)
    assert "but the rules now bill 90% of the water as sewage for that quarter" in str(err.value)


def test_accounts_missing_from_the_previous_quarters_record_are_named_to_check(tmp_path):
    """The twelfth hostile tester: an earlier register cut short (its first 7 lines, as a half-saved file or a filtered
    export) billed four accounts' unpaid bills with arrears $0.00 and a levy list of 1 line for 10, without a word.
    The run names the accounts billed now that the previous quarter's record lacks (a new account is one of them,
    so it is a check, not a refusal); with the whole record, only the accounts new that quarter."""
    from kit.billrun import sample as kit_sample
    from calculator.core.rules import load
    folder = tmp_path / "s"
    kit_sample.write(folder, 40)
    register = (folder / f"register-{kit_sample.FIRST}.csv").read_text(encoding="utf-8")
    files = dict(accounts=("accounts.csv", (folder / "accounts.csv").read_text(encoding="utf-8")),
                 reads=(f"reads-{kit_sample.SECOND}.csv",
                        (folder / f"reads-{kit_sample.SECOND}.csv").read_text(encoding="utf-8")))
    whole = billing.run(load(), kit_sample.SECOND, **files, earlier=[("whole.csv", register)])
    cut = billing.run(load(), kit_sample.SECOND, **files,
                      earlier=[("cut.csv", "\n".join(register.splitlines()[:7]) + "\n")])
    said = [c for c in cut["checks"] if "not in the billing record of 2025-Q3 (cut.csv)" in c]
    assert len(said) == 1 and "that record is incomplete" in said[0]
    missing = int(said[0].split(" ", 1)[0])
    new = [c for c in whole["checks"] if "not in the billing record of 2025-Q3" in c]
    assert missing > (int(new[0].split(" ", 1)[0]) if new else 0) + 3, (said, new)
    # only accounts billed now are named, never one the run refused (the sixteenth hostile tester, U1)
    refused = {r["account"] for r in cut["refused"]}
    billed = {r["account"] for r in cut["register"]}
    named = set(re.findall(r"SAMPLE-\d+", said[0]))
    assert named and named <= billed and not named & refused, (named, refused)


def test_a_quote_mark_left_open_is_refused_not_read_as_one_value(tmp_path):
    """The twelfth hostile tester: `SAMPLE-10003,"2025-Q3,…` in payments.csv swallowed every later payment into one
    cell; one row was refused and 32 households were billed again for paid bills ($2,060 of arrears became $8,501).
    A value over several lines that reads as rows is refused, naming the lines; an address over two lines is not."""
    from kit.billrun import sample as kit_sample
    from calculator.core.rules import load
    folder = tmp_path / "s"
    kit_sample.write(folder, 20)
    payments = (folder / "payments.csv").read_text(encoding="utf-8").splitlines()
    payments[3] = payments[3].replace(",", ',"', 1)
    files = dict(accounts=("accounts.csv", (folder / "accounts.csv").read_text(encoding="utf-8")),
                 reads=(f"reads-{kit_sample.SECOND}.csv",
                        (folder / f"reads-{kit_sample.SECOND}.csv").read_text(encoding="utf-8")),
                 earlier=[("r.csv", (folder / f"register-{kit_sample.FIRST}.csv").read_text(encoding="utf-8"))])
    with pytest.raises(InputError) as err:
        billing.run(load(), kit_sample.SECOND, **files, payments=("payments.csv", "\n".join(payments) + "\n"))
    assert "payments.csv:4: a quote mark opened on this line is not closed until line" in str(err.value)
    # a mailing address over two lines, quoted as a spreadsheet exports it, is an address
    accounts = files["accounts"][1].splitlines()
    header = accounts[0].split(",")
    cells = next(csv.reader([accounts[1]]))
    cells[header.index("mailing_address")] = "PO Box 12\nPawling, NY 12564"
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([header, cells, *csv.reader(accounts[2:])])
    assert billing.run(load(), kit_sample.SECOND, ("accounts.csv", out.getvalue()), files["reads"],
                       earlier=files["earlier"])["register"]


def test_control_characters_are_written_out_without_the_unicode_escape_codec(monkeypatch):
    """The twelfth hostile tester: one BEL in a reads file stopped the Clerk's bills desk with "LookupError: unknown
    encoding: unicode_escape" (the browser's Python has no such codec). They are written out by hand, as Python
    writes them in a literal, with the codec unavailable."""
    import codecs
    from calculator.core.errors import for_terminal
    real = codecs.lookup

    def lookup(name):
        if name.replace("-", "_").lower() == "unicode_escape":
            raise LookupError("unknown encoding: unicode_escape")
        return real(name)
    monkeypatch.setattr(codecs, "lookup", lookup)
    assert for_terminal("BAD\x07ID \x1b[31m \u202e \U000e0001 a\tb\r\nkept") == \
        "BAD\\x07ID \\x1b[31m \\u202e \\U000e0001 a\\tb\\r\nkept"
    # (str.encode finds a codec without codecs.lookup: the function's own code must not ask for it)
    import inspect
    from calculator.core import errors
    assert 'encode("unicode_escape")' not in inspect.getsource(errors.for_terminal)


@pytest.mark.parametrize("hidden", [
    "<p>Dana Whit\u200bfield owes $1,204.33</p>",                                   # a zero-width space in the name
    "<p>Dana\u2060 Whitfield, 22 Route 22, 1204.33</p>",                           # a word joiner
    "<p>\uff24\uff41\uff4e\uff41 \uff37\uff48\uff49\uff54\uff46\uff49\uff45\uff4c\uff44, \uff12\uff12 Route 22, 1204.33</p>",  # full-width
])
def test_account_data_hidden_with_invisible_or_full_width_characters_is_found(hidden):
    """The twelfth hostile tester: zero-width spaces or full-width letters inside a name, a street and an amount got a
    line past the guard. The text is read as a person sees it; the site's own words are unchanged by it."""
    assert privacy.account_records(hidden)
    assert privacy.seen_as_shown("Precio: 12 € — ½ año") == "Precio: 12 € — ½ año"


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_printed_bill_is_the_towns_and_never_speaks_as_the_website(sample_run, language):
    """clerk13: the printed bills (the Town's letters) said "This site reads that as" and "as we read the law". A
    bill says how the Town applies the law; it never speaks as a website nor says the Town has adopted a reading."""
    from calculator.core.i18n import localized, speaking
    _files, result = sample_run
    rows = [dict(row, language=language) for row in result["register"][:60]]
    texts = []
    with speaking(language):
        rules = localized(RULES)
        for row in rows:
            printed = billing.printable_bill(rules, row, result["accounts"][row["account"]], "https://example.org/")
            texts += [s["text"] for s in printed["steps"]] + [printed["late"], printed["total_note"] or ""]
    said = " ".join(texts)
    for site_words in ("this site", "This site", "we read", "este sitio", "Este sitio", "interpretamos",
                       "nuestra interpretación"):
        assert site_words not in said, site_words
    assert ("The Town takes that as:" if language == "en" else "El Pueblo lo aplica así:") in said


def test_a_file_given_in_another_files_place_is_named_for_what_it_is():
    """The fourteenth hostile tester: the accounts file given as the payments was told "the header has no column
    quarter, amount, paid_on. Add it". The run says what the file looks like and to give each in its own place."""
    files = sample.sample_files(20)
    accounts = ("accounts.csv", files["accounts.csv"])
    reads = (f"reads-{sample.SECOND}.csv", files[f"reads-{sample.SECOND}.csv"])
    earlier = [(f"register-{sample.FIRST}.csv", files[f"register-{sample.FIRST}.csv"])]
    with pytest.raises(InputError) as refused:
        billing.run(RULES, sample.SECOND, accounts, reads, ("payments.csv", files["accounts.csv"]), earlier)
    assert "payments.csv:1: this looks like the accounts file, not the file asked for here" in str(refused.value)
    assert "Add it" not in str(refused.value)
    with pytest.raises(InputError) as refused:
        billing.run(RULES, sample.SECOND, ("accounts.csv", reads[1]), reads, None, earlier)
    assert "accounts.csv:1: this looks like a meter reads file" in str(refused.value)


def test_the_sample_count_is_read_as_the_kit_reads_numbers(tmp_path):
    """The fourteenth hostile tester: `--count 2,000` got argparse's raw "invalid int value"."""
    done = subprocess.run([sys.executable, str(ROOT / "build.py"), "bills", "--sample", str(tmp_path / "s"), "--count",
                           "1,500"], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "s" / "accounts.csv").read_text(encoding="utf-8") == sample.sample_files(1500)["accounts.csv"]
    bad = subprocess.run([sys.executable, str(ROOT / "build.py"), "bills", "--sample", str(tmp_path / "t"), "--count",
                          "many"], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert bad.returncode == 2 and "must be a number, like 2000" in bad.stderr and "invalid int" not in bad.stderr


def test_the_run_says_which_schedule_its_bills_use_not_an_estimates(sample_run):
    """The fourteenth hostile tester: the Clerk's bill run said "This estimate uses the example rate schedule" of
    a run of bills. It is said of the bills."""
    _files, result = sample_run
    said = " ".join(result["notices"])
    assert "These bills use the example rate schedule, which the Town has not adopted." in said
    assert "This estimate" not in said


def test_the_engine_s_run_never_replaces_its_own_earlier_register_nor_another_quarter_s_run(sample_dir, tmp_path,
                                                                                             capsys):
    """The twentieth hostile tester: `python -m calculator bills --quarter 2025-Q4 --earlier Q3/register.csv --out Q3`
    wrote the Q4 run over the Q3 run it was given, the Q3 register lost; and over a Q3 run given from a copy. The
    engine refuses both, as `build.py bills` does, in the same words, and writes nothing."""
    from calculator.cli import main
    q3 = tmp_path / "q3"
    assert command.main(["--quarter", sample.FIRST, "--accounts", str(sample_dir / "accounts.csv"), "--reads",
                         str(sample_dir / f"reads-{sample.FIRST}.csv"), "--first-quarter", "--out", str(q3),
                         "--no-pdf"]) == 0
    before = {p.name: p.read_bytes() for p in q3.iterdir()}
    q4 = ["bills", "--quarter", sample.SECOND, "--accounts", str(sample_dir / "accounts.csv"), "--reads",
          str(sample_dir / f"reads-{sample.SECOND}.csv"), "--payments", str(sample_dir / "payments.csv")]
    capsys.readouterr()
    assert main([*q4, "--earlier", str(q3 / "register.csv"), "--out", str(q3)]) == 2
    assert f"--out {q3} holds the input file {q3 / 'register.csv'}. The run replaces that folder whole" in \
        capsys.readouterr().err
    copy = tmp_path / "register-q3.csv"
    copy.write_bytes(before["register.csv"])
    assert main([*q4, "--earlier", str(copy), "--out", str(q3)]) == 2
    assert (f"--out {q3} holds the {sample.FIRST} run, which a {sample.SECOND} run would replace. Give each quarter "
            f"its own folder, like billing/{sample.SECOND}/.") in capsys.readouterr().err
    assert {p.name: p.read_bytes() for p in q3.iterdir()} == before
    assert main([*q4, "--earlier", str(copy), "--out", str(tmp_path / "q4")]) == 0  # its own folder: billed


@pytest.mark.parametrize("digits, says", [
    ("0", "The number of digits on the meter, “0”, is not a number from 1 to 12. Write how many digits the meter shows"),
    ("99", "The number of digits on the meter, “99”, is not a number from 1 to 12. Write"),
    ("six", "The number of digits on the meter, “six”, is not a number. Write how many digits the meter shows"),
])
def test_meter_digits_out_of_range_are_said_to_be_out_of_range(digits, says):
    """The twenty-sixth hostile tester, #5: 0 and 99 were "not a number"."""
    accounts = ("account,parcel,service_address,mailing_name,mailing_address,language,meter,meter_digits\n"
                f"A1,p1,a,n,m,en,water-gallons,{digits}\n")
    got = billing.run(RULES, "2025-Q3", ("a.csv", accounts), ("r.csv", "account,usage\nA1,12000\n"), first_quarter=True)
    [why] = [r["what_to_fix"] for r in got["refused"] if r["account"] == "A1"]
    assert why.startswith(says), why


@pytest.mark.parametrize("column, near", [("current_read", "current_reading"), ("previous_readings", "previous_reading"),
                                          ("acount", "account")])
def test_a_misspelt_column_refuses_the_file_naming_it(sample_dir, tmp_path, capsys, column, near):
    """hostile28 #4: "current_read" for current_reading billed 0 accounts, each row refused as "The read … is
    missing", never naming the header. A column close to one of the file's own refuses the file, naming both."""
    reads = sample_dir / f"reads-{sample.SECOND}.csv"
    lines = reads.read_text(encoding="utf-8").split("\n", 1)
    reads.write_text(lines[0].replace(near, column, 1) + "\n" + lines[1], encoding="utf-8")
    out = tmp_path / "out"
    assert command.main(_args(sample_dir, out, "--no-pdf")) == 2
    err = capsys.readouterr().err
    assert f"reads-{sample.SECOND}.csv:1: the header has a column “{column}”, which is not one of this file's " \
           f"columns; did you mean {near}?" in err and "Nothing was written." in err, err
    assert not out.exists()


def _amended_in_place(rules: dict, vc: str) -> dict:
    """The rules with every schedule's VC changed where it stands (no new dated entry): an amendment made
    in place after bills were mailed."""
    import copy
    amended = copy.deepcopy(rules)
    for sched in amended["schedules"]:
        sched["vc_per_1000_gallons"] = vc
    return amended


def test_a_bill_s_link_after_its_schedule_is_amended_in_place_says_both_totals():
    # the twenty-ninth hostile tester: a mailed bill's link showed another total, as the bill's, after the
    # schedule it was billed at was edited in place
    result = run_case(CASES[1])
    row = result["register"][0]
    amended = _amended_in_place(RULES, "12.50")
    shown = billing.link_answer(amended, row["estimate_link"])
    assert shown["total"] != row["total"]
    assert shown["billed"]["differs"] is True
    assert (shown["billed"]["printed"], shown["billed"]["now"]) == (row["total"], shown["total"])
    assert f"${Decimal(row['total']):,.2f}" in shown["billed"]["text"]
    assert f"${Decimal(shown['total']):,.2f}" in shown["billed"]["text"]
    assert "Ask the Town Clerk" in shown["billed"]["text"]
    # with a payment date, the bill's total compared is still the one with none (what the bill printed)
    argv = _link_argv(row["estimate_link"]) + ["--paid-on", "2025-12-30"]
    late = cli_run(argv, amended)
    assert Decimal(late["total"]) > Decimal(shown["total"])
    assert late["billed"]["now"] == shown["total"] and late["billed"]["differs"] is True
    assert cli_run(_link_argv(row["estimate_link"]) + ["--paid-on", "2025-12-30"], RULES)["billed"]["differs"] is False


@pytest.mark.parametrize("change, says", [
    (lambda link: link.replace("billed=96.00", "billed=69.00"), "do not match its check code"),
    (lambda link: re.sub(r"&check=\w+", "", link), "your bill's total but no check code"),
    (lambda link: link.replace("billed=96.00", "billed=96"), "do not match its check code"),
])
def test_a_bill_s_total_in_its_link_is_checked_with_the_rest(change, says):
    link = run_case(CASES[1])["register"][0]["estimate_link"]
    assert "billed=96.00" in link
    with pytest.raises(InputError) as refused:
        billing.link_answer(RULES, change(link))
    assert says in str(refused.value)


def test_a_bill_s_total_that_is_no_amount_is_refused_by_name():
    from calculator.bills import arrears
    values = [("quarter", "2025-Q4"), ("water-gallons", "12000"), ("billed", "96")]
    link = "estimate/?" + "&".join(f"{k}={v}" for k, v in values) + "&check=" + arrears.link_check(values)
    with pytest.raises(InputError) as refused:
        billing.link_answer(RULES, link)
    assert "The link's bill total “96”" in str(refused.value) and refused.value.field == "billed"


@pytest.mark.parametrize("pairs", [3, 8, 9, 10, 35])
@pytest.mark.parametrize("who", ["name", "account"])
@pytest.mark.parametrize("form", ["json", "pretty", "script"])
def test_a_long_object_of_people_or_accounts_and_amounts_is_refused_as_a_short_one_is(pairs, who, form):
    """The thirtieth hostile tester: a JSON or script object of 3 to 8 `"Avery Dunmore": "9.60"` (or `"S10001":
    "148.66"`) pairs was refused, and one of 9 or more published, read as a document's whole object."""
    import json
    first = ["Avery", "Quinn", "Indra", "Tam", "Jules", "Casey", "Emery"]
    last = ["Dunmore", "Rushmere", "Eastbrook", "Cobble", "Birchwood", "Northcote", "Fernhill"]
    keys = [f"{first[i % 7]} {last[(i * 3) % 7]}" if who == "name" else f"S{10001 + i}" for i in range(pairs)]
    owed = {key: f"{(i * 37.13 + 9.6) % 600:.2f}" for i, key in enumerate(keys)}
    text = {"json": json.dumps(owed), "pretty": json.dumps(owed, indent=2),
            "script": f"const owed = {json.dumps(owed, indent=1)};"}[form]
    assert privacy.account_records(text, blocks=True, script=True), text


def test_the_site_s_own_long_objects_are_not_taken_for_accounts():
    """Its catalogues (an object of a thousand sentences) and its data for other programs are long objects too:
    read in windows, none is account data (the build reads every file of the site so: test_build.py)."""
    import json
    from kit.browser.wheel import engine_translations
    from kit.site.build import validate_rules
    rules = validate_rules()
    for path, data in engine_translations(rules).items():
        assert privacy.account_records(data.decode(), blocks=True, script=True) == [], path
    assert privacy.account_records(json.dumps(rules["parameters"]), blocks=True, script=True) == []


@pytest.mark.parametrize("which", ["--accounts", "--reads", "--payments", "--earlier"])
def test_a_header_too_long_to_read_is_said_by_file_and_line_not_a_traceback(tmp_path, capsys, which):
    """The thirty-first hostile tester (T1): a header over the csv module's limit (a stray quote in a payments
    file of some years) was a traceback from `build.py bills`, and "could not answer (Error: field larger than
    field limit (131072))" from the engine's own command. Said by file and line, nothing written."""
    files = {"--accounts": CASES[1]["accounts"], "--reads": "account,usage\nA1,12000\n",
             "--payments": "account,quarter,amount,paid_on\n", "--earlier": None}
    paths = {}
    for option, text in files.items():
        if text is not None:
            (tmp_path / f"{option[2:]}.csv").write_text(text)
            paths[option] = str(tmp_path / f"{option[2:]}.csv")
    paths[which] = str(tmp_path / "big.csv")
    (tmp_path / "big.csv").write_text('account,"quarter,' + "x" * 140_000 + "\nS1,1\n")
    argv = ["--quarter", "2025-Q4", "--out", str(tmp_path / "o"), "--no-pdf",
            *[w for option, path in paths.items() for w in (option, path)],
            *([] if which == "--earlier" else ["--first-quarter"])]
    assert command.main(argv) == 2
    said = capsys.readouterr().err
    assert said.startswith("error: ") and "big.csv:1: a value on this line is too long: more than 131,072" in said, said
    assert "Traceback" not in said and not (tmp_path / "o").exists()
    import json
    from calculator.cli import run_json
    engine = json.loads(run_json(["bills", *[w for w in argv if w != "--no-pdf"]]))
    assert not engine["ok"] and "big.csv:1: a value on this line is too long" in engine["error"], engine


@pytest.mark.parametrize("line", [
    "Thanks to Luis Ortega (388.10), Dana Whitfield (1,204.33) and Maria Gonzalez (464.20) for paying.",
    "Luis Ortega (388.10), Dana Whitfield (1,204.33), Maria Gonzalez (464.20).",
    "Thanks to Luis Ortega (388.10) and Dana Whitfield (1,204.33) for paying early."])
def test_names_with_their_amounts_in_brackets_are_account_data(line):
    """The thirty-first hostile tester (P1): a line naming people, each with an amount in brackets, was published
    on every page and taken as the Clerk's note; "Luis Ortega $388.10" was refused."""
    assert privacy.account_records(f"<p>{line}</p>") and privacy.account_records(line, blocks=True)


@pytest.mark.parametrize("entries", [3, 10, 11, 35, 200])
def test_account_numbers_as_bare_keys_of_a_script_are_account_data(entries):
    """The thirty-first hostile tester (P2): `var b={S10001:114.00,…}` on one line was published from 11 entries
    on (the same object with quoted keys was refused)."""
    script = "var b={" + ",".join(f"S{10001 + i}:{(i * 37.13 + 64) % 900 + 50:.2f}" for i in range(entries)) + "};"
    assert privacy.account_records(script, blocks=True, script=True)
    assert privacy.account_records(f"<script>{script}</script>")
