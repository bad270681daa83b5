"""A rehearsal of the publish job (.github/workflows/pages.yml), as far as this machine allows.

GitHub Pages serves a project site at https://OWNER.github.io/REPO/, and the workflow builds with
that address as the site's own (`build.py build --site-url`, from actions/configure-pages). Here
the site is built the same way for https://pawling.github.io/pawling-sewer/, served under
/pawling-sewer/ on 127.0.0.1 (nothing at the root), and walked in Chromium at that address, every
request for it answered from here: the estimate, the permit checker and a notice, in English and
in Spanish. No request may get a 404, and none may go to another host."""
import json
import re
import shutil
import threading
from decimal import Decimal
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import pytest
from playwright.sync_api import expect

from calculator.permits import flow
from calculator.cli import run_json
from calculator.core.rules import load
from casebook import complete_permit_answers
from kit.clerk import command as clerk
from kit.site import build as kit_site
from kit.rules.validate import RULES_DIR

pytestmark = pytest.mark.browser
TIMEOUT = 120_000  # Pyodide's first start on a busy 2-core machine
REPO = "pawling-sewer"
PAGES_URL = f"https://pawling.github.io/{REPO}/"  # what configure-pages gives as base_url, plus "/"
ESTIMATE = {"quarter": "2027-Q1", "water-gallons": "12000"}  # a shared link's query
PERMIT = complete_permit_answers(load(), [("work", "new-connection"), ("street-opening", "yes")], "no")
NOTICE = "2028-hearing"
CLERKS_URL = "https://sewer.pawling.example/"


