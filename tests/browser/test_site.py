"""Every page: no request to any other host, a strict Content Security Policy that nothing on the
page breaks, zero axe-core violations (WCAG 2.1 A/AA)."""
import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

pytestmark = pytest.mark.browser
# every WCAG 2.1 A and AA rule; nodes listed only for the violations (axe still runs every rule on
# every node: it only leaves out the lists of what passed, which take most of its time on a long page)
WCAG = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}, "resultTypes": ["violations"]}
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


def test_axe_as_run_here_reports_each_violation_with_its_element(warm_page):
    """The options above leave out only the lists of what passed: a violation still comes back
    with the element it is on."""
    warm_page.set_content('<!doctype html><html lang="en"><title>t</title><main><img src="x.png">'
                          '<p style="color:#777;background:#888">faint</p><a href="#"></a></main></html>')
    assert axe_violations(warm_page) == [
        ("color-contrast", "Elements must meet minimum color contrast ratio thresholds", [["p"]]),
        ("image-alt", "Images must have alternative text", [["img"]]),
        ("link-name", "Links must have discernible text", [["a"]])]


def test_there_are_pages_to_check(all_pages):
    assert {"/", "/estimate/", "/law/", "/rates/", "/how-we-read-the-law/", "/permit/", "/permit/application/",
            "/industry/"} <= set(all_pages)


# What a first visitor's browser does on every page, walked once in a new profile for the two
# tests below (each page waits for the network to go quiet; two walks took 75-90 s of a run).
WATCH_CSP = """
window.__csp = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
"""
LINK = "/estimate/?quarter=2027-Q1&water-gallons=12000"


def csp_problems(page, console):
    return page.evaluate("window.__csp") + [m for m in console if "Content Security Policy" in m]


@pytest.fixture(scope="module")
def first_visit(browser, site_url, all_pages):
    """Every page once, in a new browser profile, then the estimator from a shared link and its
    error state, with Pyodide running under the policy: every request made on each page, each
    page's policy, and the policy violations seen (the page's own events and the console's)."""
    context = browser.new_context()
    context.add_init_script(WATCH_CSP)
    page = context.new_page()
    console, requests, current = [], [], {"path": None}
    page.on("console", lambda m: console.append(m.text))
    page.on("request", lambda r: requests.append((current["path"], r.url)))
    policies, violations = {}, {}
    for path in all_pages:
        current["path"] = path
        page.goto(site_url + path, wait_until="networkidle")
        policies[path] = page.locator('meta[http-equiv="Content-Security-Policy"]').get_attribute("content")
        violations[path] = csp_problems(page, console)
    current["path"] = "/estimate/"
    page.goto(site_url + LINK)
    expect(page.locator("#result-total")).to_be_visible(timeout=TIMEOUT)
    page.fill("#usage", "-3")
    page.click("#estimate-button")
    expect(page.locator("#error-summary")).to_be_visible()
    violations["estimator"] = csp_problems(page, console)
    context.close()
    return {"requests": requests, "policies": policies, "violations": violations}


def test_first_visit_no_page_asks_another_host_for_anything(first_visit, site_url, all_pages):
    assert {path for path, _ in first_visit["requests"]} >= set(all_pages)   # every page was walked
    outside = [(path, url) for path, url in first_visit["requests"]
               if not url.startswith(site_url) and not url.startswith(("data:", "blob:"))]
    pyodide_elsewhere = [(path, url) for path, url in first_visit["requests"]
                         if "/pyodide/" in url and path not in ENGINE_PAGES]
    assert not outside
    assert not pyodide_elsewhere


def test_first_visit_every_page_has_a_strict_policy_and_breaks_none_of_it(first_visit, all_pages):
    assert set(first_visit["policies"]) == set(all_pages)
    for path, policy in first_visit["policies"].items():
        assert "script-src 'self' 'wasm-unsafe-eval'" in policy and "'unsafe-eval'" not in policy.replace(
            "'wasm-unsafe-eval'", "") and "'unsafe-inline'" not in policy, path
    found = {path: problems for path, problems in first_visit["violations"].items() if problems}
    assert not found, found


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
