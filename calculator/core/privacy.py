"""Account data in a text, found by its shape: the bill run's columns and rows, a person's name or street
address with an amount, an account's number with a balance, a tax-map parcel, who has not paid, in English or
Spanish, in cells, prose, a script's literals or base64 (each rule names the hostile tester who found the form).
The site build's guard (kit/privacy.py) reads files with it; the Clerk's steps read what they would write with it,
on the command line and on the desk in the browser alike, so a note naming a resident and a debt is refused before
it is written (the fifteenth hostile tester, P4). Standard library only: it runs in Pyodide as the engine does."""
from __future__ import annotations

import base64
import binascii
import functools
import html
import re
import urllib.parse
import zlib
#: a header with an account column and any of these is an account file
PERSONAL = frozenset({"mailing_name", "mailing_address", "service_address", "parcel", "amount", "paid_on",
                      "previous_reading", "current_reading", "usage", "charge", "name", "address", "owner",
                      "unpaid_charge", "unpaid_total", "penalties", "total", "balance"})
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
                    r"Library|Center|Centre|Church|School|Plant|District|Authority|Police|Fire|Highway|Post"
                    # and in Spanish (the twenty-seventh hostile tester: «El Ayuntamiento está en 160 Charles Colman
                    # Boulevard» and «Salón del Ayuntamiento, …» were refused as a resident's address)
                    r"|Ayuntamiento|Pueblo|Secretaría|Sal[oó]n|Oficina|Junta|Condado|Estado|Biblioteca|Escuela"
                    r"|Iglesia|Planta|Distrito|Departamento|Tribunal|Municipio|Comisi[oó]n|Autoridad|Polic[ií]a"
                    r"|Bomberos|Correos?)\b")
#: a record of values with more cells than this is not an account's line but a document's object
MAX_CELLS = 16
_RECORD_BREAK = re.compile(r"\}\s*,\s*\{|\]\s*,\s*\[|</tr>|<br\s*/?>|</p>|</li>|</h\d>|\\n|\n", re.IGNORECASE)
_CELL_BREAK = re.compile(r"</t[dh]>|[,;\t|]|<[^>]*>", re.IGNORECASE)
_KEY = re.compile(r"^\s*[\[{(]*\s*[\"']?[\w -]{1,40}[\"']?\s*:\s*(?!//)")


_DECIMAL_COMMA = re.compile(r"(?<=\d),(?=\d{2}(?!\d))")


def _cells(record: str) -> tuple[list[str], list[str]]:
    """A record's cells (values) and the keys they were given (a script's, JSON's or YAML's)."""
    cells, keys = [], []
    if re.search(r"[;\t|]", record):  # then a comma between digits is a decimal comma ("Dana Whitfield;1204,33":
        record = _DECIMAL_COMMA.sub("\x00", record)  # the fifteenth hostile tester, P3), not a separator
    for cell in _CELL_BREAK.split(record):
        cell = cell.replace("\x00", ",")
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
    # (more cells: a document's whole object, which a script's reading takes in windows: _script_account_records)
    return len(cells) <= MAX_CELLS and _values_place_or_bill(cells)


def _values_place_or_bill(cells: list[str]) -> bool:
    """Whether a record's values place or bill a person (account_record, its headers aside)."""
    if any(_PLACE.search(c) and not _ADDRESS.match(c) for c in cells):  # the Town's own place or office
        return False  # ("Pawling Town Hall", "160 Charles Colman Blvd")
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
                         rf"(?:(?:{_STREET_WORDS})\b\.?|(?:route|rte|rt|state route|county route)\.?\s*(?:\d{{1,3}}\b|{_NUMBER_WORDS}\b(?:[\s-]+{_NUMBER_WORDS}\b)*))"
                         # a post-office box is where a person is written to (hostile26 #1: "Janet Okafor, PO Box 868")
                         rf"|\bP\.?\s?O\.?\s*Box\s+\d{{1,6}}\b|\bapartado\s+(?:postal\s+)?\d{{1,6}}\b",
                         re.IGNORECASE)
