"""The Town Clerk's yearly rate-schedule workflow (rents.D, rate-schedules.A-D), in a terminal.

    propose      compute VC from the year's costs: rules/rate-schedules/<Y>/proposal.yaml
    notice       check the meeting date, record the notice (notice.yaml), write the newspaper notice (text and PDF)
    adopt        check the notice and the vote, record the vote (vote.yaml): the schedule is adopted
    user-notice  the yearly notice that goes out with a regular bill (text, HTML and PDF)
    status       where each fiscal year stands, with its deadlines (writes nothing)

`python build.py rates ARGS…` calls `main(ARGS)`; `python -m kit.clerk.command ARGS…` does the same.

A thin wrapper round the engine's steps (calculator/rates/rate_year.py), which the Clerk's desk
(/clerk/) runs in the browser: the same checks, the same messages, the same file texts. Here,
in CPython, the kit adds what only it can do: it validates the whole rules tree first, validates
the tree as it would be with the step's files (kit.rules.validate), writes the files atomically and
makes the notices' PDFs (kit.documents.pdf). Every refusal is one line on stderr, exit code 2, and nothing
written; it lists every problem found, each field named by its option. The site's address comes
from --site-url, else from mkdocs.yml (kit/rules/config.py).
"""
from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import shutil
import sys
import tempfile
from pathlib import Path

from calculator.cli import once
from calculator.core.dates import long
from calculator.rates import rate_year
from calculator.core.errors import InputError
from calculator.core.files import write_all_atomic

from ..rules.config import project_config
from .notices import ClerkError
from ..documents.pdf import html_pdf_bytes, pdf_bytes
from ..rules.validate import RULES_DIR, RuleError, compile_rules


def _compile(rules_dir: Path) -> dict:
    if not (rules_dir / "law.yaml").exists():
        raise ClerkError(f"There are no rules in {rules_dir} (no law.yaml). Give --rules-dir the folder that holds law.yaml.")
    try:
        return compile_rules(rules_dir)
    except RuleError as exc:
        raise ClerkError("The rules have problems; fix them first, nothing was written: " + " | ".join(exc.problems))


def _under_rules(path: str) -> str:
    """rules/rate-schedules/2027/notice.yaml -> rate-schedules/2027/notice.yaml"""
    return path.split("/", 1)[1]


