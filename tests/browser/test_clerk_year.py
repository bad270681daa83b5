"""The Clerk's whole year, in a temporary copy of the project: propose → notice
(a refused date, then a lawful one) → adopt (a refused vote, then a lawful one)
→ build → the site, the feed and the estimator follow."""
import datetime as dt
import os
import shutil
import subprocess
import sys
import threading
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from playwright.sync_api import expect

from kit import buildcache
from kit.site import build as kit_site

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 60_000
ATOM = "{http://www.w3.org/2005/Atom}"
SITE = "https://sewer.pawling.example/"


#: the day the year's site is built for: after the vote of December 16, 2026 (the build refuses to publish a vote dated
#: after the day it builds for: clerk12), whatever the machine's date
BUILT_ON = str(int(dt.datetime(2026, 12, 31, 12, tzinfo=dt.timezone.utc).timestamp()))


def run(project: Path, *args):
    # the copy's builds take what the checkout's have kept (kit/buildcache.py), as a second build would
    env = dict(os.environ, PAWLING_BUILD_CACHE_DIR=str(buildcache.CACHE))
    if args[:1] == ("build",):
        env["SOURCE_DATE_EPOCH"] = BUILT_ON
    return subprocess.run([sys.executable, "build.py", *args], cwd=project, capture_output=True, text=True,
                          timeout=300, env=env)


def snapshot(project: Path) -> dict:
    return {p.relative_to(project).as_posix(): p.read_bytes() for p in (project / "rules").rglob("*") if p.is_file()}


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    dst = tmp_path_factory.mktemp("year") / "kit"
    anywhere = shutil.ignore_patterns("__pycache__", ".pytest_cache", ".hypothesis")
    at_top = {".git", "site", "node_modules", ".venv", ".cache", "notices-out", "mutants", "billing"}  # not kit/site/

    def ignore(folder, names):
        top = Path(folder) == ROOT
        return anywhere(folder, names) | {n for n in names if top and (n in at_top or n.startswith(".site-"))}
    shutil.copytree(ROOT, dst, ignore=ignore)
    # the checkout's environment and packages, not copies of them (470 MB): the copy's build.py
    # finds its .venv there and runs in it
    (dst / "node_modules").symlink_to(ROOT / "node_modules")
    (dst / ".venv").symlink_to(Path(sys.prefix))
    # the site's address, which notices, the feed and the sitemap name (unset in the repository's mkdocs.yml)
    config = dst / "mkdocs.yml"
    config.write_text(config.read_text() + f"site_url: {SITE}\n")
    return dst


