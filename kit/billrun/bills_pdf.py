"""The quarterly bills as tagged PDF/UA-1 documents, one page an account: one document for the
accounts in English and one for those in Spanish (a document has one language, /Lang), made the way
the application and the notices are (kit/documents.py, kit/tagged_pdf.py)."""
from __future__ import annotations

from decimal import Decimal
from pathlib import Path

from calculator import bill, money
from calculator.dates import long
from calculator.explain import with_places
from calculator.i18n import N_, localized, speaking

from ..documents import DOCUMENTS, PRINT_CSS, document_html, environment
from ..language import PDF_TAGS, page_words
from ..tagged_pdf import html_to_pdf

BILL_CSS = DOCUMENTS / "bill.css"
TITLE = N_("Sewer bills for {quarter}")


def bill_html(rules: dict, row: dict, account: dict, site_url: str, env=None) -> str:
    """One account's bill (a register line) as HTML, in the language being spoken. The explanation
    is the engine's own, for the same usage and quarter as the estimate page the bill links to."""
    import datetime as dt
    result = with_places(rules, bill.compute(rules, row["quarter"], {row["meter"]: row["usage"]}))
    words = result["usage"]["words"]
    if row["previous_reading"]:
        words = bill.with_readings(words, row["meter"], row["previous_reading"], row["current_reading"])
    env = env or environment()
    return env.get_template("bill.html.j2").render(
        b=result, a=account, usage_words=words, volume=money.gallons(Decimal(row["sewage_gallons"])),
        vc=money.dollars(Decimal(row["vc_per_1000_gallons"])), charge=money.dollars(Decimal(row["charge"])),
        minimum=row["minimum_applied"] == "yes", arrears=money.dollars(Decimal(row["arrears"])),
        penalties=money.dollars(Decimal(row["penalties"])), total=money.dollars(Decimal(row["total"])),
        as_of=long(dt.date.fromisoformat(row["penalties_as_of"])), due=long(dt.date.fromisoformat(row["due_date"])),
        last_day=long(dt.date.fromisoformat(row["last_day_to_pay"])), steps=result["explanation"],
        link=site_url.rstrip("/") + "/" + row["estimate_link"])


def bills_pdf(rules: dict, rows: list[dict], accounts: dict, language: str, site_url: str) -> bytes:
    """The bills of the accounts in one language, in the register's order, as one tagged PDF."""
    with speaking(language):
        spoken = localized(rules)
        env = environment()
        title = (page_words(language).get(TITLE) or TITLE).format(quarter=rows[0]["quarter"])
        body = "\n".join(bill_html(spoken, row, accounts[row["account"]], site_url, env) for row in rows)
        html = document_html(body, title=title, lang=PDF_TAGS[language], kind="bills")
    return html_to_pdf(html, title=title, lang=PDF_TAGS[language], base_url=str(PRINT_CSS.parent),
                       stylesheets=[str(PRINT_CSS), str(BILL_CSS)])


def write_bills(rules: dict, result: dict, folder: Path, site_url: str) -> list[Path]:
    """bills-en.pdf and bills-es.pdf (each only when it has an account) into a folder."""
    written = []
    for language in PDF_TAGS:
        rows = [r for r in result["register"] if r["language"] == language]
        if rows:
            path = Path(folder) / f"bills-{language}.pdf"
            path.write_bytes(bills_pdf(rules, rows, result["accounts"], language, site_url))
            written.append(path)
    return written
