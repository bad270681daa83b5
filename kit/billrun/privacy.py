"""Account files are personal data: the site build refuses to publish when a file with account
columns (or the bill run's own outputs, or a file that cannot be read to check: a spreadsheet, a
PDF, an archive) is under docs/ or rules/. There is no exception: the fictional sample the site offers
(/billing-sample/) is made by the build itself, from the rules it builds (kit/billrun/sample.py)."""
from __future__ import annotations

import re
from pathlib import Path

from ..errors import BuildError

#: a header with an account column and any of these is an account file
PERSONAL = frozenset({"mailing_name", "mailing_address", "service_address", "parcel", "amount", "paid_on",
                      "previous_reading", "current_reading", "usage", "charge", "name", "address", "owner",
                      "unpaid_charge", "unpaid_total", "penalties", "total", "balance"})
#: the site's own sources, which the build renders and other checks read: not account exports
SOURCES = frozenset({".md", ".j2", ".html", ".css", ".js", ".yaml", ".yml", ".po", ".svg", ".png", ".ico",
                     ".jpg", ".jpeg", ".webp", ".woff2"})
#: files whose contents cannot be read as text here (spreadsheets, documents, archives, databases): they
#: may hold account data that cannot be checked, so none is published
OPAQUE = frozenset({".pdf", ".xlsx", ".xls", ".xlsm", ".ods", ".odt", ".docx", ".doc", ".zip", ".gz", ".7z",
                    ".db", ".sqlite", ".sqlite3", ".parquet", ".mdb", ".accdb", ".numbers"})
#: how many lines of a text file are looked at for a header (a title line or a comment may come first)
HEAD_LINES = 50
_SPLIT = re.compile(r"[,;\t|]")
_JSON_KEY = re.compile(r'"([^"\\]{1,40})"\s*:')


def _column(name: str) -> str:
    return re.sub(r"[\s\-.#]+", "_", name.strip().strip('"\'').lower()).strip("_")


def has_account_columns(path: Path) -> bool:
    """A text file with an account column and a personal one on one line (a CSV, TSV or ;-separated
    header, any of the first HEAD_LINES lines), or as keys of a JSON file; or one of the bill run's own
    outputs, recognised by its first line (arrears.csv's label, the register's header)."""
    try:
        lines = path.read_text(encoding="utf-8-sig", errors="replace").splitlines()[:HEAD_LINES]
    except OSError:
        return False
    if lines and (lines[0].startswith("# For the Town Board: sewer rents unpaid")
                  or lines[0].startswith("account,quarter,language,meter,")):
        return True
    keyed = [_JSON_KEY.findall(line) for line in lines]
    for columns in [[_column(c) for c in _SPLIT.split(line)] for line in lines] + \
                   [[_column(k) for keys in keyed for k in keys]]:
        account = any(c == "account" or c.startswith(("account_", "acct")) for c in columns)
        if account and any(c in PERSONAL or "name" in c or "address" in c for c in columns):
            return True
    return False


def account_files(*folders: Path) -> list[Path]:
    """The files with account columns (or that cannot be read to check) under these folders."""
    found = []
    for folder in folders:
        for path in sorted(Path(folder).rglob("*")):
            suffix = path.suffix.lower()
            if not path.is_file() or suffix in SOURCES:
                continue
            if suffix in OPAQUE or has_account_columns(path):
                found.append(path)
    return found


def check(*folders: Path) -> None:
    """Refuse (BuildError) when an account file is under any of the folders."""
    found = account_files(*folders)
    if found:
        names = ", ".join(str(p) for p in found)
        raise BuildError(f"Not publishing: {names} {'has' if len(found) == 1 else 'have'} account columns "
                         "(personal data), or cannot be read to check. Move account files out of docs/ and rules/ (billing/ is kept out of "
                         "the repository), then build again.")
