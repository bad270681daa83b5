"""The files the build adds beside the permit and industry pages, read back without a
browser: the blank application PDF (its fields and their accessible names), the
due-dates calendar (.ics), and the pypdf wheel the browser fills the form with."""
import base64
import datetime as dt
import hashlib
import re
import zipfile

import pytest
import yaml
from icalendar import Calendar
from pypdf import PdfReader

from calculator.permits import application
from kit.documents import due_dates as kit_due_dates
from kit.site import pages as kit_pages
from kit.site import build as kit_site
from kit.browser import wheel as kit_wheel
from calculator.core.rules import load

RULES = load()
FORM = RULES["application_form"]
P = RULES["parameters"]


@pytest.fixture(scope="module")
def site(built_site):
    return built_site


# ---- the blank application -----------------------------------------------------------

def test_the_site_has_the_blank_application_with_every_field_named_for_screen_readers(site):
    pdf = site / kit_pages.APPLICATION_PDF
    reader = PdfReader(str(pdf))
    fields = reader.get_fields()
    # page order is tab order; a yes-no field is two boxes, NAME-yes and NAME-no
    assert list(fields) == [w for f in FORM["fields"] for w in application.widget_names(f)]
    for f in FORM["fields"]:
        want = f["label"] + (" (required)" if f.get("required") else "")
        for w in application.widget_names(f):
            word = w.rsplit("-", 1)[1] if f["type"] == "yes-no" else None
            names = {"yes": "Yes", "no": "No", "na": "Not applicable"}  # (a box's name: "na" since issue 34)
            assert fields[w]["/TU"] == (f"{want}: {names[word]}" if word else want), w
    assert reader.metadata.title == FORM["title"]
    assert str(reader.trailer["/Root"]["/Lang"]) == "en-US"
    assert oct(pdf.stat().st_mode & 0o777) == oct(0o644)  # the web server can read it


def test_the_blank_application_is_the_same_bytes_twice(tmp_path):
    a = kit_pages.build_application_pdf(RULES, tmp_path / "a").read_bytes()
    b = kit_pages.build_application_pdf(RULES, tmp_path / "b").read_bytes()
    assert a == b


def test_the_permit_page_links_the_form_and_names_the_wheels(site):
    html = (site / "permit" / "index.html").read_text()
    assert 'href="application.pdf"' in html and 'href="application/"' in html
    assert f'data-pypdf="engine/{kit_wheel.pypdf_wheel_name()}"' in html
    assert (site / "engine" / kit_wheel.pypdf_wheel_name()).is_file()
    assert 'src="../assets/permit.js"' in html
    assert "assets/permit.js" not in (site / "law" / "index.html").read_text()
    assert "assets/industry.js" in (site / "industry" / "index.html").read_text()


# ---- the due-dates calendar ----------------------------------------------------------

def read_calendar(path):
    return Calendar.from_ical(path.read_bytes())


def expected_dates(parameter, years):
    return sorted(dt.date(y, int(md[:2]), int(md[3:])) for y in years for md in P[parameter]["value"])


