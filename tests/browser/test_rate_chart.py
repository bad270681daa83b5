"""The rate over the years on /rates/: a drawing with a name, the same numbers as text and in a
table, each point a link a keyboard reaches; it prints, fits a phone, and costs the estimate nothing.
(axe, the security policy and the phone's width are checked on every page by test_site.py.)"""
import re

import pytest

from test_on_a_phone import PHONE

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("lang", ["", "/es"])
def test_the_chart_is_named_and_each_point_is_a_link_the_keyboard_reaches(page, site_url, lang):
    page.goto(f"{site_url}{lang}/rates/")
    chart = page.locator("svg.rate-chart")
    assert chart.get_attribute("aria-labelledby") == "rate-chart-title"
    assert page.locator("#rate-chart-title").text_content().strip()
    points = chart.locator("a")
    assert points.count() == page.locator("#rate-chart-summary li").count() >= 1
    for i in range(points.count()):
        name = points.nth(i).get_attribute("aria-label")
        assert re.search(r"\$\d+\.\d\d", name), name                 # the rate, said
        href = points.nth(i).get_attribute("href")
        assert page.locator(f'#rate-chart-summary a[href="{href}"]').count() == 1  # its schedule, in the text too
    focused = None
    for _ in range(80):                                               # Tab reaches the first point
        page.keyboard.press("Tab")
        focused = page.evaluate("() => document.activeElement.closest('svg.rate-chart') !== null")
        if focused:
            break
    assert focused


def test_the_chart_prints_and_fits_a_phone(browser, site_url):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(f"{site_url}/rates/")
    box = page.locator("svg.rate-chart").bounding_box()
    assert 300 <= box["width"] <= 390 and box["height"] > 100
    point = page.locator("svg.rate-chart a").first.bounding_box()
    assert point["width"] >= 24 and point["height"] >= 24          # WCAG 2.5.8, on a phone
    page.emulate_media(media="print")
    box = page.locator("svg.rate-chart").bounding_box()
    assert box is not None and box["width"] > 200
    assert page.pdf()[:4] == b"%PDF"                                  # it prints
    context.close()


def test_the_estimate_gets_none_of_it(page, site_url):
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(f"{site_url}/estimate/")
    page.wait_for_load_state("networkidle")
    assert not [u for u in requests if "/api/" in u or "chart" in u]
    assert "rate-chart" not in page.content()
