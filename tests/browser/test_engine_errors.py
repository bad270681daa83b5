"""When the engine itself fails, every engine page says so in its error summary;
none waits forever. The failure is made real: the browser is given an engine wheel
whose rules lack a parameter, so the engine raises inside Python."""
import io
import json
import lzma
import zipfile
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from calculator.permits import flow
from calculator.core.rules import load
from casebook import complete_permit_answers

pytestmark = pytest.mark.browser
TIMEOUT = 60_000


def broken_wheel(built_site, drop: str) -> bytes:
    """The site's engine wheel with one parameter removed from its compiled rules."""
    [wheel] = (built_site / "engine").glob("*/pawling_sewer_kit-*.whl")
    out = io.BytesIO()
    with zipfile.ZipFile(wheel) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename == "calculator/compiled_rules.json":
                rules = json.loads(data)
                del rules["parameters"][drop]
                data = json.dumps(rules).encode()
            dst.writestr(info, data)
    return out.getvalue()


@pytest.fixture
def broken_engine(browser, browser_context_args, built_site):
    # Service workers blocked: page.route does not see what a service worker fetches, and once the site's
    # worker controls the page it would fetch (and keep) the site's own engine wheel, not the broken one
    # (a CI run of December 7 showed "Bill:" on the second visit).
    context = browser.new_context(**dict(browser_context_args, service_workers="block"))
    page = context.new_page()
    body = broken_wheel(built_site, "late-penalty-rate")
    # the worker asks for the wheel xz-compressed (kit/browser/xz.py), the plain one if it cannot decode it
    packed = lzma.compress(body, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC64)
    page.route("**/engine/*/pawling_sewer_kit-*.whl.xz",
               lambda route: route.fulfill(status=200, body=packed, content_type="application/x-xz"))
    page.route("**/engine/*/pawling_sewer_kit-*.whl",
               lambda route: route.fulfill(status=200, body=body, content_type="application/zip"))
    yield page
    context.close()


def test_an_estimate_the_engine_cannot_compute_shows_the_error_summary(broken_engine, site_url):
    page = broken_engine
    page.goto(f"{site_url}/estimate/?quarter=2027-Q1&water-gallons=12000&paid-on=2027-06-01")
    summary = page.locator("#error-summary")
    expect(summary).to_be_visible(timeout=TIMEOUT)
    text = summary.inner_text()
    assert "could not answer" in text and "KeyError" in text and "late-penalty-rate" in text
    assert page.locator("#estimator").get_attribute("data-state") == "error"
    # every estimate now says what paying late would cost (issue 19, item 3), so without the
    # penalty rate an on-time estimate fails the same way: said in the summary, never a wrong total. (The
    # caches emptied first: a memory snapshot kept from the first visit would answer without loading a wheel.)
    page.evaluate("async () => { for (const k of await caches.keys()) await caches.delete(k); }")
    page.goto(f"{site_url}/estimate/?quarter=2027-Q1&water-gallons=12000")
    expect(summary).to_be_visible(timeout=TIMEOUT)
    assert "late-penalty-rate" in summary.inner_text()
    expect(page.locator("#result-total")).not_to_be_visible()


def test_a_failed_application_fill_is_reported_not_awaited(page, site_url):
    """pypdf cannot be had (the request fails): the status says so and the button works again."""
    answers = complete_permit_answers(load(), [("work", "new-connection")])
    assert flow.evaluate(load(), answers)["outcome"] != "prohibited"
    page.route("**/engine/pypdf-*.whl", lambda route: route.fulfill(status=404, body="gone"))
    page.goto(f"{site_url}/permit/?{urlencode(answers + [('step', 'result')])}")
    button = page.locator("#make-application")
    expect(button).to_be_visible(timeout=TIMEOUT)
    button.click()
    expect(page.locator("#application-status")).to_contain_text("could not answer", timeout=TIMEOUT)
    expect(button).to_be_enabled()
    expect(page.locator("#application-download")).to_have_count(0)


def test_the_web_form_is_unlocked_with_a_word_when_the_engine_cannot_start(page, site_url):
    """The form waits while the checker's answers are filled in (the usability test, Tony); an engine that
    cannot start (its wheel cannot be had, in a browser that never had it) does not leave it waiting."""
    answers = complete_permit_answers(load(), [("work", "new-connection"), ("street-opening", "yes")])
    page.route("**/engine/*/pawling_sewer_kit-*.whl*", lambda route: route.fulfill(status=404, body="gone"))
    page.goto(f"{site_url}/permit/application/?{urlencode(answers)}")
    note = page.locator("#prefilled")
    expect(note).to_contain_text("nothing was filled in", timeout=TIMEOUT)
    expect(page.locator("#application-form")).not_to_have_attribute("aria-busy", "true")
    expect(page.locator("#field-owner-name")).to_be_enabled()
    expect(page.locator("#field-street-opening-yes")).to_be_enabled()
    expect(page.locator("#field-street-opening-yes")).not_to_be_checked()

