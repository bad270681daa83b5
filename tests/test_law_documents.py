"""Issue 17 (the law, read a third time), its documents and the industry guide: the annual
notice to users quotes rents.F and rents.G and labels this site's reading as such (the Town has adopted none); the home
page and the industry guide make pretreatment facilities conditional, as pretreatment.A
does; the guide quotes pretreatment.E's first sentence, the measurements rule and E(4),
shows its citations in the hints as links (not raw Markdown), shows the business's rights
and the next report dates from the build's date; /law/ names Town Law § 63; the holidays
name their source. Each in English and in Spanish. Non-browser: the pages' Markdown."""
import copy
import datetime as dt
import re
from pathlib import Path

import pytest

from calculator.rates import notices
from calculator.core.dates import long
from calculator.core.i18n import localized, speaking
from calculator.core.law import anchor, first_sentence
from calculator.core.rules import entry, provision
from kit.site import pages as kit_pages
from kit.words.language import page_words
from kit.words.messages import WHEEL_DOMAINS, translations
from kit.rules.validate import RULES_DIR, compile_rules

TODAY = dt.date(2026, 12, 1)   # the issue's day: two of 2026's report dates are past
CONFIG = {"site_url": "https://sewer.pawling.example/", "repo_url": ""}
SITE = CONFIG["site_url"]
RULES = compile_rules()
MD_SPECIAL = re.compile(r"([\\`*_\[\]<>#|])")


def md(text: str) -> str:
    return MD_SPECIAL.sub(r"\\\1", str(text))


