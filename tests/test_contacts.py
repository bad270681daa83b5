"""Who to contact (issue 19, item 5): rules/contacts.yaml holds the Town's offices with the
law's words that name each, and only details the Town publishes, each with its source. A
detail not published says "to be confirmed by the Town": no number is invented. The block is
on the home page, under each result (estimate, permit, industry) and in every page's footer,
in both languages."""
import datetime as dt
import re
import shutil
from pathlib import Path

import pytest

from kit.site import pages as kit_pages
from kit.words.language import page_words
from kit.rules.validate import RULES_DIR, RuleError, compile_rules

TODAY = dt.date(2026, 12, 1)
CONFIG = {"site_url": "", "repo_url": ""}
# a phone number in any of the ways people write one: (845) 555-0100, 845-555-0100, 845.555.0100
PHONE = re.compile(r"\(?\b\d{3}\)?[ .-]\d{3}[ .-]\d{4}\b")


@pytest.fixture
def rules_copy(tmp_path):
    dst = tmp_path / "rules"
    shutil.copytree(RULES_DIR, dst)
    return dst


def problems(rules_dir):
    with pytest.raises(RuleError) as err:
        compile_rules(rules_dir)
    return err.value.problems


def test_the_town_clerk_and_the_sewer_inspector_are_named_as_the_law_names_them():
    rules = compile_rules(RULES_DIR)
    texts = {p["id"]: p.get("text", "") for p in rules["provisions"]}
    offices = {c["id"]: c for c in rules["contacts"]["contacts"]}
    assert set(offices) == {"town-clerk", "sewer-inspector"}
    for c in offices.values():
        assert c["quote"] in " ".join(texts[c["cite"]].split()), c["id"]
        assert c["source"]
    assert "Town Clerk" in offices["town-clerk"]["quote"]
    assert "Sewer Inspector" in offices["sewer-inspector"]["quote"]


def test_no_detail_is_shown_that_the_town_has_not_published():
    """None of our sources gives an address, phone, email or hours: the file has none."""
    rules = compile_rules(RULES_DIR)
    for c in rules["contacts"]["contacts"]:
        assert not {"address", "phone", "email", "hours"} & set(c), c


def test_a_phone_without_the_town_s_source_is_refused_at_its_line(rules_copy):
    f = rules_copy / "contacts.yaml"
    f.write_text(f.read_text().replace("    cite: system\n", "    cite: system\n    phone: 845-555-0100\n"))
    [p] = problems(rules_copy)
    line = next(i for i, text in enumerate(f.read_text().splitlines(), 1) if "id: town-clerk" in text)
    assert f"contacts.yaml:{line}:" in p and "source_url" in p


def test_a_quote_that_is_not_the_law_s_words_is_refused(rules_copy):
    f = rules_copy / "contacts.yaml"
    f.write_text(f.read_text().replace("shall be filed in the office of the Sewer Inspector",
                                       "shall be mailed to the Sewer Inspector"))
    [p] = problems(rules_copy)
    assert "contacts.yaml:" in p and "permits.A" in p and "not in the text" in p


def test_an_unknown_key_is_refused(rules_copy):
    f = rules_copy / "contacts.yaml"
    f.write_text(f.read_text().replace("    cite: permits.A\n", "    cite: permits.A\n    fax: 845-555-0101\n"))
    [p] = problems(rules_copy)
    assert "contacts.yaml:" in p and "fax" in p


