"""The information pages in Spanish (/es/: home, rates, schedules, notices, how we read the
law, the law) rendered through kit.site.pages from the same templates as the English ones, and
the due-dates calendar in Spanish. The law's text stays English (the only official text) and
is marked so; the glossary lists every term with whether the Town has reviewed it; the
figures are the engine's, the same in both languages; links to pages that exist only in
English (the Clerk's desk, the notices feed) lead to them. Non-browser: the pages' Markdown."""
import datetime as dt
import os
import re
import shutil
from pathlib import Path

import pytest

from kit.api.files import write_api
import yaml
from icalendar import Calendar

from calculator.core.i18n import speaking
from kit.clerk import command as clerk
from kit.site import pages as kit_pages
from kit.documents.due_dates import build_due_dates_calendar
from kit.words.language import page_words
from kit.words.messages import WHEEL_DOMAINS, glossary, translations
from kit.rules.validate import RULES_DIR, compile_rules

TODAY = dt.date(2026, 10, 20)   # between the 2027 schedule's notice and its meeting, in the town below
CONFIG = {"site_url": "https://sewer.pawling.example/", "repo_url": ""}
MD_SPECIAL = re.compile(r"([\\`*_\[\]<>#|])")


def md(text: str) -> str:
    """As the pages' `md` filter writes a value into Markdown."""
    return MD_SPECIAL.sub(r"\\\1", str(text))


def es(english: str) -> str:
    """A page message in Spanish, as pages.po has it (and it must have one)."""
    spanish = page_words("es").get(english)
    assert spanish and spanish != english, f"pages.po has no Spanish for {english!r}"
    return spanish


def render(rules_dir: Path, docs: Path) -> Path:
    rules = compile_rules(rules_dir)
    for lang in ("en", "es"):
        kit_pages.render_language(rules, docs, lang, TODAY, CONFIG, rules_dir)
    write_api(rules, docs, "0123456789ab", TODAY.isoformat(), CONFIG["site_url"], rules_dir)  # the pages link its files
    return docs


@pytest.fixture(scope="module")
def docs(tmp_path_factory):
    """This repository's rules: the illustrative schedule only, no notice."""
    return render(RULES_DIR, tmp_path_factory.mktemp("pages") / "docs")


