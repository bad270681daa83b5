"""The Pawling sewer kit's command line.

    python3 build.py                 build site/ from rules/ (a failed build keeps the old site/)
    python3 build.py COMMAND --help  the options of a command
    python3 build.py build --site-url URL   the same, for the address it is published at (else mkdocs.yml's site_url)
    python3 build.py serve [--install] [--port N]   build, then serve at http://127.0.0.1:8000 (or port N)
    python3 build.py test [PYTEST ARGS]  install what the tests need, then run every test
    python3 build.py install [--with-tests]
    python3 build.py validate        check rules/ and the translations (file:line:column: what to change)
    python3 build.py messages        update the translation catalogues (rules/locale/) from the sources
    python3 build.py readability [SITE]  the reading grade of every built page, in each language
    python3 build.py rates …         the Clerk's rate-schedule year (see README)
    python3 build.py bills --quarter Q --accounts A --reads R [--payments P] [--out DIR]   the quarterly bill run
    python3 build.py mutants [--module M] [--survivors] [--fresh] [--report]   mutation-test the engine (slow; not in test)

Any python3 will do: the first run creates the project's environment in .venv/ and
every command runs inside it. The steps themselves live in kit/ (kit/site/build.py: build).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from kit.tools import machine

USAGE = ("Use one of: build, serve, test, install, validate, messages, readability, rates, bills, mutants "
         "(see README.md).")

#: the options of the commands parsed here; rates, bills and mutants parse their own, and test's go to pytest
OPTIONS = {
    "build": "build site/ from rules/ (a failed build keeps the old site/)",
    "serve": "build, then serve the site at http://127.0.0.1:8000 (--port: another port)",
    "install": "install what the kit needs into .venv/",
    "validate": "check rules/ and the translations (file:line:column: what to change)",
    "messages": "update the translation catalogues (rules/locale/) from the sources",
    "readability": "the reading grade of every built page, in each language",
}


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def _print_message(self, message, file=None):
        # argparse drops a write that fails: `--help > /dev/full` ended 0, the help lost (the hostile
        # tester); the failure goes on to _main_writing, which says so (74)
        if message:
            (file or sys.stderr).write(message)

    def error(self, message):  # one line, no usage dump (the hostile tester: `validate --bogus` ran as if asked)
        takes = [a.option_strings[0] + (f" {a.metavar}" if a.metavar else "") if a.option_strings else f"[{a.metavar}]"
                 for a in self._actions if a.dest != "help"]
        command = self.prog.split()[-1]
        print(f"{message[0].upper()}{message[1:]}. " + (
            f"`build.py {command}` takes {', '.join(takes)}: run `python3 build.py {command} --help` for what they do."
            if takes else f"`build.py {command}` takes no options."), file=sys.stderr)
        raise SystemExit(2)


TEST_HELP = """usage: python3 build.py test [PYTEST OPTIONS…]

Runs every test: installs what the tests need first (the Python packages, npm ci, and Debian's chromium when
it is missing), builds the site once for the tests to read, then runs pytest on every core (a worker more than there are cores). Other options go
to pytest, like -k estimate or tests/test_bill_run.py."""
MUTANTS_HELP = """usage: python3 build.py mutants [--module NAME]… [--survivors] [--no-slow] [--fresh] [--report]

