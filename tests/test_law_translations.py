"""Every quotation of the law's English on a Spanish page or in a Spanish answer (issue 33, the
Spanish language-access review) is preceded by the label "La ley dice (texto oficial en inglés):"
and followed by Spanish words: this site's unofficial translation, labelled so ("Traducción no
oficial de este sitio: «…»", calculator.core.explain.quote_words), from rules/locale/es/law.po.
That catalogue is made from one census of every quotation a page or an answer can show
(calculator.core.law.census). A quotation without a translation (an amendment changed the law's
words) does not stop the build: the page says there is none yet, and validation names it.

A word or a phrase of the law quoted inside a Spanish sentence is not a passage: the sentence
names it in Spanish right before it, the English introduced one way: «por trimestre» (en inglés,
“per quarter”)."""
from __future__ import annotations

import html
import re
import shutil

import pytest
from babel.messages.pofile import read_po

from answers import answers, clerk_answers
from calculator.core.explain import quote_words
from calculator.core.i18n import speaking
from calculator.core.law import census
from kit.rules.validate import RULES_DIR, compile_rules
from kit.words import messages
from kit.words.messages import WHEEL_DOMAINS, po_path, problems, translations

RULES = compile_rules(RULES_DIR)
ES = translations("es", WHEEL_DOMAINS, RULES_DIR, RULES["parameters"])
LABEL = "texto oficial en inglés"
UNOFFICIAL = ES["This site's unofficial translation: {words}"].split("{words}")[0]   # "Traducción no oficial de este sitio: "
NONE_YET = ES["This site has no translation of these words of the law yet."]
QUOTE_CLASSES = ("law-quote", "step-quote", "form-quote")
# an element quoting the law on a page: its tag, its class, and what it holds
QUOTATION = re.compile(r'<(span|q|blockquote)\b(?=[^>]*\blang="en")(?=[^>]*\bclass="([^"]*)")[^>]*>(.*?)</\1>', re.S)
TAG = re.compile(r"<[^>]+>")
BLOCK_END = re.compile(r"</(p|li|dd|td|th|h[1-6])>")


def law_po() -> dict[str, str]:
    with po_path("es", "law").open("rb") as f:
        return {m.id: m.string for m in read_po(f) if m.id}


def _plain(markup: str) -> str:
    return " ".join(html.unescape(TAG.sub("", markup)).split())


def page_quotations(site):
    """(page, the quotation's words, the text just before it, the HTML after it to its block's end)
    for every element of a Spanish page marked lang="en" that quotes the law."""
    for path in sorted((site / "es").rglob("*.html")):
        text = path.read_text(encoding="utf-8")
        main = text[text.find("<article"):text.rfind("</article>")]
        for m in QUOTATION.finditer(main):
            if not set(m.group(2).split()) & set(QUOTE_CLASSES):
                continue
            end = BLOCK_END.search(main, m.end())
            after = main[m.end():end.end() if end else len(main)]
            yield (path.relative_to(site).as_posix(), _plain(m.group(3)).strip("“”"),
                   _plain(main[max(0, m.start() - 600):m.start()]), after)


def spanish_quote(words: str) -> str:
    """A translation as the site quotes it: «…», the sentence's full stop once, after the closing quote;
    the quoted words' own full stop or colon dropped (spanish8 #13: «…fiscal.». and «…limitaciones:». had two)."""
    return f"«{words.rstrip('.:;')}»."


def is_passage(before: str) -> bool:
    """A quotation the page labels as the law's official English: a passage, translated after it."""
    return bool(re.search(LABEL + r"\)?:\s*“?$", before))


def glossed(before: str, after: str) -> bool:
    """A word or phrase of the law in a Spanish sentence, with its Spanish right before it and the
    English introduced the one way the site introduces it: «la Ley de Agua Limpia (en inglés, “Clean
    Water Act”)», one or more phrases («(en inglés, “subject to review”, “approval”)»). (spanish8 #14:
    six lead-ins were used, «(en la ley en inglés: …)», «(en la ley, …)», «; en la ley en inglés, …»,
    a bare «(General Municipal Law)»: each is a failure now.)"""
    return bool(re.search(r"\(en inglés, (?:“[^”]*”, )*“$", before))


def test_every_quotation_of_the_law_on_a_spanish_page_is_labelled_and_followed_by_spanish_words(built_site):
    passages, problems_found = 0, []
    for page, words, before, after in page_quotations(built_site):
        if is_passage(before):
            passages += 1
            following = _plain(after)
            # (class law-words: the translation the page puts after it; a reading's own sentence may carry it)
            if not (UNOFFICIAL in following or NONE_YET in following):
                problems_found.append(f"{page}: “{words[:60]}” has no translation after it: {following[:80]!r}")
        elif not glossed(before, after):
            problems_found.append(f"{page}: “{words[:60]}” is neither labelled ({LABEL}) nor glossed in Spanish: "
                                  f"…{before[-50:]!r} / {_plain(after)[:50]!r}")
    assert not problems_found, "\n".join(problems_found)
    assert passages >= 40  # the readings' texts on two pages, the industry guide, the estimate, the application


