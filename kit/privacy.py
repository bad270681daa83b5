"""Account files are personal data: the site build refuses to publish when a file with account
columns (or the bill run's own outputs, or a file that cannot be read to check: a spreadsheet, a
PDF, an archive) is under docs/ or rules/. There is no exception: the fictional sample the site offers
(/billing-sample/) is made by the build itself, from the rules it builds (kit/billrun/sample.py).

In a git checkout the guard is an allow-list (issue 35, item 3): a file the repository tracks has been
reviewed there, and only its non-source files are read for account columns; a file it does not track
(a page, script or table someone dropped into docs/) is read whole, whatever its name, in any of the
usual encodings, and refused when it looks like account data, or when it cannot be read to check. So
a new page is built once it is added to the repository (`git add`), after a look that it holds none. A
file it does not track that is not one of the site's sources (a table, a text or data file) is refused
whatever it holds: no list of column names foresees every export (the third hostile tester).

A file being tracked is no proof that it was reviewed (the fourth hostile tester committed a headerless
list, a TSV named .txt, a Markdown table, a fenced accounts.csv and a script's roster, and all were
published). So the built site is read too, before it replaces site/ (check_site, below): any record of
account data in any text file stops the build."""
from __future__ import annotations

import base64
import binascii
import codecs
import functools
import hashlib
import html
import re
import subprocess
import urllib.parse
import zlib
from pathlib import Path

from .errors import BuildError

#: a header with an account column and any of these is an account file
PERSONAL = frozenset({"mailing_name", "mailing_address", "service_address", "parcel", "amount", "paid_on",
                      "previous_reading", "current_reading", "usage", "charge", "name", "address", "owner",
                      "unpaid_charge", "unpaid_total", "penalties", "total", "balance"})
#: the site's own sources, which the build renders and other checks read: not account exports
SOURCES = frozenset({".md", ".j2", ".html", ".css", ".js", ".yaml", ".yml", ".po", ".svg", ".png", ".ico",
                     ".jpg", ".jpeg", ".webp", ".woff2"})
#: pictures cannot be read to check either: one the repository does not track is not published
IMAGES = frozenset({".png", ".ico", ".jpg", ".jpeg", ".webp", ".gif", ".woff2"})
#: the only folders of docs/ (and rules/) a picture is published from, once the repository tracks it: the
#: site's own assets. A picture anywhere else (a photo of the levy list in docs/notes/, the fifth hostile
#: tester) is refused, committed or not: what it shows cannot be read to check.
IMAGE_FOLDERS = ("assets",)
#: files whose contents cannot be read as text here (spreadsheets, documents, archives, databases): they
#: may hold account data that cannot be checked, so none is published
OPAQUE = frozenset({".pdf", ".xlsx", ".xls", ".xlsm", ".ods", ".odt", ".docx", ".doc", ".zip", ".gz", ".7z",
                    ".db", ".sqlite", ".sqlite3", ".parquet", ".mdb", ".accdb", ".numbers"})
#: how much of a text file is read to check it (a larger one cannot be checked here: refused)
MAX_BYTES = 20_000_000
#: cells are split at these: CSV, TSV, ;- and |-separated text, Markdown tables and HTML tags
_SPLIT = re.compile(r"[,;\t|]|<[^>]*>")
_JSON_KEY = re.compile(r'"([^"\\]{1,40})"\s*:')
_YAML_KEY = re.compile(r"^\s*-?\s*([A-Za-z_][\w \-]{0,39}):(?:\s|$)")
#: columns that name or place a person, or what an account owes: two of them in one file not tracked
#: by the repository are an account list even without an account column (an owner list with balances)
STRONG = frozenset({"mailing_name", "mailing_address", "service_address", "parcel", "owner", "name", "address",
                    "balance", "unpaid_charge", "unpaid_total", "paid_on", "amount_owed", "penalties",
                    "property_owner", "owner_name", "customer_name", "amount_due", "balance_due"})


def _column(name: str) -> str:
    return re.sub(r"[\s\-.#]+", "_", name.strip().strip('"\'').lower()).strip("_")


