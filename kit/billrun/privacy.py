"""Account files are personal data: the site build refuses to publish when a file with account
columns is under docs/ or rules/. The one exception is the fictional sample in docs/billing-sample/,
and only while each of its files is byte for byte what kit/billrun/sample.py generates."""
from __future__ import annotations

import csv
import io
from pathlib import Path

from ..errors import BuildError
from .sample import DOCS_COUNT, DOCS_SAMPLE, sample_files

#: a header with `account` and any of these is an account file
PERSONAL = frozenset({"mailing_name", "mailing_address", "service_address", "parcel", "amount", "paid_on",
                      "previous_reading", "current_reading", "usage", "charge"})
#: the files looked into: what a spreadsheet saves as
TABULAR = frozenset({".csv", ".tsv", ".txt"})


def has_account_columns(path: Path) -> bool:
    try:
        first = path.read_text(encoding="utf-8-sig", errors="replace").splitlines()[:1]
    except OSError:
        return False
    if not first:
        return False
    dialect = "excel-tab" if "\t" in first[0] else "excel"
    header = {c.strip().lower() for c in next(csv.reader(io.StringIO(first[0]), dialect), [])}
    return "account" in header and bool(header & PERSONAL)


def account_files(*folders: Path) -> list[Path]:
    """The files with account columns under these folders, other than the generated sample."""
    sample = {DOCS_SAMPLE / name: text for name, text in docs_sample().items()}
    found = []
    for folder in folders:
        for path in sorted(Path(folder).rglob("*")):
            if path.is_file() and path.suffix.lower() in TABULAR and has_account_columns(path):
                if path in sample and path.read_text(encoding="utf-8") == sample[path]:
                    continue
                found.append(path)
    return found


def docs_sample() -> dict[str, str]:
    """The small fictional sample the site offers (docs/billing-sample/)."""
    return sample_files(DOCS_COUNT)


def check(*folders: Path) -> None:
    """Refuse (BuildError) when an account file is under any of the folders."""
    found = account_files(*folders)
    if found:
        names = ", ".join(str(p) for p in found)
        raise BuildError(f"Not publishing: {names} {'has' if len(found) == 1 else 'have'} account columns "
                         "(personal data). Move account files out of docs/ and rules/ (billing/ is kept out of "
                         "the repository), then build again.")