_MONEY_IN = re.compile(r"(?<![\w.,/-])\$?\s?\d{1,3}(?:,\d{3})*(?:\d{3})*\.\d{2}(?![\w.]|,\d)")
_SEP = r"\s*[:=\-–—.…]*\s*"  # (dot leaders, as an aging report prints them: the sixteenth hostile tester)
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
    words = re.findall(rf"{_WORD}|{_CAPS}", text)  # (in capitals too: "OKAFOR JANET USD 412.50", hostile26 #1)
    return bool(match) and not all(w.rstrip(".,").title() in _NOT_NAMES | _LABELS for w in words)


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
_PARCEL = re.compile(r"(?<![\w-])(?:\d{6}[-–—/ ])?(\d{4})([-–—/ ])\d{2}\2\d{6}(?:\2\d{4})?(?![\w-])")  # (hyphens,
#: dashes, slashes or spaces: the sixteenth hostile tester)
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
    rf"\b(?:account|acct\.?|acc\.?|cuenta|cta\.?)\s*(?:no\.?|number|n[uú]m(?:ero)?\.?|n\.?\s?º|#)?\s*[:#]?\s*"
    rf"[A-Z]{{0,3}}-?\d{{3,9}}\b{_SEP}(?:(?:{_OWES}|bal\.?|delinquent|unpaid|overdue|past\s+due|has\s+not\s+paid"
    rf"|hasn['’]t\s+paid|no\s+ha\s+pagado|moros[oa]){_SEP}|is\s+|was\s+)?(?:{_AMOUNT})", re.IGNORECASE)


#: a person thanked or named for paying an amount ("Thanks to Dana Whitfield for paying $1,204.33 on time"), and a
#: family by its surname owing one ("The Ortegas still owe $388.10"): the thirtieth hostile tester
_PAID_IN_PROSE = re.compile(rf"({_PERSON})\s+(?:for\s+)?(?:paying|paid|has\s+paid|have\s+paid|pays|pagó|pagaron)\s+"
                            rf"(?:the\s+Town\s+|al\s+Pueblo\s+)?(?:{_AMOUNT})")
_FAMILY_OWES = re.compile(rf"\b(?:[Tt]he|[Ll]os|[Ll]as)\s+({_WORD}s)\s+(?:still\s+|aún\s+|todavía\s+)?"
                          rf"(?:owe|owed|deben|adeudan)\s+(?:the\s+Town\s+|al\s+Pueblo\s+)?(?:{_AMOUNT})")


def _owes_in_prose(text: str) -> bool:
    """Whether prose names a person (two capitalised words or more, not a place, a law or a month) owing or
    paying an amount written as figures, a family by its surname owing one, or ties an account's number to an
    amount."""
    return bool(_ACCOUNT_NUMBER_AMOUNT.search(text)) or any(
        _person_named(m.group(1)) for said in (_OWES_IN_PROSE, _PAID_IN_PROSE) for m in said.finditer(text)) or any(
        m.group(1) not in _NOT_NAMES and m.group(1)[:-1] not in _NOT_NAMES for m in _FAMILY_OWES.finditer(text))


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
_BALANCE_WORDS = re.compile(r"(?i:\b(?:owes?|owed|owing|balance|unpaid|outstanding|arrears|past[\s-]due|overdue|delinquent"
                            r"|adeuda|debe|deben|saldo|atrasad[oa]s?|pendiente)\b)")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[¿¡«“\"(]?[{0}])|\n\s*\n".format(_UP))
_CONTACT = re.compile(rf"{_EMAIL}|(?<!\d){_PHONE}(?!\d)")
#: a whole-dollar amount, with its sign or its word ("$388", "$1,204", "388 dollars", "388 dólares": the fourteenth
#: hostile tester), read only in a sentence that names a person and says they owe
_WHOLE_DOLLARS = re.compile(r"(?:(?:\$|US\$|USD)\s?\d{1,3}(?:,\d{3})+|(?:\$|US\$|USD)\s?\d+)(?![\d.,]*\d)"
                            r"|\b\d{1,3}(?:[,.]\d{3})*\s?(?:dollars?|d[oó]lares|USD)\b", re.IGNORECASE)