def _text(path: Path) -> str | None:
    """A file's text, whatever its encoding (UTF-8 with or without BOM, UTF-16 or UTF-32, Latin-1 as
    bytes); None when it cannot be read or is too large to check."""
    try:
        if path.stat().st_size > MAX_BYTES:
            return None
        data = path.read_bytes()
    except OSError:
        return None
    for bom, encoding in ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
                          (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16")):
        if data.startswith(bom):
            return data.decode(encoding, errors="replace")
    if data and data.count(0) * 3 > len(data):  # UTF-16 without its BOM: every other byte zero
        return data.decode("utf-16-be" if data[0] == 0 else "utf-16-le", errors="replace")
    return data.decode("utf-8-sig", errors="replace")


def _looks_like_accounts(columns: list[str]) -> bool:
    account = any(c in ("account", "customer") or c.startswith(("account_", "acct", "customer_", "cust_"))
                  for c in columns)
    return account and any(c in PERSONAL or "name" in c or "address" in c for c in columns)


_QUARTER = re.compile(r"\d{4}-Q[1-4]")


def register_row(record: str) -> bool:
    """A line of the bill run's register (or arrears list) without its header (the fifth hostile tester:
    `tail -n +2 register.csv` was published): known by its shape, an account, a quarter and a language
    in its first cells and many more, or a bill's estimate link among a dozen cells with a quarter."""
    cells = [c.strip().strip('"') for c in record.split(",")]
    if len(cells) >= 20 and _QUARTER.fullmatch(cells[1]) and cells[2] in ("en", "es"):
        return True
    return len(cells) >= 10 and any(_QUARTER.fullmatch(c) for c in cells) and \
        any(re.search(r"estimate/\?quarter=\d{4}-Q[1-4]", c) for c in cells)


def run_output_line(first: str) -> bool:
    """Whether a file's first line is one the bill run writes first: arrears.csv's label, the register's
    header."""
    return first.lstrip("\ufeff").startswith(("# For the Town Board: sewer rents unpaid", "account,quarter,language,meter,"))


def has_account_columns(path: Path, whole: bool = False) -> bool:
    """A text file with an account column and a personal one on one line (a CSV, TSV, ;- or |-separated
    header or a table row, anywhere in the file), or as keys of a JSON file; or one of the bill run's own
    outputs, recognised by its first line (arrears.csv's label, the register's header). `whole` (a file
    the repository does not track): the file's cells, JSON and YAML keys are also taken together, and two
    columns that name, place or bill a person (STRONG) are enough, with or without an account column."""
    text = _text(path)
    if text is None:
        return whole
    lines = text.splitlines()
    if lines and run_output_line(lines[0]):
        return True
    if any(register_row(line) for line in lines):
        return True
    keys = [_column(k) for line in lines for k in _JSON_KEY.findall(line)]
    if any(_looks_like_accounts([_column(c) for c in _SPLIT.split(line)]) for line in lines) or \
            _looks_like_accounts(keys):
        return True
    if not whole:
        return False
    cells = {_column(c) for line in lines for c in _SPLIT.split(line)} | set(keys) | \
        {_column(m.group(1)) for line in lines if (m := _YAML_KEY.match(line))}
    cells.discard("")
    return _looks_like_accounts(sorted(cells)) or len(cells & STRONG) >= 2


def untracked(folder: Path) -> set[Path] | None:
    """The files under `folder` that its git repository does not track (ignored ones too), or None when
    `folder` is not in a git work tree (a copy of the rules a test or a town's tarball builds from)."""
    try:
        out = subprocess.run(["git", "-C", str(folder), "ls-files", "-z", "--others", "--", "."],
                             capture_output=True, check=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    return {(Path(folder) / name).resolve() for name in out.stdout.decode("utf-8", "replace").split("\0") if name}


def listed_picture(path: Path, folder: Path, pictures: dict) -> bool:
    """Whether a picture is one mkdocs.yml's `extra: pictures:` lists, by its path under the folder, with
    these very bytes' sha256 and a note of what it shows (the eleventh hostile tester, F5: a picture of an
    account list, once tracked in docs/assets/, was published; what a picture shows cannot be read to check,
    so publishing one is a deliberate, reviewed line in the site's settings)."""
    entry = pictures.get(path.relative_to(folder).as_posix())
    if not isinstance(entry, dict) or not str(entry.get("shows") or "").strip():
        return False
    return str(entry.get("sha256") or "").lower() == hashlib.sha256(path.read_bytes()).hexdigest()


def account_files(*folders: Path, pictures: dict | None = None) -> list[Path]:
    """The files with account columns (or that cannot be read to check) under these folders; a picture
    counts unless `pictures` (mkdocs.yml's `extra: pictures:`) lists it, in the site's own assets."""
    found = []
    for folder in folders:
        loose = untracked(Path(folder))
        for path in sorted(Path(folder).rglob("*")):
            suffix = path.suffix.lower()
            if not path.is_file():
                continue
            if suffix in IMAGES and (path.relative_to(folder).parts[0] not in IMAGE_FOLDERS
                                     or not listed_picture(path, Path(folder), pictures or {})):
                found.append(path)  # a picture outside the site's own assets, or not listed: refused
                continue
            if loose is not None and path.resolve() in loose:  # not in the repository: read whole, any name
                # a table or data file (.csv, .tsv, .txt, .json, …) the repository does not track is refused
                # whatever its columns (the third hostile tester: "Customer Number,Property Owner,Amount Due",
                # a list with no header): headers cannot all be foreseen. Once reviewed, `git add` it.
                if suffix not in SOURCES or suffix in IMAGES or has_account_columns(path, whole=True):
                    found.append(path)
                continue
            if suffix in SOURCES:
                continue
            if suffix in OPAQUE or has_account_columns(path):
                found.append(path)
    return found


def _why(path: Path) -> str:
    """Why account_files refused a file, and what to do, in a few words (the twelfth hostile tester, F19: a
    committed brochure PDF was told to `git add` it, which had been done)."""
    suffix = path.suffix.lower()
    if suffix in OPAQUE:
        return ("a PDF, office document or archive, whose words cannot be read to check, so it is never published "
                "from docs/ or rules/ (the site's own PDFs are made by the build): move it out of them")
    if suffix in IMAGES:
        return ("a picture not listed for publishing: a picture is published only from docs/assets/, once git "
                "tracks it and mkdocs.yml lists it under `extra: pictures:` with its sha256 and what it shows")
    loose = untracked(path.parent)
    if loose is not None and path.resolve() in loose:
        return ("a file git does not track, read whole: it looks like account data, or is a table or data file; "
                "account lists belong in billing/ (git ignores it); a file of the site's that holds none is "
                "built once it is added to the repository (git add)")
    return "account columns (a person's name, address, parcel or an amount): account lists belong in billing/"


def check(*folders: Path, pictures: dict | None = None) -> None:
    """Refuse (BuildError) when an account file is under any of the folders, each with why and what to do."""
    found = account_files(*folders, pictures=pictures)
    if found:
        lines = "\n".join(f"  {p}: {_why(p)}" for p in found[:10])
        raise BuildError(f"Not publishing: these files under docs/ or rules/ may hold account data (personal "
                         f"data):\n{lines}\nThen build again (billing/ is kept out of the repository).")


#: the bill run's files that hold account data: the register, the levy list, the refused rows, the bills
RUN_OUTPUTS = ("register.csv", "arrears.csv", "refused.csv", "bills-en.pdf", "bills-es.pdf")


def tracked_run_outputs(root: Path) -> list[str]:
    """The bill run's account files (by name, or by a run's first line) that the repository at `root` tracks,
    anywhere in it (the seventh hostile tester committed calculator/register.csv and arrears.csv, and the
    build said nothing): the repository is pushed whole, not only what the site is built from. [] when
    `root` is not a git work tree."""
    try:
        out = subprocess.run(["git", "-C", str(root), "ls-files", "-z", "--cached"],
                             capture_output=True, check=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return []
    found = []
    for name in sorted(n for n in out.stdout.decode("utf-8", "replace").split("\0") if n):
        path = Path(root) / name
        if path.name.lower() in RUN_OUTPUTS:
            found.append(name)
            continue
        try:
            with open(path, "rb") as f:
                first = f.read(200).decode("utf-8", "replace")
        except OSError:  # tracked but gone from the work tree: nothing here to push again
            continue
        if run_output_line(first) or (path.suffix.lower() in DATA and (_rows_hold_accounts(path) or
                                                                        _account_header(first))):
            found.append(name)
        elif path.suffix.lower() in OPAQUE:
            # a spreadsheet, an archive or a PDF, anywhere in the repository: its words cannot be read to check (the
            # fourteenth hostile tester: the run's bills renamed october-bills.pdf, an .xlsx and a .zip of the
            # accounts were committed outside docs/ and rules/ and built)
            found.append(name)
    return found


#: the columns of the bill run's own input files, beside an account column (the fourteenth hostile tester: a
#: committed reads file passed; the accounts, payments and register files were refused)
_INPUT_COLUMNS = frozenset({"previous_reading", "current_reading", "usage", "read_date", "rollover", "new_meter",
                            "paid_on", "amount", "quarter"})


def _account_header(first: str) -> bool:
    """A first line that is an account file's header: an account column with one of the run's input columns, or
    two columns that name or place a person or say what one owes (a `name,balance` list: hostile14)."""
    line = first.lstrip("\ufeff").splitlines()[0] if first.strip() else ""
    columns = {_column(c) for c in re.split(r"[,;\t|]", line) if c.strip()}
    account = any(c in ("account", "account_number", "acct", "customer") for c in columns)
    return (account and bool(columns & _INPUT_COLUMNS)) or len(columns & STRONG) >= 2


#: the tracked files read row by row (the eighth hostile tester committed arrears.csv's rows without its
#: first two lines as notes/followup.csv): tables, text and data files, not the project's code or pages
DATA = frozenset({".csv", ".tsv", ".tab", ".psv", ".txt", ".text", ".dat", ".data", ".log", ".list", ".lst",
                  ".out", ".prn", ".ssv", ".bak", ".old", ".orig", ".tmp", ""})


def _rows_hold_accounts(path: Path) -> bool:
    """A tracked table or text file whose rows are account data without a header: a tax-map parcel (not
    the fictional sample's), a register's row, or a row of cells with a person's name or an e-mail, phone
    or account number and a street address or an amount."""
    text = _text(path)
    if text is None:
        return False
    if real_parcels(text):
        return True
    for line in text.splitlines()[:200_000]:
        if len(line) > 2000 or not re.search(r"\d", line):
            continue
        if register_row(line) or account_record(*_cells(line)):
            return True
    return False


def check_repository(root: Path) -> None:
    """Refuse (BuildError) when the repository tracks a file of the bill run's, wherever it is."""
    found = tracked_run_outputs(root)
    if found:
        raise BuildError(f"Not publishing: the repository tracks {', '.join(found)}, the bill run's account files "
                         "or rows of account data (personal data: a tax-map parcel, or a name with a street or an "
                         "amount), and the repository is pushed whole. Take each out of the repository "
                         "(git rm --cached FILE, then commit) and keep it in billing/, which git ignores. A file once "
                         "committed stays in the repository's history after that, and goes with the next push: ask "
                         "whoever manages the repository to remove it from the history before pushing (the fourteenth "
                         "hostile tester). Then build again.")


# ---- the built site, read whole (issue 35, the fourth hostile tester) -------------------------------
# A file the repository tracks is not proof that it was reviewed: a roster pasted into a page's table, a
# fenced accounts.csv, a headerless CSV or a script's list of owners was published once it was committed.
# So the built site itself is read before it is swapped in: every text file, each line, table row and
# record of a script's or JSON's list, cell by cell. A record that places a person (a street address) with
# a name or an amount, or that names a person with an amount, or whose header or keys name an account
# and a person, is account data (a record naming the Town's own hall or office, or with more cells
# than a line of accounts has, is not), whatever the columns are called or whether there
# are any. The only such records the site may hold are the fictional sample's (kit/billrun/sample.py):
# its files pass while they are the bytes the build made, and its invented streets ("Example Lane")
# quoted anywhere else are not taken for a person's address.

#: the built site's files that are not text (nothing the build reads from docs/ as text becomes one)
BINARY = frozenset({".wasm", ".xz", ".whl", ".zip", ".gz", ".png", ".ico", ".jpg", ".jpeg", ".webp", ".gif",
                    ".woff", ".woff2", ".pdf", ".map"})
_STREET_WORDS = (r"st|street|rd|road|ave|avenue|ln|lane|dr|drive|ct|court|pl|place|blvd|boulevard|way|hwy|highway"
                 r"|ter|terrace|cir|circle|pkwy|parkway|tpke|turnpike|trl|trail|sq|square|hollow|hill|row|run|path"
                 r"|ext|extension")
_ADDRESS = re.compile(rf"^\d{{1,6}}[A-Za-z]?\s+(?:[NSEW]\.?\s+)?(?:[A-Za-z][A-Za-z.'’-]*\s+){{0,4}}"
                      rf"(?:(?:{_STREET_WORDS})\.?|(?:route|rte|rt|state route|county route|ny)\s*\d{{1,3}}[A-Za-z]?)"
                      rf"(?:\s*(?:#|apt\.?|unit|suite)\s*\w+)?$", re.IGNORECASE)
#: an amount as a cell: "$1,204.33", "464.85", and (the eighth hostile tester) "300,00 $", "USD 388.10",
#: "1.204,33 €": a currency before or after it, a decimal point or a decimal comma
_MONEY = re.compile(r"^[-(]?(?:\$|US\$|USD|€|EUR)?\s?(?:\d{1,3}(?:,?\d{3})*\.\d{2}|\d{1,3}(?:[.\s]?\d{3})*,\d{2})"
                    r"\)?\s?(?:\$|USD|€|EUR|dollars?|d[oó]lares)?$", re.IGNORECASE)
_UP, _LOW = "A-ZÀ-ÖØ-Þ", "a-zß-öø-ÿ"
_NAME = re.compile(rf"^(?:[{_UP}][{_LOW}'’-]+\.?|[{_UP}]\.)(?:\s+(?:[{_UP}][{_LOW}'’-]+\.?|[{_UP}]\.|de|del|la|van|von|y|&))"
                   rf"{{1,4}}$|^[{_UP}][{_UP}'’-]{{1,20}},?\s+[{_UP}][{_UP}'’-]{{1,20}}(?:\s+[{_UP}]\.?)?$")
#: a name with one of these words is a place or a body of the Town, not a person ("Town Hall, 160 …")
_PLACE = re.compile(r"\b(?:Town|Village|County|State|Hall|Board|Office|Department|Dept|Commission|Clerk|Court|"
                    r"Library|Center|Centre|Church|School|Plant|District|Authority|Police|Fire|Highway|Post)\b")
#: a record of values with more cells than this is not an account's line but a document's object
MAX_CELLS = 16
#: the built site's scripts and JSON, read by their literals too (script_records)
SCRIPTS = frozenset({".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".jsx", ".tsx", ".json", ".webmanifest"})
_RECORD_BREAK = re.compile(r"\}\s*,\s*\{|\]\s*,\s*\[|</tr>|<br\s*/?>|</p>|</li>|</h\d>|\\n|\n", re.IGNORECASE)
_CELL_BREAK = re.compile(r"</t[dh]>|[,;\t|]|<[^>]*>", re.IGNORECASE)
_KEY = re.compile(r"^\s*[\[{(]*\s*[\"']?[\w -]{1,40}[\"']?\s*:\s*(?!//)")


def _cells(record: str) -> tuple[list[str], list[str]]:
    """A record's cells (values) and the keys they were given (a script's, JSON's or YAML's)."""
    cells, keys = [], []
    for cell in _CELL_BREAK.split(record):
        if (key := _KEY.match(cell)):
            keys.append(_column(key.group(0).strip(" \t[{(:\"'")))
        cell = html.unescape(_KEY.sub("", cell)).strip().strip("[]{}()\"'`“”").strip()
        if cell:
            cells.append(cell)
    return cells, keys


#: the fictional sample's streets (kit/billrun/sample.py): a record on one of them is not a resident's
STREETS = ("Example Lane", "Sample Road", "Fictional Way", "Invented Hill Road", "Placeholder Street",
           "Demo Hollow", "Nowhere Court", "Testing Circle")
#: the tax-map block of the sample's parcels: no real parcel is in it, so the guard publishes these
#: parcels and refuses every other
PARCEL_BLOCK = "9999"


def fictional_street(cell: str) -> bool:
    return any(cell.lower().endswith(street.lower()) for street in STREETS)


def account_record(cells: list[str], keys: list[str] = ()) -> bool:
    """A record that holds account data: a header or keys naming an account and a person, a name or an
    amount, or values that place or bill a person: a street address with a person's name or an amount,
    or a person's name with an amount. (An address with a date or a number is a notice's meeting place,
    a name with a number a resolution's mover: not enough.)"""
    if _looks_like_accounts([_column(c) for c in cells]) or _looks_like_accounts(list(keys)):
        return True
    if len(cells) > MAX_CELLS or any(_PLACE.search(c) and not _ADDRESS.match(c) for c in cells):  # a document's whole object, or
        return False  # the Town's own place or office ("Pawling Town Hall", "160 Charles Colman Blvd")
    address = [c for c in cells if _ADDRESS.match(c)]
    if address and all(fictional_street(c) for c in address):
        return False
    names = any(_NAME.match(c) or _IDENT.match(c) for c in cells)
    money = any(_MONEY.match(c) for c in cells)
    if address:
        return names or money
    return names and money


#: a record over several lines: a YAML list's item, a pretty-printed JSON or script object, a paragraph
_BLOCK_BREAK = re.compile(r"\}\s*,?\s*\{|\]\s*,\s*\[|\n\s*-\s|\n\s*\n")


# ---- free text (the fifth hostile tester) -------------------------------------------------------------
# A billing export is not always cells: "WHITFIELD DANA 22 ROUTE 22 1204.33", "Ortega, Luis: 388.10",
# "Whitfield — twenty-two Route 22 — $1,204.33", a name, a street and an amount as three paragraphs or a
# table's row over several lines, in an HTML comment or spelled in entities (&#68;ana). So a record's
# text is also read as words: a person's street address (its number in figures or words) with an amount,
# in the record or in the records beside it, or a record that is only a person's name and an amount.
_NUMBER_WORDS = (r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen"
                 r"|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety"
                 r"|hundred)")
_ADDRESS_IN = re.compile(rf"(?<![\w$.,])(?:\d{{1,6}}[A-Za-z]?|{_NUMBER_WORDS}(?:[\s-]+{_NUMBER_WORDS})*)\s+"
                         rf"(?:[NSEW]\.?\s+)?(?:[A-Za-z][A-Za-z.'’-]*\s+){{0,3}}"
                         rf"(?:(?:{_STREET_WORDS})\b\.?|(?:route|rte|rt|state route|county route)\.?\s*\d{{1,3}}\b)",
                         re.IGNORECASE)
_MONEY_IN = re.compile(r"(?<![\w.,/-])\$?\s?\d{1,3}(?:,\d{3})*(?:\d{3})*\.\d{2}(?![\w.]|,\d)")
_SEP = r"\s*[:=\-–—]*\s*"
_WORD, _CAPS = rf"[{_UP}][{_LOW}'’-]+", rf"[{_UP}][{_UP}'’-]+"
#: a record that is only a person's name and an amount: "Ortega, Luis: 388.10", "Dana Whitfield $1,204.33",
#: "WHITFIELD DANA 1204.33", "Whitfield — $96.00"
_NAME_AMOUNT = re.compile(rf"^(?:{_WORD},\s*{_WORD}|{_WORD}(?:\s+(?:[{_UP}]\.|{_WORD})){{0,3}}|{_CAPS},?\s+{_CAPS})"
                          rf"{_SEP}(?:owes?|owed|due|balance)?{_SEP}\$?\s?\d[\d,]*\.\d{{2}}$")
# ---- who owes what, however it is written (the eighth hostile tester) -----------------------------------
# "Jose Nunez Ortiz: 300,00 $", "Maria Gonzalez: USD 388.10", "tcobble@example.com: 464.85", "(845) 555-0142:
# 381.92" and "S10021 — 464.85" were published: an amount may carry its currency after it or as USD, or a
# decimal comma, and an e-mail address, a phone number or an account number identifies a customer as a
# name does. Names on one line and their amounts on the next ("T. Cobble / I. Birchwood" then "Balances,
# same order: 464.85; 501.71") are the same list.
_AMOUNT = (r"(?:(?:\$|US\$|USD|€|EUR)\s?)?(?:\d{1,3}(?:,\d{3})+|\d+)\.\d{2}(?!\d)(?:\s?(?:\$|USD|€|EUR|dollars?|d[oó]lares)(?!\w))?"
           r"|(?:(?:\$|US\$|USD|€|EUR)\s?)?(?:\d{1,3}(?:\.\d{3})+|\d+),\d{2}(?![\d,])(?:\s?(?:\$|USD|€|EUR|dollars?|d[oó]lares)(?!\w))?")
#: an e-mail address, a phone number, or an account number as the bill run's are written (S10021, A-1001)
_EMAIL = r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
_PHONE = r"(?:\+?1[\s.-]?)?(?:\(\d{3}\)\s?|\d{3}[\s.-])\d{3}[\s.-]\d{4}"
_ACCOUNT_ID = r"[A-Z]{1,3}-?\d{3,7}"
_IDENT = re.compile(rf"^(?:{_EMAIL}|{_PHONE}|{_ACCOUNT_ID})$")
_OWES = r"(?:owes?|owed|owing|due|balance|debe|adeuda|saldo)"
_IDENT_AMOUNT = re.compile(rf"(?<![\w@.-])(?:{_EMAIL}|{_PHONE}|{_ACCOUNT_ID}){_SEP}(?:{_OWES}{_SEP})?(?:{_AMOUNT})(?![\w.,])"
                           rf"|(?<![\w.,/:-])(?:{_AMOUNT}){_SEP}(?:{_OWES}|from|for|by|de)?{_SEP}(?:{_EMAIL}|{_PHONE}|{_ACCOUNT_ID})(?![\w@-])")
_PERSON = rf"(?:{_WORD},\s*{_WORD}|(?:[{_UP}]\.\s?|{_WORD})(?:\s+(?:[{_UP}]\.|{_WORD}|de|del|la|y)){{0,4}}|{_CAPS},?\s+{_CAPS})"
_NAME_ANY_AMOUNT = re.compile(rf"^(?:[-*•]\s*)?{_PERSON}{_SEP}(?:{_OWES}{_SEP})?(?:{_AMOUNT})$")
#: a line that is only people, e-mail addresses, phones or account numbers ("T. Cobble / I. Birchwood")
_WHO_LIST = re.compile(rf"^(?:(?:{_PERSON}|{_EMAIL}|{_PHONE}|{_ACCOUNT_ID})\s*(?:[/;,&]|\band\b|…|\.\.\.)?\s*)+$")
#: a line of amounts, with at most a short label ("Balances, same order: 464.85; 501.71")
_AMOUNT_LIST = re.compile(rf"^(?:[^\d]{{0,40}}[:=\-–—]\s*)?(?:{_AMOUNT})(?:\s*[;,/|]?\s*(?:and\s+)?(?:{_AMOUNT}))*\s*\.?$")


def _who_with_amount(text: str) -> bool:
    """A short record that ties an e-mail address, a phone number or an account number to an amount beside
    it, or that is only a person's name and an amount however the amount is written."""
    if _PLACE.search(text):
        return False
    if _IDENT_AMOUNT.search(text):
        return True
    match = _NAME_ANY_AMOUNT.match(text)
    return bool(match) and not all(w.rstrip(".,") in _NOT_NAMES for w in re.findall(rf"{_WORD}", text))


def _who_then_amounts(first: str, second: str) -> bool:
    """Names (or e-mail addresses, phones, account numbers) on one line and their amounts on the next."""
    if _PLACE.search(first) or not _WHO_LIST.match(first) or not _AMOUNT_LIST.match(second):
        return False
    people = [w for w in re.findall(rf"{_WORD}|[{_UP}]\.", first) if w.rstrip(".") not in _NOT_NAMES]
    return bool(re.search(rf"{_EMAIL}|{_PHONE}|{_ACCOUNT_ID}", first)) or len(people) >= 2


#: how many records side by side are read together (a name, a street and an amount as three paragraphs)
WINDOW = 3
#: a record longer than this is prose, not an account's line: not read as free text
FREE_TEXT_CHARS = 160


def _plain(record: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]*>", " ", record)).strip()


def _entities(text: str) -> str:
    """Character references decoded (&#68;ana is Dana), but for those of < and > (markup stays markup)."""
    def one(match):
        char = html.unescape(match.group(0))
        return match.group(0) if char in "<>" else char
    return re.sub(r"&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});?", one, text)


@functools.lru_cache(maxsize=1 << 16)  # the nav, header and footer lines of ~180 pages are the same words
def _words_hold_accounts(text: str) -> bool:
    """Free text holding a person's street address with an amount (not the Town's own place, not the
    fictional sample's streets), or that is only a person's name with an amount; or a person's name with
    an amount written in words ("Maria Gonzalez … owes four hundred sixty-four dollars")."""
    if _AMOUNT_IN_WORDS.search(text) and _person_named(text):
        return True
    if _PLACE.search(text):
        return False
    if _NAME_AMOUNT.match(text) and not _PLACE.search(text):
        return True
    if _who_with_amount(text):
        return True
    if not _MONEY_IN.search(text):
        return False
    return any(not fictional_street(m.group(0)) for m in _ADDRESS_IN.finditer(text))


#: a person's name written last name first ("Ortega, Luis", "WHITFIELD, DANA")
_LAST_FIRST = re.compile(rf"\b({_WORD}|{_CAPS}),\s*({_WORD}|{_CAPS})\b")


def name_beside_address(text: str) -> bool:
    """A short line naming a person beside a street address, with no amount ("Whitfield, Dana — 22 Rte. 22",
    "John Whitfield of 12 Main Street": the eleventh hostile tester, F2): the line's words outside the
    address name a person (two capitalised words that are not a place, a law or a month, or a name written
    last name first). Not the Town's own place, not the sample's streets; one line only (a page's address
    paragraph and a name two paragraphs down are not one record)."""
    if _PLACE.search(text):
        return False
    addresses = [m for m in _ADDRESS_IN.finditer(text) if not fictional_street(m.group(0))]
    if not addresses:
        return False
    rest = text
    for match in reversed(addresses):
        rest = rest[:match.start()] + " — " + rest[match.end():]
    if _person_named(rest):
        return True
    return any(not {m.group(1).title(), m.group(2).title()} & _NOT_NAMES and not _PLACE.search(m.group(0).title())
               for m in _LAST_FIRST.finditer(rest))


# ---- parcels, amounts in words, scripts' literals (the seventh hostile tester) -----------------------
# "call Maria Gonzalez about parcel 7158-00-123456; she still owes four hundred sixty-four dollars" and
# `const owed = {"A-2231": ["Maria Gonzalez", "464.85"]};` were published: a tax-map parcel is one of the
# accounts file's personal columns, an amount may be written in words, and a script's record is its
# literals, not its lines.

#: a tax-map parcel as the accounts file writes it (NNNN-NN-NNNNNN, with or without a six-digit town code
#: before it): account data wherever it is published, but for the fictional sample's block
#: (sample.PARCEL_BLOCK, 9999-…), which no real parcel uses
_PARCEL = re.compile(r"(?<![\w-])(?:\d{6}-)?(\d{4})-\d{2}-\d{6}(?:-\d{4})?(?![\w-])")
#: a parcel as section, block and lot after its name ("SBL 7158.00-12-3456", "tax map 7158.00-1-12": the twelfth
#: hostile tester, F9, with the County's grid form 135889-7158-00-123456-0000 above)
_SBL = re.compile(r"(?i:\b(?:SBL|S-B-L|S/B/L|tax\s+map(?:\s+(?:no\.?|number|#))?|parcel(?:\s+(?:no\.?|number|id|#))?|parcela|lote)"
                  r")\W{0,5}(\d{1,4})(?:\.\d{1,2})?-\d{1,2}-\d{1,4}(?:\.\d{1,3})?(?![\w-])")
_AMOUNT_IN_WORDS = re.compile(rf"\b{_NUMBER_WORDS}(?:[\s-]+(?:and[\s-]+)?(?:{_NUMBER_WORDS}|thousand))*\s+dollars?\b",
                              re.IGNORECASE)
#: capitalised words that start a sentence or name a thing, not a person ("The Board should call …")
_NOT_NAMES = frozenset("""The A An This That These Those If When Then Please Call Ask Tell Send Mail Note Notes
    Dear And Or But So She He They We You It Our Your Their His Her Its Local Law Laws Section Chapter Code
    Article General Municipal Real Property Tax New York United States Pawling Dutchess Sewer Water January
    February March April May June July August September October November December Monday Tuesday Wednesday
    Thursday Friday Saturday Sunday""".split())
_CAPITALISED_RUN = re.compile(rf"\b{_WORD}(?:\s+(?:[{_UP}]\.|{_WORD}))+")


#: a person said to owe an amount, in a sentence of prose of any length ("Peter Alvarez owes $464.00.", "These
#: residents still owe: … Karen Smith owes $1,204.33; …", "Luis Ortega debe 388,10 $": the eleventh hostile
#: tester, F1 and F3, published as a page's paragraph)
_OWES_IN_PROSE = re.compile(rf"({_PERSON})\s+(?:still\s+|aún\s+|todavía\s+)?(?:owes?|owed|owing|debe|deben|adeuda)"
                            rf"\s+(?:the\s+Town\s+|al\s+Pueblo\s+)?(?:{_AMOUNT})")


#: an account named by the word and its number, with an amount beside it ("Account 10442: $388.10 overdue",
#: "cuenta n.º 10442 debe 388,10 $": the eleventh hostile tester, F4)
_ACCOUNT_NUMBER_AMOUNT = re.compile(
    rf"\b(?:account|acct\.?|cuenta)\s*(?:no\.?|number|n[uú]m(?:ero)?\.?|n\.?\s?º|#)?\s*[:#]?\s*[A-Z]{{0,3}}-?\d{{3,9}}\b"
    rf"{_SEP}(?:{_OWES}{_SEP}|is\s+|was\s+)?(?:{_AMOUNT})", re.IGNORECASE)


def _owes_in_prose(text: str) -> bool:
    """Whether prose names a person (two capitalised words or more, not a place, a law or a month) owing an
    amount written as figures, or ties an account's number to an amount."""
    return bool(_ACCOUNT_NUMBER_AMOUNT.search(text)) or any(
        _person_named(m.group(1)) for m in _OWES_IN_PROSE.finditer(text))


def _person_named(text: str) -> bool:
    """Whether free text names a person: two or more capitalised words in a row that are not a place or a
    body of the Town, a law, a month or the words that start a sentence (nor the fictional sample's
    "Avery Alder (fictional)")."""
    for run in _CAPITALISED_RUN.finditer(text):
        if text[run.end():].lstrip().startswith("(fictional)"):
            continue
        words = [w for w in run.group(0).split() if w.rstrip(".") not in _NOT_NAMES]
        if len(words) >= 2 and not _PLACE.search(" ".join(words)):
            return True
    return False


# ---- Spanish addresses, a name and a balance in one sentence, residents' contacts (the twelfth hostile
# tester, F5 and F10): «La señora María González, con domicilio en la calle Roble número 14, adeuda 464,20
# dólares», "Our longtime neighbor Maria Gonzalez, who taught … on Route 22 …, has a sewer balance of $464.20",
# and a page of residents' e-mail addresses and phones were published.

#: a street address as Spanish writes it: «calle Roble número 14», «calle Mayor 3», «avenida del Parque n.º 12»
_ADDRESS_ES = re.compile(rf"(?i:\b(?:calle|avenida|av\.|camino|carretera|ruta|paseo|callej[oó]n|pasaje|plaza))\s+"
                         rf"(?:(?:de|del|la|las|los|el)\s+)?(?:[{_UP}][{_LOW}'’-]+\s+){{1,3}}"
                         rf"(?:(?i:n[uú]mero|n[uú]m\.?|n\.?\s?º|no\.?|\#)\s*)?\d{{1,5}}\b")
_SPANISH_NUMBER_WORDS = (r"(?:un|uno|una|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|once|doce|trece|catorce"
                         r"|quince|dieci\w+|veinte|veinti\w+|treinta|cuarenta|cincuenta|sesenta|setenta|ochenta"
                         r"|noventa|cien|ciento|doscientos|trescientos|cuatrocientos|quinientos|seiscientos"
                         r"|setecientos|ochocientos|novecientos|mil)")
_AMOUNT_IN_SPANISH_WORDS = re.compile(rf"(?i:\b{_SPANISH_NUMBER_WORDS}(?:\s+(?:y\s+)?{_SPANISH_NUMBER_WORDS})*"
                                      rf"\s+d[oó]lares\b)")
#: words that say someone owes: with a person named and an amount in one sentence
_BALANCE_WORDS = re.compile(r"(?i:\b(?:owes?|owed|owing|balance|unpaid|arrears|past[\s-]due|overdue|delinquent"
                            r"|adeuda|debe|deben|saldo|atrasad[oa]s?|pendiente)\b)")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[¿¡«“\"(]?[{0}])|\n\s*\n".format(_UP))
_CONTACT = re.compile(rf"{_EMAIL}|(?<!\d){_PHONE}(?!\d)")
#: a whole-dollar amount, with its sign or its word ("$388", "$1,204", "388 dollars", "388 dólares": the fourteenth
#: hostile tester), read only in a sentence that names a person and says they owe
_WHOLE_DOLLARS = re.compile(r"(?:(?:\$|US\$|USD)\s?\d{1,3}(?:,\d{3})+|(?:\$|US\$|USD)\s?\d+)(?![\d.,]*\d)"
                            r"|\b\d{1,3}(?:[,.]\d{3})*\s?(?:dollars?|d[oó]lares|USD)\b", re.IGNORECASE)


def _more_forms(line: str) -> bool:
    """A line of words (or a sentence of prose) that holds account data in a form the rules above miss: a
    person named beside a Spanish street address; a person named with a balance word and an amount (in
    figures, or in English or Spanish words) anywhere in one sentence; a resident's e-mail address or phone
    with a name or with another one. Not the Town's own places and offices (_PLACE)."""
    if _PLACE.search(line):
        return False
    if _ADDRESS_ES.search(line) and _person_named(_ADDRESS_ES.sub(" — ", line)):
        return True
    for sentence in _SENTENCE_END.split(line):
        if len(sentence) > 600 or not _BALANCE_WORDS.search(sentence):
            continue
        if (re.search(_AMOUNT, sentence) or _WHOLE_DOLLARS.search(sentence) or _AMOUNT_IN_WORDS.search(sentence)
                or _AMOUNT_IN_SPANISH_WORDS.search(sentence)) \
                and _person_named(_BALANCE_WORDS.sub(" ", sentence)):
            return True
    contacts = _CONTACT.findall(line)
    return bool(contacts) and (len(contacts) >= 2 or _person_named(_CONTACT.sub(" ", line)))


def real_parcels(text: str) -> list[str]:
    """The tax-map parcels in a text, but the fictional sample's."""
    patterns = (_PARCEL, _SBL) if _SBL_WORD.search(text) else (_PARCEL,)  # (the SBL form only after its word)
    return [m.group(0) for pattern in patterns for m in pattern.finditer(text) if m.group(1) != PARCEL_BLOCK]


_SBL_WORD = re.compile(r"(?i:sbl|s-b-l|s/b/l|tax\s+map|parcel|lote)")


#: a script's (or JSON's) literals: a string ("…", '…', `…` without ${}), and whether it is a key; a
#: number; a bracket; a bare key (`owner:`)
_LITERAL = re.compile(r"""(?:"((?:[^"\\\n]|\\.){0,2000})"|'((?:[^'\\\n]|\\.){0,2000})'|`((?:[^`\\$]|\\.){0,2000})`)(\s*:(?!:))?"""
                      r"""|(?<![\w.$])(-?\d+(?:\.\d+)?)(?![\w.])|([\[\]{}])|\b([A-Za-z_$][\w$]{0,39})\s*:(?![:/])""")
_SCRIPT = re.compile(r"<script\b[^>]*>(.*?)</script>", re.IGNORECASE | re.DOTALL)


def _unescaped(literal: str) -> str:
    literal = re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)), literal)
    return re.sub(r"\\(.)", r"\1", literal)


def script_records(text: str) -> tuple[list[tuple[list[str], list[str]]], list[str]]:
    """A script's records read as JSON's are: each array's or object's own literals its cells (a string
    used as a key is a cell too: `{"Maria Gonzalez": "464.85"}`), its keys its keys; and its strings, each
    read as free text ("Ortega, Luis: 388.10")."""
    records, strings, stack = [], [], [([], [])]
    for m in _LITERAL.finditer(text):
        double, single, template, is_key, number, bracket, bare_key = m.groups()
        if bracket in ("[", "{"):
            if len(stack) < 200:
                stack.append(([], []))
        elif bracket:
            if len(stack) > 1:
                cells, keys = stack.pop()
                if cells and len(cells) <= MAX_CELLS * 2:
                    records.append((cells, keys))
        elif bare_key:
            stack[-1][1].append(_column(bare_key))
        elif number is not None:
            stack[-1][0].append(number)
        else:
            value = _unescaped(next(v for v in (double, single, template) if v is not None)).strip()
            if is_key:
                stack[-1][1].append(_column(value))
            if value:
                stack[-1][0].append(value)
                strings.append(value)
    return records, strings


def _script_account_records(text: str) -> list[str]:
    found = []
    records, strings = script_records(text)
    for cells, keys in records:
        if account_record(cells, keys):
            found.append(", ".join(cells)[:80])
    for string in strings:
        if len(string) <= FREE_TEXT_CHARS and (re.search(r"\d", string) or _AMOUNT_IN_WORDS.search(string)) and \
                (_words_hold_accounts(_plain(string)) or account_record(*_cells(string))):
            found.append(_plain(string)[:80])
    return found


# ---- attribute values (the ninth hostile tester) -----------------------------------------------------
# `<span title="Whitfield D., 14 Maple Ave., owes 1204.33" data-x="acct S10044">` was published: a tag's
# words are published too (shown on hover, read aloud by screen readers, kept in the page's source). So the
# values of the attributes that hold words are read as the page's own lines, each on a line after its tag.
_TAG = re.compile(r"<[A-Za-z][\w:-]*\s[^<>]*>")
_WORDS_ATTRIBUTE = re.compile(r"""\s(?:title|alt|aria-label|aria-description|aria-roledescription|placeholder"""
                              r"""|label|summary|value|content|data-[\w.:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'<>=`]+))""",
                              re.IGNORECASE)


#: a link's address: its query's words are read too ("?name=Maria%20Gonzalez&amount=464.20": hostile12, F4)
_LINK_ATTRIBUTE = re.compile(r"""\s(?:href|src|action|formaction|cite|poster)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'<>=`]+))""",
                             re.IGNORECASE)


def _query_words(address: str) -> str:
    """A link's query as words: "name=Maria Gonzalez, addr=14 Oak Street, amount=464.20"; "" with no query."""
    if "?" not in address:
        return ""
    query = address.split("?", 1)[1].split("#", 1)[0]
    return ", ".join(urllib.parse.unquote_plus(pair) for pair in re.split(r"&(?:amp;)?|;", query) if pair)


def _attribute_words(match: re.Match) -> str:
    """A tag followed by its word-holding attributes' values (character references decoded), one a line."""
    tag = match.group(0)
    values = [html.unescape(next(v for v in m.groups() if v is not None)) for m in _WORDS_ATTRIBUTE.finditer(tag)]
    values += [_query_words(html.unescape(next(v for v in m.groups() if v is not None)))
               for m in _LINK_ATTRIBUTE.finditer(tag)]
    values = [re.sub(r"\s+", " ", value.replace("<", " ").replace(">", " ")).strip() for value in values]
    values = [value for value in values if value]
    return tag + "".join(f"\n{value}\n" for value in values) if values else tag


def _readable(text: str, page: bool) -> str:
    """The text as records are read from it: entities decoded; in a page, comments' words read as lines,
    a table row's cells over several lines joined into one line, and the words in a tag's attributes
    (title, alt, aria-label, data-*, a <meta>'s content …) read as lines after the tag."""
    if page:
        text = _TAG.sub(_attribute_words, text)
    text = _entities(text)
    if page:
        text = re.sub(r"<!--|-->", "\n", text)
        text = re.sub(r"<tr\b.*?</tr>", lambda m: m.group(0).replace("\n", " "), text, flags=re.S | re.I)
    return text


@functools.lru_cache(maxsize=1 << 16)  # a page's records repeat on every page (nav, footer)
def _record_holds_accounts(record: str) -> bool:
    return bool(register_row(record) or account_record(*_cells(record)))


_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad\u180e"))


def seen_as_shown(text: str) -> str:
    """Text as a reader sees it: zero-width characters and soft hyphens dropped, compatibility forms (full-width
    Ｄａｎａ, ２２) as their plain letters and digits. Only when the text has any (most pages have none)."""
    import unicodedata
    if text.isascii():
        return text
    text = text.translate(_INVISIBLE)
    if _FULL_WIDTH.search(text):  # (a search, not a loop over every character: the site's check runs in every build)
        text = _FULL_WIDTH.sub(lambda m: unicodedata.normalize("NFKC", m.group(0)), text)
    return text


_FULL_WIDTH = re.compile("[\uff00-\uffef]")


def account_records(text: str, blocks: bool = False, script: bool = False) -> list[str]:
    """The records of a text that hold account data (at most three, to name). `blocks` (a data file or
    script, not a page): a record may also span lines (an object or list item), its lines its cells.
    A record is also read as words, alone and with the records beside it (free text, above). A tax-map
    parcel is account data anywhere; a script's (`script`, or a page's <script>) records are also read
    by its literals (script_records). The text is read as a person sees it: full-width letters and digits as
    plain ones, and zero-width characters dropped (the twelfth hostile tester hid a name, a street and an
    amount from the guard with zero-width spaces and full-width letters)."""
    text = seen_as_shown(text)
    if "%" in text:  # a link's query as its words ("?name=Maria%20Gonzalez&amount=464.20": hostile12, F4)
        text = re.sub(r"(?:%[0-9A-Fa-f]{2})+", lambda m: urllib.parse.unquote(m.group(0)), text)
    found = [f"parcel {parcel}" for parcel in real_parcels(text)[:3]]
    if found:
        return found
    scripts = [text] if script else [m.group(1) for m in _SCRIPT.finditer(text)] if not blocks else []
    for code in scripts:
        found += _script_account_records(code)
        if len(found) >= 3:
            return found[:3]
    text = _readable(text, page=not blocks)
    records = _RECORD_BREAK.split(text)
    if blocks:
        records += [block.replace("\n", "\t") for block in _BLOCK_BREAK.split(text) if "\n" in block.strip()]
    for record in records:
        if len(record) > 2000 or not re.search(r"\d", record):
            continue
        if _record_holds_accounts(record) or _owes_in_prose(_plain(record)) or _more_forms(_plain(record)):
            found.append(_plain(record)[:80])
            if len(found) == 3:
                return found
    lines = [line for record in _RECORD_BREAK.split(text) if (line := _plain(record))]
    for i in range(len(lines)):
        for width in range(1, WINDOW + 1):
            window = lines[i:i + width]
            if len(window) < width or any(len(line) > FREE_TEXT_CHARS for line in window):
                break
            if width == 2 and _who_then_amounts(*window):
                found.append(" / ".join(window)[:80])
                break
            words = " ".join(window)
            if width == 1 and re.search(r"\d", words) and name_beside_address(words):
                found.append(words[:80])
                break
            if (re.search(r"\d", words) or _AMOUNT_IN_WORDS.search(words)) and _words_hold_accounts(words):
                found.append(" / ".join(window)[:80])
                break
        if len(found) == 3:
            break
    return found


#: a run of base64 (or its URL-safe form) long enough to hide a line of accounts (40 characters: 30 bytes)
_BASE64 = re.compile(r"(?<![A-Za-z0-9+/_=-])[A-Za-z0-9+/_-]{40,}={0,2}(?![A-Za-z0-9+/_=-])")


#: a run of hexadecimal digits long enough to hide a line of accounts (the twelfth hostile tester, F4)
_HEX = re.compile(r"(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{2}){30,}(?![0-9A-Fa-f])")


def _gunzipped(data: bytes) -> bytes:
    """gzip-compressed bytes decompressed (at most MAX_BYTES of them); other bytes as they are (hostile12, F4:
    the levy list gzip-compressed, then base64-encoded, in a script)."""
    if not data.startswith(b"\x1f\x8b"):
        return data
    try:
        return zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(data, MAX_BYTES)
    except zlib.error:
        return data


def encoded_texts(text: str, depth: int = 2) -> list[str]:
    """The texts hidden in a file's base64 or hexadecimal runs (the eleventh hostile tester, F6: account lines
    base64-encoded in a tracked script were published; the twelfth, F4: gzip-compressed first, or hex), decoded
    twice over at most; a run that decodes to bytes that are not UTF-8 text (a font, a picture, a digest) is not
    text and is left alone."""
    found = []
    runs = [(m.group(0), "base64") for m in _BASE64.finditer(text)] + [(m.group(0), "hex") for m in _HEX.finditer(text)]
    for blob, kind in runs:
        try:
            if kind == "hex":
                data = bytes.fromhex(blob)
            else:
                blob = blob.rstrip("=").replace("-", "+").replace("_", "/")
                data = base64.b64decode(blob + "=" * (-len(blob) % 4), validate=True)
            decoded = _gunzipped(data).decode("utf-8")
        except (binascii.Error, ValueError):
            continue
        if sum(ch.isprintable() or ch in "\n\r\t" for ch in decoded) < 0.95 * len(decoded):
            continue
        found.append(decoded)
        if depth > 1:
            found += encoded_texts(decoded, depth - 1)
    return found


def check_site(site: Path, generated: dict[str, bytes] | None = None, copied: dict[str, Path] | None = None) -> None:
    """Refuse (BuildError) when a text file of the built site holds a record of account data (above).
    `generated`: the build's own fictional sample, by its path in the site and its bytes (skipped only while
    it is those bytes); `copied`: files the build copied from a package (Pyodide), skipped only while they
    are that file's bytes."""
    generated, copied = generated or {}, copied or {}
    found = []
    for path in sorted(Path(site).rglob("*")):
        rel = path.relative_to(site).as_posix()
        if not path.is_file() or path.suffix.lower() in BINARY:
            continue
        if rel in generated and path.read_bytes() == generated[rel]:
            continue
        if rel in copied and path.stat().st_size == copied[rel].stat().st_size \
                and path.read_bytes() == copied[rel].read_bytes():
            continue
        text = _text(path)
        if text is None:
            found.append((rel, ["too large to check"]))
            continue
        records = account_records(text, blocks=path.suffix.lower() not in (".html", ".htm", ".xml"),
                                  script=path.suffix.lower() in SCRIPTS)
        for decoded in ([] if records else encoded_texts(text)):
            records = [f"base64: {record}" for record in account_records(decoded, blocks=True, script=True)]
            if records:
                break
        if records:
            found.append((rel, records))
    if found:
        lines = "\n".join(f"  {rel}: " + " / ".join(repr(r) for r in records) for rel, records in found[:10])
        raise BuildError("Not publishing: the built site holds what looks like account data (personal data): "
                         "an account column with a person's name, address or amount, a street address with a "
                         f"name or an amount, a name with an amount (in figures or words), or a tax-map parcel:\n{lines}\nTake it out of the page or file under docs/ it comes from "
                         "(account lists belong in billing/, which is kept out of the repository), then build again.")


# ---- the repository's own text, comments and all (the twelfth hostile tester, F3) --------------------
# A list of liens pasted into rules/holidays.yaml as a comment, rules/liens-2025.yaml as data, a Jinja
# comment in a page's template and a comment in pyproject.toml were built and pushed: none reaches site/,
# but the repository is pushed whole. So the project's sources are read whole too, comments included, as
# the built site is read. Not read: the project's code (its comments and tests name the very forms this
# guard looks for), the tests, the translation catalogues (what they translate is read in the built site)
# and files that are not text. The guard is for account data put in the wrong place by mistake; what a
# committer disguises on purpose (compressed, enciphered) is for the review of each change to find.

#: the tracked files the source check leaves to the code review: code, tests, catalogues
NOT_SOURCES = frozenset({".py", ".pyi", ".js", ".mjs", ".cjs", ".ts", ".r", ".sh", ".po", ".pot", ".lock"})
#: the README names the account files' columns, as the guide to them (it is reviewed as the code is)
NOT_READ = frozenset({"README.md"})
#: pages and templates: read as pages (a comment's words are read as lines), not as data blocks
PAGE_SOURCES = frozenset({".md", ".j2", ".html", ".htm", ".jinja", ".txt"})


def source_files(root: Path) -> list[Path]:
    """The repository's text sources: the files git tracks, and those it would add (not ignored), but for
    tests/, node_modules/, code, catalogues and files that are not text. [] outside a git work tree."""
    try:
        out = subprocess.run(["git", "-C", str(root), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                             capture_output=True, check=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return []
    found = []
    for name in sorted(set(n for n in out.stdout.decode("utf-8", "replace").split("\0") if n)):
        path = Path(root) / name
        suffix = path.suffix.lower()
        if (name.startswith(("tests/", "node_modules/", "site/", ".cache/", "billing/")) or name in NOT_READ
                or suffix in NOT_SOURCES
                or suffix in BINARY or suffix in OPAQUE or suffix in IMAGES or not path.is_file()):
            continue
        found.append(path)
    return found


def source_records(root: Path) -> list[tuple[str, int, list[str]]]:
    """(file, line, records) for each source of the repository (source_files) holding account data."""
    found = []
    for path in source_files(root):
        text = _text(path)
        if text is None:
            continue
        blocks = path.suffix.lower() not in PAGE_SOURCES
        records = account_records(text, blocks=blocks)
        for decoded in ([] if records else encoded_texts(text)):  # base64 or hex in a comment too (hostile14)
            records = [f"base64: {record}" for record in account_records(decoded, blocks=True, script=True)]
            if records:
                break
        if records:
            found.append((path.relative_to(root).as_posix(), _line_of_first(text, blocks), records))
    return found


def _line_of_first(text: str, blocks: bool) -> int:
    """The line where the first record of account data ends: the fewest first lines that hold one (a record
    may span lines; more lines never hold fewer records), found by halves."""
    lines = text.splitlines()
    low, high = 1, len(lines)
    while low < high:
        middle = (low + high) // 2
        if account_records("\n".join(lines[:middle]), blocks=blocks):
            high = middle
        else:
            low = middle + 1
    return low


def source_problems(root: Path) -> list[str]:
    """The sources holding account data, as `validate` lists problems (file:line: what to change)."""
    return [f"{rel}:{line}: looks like account data (personal data): {' / '.join(repr(r) for r in records)}. "
            "The repository is pushed whole, comments included: take it out of the file (account lists belong "
            "in billing/, which git ignores); if it was committed and pushed, ask whoever manages the repository "
            "to remove it from the history too."
            for rel, line, records in source_records(root)]


def check_sources(root: Path) -> None:
    """Refuse (BuildError) when a source of the repository holds account data (source_records)."""
    problems = source_problems(root)
    if problems:
        raise BuildError("Not publishing:\n" + "\n".join(f"  {p}" for p in problems[:10]))
