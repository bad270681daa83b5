"""The pages after the Clerk adopts next year's schedule and the site is rebuilt before it starts (the
usability test of fiscal year 2027: adopted on November 20, 2026, the site rebuilt on December 6, 2026).
The pages are rendered from a copy of rules/ holding the adopted schedule, in English and Spanish."""
import contextlib
import datetime as dt
import io
import shutil

import pytest

from calculator.core.i18n import localized, speaking
from kit.clerk import command as clerk
from kit.rules.validate import RULES_DIR, compile_rules
from kit.site import pages
from kit.words.messages import WHEEL_DOMAINS, translations

TODAY = dt.date(2026, 12, 6)
SITE = "https://sewer.pawling.example/"


def rendered(root, rules_dir, lang):
    """{page path: its Markdown} of the site's generated pages in `lang`, built on TODAY."""
    rules = compile_rules(rules_dir)
    messages = {} if lang == "en" else translations(lang, (*WHEEL_DOMAINS, "pages"), rules_dir, rules["parameters"])
    docs = root / f"docs-{lang}"
    with speaking(lang, messages):
        here = localized(rules)
        ctx = pages.page_context(here, TODAY, {"site_url": SITE, "repo_url": None}, lang, rules_dir)
        written = pages.render_pages(here, docs, ctx, lang, rules_dir)
    return {p.relative_to(docs).as_posix(): p.read_text(encoding="utf-8") for p in written}


@pytest.fixture(scope="module")
def adopted(tmp_path_factory):
    """rules/ with fiscal 2027 proposed, noticed and adopted in the autumn of 2026, as the Clerk did."""
    root = tmp_path_factory.mktemp("adopted-2027")
    shutil.copytree(RULES_DIR, root / "rules")
    (root / "mkdocs.yml").write_text(f"site_name: copy\nsite_url: {SITE}\n")

    def step(*argv):
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            assert clerk.main([*argv, "--rules-dir", str(root / "rules")]) == 0, argv
    step("propose", "--fiscal-year", "2027", "--effective", "2027-01-01", "--om-cost", "856791",
         "--user-volume-gallons", "70000000", "--proposed-on", "2026-10-01", "--sewage-fraction", "0.80",
         "--budgeted-om-cost", "900000")
    step("notice", "2027", "--published", "2026-11-01", "--meeting", "2026-11-16", "--time", "19:00",
         "--place", "Pawling Town Hall", "--output-dir", str(root / "out"))
    step("adopt", "2027", "--date", "2026-11-20", "--recorded-on", "2026-12-01", "--ayes", "3", "--noes", "1",
         "--absent", "1", "--resolution", "2026-88")
    return {"root": root, "en": rendered(root, root / "rules", "en"), "es": rendered(root, root / "rules", "es")}


def test_the_rates_page_names_the_adopted_schedule_not_a_town_that_has_adopted_none(adopted):
    """Item 2: /rates/ said "Example only … The Town has not yet put its adopted rate on this site" above a
    table listing the 2027 schedule as adopted."""
    en, es = adopted["en"]["rates/index.md"], adopted["es"]["rates/index.md"]
    assert "has not yet put its" not in en and "todavía no\nha puesto" not in es and "todavía no ha puesto" not in es
    # issue 34: the adopted schedule leads the page (an orange "Example only" box led it, and the Clerk read it
    # as "publishing failed"); the example follows, in a sentence, with no warning box
    for page, adopted_words, example_words, box in (
            (en, "**The Town adopted the 2027 rates. They start on January 1, 2027.**",
             "Until January 1, 2027, this site uses an example schedule for its estimates.", "Example only"),
            (es, "**El Pueblo adoptó las tarifas de 2027. Empiezan el 1 de enero de 2027.**",
             "Hasta el 1 de enero de 2027, este sitio usa una tabla de ejemplo para sus estimaciones.", "Solo un ejemplo")):
        body = page.split("\n# ", 1)[1]
        first = body.split("\n## ")[1]
        assert first.startswith(("The adopted schedule", "La tabla de tarifas adoptada")) and adopted_words in first
        assert "[Rate schedule for fiscal year 2027](2027/index.md)" in first or \
            "[Tabla de tarifas del año fiscal 2027](2027/index.md)" in first
        assert "$12.24" in first  # the adopted rate: 856,791 / 70,000,000 gallons × 1,000
        second = body.split("\n## ")[2]
        assert example_words in second and "!!! warning" not in second and "$10.00" in second
        assert box not in body
    assert body.index(adopted_words) < body.index(example_words)