#: words that say someone has not paid, with no amount ("Mr. Whitfield on Route 22 has paid nothing since March",
#: "Shut-off list: Whitfield (Rt 22), Ortega (Oak St)": the fifteenth hostile tester, P1)
_NOT_PAID = re.compile(r"(?i:\b(?:has\s+not\s+paid|hasn['’]t\s+paid|have\s+not\s+paid|haven['’]t\s+paid|paid\s+nothing"
                       r"|never\s+paid|not\s+paid\s+since|behind\s+on\s+(?:the\s+|their\s+|his\s+|her\s+)?(?:sewer|bills?|rent)"
                       r"|shut[\s-]?off\s+list|lien\s+list|levy\s+list|delinquent\s+list|delinquents"
                       r"|late\s+payers?|non-?payers?|arrears\s+list"
                       r"|no\s+ha\s+pagado|no\s+han\s+pagado|no\s+paga\b|sin\s+pagar\s+desde|lista\s+de\s+(?:morosos|corte)"
                       r"|morosos?)\b)")
#: an amount in words, or who has not paid: a record without a digit is read for these (the sixteenth tester:
#: «Luis Ortega debe cuatrocientos sesenta y cuatro dólares»)
_IN_WORDS = re.compile(rf"{_AMOUNT_IN_WORDS.pattern}|{_AMOUNT_IN_SPANISH_WORDS.pattern}|{_NOT_PAID.pattern}"
                       r"|\b(?:owes?|debe|adeuda|behind|delinquent|moros[oa]|not\s+yet\s+paid|sin\s+pagar)\b",
                       re.IGNORECASE)
#: a person named by a title and a surname ("Mr. Whitfield", "Sra. González")
_TITLED = re.compile(rf"\b(?:Mr|Mrs|Ms|Miss|Mx|Dr|Sr|Sra|Srta|Don|Doña|[Ss]eñora?|[Ss]eñorita|don|doña)\.?\s+{_WORD}")
#: a surname with where it is, in brackets ("Whitfield (Rt 22)", "Ortega (Oak St)")
_SURNAME_PLACED = re.compile(rf"\b{_WORD}\s*\((?:[^()]{{0,30}}\d[^()]{{0,20}}|[^()]{{0,30}}\b(?:{_STREET_WORDS})\b\.?)\)",
                             re.IGNORECASE)


def _someone_unpaid(sentence: str) -> bool:
    """Whether a sentence that says someone has not paid names them: a title and a surname, a person's name,
    or surnames placed by their streets."""
    return bool(_TITLED.search(sentence)) or _person_named(sentence) or bool(_NUMBERED_SURNAME.search(sentence)) or \
        any(m.group(0).split("(")[0].strip().title() not in _NOT_NAMES for m in _SURNAME_PLACED.finditer(sentence))


#: an account named by its word and number, said to be behind, with no amount ("Account S10001 is behind",
#: "account P-20417 delinquent": the seventeenth hostile tester)
_ACCOUNT_ID = r"[A-Z]{0,3}-?\d{3,9}\b"
#: an account's number and a surname ("Shut-off list: W-10042 Whitfield; W-10043 Ortega": the thirtieth tester)
_NUMBERED_SURNAME = re.compile(rf"\b{_ACCOUNT_ID}\s+{_WORD}\b")
_UNPAID_WORDS = (r"behind|delinquent|unpaid|overdue|past\s+due|has\s+not\s+paid|have\s+not\s+paid|hasn['’]t\s+paid"
                 r"|haven['’]t\s+paid|not\s+yet\s+paid|in\s+arrears|owes|moros[oa]s?|atrasad[oa]s?|no\s+ha\s+pagado"
                 r"|no\s+han\s+pagado|debe|deben|adeuda|sin\s+pagar|impagad[oa]s?")
