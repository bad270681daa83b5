"""Spelling the Spanish a reader sees: hunspell with Debian's Spanish dictionary (es_US,
from the `hunspell-es` package) and the project's own word list
(rules/locale/es/words.txt: the law's terms, imperatives with attached pronouns, proper
nouns). One hunspell run for a whole batch of text, never one per word.

What is not Spanish is not spell-checked: text marked lang="en" (left out by
english.visible_text), code and ids (`prohibited-acts.F`, file names, addresses), figures,
and a quotation of the law's English inside a Spanish sentence ("billed in advance"): a
quoted phrase none of whose words is Spanish."""
from __future__ import annotations

import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORDS = ROOT / "rules" / "locale" / "es" / "words.txt"
DICTIONARY = "es_US"
#: not words: web and mail addresses, paths and file names, ids with a dot or a hyphen
#: between letters and figures (rents.F, prohibited-acts.G, 2025-illustrative), figures
NOT_WORDS = re.compile(r"""`[^`]*`|\#[A-Za-z][\w-]*|https?://\S+|\S+@\S+|--[a-z-]+|\b[A-Za-z]\b|\b[IVX]+\b|\S*[/\\]\S*|\b[\w-]+\.(?:yaml|json|pdf|ics|xml|html|md|py|js)\b
                           |\b[a-z0-9]+(?:-[a-z0-9]+)*(?:\.[A-Za-z0-9]+)+(?:\(\d+\))*|\b[\w-]*\d[\w-]*""", re.X)
#: a quotation, or words in brackets: where a Spanish sentence quotes the law's English
#: ("billed in advance") or gives a name's English original (General Construction Law)
QUOTED = re.compile(r"[\"“']([^\"“”']{1,1000})[\"”']")
BRACKETED = re.compile(r"\(([^()]{1,120})\)")
WORD = re.compile(r"[A-Za-zÁÉÍÓÚÜÑáéíóúüñ]+(?:['’][A-Za-z]+)?")


def unknown(words: list[str]) -> set[str]:
    """The words hunspell does not know, in one run for the whole list."""
    if not words:
        return set()
    if not (shutil.which("hunspell") and Path(f"/usr/share/hunspell/{DICTIONARY}.dic").exists()):
        import pytest
        pytest.fail("hunspell or its Spanish dictionary is missing: `python3 build.py test` installs them "
                    "(apt-get install hunspell hunspell-es).")
    out = subprocess.run(["hunspell", "-d", DICTIONARY, "-p", str(WORDS), "-l", "-i", "utf-8"],
                         input="\n".join(sorted(set(words))), capture_output=True, text=True, check=True)
    return set(out.stdout.split())


def words_of(text: str) -> list[str]:
    return WORD.findall(NOT_WORDS.sub(" ", text))


def not_spanish_names() -> set[str]:
    """Ids and the law's own names, which stay as they are in every language: the law's
    provision ids (domestic-sewage, prohibited-acts.F) and its provisions as a reader
    names them ("Permits A (Application for permit)", marked lang="en" on a page, not
    markable in a PDF's text or an answer's), the readings' ids and their options' keys."""
    import yaml

    from calculator.core.law import citation
    from calculator.core.rules import load
    rules = load()
    found = {citation(rules, p["id"]) for p in rules["provisions"]}
    for reading in rules["interpretations"].values():
        found |= {reading["id"], *reading["options"]}
    law = yaml.safe_load((ROOT / "rules" / "law.yaml").read_text(encoding="utf-8"))

    def walk(node):
        if isinstance(node, dict):
            if isinstance(node.get("id"), str):
                found.add(node["id"])
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
    walk(law)
    return {name for name in found if name}


def without_english_quotes(texts: dict[str, str]) -> dict[str, str]:
    """Each text without its quotations of the law's English and English names in
    brackets: a quoted or bracketed phrase most of whose words hunspell does not know as
    Spanish (a third or more of them); and without ids and the law's names. (One hunspell run for all of them.)"""
    ids = re.compile(r"(?<![\w.-])(?:" + "|".join(map(re.escape, sorted(not_spanish_names(), key=len, reverse=True)))
                     + r")(?![\w-])")
    texts = {where: ids.sub(" ", t) for where, t in texts.items()}
    for pattern in (QUOTED, BRACKETED):  # quotations first: a bracket may hold one
        quotes = {m.group(1) for t in texts.values() for m in pattern.finditer(t)}
        strange = unknown([w for q in quotes for w in words_of(q)])
        english = {q for q in quotes if words_of(q) and 3 * sum(w in strange for w in words_of(q)) >= len(words_of(q))}
        texts = {where: pattern.sub(lambda m: " " if m.group(1) in english else m.group(0), t)
                 for where, t in texts.items()}
    return texts


def unknown_words(texts: dict[str, str]) -> dict[str, Counter]:
    """{where: Counter(unknown word: times)} for every text that has any."""
    texts = without_english_quotes(texts)
    per_text = {where: words_of(t) for where, t in texts.items()}
    strange = unknown([w for ws in per_text.values() for w in ws])
    found = {where: Counter(w for w in ws if w in strange) for where, ws in per_text.items()}
    return {where: c for where, c in found.items() if c}


def pdf_text(path: Path) -> str:
    """A PDF's text and its fields' tooltips (what a screen reader reads for each field)."""
    from pypdf import PdfReader
    reader = PdfReader(path)
    parts = [page.extract_text() or "" for page in reader.pages]
    for field in (reader.get_fields() or {}).values():
        if field.get("/TU"):
            parts.append(str(field["/TU"]))
    return "\n".join(parts)