@pytest.fixture(scope="module")
def town(tmp_path_factory):
    """A copy of rules/ after the Clerk's year: schedule 2026 proposed, noticed and adopted,
    schedule 2027 proposed and noticed (its meeting after TODAY); one glossary term
    reviewed by the Town."""
    root = tmp_path_factory.mktemp("town")
    rules = root / "rules"
    shutil.copytree(RULES_DIR, rules)
    (root / "mkdocs.yml").write_text(f"site_name: copy\nsite_url: {CONFIG['site_url']}\n")
    place = ["--time", "19:30", "--place", "Pawling Town Hall, 160 Charles Colman Blvd",
             "--output-dir", str(root / "out")]
    for argv in (["propose", "--retroactive", "--fiscal-year", "2026", "--effective", "2026-01-01", "--om-cost", "856791",
                  "--user-volume-gallons", "85,000,000", "--proposed-on", "2025-10-01", "--sewage-fraction", "0.80"],
                 ["notice", "2026", "--published", "2025-10-15", "--meeting", "2025-10-30", *place],
                 ["adopt", "2026", "--date", "2025-11-10", "--ayes", "3", "--noes", "1", "--absent", "1",
                  "--resolution", "2025-88"],
                 ["propose", "--fiscal-year", "2027", "--effective", "2027-01-01", "--om-cost", "900000",
                  "--user-volume-gallons", "85,000,000", "--proposed-on", "2026-10-01",
                  "--extraneous-flow-cost", "25000"],
                 ["notice", "2027", "--published", "2026-10-15", "--meeting", "2026-11-05", *place]):
        assert clerk.main([*argv, "--rules-dir", str(rules)]) == 0, argv
    words = yaml.safe_load((rules / "glossary.yaml").read_text(encoding="utf-8"))
    words["terms"][0].update(reviewed=True, by="Town Board resolution 2027-12")
    (rules / "glossary.yaml").write_text(yaml.safe_dump(words, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return render(rules, root / "docs")


def page(docs: Path, path: str, lang: str) -> str:
    return (docs / ("es/" if lang == "es" else "") / path / "index.md").read_text(encoding="utf-8")


# ---- the law: the English text, the only official one ------------------------------------------

def test_the_spanish_law_page_says_the_english_text_is_the_only_official_one(docs):
    spanish, english = page(docs, "law", "es"), page(docs, "law", "en")
    note = f'!!! note "{es("The English text is the only official one")}"'
    assert note in spanish
    # at the top: after the page's title, before the law's first article
    assert spanish.index(f"# {es('The sewer-use law')}\n") < spanish.index(note) < spanish.index("\n## ")
    assert "no revisada por el Pueblo" in spanish.split(note)[1].split("\n\n")[0]
    assert "!!! note" not in english and "lang=en" not in english and 'lang="en"' not in english


def test_the_spanish_law_page_has_the_english_law_text_marked_as_english(docs):
    rules = compile_rules()
    spanish, english = page(docs, "law", "es"), page(docs, "law", "en")
    texts = [p for p in rules["provisions"] if p.get("text")]
    assert len(texts) > 50
    # in Spanish each provision's words stand in a block marked as English, labelled as the official text,
    # with the site's translation under it (issue 33; tests/test_spanish_law_page.py)
    from markupsafe import escape
    official = "\n".join(re.findall(r'<div class="law-official" lang="en">\n(.*?)</div>\n<p class="law-label">',
                                    spanish, re.S))
    for p in texts:
        line = (f"**{md(p['term'])}**: " if p.get("term") else "") + md(p["text"])
        assert f"\n{line}\n" in english, p["id"]
        html_line = (f"<strong>{escape(p['term'])}</strong>: " if p.get("term") else "") + str(escape(p["text"]))
        assert f"\n<p>{html_line}</p>\n" in f"\n{official}", p["id"]   # word for word, marked as English
    # the headings are ours, not the law's (rules/law.yaml; the page says so): in Spanish, not marked English
    from calculator.core.law import anchor
    ours = translations("es", ("rules",), RULES_DIR, rules["parameters"])
    for a in rules["law"]["articles"]:
        assert ours[a["heading"]] != a["heading"]
        assert f"## {md(ours[a['heading']])} {{: #{a['id']} }}" in spanish
    for p in rules["provisions"]:
        if p.get("parent") and p.get("label"):
            assert f" {md(ours[p['heading']])} {{: #{anchor(p['id'])} }}" in spanish, p["id"]
    for note in kit_pages.history_notes(rules):
        assert f'<p class="history-note">{note}</p>' in official
    # the page's own words are Spanish
    assert f"**{es('Numbers the calculator takes from this provision')}**" in spanish
    assert f"**{es('How we read this provision')}**" in spanish
    assert "Numbers the calculator takes" not in spanish and "official section number" not in spanish


# ---- how we read the law: the glossary ----------------------------------------------------------

def glossary_rows(text: str) -> list[list[str]]:
    section = text.split(f"## {es('Glossary')} {{: #glossary }}\n", 1)[1]
    rows = [line for line in section.splitlines() if line.startswith("| ")][1:]   # the header row left out
    return [[cell.strip() for cell in row.strip("|").split(" | ")] for row in rows]


def test_the_glossary_lists_every_term_not_yet_reviewed_by_the_town(docs):
    terms = glossary(RULES_DIR, "es")
    assert len(terms) >= 20
    spanish = page(docs, "how-we-read-the-law", "es")
    rows = glossary_rows(spanish)
    assert [r[:2] for r in rows] == [[f'<span lang="en">{md(t["en"])}</span>', md(t["es"])] for t in terms]
    assert all(r[2] == es("Not yet") for r in rows)
    assert es("These translations are not yet reviewed by the Town. They are a help to read the law, "
              "written by the project team from the English.") in spanish
    assert "#glossary" not in page(docs, "how-we-read-the-law", "en")


def test_a_term_the_town_reviewed_says_who(town):
    rows = glossary_rows(page(town, "how-we-read-the-law", "es"))
    assert rows[0][:2] == ['<span lang="en">sewer rent</span>', "cargo de alcantarillado"]
    assert rows[0][2] == es("Yes, by %(who)s") % {"who": "Town Board resolution 2027-12"}
    assert all(r[2] == es("Not yet") for r in rows[1:])


def test_with_every_term_reviewed_the_page_no_longer_says_they_are_not(tmp_path):
    rules = compile_rules()
    with speaking("es", translations("es", WHEEL_DOMAINS, RULES_DIR, rules["parameters"])):
        ctx = kit_pages.page_context(rules, TODAY, CONFIG, "es")
        ctx["glossary"] = [dict(t, reviewed=True) for t in ctx["glossary"]]
        kit_pages.render_pages(rules, tmp_path, ctx, "es")
    text = (tmp_path / "how-we-read-the-law" / "index.md").read_text(encoding="utf-8")
    assert {r[2] for r in glossary_rows(text)} == {es("Yes")}
    assert es("These translations are not yet reviewed by the Town. They are a help to read the law, "
              "written by the project team from the English.") not in text


def test_the_law_s_quotations_stay_english_on_the_spanish_page(docs):
    spanish = page(docs, "how-we-read-the-law", "es")
    for i in compile_rules()["interpretations"].values():
        assert f'“<span lang="en" class="law-quote">{md(i["text"])}</span>”' in spanish, i["id"]


# ---- rates, schedules and notices: the same figures --------------------------------------------

FIGURES = re.compile(r"\$[\d,]+\.\d\d|\b\d+(?:\.\d+)?%|\b\d{1,3}(?:,\d{3})+\b")


def figures(text: str) -> list[str]:
    return sorted(FIGURES.findall(text))


@pytest.mark.parametrize("path", ["rates", "rates/2025-illustrative", "rates/2026", "rates/2027", "notices"])
def test_the_spanish_rates_pages_name_the_same_figures(town, path):
    english, spanish = page(town, path, "en"), page(town, path, "es")
    assert figures(english) == figures(spanish), path
    if path == "rates":
        # the schedule in force, the proposed one and every schedule: rates, minimums, the 8,000 gallons
        assert {"$10.08", "$10.59", "$10.00", "$64.51", "$67.78", "$64.00", "8,000", "80%"} <= set(figures(spanish))
        assert es("Proposed: not yet adopted") in spanish and es("The schedule in force") in spanish
        assert f"**{es('adopted')}**" in spanish


def test_the_spanish_rates_page_on_this_repository_s_rules(docs):
    english, spanish = page(docs, "rates", "en"), page(docs, "rates", "es")
    assert figures(english) == figures(spanish) and "$10.00" in figures(spanish)
    assert f"# {es('Rates')}\n" in spanish and f"title: \"{es('Rates')}\"" in spanish


def test_a_schedules_title_and_note_are_in_the_pages_language(town):
    """The Clerk's propose step writes a schedule's title in each language (title_es), and the
    shipped schedule has its note in Spanish (note_es): no English title or note on a Spanish page."""
    spanish = page(town, "rates", "es")
    assert "[Tabla de tarifas del año fiscal 2026](2026/index.md)" in spanish
    assert "# Tabla de tarifas del año fiscal 2027\n" in page(town, "rates/2027", "es")
    assert "Números de ejemplo, para mostrar" in page(town, "rates/2025-illustrative", "es")
    assert "Rate schedule for fiscal year" not in spanish and "Example numbers" not in spanish
    assert "# Rate schedule for fiscal year 2027\n" in page(town, "rates/2027", "en")
    assert "lang=en" not in page(town, "rates/2027", "en") and 'lang="en"' not in page(town, "rates", "en")


# ---- links: the Spanish pages lead to Spanish pages, and to pages only in English ---------------

LINK = re.compile(r"\]\(([^)\s]+)\)|href=\"([^\"]+)\"")
INFO_PAGES = ["", "rates", "rates/2025-illustrative", "rates/2026", "rates/2027", "notices", "notices/2026-hearing",
              "notices/2026-rates", "notices/2027-hearing", "how-we-read-the-law", "law"]


def targets(docs: Path, path: str):
    here = docs / "es" / path
    for m in LINK.finditer((here / "index.md").read_text(encoding="utf-8")):
        link = (m.group(1) or m.group(2)).split("#")[0]
        if link and not link.startswith(("http:", "https:")):
            yield link, Path(os.path.normpath(here / link))


def test_every_link_on_the_spanish_pages_leads_to_a_page_that_is_there(town):
    feed = town / "es" / "notices" / "feed.xml"   # written beside the notices by the build (kit.documents.feed)
    for path in INFO_PAGES:
        for link, target in targets(town, path):
            assert target == feed or target.exists(), f"es/{path}: {link}"


def test_the_pages_only_in_english_are_reached_from_the_spanish_ones(town):
    assert not (town / "es" / "clerk").exists()
    rates = dict(targets(town, "rates"))
    assert rates["../../clerk/index.md"] == town / "clerk" / "index.md"
    assert "../clerk/index.md" in page(town, "rates", "en")
    notices = dict(targets(town, "notices"))
    # each language's page links its own feed (spanish21: the Spanish page's was the English one)
    assert notices["feed.xml"] == town / "es" / "notices" / "feed.xml"
    assert 'href="feed.xml"' in page(town, "notices", "en")
    # the Spanish notices' PDFs are the Spanish ones, beside the Spanish pages
    assert notices["2026-rates/2026-rates.pdf"] == town / "es" / "notices" / "2026-rates" / "2026-rates.pdf"


# ---- the home page: a template now, the same page in English ------------------------------------

def test_the_home_page_in_both_languages(docs):
    english, spanish = page(docs, "", "en"), page(docs, "", "es")
    assert english.startswith('---\ntitle: "Pawling sewer self-service"\n')
    assert "## [Estimate my bill](estimate/index.md)\n" in english
    assert f"## [{es('Estimate my bill')}](estimate/index.md)\n" in spanish
    card = '<section class="task-card" markdown>'
    assert spanish.count(card) == english.count(card) == 6
    assert yaml.safe_load(spanish.split("---")[1])["title"] == es("Pawling sewer self-service")
    assert not (Path(kit_pages.ROOT) / "docs" / "index.md").exists()   # rendered, not kept


# ---- the due-dates calendar in Spanish ----------------------------------------------------------

def test_the_calendar_in_spanish(tmp_path):
    rules = compile_rules()
    with speaking("es", translations("es", (*WHEEL_DOMAINS, "pages"), RULES_DIR, rules["parameters"])):
        path = build_due_dates_calendar(rules, tmp_path, dt.date(2027, 2, 1), "https://sewer.pawling.example/es/")
    english = Calendar.from_ical(build_due_dates_calendar(rules, tmp_path / "en", dt.date(2027, 2, 1)).read_bytes())
    cal = Calendar.from_ical(path.read_bytes())
    assert str(cal["x-wr-calname"]) == es("Town of Pawling sewer due dates")
    events, before = list(cal.walk("VEVENT")), list(english.walk("VEVENT"))
    assert [e.decoded("dtstart") for e in events] == [e.decoded("dtstart") for e in before]   # the same dates
    assert [str(e["uid"]) for e in events] == [str(e["uid"]) for e in before]
    # each event's category in words, in the calendar's language (they were the English ids)
    assert [str(e["categories"].cats[0]) for e in before] == [
        "Sewer bill" if "sewer-bill" in str(e["uid"]) else "Section 307 report" for e in before]
    assert {str(e["categories"].cats[0]) for e in events} == {"Factura de alcantarillado", "Informe de la Sección 307"}
    report = next(e for e in events if str(e["categories"].cats[0]) == es("Section 307 report"))
    assert str(report["summary"]) == es("Section 307 report due (major contributing industries)")
    bill = next(e for e in events if e.decoded("dtstart") == dt.date(2027, 1, 15))
    # the bill named by the water it charges for, as the estimate names it (the usability test, Rosa)
    assert str(bill["summary"]) == "Vence la factura de alcantarillado (agua usada en octubre–diciembre de 2026)"
    assert "Sewer bill" not in str(bill["summary"])
    # the law's words stay English, the only official text, quoted “…” (the mark of the law's
    # English in Spanish, test_spanish_quotes.py); the page is the Spanish one
    quote = rules["parameters"]["bill-due-dates"]["quote"]
    # English, followed by this site's unofficial translation (issue 33: explain.quote_words)
    law, translation = str(bill["description"]).split("”\n", 1)  # (on a line of its own: spanish15 #12)
    assert law.endswith(f"“{quote}") and law.startswith("Ley ")
    assert translation.startswith("Traducción no oficial de este sitio: «")
    assert str(bill["url"]) == "https://sewer.pawling.example/es/estimate/"
