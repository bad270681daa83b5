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

import codecs
import hashlib
import json
import os
import re
import subprocess
from pathlib import Path

from calculator.core.privacy import (  # the text's rules: the engine's, which the Clerk's desk runs too
    MAX_BYTES, _SPLIT, _JSON_KEY, _YAML_KEY, STRONG, _column,
    _looks_like_accounts, register_row, run_output_line, _cells, account_record, real_parcels,
    script_records, account_records, encoded_texts, seen_as_shown)

from .errors import BuildError

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


def not_given_to_git(*paths: Path) -> list[tuple[Path, str]]:
    """The files under these folders (or these files) that git has not been given as they are: ones it does
    not track (ignored ones too), and tracked ones changed since they were last added (`git add`), each with
    "new" or "changed". [] for a path outside a git work tree (a copy of the rules a test builds from).

    Issue 35, the seventeenth and later hostile testers: a page dropped into docs/, or a sentence added to a
    tracked one, naming a resident beside an amount in a form no reading foresaw ("412.50 Janet Okafor",
    "OKAFOR 412.50", "the shutoff list: …"), was published. Reading prose for every way a person can be named
    does not converge; the build publishes only what git holds, so publishing is an act someone took on
    purpose (`git add`, then a commit that the repository shows), and the readings below are a second look."""
    found: dict[Path, str] = {}
    for path in paths:
        path = Path(path)
        if not path.exists():
            continue
        where = path if path.is_dir() else path.parent
        target = str(path.resolve())

        def git(*args: str, stdin: bytes | None = None, at: str = str(where)) -> list[str]:
            # git's own variables left out: GIT_INDEX_FILE named another index, which the build then trusted (the
            # twenty-ninth hostile tester); the repository's own index and objects are what it holds
            env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
            done = subprocess.run(["git", "-C", at, *args], input=stdin, capture_output=True, check=True, timeout=60,
                                  env=env)
            return [n for n in done.stdout.decode("utf-8", "replace").split("\0" if "-z" in args else "\n") if n]
        try:
            top = git("rev-parse", "--show-toplevel")[0]
            new = git("ls-files", "-z", "--others", "--full-name", "--", target)
            ignored = set(git("ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--full-name", "--",
                              target))
            staged = [line.split("\t", 1) for line in git("ls-files", "-z", "-s", "--full-name", "--", target)]
        except (OSError, subprocess.SubprocessError, IndexError):
            continue
        for name in new:
            file = Path(top) / name
            if set(file.parts) & {"__pycache__"} or file.name == "compiled_rules.json":  # what Python and the build make
                continue
            if file.is_file() or file.is_symlink():
                found.setdefault(file, "ignored" if name in ignored else "new")
        # each tracked file's bytes against the index's, whatever git's own flags say (the twenty-eighth hostile
        # tester published a change hidden by `git update-index --assume-unchanged` or `--skip-worktree`), and
        # no link: a committed symbolic link publishes whatever its target holds, which git does not hold
        ours = []
        for head, name in staged:
            mode, blob = head.split()[:2]
            file = Path(top) / name
            if mode == "160000":
                found.setdefault(file, "submodule")
            elif mode == "120000" or file.is_symlink():
                found.setdefault(file, "link")
            elif file.is_file():
                ours.append((file, name, blob))
        if ours:
            try:
                now = git("hash-object", "--stdin-paths", stdin="\n".join(n for _f, n, _b in ours).encode(), at=top)
            except (OSError, subprocess.SubprocessError):
                continue
            for (file, _name, blob), sha in zip(ours, now):
                if sha.strip() != blob:
                    found.setdefault(file, "changed")
            # a clean filter (.gitattributes, .git/info/attributes) makes the index hold other bytes than the file
            # (the twenty-ninth hostile tester: a line the filter strips was published, `git status` clean)
            try:
                parts = git("check-attr", "-z", "--stdin", "filter",
                            stdin="\0".join(n for _f, n, _b in ours).encode() + b"\0", at=top)
            except (OSError, subprocess.SubprocessError):
                continue
            for name, _attr, value in zip(parts[0::3], parts[1::3], parts[2::3]):
                if value not in ("unspecified", "unset", ""):
                    found.setdefault(Path(top) / name, "filtered")
    return sorted(found.items())


