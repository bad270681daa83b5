"""The engine's answers, and every string in one: the one walk the tests that read an answer's
words share (spelling, raw ids, English showing through, provisions named in English).

- `answers(lang)`: every YAML case (tests/cases/*.yaml) answered in a language (a case that
  names another language is left out), refusals included, as the command line gives them.
- `clerk_answers(lang)`: the Clerk's year (`rates propose`, `notice`, `adopt`, `user-notice`,
  `status`) and each of its refusals, in a language, on a copy of rules/.
- `strings(answer, skip)`: (key, string) for every string of an answer, but under the keys in
  `skip` (and a schedule's record, the Clerk's words as typed).
"""
from __future__ import annotations

import copy
import json
import shutil
import tempfile
from pathlib import Path

from casebook import argv_for, load_cases, rules_for

# keys whose values are the law's own English: citations in words, quotations, a step's law's
# `heading` (the provision's own heading, marked lang="en" on the page), and ids and addresses
CITED = frozenset({"where", "quote", "title_as_recorded", "cite", "anchor", "cites", "heading"})
# ... and every other key whose value is not a sentence in the answer's language: ids, addresses,
# file names, a permit question's id
NOT_SENTENCES = CITED | {"id", "url", "command", "file", "path", "name", "question", "next", "lang"}


def strings(answer, skip=NOT_SENTENCES, key=None):
    """(key, string) for every string in an answer, depth first, but those under a key in `skip`
    and a rate schedule's record (`schedule`: the Clerk's title and note as recorded)."""
    if isinstance(answer, dict):
        for k, v in answer.items():
            if k not in skip and not (k == "schedule" and isinstance(v, dict)):
                yield from strings(v, skip, k)
    elif isinstance(answer, list):
        for v in answer:
            yield from strings(v, skip, key)
    elif isinstance(answer, str):
        yield key, answer


def sentences(answer, skip=NOT_SENTENCES):
    """The strings of an answer that are words (one token alone is an id or a figure)."""
    return [text for _key, text in strings(answer, skip) if " " in text.strip()]


def answer(argv: list[str], rules=None):
    """The command's answer as the command line gives it (`run_json`), or, on other rules (a case
    of another reading, the Clerk's copy), as `run` gives it; a refusal as {"error": its words}."""
    from calculator.cli import run, run_json
    from calculator.core.errors import InputError
    if rules is None:
        return json.loads(run_json(argv))
    try:
        return run(argv, rules)
    except InputError as exc:
        return {"error": str(exc)}


def in_language(argv: list[str], lang: str) -> list[str]:
    return argv if "--lang" in argv else [*argv, "--lang", lang]


# Several test files read every answer in a language (spelling, raw ids, quotations, provision
# names); a test process works each walk out once and gives each file its own copy.
_walked: dict = {}


def _once(key, walk):
    if key not in _walked:
        _walked[key] = list(walk())
    return copy.deepcopy(_walked[key])


def answers(lang: str, cases: list[dict] | None = None):
    """(case, argv, answer) for every YAML case answered in `lang` (a case that names another
    language in its input is left out: it is about that language's answer)."""
    def walk():
        for case in load_cases() if cases is None else cases:
            if (case.get("input") or {}).get("lang", lang) != lang:
                continue
            argv = in_language(argv_for(case), lang)
            yield case, argv, answer(argv, rules_for(case) if case.get("readings") else None)
    return walk() if cases is not None else _once(("answers", lang), walk)


SITE = "https://sewer.pawling.example/"
PROPOSE = ["propose", "--fiscal-year", "2028", "--effective", "2028-01-01", "--om-cost", "856791",
           "--sewage-fraction", "0.80",  # the Town's: the example schedule's invented share is not taken (F3)
           "--user-volume-gallons", "70000000", "--proposed-on", "2027-10-01"]
NOTICE = ["notice", "2028", "--published", "2027-11-01", "--meeting", "2027-11-16", "--time", "19:00",
          "--place", "Town Hall, 160 Charles Colman Boulevard"]
ADOPT = ["adopt", "2028", "--date", "2027-11-20", "--recorded-on", "2027-12-31", "--ayes", "3", "--noes", "1", "--absent", "1",
         "--resolution", "2027-41"]
USER_NOTICE = ["user-notice", "2028"]
# (the steps recorded first, the step answered): each step of the year, and a refusal of each guard
CLERK_STEPS = [
    ([], PROPOSE), ([], [*PROPOSE[:5], "--projected-om-cost", "900000", *PROPOSE[7:], "--budgeted-om-cost", "950000"]),
    ([PROPOSE], NOTICE), ([PROPOSE], [*NOTICE, "--body", "joint-sewer-commission"]),
    ([PROPOSE, NOTICE], ADOPT), ([PROPOSE, NOTICE, ADOPT], USER_NOTICE), ([PROPOSE, NOTICE], ["status", "--today", "2027-11-10"]),
    ([], ["user-notice", "2025-illustrative"]),
    ([PROPOSE], [*NOTICE[:4], "--meeting", "2027-11-10", *NOTICE[6:]]),
    ([PROPOSE, NOTICE], ["adopt", "2028", "--date", "2027-11-20", "--recorded-on", "2027-12-31", "--ayes", "2", "--noes", "1", "--absent", "2"]),
    ([PROPOSE, NOTICE], ["adopt", "2028", "--date", "2027-11-10", "--recorded-on", "2027-12-31", "--ayes", "3", "--noes", "0"]),
    ([PROPOSE], ["adopt", "2028", "--date", "2027-11-20", "--recorded-on", "2027-12-31", "--ayes", "3", "--noes", "0"]),
    ([PROPOSE], USER_NOTICE),
    ([], [*PROPOSE, "--projected-om-cost", "900000"]), ([], [*PROPOSE[:5], *PROPOSE[7:]]),
]


def clerk_answers(lang: str):
    """(argv, answer) for each of the Clerk's steps in CLERK_STEPS, in `lang`, each on a fresh
    copy of rules/ with the steps before it recorded by the Clerk's command (kit/clerk/command.py)."""
    return _once(("clerk", lang), lambda: _clerk_answers(lang))


def _clerk_answers(lang: str):
    from kit.clerk import command as clerk
    from kit.rules.validate import RULES_DIR, compile_rules
    with tempfile.TemporaryDirectory() as tmp:
        rules_dir = Path(tmp) / "rules"
        for before, argv in CLERK_STEPS:
            shutil.rmtree(rules_dir, ignore_errors=True)
            shutil.copytree(RULES_DIR, rules_dir)
            for step in before:
                notice = ["--site-url", SITE, "--output-dir", tmp] if step[0] in ("notice", "user-notice") else []
                assert clerk.main([*step, "--rules-dir", str(rules_dir), *notice]) == 0, step
            words = ["rates", *argv, "--site-url", SITE, "--lang", lang]
            yield words, answer(words, compile_rules(rules_dir))