_ACCOUNT_BEHIND = re.compile(  # (and a list of accounts, and the words first: the eighteenth hostile tester)
    rf"\b(?:accounts?|acct\.?|cuentas?|cta\.?)\s*(?:no\.?|number|n[uú]m(?:ero)?\.?|#)?\s*[:#]?\s*{_ACCOUNT_ID}"
    rf"(?:\s*(?:,|;|\band\b|\by\b)\s*{_ACCOUNT_ID})*[^.\n]{{0,30}}?\b(?:{_UNPAID_WORDS})\b"
    rf"|\b(?:{_UNPAID_WORDS})\b[^.\n]{{0,20}}?\b(?:accounts?|cuentas?)\b\s*[:#]?\s*(?!SAMPLE-){_ACCOUNT_ID}",
    re.IGNORECASE)
#: a label of not having paid with people after it ("Not yet paid: Ortega, Whitfield and Gonzalez")
_UNPAID_LABEL = re.compile(rf"(?i:\b(?:{_UNPAID_WORDS}|late\s+payers?|shut[\s-]?off)\b)\s*:")
#: words that label a site's own figures, not a person ("Bill: $96.00", «Factura: $96.00»)
_LABELS = frozenset("""Bill Bills Total Totals Charge Charges Penalty Penalties Minimum Fee Fees Rate Rates Arrears Balance
    Credit Owed Paid Due Amount Amounts Example Examples Illustrative Sewer Water Usage Now Proposed Change Quarter
    Factura Facturas Cargo Cargos Recargo Recargos Tarifa Tarifas Cuota Monto Montos Saldo Pagado Mínimo Ejemplo
    Agua Consumo Ahora Propuesta Cambio Trimestre Subtotal Tax Taxes Levy Lien Unpaid Late Impago Morosos""".split())
#: a surname and an amount beside it ("Smith 345.67", "Smith ........ 345.67", «Smith 345,67»)
_SURNAME_AMOUNT = re.compile(rf"\b({_WORD})(?:,?\s+[{_UP}]\.?)?\b[\s:.…,]*\s\(?(?:\$\s?)?\d{{1,3}}(?:,\d{{3}})*(?:\d{{3}})*[.,]\d{{2}}"
                             rf"(?![\d.,]*\d)")  # (with an initial after it: "Ortega L 388.10", the eighteenth tester;
# the amount in brackets: "Luis Ortega (388.10), Dana Whitfield (1,204.33)", the thirty-first)
#: an owner's status with no amount: a titled person who owes («Don José Pérez debe»)
_OWES_WORD = re.compile(r"(?i:\b(?:owes?|owing|debe|deben|adeuda|behind|delinquent|moros[oa])\b)")


def _surnames_with_amounts(line: str) -> int:
    """How many surnames in a line stand beside an amount (not a label of the site's own figures)."""
    return sum(1 for m in _SURNAME_AMOUNT.finditer(line)
               if m.group(1) not in _NOT_NAMES and m.group(1).title() not in _LABELS and m.group(1) not in _LABELS)


def _who_owes_listed(line: str) -> bool:
    """A line of who owes what however it is set (the seventeenth hostile tester): an account said to be behind;
    two surnames with amounts, or one with words of owing ("Late payers: Smith 345.67, Jones 120.00", "Unpaid:
    Smith ........ 345.67"); a surname with an amount in words and owing words; a titled person who owes."""
    if len(line) > 300:
        return False
    if _ACCOUNT_BEHIND.search(line):
        return True
    owing = _BALANCE_WORDS.search(line) or _NOT_PAID.search(line) or re.search(r"(?i:\blate\s+payers?\b|\bimpago)", line)
    pairs = _surnames_with_amounts(line)
    if pairs >= 2 or (pairs and owing):
        return True
    label = _UNPAID_LABEL.search(line)
    if label and sum(1 for w in re.findall(rf"\b{_WORD}\b", line[label.end():])
                     if w not in _NOT_NAMES and w not in _LABELS) >= 2:
        return True
    if owing and (_AMOUNT_IN_WORDS.search(line) or _AMOUNT_IN_SPANISH_WORDS.search(line)) and any(
            w not in _NOT_NAMES and w not in _LABELS for w in re.findall(rf"\b{_WORD}\b", line)):
        return True
    return bool(_TITLED.search(line)) and bool(_OWES_WORD.search(line))


