"""The law page in Spanish (issue 33: an outside Spanish reviewer found /es/law/ showed each provision in
English only, with one notice at the top). Under each provision, /es/law/ shows the official English,
labelled so and marked lang="en", then the site's unofficial translation of it, labelled so, from
rules/locale/es/law.po (calculator.core.law.law_page_words: the pieces of a provision's own words, each
an entry of the catalogue). A provision whose English changes has no translation until one is written:
`build.py validate` names it, and the page says there is none yet rather than showing the old one.
The history notes' dates ("[Amended 3-4-1992 …]", month first) are written out in words in Spanish."""
from __future__ import annotations

import datetime as dt
import html
import re
import shutil

from babel.messages.pofile import read_po

from calculator.core.dates import long
from calculator.core.i18n import localized, speaking
from calculator.core.law import anchor, law_page_words
from kit.rules.validate import RULES_DIR, compile_rules
from kit.site import pages
from kit.words.messages import WHEEL_DOMAINS, po_path, problems, translations, update

RULES = compile_rules(RULES_DIR)
ES = translations("es", (*WHEEL_DOMAINS, "pages"), RULES_DIR, RULES["parameters"])
OFFICIAL = ES["Official text (in English):"]
UNOFFICIAL = ES["This site's unofficial translation:"]
NONE_YET = ES["This site has no translation of these words of the law yet."]
TAG = re.compile(r"<[^>]+>")
BLOCK = re.compile(r'<div class="law-bilingual">\s*<p class="law-label">(.*?)</p>\s*<div class="law-official" lang="en">'
                   r'(.*?)</div>\s*<p class="law-label">(.*?)</p>\s*<div class="law-words">(.*?)</div>\s*</div>', re.S)
# a US date in the law's words: month-day-year ("3-4-1992" is March 4, 1992)
US_DATE = re.compile(r"\b(\d{1,2})-(\d{1,2})-(\d{4})\b")


def _plain(markup: str) -> str:
    return " ".join(html.unescape(TAG.sub("", markup)).split())


def law_po() -> dict[str, str]:
    with po_path("es", "law").open("rb") as f:
        return {m.id: " ".join(m.string.split()) for m in read_po(f) if m.id and m.string and not m.fuzzy}


def sections(page: str) -> dict[str, str]:
    """{anchor: the page's HTML from that heading to the next} for every heading of the law's text."""
    main = page[page.find("<article"):page.rfind("</article>")]
    heads = list(re.finditer(r'<h([2-6]) id="([^"]+)"', main))
    return {m.group(2): main[m.start():heads[i + 1].start() if i + 1 < len(heads) else len(main)]
            for i, m in enumerate(heads)}


def with_words():
    """Every article and provision whose own words /law/ shows: (anchor, its pieces of the law's English)."""
    out = [(a["id"], a["notes_before"]) for a in RULES["law"]["articles"] if a.get("notes_before")]
    return out + [(anchor(p["id"]), law_page_words(p)) for p in RULES["provisions"] if law_page_words(p)]


def test_every_provision_on_the_spanish_law_page_has_its_english_labelled_and_its_spanish_under_it(built_site):
    page = (built_site / "es" / "law" / "index.html").read_text(encoding="utf-8")
    found, catalogue, missing = sections(page), law_po(), []
    shown = with_words()
    for where, pieces in shown:
        block = BLOCK.search(found.get(where, ""))
        if not block:
            missing.append(f"#{where}: no official text and translation under it")
            continue
        label, english, label2, spanish = block.groups()
        assert _plain(label) == OFFICIAL == "Texto oficial (en inglés):" and _plain(label2) == UNOFFICIAL, where
        english, spanish = _plain(english), _plain(spanish)
        for piece in pieces:
            words = " ".join(piece.split())
            assert words in english, (where, words[:60])
            assert words in catalogue, f"#{where}: “{words[:60]}” has no Spanish in rules/locale/es/law.po"
            # (the page puts a full stop after a closing «», as Spanish writes it: spanish14)
            assert catalogue[words] in spanish.replace("».", ".»"), (where, catalogue[words][:60], spanish[:200])
        assert NONE_YET not in spanish and not US_DATE.search(spanish), (where, spanish[:200])
    assert not missing, "\n".join(missing)
    # every article's notes and every provision with words of its own: 65 provisions in all, one of them
    # (pretreatment, Pretreatment and industrial facilities) a heading over its subsections only
    assert len(shown) == 1 + 64 and len(BLOCK.findall(page)) == len(shown)