def test_the_example_schedule_under_until_then_is_a_table_not_raw_pipes(adopted):
    """The Clerk's second usability test: with 2027 adopted and today in 2026, /rates/ and /es/rates/ showed the
    example schedule under "Until then: the example schedule" as raw text ("| What | … |---|---|"): the
    sentence above it ran into the table. The page, as mkdocs makes it (mkdocs.yml's Markdown extensions), has
    both schedules as tables, and no pipes left as text."""
    import markdown
    for lang, heading in (("en", "Until then: the example schedule"), ("es", "Hasta entonces")):
        page = adopted[lang]["rates/index.md"].split("\n---\n", 1)[1]   # after the front matter
        html = markdown.markdown(page, extensions=["attr_list", "md_in_html", "admonition", "tables", "toc"])
        assert "|---" not in html and "| $10.00" not in html, lang
        section = html.split('id="in-force"', 1)[1].split("<h2", 1)[0]
        assert heading in html.split('id="in-force"', 1)[1].split("</h2>", 1)[0], lang
        assert section.count("<table>") == 1 and "<td>$10.00" in section.replace(" per 1,000", ""), (lang, section)
        adopted_part = html.split('id="adopted"', 1)[1].split("<h2", 1)[0]
        assert adopted_part.count("<table>") == 1 and "$12.24" in adopted_part, lang


def test_the_estimate_page_has_no_illustrative_banner_when_its_quarter_uses_the_adopted_schedule(adopted):
    """Item 2: the estimate page kept "These rates are illustrative" though its default quarter (2027-Q1)
    is billed "Under the adopted schedule"."""
    en, es = adopted["en"]["estimate/index.md"], adopted["es"]["estimate/index.md"]
    assert "These rates are illustrative" not in en and "ILLUSTRATIVE" not in en.split("## ")[1]
    assert "The schedule the Town Board adopted for this quarter is [" in en
    assert "Estas tarifas son de ejemplo" not in es


def test_without_an_adopted_schedule_the_banners_stay(tmp_path):
    """And the other way round: with only the example schedule, both banners are there, in both languages."""
    en, es = rendered(tmp_path, RULES_DIR, "en"), rendered(tmp_path, RULES_DIR, "es")
    assert "These rates are illustrative" in en["estimate/index.md"]
    assert "The Town has not yet put its" in en["rates/index.md"]
    assert "The Town Board has adopted [" not in en["rates/index.md"]
    assert "Estas tarifas son de ejemplo" in es["estimate/index.md"]


def test_the_hearing_notice_page_keeps_the_rate_list_and_the_signature_s_lines(adopted):
    """Item 3: the hearing notice's web page ran its rate list inline ("…January 1, 2027: - Rate per 1,000
    gallons of sewage: $12.24. - Share …") and its signature into one line; its PDF is right. The page
    (as mkdocs makes it, md_in_html) has the list as a list and each of the signature's lines on its own."""
    import markdown
    for lang, page in (("en", "notices/2027-hearing/index.md"), ("es", "notices/2027-hearing/index.md")):
        body = adopted[lang][page].split('<div class="notice-text" markdown>')[1].split("</div>")[0]
        html = markdown.markdown('<div markdown="1">' + body + "</div>", extensions=["md_in_html"])
        # rate, share, minimum, how the rate was set, the law's words for it (clerk11, N2), each user's charge
        assert html.count("<li>") == 6, (lang, html)
        assert " - " not in html.replace("<li>", "")
    html = markdown.markdown(adopted["en"]["notices/2027-hearing/index.md"].split('<div class="notice-text" '
                                                                               'markdown>')[1].split("</div>")[0])
    assert "<li>Rate per 1,000 gallons of sewage: $12.24.</li>" in html
    assert "By order of the Town Board of the Town of Pawling<br>\nTown Clerk<br>\nPublished" in html
    assert "TOWN OF PAWLING, DUTCHESS COUNTY, NEW YORK<br>\nNOTICE OF PUBLIC HEARING" in html


def test_the_notices_are_the_town_s_documents_with_no_site_jargon_nor_site_talk(adopted):
    """Item 6: the newspaper notice printed "(Sewer rents D (Computation of VC))", "the law writes it CU = VC x
    VU", "(Rate schedules B (Notice and publication); Rate schedules C (Adoption))"; the annual notice to users
    said "This site's reading (the Town has not adopted it)". A Town document names where the reader finds a
    provision in the Town's law, states no formula, and does not speak of "this site", and labels its
    explanation as how the Town applies the law: it neither says that the Town has adopted a reading nor, in the
    Town's own notice, that it has not (clerk12, M5)."""
    from calculator.rates import notices
    rules = compile_rules(adopted["root"] / "rules")
    hearing = notices.hearing_notice_text(rules, "2027", SITE)
    assert "(the sewer-use law's rate schedules section, paragraphs B and C)" in hearing
    assert "The law (the sewer-use law's sewer rents section, paragraph D) says the rate “shall be established" in hearing
    for jargon in ("Sewer rents D (", "Rate schedules B (", "CU = VC", "the law writes it", "this site"):
        assert jargon not in hearing, jargon
    users = notices.user_notice(rules, "2027", SITE)
    for doc in (users["text"], users["html"]):
        assert "this site" not in doc.lower() and "This site" not in doc
    assert "How the Town applies it: " in users["text"]
    assert "the Town applies one reading of it" in users["text"] and "has not adopted" not in users["text"]
    messages = translations("es", WHEEL_DOMAINS, RULES_DIR, rules["parameters"])
    with speaking("es", messages):
        es = notices.user_notice(localized(rules), "2027", SITE)["text"]
    assert "interpretación de este sitio" not in es and "el Pueblo aplica una de sus interpretaciones" in es
    assert "no ha adoptado" not in es