def test_the_calendar_has_the_report_and_bill_dates_for_this_year_and_the_next_four(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(int(dt.datetime(2027, 2, 1, tzinfo=dt.timezone.utc).timestamp())))
    path = kit_due_dates.build_due_dates_calendar(RULES, tmp_path, dt.date(2027, 2, 1))
    cal = read_calendar(path)
    events = list(cal.walk("VEVENT"))
    reports = sorted(e.decoded("dtstart") for e in events if "Section 307" in str(e["summary"]))
    bills = sorted(e.decoded("dtstart") for e in events if "sewer bill" in str(e["summary"]).lower())
    # five years: a file of two went silent after the second (the usability test public12, L2)
    assert reports == expected_dates("industry-report-due-dates", (2027, 2028, 2029, 2030, 2031))
    assert reports[0] == dt.date(2027, 3, 15)
    assert bills == expected_dates("bill-due-dates", (2027, 2028, 2029, 2030, 2031))
    assert bills[0] == dt.date(2027, 1, 15)
    assert len(events) == len(reports) + len(bills)
    for e in events:
        start = e.decoded("dtstart")
        assert type(start) is dt.date  # an all-day event
        assert e.decoded("dtend") == start + dt.timedelta(days=1)
        assert e.decoded("dtstamp") == dt.datetime(2027, 2, 1, tzinfo=dt.timezone.utc)
        assert str(e["uid"]).startswith(start.isoformat()) and str(e["uid"]).endswith("@pawling-sewer-kit")
    assert len({str(e["uid"]) for e in events}) == len(events)
    q1 = next(e for e in events if e.decoded("dtstart") == dt.date(2027, 1, 15))
    # in words, as a person reads it: the water the bill charges for, as the estimate names it
    assert str(q1["summary"]) == "Sewer bill due (water used October–December 2026)"
    # the provision as the site names it, not the law's heading "Sewer rents" (the usability test: Linda)
    assert "Sewer charges (the law’s “sewer usage rent”), section F (Due dates and late penalty)" in str(q1["description"])
    assert "Sewer rents" not in path.read_text()
    assert str(cal["version"]) == "2.0" and "Pawling" in str(cal["prodid"])


def test_each_due_date_has_a_reminder_a_week_before(tmp_path):
    # the usability test (Linda): her report was due in 9 days and the calendar had no reminder
    path = kit_due_dates.build_due_dates_calendar(RULES, tmp_path, dt.date(2026, 12, 6))
    cal = read_calendar(path)
    events = list(cal.walk("VEVENT"))
    assert events
    for e in events:
        alarms = [c for c in e.subcomponents if c.name == "VALARM"]
        assert len(alarms) == 1, e["summary"]
        alarm = alarms[0]
        assert str(alarm["action"]) == "DISPLAY"
        assert alarm.decoded("trigger") == -dt.timedelta(days=7)
        assert str(alarm["description"]) == f"In 7 days: {e['summary']}"
    # the dates already past on the build day stay: the file is the whole of two years (the module's docstring)
    assert min(e.decoded("dtstart") for e in events) == dt.date(2026, 1, 15)
    # it reads back as it was written, and each alarm is written as RFC 5545 has it
    assert Calendar.from_ical(path.read_bytes()).to_ical() == path.read_bytes()
    text = path.read_text()
    assert text.count("BEGIN:VALARM") == text.count("END:VALARM") == len(events)
    assert "TRIGGER:-P7D" in text


def test_the_calendar_is_the_same_bytes_twice(tmp_path, monkeypatch):
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    a = kit_due_dates.build_due_dates_calendar(RULES, tmp_path / "a", dt.date(2027, 6, 30)).read_bytes()
    b = kit_due_dates.build_due_dates_calendar(RULES, tmp_path / "b", dt.date(2027, 6, 30)).read_bytes()
    assert a == b
    stamps = {e.decoded("dtstamp") for e in Calendar.from_ical(a).walk("VEVENT")}
    assert stamps == {dt.datetime(2027, 1, 1, tzinfo=dt.timezone.utc)}


def test_the_dates_follow_the_parameters_not_the_code(tmp_path):
    rules = dict(RULES, parameters=dict(P, **{"industry-report-due-dates": dict(
        P["industry-report-due-dates"], value=["06-30"])}))
    cal = read_calendar(kit_due_dates.build_due_dates_calendar(rules, tmp_path, dt.date(2030, 5, 1)))
    reports = sorted(e.decoded("dtstart") for e in cal.walk("VEVENT") if "Section 307" in str(e["summary"]))
    assert reports == [dt.date(year, 6, 30) for year in range(2030, 2035)]


def test_the_built_site_serves_the_calendar_beside_the_industry_page(site):
    cal = read_calendar(site / kit_due_dates.CALENDAR_FILE)
    year = kit_pages.build_date().year
    starts = {e.decoded("dtstart") for e in cal.walk("VEVENT")}
    assert set(expected_dates("industry-report-due-dates", (year, year + 1))) <= starts
    assert 'href="sewer-due-dates.ics"' in (site / "industry" / "index.html").read_text()