def test_the_english_law_page_shows_the_official_text_only(built_site):
    page = (built_site / "law" / "index.html").read_text(encoding="utf-8")
    assert "law-bilingual" not in page and "law-words" not in page and "«" not in page
    assert "Annual costs incurred by the Town of Pawling Sewer Districts" in page


def test_the_history_notes_and_every_us_date_in_the_law_are_written_out_in_spanish():
    """3-4-1992 is March 4, 1992 (month first): in Spanish «el 4 de marzo de 1992», never the figures,
    which a Spanish reader takes for 3 April. The same for "(7-1-1990 Edition)" in rents.A."""
    catalogue, dated = law_po(), 0
    with speaking("es", ES):
        for english, spanish in catalogue.items():
            for month, day, year in US_DATE.findall(english):
                dated += 1
                words = long(dt.date(int(year), int(month), int(day)))
                assert words in spanish and f"{month}-{day}-{year}" not in spanish, (english, spanish)
    assert dated >= 4
    assert catalogue["[Amended 3-4-1992 by L.L. No. 1-1992]"] == \
        "[texto modificado el 4 de marzo de 1992 por la Ley Local n.º 1 de 1992]"
    assert catalogue["[Added 3-4-1992 by L.L. No. 1-1992]"].startswith("[texto agregado el 4 de marzo de 1992 ")
    assert all("Ley Local n.º 1 de 1992" in s and "L.L" not in s for e, s in catalogue.items() if "L.L" in e)


def test_the_spanish_page_explains_that_the_notes_put_the_month_first(built_site):
    page = _plain((built_site / "es" / "law" / "index.html").read_text(encoding="utf-8"))
    assert "Las notas entre corchetes, como [Amended 3-4-1992 by L.L. No. 1-1992], son parte del texto recibido. " \
           "En estas notas el mes va primero: 3-4-1992 es el 4 de marzo de 1992." in page


def rendered_law(rules_dir) -> str:
    """/es/law/'s Markdown, rendered from a copy of rules/ with its own catalogues."""
    rules = compile_rules(rules_dir)
    with speaking("es", translations("es", (*WHEEL_DOMAINS, "pages"), rules_dir, rules["parameters"])):
        here = localized(rules)
        ctx = pages.page_context(here, dt.date(2026, 12, 6), {"site_url": "https://sewer.example/", "repo_url": None},
                                 "es", rules_dir)
        docs = rules_dir.parent / "docs-es"
        pages.render_pages(here, docs, ctx, "es", rules_dir)
    return (docs / "law" / "index.md").read_text(encoding="utf-8")


def test_a_provision_whose_english_changes_fails_validation_and_shows_no_stale_translation(tmp_path):
    rules_dir = tmp_path / "rules"
    shutil.copytree(RULES_DIR, rules_dir)
    old_spanish = law_po()[" ".join(next(p for p in RULES["provisions"] if p["id"] == "purpose")["text"].split())]
    law = rules_dir / "law.yaml"
    law.write_text(law.read_text(encoding="utf-8").replace("In order to assure the proper disposal",
                                                           "In order to ensure the proper disposal"), encoding="utf-8")
    # before the catalogue is brought up to date: the new words have no translation, the old ones are unused
    found = problems(rules_dir)
    assert any("no translation for “In order to ensure" in p for p in found), found
    assert any("“In order to assure" in p and "stale" in p for p in found), found
    # `build.py messages`: the old translation is kept beside the new English, marked fuzzy; validation refuses it
    update(rules_dir)
    found = problems(rules_dir)
    assert [p for p in found if "law.po" in p and "In order to ensure" in p and "stale (fuzzy" in p], found
    # the page says there is no translation yet, and never shows the old one under the new English
    page = rendered_law(rules_dir)
    purpose = page[page.index("{: #purpose }"):page.index("{: #system }")]
    assert "In order to ensure the proper disposal" in purpose and NONE_YET in purpose
    assert old_spanish not in purpose and "«" not in purpose