def test_the_pages_translate_every_passage_they_quote_from_the_catalogue(built_site):
    """(c) The census covers every quotation the pages show: a passage that is not in law.po
    (a quotation written on a page, not through calculator.core.law) fails here."""
    catalogue = law_po()
    # (a passage a reading's own sentence translates carries its translation in that sentence, rules.po)
    shown = {words for _page, words, before, after in page_quotations(built_site)
             if is_passage(before) and 'class="law-words' in after}
    missing = sorted(w for w in shown if w not in catalogue)
    assert not missing, f"quoted on a Spanish page but not in rules/locale/es/law.po: {missing}"
    # and the catalogue holds only what can be shown: each entry is in the census
    assert set(catalogue) == set(census(RULES))
    # each is translated, and the translation is what the page shows
    for page, words, before, after in page_quotations(built_site):
        if is_passage(before) and 'class="law-words' in after:
            assert spanish_quote(' '.join(catalogue[words].split())) in _plain(after), (page, words)


def test_the_english_pages_show_no_translation(built_site):
    for path in built_site.rglob("*.html"):
        if "/es/" not in f"/{path.relative_to(built_site).as_posix()}":
            assert 'class="law-words' not in path.read_text(encoding="utf-8"), path


def _quoting(answer):
    """Every dict in an answer that quotes the law (`quote`)."""
    if isinstance(answer, dict):
        if isinstance(answer.get("quote"), str):
            yield answer
        for value in answer.values():
            yield from _quoting(value)
    elif isinstance(answer, list):
        for value in answer:
            yield from _quoting(value)


def test_every_spanish_answer_that_quotes_the_law_translates_it():
    """(b) Every `quote` in a Spanish answer has `quote_words` beside it: the unofficial
    translation, labelled; and every quotation an answer makes is in the census."""
    catalogue = law_po()
    quoted = 0
    for case, _argv, answer in answers("es"):
        for item in _quoting(answer):
            quoted += 1
            assert item["quote"] in catalogue, (case["name"], item["quote"])
            words = catalogue[item["quote"]]  # (its full stop after the closing quote, once: spanish8 #13)
            assert item.get("quote_words") == (f"{UNOFFICIAL}«{words[:-1]}»." if words.endswith(".")
                                               else f"{UNOFFICIAL}«{words}».") , (case["name"], item)
    assert quoted >= 5
    # the Clerk's steps report in English, as the desk does, led by a Spanish line that says so (spanish20): their
    # quotations are the law's English, untranslated, in an answer marked English
    for argv, answer in clerk_answers("es"):
        assert answer.get("lang", "en") == "en", argv
        for item in _quoting(answer):
            assert "quote_words" not in item or item["quote_words"].startswith(UNOFFICIAL), (argv, item)


def test_the_engine_s_answers_named_in_the_review_translate_their_quotations():
    from answers import answer
    for argv in (["bill", "--quarter", "2027-Q1", "--water-gallons", "12000", "--paid-on", "2027-02-20"],
                 ["industry", "--average-workday-gallons", "52000", "--system-gallons-per-day", "600000", "--year", "2027"],
                 ["vc", "--projected-om-cost", "900000", "--user-volume-gallons", "85000000"]):
        spanish = answer([*argv, "--lang", "es"])["result"]
        english = answer(argv)["result"]
        said = list(_quoting(spanish))
        assert said and all(i["quote_words"].startswith(UNOFFICIAL) for i in said), argv
        # and the quotation itself labelled as the official English (spanish24: a bare English `quote`)
        assert all(i["quote_note"] == "(texto oficial en inglés)" for i in said), argv
        # the law is quoted in its English in both languages; English answers carry no translation
        assert [i["quote"] for i in said] == [i["quote"] for i in _quoting(english)]
        assert not any("quote_words" in i or "quote_note" in i for i in _quoting(english))


def test_the_notices_and_the_calendar_translate_their_quotations(built_site):
    """The Clerk's notices to users (their HTML and their text) and the due-dates calendar: each
    quotation of the law in Spanish is followed by its translation."""
    catalogue = law_po()
    notices = 0
    for argv, answer in clerk_answers("es"):
        if argv[1] != "user-notice":
            continue
        for text in (v for v in _strings(answer) if 'class="law-quote"' in v):
            for m in re.finditer(r'<span lang="en" class="law-quote">(.*?)</span>”\s*(<span class="law-words">[^<]*)', text):
                notices += 1
                assert _plain(m.group(2)) == UNOFFICIAL + spanish_quote(catalogue[html.unescape(m.group(1))])
            assert text.count('class="law-quote"') == text.count('class="law-words"'), argv
    assert notices >= 2
    from icalendar import Calendar
    calendar = Calendar.from_ical((built_site / "es" / "industry" / "sewer-due-dates.ics").read_bytes())
    unfolded = " ".join(str(event["description"]) for event in calendar.walk("VEVENT"))
    assert UNOFFICIAL.strip() in unfolded
    assert catalogue["billed quarterly and will be due on the fifteenth day of January, April, July and October "
                     "of each year"] in unfolded