def test_the_report_dates_have_a_calendar_of_their_own(site):
    """public14, Linda: the one file mixed five years of bills with her reports. The reports' own file holds
    every report date of the full file and nothing else; the page links it first, and the full file second."""
    everything = read_calendar(site / kit_due_dates.CALENDAR_FILE)
    reports = read_calendar(site / kit_due_dates.REPORTS_FILE)
    report_events = [e for e in everything.walk("VEVENT") if "Section 307" in str(e["summary"])]
    assert len(report_events) < len(everything.walk("VEVENT"))  # the full file has the bills too
    assert sorted(e.decoded("dtstart") for e in reports.walk("VEVENT")) == sorted(e.decoded("dtstart") for e in report_events)
    assert all("Section 307" in str(e["summary"]) for e in reports.walk("VEVENT"))
    assert str(reports["x-wr-calname"]) == "Town of Pawling Section 307 report dates"
    page = (site / "industry" / "index.html").read_text()
    assert page.index('href="section-307-report-dates.ics"') < page.index('href="sewer-due-dates.ics"')
    spanish = read_calendar(site / "es" / kit_due_dates.REPORTS_FILE)
    assert all("Sección 307" in str(e["summary"]) for e in spanish.walk("VEVENT")), [str(e["summary"]) for e in spanish.walk("VEVENT")][:2]


# ---- the pypdf wheel -------------------------------------------------------------------

def test_the_pypdf_wheel_is_pypdf_whole_and_the_same_bytes_twice(tmp_path):
    import pypdf
    a = kit_wheel.build_pypdf_wheel(tmp_path / "a")
    b = kit_wheel.build_pypdf_wheel(tmp_path / "b")
    assert a.read_bytes() == b.read_bytes()
    assert a.name == f"pypdf-{pypdf.__version__}-py3-none-any.whl"
    with zipfile.ZipFile(a) as zf:
        names = zf.namelist()
        assert "pypdf/__init__.py" in names and "pypdf/generic/__init__.py" in names
        assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
        dist = f"pypdf-{pypdf.__version__}.dist-info"
        assert f"{dist}/licenses/LICENSE" in names
        assert zf.read(f"{dist}/top_level.txt") == b"pypdf\n"
        record = zf.read(f"{dist}/RECORD").decode().splitlines()
        for line in record:
            name, digest, size = line.rsplit(",", 2)
            if not digest:
                continue
            data = zf.read(name)
            assert digest == "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            assert int(size) == len(data)
        assert {i.date_time for i in zf.infolist()} == {kit_wheel.ZIP_TIME}


# ---- the site's own address (mkdocs.yml site_url) -------------------------------------------------

def test_with_the_site_s_address_each_calendar_event_links_to_its_page(tmp_path):
    cal = read_calendar(kit_due_dates.build_due_dates_calendar(RULES, tmp_path, dt.date(2027, 2, 1),
                                                               "https://sewer.pawling.example"))
    urls = {"bill" if "sewer bill" in str(e["summary"]).lower() else str(e["summary"]).split(" (")[0]: str(e["url"])
            for e in cal.walk("VEVENT")}
    assert urls == {"bill": "https://sewer.pawling.example/estimate/",
                    "Section 307 report due": "https://sewer.pawling.example/industry/#report-dates"}
    plain = read_calendar(kit_due_dates.build_due_dates_calendar(RULES, tmp_path / "plain", dt.date(2027, 2, 1)))
    assert not any("url" in e for e in plain.walk("VEVENT"))


def test_the_project_settings_come_from_the_mkdocs_yml_beside_the_rules(tmp_path):
    from kit.rules.config import ROOT, project_config
    (tmp_path / "rules").mkdir()
    assert project_config(tmp_path / "rules")["file"] == ROOT / "mkdocs.yml"
    (tmp_path / "mkdocs.yml").write_text("site_name: x\nsite_url: https://sewer.pawling.example/\n")
    assert project_config(tmp_path / "rules") == {"site_url": "https://sewer.pawling.example/", "repo_url": None,
                                                  "site_keeper": None, "pictures": {}, "file": tmp_path / "mkdocs.yml"}
    # who keeps the site (issue 34, H2): plain words, written as they are into the Clerk's desk
    (tmp_path / "mkdocs.yml").write_text("site_name: x\nextra:\n  site_keeper: \"the Town's IT office  (it@x.gov)\"\n")
    assert project_config(tmp_path / "rules")["site_keeper"] == "the Town's IT office (it@x.gov)"
    from kit.errors import BuildError
    for bad in ('\'"><script>alert(1)</script>\'', "[1, 2]", "'{{ 7*7 }}'"):
        (tmp_path / "mkdocs.yml").write_text(f"site_name: x\nextra:\n  site_keeper: {bad}\n")
        with pytest.raises(BuildError, match="site_keeper"):
            project_config(tmp_path / "rules")


