"""Every page: no request to any other host, a strict Content Security Policy that nothing on the
page breaks, zero axe-core violations (WCAG 2.1 A/AA)."""
import warnings

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from checks import each_holds
from test_on_a_phone import PHONE
from test_wcag_checkers import FILLED

pytestmark = pytest.mark.browser
# every WCAG 2.1 A and AA rule; nodes listed only for the violations (axe still runs every rule on
# every node: it only leaves out the lists of what passed, which take most of its time on a long page)
WCAG = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}, "resultTypes": ["violations"]}
TIMEOUT = 60_000
# The pages that run the engine in the browser; no other page fetches a Pyodide file.
ENGINE_PAGES = {"/estimate/", "/permit/", "/industry/", "/clerk/", "/clerk/bills/", "/es/estimate/", "/es/permit/", "/es/industry/",
                # the application's web form fills the PDF with the engine (issue 19, item 8)
                "/permit/application/", "/es/permit/application/"}


def axe_violations(page, context=None):
    """`context`: what axe reads (axe-core's include/exclude), the whole page if None."""
    # let the theme's transitions (header title, back-to-top button) finish first:
    # axe measures contrast as the page is, mid-fade included
    page.evaluate("() => Promise.allSettled(document.getAnimations().map((a) => a.finished))")
    results = Axe().run(page, context=context, options=WCAG)
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


# What a first visitor's browser does on every page, walked once in a new profile for the tests
# read by test_first_visit_of_every_page below: each page is opened once and everything its checks read is
# read from it (a walk a check took 75-90 s of a run when each had its own, on 2 busy cores).
WATCH_CSP = """
window.__csp = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
"""
LINK = "/estimate/?quarter=2027-Q1&water-gallons=12000"
DESKTOP = {"width": 1280, "height": 720}
PHONE_WIDTHS = (390, 320)  # a common phone, and the 320 px of WCAG 1.4.10 (reflow)
# Whatever sticks out furthest past the right edge: the deepest element reaching furthest (so a
# report names the culprit, not its page-wide ancestors), with a few of its words.
WIDEST = """() => {
    const width = document.documentElement.clientWidth;
    let worst = null;
    for (const e of document.querySelectorAll("body *")) {
        const r = e.getBoundingClientRect();
        if (r.width && r.right > width + 0.5 && (!worst || r.right >= worst.right))
            worst = {right: Math.round(r.right), tag: e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") +
                     (typeof e.className === "string" && e.className ? "." + e.className.trim().split(/\\s+/).join(".") : ""),
                     words: (e.textContent || "").trim().replace(/\\s+/g, " ").slice(0, 60)};
    }
    return {scroll: document.documentElement.scrollWidth, width, worst};
}"""


def csp_problems(page, console):
    return page.evaluate("window.__csp") + [m for m in console if "Content Security Policy" in m]


def too_wide(page, path) -> list[str]:
    """The page at each phone width: what makes it wider than the screen, if anything."""
    wide = []
    for width in PHONE_WIDTHS:
        page.set_viewport_size({"width": width, "height": PHONE["height"]})
        seen = page.evaluate(WIDEST)
        if seen["scroll"] > seen["width"]:
            wide.append(f"{path} at {width} px: {seen['scroll']} px wide; widest: {seen['worst']}")
    return wide


def open_answer(page, url: str, ready: str, console: list) -> None:
    """Open an engine page and wait for its answer (`ready`). A module fetch the local server dropped under a full
    run's load (CI of December 7: pyodide.mjs, on the 70th page and on the last) makes the page say to reload, as a
    visitor would: it is reloaded once, as soon as the page says so (it waited a minute: the walk of December 8 took 150 s);
    any other failure, or a second, fails with the console's last words."""
    page.goto(url)
    dropped = lambda: any("Failed to fetch dynamically imported module" in c for c in console[-5:])  # noqa: E731
    waited, failed = 0, None
    while waited < TIMEOUT:  # the answer, or the page's word that a fetch failed: then at once, not after a minute
        try:
            expect(page.locator(ready)).to_be_visible(timeout=2_000)
            return
        except AssertionError as not_yet:  # the page's own word for why is in the console (engine-client.js: onFailed)
            waited, failed = waited + 2_000, not_yet
            if dropped():
                break
    if not dropped():
        raise AssertionError(f"{url}: the console said {console[-15:]}") from failed
    # said in the run's warnings summary, passed or not: a slow run can then be told from a run that waited here
    warnings.warn(f"{url}: a module fetch failed after {waited // 1000} s; the page was reloaded once")
    page.reload()
    try:
        expect(page.locator(ready)).to_be_visible(timeout=TIMEOUT)
    except AssertionError as again:
        raise AssertionError(f"{url}, reloaded: the console said {console[-15:]}") from again


