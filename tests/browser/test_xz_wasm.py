"""Pyodide's wasm on a first visit: fetched xz-compressed, decoded in the calculator's worker as
it arrives, kept decoded; the plain wasm when the decoder cannot be loaded or the .xz is broken
(kit/xz.py, docs/assets/engine-worker.js)."""
import hashlib
from pathlib import Path

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 90_000  # a first start of Pyodide on a busy 2-core machine
LINK = "/estimate/?quarter=2027-Q1&water-gallons=12000"
WASM = ROOT / "node_modules" / "pyodide" / "pyodide.asm.wasm"

KEPT_WASM = """async () => {
    const name = (await caches.keys()).find((n) => n.startsWith('pawling-files-'));
    const kept = name && await (await caches.open(name)).match(new URL('pyodide/pyodide.asm.wasm', location.origin + '/').href);
    if (!kept) return null;
    const bytes = await kept.arrayBuffer();
    const digest = await crypto.subtle.digest('SHA-256', bytes);
    return {type: kept.headers.get('Content-Type'),
            sha256: [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('')};
}"""


def first_estimate(browser, site_url, route=None):
    """A first visit's estimate in a new (private) profile: the paths it asked for, the wasm it kept."""
    context = browser.new_context(service_workers="block")
    asked = []
    context.on("request", lambda r: asked.append(r.url.removeprefix(site_url).split("?")[0]))
    if route:
        context.route(*route)
    page = context.new_page()
    page.goto(site_url + LINK)
    expect(page.locator("#result-total")).to_have_text("$96.00", timeout=TIMEOUT)
    kept = None
    for _ in range(240):  # the decoded wasm is stored in the background, after the answer
        kept = page.evaluate(KEPT_WASM)
        if kept:
            break
        page.wait_for_timeout(250)
    context.close()
    return asked, kept


def test_the_estimate_runs_on_the_decoded_xz_and_never_asks_for_the_plain_wasm(browser, site_url):
    asked, kept = first_estimate(browser, site_url)
    assert asked.count("/pyodide/pyodide.asm.wasm.xz") == 1
    assert asked.count("/pyodide/xz-decompress.mjs") == 1
    assert "/pyodide/pyodide.asm.wasm" not in asked
    # kept decoded, Pyodide's own bytes, for the next visit and the offline cache
    assert kept == {"type": "application/wasm", "sha256": hashlib.sha256(WASM.read_bytes()).hexdigest()}


def test_without_the_decoder_the_estimate_takes_the_plain_wasm(browser, site_url):
    asked, kept = first_estimate(browser, site_url, ("**/pyodide/xz-decompress.mjs", lambda r: r.abort()))
    assert asked.count("/pyodide/pyodide.asm.wasm") == 1
    assert kept["sha256"] == hashlib.sha256(WASM.read_bytes()).hexdigest()


def test_a_cut_xz_is_refused_and_the_plain_wasm_taken_instead(browser, site_url, built_site):
    """A download cut short (or any broken .xz): the decoder's error turns the worker to the
    plain wasm, which Pyodide asks for again when its streaming compile fails; nothing broken
    is kept."""
    cut = (built_site / "pyodide" / "pyodide.asm.wasm.xz").read_bytes()[:300_000]
    asked, kept = first_estimate(browser, site_url, ("**/pyodide/pyodide.asm.wasm.xz", lambda r: r.fulfill(
        status=200, body=cut, headers={"Content-Type": "application/x-xz"})))
    assert asked.count("/pyodide/pyodide.asm.wasm.xz") == 1
    assert asked.count("/pyodide/pyodide.asm.wasm") == 1
    assert kept["sha256"] == hashlib.sha256(WASM.read_bytes()).hexdigest()