#: the mailboxes people have for themselves: an address there is a person's, not an office's (the twenty-sixth hostile
#: tester, #3: "Write to janet.okafor@gmail.com." was published, though the guard says it refuses residents' e-mail)
_PERSONAL_MAILBOX = re.compile(r"[\w.+-]+@(?:gmail|googlemail|yahoo|ymail|hotmail|outlook|live|msn|aol|icloud|me|mac"
                               r"|protonmail|proton|gmx|mail|optonline|verizon|att|sbcglobal|comcast|frontier"
                               r"|optimum|earthlink|zoho|yandex|hey|fastmail)\.(?:com|net|me|us|org)\b", re.IGNORECASE)


def _more_forms(line: str) -> bool:
    """A line of words (or a sentence of prose) that holds account data in a form the rules above miss: a
    person named beside a Spanish street address; a person named with a balance word and an amount (in
    figures, or in English or Spanish words) anywhere in one sentence; a resident's e-mail address or phone
    with a name or with another one. Not the Town's own places and offices (_PLACE), but a titled person owing an
    amount beside them ("Town Hall. Mrs. Whitfield owes $1,204.33": the sixteenth hostile tester)."""
    if _who_owes_listed(line) or _money_to_someone(line) or _PERSONAL_MAILBOX.search(line):
        return True
    if _PLACE.search(line):
        return len(line) <= 300 and bool(_TITLED.search(line)) and bool(_BALANCE_WORDS.search(line)) and bool(
            re.search(_AMOUNT, line) or _WHOLE_DOLLARS.search(line))
    if _ADDRESS_ES.search(line) and _person_named(_ADDRESS_ES.sub(" — ", line)):
        return True
    # (a title's full stop is not a sentence's end: "Mr. Whitfield … has paid nothing" is read as one line)
    for sentence in [line] if len(line) <= 300 else _SENTENCE_END.split(line):
        if len(sentence) <= 600 and _NOT_PAID.search(sentence) and _someone_unpaid(_NOT_PAID.sub(" — ", sentence)):
            return True
    for sentence in ([line] if len(line) <= 300 else []) + _SENTENCE_END.split(line):
        if len(sentence) > 600 or not _BALANCE_WORDS.search(sentence):
            continue
        if (re.search(_AMOUNT, sentence) or _WHOLE_DOLLARS.search(sentence) or _AMOUNT_IN_WORDS.search(sentence)
                or _AMOUNT_IN_SPANISH_WORDS.search(sentence)) \
                and (_person_named(_BALANCE_WORDS.sub(" ", sentence)) or _TITLED.search(sentence)):
            return True  # (a title and a surname name a person too: "Mrs. Whitfield owes …", the sixteenth tester)
    contacts = set(_CONTACT.findall(line))  # (one address said twice, as a note and its Spanish, is not a list)
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
                if cells:  # (a long one too: _script_account_records reads it in windows)
                    records.append((cells, keys))
        elif bare_key:
            stack[-1][1].append(_column(bare_key))
            if _IDENT.match(bare_key):  # an account number as a bare key is a cell too, as a quoted one is (the
                stack[-1][0].append(bare_key)  # thirty-first hostile tester, P2: `{S10001:114.00, …}` was published)
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
        # a record of up to twice a record's cells as before (a longer one's cells, a catalogue's sentences, are
        # not a header row)
        if len(cells) <= MAX_CELLS * 2 and account_record(cells, keys):
            found.append(", ".join(cells)[:80])
        elif len(cells) > MAX_CELLS:
            # a long object or list is many records side by side, not a document's whole object (the thirtieth
            # hostile tester: 9 or more "name": "amount" pairs, or "S10001": "148.66", were published where 8
            # were refused): read in windows of a record's size, each overlapping the next by half, so every
            # run of up to half a window's cells is read whole in one
            half = MAX_CELLS // 2
            for start in range(0, len(cells) - half, half):
                window = cells[start:start + MAX_CELLS]
                if _values_place_or_bill(window):  # (its keys were read as the whole's, above)
                    found.append(", ".join(window)[:80])
                    break
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
    # a link's query written as text, not in an attribute ("https://example.org/?name=Janet+Okafor&owed=412.50":
    # the twenty-sixth hostile tester, #1): its words on a line after it
    if "?" in text and "=" in text:
        text = _TEXT_LINK.sub(lambda m: f"{m.group(0)}\n{_query_words(m.group(0))}\n", text)
    return text


