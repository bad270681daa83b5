"""Every page: no request to any other host, zero axe-core violations (WCAG 2.1 A/AA)."""
import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

pytestmark = pytest.mark.browser
WCAG = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}}
TIMEOUT = 60_000
# The pages that run the engine in the browser; no other page fetches a Pyodide file.
ENGINE_PAGES = {"/estimate/", "/permit/", "/industry/", "/clerk/", "/clerk/bills/", "/es/estimate/", "/es/permit/", "/es/industry/",
                # the application's web form fills the PDF with the engine (issue 19, item 8)
                "/permit/application/", "/es/permit/application/"}


def axe_violations(page):
    # let the theme's transitions (header title, back-to-top button) finish first:
    # axe measures contrast as the page is, mid-fade included
    page.evaluate("() => Promise.allSettled(document.getAnimations().map((a) => a.finished))")
    results = Axe().run(page, options=WCAG)
    return [(v["id"], v["help"], [n["target"] for n in v["nodes"]][:3]) for v in results.response["violations"]]


def test_there_are_pages_to_check(all_pages):
    assert {"/", "/estimate/", "/law/", "/rates/", "/how-we-read-the-law/", "/permit/", "/permit/application/",
            "/industry/"} <= set(all_pages)


def test_no_page_asks_another_host_for_anything(page, site_url, all_pages):
    outside, pyodide_elsewhere = [], []
    current = {"path": None}

    def seen(request):
        if not request.url.startswith(site_url) and not request.url.startswith(("data:", "blob:")):
            outside.append((current["path"], request.url))
        if "/pyodide/" in request.url and current["path"] not in ENGINE_PAGES:
            pyodide_elsewhere.append((current["path"], request.url))

    page.on("request", seen)
    for path in all_pages:
        current["path"] = path
        page.goto(site_url + path, wait_until="networkidle")
    current["path"] = "/estimate/"
    page.goto(f"{site_url}/estimate/?quarter=2027-Q1&water-gallons=12000")
    expect(page.locator("#result-total")).to_be_visible(timeout=TIMEOUT)
    assert not outside
    assert not pyodide_elsewhere


# cut into slices (every page in exactly one) so that both test workers can share the walk
PARTS = 3


@pytest.mark.parametrize("part", range(PARTS))
def test_every_page_has_no_axe_violations(warm_page, site_url, all_pages, part):
    page, found = warm_page, {}
    for path in all_pages[part::PARTS]:
        page.goto(site_url + path)
        v = axe_violations(page)
        if v:
            found[path] = v
    assert not found, found


def test_the_estimator_states_have_no_axe_violations(page, site_url):
    # loading: hold the engine wheel back until axe has looked
    held = []
    page.route("**/engine/**/*.whl", lambda route: held.append(route))
    page.goto(f"{site_url}/estimate/")
    expect(page.locator("#engine-status-text")).to_contain_text("Downloading", timeout=TIMEOUT)
    states = {"loading": axe_violations(page)}
    for route in held:
        route.continue_()
    page.unroute("**/engine/**/*.whl")
    expect(page.locator("#estimator[data-engine=ready]")).to_have_count(1, timeout=TIMEOUT)
    page.fill("#usage", "12000")
    page.fill("#paid-on", "2027-06-01")
    page.click("#estimate-button")
    expect(page.locator("#result-total")).to_be_visible()
    states["result"] = axe_violations(page)
    page.locator("#what-if summary").click()
    page.fill("#vc-per-1000", "-1")
    page.click("#estimate-button")
    expect(page.locator("#error-summary")).to_be_visible()
    states["error"] = axe_violations(page)
    assert states == {"loading": [], "result": [], "error": []}


def test_axe_does_find_a_violation_when_there_is_one(page, site_url):
    # guards the test above against an axe that silently checks nothing
    page.goto(site_url + "/")
    page.evaluate("""() => {
        const i = document.createElement('input'); document.querySelector('main').append(i);
        const p = document.createElement('p'); p.textContent = 'faint'; p.style.color = '#ddd';
        document.querySelector('main').append(p);
    }""")
    ids = {v[0] for v in axe_violations(page)}
    assert {"label", "color-contrast"} <= ids


def test_on_a_phone_the_menu_opens_with_the_keyboard_and_passes_axe(browser, site_url):
    context = browser.new_context(viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(site_url + "/estimate/")
    menu = page.locator("button#site-menu-button")  # docs/assets/keyboard.js: a real button for the theme's label
    menu.focus()
    expect(menu).to_be_focused()
    expect(menu).to_have_attribute("aria-expanded", "false")
    page.keyboard.press("Enter")
    expect(menu).to_have_attribute("aria-expanded", "true")
    assert page.evaluate("document.getElementById('__drawer').checked")
    expect(page.get_by_role("link", name="The law").first).to_be_visible()
    assert axe_violations(page) == []
    page.keyboard.press("Escape")
    assert not page.evaluate("document.getElementById('__drawer').checked")
    context.close()
