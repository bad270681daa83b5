"""What a resident sees: each page, at a desktop width (1280 px) and a phone width
(390 px), compared pixel by pixel (Pillow) with the committed pictures in
tests/browser/screenshots/. A picture that changed fails the test, and the new one
and the difference are saved beside the test's temporary files to look at.

What varies is frozen: the site is built for a fixed day (SOURCE_DATE_EPOCH) and the
browser's clock shows that day, animations and the text caret are off, and each
engine page is photographed once its answer is there.

A missing or outdated picture is written only when asked:
    UPDATE_SCREENSHOTS=1 .venv/bin/python -m pytest tests/browser/test_screenshots.py
Then look at every new picture before committing it."""
import os
import threading
from pathlib import Path
from urllib.parse import urlencode

import pytest
from PIL import Image, ImageChops

from calculator.core.rules import load
from casebook import complete_permit_answers
from kit.site import build as kit_site
from kit.tools import machine as kit_machine

pytestmark = pytest.mark.browser
BASELINES = Path(__file__).resolve().parent / "screenshots"
UPDATE = os.environ.get("UPDATE_SCREENSHOTS") == "1"
TIMEOUT = 60_000  # the first start of Pyodide on a busy 2-core machine
DAY = kit_machine.SCREENSHOT_DAY  # the site's build day and the browser's today
WIDTHS = {"desktop": (1280, 800), "phone": (390, 844)}
PRINT_WIDTH, PRINT_MAX_HEIGHT = 800, 2400
# a pixel differs when a colour channel moved by more than this; a picture differs when
# more than this share of its pixels did (text anti-aliasing is stable on one machine)
PIXEL_THRESHOLD, SHARE = 40, 0.003


STREET = complete_permit_answers(load(), [("work", "new-connection"), ("street-opening", "yes")])
ESTIMATE = "/estimate/?quarter=2027-Q1&water-gallons=12000&paid-on=2027-06-01"
PERMIT = f"/permit/?{urlencode(STREET + [('step', 'result')])}"
INDUSTRY = "/industry/?average-workday-gallons=52000&system-gallons-per-day=600000&year=2027"
# name: (link, what shows the page is complete, what to scroll to the top of the screen)
PAGES = {
    "home": ("/", "h1", None),
    "estimate-form": ("/estimate/", "#estimator[data-engine=ready] #quarter option:nth-child(2)", None),
    "estimate-answer": (ESTIMATE, "#result-total", "#result"),
    "permit-result": (PERMIT, "#permit-checker[data-state=outcome]", "#step"),
    "industry-answer": (INDUSTRY, "#result-title", "#result"),
    "rates": ("/rates/", "h1", None),
    "law": ("/law/", "h1", None),
    # the Spanish pages, from the same links
    "es-home": ("/es/", "h1", None),
    "es-estimate-answer": (f"/es{ESTIMATE}", "#result-total", "#result"),
    "es-permit-result": (f"/es{PERMIT}", "#permit-checker[data-state=outcome]", "#step"),
    "es-industry-answer": (f"/es{INDUSTRY}", "#result-title", "#result"),
}
PRINTED = {
    "print-estimate": PAGES["estimate-answer"][:2],
    "print-permit-result": PAGES["permit-result"][:2],
    "print-industry-answer": PAGES["industry-answer"][:2],
    "print-application": ("/permit/application/", "h1"),
}


