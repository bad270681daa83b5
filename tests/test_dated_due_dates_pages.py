"""A due-date amendment on the pages (the eighth hostile tester, F8): with bill-due-dates amended from a
date, /law/ listed both values with their dates, but /estimate/ and /rates/, in English and Spanish, gave
the new dates alone, as if always in force, while the estimate still offered quarters due on the old ones.
Every page now says the dated values one way (docs/templates/pages/_dated.j2), "… at first; … from <date>".
The pages are rendered once per language from a copy of rules/ (no site build: it stays fast)."""
import datetime as dt
import shutil

import pytest

from calculator.core.i18n import localized, speaking
from kit.rules.validate import RULES_DIR, compile_rules
from kit.site import pages
from kit.words.messages import WHEEL_DOMAINS, translations

TODAY = dt.date(2026, 12, 6)
DUE_2027 = ('values:\n  "2027-01-01":\n    value: ["01-31", "04-30", "07-31", "10-31"]\n'
            '    quote: "billed quarterly"\n    source: "Due dates moved (a test)"\n')
PAGES = ("estimate/index.md", "rates/index.md", "law/index.md")


def rendered(rules_dir, root, lang):
    rules = compile_rules(rules_dir)
    messages = {} if lang == "en" else translations(lang, (*WHEEL_DOMAINS, "pages"), rules_dir, rules["parameters"])
    docs = root / f"docs-{lang}"
    with speaking(lang, messages):
        here = localized(rules)
        ctx = pages.page_context(here, TODAY, {"site_url": None, "repo_url": None}, lang, rules_dir)
        written = pages.render_pages(here, docs, ctx, lang, rules_dir)
    return {p.relative_to(docs).as_posix(): " ".join(p.read_text(encoding="utf-8").split())
            for p in written if p.relative_to(docs).as_posix() in PAGES}


@pytest.fixture(scope="module")
def amended(tmp_path_factory):
    root = tmp_path_factory.mktemp("due-dates")
    shutil.copytree(RULES_DIR, root / "rules")
    path = root / "rules" / "parameters" / "bill-due-dates.yaml"
    path.write_text(path.read_text(encoding="utf-8") + DUE_2027, encoding="utf-8")
    return {lang: rendered(root / "rules", root, lang) for lang in ("en", "es")}


EN = ("January 15, April 15, July 15 and October 15 at first; January 31, April 30, July 31 and October 31 "
      "from January 1, 2027")


ES = ("15 de enero, 15 de abril, 15 de julio y 15 de octubre al principio; 31 de enero, 30 de abril, 31 de julio y "
      "31 de octubre desde el 1 de enero de 2027")


def test_estimate_rates_and_law_give_each_due_date_with_its_date_in_english(amended):
    en = amended["en"]
    assert f"Each quarter's bill is billed in advance and due on its due date: {EN}." in en["estimate/index.md"]
    assert f"Bills are due on {EN} (" in en["rates/index.md"]
    assert EN in en["law/index.md"]  # the same words as /law/, which had them right
    for page in ("estimate/index.md", "rates/index.md"):  # never the new dates alone, as if always in force
        assert "due date: January 31" not in en[page] and "due on January 31, April 30" not in en[page]


def test_the_spanish_pages_give_each_due_date_with_its_date(amended):
    es = amended["es"]
    assert f"vence en estas fechas: {ES}." in es["estimate/index.md"]
    assert f"Las facturas vencen el {ES} (" in es["rates/index.md"]
    assert ES in es["law/index.md"]
    assert "vence en estas fechas: 31 de enero" not in es["estimate/index.md"]


def test_without_an_amendment_the_pages_give_the_dates_alone():
    rules = compile_rules(RULES_DIR)
    assert len(rules["parameters"]["bill-due-dates"].get("history", [])) <= 1  # so the shipped pages are unchanged