@pytest.mark.parametrize("url", ['http://evil.example/"><script>alert(1)</script>', "javascript:alert(1)",
                                 "https://x.example/a'b", "https://x.example/<p>"])
def test_a_site_url_in_mkdocs_yml_that_is_not_a_plain_web_address_stops_the_build(tmp_path, url):
    """The fifth hostile tester: the site's address is written as it is into every page's hreflang link and
    the calendars; one with quotes or < > put a script on every page. The build refuses it, saying where."""
    import shutil
    from kit.errors import BuildError
    from kit.rules.validate import RULES_DIR
    shutil.copytree(RULES_DIR, tmp_path / "rules")
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump({"site_name": "x", "site_url": url}))
    with pytest.raises(BuildError) as refused:
        kit_site.build(tmp_path / "site", rules_dir=tmp_path / "rules")
    assert f"site_url in {tmp_path / 'mkdocs.yml'} {url!r} is not a web address: give the address the site is " \
           "published at, like https://OWNER.github.io/REPO/" in str(refused.value)
    assert not (tmp_path / "site").exists()


def test_a_site_with_a_notice_built_without_its_address_names_no_address(tmp_path):
    """A notice names where the schedule can be read; a relative /rates/ means nothing in a newspaper, so a
    site built without its address gives the notices none (the Town Clerk's office alone; issue 34)."""
    import shutil
    from kit.clerk import command as clerk
    from kit.rules.validate import RULES_DIR
    shutil.copytree(RULES_DIR, tmp_path / "rules")
    # (a notice is shown as it ran, with the address it printed, since issue 34: so one made without an address)
    (tmp_path / "mkdocs.yml").write_text("site_name: x\n")
    for argv in (["propose", "--fiscal-year", "2028", "--effective", "2028-01-01", "--om-cost", "856791",
                  "--user-volume-gallons", "70000000", "--proposed-on", "2027-10-01", "--sewage-fraction", "0.80"],
                 ["notice", "2028", "--published", "2027-11-01", "--meeting", "2027-11-16", "--time", "19:00",
                  "--place", "Town Hall"]):
        assert clerk.main([*argv, "--rules-dir", str(tmp_path / "rules")]) == 0
    (tmp_path / "mkdocs.yml").write_text("site_name: x\n")
    kit_site.build(tmp_path / "site", rules_dir=tmp_path / "rules")
    notice = next((tmp_path / "site" / "notices").glob("*/index.html")).read_text(encoding="utf-8")
    text = notice.split('<div class="notice-text">')[1].split("</div>")[0]
    assert "office of the Town Clerk" in text and "/rates/2028/" not in text and "http" not in text


# ---- the law cited in a resident's words -------------------------------------------------

@pytest.mark.parametrize("lang, full, short", [
    ("", "Sewer charges (the law’s “sewer usage rent”), section ", "Sewer charges, section "),
    # (Spanish: the name alone, the English phrase not glossed on sections that do not use it: spanish13 C-2,
    # spanish14 C-1; it was added for spanish7 C7)
    ("es/", "Cargos de alcantarillado, sección ", "Cargos de alcantarillado, sección ")])