@pytest.fixture(scope="module")
def first_visit(browser, site_url, all_pages):
    """Every page once, in a new browser profile: its requests, its policy and the violations
    of it seen (the page's own events and the console's), then its axe-core violations at a
    desktop width, then whether it is wider than a phone's screen (each page is opened at a
    phone's width and widened for axe). Then each engine page opened from a shared link, at a
    phone's width with its answer shown, and its axe-core violations at a desktop width; then the
    estimator's error state, with Pyodide running under the policy."""
    context = browser.new_context(viewport=PHONE)
    context.add_init_script(WATCH_CSP)
    page = context.new_page()
    console, requests, current = [], [], {"path": None}
    page.on("console", lambda m: console.append(m.text))
    page.on("request", lambda r: requests.append((current["path"], r.url)))
    policies, violations, axe, wide = {}, {}, {}, []
    for path in all_pages:
        current["path"] = path
        page.set_viewport_size(PHONE)
        # an engine page's requests go on after its load (the worker, Pyodide, the wheel): it is read once the
        # network is still; a page without the engine is read at its load (half a second a page less to wait)
        page.goto(site_url + path, wait_until="networkidle" if path in ENGINE_PAGES else "load")
        policies[path] = page.locator('meta[http-equiv="Content-Security-Policy"]').get_attribute("content")
        violations[path] = csp_problems(page, console)
        wide += too_wide(page, path)
        page.set_viewport_size(DESKTOP)
        axe[path] = axe_violations(page)
    for link, ready in FILLED.items():
        current["path"] = link
        page.set_viewport_size(PHONE)
        open_answer(page, site_url + link, ready, console)
        wide += too_wide(page, link)
        # and axe on the answer, at a desktop width as on the pages (pa11y-ci reads these with
        # HTML_CodeSniffer: test_wcag_checkers.py)
        page.set_viewport_size(DESKTOP)
        axe[link] = axe_violations(page)
    current["path"] = "/estimate/"
    page.set_viewport_size(DESKTOP)
    open_answer(page, site_url + LINK, "#result-total", console)
    page.fill("#usage", "-3")
    page.click("#estimate-button")
    expect(page.locator("#error-summary")).to_be_visible()
    violations["estimator"] = csp_problems(page, console)
    context.close()
    return {"requests": requests, "policies": policies, "violations": violations, "axe": axe, "wide": wide}


def test_first_visit_of_every_page(first_visit, site_url, all_pages):
    """Every page and every answer of a shared link, opened once as a first visitor (the walk, above): no request
    to another host, a strict policy nothing breaks, no axe-core violation, nothing wider than a phone's screen.
    One test, not four (tests/checks.py: worksteal gave one of the four to another worker, which walked every page
    again, 62 s of a run)."""
    each_holds((first_visit_no_page_asks_another_host_for_anything,
                first_visit_every_page_has_a_strict_policy_and_breaks_none_of_it,
                first_visit_every_page_and_answer_has_no_axe_violations,
                first_visit_no_page_scrolls_sideways_on_a_phone), first_visit, site_url, all_pages)


def first_visit_no_page_asks_another_host_for_anything(first_visit, site_url, all_pages):
    assert {path for path, _ in first_visit["requests"]} >= set(all_pages)   # every page was walked
    outside = [(path, url) for path, url in first_visit["requests"]
               if not url.startswith(site_url) and not url.startswith(("data:", "blob:"))]
    pyodide_elsewhere = [(path, url) for path, url in first_visit["requests"]
                         if "/pyodide/" in url and path not in ENGINE_PAGES and path not in FILLED]
    assert not outside
    assert not pyodide_elsewhere


def first_visit_every_page_has_a_strict_policy_and_breaks_none_of_it(first_visit, site_url, all_pages):
    assert set(first_visit["policies"]) == set(all_pages)
    for path, policy in first_visit["policies"].items():
        assert "script-src 'self' 'wasm-unsafe-eval'" in policy and "'unsafe-eval'" not in policy.replace(
            "'wasm-unsafe-eval'", "") and "'unsafe-inline'" not in policy, path
    found = {path: problems for path, problems in first_visit["violations"].items() if problems}
    assert not found, found


def first_visit_every_page_and_answer_has_no_axe_violations(first_visit, site_url, all_pages):
    assert set(first_visit["axe"]) == set(all_pages) | set(FILLED)
    found = {path: v for path, v in first_visit["axe"].items() if v}
    assert not found, found


def first_visit_no_page_scrolls_sideways_on_a_phone(first_visit, site_url, all_pages):
    """WCAG 1.4.10 (reflow): every page of the site in both languages, and each engine page opened
    with its answer shown, fits a 390-px and a 320-px screen: the page is never wider than the
    screen. (A long page title in the theme's header made /permit/application/ 403 px wide.)"""
    assert len(all_pages) > 20 and any(p.startswith("/es/") for p in all_pages)
    assert not first_visit["wide"], "\n".join(first_visit["wide"])


def test_the_estimator_states_have_no_axe_violations(page, site_url):
    # loading: hold the engine wheel back until axe has looked
    held = []
    page.route("**/engine/**/*.whl*", lambda route: held.append(route))  # the wheel or its .xz
    page.goto(f"{site_url}/estimate/")
    expect(page.locator("#engine-status-text")).to_contain_text("Downloading", timeout=TIMEOUT)
    states = {"loading": axe_violations(page)}
    for route in held:
        route.continue_()
    page.unroute("**/engine/**/*.whl*")
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


@pytest.mark.parametrize("path,bar,words", [
    ("es/permit/", "Progreso de carga del cuestionario", "Descargando el cuestionario (unos 4 MB la primera vez)…"),
    ("es/permit/application/", "Progreso de carga del formulario", "Preparando el formulario…"),
    ("es/estimate/", "Progreso de carga de la calculadora", "Descargando la calculadora (unos 4 MB la primera vez)…"),
    ("permit/", "Checker loading progress", "Downloading the checker (about 4 MB the first time)…"),
])
def test_the_loading_line_names_the_tool_as_its_progress_bar_does(page, site_url, path, bar, words):
    """The Spanish reviewer spanish8, #22: sighted readers saw «Descargando la calculadora» while a screen reader
    heard «Progreso de carga del cuestionario»: one thing, two names. Held while the engine downloads."""
    held = []
    for files in ("**/engine/**/*.whl*", "**/pyodide.asm.wasm*"):  # the engine and Python: step 1 stays
        page.route(files, lambda route: held.append(route))
    page.goto(f"{site_url}/{path}")
    expect(page.locator("#engine-progress")).to_have_attribute("aria-label", bar)
    expect(page.locator("#engine-status-text")).to_have_text(words, timeout=TIMEOUT)
    page.unroute_all(behavior="ignoreErrors")