def words(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def docs(tmp_path_factory):
    docs = tmp_path_factory.mktemp("pages") / "docs"
    for lang in ("en", "es"):
        kit_pages.render_language(RULES, docs, lang, TODAY, CONFIG, RULES_DIR)
    return docs


def page(docs: Path, path: str, lang: str = "en") -> str:
    return (docs / ("es/" if lang == "es" else "") / path / "index.md").read_text(encoding="utf-8")


def es(english: str) -> str:
    spanish = page_words("es").get(english)
    assert spanish and spanish != english, f"pages.po has no Spanish for {english!r}"
    return spanish


def spanish(rules):
    return speaking("es", translations("es", (*WHEEL_DOMAINS, "pages"), RULES_DIR, rules["parameters"]))


# ---- finding 5: the annual notice to users quotes the law ----------------------------------------

def user_notice(rules, lang="en"):
    schedule = rules["schedules"][0]["id"]
    if lang == "en":
        return notices.user_notice(rules, schedule, SITE)
    with spanish(rules):
        return notices.user_notice(localized(rules), schedule, SITE)


def test_the_notice_quotes_rents_f_and_g_word_for_word_and_labels_the_town_s_reading():
    n = user_notice(RULES)
    penalty = entry(RULES, "late-penalty-rate")["quote"]
    # the lien's sentence, after the subsection's heading (clerk11, U2: the heading was quoted as if part of it)
    heading, lien = provision(RULES, "rents.G")["text"].split(". ", 1)
    assert heading == "Operations and maintenance charges to constitute lien"
    assert penalty in provision(RULES, "rents.F")["text"]           # the quotation is the law's sentence
    for doc, (q1, q2) in ((n["text"], ('"', '"')), (n["html"], ('“<span class="law-quote">', "</span>”"))):
        assert f"{q1}{penalty}{q2}" in doc
        assert f"{q1}{words(lien)}{q2}" in doc and heading not in doc
        assert "to the extent set forth in § 452 of the General Municipal Law" in doc   # dropped before
    # (the plain part comes first since issue 34 and has its own "- Late payment:" line, the reading alone;
    # the law's formula and citations follow: the line that quotes the law)
    late = next(line for line in n["text"].splitlines() if line.startswith("- Late payment: the law"))
    quoted, reading = late.split("How the Town applies it: ")
    # the explanation comes after its label; the law's part has only the quotation and the citation
    assert quoted == f'- Late payment: the law (Sewer rents F (Due dates and late penalty)) says: "{penalty}" '
    assert "a further 15% of the same charge for each further 3 months" in reading
    assert "penalties are not charged on penalties" in reading
    assert "next business day is on time (NY General Construction Law § 25-a)" in reading
    assert f"{SITE}how-we-read-the-law/" in n["text"]


def test_under_the_calendar_days_reading_the_notice_says_so():
    rules = copy.deepcopy(RULES)
    rules["interpretations"]["period-end-business-day"]["chosen"] = "calendar-days"
    reading = user_notice(rules)["text"].split("How the Town applies it: ")[1]
    assert "calendar days" in reading and "next business day" not in reading


def test_the_spanish_notice_keeps_the_law_s_words_in_english_and_marked():
    n = user_notice(RULES, "es")
    penalty = entry(RULES, "late-penalty-rate")["quote"]
    assert f'“<span lang="en" class="law-quote">{penalty}</span>”' in n["html"]
    # the lien's sentence, without the subsection's heading before it (clerk11, U2)
    assert '“<span lang="en" class="law-quote">Operations and maintenance charges shall constitute a lien' in n["html"]
    assert "charges to constitute lien" not in n["html"] and "charges to constitute lien" not in user_notice(RULES)["text"]
    assert "Cómo lo aplica el Pueblo: una factura" in n["text"] and "no ha adoptado" not in n["text"]
    assert "siguiente día hábil llega a tiempo" in n["text"]
    assert "es/how-we-read-the-law/" in n["text"]


# ---- finding 4: pretreatment facilities are conditional ---------------------------------------------

@pytest.mark.parametrize("lang", ["en", "es"])
def test_no_page_says_the_law_requires_the_facilities(docs, lang):
    for path in ("", "industry"):
        text = page(docs, path, lang)
        assert "facilities the law requires" not in text
        assert "pretratamiento que exige la ley" not in text
    home = page(docs, "", lang)
    assert ("if the Town deems them necessary" if lang == "en" else "si el Pueblo las considera necesarias") in home
    heading = "Pretreatment facilities, where the Town deems them necessary"
    assert f"## {heading if lang == 'en' else es(heading)} {{: #facilities }}" in page(docs, "industry", lang)


def test_the_guide_records_how_we_read_industries_shall_install(docs):
    text = page(docs, "industry")
    reading = RULES["interpretations"]["pretreatment-facilities"]
    assert reading["chosen"] == "where-deemed-necessary"
    assert 'Items (2) and (3) begin “<span class="law-quote">Industries shall install</span>”' in text
    assert md(words(reading["options"]["where-deemed-necessary"]["summary"])) in words(text)
    assert "../how-we-read-the-law/index.md#pretreatment-facilities" in text
    how = page(docs, "how-we-read-the-law")
    for ident in ("pretreatment-facilities", "industry-correction-time", "hearing-window-end"):
        assert f"{{: #{ident} }}" in how and f"{{: #{ident} }}" in page(docs, "how-we-read-the-law", "es")
    # the other readings are shown in words, without the file's keys for them (issue 19, item 10)
    assert "**Another reading:** Every industry that discharges to the public sewers" in how
    assert "**Another reading:** Every major contributing industry" in how
    assert "every-industry" not in how and "major-industries" not in how


# ---- finding 11: the industry guide -------------------------------------------------------------------

@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_guide_quotes_the_federal_standards_the_measurements_rule_and_e4(docs, lang):
    text = page(docs, "industry", lang)
    e = md(first_sentence(RULES, "pretreatment.E"))
    assert e.startswith("Notwithstanding any provisions of this chapter, disposal into the public sewers is unlawful")
    measurements = md(provision(RULES, "measurements")["text"])
    if lang == "en":
        assert f'“<span class="law-quote">{e}</span>”' in text
        assert f'“<span class="law-quote">{measurements}</span>”' in text
        assert '“<span class="law-quote">singly or in combination with other contributing industries</span>”' in text
    else:   # the law's words stay English, marked so (WCAG 3.1.2)
        assert f'“<span lang="en" class="law-quote">{e}</span>”' in text
        assert f'“<span lang="en" class="law-quote">{measurements}</span>”' in text
        assert '“<span lang="en" class="law-quote">singly or in combination with other contributing industries</span>”' in text
    assert "alone or with other wastes" not in text   # E(4) says other contributing industries


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_hints_link_their_citations_instead_of_showing_markdown(docs, lang):
    text = page(docs, "industry", lang)
    hints = re.findall(r'<p class="hint"[^>]*>.*?</p>', text)
    assert len(hints) == 5
    for hint in hints:
        assert "](" not in hint and "index.md#" not in hint, hint
    # (in Spanish the provision is named in Spanish, so the link is not marked as English: issue 22)
    for cite, spanish in (("pretreatment.E.3", "E(3)"), ("pretreatment.E.4", "E(4)")):
        link = f'<a href="../law/#{anchor(cite)}">' + (f"Pretratamiento e instalaciones industriales, sección {spanish}"
                                                       if lang == "es" else "")
        assert sum(link in h for h in hints) == 1, cite


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_report_dates_are_the_next_ones_from_the_build_s_date(docs, lang):
    with spanish(RULES) if lang == "es" else speaking("en", {}):
        expected = [long(dt.date(2026, 12, 15)), long(dt.date(2027, 3, 15)), long(dt.date(2027, 9, 15))]
        past = [long(dt.date(2026, 3, 15)), long(dt.date(2026, 9, 15))]
    section = page(docs, "industry", lang).split("{: #report-dates }")[1]
    listed = re.findall(r"^- (.+)$", section, re.M)
    assert listed == expected
    assert not any(p in section for p in past)


def test_the_guide_shows_the_business_s_rights(docs):
    text = page(docs, "industry")
    section = text.split("{: #rights }")[1].split("\n## ")[0]
    cites = re.findall(r"\(\[([^\]]+)\]\(\.\./law/index\.md#([a-z0-9-]+)\)", section)
    assert [a for _, a in cites] == ["pretreatment-a-5", "permits-d", "pretreatment-b", "pretreatment-d",
                                     "industrial-waste-b-1", "permits-c"]
    assert "Only if" not in section and "except as such may be caused by negligence" in section
    assert "observe" not in section and "follow the business's own safety rules" in section
    assert "at most 30 days" in section and "how-we-read-the-law/index.md#industry-correction-time" in section
    assert "{: #rights }" in page(docs, "industry", "es")


# ---- finding 17: Town Law § 63 and the holidays' source ---------------------------------------------

@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_law_page_names_town_law_63_beside_the_board_s_size(docs, lang):
    line = next(line for line in page(docs, "law", lang).splitlines() if "Town Law" in line and "§ 63" in line
                and "**5**" in line)
    assert "**5**" in line and "Town Law" in line and "§ 63" in line


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_holidays_are_explained_with_their_source_and_the_appointed_days(docs, lang):
    section = page(docs, "how-we-read-the-law", lang).split("{: #holidays }")[1].split("\n## ")[0]
    assert ("chapter 249 of the laws of 2020" if lang == "en" else "capítulo 249 de las leyes de 2020") in section
    assert "https://www.nysenate.gov/legislation/laws/GCN/24" in section
    assert ("the Governor of New York appoints" if lang == "en" else "Gobernador de Nueva York designe") in section
    with spanish(RULES) if lang == "es" else speaking("en", {}):
        juneteenth = long(dt.date(2026, 6, 19))
    # in Spanish its name is Spanish, the English glossed (spanish11: «Juneteenth» unmarked)
    assert (f"- {juneteenth}: Juneteenth" if lang == "en" else
            f"- {juneteenth}: Día de la Liberación (en inglés, “Juneteenth”)") in section
    assert len(re.findall(r"^- ", section, re.M)) >= 13
    assert "#period-end-business-day" in section and "#hearing-window-end" in section