_TEXT_LINK = re.compile(r"(?:https?://|www\.|/)[^\s\"'<>()]*\?[^\s\"'<>()]*=[^\s\"'<>()]*")


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


# ---- tables of who and how much, money sent to a person, a household's address (the twenty-fifth hostile
# tester): a tab-separated `Customer<TAB>Balance` table of lower-case names, a Markdown table of upper-case
# surnames with amounts, "A refund of 45.20 was sent to Mrs. Janet Okafor last week." and "the Okafor residence,
# 9 Dutcher Avenue" were published. A table is read by its columns (one naming who, one an amount) as well as by
# its cells; money paid or sent is as personal as money owed; a family's or a house's name places a person.

#: a column that names who (a person, a customer, an account)
_WHO_COLUMN = re.compile(r"^(?:full_)?(?:names?|customers?|clients?|owners?|residents?|payers?|payees?|tenants?"
                         r"|occupants?|persons?|people|households?|accounts?|acct|nombres?|clientes?|propietari[oa]s?"
                         r"|due[nñ][oa]s?|residentes?|titular(?:es)?|inquilin[oa]s?|cuentas?)(?:_\w+)?$")
#: a column that holds an amount of money
_MONEY_COLUMN = re.compile(r"^(?:amounts?|balances?|owed|owes|due|paid|payments?|refunds?|refunded|credits?|debts?"
                           r"|arrears|unpaid|montos?|saldos?|importes?|pagos?|pagado|reembolsos?|deudas?|adeudos?"
                           r"|cr[eé]ditos?)(?:_\w+)?$")
#: a cell that is only a person's name in capitals ("OKAFOR", "OKAFOR, JANET") or in lower case ("janet okafor")
_CAPS_NAME = re.compile(rf"^[{_UP}][{_UP}'’-]{{2,20}}(?:,?\s+[{_UP}][{_UP}'’-]{{0,20}}\.?){{0,2}}$")
_LOWER_NAME = re.compile(rf"^[{_LOW}][{_LOW}'’-]+(?:\s+[{_LOW}][{_LOW}'’-]+){{1,2}}$")
#: capitals that are the law's or the site's abbreviations, not surnames
_ABBREVIATIONS = frozenset("""VC BOD TSS COD USD EUR NY NYS EPA CFR GML DEC SPDES POTW OWRS CSV PDF JSON API URL
    FAQ ADA WCAG HTML YAML TOTAL MINIMUM RATE FEE FEES PENALTY CHARGE SEWER WATER USAGE QUARTER AMOUNT BALANCE
    NONE N/A NA TBD YES NO SI SÍ OK""".split())


def _money_cell(cell: str) -> bool:
    return bool(_MONEY.match(cell) or re.fullmatch(rf"(?:{_AMOUNT})", cell))


def _table_header(cells: list[str]) -> bool:
    """A table's header with a column naming who and a column of money ("Customer | Balance", «Nombre;Saldo»)."""
    columns = [_column(c) for c in cells]
    return 2 <= len(columns) <= MAX_CELLS and any(_WHO_COLUMN.match(c) for c in columns) \
        and any(_MONEY_COLUMN.match(c) for c in columns)


