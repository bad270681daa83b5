"""The Spanish a reader meets is spelled right (issue 22): every /es/ page, every Spanish
PDF (its text and its fields' tooltips) and every Spanish engine answer of the YAML cases,
spell-checked with hunspell and Debian's Spanish dictionary (`hunspell-es`, installed for
the tests by kit/tools/machine.py) plus the project's word list, rules/locale/es/words.txt.
Each check runs hunspell once for all its text. A word the dictionary lacks but that is
right (a term of the law, an imperative with its pronoun, a name) goes in the word list;
English goes in lang="en" (or into Spanish)."""
from pathlib import Path

from answers import answers, sentences
from english import english_sentences, visible_text
from spelling import WORDS, pdf_text, unknown, unknown_words, without_english_quotes


def report(found: dict) -> str:
    total = sum(sum(c.values()) for c in found.values())
    lines = [f"{total} unknown words (add a right word to {WORDS.relative_to(WORDS.parents[3])}; "
             f"put English in Spanish or mark it lang=\"en\"):"]
    lines += [f"  {where}: {', '.join(f'{w} ×{n}' if n > 1 else w for w, n in c.most_common(12))}"
              for where, c in sorted(found.items())]
    return "\n".join(lines)


def test_the_checker_finds_a_misspelling_and_knows_the_projects_words():
    assert unknown(["alcantarillado", "recargo", "trimestre"]) == set()
    assert unknown(["alcantarilado", "sewer"]) == {"alcantarilado", "sewer"}
    assert unknown(["pretratamiento", "Desconéctela"]) == set()  # from the project's word list
    found = unknown_words({"a": 'La ley dice "billed in advance" (facturada por adelantado); rents.F, 2025-illustrative.',
                           "b": "El recargo se aplica the next day."})
    assert list(found) == ["b"] and set(found["b"]) == {"the", "next", "day"}


def test_every_spanish_page_is_spelled_right(built_site):
    pages = sorted((built_site / "es").rglob("*.html"))
    assert len(pages) >= 9
    found = unknown_words({p.relative_to(built_site).as_posix():
                           visible_text(p.read_text(encoding="utf-8"), skip_code=True) for p in pages})
    assert not found, report(found)


def test_every_spanish_pdf_is_spelled_right_and_in_spanish(built_site):
    pdfs = sorted((built_site / "es").rglob("*.pdf"))
    assert any(p.name == "application.pdf" for p in pdfs)
    texts = {p.relative_to(built_site).as_posix(): pdf_text(p) for p in pdfs}
    assert all(texts.values())
    # English outside the law's quoted words (a PDF's text keeps no lang="en" to tell them by)
    unquoted = without_english_quotes(texts)
    english = {where: english_sentences(t)[:3] for where, t in unquoted.items() if english_sentences(t)}
    assert not english, english
    found = unknown_words(texts)
    assert not found, report(found)


def test_every_spanish_answer_of_the_cases_is_spelled_right():
    # what the person typed, echoed back «as typed» (calculator.core.dates.typed), is theirs, not the page's
    # Spanish ("twelve thousand"): left out, as the law's English in “…” is
    texts = {case["name"]: _without_typed("\n".join(sentences(answer)), argv) for case, argv, answer in answers("es")}
    assert len(texts) >= 50 and sum(map(len, texts.values())) > 50_000
    found = unknown_words(texts)
    assert not found, report(found)


def _without_typed(text: str, argv: list[str]) -> str:
    for value in {a.partition("=")[2] or a for a in argv if not a.startswith("--") or "=" in a}:
        text = text.replace(f"«{value}»", " ")
    return text


def test_the_word_list_is_sorted_and_has_no_english():
    words = [w for w in Path(WORDS).read_text(encoding="utf-8").splitlines() if w and not w.startswith("#")]
    assert words == sorted(set(words), key=str.lower), "keep rules/locale/es/words.txt sorted, one word a line"
    assert not {"the", "and", "of", "sewer", "permit"} & {w.lower() for w in words}


def test_what_a_screen_reader_says_on_a_spanish_page_is_spanish(built_site):
    """Issue 33, item 9: aria-labels and titles a screen reader speaks were English ("Site menu", the law
    page's contents, "Sewer rents F (…)" tooltips). Every aria-label, title, alt and placeholder of every
    /es/ page, and the page's <title>, is spell-checked in Spanish: English words are unknown to it.
    (The menu button's name is set by assets/keyboard.js from the page's words: its table is read too.)"""
    import json
    import re
    pages = sorted((built_site / "es").rglob("*.html"))
    said = {}
    for p in pages:
        html = p.read_text(encoding="utf-8")
        values = [v for _a, v in re.findall(r'\s(aria-label|title|alt|placeholder)="([^"]*)"', html)]
        values += re.findall(r"<title>([^<]*)</title>", html)
        table = re.search(r'<script type="application/json" id="pawling-words">(.*?)</script>', html, re.S)
        if table:
            values.append(json.loads(table.group(1).replace("<\\/", "</")).get("Site menu", ""))
        said[p.relative_to(built_site).as_posix()] = "\n".join(values)
    assert sum(map(len, said.values())) > 2_000 and all(said.values())
    assert any("Menú del sitio" in text for text in said.values())
    found = unknown_words(said)
    assert not found, report(found)
