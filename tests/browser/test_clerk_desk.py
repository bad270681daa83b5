"""The Clerk's whole year on the Clerk's desk (/clerk/), no terminal: propose → notice → adopt →
user-notice. Each lawful step's files are downloaded from the page into a copy of rules/, and
the site is built again from it, as a commit on GitHub would; each file must be byte for byte
what `build.py rates …` writes for the same words on a parallel copy. The refusals (a meeting 9
or 31 days after publication, a vote short of a majority of the whole board, adopting before
the notice) are shown in the error summary and offer no file."""
import shutil
import threading
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from playwright.sync_api import expect

from kit import clerk
from kit import site as kit_site
from kit.validate import RULES_DIR
from test_site import axe_violations

pytestmark = pytest.mark.browser
TIMEOUT = 60_000
SITE = "https://sewer.pawling.example/"
REPO = "https://github.com/town-of-pawling/sewer-kit"
ATOM = "{http://www.w3.org/2005/Atom}"

PROPOSE = {"fiscal-year": "2028", "effective": "2028-01-01", "om-cost": "856791",
           "user-volume-gallons": "70000000", "proposed-on": "2027-10-01"}
NOTICE = {"schedule": "2028", "published": "2027-11-01", "meeting": "2027-11-16", "time": "19:00",
          "place": "Town Hall, 160 Charles Colman Boulevard"}
ADOPT = {"schedule": "2028", "date": "2027-11-20", "ayes": "3", "noes": "1", "absent": "1", "resolution": "2027-41"}
USER_NOTICE = {"schedule": "2028"}


def cli_words(step: str, params: dict) -> list[str]:
    """The same step as `build.py rates` words: the page's names are the command's options."""
    words = [step] + ([params["schedule"]] if "schedule" in params else [])
    for name, value in params.items():
        if name != "schedule":
            words += [f"--{name}", value]
    return words


class Town:
    """Two copies of the project side by side: the desk's (its rules/ get the downloaded
    files, its site is rebuilt after each step) and the terminal's (the same steps by kit/clerk.py)."""

    def __init__(self, root: Path, browser):
        self.root, self.browser = root, browser
        for name in ("desk", "cli"):
            shutil.copytree(RULES_DIR, root / name / "rules")
            (root / name / "mkdocs.yml").write_text(f"site_name: copy\nsite_url: {SITE}\nrepo_url: {REPO}\n")
        self.desk, self.cli = root / "desk", root / "cli"
        self.server = None
        self.context = None

    def rebuild(self):
        """Build the desk's site from its rules and serve it; a fresh browser without a service
        worker, so no page comes from the previous build's offline cache."""
        self.close()
        site = kit_site.build(self.desk / "site", rules_dir=self.desk / "rules")
        self.server = kit_site.serve(site, port=0)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.context = self.browser.new_context(service_workers="block", accept_downloads=True)
        self.page = self.context.new_page()
        return site

    def close(self):
        if self.context:
            self.context.close()
        if self.server:
            self.server.shutdown()
            self.server.server_close()

    def open(self, step: str, params: dict, state="result"):
        self.page.goto(f"{self.url}/clerk/?{urlencode({'step': step, **params})}")
        desk = self.page.locator("#clerk-desk")
        expect(desk).to_have_attribute("data-state", state, timeout=TIMEOUT)
        return self.page

    def refused(self, step: str, params: dict, says: str):
        page = self.open(step, params, state="error")
        expect(page.locator("#error-summary")).to_be_visible()
        assert says in page.inner_text("#error-summary-list")
        assert page.locator("a[download]").count() == 0 and page.locator(".github-link").count() == 0
        return page

    def take(self, step: str, params: dict) -> dict:
        """Run a lawful step on the desk, save its files (records into the desk's rules/), run the same
        step in the terminal on the other copy, and check the two give the same bytes."""
        page = self.open(step, params)
        assert clerk.main([*cli_words(step, params), "--rules-dir", str(self.cli / "rules")]) == 0
        got = {}
        for item in page.locator("li.clerk-file").all():
            path = item.get_attribute("data-path")
            with page.expect_download() as info:
                item.locator("a[download]").click()
            data = Path(info.value.path()).read_bytes()
            assert info.value.suggested_filename == path.rpartition("/")[2]
            assert data == (self.cli / path).read_bytes(), path       # what the command wrote
            if path.startswith("rules/"):
                target = self.desk / path
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
            got[path] = item
        return got


@pytest.fixture
def town(tmp_path, browser):
    t = Town(tmp_path, browser)
    yield t
    t.close()


