"""No sentence a person reads names a provision, a reading or a choice by its id (issue 22):
"Why: domestic-sewage lets …", "Another reading (needs-approval): …", "as rents.D allows".
A provision is named in words ("Domestic sewage only", "Sewer rents D": the pages' `named`
filter, the engine's law.citation), a reading by what it says. Ids may stay where a person
does not read them as words: addresses (/law/#rents-f), attributes, code, file names.
Checked on every page of the built site, in English and in Spanish, and on every engine
answer of the YAML cases in both languages."""
import re

import pytest
import yaml

from answers import answers, sentences
from english import visible_text
from kit.rules.validate import RULES_DIR


def rule_ids() -> set[str]:
    """Every id in rules/ that a reader could not take for a word: the law's provisions, the
    readings and their options, the permit checker's questions, choices and outcomes, each with
    a dot or a hyphen (an id like `purpose` or `rounding` is also an ordinary word)."""
    ids: set[str] = set()

    def walk(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "id" and isinstance(value, str):
                    ids.add(value)
                if key == "options" and isinstance(value, dict):
                    ids.update(value)
                if key == "value" and isinstance(value, str):  # a choice of the checker
                    ids.add(value)
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    for path in [RULES_DIR / "law.yaml", RULES_DIR / "permits.yaml", *sorted((RULES_DIR / "interpretations").glob("*.yaml"))]:
        walk(yaml.safe_load(path.read_text(encoding="utf-8")))
        if path.parent.name == "interpretations":
            ids.add(path.stem)
    return {i for i in ids if re.fullmatch(r"[a-z0-9]+(?:[.-][A-Za-z0-9]+)+", i)}


IDS = rule_ids()
# an id standing alone: not inside an address, a file name or a longer id ("rents.F.1", "#rents-f")
RAW_ID = re.compile(r"(?<![\w./#{-])(" + "|".join(map(re.escape, sorted(IDS, key=len, reverse=True)))
                    + r")(?![\w-]|\.[A-Za-z0-9])")


def raw_ids(text: str) -> list[str]:
    """Each raw id in a text, with a little of the sentence around it."""
    return [text[max(0, m.start() - 40):m.end() + 30].replace("\n", " ") for m in RAW_ID.finditer(text)]


def test_the_finder_knows_the_ids_and_leaves_names_and_addresses():
    assert {"domestic-sewage", "rents.F", "prohibited-acts.I", "stormwater-connection", "needs-approval",
            "permits.C.1"} <= IDS
    assert len(raw_ids("Por qué: domestic-sewage permite … (rents.F, rents.H). Otra interpretación (needs-approval):")) == 4
    assert raw_ids("rents.D allows it") and raw_ids("as the Town reads rate-schedules.B.")
    # names in words, addresses and longer ids are not raw ids
    assert raw_ids("Sewer rents F; Domestic sewage only; see /law/#rents-f or law/index.html#prohibited-acts-i") == []
    assert raw_ids("permits.C.1 is one id") == ["permits.C.1 is one id"]


def test_no_sentence_on_any_page_names_a_rule_by_its_id(built_site):
    pages = sorted(built_site.rglob("*.html"))
    assert any(p.parts[-3:-1] == ("es", "permit") for p in pages) and len(pages) >= 20
    found = {}
    for page in pages:
        # every word a person reads or hears, English-marked words too; not code (a file name set as code)
        hits = raw_ids(visible_text(page.read_text(encoding="utf-8"), skip_english=False, skip_code=True))
        if hits:
            found[page.relative_to(built_site).as_posix()] = hits
    assert not found, "\n".join(f"{where}: {' | '.join(h[:3])}" for where, h in sorted(found.items()))


@pytest.mark.parametrize("lang", ["en", "es"])
def test_no_engine_answer_names_a_rule_by_its_id(lang):
    found, read = {}, 0
    for case, _argv, answer in answers(lang):
        text = "\n".join(sentences(answer))
        read += len(text)
        if raw_ids(text):
            found[case["name"]] = raw_ids(text)
    assert read > 50_000
    assert not found, "\n".join(f"{name}: {' | '.join(h[:3])}" for name, h in sorted(found.items()))