def test_the_schedule_s_page_gives_the_meeting_s_time_as_its_notice_does(adopted):
    """Item 7: /rates/2027/ said the meeting was at "19:00" where the notice said "7:00 p.m."."""
    en, es = adopted["en"]["rates/2027/index.md"], adopted["es"]["rates/2027/index.md"]
    assert "November 16, 2026 at 7:00 p.m., Pawling Town Hall" in en
    assert "19:00" not in en and "19:00" not in es
    assert "7:00 p. m." in es


def test_the_schedule_s_page_shows_the_budget_the_clerk_entered_beside_the_rate(adopted):
    """Item 10: the desk's "This year's budgeted … (optional): Shown beside the rate" appeared nowhere. The
    schedule's page shows it, saying it is not what the rate is worked out from (the reading in force)."""
    en, es = adopted["en"]["rates/2027/index.md"], adopted["es"]["rates/2027/index.md"]
    assert "| Budgeted operation and maintenance cost for the year | $900,000.00 (shown beside the rate, not used for it) |" in en
    assert "$900,000.00" in es and "Budgeted operation" not in es


MINIMUM_2026 = '''values:
  "2026-01-01":
    value: 10000
    quote: "water meter usage of 10,000 gallons in such calendar quarter"
    local_law: 1-2026
'''


def test_after_a_dated_amendment_of_the_minimum_the_rates_page_gives_the_engine_s_figures(tmp_path):
    """The seventh hostile tester (F2): with the minimum amended to 10,000 gallons from 2026-01-01, /rates/ said
    "$64.00 (the charge for 10,000 gallons of water)": $64.00 is the charge for 8,000. Each figure is now the
    engine's, with the gallons the engine used: the schedule's first quarter's, and today's since the amendment.
    With the example's rate and share changed too, the rate and share shown are the ones the engine bills by."""
    from calculator.bills import bill
    shutil.copytree(RULES_DIR, tmp_path / "rules")
    rules_dir = tmp_path / "rules"
    for name in ("law.yaml", "interpretations/minimum-with-sewage-meter.yaml"):
        path = rules_dir / name
        path.write_text(path.read_text(encoding="utf-8").replace("usage of 8,000 gallons", "usage of 10,000 gallons"),
                        encoding="utf-8")
    path = rules_dir / "parameters" / "minimum-charge-water-gallons.yaml"
    path.write_text(path.read_text(encoding="utf-8") + MINIMUM_2026, encoding="utf-8")
    path = rules_dir / "rate-schedules" / "2025-illustrative.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace('vc_per_1000_gallons: "10.00"', 'vc_per_1000_gallons: '
                    '"11.50"').replace('sewage_fraction: "0.80"', 'sewage_fraction: "0.90"'), encoding="utf-8")
    rules = compile_rules(rules_dir)
    first, now = (bill.compute(rules, q, {"water-gallons": "0"}) for q in ("2025-Q1", "2026-Q4"))
    assert (first["minimum_charge"], now["minimum_charge"]) == ("82.80", "103.50")  # 8,000 and 10,000 × 0.90 × $11.50
    assert (now["schedule"]["vc_per_1000_gallons"], now["schedule"]["sewage_fraction"]) == ("11.50", "0.90")
    en, es = rendered(tmp_path, rules_dir, "en")["rates/index.md"], rendered(tmp_path, rules_dir, "es")["rates/index.md"]
    assert ("| Minimum charge per quarter | $82.80 (the charge for 8,000 gallons of water) (until December 31, 2025); "
            "$103.50 (the charge for 10,000 gallons of water) (since January 1, 2026) |") in en
    assert "| Rate | $11.50 per 1,000 gallons |" in en and "| Share of metered water billed as sewage | 90% |" in en
    assert "$64.00" not in en and "$80.00" not in en
    row = next(line for line in es.splitlines() if "$82.80" in line)
    assert "8,000 galones" in row and "$103.50" in row and "10,000 galones" in row and "$11.50" in es and "90" in es
    assert row.index("8,000 galones") < row.index("$103.50") < row.index("10,000 galones")