def test_the_clerk_s_year_on_the_desk(town):
    started = time.perf_counter()
    town.rebuild()

    # 1. propose: VC, the table of typical bills now and proposed, and the record with its GitHub link
    files = town.take("propose", PROPOSE)
    page = town.page
    assert page.inner_text("#vc") == "$12.24 per 1,000 gallons"
    assert page.locator("#effects-table tbody tr").first.inner_text().split("\t") == [
        "8,000", "$64.00", "$78.34", "+$14.34 (+22.4%)"]
    assert list(files) == ["rules/rate-schedules/2028/proposal.yaml"]
    link = urlsplit(files["rules/rate-schedules/2028/proposal.yaml"].locator(".github-link").get_attribute("href"))
    assert f"https://{link.netloc}{link.path}" == f"{REPO}/new/main/rules/rate-schedules/2028"
    assert parse_qs(link.query)["value"] == [(town.cli / "rules/rate-schedules/2028/proposal.yaml").read_text()]
    assert "$12.24 per 1,000 gallons" in page.text_content("#report")   # what the command prints (in a <details>)
    # before the notice is recorded (and built), adopting is refused
    town.rebuild()
    town.refused("adopt", ADOPT, "has no notice recorded")

    # 2. notice: 9 and 31 days after publication are refused; day 15 is recorded
    page = town.refused("notice", dict(NOTICE, meeting="2027-11-10"), "9 days after publication")
    assert "2027-11-16" in page.inner_text("#error-summary-list")
    assert page.evaluate("document.activeElement.id") == "error-summary"
    town.refused("notice", dict(NOTICE, meeting="2027-12-02"), "31 days after publication")
    files = town.take("notice", NOTICE)
    assert list(files) == ["rules/rate-schedules/2028/notice.yaml", "notices-out/hearing-notice-2028.txt"]
    assert files["notices-out/hearing-notice-2028.txt"].locator(".github-link").count() == 0
    assert "November 16, 2027 to December 1, 2027" in town.page.inner_text("#window")
    assert f"{SITE}rates/2028/" in town.page.inner_text("#notice-text")
    town.rebuild()
    town.page.goto(f"{town.url}/rates/")
    assert "November 16, 2027" in town.page.inner_text("article")   # the site shows the meeting

    # 3. adopt: two ayes of five is no majority, whatever the absences; three is
    town.refused("adopt", dict(ADOPT, ayes="2", noes="1", absent="2"), "not a majority of all 5 members")
    files = town.take("adopt", ADOPT)
    assert list(files) == ["rules/rate-schedules/2028/vote.yaml"]
    assert "3 ayes of all 5 members" in town.page.inner_text("#vote-needed")
    site = town.rebuild()
    assert "adopted" in (site / "rates" / "2028" / "index.html").read_text()

    # 4. the notice to users, from the adopted schedule
    files = town.take("user-notice", USER_NOTICE)
    assert list(files) == ["notices-out/user-notice-2028.txt", "notices-out/user-notice-2028.html"]
    walk = time.perf_counter() - started

    # the rebuilt site's feed links are absolute (feed readers cannot follow relative ones)
    feed = ET.parse(site / "notices" / "feed.xml").getroot()
    links = [(link.get("hreflang"), link.get("href"))
             for link in (e.find(f"{ATOM}link") for e in feed.findall(f"{ATOM}entry"))]
    assert {lang for lang, _ in links} == {"en", "es"}, links   # each notice in both languages, to its own page
    assert all(h.startswith(f"{SITE}{'' if lang == 'en' else lang + '/'}notices/") for lang, h in links), links
    sitemap = (site / "sitemap.xml").read_text()
    assert "<loc>https://sewer.pawling.example/rates/2028/</loc>" in sitemap and "/clerk/" not in sitemap
    print(f"\nthe Clerk's year on the desk: {walk:.1f} s")
    # the rules as the desk left them are the rules as the terminal left them
    assert {p.relative_to(town.desk).as_posix(): p.read_bytes() for p in (town.desk / "rules").rglob("*") if p.is_file()} \
        == {p.relative_to(town.cli).as_posix(): p.read_bytes() for p in (town.cli / "rules").rglob("*") if p.is_file()}


def test_the_desk_is_not_for_search_engines_nor_in_the_residents_menu(page, site_url):
    page.goto(f"{site_url}/clerk/")
    assert page.locator('meta[name="robots"]').get_attribute("content") == "noindex"
    assert page.locator("nav.md-nav--primary a[href*='clerk']").count() == 0
    page.goto(f"{site_url}/rates/")
    expect(page.locator("a", has_text="The Clerk's desk")).to_have_count(1)


def test_the_desk_without_repo_url_offers_downloads_only_and_its_states_pass_axe(page, site_url):
    page.goto(f"{site_url}/clerk/")
    expect(page.locator("#clerk-desk")).to_have_attribute("data-state", "ready", timeout=TIMEOUT)
    states = {"ready": axe_violations(page)}
    page.fill("#propose-fiscal-year", "2028")
    page.fill("#propose-effective", "2028-01-01")
    page.fill("#propose-om-cost", "856791")
    page.fill("#propose-user-volume-gallons", "lots")
    page.click("#propose-form button[type=submit]")
    expect(page.locator("#error-summary")).to_be_visible()
    assert "must be a number" in page.inner_text("#error-summary-list")
    expect(page.locator("#propose-user-volume-gallons")).to_have_attribute("aria-invalid", "true")
    states["error"] = axe_violations(page)
    page.fill("#propose-user-volume-gallons", "70000000")
    page.click("#propose-form button[type=submit]")
    expect(page.locator("#clerk-desk")).to_have_attribute("data-state", "result", timeout=TIMEOUT)
    assert page.locator("a[download]").count() == 1 and page.locator(".github-link").count() == 0
    assert "step=propose" in page.url and "user-volume-gallons=70000000" in page.url
    states["result"] = axe_violations(page)
    assert not any(states.values()), states