@pytest.fixture(scope="module")
def published(tmp_path_factory):
    """The site as the publish job builds it, for a repository whose Clerk has published a hearing
    notice (the shipped rules have none), in a folder served under /pawling-sewer/."""
    root = tmp_path_factory.mktemp("pages")
    rules = root / "rules"
    shutil.copytree(RULES_DIR, rules)
    # the Clerk's commands ask for an address (a notice names it): another one, which the site must not name
    (root / "mkdocs.yml").write_text(f"site_name: copy\nsite_url: {CLERKS_URL}\n")
    for argv in (["propose", "--fiscal-year", "2028", "--effective", "2028-01-01", "--om-cost", "856791",
                  "--user-volume-gallons", "70000000", "--proposed-on", "2027-10-01", "--sewage-fraction", "0.80"],
                 ["notice", "2028", "--published", "2027-11-01", "--meeting", "2027-11-16", "--time", "19:00",
                  "--place", "Town Hall"]):
        assert clerk.main([*argv, "--rules-dir", str(rules)]) == 0, argv
    # as in the workflow: the repository's mkdocs.yml, without site_url; the address comes from Pages
    (root / "mkdocs.yml").unlink()
    served = root / "served"
    site = kit_site.build(served / REPO, rules_dir=rules, site_url=PAGES_URL.rstrip("/"))
    server = kit_site.serve(served, port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield {"site": site, "origin": f"http://127.0.0.1:{server.server_address[1]}"}
    server.shutdown()


def local(address: str, origin: str) -> str:
    """The published address as served here: the same path on 127.0.0.1."""
    return origin + urlsplit(address).path + (f"?{urlsplit(address).query}" if urlsplit(address).query else "")


def served_file(site: Path, address: str) -> Path:
    path = urlsplit(address).path[len(f"/{REPO}/"):]
    return site / path / "index.html" if path == "" or path.endswith("/") else site / path


def test_every_address_the_site_gives_of_itself_is_a_file_it_serves(published):
    """The sitemap, the feed, the calendar, each page's canonical and hreflang links and the notices
    name the site by its published address; each must lead to a file of this build."""
    site = published["site"]
    found = {}
    for f in site.rglob("*"):
        if f.suffix in (".html", ".xml", ".ics", ".txt") and f.is_file():
            text = f.read_text(encoding="utf-8").replace("\r\n ", "")  # an .ics folds long lines
            for address in re.findall(re.escape(PAGES_URL) + r"[^\s\"'<>)\\]*", text):
                address = address.rstrip(".,;:")  # a sentence that ends with the address
                found.setdefault(address, set()).add(f.relative_to(site).as_posix())
    missing = {a: sorted(where)[:3] for a, where in found.items() if not served_file(site, a).is_file()}
    assert not missing, missing
    naming = {w for where in found.values() for w in where}
    assert {"sitemap.xml", "notices/feed.xml", "index.html", "es/index.html",
            f"notices/{NOTICE}/index.html", f"es/notices/{NOTICE}/index.html"} <= naming
    assert any(n.endswith(".ics") for n in naming)
    assert f"{PAGES_URL}rates/2028/" in found and f"{PAGES_URL}es/rates/2028/" in found  # the notices' address
    assert not [a for a in found if "/./" in a]  # each address in its one form (not …/pawling-sewer/./)
    # the build's address, not the one the Clerk's commands had, nor this machine's; except the hearing notice
    # shown as it ran in the newspaper, with the address it printed then (notice.yaml's website; issue 34)
    # (the feeds carry that notice's text too, the Spanish page's own feed its Spanish text); and the site
    # keeper's steps, which give an example address and name this machine's as one the build refuses
    as_it_ran = {f"notices/{NOTICE}/index.html", f"es/notices/{NOTICE}/index.html"}
    assert not [f for f in site.rglob("*") if f.suffix in (".html", ".xml", ".ics", ".txt", ".js")
                and f.relative_to(site).as_posix() not in as_it_ran | {"notices/feed.xml", "es/notices/feed.xml", "clerk/publish/index.html"}
                and re.search(r"sewer\.pawling\.example|127\.0\.0\.1", f.read_text(encoding="utf-8"))]
    assert all("sewer.pawling.example/" in (site / page).read_text(encoding="utf-8") for page in as_it_ran)


def test_the_published_site_walked_in_both_languages_has_no_404_and_stays_on_its_host(browser, published):
    """The browser is at https://pawling.github.io/pawling-sewer/ itself, each request for that host
    answered by the server here: the addresses the build wrote (canonical, hreflang, the notices')
    are then the ones the page is on, as on GitHub Pages. Any other host is refused and noted."""
    origin = published["origin"]
    base = PAGES_URL
    host = f"https://{urlsplit(PAGES_URL).netloc}/"
    context = browser.new_context()
    not_found, elsewhere, asked = [], [], []

    def from_this_machine(route):
        url = route.request.url
        if not url.startswith(host):
            elsewhere.append(url)
            return route.abort()
        asked.append(url)
        return route.fulfill(response=route.fetch(url=local(url, origin), max_redirects=0))

    context.route("**/*", from_this_machine)
    context.on("response", lambda r: not_found.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page = context.new_page()

    # the estimate from a shared link, then the language switch (which keeps the query)
    want = json.loads(run_json(["bill", *(w for k, v in ESTIMATE.items() for w in (f"--{k}", v))]))["result"]
    page.goto(f"{base}estimate/?{urlencode(ESTIMATE)}")
    expect(page.locator("#result-total")).to_have_text(f"${Decimal(want['total']):,.2f}", timeout=TIMEOUT)
    page.click('a[hreflang="es"]')
    expect(page).to_have_url(f"{base}es/estimate/?{urlencode(ESTIMATE)}")
    expect(page.locator("html")).to_have_attribute("lang", "es")
    expect(page.locator("#result-total")).to_contain_text(re.compile(r"\d"), timeout=TIMEOUT)
    spanish_total = page.locator("#result-total").inner_text()
    assert re.sub(r"\D", "", spanish_total) == re.sub(r"\D", "", f"{Decimal(want['total']):.2f}")

    # the permit checker's outcome from a link, in each language
    outcome = flow.evaluate(load(), PERMIT)["outcome"]
    for folder in ("", "es/"):
        page.goto(f"{base}{folder}permit/?{urlencode(PERMIT + [('step', 'result')])}")
        expect(page.locator("#permit-checker")).to_have_attribute("data-state", "outcome", timeout=TIMEOUT)
        expect(page.locator("#outcome")).to_have_attribute("data-outcome", outcome)

    # a notice, reached from the notices page as a reader does; its PDF; the address it prints
    for folder in ("", "es/"):
        page.goto(f"{base}{folder}notices/")
        page.locator(f'main a[href*="{NOTICE}/"]').first.click()
        expect(page).to_have_url(f"{base}{folder}notices/{NOTICE}/")
        printed = f"{PAGES_URL}{folder}rates/2028/"
        expect(page.locator("main")).to_contain_text(printed)
        pdf = page.locator('main a[href$=".pdf"]').first
        answer = page.request.get(local(pdf.evaluate("a => a.href"), origin))
        assert answer.ok and answer.headers["content-type"] == "application/pdf" and answer.body()[:5] == b"%PDF-"
        page.goto(printed)
        expect(page.locator("h1")).to_contain_text("2028")
    page.wait_for_load_state("networkidle")
    context.close()
    assert any("/pyodide/" in url for url in asked) and any("/engine/" in url for url in asked)  # the engine ran here
    assert not_found == [] and elsewhere == [], {"404": not_found, "another host": elsewhere}