def _strings(answer):
    if isinstance(answer, dict):
        for value in answer.values():
            yield from _strings(value)
    elif isinstance(answer, list):
        for value in answer:
            yield from _strings(value)
    elif isinstance(answer, str):
        yield answer


def test_a_missing_translation_is_named_by_validation_and_the_build_goes_on(tmp_path):
    """(d) One translation taken out of a copy of law.po: `build.py validate` names it, as any
    missing translation; the build's own check goes on without it; the answer says there is none yet."""
    rules_dir = tmp_path / "rules"
    shutil.copytree(RULES_DIR, rules_dir)
    path = po_path("es", "law", rules_dir)
    quote = "Reject the wastes and sever connections with the public sewer."
    text = path.read_text(encoding="utf-8")
    translated = law_po()[quote]
    assert f'msgstr "{translated}"' in text
    path.write_text(text.replace(f'msgstr "{translated}"', 'msgstr ""'), encoding="utf-8")

    found = problems(rules_dir)
    named = [p for p in found if "law.po" in p]
    assert len(named) == 1 and "no translation for “Reject the wastes" in named[0], found
    waived: list[str] = []
    assert problems(rules_dir, waived=waived) == [] and waived == named
    messages.validate(rules_dir)  # the build's check: no RuleError

    with speaking("es", translations("es", WHEEL_DOMAINS, rules_dir, RULES["parameters"])):
        assert quote_words(quote) == NONE_YET
        assert quote_words("Prior to the start of each fiscal year of operation").startswith(UNOFFICIAL)


def test_an_amended_quotation_is_reported_until_it_is_translated(tmp_path):
    """An amendment changes the law's words: the new words need a translation (validation says so),
    the old translation is stale, and both are what the build goes on without."""
    rules_dir = tmp_path / "rules"
    shutil.copytree(RULES_DIR, rules_dir)
    path = rules_dir / "law.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("Reject the wastes", "Refuse the wastes"),
                    encoding="utf-8")
    waived: list[str] = []
    assert problems(rules_dir, waived=waived) == []
    assert any("no translation for “Refuse the wastes" in p for p in waived), waived
    assert any("“Reject the wastes" in p and "stale" in p for p in waived), waived


@pytest.mark.parametrize("name", ["fiscal-year-schedule", "sewage-meter", "lien", "projected-costs",
                                  "federal-standards", "sampling-exception"])
def test_each_passage_the_engine_quotes_is_the_law_s_own_words(name):
    from calculator.core.law import QUOTED, by_id, quoted
    words = quoted(RULES, name)
    assert words in " ".join(by_id(RULES)[QUOTED[name][0]]["text"].split())


# a full stop or a colon inside the closing quote and the sentence's own outside it: «…fiscal.». «…:».
# “…debidamente.”. (spanish8 #13: Spanish puts the sentence's full stop after the closing quote, once)
DOUBLE_STOP = re.compile(r"[.:;][»”]\s?[.:]")


def test_no_spanish_page_or_document_stops_a_quotation_twice(built_site):
    from pypdf import PdfReader
    texts = {path.relative_to(built_site).as_posix(): _plain(path.read_text(encoding="utf-8"))
             for path in (built_site / "es").rglob("*.html")}
    for path in (built_site / "es").rglob("*.ics"):  # (lines folded at 75 octets: unfolded first)
        texts[path.relative_to(built_site).as_posix()] = path.read_text(encoding="utf-8").replace("\r\n ", "")
    for path in (built_site / "es").rglob("*.pdf"):
        reader = PdfReader(path)
        fields = " ".join(str(f.get("/TU", "")) for f in (reader.get_fields() or {}).values())
        texts[path.relative_to(built_site).as_posix()] = " ".join(
            [page.extract_text() for page in reader.pages] + [fields])
    assert len([p for p in texts if p.endswith(".html")]) >= 10 and any(p.endswith(".pdf") for p in texts)
    found = [f"{page}: …{text[max(0, m.start() - 50):m.end()]!r}"
             for page, text in texts.items() for m in DOUBLE_STOP.finditer(text)]
    assert not found, "\n".join(found)
    # and the check finds what it looks for
    assert DOUBLE_STOP.search("«…para el próximo año fiscal.».") and DOUBLE_STOP.search("«limitaciones:».")
    assert not DOUBLE_STOP.search("«…para el próximo año fiscal».")


def test_every_spanish_answer_stops_a_quotation_once():
    found = sorted({f"{' '.join(argv)}: …{text[max(0, m.start() - 50):m.end()]!r}"
                    for argv, answer in [*((argv, a) for _case, argv, a in answers("es")), *clerk_answers("es")]
                    for text in _strings(answer) for m in DOUBLE_STOP.finditer(text)})
    assert not found, "\n".join(found)