def _name_amount_row(cells: list[str]) -> bool:
    """A table's row that is a name in capitals or in lower case beside an amount, and nothing else."""
    if not 2 <= len(cells) <= 3 or sum(_money_cell(c) for c in cells) != 1:
        return False
    names = [c for c in cells if not _money_cell(c)]
    names = [c for c in names if not re.fullmatch(rf"[{_UP}]\.?", c)] or ["?"]  # an initial beside a surname
    return all((_CAPS_NAME.match(c) and not set(re.split(r"[\s,.]+", c.upper())) & _ABBREVIATIONS)
               or (_LOWER_NAME.match(c) and not {w.title() for w in c.split()} & (_LABELS | _NOT_NAMES))
               for c in names)


def table_records(records: list[str]) -> list[str]:
    """The rows of a table of who and how much: a header naming who and an amount followed by a row with an
    amount, or two rows that are only a name (in capitals or lower case) and an amount."""
    found, rows = [], []
    cells = [_cells(r)[0] if len(r) <= 2000 else [] for r in records]
    for i, row in enumerate(cells):
        if _table_header(row) and any(any(_money_cell(c) for c in later) for later in cells[i + 1:i + 4]):
            found.append(_plain(records[i])[:80])
        if _name_amount_row(row):
            rows.append(_plain(records[i])[:80])
    return found + (rows if len(rows) >= 2 else [])


#: words that say money went to or from someone (with a person named and an amount in one sentence)
_MONEY_SENT = re.compile(r"(?i:\b(?:refund(?:ed|s)?|credit(?:ed)?|paid|pays?|payment|reimburs\w*|sent|mailed|charged"
                         r"|billed|waived|returned|reembols\w*|pag[oóa]\w*|cr[eé]dito|cobr\w*|envi[aó]\w*|devuelt\w*)\b)")
#: money sent to (or paid by) a person named ("a refund of 45.20 was sent to Janet Okafor", "Janet Okafor paid 45.20")
_SENT_TO = re.compile(rf"{_MONEY_SENT.pattern}(?:[^.;:\n]|(?<=\d)[.,](?=\d)){{0,40}}?\b(?:to|by|from|for|a|de|para|por)\s+({_PERSON})"
                      rf"|({_PERSON})\s+(?:has\s+|have\s+|was\s+|were\s+)?(?:paid|received|got|was\s+refunded|pag[oó]|recibi[oó])\b")
#: a person said to owe a number, with or without its dollar sign
_OWES_NUMBER = re.compile(rf"({_PERSON})\s+(?:still\s+|aún\s+|todavía\s+)?(?:owes?|owed|debe|adeuda)\s+\$?\d[\d,]*(?:\.\d{{2}})?\b")
#: a household or a house named by its family ("the Okafor residence", "Okafor's house", «la casa de los Okafor»)
_HOUSEHOLD = re.compile(rf"\b(?:[Tt]he\s+)?({_WORD})\s+(?i:residence|family|home|house|household|property|farm)\b"
                        rf"|\b({_WORD})['’]s\s+(?i:house|home|place|property|residence|farm)\b"
                        rf"|\b(?i:casa|familia|residencia|propiedad|finca)\s+(?:de\s+(?:los\s+|las\s+|la\s+|el\s+)?)?({_WORD})")


def _household(line: str) -> bool:
    names = (next(g for g in m.groups() if g) for m in _HOUSEHOLD.finditer(line))
    return any(name not in _NOT_NAMES and name not in _LABELS and not _PLACE.search(name) for name in names)