@pytest.fixture(scope="module")
def fixed_site_url(tmp_path_factory):
    """The site built for DAY, served on its own port: `build.py test` builds it before the tests
    (PAWLING_SCREENSHOT_SITE), else it is built here."""
    shared = os.environ.get("PAWLING_SCREENSHOT_SITE")
    if shared and (Path(shared) / "index.html").is_file():
        built = Path(shared)
    else:
        saved = os.environ.get("SOURCE_DATE_EPOCH")
        os.environ["SOURCE_DATE_EPOCH"] = str(int(DAY.timestamp()))
        try:
            built = kit_site.build(tmp_path_factory.mktemp("fixed-day") / "site")
        finally:
            if saved is None:
                os.environ.pop("SOURCE_DATE_EPOCH")
            else:
                os.environ["SOURCE_DATE_EPOCH"] = saved
    server = kit_site.serve(built, port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


@pytest.fixture(scope="module")
def browsers(browser):
    """One browser profile for this file, each tab sized for its picture: after the first picture
    the engine comes back from the profile's own snapshot (conftest.py: warm_page), not cold."""
    context = browser.new_context(device_scale_factor=1, reduced_motion="reduce", locale="en-US",
                                  timezone_id="America/New_York", service_workers="block")
    yield context
    context.close()


def open_page(browsers, url, ready, width, height, media="screen"):
    """A new tab of `width` x `height` in the file's profile, at `url`, once `ready` is there.
    Nothing a page keeps (the permit checker's answers in localStorage) is read by these links:
    each link says its answers itself."""
    page = browsers.new_page()
    page.set_viewport_size({"width": width, "height": height})
    page.clock.set_fixed_time(DAY)
    page.emulate_media(media=media)
    page.goto(url)
    page.wait_for_selector(ready, state="attached", timeout=TIMEOUT)
    page.evaluate("document.fonts.ready")
    return page


def compare(name: str, png: bytes, tmp_path: Path):
    baseline = BASELINES / f"{name}.png"
    if UPDATE:
        BASELINES.mkdir(exist_ok=True)
        baseline.write_bytes(png)
        return
    if not baseline.exists():
        pytest.fail(f"No baseline {baseline.relative_to(BASELINES.parents[2])}: run with UPDATE_SCREENSHOTS=1, "
                    f"look at the picture, and commit it.")
    actual_path = tmp_path / f"{name}.png"
    actual_path.write_bytes(png)
    expected, actual = Image.open(baseline).convert("RGB"), Image.open(actual_path).convert("RGB")
    assert expected.size == actual.size, f"{name}: {actual.size} now, {expected.size} in the baseline ({actual_path})"
    diff = ImageChops.difference(expected, actual).convert("L").point(lambda v: 255 if v > PIXEL_THRESHOLD else 0)
    changed = diff.histogram()[255] / (diff.width * diff.height)
    if changed > SHARE:
        diff.save(tmp_path / f"{name}-diff.png")
        pytest.fail(f"{name}: {changed:.2%} of the pixels changed (more than {SHARE:.1%}); "
                    f"now: {actual_path}, difference: {tmp_path / f'{name}-diff.png'}")


@pytest.mark.parametrize("name", PAGES)
def test_each_page_looks_as_it_did(browsers, fixed_site_url, tmp_path, name):
    """Each page at each width, from one load of it: opened at the first width, then the tab resized
    (an engine page's start is most of a picture's cost: 1.3 CPU-s a load, December 8)."""
    link, ready, scroll_to = PAGES[name]
    page, changed = None, []
    for width_name, (width, height) in WIDTHS.items():
        if page is None:
            page = open_page(browsers, fixed_site_url + link, ready, width, height)
        else:
            page.set_viewport_size({"width": width, "height": height})
        if scroll_to:  # the answer at the top of the screen, below the theme's sticky header
            page.evaluate("""(sel) => {
                const header = document.querySelector('.md-header').getBoundingClientRect().height;
                window.scrollTo(0, document.querySelector(sel).getBoundingClientRect().top + window.scrollY - header - 8);
            }""", scroll_to)
        page.wait_for_timeout(300)  # the theme's header reacts to the scroll, and the layout to the width
        png = page.screenshot(animations="disabled", caret="hide")
        try:
            compare(f"{name}-{width}", png, tmp_path)
        except pytest.fail.Exception as failed:  # each width is compared, and every difference said
            changed.append(str(failed))
    page.close()
    if changed:
        pytest.fail("\n".join(changed))


@pytest.mark.parametrize("name", PRINTED)
def test_a_printed_answer_is_a_clean_page(browsers, fixed_site_url, tmp_path, name):
    """Printing gives the page's content only: no header, menu, sidebars or footer; with
    an answer on the page, the answer and its citations, not the form."""
    link, ready = PRINTED[name]
    page = open_page(browsers, fixed_site_url + link, ready, PRINT_WIDTH, 1000, media="print")
    for chrome in (".md-header", ".md-sidebar--primary", ".md-footer"):
        assert page.locator(chrome).is_hidden(), f"{chrome} is printed"
    if name != "print-application":
        assert page.locator("form").first.is_hidden(), "the form is printed with the answer"
        assert page.locator(".step-law a").count() > 0, "the answer's citations are not printed"
    full = page.evaluate("document.documentElement.scrollHeight")
    png = page.screenshot(animations="disabled", caret="hide", full_page=True,
                          clip={"x": 0, "y": 0, "width": PRINT_WIDTH, "height": min(full, PRINT_MAX_HEIGHT)})
    page.close()
    compare(name, png, tmp_path)