@pytest.fixture(scope="module")
def docs(tmp_path_factory):
    rules = compile_rules(RULES_DIR)
    out = tmp_path_factory.mktemp("contacts") / "docs"
    for lang in ("en", "es"):
        kit_pages.render_language(rules, out, lang, TODAY, CONFIG, RULES_DIR)
    return out


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("path", ["", "estimate", "permit", "industry"])
def test_the_home_page_and_each_result_page_say_who_to_contact(docs, path, lang):
    words = page_words("es") if lang == "es" else {}
    say = lambda english: words.get(english, english)  # noqa: E731
    text = (docs / ("es" if lang == "es" else "") / path / "index.md").read_text(encoding="utf-8")
    block = text[text.index('<section class="contacts"'):]
    block = block[:block.index("</section>")]
    assert say("Who to contact") in block
    assert block.count(say("to be confirmed by the Town")) == 2   # one line for each office
    assert ("Secretaría del Pueblo" if lang == "es" else "Town Clerk") in block
    assert ("Inspector de Alcantarillado" if lang == "es" else "Sewer Inspector") in block
    assert not PHONE.search(block)
    if path in ("estimate", "industry"):   # right under the result
        assert text.index('<div id="result"') < text.index('<section class="contacts"')


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_footer_block_is_in_each_language(lang):
    html = kit_pages.contacts_html(lang)
    assert ('A quién contactar' if lang == "es" else "Who to contact") in html
    assert ("pendientes de confirmación por el Pueblo" if lang == "es" else "to be confirmed by the Town") in html
    assert 'id="site-contacts"' in html and not PHONE.search(html)


def test_a_published_detail_is_shown_with_its_source(rules_copy):
    f = rules_copy / "contacts.yaml"
    f.write_text(f.read_text().replace(
        "    cite: system\n",
        "    cite: system\n    phone: (845) 555-0100\n    source_url: https://example.org/town-clerk\n"))
    html = kit_pages.contacts_html("en", rules_dir=rules_copy, compact=False)
    clerk = html[html.index('data-contact="town-clerk"'):html.index('data-contact="sewer-inspector"')]
    assert 'href="tel:8455550100"' in clerk and "(845) 555-0100" in clerk
    assert 'href="https://example.org/town-clerk"' in clerk
    assert "Email: <em" in clerk and "to be confirmed by the Town" in clerk


def test_every_built_page_ends_with_who_to_contact_and_the_home_page_says_it_once(built_site):
    pages = sorted(built_site.rglob("index.html"))
    assert len(pages) > 20
    for path in pages:
        html = path.read_text(encoding="utf-8")
        rel = path.relative_to(built_site).as_posix()
        if rel.startswith(("clerk/", "engine/", "pyodide/")):
            continue
        spanish = rel.startswith("es/")
        if rel in ("index.html", "es/index.html"):
            assert html.count('class="contacts"') == 1 and 'class="site-contacts"' not in html, rel
            continue
        assert '<div class="site-contacts">' in html, rel
        foot = html[html.index('<div class="site-contacts">'):]
        assert ("A quién contactar" if spanish else "Who to contact") in foot, rel
        assert ("pendientes de confirmación por el Pueblo" if spanish else "to be confirmed by the Town") in foot, rel
        assert not PHONE.search(foot[:foot.index("</aside>")]), rel


@pytest.mark.parametrize("keeper", ["", "the Town's IT office (it@pawling.example)"])
def test_the_clerk_s_desk_names_who_keeps_the_site_or_says_no_one_is_named(tmp_path, keeper):
    """Issue 34, H2: the desk said "send it to the person who keeps the site", and the Clerk could not tell who that
    is. With `extra: site_keeper:` in mkdocs.yml the desk names them; without it, it says the site names no one yet
    and what to ask for. The named office with its email passes the build's account-data guard."""
    from calculator.core.privacy import account_records
    rules = compile_rules(RULES_DIR)
    kit_pages.render_language(rules, tmp_path, "en", TODAY, {**CONFIG, "site_keeper": keeper}, RULES_DIR)
    text = (tmp_path / "clerk" / "index.md").read_text(encoding="utf-8")
    if keeper:
        # at the start of its sentence with a capital (Linda: "How this site is published. the Town's IT office …")
        assert f"published.** The Town's IT office (it@pawling.example) keeps this site for the Town" in text
        assert f"Send it to {keeper}, by email" in text
        assert f'data-site-keeper="{keeper.replace(chr(39), "&#39;")}"' in text or f'data-site-keeper="{keeper}"' in text
        assert "does not name who keeps it" not in text
        assert not account_records(f"<p>{keeper} keeps this site for the Town. Send it to {keeper}.</p>")
    else:
        assert "**This site does not name who keeps it yet.** Ask whoever set the site up" in text
        assert 'data-site-keeper=""' in text