def test_a_page_names_the_sewer_rents_article_in_a_residents_words(site, lang, full, short):
    """Issue 19: "Sewer rents B (…)" means nothing to a resident. A page's citations of that
    article say "Sewer charges (the law's 'sewer rents'), section B" the first time, then
    "Sewer charges, section D"; each still links to its provision on /law/."""
    import re
    html = (site / lang / "rates" / "index.html").read_text(encoding="utf-8")
    links = re.findall(r'<a href="\.\./law/#(rents-[a-z0-9-]+)"[^>]*>(.+?)</a>', html)
    # (D three times: the rate in words, which place of the law the site follows, then the chart's caption)
    assert [a for a, _ in links] == ["rents-b", "rents-c-1", "rents-d", "rents-d", "rents-d", "rents-f"], links
    assert [t for _, t in links] == [f"{full}B", f"{short}C(1)", f"{short}D", f"{short}D", f"{short}D", f"{short}F"]
    for page in (site / lang if lang else site).rglob("index.html"):
        if "/clerk/" not in page.as_posix():
            assert not re.search(r">Sewer rents [A-H]\b", page.read_text(encoding="utf-8")), page


def test_the_desks_sewage_share_is_asked_for_while_the_site_has_only_the_example_schedule(site):
    """clerk10: the share was labelled "(optional)" and refused when left empty, because the only schedule in
    force is the example one, whose share is invented. Optional only once an adopted schedule has a share."""
    import re
    html = (site / "clerk" / "index.html").read_text(encoding="utf-8")
    label = re.search(r'<label for="propose-sewage-fraction">(.*?)</label>', html, re.S).group(1)
    box = re.search(r'<input id="propose-sewage-fraction"[^>]*>', html).group(0)
    from calculator.core.rules import load
    adopted = [s for s in load()["schedules"] if s["status"] == "adopted"]
    assert ("(optional)" in label) == bool(adopted) and ("data-required" in box) == (not adopted)


def test_the_list_of_questions_follows_the_chosen_readings_not_one_kind_of_works_path(site):
    """spanish18, WM-1 (the English too): the list said the oil separator's "Yes" led to the result "You need a permit
    from the Sewer Inspector" (the septic system's path), though the chosen reading asks the Town Board's and/or the
    Commission's approval too, as the checker and the application say."""
    import html as _html
    page = (site / "permit" / "index.html").read_text(encoding="utf-8")
    start = page.index('id="question-oil-separator"')
    words = re.sub(r"\s+", " ", _html.unescape(re.sub(r"<[^>]+>", " ", page[start:start + 3000])))
    yes = words[words.index("Yes :"):words.index("No :")]
    assert "next, question" in yes and "the result is at least" in yes and "approval from the Town Board" in yes, yes


def test_the_desk_says_the_law_names_the_village_board_for_a_projected_rate_and_does_not_settle_who(site):
    """Linda (the Clerk's reading): the desk quoted the law's "Village Board or its agents" for a rate from projected
    figures, with no word on why a Town law names the Village's board. The desk says the law's words are the law's,
    cites section B's joint arrangement, and leaves who does what to the Town Attorney (no reading stated as law)."""
    text = re.sub(r"<[^>]+>", "", (site / "clerk" / "index.html").read_text(encoding="utf-8"))
    assert "the law says the Village Board or its agents compute VC" in text
    assert "The law names the Village Board there, not the Town Board." in text
    assert "Pawling Joint Sewer Commission" in text and "ask the Town Attorney" in text


def test_the_industry_guide_keeps_the_oil_separator_s_condition_and_says_what_the_law_leaves_unclear(site):
    """residents28 (Mr. Patel's reading): the guide said garages, laundries and cleaning works "need an oil separator",
    dropping prohibited-acts.G's "where gasoline, oils or any flammable materials are used or stored", whose reach
    the law leaves unclear. Both languages keep the condition and say it is unclear, with what to do."""
    for lang, words in (("", ("where gasoline, oil or other things that burn are used or stored",
                               "The law does not make clear", "ask the Sewer Inspector if you need one")),
                        ("es/", ("donde se usa o se guarda gasolina", "La ley no deja claro",
                                 "pregunte al Inspector de Alcantarillado si necesita uno"))):
        text = re.sub(r"<[^>]+>", "", (site / lang / "industry" / "index.html").read_text(encoding="utf-8"))
        text = " ".join(text.split())
        for w in words:
            assert w in text, (lang, w)
        assert "works need an oil separator" not in text