def _named_near_money(line: str) -> bool:
    """A person named (two capitalised words that are not a place, a law, a month or a label; or a name last name
    first) within a few words of a word of money paid, sent or owed: a table's row of the site's own figures names
    no one near its "billed" ("Schedule Illustrative … Share billed 80%")."""
    words = [(m.start(), m.end()) for pattern in (_MONEY_SENT, _BALANCE_WORDS) for m in pattern.finditer(line)]
    if not words:
        return False
    near = lambda start, end: any(start - 60 <= w_end and w_start <= end + 60 for w_start, w_end in words)  # noqa: E731
    for run in _CAPITALISED_RUN.finditer(line):
        names = [w for w in run.group(0).split() if w.rstrip(".") not in _NOT_NAMES and w.rstrip(".") not in _LABELS]
        if len(names) >= 2 and not _PLACE.search(run.group(0)) and near(run.start(), run.end()) and \
                not line[run.end():].lstrip().startswith("(fictional)"):
            return True
    return any(not {m.group(1).title(), m.group(2).title()} & (_NOT_NAMES | _LABELS) and near(m.start(), m.end())
               for m in _LAST_FIRST.finditer(line))


def _money_to_someone(line: str) -> bool:
    """A sentence naming a person (a title and a surname, or a name) with money paid, sent or owed and its amount;
    or a household named beside a street address or an amount."""
    if len(line) > 300:
        return False
    amount = re.search(_AMOUNT, line) or _WHOLE_DOLLARS.search(line)
    if amount and _TITLED.search(line):
        return True
    if amount and any(_person_named(who) and not _PLACE.search(who)
                      for m in _SENT_TO.finditer(line) for who in m.groups() if who):
        return True
    # a person named (or named last name first) in one sentence with money paid, owed or sent and its amount, however
    # the sentence is built ("We thank Janet Okafor, who paid 412.50", "$412.50 is the balance of Okafor, Janet",
    # "Janet Okafor lives on Dutcher Avenue and paid 412.50": the twenty-sixth hostile tester, #1 and #2)
    if amount and not _PLACE.search(line) and _named_near_money(line):
        return True
    # a person said to owe a bare number ("Janet Okafor owes 412")
    if any(_person_named(m.group(1)) for m in _OWES_NUMBER.finditer(line)):
        return True
    if _household(line):
        return bool(amount) or any(not fictional_street(m.group(0)) for m in _ADDRESS_IN.finditer(line)) \
            or bool(_ADDRESS_ES.search(line))
    return False


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
        if len(record) > 2000 or not (re.search(r"\d", record) or _IN_WORDS.search(record) or "@" in record):
            continue
        bare = _plain(_COMMENT_MARKS.sub(" ", record))  # a line behind #, // or <!-- (the eighteenth tester, F4)
        if _record_holds_accounts(record) or _owes_in_prose(_plain(record)) or _more_forms(_plain(record)) or (
                bare != _plain(record) and (_words_hold_accounts(bare) or _more_forms(bare))):
            found.append(_plain(record)[:80])
            if len(found) == 3:
                return found
    found += table_records(_RECORD_BREAK.split(text))
    if len(found) >= 3:
        return found[:3]
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
            if width == 1 and (re.search(r"\d", words) or _ADDRESS_IN.search(words)) and name_beside_address(words):
                found.append(words[:80])
                break
            if (re.search(r"\d", words) or _AMOUNT_IN_WORDS.search(words)) and _words_hold_accounts(words):
                found.append(" / ".join(window)[:80])
                break
        if len(found) == 3:
            break
    return found


#: a run of base64 (or its URL-safe form) long enough to hide a line of accounts (24 characters: 18 bytes, "Ortega,
#: Luis: 388.10" is 28 characters: the eighteenth hostile tester)
_BASE64 = re.compile(r"(?<![A-Za-z0-9+/_=-])[A-Za-z0-9+/_-]{24,}={0,2}(?![A-Za-z0-9+/_=-])")
_COMMENT_MARKS = re.compile(r"<!--|-->|^\s*(?:#+|//+|/\*+)|\*/", re.MULTILINE)


#: a run of hexadecimal digits long enough to hide a line of accounts (the twelfth hostile tester, F4)
_HEX = re.compile(r"(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{2}){18,}(?![0-9A-Fa-f])")


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