def _candidate(rules_dir: Path, changes: dict[str, str], removes: list[str] = ()) -> dict:
    """Compile the rules as they would be with these files (path under rules/ -> text) changed and
    these removed, in a temporary copy, so a change that breaks the build is refused before anything
    is written."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / rules_dir.name
        shutil.copytree(rules_dir, copy)
        for rel in removes:
            (copy / rel).unlink(missing_ok=True)
        for rel, text in changes.items():
            (copy / rel).parent.mkdir(parents=True, exist_ok=True)
            (copy / rel).write_text(text, encoding="utf-8")
        try:
            return compile_rules(copy)
        except RuleError as exc:
            problems = " | ".join(p.replace(str(copy), str(rules_dir)) for p in exc.problems)
            raise ClerkError(f"That change would break the rules, so nothing was written: {problems}")


def _output_dir(rules_dir: Path, given: str | None) -> Path:
    out = Path(given) if given else rules_dir.resolve().parent / rate_year.NOTICES
    if out.exists() and not out.is_dir():
        raise ClerkError(f"{out} is a file, not a folder; give --output-dir a folder.")
    return out


#: beside the notices: the SHA-256 of each notice as the kit last wrote it, so a notice the Clerk has
#: edited since is not written over (the hostile tester, H17)
WRITTEN = ".written-by-the-kit.json"


def _edited(out: Path, files: list[tuple[str, bytes]], force: bool) -> bytes:
    """Refuses, unless --force, to write over a notice that is not as the kit last wrote it (edited by hand,
    or never written by the kit); the record of what this step writes, as bytes to write."""
    try:
        record = json.loads((out / WRITTEN).read_text(encoding="utf-8"))
        record = record if isinstance(record, dict) else {}
    except (OSError, ValueError):
        record = {}
    changed = []
    for name, data in files:
        path = out / name
        if path.is_file():
            now = hashlib.sha256(path.read_bytes()).hexdigest()
            if now != record.get(name) and path.read_bytes() != data:
                changed.append(str(path))
    if changed and not force:
        raise ClerkError(f"{' and '.join(changed)} {'have' if len(changed) > 1 else 'has'} changed since the kit "
                         f"wrote {'them' if len(changed) > 1 else 'it'} (edited by hand?), so nothing was written: "
                         f"move {'them' if len(changed) > 1 else 'it'} elsewhere to keep the changes, or add --force "
                         f"to write over {'them' if len(changed) > 1 else 'it'}.")
    record.update({name: hashlib.sha256(data).hexdigest() for name, data in files})
    return (json.dumps(record, indent=1, sort_keys=True) + "\n").encode("utf-8")


def run(args) -> list[str]:
    """One step: the engine decides and makes the texts; the kit checks the result and writes it."""
    rules_dir = Path(args.rules_dir)
    rules = _compile(rules_dir)
    site_url = getattr(args, "site_url", None) or project_config(rules_dir)["site_url"]
    result = rate_year.run(rules, args, site_url)
    if args.step == "user-notice":  # it goes out with a regular bill, which goes out in Spanish too (issue 34, M3)
        result = _with_translations(result, rules, args, site_url)
    records = {_under_rules(f["path"]): f["text"] for f in result["files"] if f["rules"]}
    # never remove a file this step writes (H16: with --rules-dir, proposing again removed the new proposal)
    removes = [r for r in map(_under_rules, result["removes"]) if r not in records]
    if records or removes:
        _candidate(rules_dir, records, removes)

    writes: list[tuple[Path, bytes]] = []
    notices = [f for f in result["files"] if not f["rules"]]
    if notices:
        out = _output_dir(rules_dir, getattr(args, "output_dir", None))
        texts = {f["path"]: f["text"] for f in notices}
        writes += [(out / f["name"], f["text"].encode("utf-8")) for f in notices]
        for pdf in [result["pdf"], *result.get("pdfs", [])]:
            source = texts[pdf["from"]]
            lang = pdf.get("lang", "en-US")
            data = (html_pdf_bytes(source, pdf["title"], lang) if pdf["from"].endswith(".html")  # the headings and list as the page has them
                    else pdf_bytes(source, pdf["title"], lang))
            writes.append((out / pdf["name"], data))
        kept = _edited(out, [(path.name, data) for path, data in writes], getattr(args, "force", False))
        writes.append((out / WRITTEN, kept))
    writes += [(rules_dir / rel, text.encode("utf-8")) for rel, text in records.items()]
    # every file of the step together, or none (the fifteenth hostile tester, D1: on a full disk the newspaper
    # notice's text was replaced and its PDF and record were not, so the two named different meetings)
    write_all_atomic({path: data for path, data in writes})
    for rel in removes:
        (rules_dir / rel).unlink(missing_ok=True)
    wrote = [str(p) for p, _ in writes if p.name != WRITTEN]
    report = [_in_folder(rate_year.for_cli(line), rules_dir) for line in result["report"]]
    if notices and getattr(args, "output_dir", None):  # where they went, not the default folder (hostile16, U3)
        report = [line.replace(f"{rate_year.NOTICES}/", f"{out}/") for line in report]
    if not wrote and not removes:  # `status` only reports
        return report
    recorded = getattr(args, "recorded_on", None) if args.step == "adopt" else None
    if recorded and recorded.strip() > dt.date.today().isoformat():  # (the engine has checked it is a date)
        # the hostile tester (H12): a vote dated weeks ahead went in on --recorded-on without a word
        vote = rules_dir / "rate-schedules" / str(args.schedule).strip() / rate_year.RECORDS["adopt"]
        report.append(f"Note: recorded as of {long(dt.date.fromisoformat(recorded.strip()))}, after this computer's "
                      f"date, {long(dt.date.today())}. --recorded-on is for a computer whose date is wrong; if it is "
                      f"right, the vote has not been held yet: remove {vote}.")
    return [*report, "", f"Wrote {', '.join(wrote)}."
            + (f" Removed {', '.join(str(rules_dir / r) for r in removes)}." if removes else "")]


#: the languages' names, in English (the Clerk's steps report in English)
NAMES = {"es": "Spanish"}


def _with_translations(result: dict, rules: dict, args, site_url: str | None) -> dict:
    """The notice to users in every language the site speaks, beside the English: user-notice-2027-es.txt, .html
    and .pdf (the desk makes the same: assets/clerk.js)."""
    from calculator.core.i18n import LANGUAGES, SOURCE, localized, speaking
    result = dict(result, files=list(result["files"]), pdfs=[], report=list(result["report"]))
    for language in (lang for lang in LANGUAGES if lang != SOURCE):
        with speaking(language):
            other = rate_year.run(localized(rules), args, site_url)
        named = {}
        for f in other["files"]:
            stem, dot, ext = f["name"].rpartition(".")
            name = f"{stem}-{language}.{ext}"
            named[f["path"]] = f["path"][: -len(f["name"])] + name
            result["files"].append(dict(f, name=name, path=named[f["path"]]))
        pdf = other["pdf"]
        stem = pdf["name"].rpartition(".")[0]
        result["pdfs"].append(dict(pdf, name=f"{stem}-{language}.pdf", **{"from": named[pdf["from"]]},
                                   lang={"es": "es-US"}.get(language, language)))
        first = next(iter(named.values()))
        result["report"].append(f"The same notice in {NAMES.get(language, language)}, for the bills that go out in "
                                f"{NAMES.get(language, language)}: {first.rpartition('.')[0]}.txt, .html and .pdf.")
    return result


def _in_folder(line: str, rules_dir: Path) -> str:
    """The engine names the records under rules/; with --rules-dir they are in that folder, named as the
    rules check names it (rc/rate-schedules/…, the same words as the desk's for a folder called rules)."""
    return line.replace(rate_year.SCHEDULES + "/", f"{rules_dir.resolve().name}/rate-schedules/")


# ---- the command line ---------------------------------------------------------------------------------

class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs):  # `--water-gal` is not `--water-gallons` (the third hostile tester:
        kwargs.setdefault("allow_abbrev", False)  # a shortened option slipped past the "given twice" check)
        super().__init__(*args, **kwargs)

    def _print_message(self, message, file=None):
        # argparse drops a write that fails: `--help > /dev/full` ended 0, the help lost (the hostile
        # tester); the failure goes on to build.py, which says so (74)
        if message:
            (file or sys.stderr).write(message)

    def error(self, message):  # one line, no usage dump
        raise ClerkError(f"{message[0].upper()}{message[1:]}. Run `python build.py rates "
                         f"{self.prog.split()[-1] + ' ' if ' ' in self.prog else ''}--help` for the options.")


def parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--rules-dir", default=str(RULES_DIR), help="the rules/ folder (default: this repository's)")
    p = _Parser(prog="rates", description="The Town Clerk's yearly rate schedule: propose, notice, adopt, user-notice. "
                                          "The same steps as the Clerk's desk on the site (/clerk/).")
    steps = rate_year.add_steps(p.add_subparsers(dest="step", required=True, parser_class=_Parser), parents=[common])
    for name in ("notice", "user-notice"):
        steps[name].add_argument("--force", action="store_true",
                                 help="write over a notice changed since the kit wrote it (by default refused)")
        steps[name].add_argument("--output-dir", help="where to write the notice (default: notices-out/ beside rules/)")
        steps[name].add_argument("--site-url", help="the site's address, which the notice names "
                                                    "(default: site_url in mkdocs.yml)")
    return p


def main(argv: list[str] | None = None) -> int:
    """Run one step; 0 when done, 2 with a one-line message on stderr when refused (nothing written)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        once(argv)  # `--ayes 3 --ayes 5` took the last without a word (the hostile tester, H10), as `bills` refuses
        args, extras = parser().parse_known_args(argv)  # (--help that cannot be written goes on to build.py: 74)
        if extras:  # named with the step's own help, whose options they are not (the seventeenth hostile tester, F3)
            raise ClerkError(f"Unrecognized arguments: {' '.join(extras)}. Run `python build.py rates {args.step} "
                             "--help` for the options.")
    except SystemExit as exc:  # --help
        return 0 if exc.code in (0, None) else 2
    except InputError as exc:
        return _refused(exc)
    try:
        lines = run(args)
    except InputError as exc:
        return _refused(exc)
    except OSError as exc:
        print(f"error: could not write {exc.filename or ''}: {exc.strerror or exc}. Nothing was written: free some "
              "space, or choose a folder you may write to, and run the step again.", file=sys.stderr)
        return 2
    print("\n".join(lines))
    return 0


def _refused(exc: InputError) -> int:
    # its fields and steps named as this command names them (⟦step:propose⟧: `propose`)
    print(f"error: {' '.join(rate_year.provision_words(rate_year.for_cli(str(exc))).split())}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