def serve(site: Path):
    server = kit_site.serve(site, port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def test_the_clerk_s_year(project, page):
    # 1. propose
    done = run(project, "rates", "propose", "--fiscal-year", "2027", "--effective", "2027-01-01",
               "--om-cost", "856791", "--user-volume-gallons", "70000000", "--proposed-on", "2026-11-20",
               "--sewage-fraction", "0.80")
    assert done.returncode == 0, done.stderr
    assert "12.24" in done.stdout and "8,000" in done.stdout
    folder = project / "rules" / "rate-schedules" / "2027"   # one record file per step
    text = (folder / "proposal.yaml").read_text()
    assert sorted(p.name for p in folder.iterdir()) == ["proposal.yaml"] and '"12.24"' in text

    # 2. a meeting on day 14 is refused, naming the window; nothing changes
    before = snapshot(project)
    refused = run(project, "rates", "notice", "2027", "--published", "2026-12-01", "--meeting", "2026-12-15",
                  "--time", "19:30", "--place", "Town Hall, 160 Charles Colman Boulevard")
    assert refused.returncode == 2
    assert "between December 16, 2026 and December 31, 2026" in refused.stderr   # and every other lawful way out
    assert "or publish the notice by November 30, 2026" in refused.stderr
    assert snapshot(project) == before
    done = run(project, "rates", "notice", "2027", "--published", "2026-12-01", "--meeting", "2026-12-16",
               "--time", "19:30", "--place", "Town Hall, 160 Charles Colman Boulevard")
    assert done.returncode == 0, done.stderr

    # 3. while proposed: the site shows it, labelled, and the estimator shows both rates
    assert run(project, "build").returncode == 0
    rates = (project / "site" / "rates" / "index.html").read_text()
    assert "Proposed: not yet adopted" in rates and "December 16, 2026" in rates
    server, url = serve(project / "site")
    page.goto(f"{url}/estimate/?quarter=2027-Q1&water-gallons=12000")
    expect(page.locator("#result-total")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("table.bill-lines")).to_have_count(2)
    assert "Under the proposed schedule" in page.inner_text("#result")
    assert page.inner_text("#result-total") == "$96.00"  # the illustrative rate is still the one in force
    server.shutdown()

    # 4. adoption: two of five is no majority, whatever the absences; nor before the meeting
    before = snapshot(project)
    refused = run(project, "rates", "adopt", "2027", "--date", "2026-12-16", "--recorded-on", "2026-12-31", "--ayes", "2", "--noes", "1",
                  "--absent", "2")
    assert refused.returncode == 2 and "majority" in refused.stderr
    refused = run(project, "rates", "adopt", "2027", "--date", "2026-12-10", "--recorded-on", "2026-12-31", "--ayes", "4", "--noes", "1")
    assert refused.returncode == 2 and "before" in refused.stderr
    assert snapshot(project) == before
    done = run(project, "rates", "adopt", "2027", "--date", "2026-12-16", "--recorded-on", "2026-12-31", "--ayes", "3", "--noes", "1",
               "--absent", "1", "--resolution", "2026-88")
    assert done.returncode == 0, done.stderr

    # 5. build: the schedule page, the notices, the feed
    built = run(project, "build")
    assert built.returncode == 0, built.stderr
    site = project / "site"
    schedule_page = (site / "rates" / "2027" / "index.html").read_text()
    assert "adopted" in schedule_page and "$12.24" in schedule_page and "3 for" in schedule_page
    feed = ET.parse(site / "notices" / "feed.xml").getroot()
    entries = {e.find(f"{ATOM}id").text: e for e in feed.findall(f"{ATOM}entry")}
    assert set(entries) == {f"urn:pawling-sewer-kit:notice:{slug}{lang}" for slug in ("2027-hearing", "2027-rates")
                            for lang in ("", ":es")}   # each notice in English and in Spanish
    assert entries["urn:pawling-sewer-kit:notice:2027-hearing"].find(f"{ATOM}link").get("href") == \
        f"{SITE}notices/2027-hearing/"   # absolute: a feed reader cannot follow a relative link
    assert entries["urn:pawling-sewer-kit:notice:2027-hearing:es"].find(f"{ATOM}link").get("href") == \
        f"{SITE}es/notices/2027-hearing/"   # each language's entry links to its own page
    hearing = (site / "notices" / "2027-hearing" / "index.html").read_text()
    assert "Town Hall" in hearing and "December 16, 2026" in hearing
    assert (site / "notices" / "2027-hearing" / "2027-hearing.pdf").read_bytes().startswith(b"%PDF")
    listing = (site / "notices" / "index.html").read_text()
    assert listing.index("2027-rates") < listing.index("2027-hearing")  # newest first

    # 6. the estimator uses the adopted rate from its effective quarter, and not before
    server, url = serve(site)
    page.goto(f"{url}/estimate/?quarter=2027-Q1&water-gallons=12000")
    expect(page.locator("#result-total")).to_have_text("$117.50", timeout=TIMEOUT)  # 12.24 x 9,600 / 1,000
    expect(page.locator("table.bill-lines")).to_have_count(1)
    page.goto(f"{url}/estimate/?quarter=2026-Q4&water-gallons=12000")
    expect(page.locator("#result-total")).to_have_text("$96.00", timeout=TIMEOUT)
    server.shutdown()

    # 7. guardrail: a recorded vote that is no majority (edited by hand) stops the build, and site/ stays
    path = folder / "vote.yaml"
    original = path.read_text()
    path.write_text(original.replace("ayes: 3", "ayes: 2"))
    site_before = (site / "index.html").read_bytes()
    failed = run(project, "build")
    assert failed.returncode == 1
    assert "vote.yaml" in failed.stderr and "majority" in failed.stderr and "site/ is unchanged" in failed.stderr
    assert (site / "index.html").read_bytes() == site_before
    path.write_text(original)