def check_given_to_git(root: Path, *paths: Path) -> None:
    """Refuse (BuildError) when a file the site is built from has not been given to git as it is
    (not_given_to_git), naming each and what to do."""
    found = not_given_to_git(*paths)
    if not found:
        return

    def shown(path: Path) -> str:
        try:
            return path.relative_to(root).as_posix()
        except ValueError:
            return str(path)
    why = {"new": "not in the repository yet", "changed": "changed since it was added",
           "ignored": "git ignores it (.gitignore): move it out of the folders the site is built from",
           "link": "a symbolic link, whose target git does not hold: put the file itself there, and git add it",
           "submodule": "a git submodule, whose files this repository does not hold: copy them in as files, and "
                        "git add them",
           "filtered": "a git filter (.gitattributes or .git/info/attributes) changes it on the way in: take the "
                       "filter off, so git holds the bytes that are published"}
    lines = "\n".join(f"  {shown(p)} ({why[w]})" for p, w in found[:10])
    more = f"\n  … and {len(found) - 10} more" if len(found) > 10 else ""
    names = " ".join(shown(p) for p, w in found[:10] if w in ("new", "changed"))
    raise BuildError(
        "Not publishing: the site is built only from what the repository holds, and git has not been given "
        f"these files as they are:\n{lines}{more}\nLook over each one first: it must name no resident with what "
        "they owe or paid, their address, parcel or account (those belong in billing/, which git ignores)."
        + (f" Then give them to git and build again:\n  git add {names}\n" if names else " Then build again.\n")
        + "To look at a page before that, `python3 build.py serve` shows the site on this computer only.")


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
#: the built site's scripts and JSON, read by their literals too (script_records)
SCRIPTS = frozenset({".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".jsx", ".tsx", ".json", ".webmanifest"})


# The reading of a text is most of a build's time (18 s of 32: the built site's 300 files and the repository's
# sources, read by every rule above), and the same text is read again by every build (the tests build the site
# twenty times). Its records are kept by the text's SHA-256 and the guard's own source, in memory and in
# .cache/build/ (kit/buildcache.py: PAWLING_BUILD_CACHE=0 reads every text afresh): a changed text, or a changed
# rule, is read anew.
_MEMO: dict = {}  # the guard's Memo, by where the cache is and whether it is on (a test may move or turn it off)


def _memo():
    from . import buildcache
    where = (buildcache.enabled(), str(buildcache.CACHE))
    if where not in _MEMO:
        import calculator.core.privacy as rules
        _MEMO[where] = buildcache.Memo("privacy", [buildcache.source_of(rules), Path(__file__).read_bytes()])
    return _MEMO[where]


def _name(text: str, blocks: bool, script: bool) -> str:
    return hashlib.sha256(f"{int(blocks)}{int(script)}\0{text}".encode("utf-8", "surrogatepass")).hexdigest()


def _read(text: str, blocks: bool, script: bool) -> list[str]:
    records = account_records(text, blocks=blocks, script=script)
    for decoded in ([] if records else encoded_texts(text)):
        records = [f"base64: {record}" for record in account_records(decoded, blocks=True, script=True)]
        if records:
            break
    return records


def _records(text: str, blocks: bool, script: bool) -> list[str]:
    """account_records of the text, or of a base64 or hex run in it (the fifteenth hostile tester), as kept."""
    memo = _memo()
    name = _name(text, blocks, script)
    kept = memo.get(name)
    if kept is not None:
        return list(kept)
    records = _read(text, blocks, script)
    memo.put(name, records)
    return records


#: texts not yet read, from which on they are read by every core at once (a first build reads 300 texts, 20 s
#: on one core of two; a build whose texts were read before reads none)
MANY = 40


def _read_ahead(items: list[tuple[str, bool, bool]]) -> None:
    """Read the texts not kept yet, each core a share, so that `_records` then finds them kept. Started afresh
    (spawn), not forked: a build may run in a process with threads (a test worker driving a browser)."""
    memo = _memo()
    if memo.path is None:  # nothing kept (the cache is off): each is read as it comes
        return
    todo = list({_name(*item): item for item in items if memo.get(_name(*item)) is None}.items())
    cores = os.cpu_count() or 1
    if len(todo) < MANY or cores < 2:
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    try:
        with ProcessPoolExecutor(max_workers=cores, mp_context=multiprocessing.get_context("spawn")) as pool:
            read = list(pool.map(_read_item, [item for _name_, item in todo], chunksize=max(1, len(todo) // (cores * 4))))
    except (OSError, RuntimeError):  # no processes to be had here: each is read as it comes, on this core
        return
    for (name, _item), records in zip(todo, read):
        memo.put(name, records)


def _read_item(item: tuple[str, bool, bool]) -> list[str]:
    return _read(*item)


def _keep_records() -> None:
    _memo().keep()


def check_site(site: Path, generated: dict[str, bytes] | None = None, copied: dict[str, Path] | None = None) -> None:
    """Refuse (BuildError) when a text file of the built site holds a record of account data (above).
    `generated`: the build's own fictional sample, by its path in the site and its bytes (skipped only while
    it is those bytes); `copied`: files the build copied from a package (Pyodide), skipped only while they
    are that file's bytes."""
    generated, copied = generated or {}, copied or {}
    found, texts = [], []
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
        texts.append((rel, (text, path.suffix.lower() not in (".html", ".htm", ".xml"), path.suffix.lower() in SCRIPTS)))
    _read_ahead([item for _rel, item in texts])
    for rel, item in texts:
        records = _records(*item)
        if records:
            found.append((rel, records))
    _keep_records()
    if found:
        lines = "\n".join(f"  {rel}: " + " / ".join(repr(r) for r in records) for rel, records in found[:10])
        made = " Files under api/ are made from rules/ (a rate schedule's note and title are there, in "\
            "rules/rate-schedules/): look for those words in rules/." if any(rel.startswith(("api/", "es/api/"))
                                                                           for rel, _ in found) else ""
        raise BuildError("Not publishing: the built site holds what looks like account data (personal data): "
                         "an account column with a person's name, address or amount, a street address with a "
                         f"name or an amount, a name with an amount (in figures or words), or a tax-map parcel:\n{lines}\nTake it out of the page or file under docs/ it comes from "
                         f"(account lists belong in billing/, which is kept out of the repository), then build again.{made}")


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
    found, texts = [], []
    for path in source_files(root):
        text = _text(path)
        if text is not None:
            texts.append((path, text, path.suffix.lower() not in PAGE_SOURCES))
    _read_ahead([(text, blocks, False) for _path, text, blocks in texts])
    for path, text, blocks in texts:
        records = _records(text, blocks=blocks, script=False)  # base64 or hex in a comment too (hostile14)
        if records:
            found.append((path.relative_to(root).as_posix(), _line_of_first(text, blocks, encoded=any(
                r.startswith("base64: ") for r in records)), records))
    _keep_records()
    return found


def _line_of_first(text: str, blocks: bool, encoded: bool = False) -> int:
    """The line where the first record of account data ends: the fewest first lines that hold one (a record
    may span lines; more lines never hold fewer records), found by halves. `encoded`: the record is in a base64
    or hex run (the fifteenth hostile tester, U2: its line was the file's last, not the run's)."""
    lines = text.splitlines()
    low, high = 1, len(lines)

    def holds(part: str) -> bool:
        if encoded:
            return any(account_records(d, blocks=True, script=True) for d in encoded_texts(part))
        return bool(account_records(part, blocks=blocks))
    while low < high:
        middle = (low + high) // 2
        if holds("\n".join(lines[:middle])):
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
