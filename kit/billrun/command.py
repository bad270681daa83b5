"""`python3 build.py bills`: the quarterly bill run from the Town's files (README, "The quarterly
bill run"). The engine (calculator/bills/billing.py) bills; this writes its output folder whole or not
at all, with the tagged PDF bills, and makes the fictional sample files.

    python3 build.py bills --quarter 2025-Q4 --accounts accounts.csv --reads reads.csv \\
        [--payments payments.csv] [--earlier billing/2025-Q3/register.csv …] [--as-of YYYY-MM-DD] \\
        [--out billing/2025-Q4/] [--no-pdf] [--site-url URL]
    python3 build.py bills --sample DIR [--count 2000]
"""
from __future__ import annotations

import argparse
import csv
import os
import re
import shutil
import sys
import tempfile
from decimal import Decimal
from pathlib import Path

from calculator.cli import for_command_line, own_computer
from calculator.bills import billing
from calculator.core import money
from calculator.core.dates import parse_quarter, quarter_name
from calculator.core.errors import InputError, RulesUnreadable
from calculator.core.files import WRITTEN, as_written, written_list
from calculator.core.rules import load

from ..errors import BuildError
from ..rules.config import project_config

ROOT = Path(__file__).resolve().parents[2]


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs):  # `--as-o` is not `--as-of` (the third hostile tester)
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def _print_message(self, message, file=None):
        # argparse drops a write that fails: `--help > /dev/full` ended 0, the help lost (the hostile
        # tester); the failure goes on to build.py, which says so (74)
        if message:
            (file or sys.stderr).write(message)

    def error(self, message):
        raise InputError(f"{message[0].upper()}{message[1:]}. Run `python3 build.py bills --help` for the options.")


#: the most accounts `--sample` makes: 50 times the Town's (about 1,000), and a sample's accounts
#: (SAMPLE-10001 on) stay clear of the unknown account its reads name, SAMPLE-99999
LARGEST = 50_000

#: what the run's exit status says (its --help, and the README)
EXIT_STATUS = """exit status:
  0    done: the files are written whole and the report is printed
  2    refused (the message says what to change): nothing was written
  3    done: the files are written whole, but the report could not be printed
       (standard output full or closed); the message on stderr says where they are
  74   the help could not be printed (standard output full or closed)
  129  stopped by a hang-up (the terminal closed): nothing was written
  130  stopped by Ctrl-C: nothing was written
  143  stopped by SIGTERM: nothing was written
  141  the reader of the report went away (`| head`): the files are written whole"""



def _count(text: str) -> int:
    """--count as the kit reads a number everywhere ("2,000" too: the fourteenth hostile tester got argparse's
    "invalid int value")."""
    import argparse
    from calculator.bills.amounts import parse_amount
    if re.fullmatch(r"-?\d+", text.strip()):  # (a whole number, even 0 or -1: the range is checked, and said, later)
        return int(text)
    try:
        return int(parse_amount(text, "The number of accounts (--count)", "2000", unit="{amount} accounts"))
    except InputError as exc:
        raise argparse.ArgumentTypeError(str(exc).rstrip(".")) from None

