"""The quarterly bills as tagged PDF/UA-1 documents, one page an account: one document for the
accounts in English and one for those in Spanish (a document has one language, /Lang), made the way
the application and the notices are (kit/documents.py, kit/tagged_pdf.py)."""
from __future__ import annotations

import math
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from decimal import Decimal
from pathlib import Path

from calculator import bill, money
from calculator.dates import long
from calculator.explain import with_places
from calculator.i18n import N_, localized, speaking

from ..documents import DOCUMENTS, PRINT_CSS, document_html, environment
from ..language import PDF_TAGS, page_words
from ..tagged_pdf import html_to_pdf, join_tagged

BILL_CSS = DOCUMENTS / "bill.css"
TITLE = N_("Sewer bills for {quarter}")
#: Bills laid out in one go by one process: WeasyPrint's layout is most of a run's time (about
#: 0.13 s of CPU a bill, bench/bill_run.md), so a language's bills are split into chunks laid out
#: side by side, one process a core, and the tagged PDFs joined into one (tagged_pdf.join_tagged).
CHUNK = 100


def bill_html(rules: dict, row: dict, account: dict, site_url: str, env=None) -> str:
    """One account's bill (a register line) as HTML, in the language being spoken. The explanation
    is the engine's own, for the same usage and quarter as the estimate page the bill links to."""
    import datetime as dt
    result = with_places(rules, bill.compute(rules, row["quarter"], {row["meter"]: row["usage"]}))
    words = result["usage"]["words"]
    if row["previous_reading"]:
        words = bill.with_readings(words, row["meter"], row["previous_reading"], row["current_reading"])
    # the paper bill says when a penalty is added in its own line (bill-due), so the estimator's step
    # "If you pay late: …" (bill.if_late, the step with `first_penalty`) is not repeated: one page a bill
    steps = [s for s in result["explanation"] if "first_penalty" not in s["values"]]
    env = env or environment()
    return env.get_template("bill.html.j2").render(
        b=result, a=account, usage_words=words, volume=money.gallons(Decimal(row["sewage_gallons"])),
        vc=money.dollars(Decimal(row["vc_per_1000_gallons"])), charge=money.dollars(Decimal(row["charge"])),
        minimum=row["minimum_applied"] == "yes", arrears=money.dollars(Decimal(row["arrears"])),
        penalties=money.dollars(Decimal(row["penalties"])), total=money.dollars(Decimal(row["total"])),
        as_of=long(dt.date.fromisoformat(row["penalties_as_of"])), due=long(dt.date.fromisoformat(row["due_date"])),
        last_day=long(dt.date.fromisoformat(row["last_day_to_pay"])), steps=steps,
        link=site_url.rstrip("/") + "/" + row["estimate_link"])


def bills_pdf(rules: dict, rows: list[dict], accounts: dict, language: str, site_url: str,
              workers: int | None = None) -> bytes:
    """The bills of the accounts in one language, in the register's order, as one tagged PDF.
    More than CHUNK bills are laid out in `workers` processes (default: one a core), a chunk each,
    and joined."""
    workers = workers or os.cpu_count() or 1
    if workers == 1 or len(rows) <= CHUNK:
        return _chunk_pdf(rules, rows, accounts, language, site_url)
    size = min(CHUNK, math.ceil(len(rows) / workers))
    chunks = [rows[i:i + size] for i in range(0, len(rows), size)]
    # fork, not spawn: spawn re-runs the caller's main module, which a script without a
    # `if __name__ == "__main__"` guard does not survive; the parent has not laid anything out yet
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork")) as pool:
        parts = list(pool.map(_chunk_pdf, [rules] * len(chunks), chunks,
                              [{r["account"]: accounts[r["account"]] for r in chunk} for chunk in chunks],
                              [language] * len(chunks), [site_url] * len(chunks)))
    return join_tagged(parts)


def _chunk_pdf(rules: dict, rows: list[dict], accounts: dict, language: str, site_url: str) -> bytes:
    with speaking(language):
        spoken = localized(rules)
        env = environment()
        title = (page_words(language).get(TITLE) or TITLE).format(quarter=rows[0]["quarter"])
        body = "\n".join(bill_html(spoken, row, accounts[row["account"]], site_url, env) for row in rows)
        html = document_html(body, title=title, lang=PDF_TAGS[language], kind="bills")
    return html_to_pdf(html, title=title, lang=PDF_TAGS[language], base_url=str(PRINT_CSS.parent),
                       stylesheets=[str(PRINT_CSS), str(BILL_CSS)])


def write_bills(rules: dict, result: dict, folder: Path, site_url: str, workers: int | None = None) -> list[Path]:
    """bills-en.pdf and bills-es.pdf (each only when it has an account) into a folder."""
    written = []
    for language in PDF_TAGS:
        rows = [r for r in result["register"] if r["language"] == language]
        if rows:
            path = Path(folder) / f"bills-{language}.pdf"
            path.write_bytes(bills_pdf(rules, rows, result["accounts"], language, site_url, workers))
            written.append(path)
    return written