Mutation testing of the engine's law logic (mutmut): which changes to the code no test catches.
  --module NAME  only this module (money, penalty, dates, hearing, adoption, vc, bill, industry, arrears)
  --survivors    try the survivors again (after adding tests)
  --no-slow      leave out the last, slowest pass (a survivor is then "not yet run with all")
  --fresh        start over, forgetting the mutants already tried
  --report       only report from the last run"""


def _port(text: str) -> int:
    if not (text.isascii() and text.isdigit() and 1 <= int(text) <= 65535):
        raise argparse.ArgumentTypeError(f"--port {text!r} is not a port: give a whole number from 1 to 65535, "
                                         "like 8001")
    return int(text)


def options(command: str, rest: list[str]) -> argparse.Namespace:
    """The options of a command parsed here; an unknown one is refused (SystemExit 2), --help shows them."""
    p = _Parser(prog=f"build.py {command}", description=OPTIONS[command][0].upper() + OPTIONS[command][1:] + ".")
    if command in ("build", "serve"):
        p.add_argument("--site-url", nargs="?", const="", metavar="URL",
                       help="the address the site is published at (default: mkdocs.yml's site_url)")
        p.add_argument("--install", action="store_true", help="install what the kit needs first")
    if command == "serve":
        p.add_argument("--port", type=_port, default=8000, metavar="N",
                       help="the port to serve at (default: 8000), when another program uses 8000")
    if command == "install":
        p.add_argument("--with-tests", action="store_true", help="also what the tests need")
    if command == "readability":
        p.add_argument("site", nargs="?", metavar="SITE", help="the built site (default: site/)")
    # an option given twice is refused, as in every other step (the eighth hostile tester, F6:
    # `--site-url A --site-url B` built with A, the address printed in newspaper notices, without a word)
    named = [a.split("=", 1)[0] for a in rest if a.startswith("--") and len(a) > 2]
    for name in dict.fromkeys(named):
        if named.count(name) > 1:
            print(f"`{name}` is given {named.count(name)} times, so which one is meant is not clear. Give it once.",
                  file=sys.stderr)
            raise SystemExit(2)
    return p.parse_args(rest)


def main(argv: list[str]) -> int:
    command, rest = (argv[0], argv[1:]) if argv else ("build", [])
    if command in ("-h", "--help", "help"):
        print(__doc__.strip())
        return 0
    if command not in ("build", "serve", "test", "install", "validate", "messages", "readability", "rates",
                       "bills", "mutants"):
        print(f"Unknown command {command!r}. {USAGE}", file=sys.stderr)
        return 2
    port = 8000
    if command in OPTIONS:
        try:
            given = options(command, rest)
            port = getattr(given, "port", 8000)
        except SystemExit as exc:  # --help shown (0), or an option refused (2)
            return exc.code if isinstance(exc.code, int) else 0
        if command == "readability":
            rest = [given.site] if given.site else []
        elif command in ("validate", "messages"):
            rest = []
    # help first, before anything is installed or built (the twelfth hostile tester: `test --help` ran npm ci,
    # installed packages and built the site before printing pytest's help; `mutants --help` ended 2)
    if command in ("test", "mutants") and any(a in ("-h", "--help") for a in rest):
        print(TEST_HELP if command == "test" else MUTANTS_HELP)
        return 0
    machine.ensure_venv()  # from here on, this is .venv's Python
    if command == "test":
        return machine.test(rest)
    if command == "install" or "--install" in rest:
        machine.install(with_tests="--with-tests" in rest)
        if command == "install":
            return 0
    needs = machine.missing(site=command in ("build", "serve"))
    if needs:
        what = " and ".join(needs)
        # "packages" is plural on its own: "The kit's Python packages is not installed yet" (hostile11 N4)
        plural = len(needs) > 1 or needs[0].split(",")[0].split("(")[0].strip().endswith("s")
        print(f"{what[0].upper()}{what[1:]} {'are' if plural else 'is'} not installed yet. Run "
              "`python3 build.py install` first (or `python3 build.py serve --install`).",
              file=sys.stderr)
        return 1
    if command == "rates":
        from kit.clerk.command import main as rates
        return rates(rest)
    if command == "bills":
        from kit.billrun.command import main as bills
        return bills(rest)
    if command == "mutants":
        from kit.tools.mutants import main as mutants
        return mutants(rest)
    if command == "validate":
        from kit.rules.config import BuildError, project_config
        from kit.privacy import source_problems
        from kit.words.messages import main as validate
        try:  # the site's settings first: the translations read them (hostile14: a quote left open, a traceback)
            project_config()
        except BuildError as exc:
            print(f"The settings have 1 problem. Fix it, then run `python3 build.py validate` again:\n  {exc}",
                  file=sys.stderr)
            return 1
        # the sources read for account data, comments included (the twelfth hostile tester, F3)
        return validate(rest, more=lambda: source_problems(Path(__file__).resolve().parent))
    if command == "messages":
        from kit.rules.config import BuildError, project_config
        from kit.words.messages import update_main
        try:  # (its titles are read from the site's settings)
            project_config()
        except BuildError as exc:
            print(f"Not updating the catalogues: {exc}", file=sys.stderr)
            return 2
        return update_main(rest)
    if command == "readability":
        from kit.tools.readability import main as readability
        return readability(rest)
    site_url = _site_url(rest)
    if site_url == "":
        return 2
    from kit.site import build as site
    server = None
    if command == "serve":  # the port first: a busy one is said before the build, not after it
        server = site.serve_or_report(port=port)
        if server is None:
            return 1
    # `serve` builds a preview for this computer: its own address is allowed there, never in `build`
    if not site.build_or_report(site_url=site_url, preview=command == "serve"):
        return 1
    if server is not None:
        site.serve_forever(server=server)
    return 0


def _site_url(rest: list[str]) -> str | None:
    """`--site-url URL` (or `--site-url=URL`): None when not given; "" (after saying what to
    write) when it is not a web address."""
    given = [a.split("=", 1)[1] for a in rest if a.startswith("--site-url=")]
    if "--site-url" in rest:
        i = rest.index("--site-url")
        given.append(rest[i + 1] if i + 1 < len(rest) else "")
    if not given:
        return None
    from kit.rules.config import plain_web_address
    url = given[-1].strip()
    if not plain_web_address(url):  # not http(s), or with quotes, <, >, spaces that pages would carry
        print(f"--site-url {url!r} is not a web address. Give the address the site is published at, "
              "like https://OWNER.github.io/REPO/.", file=sys.stderr)
        return ""
    return url


def _main_writing(argv: list[str]) -> int:
    """main, and what it prints: a full disk or a reader gone away (`build.py > /dev/full`, `… | head`)
    ends with a one-line message and exit 74, not a traceback (the second hostile tester). What the
    command wrote to files is already whole (every file is written atomically)."""
    import os
    if sys.stdout is None or sys.stdout.closed:  # `build.py >&-` (the fourth hostile tester: a traceback)
        print("error: standard output is closed, so build.py cannot say what it does. Nothing was done. Run it "
              "again with its output going to the terminal, a file or /dev/null.", file=sys.stderr)
        return 74
    # a terminal or a pipe in an encoding without every character the kit prints (PYTHONIOENCODING=latin-1 or
    # ascii: a UnicodeEncodeError traceback from `rates propose`, the twelfth hostile tester, after the rules' files
    # were written): what it cannot show is written as \u2013 and the like, as the engine's command line does
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(errors="backslashreplace")
        except (AttributeError, ValueError, OSError):  # not a text stream that can be reconfigured: left as it is
            pass
    try:
        status = main(argv)
        sys.stdout.flush()
        return status
    except KeyboardInterrupt:  # Ctrl-C: a line, not a traceback; every file is written whole or not at all
        print("\nStopped (Ctrl-C). Nothing was left half-written; a build in progress left site/ as it was.",
              file=sys.stderr)
        return 130
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except OSError as exc:
        if exc.errno is None or sys.stdout is None:
            raise
        if exc.filename and str(exc.filename) not in ("<stdout>", "/dev/stdout"):
            # a file the command writes, not its report (the seventeenth hostile tester, F2: a build on a full disk
            # said only "the output could not be written", as if standard output were full)
            print(f"error: {exc.filename} could not be written ({exc.strerror}). Nothing was changed: a build keeps "
                  "site/ as it was, and the catalogues and records are written whole or not at all. Free some space, "
                  "or make the folder writable, and run the command again.", file=sys.stderr)
            return 2
        try:  # what could not be printed goes nowhere; say so where it can be read
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            # the command's files, if it writes any, were written whole before its report (the fifteenth hostile
            # tester, U3: `rates propose > /dev/full` said this, and its proposal was written)
            writes = argv[:1] == ["rates"] and not {"-h", "--help"} & set(argv) and "status" not in argv[1:2]
            print(f"error: the output could not be written ({exc.strerror})."
                  + (" The step's files were written whole before its report: `git status` shows those under rules/. "
                     "Run it again with its output going to the terminal or a file to read the report." if writes
                     else ""), file=sys.stderr)
        except OSError:
            pass
        return 74


if __name__ == "__main__":
    sys.exit(_main_writing(sys.argv[1:]))