def parser() -> argparse.ArgumentParser:
    p = _Parser(prog="build.py bills", description="The quarterly bill run: the register, the summary, the "
                "arrears list and\nthe bills of every account, from the Town's CSV files (README).",
                epilog=EXIT_STATUS, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quarter", help="the quarter to bill, like 2025-Q4")
    p.add_argument("--accounts", help="the accounts file (CSV)")
    p.add_argument("--reads", help="the quarter's meter reads (CSV)")
    p.add_argument("--payments", help="every payment ever made on earlier bills (CSV; not only the latest quarter's: a run whose payments leave an account owing more than an earlier register says is refused)")
    p.add_argument("--earlier", action="append", default=None, metavar="REGISTER",
                   help="the register.csv of an earlier run; repeat for each (default: every billing/QUARTER/"
                        "register.csv beside --out for an earlier quarter). The quarter just before --quarter is "
                        "needed (its unpaid bills are carried), unless --first-quarter")
    p.add_argument("--first-quarter", action="store_true",
                   help="the Town's first bill run on this website: no earlier register exists")
    p.add_argument("--as-of", help="count penalties on arrears to this day, YYYY-MM-DD (default: the due date)")
    p.add_argument("--out", help="the output folder (default: billing/QUARTER/): new, empty, or one an earlier run made; replaced whole")
    p.add_argument("--no-pdf", action="store_true", help="the register and lists only, without the PDF bills")
    p.add_argument("--site-url", help="the site the bills link to (default: mkdocs.yml's site_url)")
    p.add_argument("--sample", metavar="DIR", help="write the fictional sample files into DIR, and nothing else")
    p.add_argument("--count", type=_count, default=None, help="with --sample: how many accounts (default 2000, at most "
                                                          f"{LARGEST:,})")
    return p


def _read(path: str, what: str) -> tuple[str, str]:
    """(the file's name, its text)."""
    if Path(path).exists() and not Path(path).is_file() and not Path(path).is_dir():
        # the fifth hostile tester: /dev/zero was read until memory ran out (a traceback)
        raise InputError(f"The {what} file {path} is not a file (it is a device or a pipe). Give the path of the "
                         "CSV file.")
    try:
        return Path(path).name, Path(path).read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise InputError(f"The {what} file {path} does not exist. Give the path of the CSV file.") from None
    except UnicodeDecodeError:
        raise InputError(f"The {what} file {path} is not UTF-8 text. Save it as CSV UTF-8 and try again.") from None
    except IsADirectoryError:
        raise InputError(f"The {what} file {path} is a folder. Give the path of the CSV file in it.") from None
    except PermissionError:  # the fourth hostile tester; the engine's command says the same (billing.read_input)
        raise InputError(f"The {what} file {path} cannot be read: permission denied. Ask whoever manages this "
                         "computer to let you read it, or give a copy you may read.") from None
    except OSError as exc:
        raise InputError(f"The {what} file {path} cannot be read ({exc.strerror}). Check the path and that you "
                         "may read it.") from None


def earlier_registers(out: Path, quarter: str) -> list[Path]:
    """The registers of earlier runs beside the output folder: billing/<earlier quarter>/register.csv."""
    found = []
    for folder in sorted(out.parent.glob("*")):
        try:
            name = quarter_name(*parse_quarter(folder.name))
        except InputError:
            continue
        if name < quarter and (folder / "register.csv").is_file():
            found.append(folder / "register.csv")
    return found


#: what a run writes into its folder: a folder holding only these (or nothing) is one a run made
OUTPUTS = ("register.csv", "summary.csv", "arrears.csv", "refused.csv", "bills-en.pdf", "bills-es.pdf", WRITTEN)


def _is_a_run(folder: Path) -> bool:
    """A folder the bill run made: only its outputs, the register starting with the register's header."""
    names = [p.name for p in folder.iterdir()]
    if not names:
        return True
    if not set(names) <= set(OUTPUTS) or "register.csv" not in names:
        return False
    with open(folder / "register.csv", encoding="utf-8") as f:
        return f.readline().rstrip("\n") == ",".join(billing.REGISTER_COLUMNS)


def _not_written_by_a_run(folder: Path) -> list[str]:
    """The files in `folder` that a bill run did not write, which replacing the folder would delete: any
    name the run does not write, a CSV whose first line is not the run's (billing.made_by_a_run), a PDF
    that is not the run's bills (_bills_pdf). The fourth hostile tester's own summary.csv beside a run's
    register was replaced without a word."""
    return sorted(p.name for p in folder.iterdir()
                  if p.name not in OUTPUTS or p.name != WRITTEN and
                  not (_bills_pdf(p) if p.suffix == ".pdf" else billing.made_by_a_run(p)))


def _bills_pdf(path: Path) -> bool:
    """A PDF of bills a run made: a plain file whose title is the bills' title (bills_pdf.TITLE, in either
    language, for a quarter)."""
    import re
    if path.is_symlink() or not path.is_file():
        return False
    if as_written(path) is not None:  # the run's list of what it wrote says
        return as_written(path)
    try:
        import pikepdf
        with pikepdf.open(path) as pdf:
            title = str(pdf.docinfo.get("/Title", ""))
    except Exception:  # noqa: BLE001 - not a PDF pikepdf can read: not one the run wrote
        return False
    from calculator.core.i18n import LANGUAGES
    from ..words.language import page_words
    TITLE = "Sewer bills for {quarter}"  # bills_pdf.TITLE, without importing the PDF maker to check a name
    return any(re.fullmatch(re.escape(page_words(lang).get(TITLE) or TITLE).replace(r"\{quarter\}", r"\d{4}-Q[1-4]"),
                            title) for lang in LANGUAGES)


def check_out(out: Path, inputs: list[Path], quarter: str | None = None) -> None:
    """Refuses an output folder whose replacing would lose or publish something (issue 35): a file; a
    folder the run did not make; the folder of an input file. run() asks the engine's own check first
    (billing.check_out), which refuses anything inside the project but its billing/ folder (the site,
    docs/, rules/, files git tracks) or inside another git repository, where account data would be one
    `git add` from being published: `python -m calculator bills` refuses the same, in the same words."""
    what = "Choose a new folder, like billing/QUARTER/ (ignored by git), or a folder an earlier run made."
    if out.exists() and not out.is_dir():
        raise InputError(f"--out {out} is not a folder: it is {billing.what_is_at(out)}. {what}")
    billing.check_not_inputs(str(out), [str(p) for p in inputs])  # the engine's check, in its words
    foreign = _not_written_by_a_run(out) if out.is_dir() else []
    if foreign:
        shown = ", ".join(foreign[:5]) + (f" and {len(foreign) - 5} more" if len(foreign) > 5 else "")
        raise InputError(f"--out {out} holds files the bill run did not write, or that were changed after it wrote "
                         f"them ({shown}), which replacing it would "
                         f"delete: the run never replaces a file it did not write. Choose a new or empty folder, or "
                         f"move {'that file' if len(foreign) == 1 else 'those files'} out of it.")
    if out.is_dir() and not _is_a_run(out):
        raise InputError(f"--out {out} holds files the bill run did not write, which replacing it would delete. "
                         f"{what}")
    if quarter:  # the second hostile tester: a Q3 run replaced the Q4 run's folder
        billing.check_not_another_quarter(str(out), quarter)


def check_sample_folder(folder: Path) -> None:
    """Refuses a --sample folder whose files the sample would replace, unless they are an earlier sample
    (the second hostile tester: `--sample R` replaced R's real accounts.csv, payments.csv and reads, the
    names the README gives a town's own files), and one inside the project but billing/ (docs/ would be
    refused by the next build)."""
    from .sample import NAMES
    what = "Choose a new or empty folder, like billing/sample/."
    if folder.exists() and not folder.is_dir():
        raise InputError(f"--sample {folder} is a file, not a folder. {what}")
    if folder.is_relative_to(ROOT) and not folder.is_relative_to(ROOT / "billing"):
        raise InputError(f"--sample {folder} is inside the project, which publishes what is in it. {what}")
    if not folder.is_dir() or not any(folder.iterdir()):
        return
    names = {p.name for p in folder.iterdir()} - {WRITTEN}
    run = sorted(n for n in names if n in billing.HEADERS or billing.is_bills_pdf_name(n))
    if run:  # the seventh hostile tester: the sample went in beside a run's register and arrears list, and
        # replaced the run's written.sha256 (its record of its own files)
        raise InputError(f"--sample {folder} holds a bill run's files ({', '.join(run)}), which may be the Town's "
                         f"own: the sample never writes beside them, nor replaces that run's {WRITTEN}. {what}")
    if (folder / WRITTEN).is_file():  # an earlier sample's list of what it wrote: each file still as written
        changed = sorted(n for n in names if not as_written(folder / n))
        if changed:  # (the fifth hostile tester: a real account added to the sample's accounts.csv was lost)
            raise InputError(f"--sample {folder} holds {', '.join(changed)}, which the sample did not write or which "
                             f"was changed after it wrote it, and which the sample would replace. {what}")
        return
    # a sample written before that list: only its names, every account fictional
    rows = (folder / "accounts.csv").read_text(encoding="utf-8", errors="replace").splitlines()[1:] \
        if (folder / "accounts.csv").is_file() else []
    ours = names <= NAMES and rows and all("(fictional)" in row for row in rows if row.strip())
    if not ours:
        raise InputError(f"--sample {folder} already holds files that are not an earlier fictional sample, which "
                         f"the sample would replace. {what}")


def sweep(out: Path) -> None:
    """Removes what an earlier run killed mid-way left beside its folder: its staging folder
    (.QUARTER.xxxx) and the folder it was replacing (.QUARTER.old-PID), each only when it is a run's."""
    if not out.parent.is_dir():
        return
    for folder in out.parent.glob(f".{out.name}.*"):
        if folder.is_dir() and _is_a_run(folder):
            shutil.rmtree(folder, ignore_errors=True)


def run(args) -> tuple[Path, dict]:
    """The run: every output into a temporary folder beside --out, then swapped in."""
    for option in ("quarter", "accounts", "reads"):
        if not getattr(args, option):
            raise InputError(f"Give --{option}. Run `python3 build.py bills --help` for the options.")
    quarter = quarter_name(*parse_quarter(args.quarter))
    if args.out is not None and not args.out.strip():  # the fifth hostile tester: `--out ""` wrote billing/QUARTER/
        raise InputError(f"--out is empty. Give the folder to write the run's files into, or leave out --out for "
                         f"billing/{quarter}/.")
    # what --out names, as given (a link to /dev/full is said to be one: the fourth hostile tester), then
    # where it leads
    billing.check_out(args.out or str(ROOT / "billing" / quarter))
    out = Path(args.out or ROOT / "billing" / quarter).resolve()
    earlier = [Path(p) for p in args.earlier] if args.earlier is not None else earlier_registers(out, quarter)
    check_out(out, [Path(p) for p in (args.accounts, args.reads, args.payments) if p] + earlier, quarter)
    rules = load()
    result = billing.run(rules, quarter, _read(args.accounts, "accounts"), _read(args.reads, "reads"),
                         _read(args.payments, "payments") if args.payments else None,
                         [(f"{p.parent.name}/{p.name}", _read(str(p), "earlier register")[1]) for p in earlier],
                         args.as_of, args.first_quarter)
    result["no_earlier"] = not earlier
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        sweep(out)
        staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    except OSError as exc:  # the fourth hostile tester: a folder that cannot be written ended 74, as if on stdout
        raise _cannot_write(out, exc) from None
    try:
        try:
            for name, text in result["files"].items():
                (staging / name).write_text(text, encoding="utf-8", newline="")
            if not args.no_pdf and result["register"]:
                from .bills_pdf import write_bills
                # the public site's address only: none set, the bills carry no link (never a made-up one)
                site_url = args.site_url or public_address(project_config().get("site_url"))
                result["no_link"] = not site_url
                write_bills(rules, result, staging, site_url)
            written = {p.name: p.read_bytes() for p in staging.iterdir()}
            (staging / WRITTEN).write_bytes(written_list(written))
            os.chmod(staging, 0o755)
        except OSError as exc:  # a full disk, say: the staging folder goes, the last output stays
            raise _cannot_write(out, exc) from None
        # a folder without the run's record of what it wrote: replaced only when each of its files is what this
        # run wrote (the eleventh hostile tester, F9: a note added to arrears.csv there was lost)
        billing.check_unlisted(str(out), {p.name: written.get(p.name) for p in out.iterdir()} if out.is_dir() else {})
        result["pdfs_dropped"] = sorted(p.name for p in out.glob("bills-*.pdf") if not (staging / p.name).exists()) \
            if out.is_dir() else []
        old = out.with_name(f".{out.name}.old-{os.getpid()}")
        try:
            if out.exists():
                os.replace(out, old)
            os.replace(staging, out)
        except OSError as exc:
            if old.exists() and not out.exists():
                os.replace(old, out)  # the last output back where it was
            raise _cannot_write(out, exc) from None
        shutil.rmtree(old, ignore_errors=True)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return out, result


def public_address(site_url: str | None) -> str | None:
    """mkdocs.yml's site_url when it is an address others can open, else None (a bill then has no link)."""
    from urllib.parse import urlsplit
    if not site_url:
        return None
    url = urlsplit(site_url)
    return site_url if url.scheme in ("http", "https") and url.hostname and not own_computer(url.hostname) else None


def _cannot_write(out: Path, exc: OSError) -> InputError:
    return InputError(f"The run's files cannot be written into {out}: {billing.reason_of(exc)}. Choose a folder you "
                      "may write to (--out), or ask whoever manages this computer for access.")


def shown(text: str) -> str:
    """Text from the Town's files as a terminal may print it: control characters (an escape sequence in
    an account id could move the cursor or recolour the screen) written as \\x1b and the like."""
    from calculator.core.errors import for_terminal
    return for_terminal(text)


class Stopped(KeyboardInterrupt):
    """A run stopped by SIGTERM or SIGHUP, as Ctrl-C stops it, with the signal's number: its exit status is
    128 + that number (143, 129), as a shell gives a command a signal ended; 130 is Ctrl-C's alone."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def _stop(signum, frame):
    raise Stopped(signum)  # the run's `finally` removes its staging folder; main says what happened


def main(argv: list[str]) -> int:
    import signal
    # SIGTERM, and SIGHUP when the terminal closes (the second hostile tester: a hang-up left the staging
    # folder), stop the run as Ctrl-C does
    stops = [s for s in (signal.SIGTERM, getattr(signal, "SIGHUP", None)) if s is not None]
    previous = {s: signal.signal(s, _stop) for s in stops
                if s == signal.SIGTERM or signal.getsignal(s) != signal.SIG_IGN}  # nohup keeps its own
    try:
        return _main(argv)
    except KeyboardInterrupt as exc:  # Ctrl-C (SIGINT), or Stopped: the hostile tester saw 130 for SIGTERM
        status = 128 + getattr(exc, "signum", signal.SIGINT)
        print("Stopped before the end: nothing was written, and the last output is as it was.", file=sys.stderr)
        from .bills_pdf import STOPPED
        if STOPPED:  # its staging folder is gone already (the run's `finally`); nothing is left to wait for
            sys.stderr.flush()
            os._exit(status)
        return status
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


def _main(argv: list[str]) -> int:
    try:
        from calculator.cli import once
        once(argv)  # `--quarter 2025-Q3 --quarter 2025-Q4` billed the last without a word (the second hostile tester)
        args = parser().parse_args(argv)
        given = [f"--{name.replace('_', '-')}" for name, value in vars(args).items()
                 if name not in ("sample", "count") and value not in (None, False)]
        if args.sample:  # the hostile tester: the run's options beside --sample were left unused without a word
            from .sample import SMALLEST, write
            if given:
                raise InputError(f"--sample writes the fictional sample and nothing else, so {', '.join(given)} "
                                 f"would not be used. Give --sample (with --count) alone, or the run's options "
                                 "without it.")
            count = 2000 if args.count is None else args.count
            if count < SMALLEST:
                raise InputError(f"--count {count} is too few: the sample has at least {SMALLEST} accounts, one "
                                 "of each kind it shows (a rollover, a refused read, a late payment …).")
            if count > LARGEST:  # the hostile tester: --count 99999999 ran on, unbounded
                raise InputError(f"--count {count} is too many: the sample has at most {LARGEST:,} accounts (the "
                                 f"Town has about 1,000). Give --count {LARGEST} or fewer.")
            check_sample_folder(Path(args.sample).resolve())
            made = not os.path.lexists(args.sample)
            try:
                written = write(args.sample, count)
            except OSError as exc:  # a read-only or full disk (the fifteenth hostile tester, U1): said, and no
                if made:            # empty folder left behind
                    shutil.rmtree(args.sample, ignore_errors=True)
                raise InputError(f"--sample {args.sample}: the sample cannot be written there "
                                 f"({billing.reason_of(exc)}). Choose a folder you may write to, on a disk with "
                                 "space, like billing/sample/.") from None
            return _reported(lambda: [print(path) for path in written], Path(args.sample).resolve(),
                             [p.name for p in written], "the sample")
        if args.count is not None:
            raise InputError("--count is for --sample (how many fictional accounts it makes). A run bills every "
                             "account in --accounts: leave out --count.")
        if args.no_pdf and args.site_url:
            raise InputError("--site-url is the site the PDF bills link to, and --no-pdf makes no PDF bills. Leave "
                             "out one of them.")
        if args.site_url:  # the fourth hostile tester: 'javascript:alert(1)' went into every bill's link
            from calculator.cli import web_address
            web_address(args.site_url)  # as `python -m calculator bills` asks it, in the same words
        if not args.no_pdf and not args.site_url:
            project_config()  # the site's address for the bills' links: its settings read first (hostile14)
        out, result = run(args)
    except InputError as exc:
        print(shown(f"error: {for_command_line(str(exc))} Nothing was written."), file=sys.stderr)
        return 2
    except BuildError as exc:  # mkdocs.yml cannot be read (a quotation mark left open: the fourteenth hostile tester)
        print(shown(f"error: {str(exc).replace(' Nothing was built: the site as it was is kept.', '')} Nothing was "
                    "written."), file=sys.stderr)
        return 2
    except RulesUnreadable as exc:  # a rules file edited so the rules cannot be read: a traceback, before
        problems = " | ".join(line.strip() for line in str(exc).splitlines() if line.strip())
        print(shown(f"error: the rules cannot be read, so no bill was worked out: {problems} Fix that rules file "
                    "(`python3 build.py validate` lists every problem), or undo the change (`git checkout -- rules/`), "
                    "then run again. Nothing was written."), file=sys.stderr)
        return 2
    return _reported(lambda: _report(out, result), out, sorted(p.name for p in out.iterdir() if p.name != WRITTEN),
                     "the run")


def _reported(report, folder: Path, names: list[str], what: str) -> int:
    """0 once the report is printed. The files are whole by now: when the report cannot be printed
    (standard output or error full or closed: the hostile tester's `> /dev/full` exited 74, as if the run
    had failed), say that the files are complete and where, and end with REPORT_LOST (3). A reader gone
    away (`| head`) ends quietly with 141, as every command does (build.py)."""
    from calculator.cli import REPORT_LOST, discard_stdout
    try:
        report()
        for stream in (sys.stdout, sys.stderr):  # (a stream closed before the start is None: 2>&-, hostile15 U4)
            if stream is not None:
                stream.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        discard_stdout()
        try:
            print(shown(f"error: {what} is complete: its files are written whole in {folder} ({', '.join(names)}). "
                        f"Only its report could not be printed ({exc.strerror or exc})."), file=sys.stderr)
        except OSError:  # standard error is full too: the status alone says it
            pass
        return REPORT_LOST
    return 0


def _report(out: Path, result: dict) -> None:
    """What the run did: each refused row, the notes and checks (stderr), then one line (stdout)."""
    for row in result["refused"]:
        print(shown(f"{row['file']}:{row['line']}: {row['account'] or '-'}: {row['what_to_fix']}"), file=sys.stderr)
    if result.get("pdfs_dropped"):  # the second hostile tester: a --no-pdf run dropped them without a word
        print(f"Note: the earlier run's {' and '.join(result['pdfs_dropped'])} in {out} were removed with it: this "
              f"run made none (--no-pdf). Run again without --no-pdf for the bills to print.", file=sys.stderr)
    if result.get("arrears_to_check"):  # the fourth hostile tester: a paid account was listed as unpaid, silently
        accounts = result["arrears_to_check"]
        print(shown(f"Note: arrears.csv marks the lines of {len(accounts)} account{'s' if len(accounts) > 1 else ''} "
                    f"({', '.join(accounts[:5])}{' …' if len(accounts) > 5 else ''}) to check: a payment row of "
                    f"{'each' if len(accounts) > 1 else 'the account'} is refused (above), so what was paid is not "
                    "known. Fix the row and run again before the list goes to the Town Board."), file=sys.stderr)
    for line in result.get("checks", []):
        print(shown(f"Check: {line}"), file=sys.stderr)
    if result.get("already_billed"):  # an earlier run of this quarter's register: its accounts not billed again
        print(shown(f"Note: {result['notices'][-1]}"), file=sys.stderr)
    if result.get("enclose"):  # rate-schedules.D: the notice to users goes with a regular bill (issue 34)
        print(f"Note: {result['enclose']['text']}", file=sys.stderr)
    if result.get("no_earlier"):
        print("Note: the Town's first bill run on this website (--first-quarter): no arrears from earlier quarters "
              "are counted.", file=sys.stderr)
    if result["schedule"].get("status") != "adopted":  # the fourth legal reading: such bills must not be mailed
        print(f"Note: these bills use the {result['schedule'].get('status')} schedule "
              f"{result['schedule'].get('title', '')!r}, not one the Town has adopted: they are not bills to mail.",
              file=sys.stderr)
    if result.get("no_link"):
        print("Note: the PDF bills carry no link to the estimate page: the site's public address is not set. "
              "Give it with --site-url https://… or set site_url in mkdocs.yml, and run again.", file=sys.stderr)
    summary = {s["item"]: s for s in result["summary"]}
    charged = money.dollars(Decimal(summary["accounts billed: total charged this quarter"]["amount"]))
    print(f"Billed {len(result['register'])} accounts for {result['quarter']} into {out}: total charged {charged}."
          + (f" {len(result['refused'])} {'row' if len(result['refused']) == 1 else 'rows'} refused, each listed above and in refused.csv with what to fix."
             if result["refused"] else "")
          + (f" To bill them once fixed: run {result['quarter']} again into a new --out folder with the same files, "
             f"the fixed rows, and --earlier {out}/register.csv beside the other registers: the accounts it billed are "
             "not billed again." if result["refused"] and result["register"] else ""))
