"""Pyodide's wasm, the standard library and the engine's wheel on a first visit: fetched
xz-compressed, decoded in the calculator's worker (the wasm as it arrives), kept decoded; the
plain files when the decoder cannot be loaded or an .xz is broken (kit/browser/xz.py,
docs/assets/engine-worker.js)."""
import hashlib
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 90_000  # a first start of Pyodide on a busy 2-core machine
LINK = "/estimate/?quarter=2027-Q1&water-gallons=12000"
WASM = ROOT / "node_modules" / "pyodide" / "pyodide.asm.wasm"

KEPT = """async (paths) => {
    const name = (await caches.keys()).find((n) => n.startsWith('pawling-files-'));
    const out = {};
    for (const path of paths) {
        const kept = name && await (await caches.open(name)).match(new URL(path, location.origin + '/').href);
        if (!kept) return null;
        const digest = await crypto.subtle.digest('SHA-256', await kept.arrayBuffer());
        out[path] = {type: kept.headers.get('Content-Type'),
                     sha256: [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('')};
    }
    return out;
}"""


def packed_files(site):
    """The site's paths of the files that travel xz-compressed: the wasm, the standard library, the wheel."""
    [stdlib] = site.glob("engine/*/python_stdlib.zip")
    [wheel] = site.glob("engine/*/pawling_sewer_kit-*.whl")
    return {"pyodide/pyodide.asm.wasm": WASM, **{p.relative_to(site).as_posix(): p for p in (stdlib, wheel)}}


def sha256(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def first_estimate(browser, site_url, site, *routes):
    """A first visit's estimate in a new (private) profile: the paths it asked for, and what it
    kept of the files that travel xz-compressed ({path: {type, sha256}}). routes: (pattern, handler) each."""
    context = browser.new_context(service_workers="block")
    asked = []
    context.on("request", lambda r: asked.append(r.url.removeprefix(site_url).split("?")[0]))
    for route in routes:
        context.route(*route)
    page = context.new_page()
    page.goto(site_url + LINK)
    expect(page.locator("#result-total")).to_have_text("$96.00", timeout=TIMEOUT)
    kept = None
    for _ in range(240):  # the decoded files are stored in the background, after the answer
        kept = page.evaluate(KEPT, list(packed_files(site)))
        if kept:
            break
        page.wait_for_timeout(250)
    context.close()
    return asked, kept


def test_the_estimate_runs_on_the_decoded_xz_files_and_never_asks_for_the_plain_ones(browser, site_url, built_site):
    asked, kept = first_estimate(browser, site_url, built_site)
    assert asked.count("/pyodide/xz-decompress.mjs") == 1
    for path, plain in packed_files(built_site).items():
        assert asked.count(f"/{path}.xz") == 1, path
        assert f"/{path}" not in asked, path
        # kept decoded, the plain file's own bytes, for the next visit and the offline cache
        assert kept[path]["sha256"] == sha256(plain), path
    assert kept["pyodide/pyodide.asm.wasm"]["type"] == "application/wasm"


def test_without_the_decoder_the_estimate_takes_the_plain_files(browser, site_url, built_site):
    asked, kept = first_estimate(browser, site_url, built_site, ("**/pyodide/xz-decompress.mjs", lambda r: r.abort()))
    for path, plain in packed_files(built_site).items():
        assert asked.count(f"/{path}") == 1, path
        assert kept[path]["sha256"] == sha256(plain), path


def test_a_cut_xz_is_refused_and_the_plain_wasm_taken_instead(browser, site_url, built_site):
    """A download cut short (or any broken .xz): the decoder's error turns the worker to the
    plain wasm, which Pyodide asks for again when its streaming compile fails; nothing broken
    is kept."""
    cut = (built_site / "pyodide" / "pyodide.asm.wasm.xz").read_bytes()[:300_000]
    asked, kept = first_estimate(browser, site_url, built_site, ("**/pyodide/pyodide.asm.wasm.xz", lambda r: r.fulfill(
        status=200, body=cut, headers={"Content-Type": "application/x-xz"})))
    assert asked.count("/pyodide/pyodide.asm.wasm.xz") == 1
    assert asked.count("/pyodide/pyodide.asm.wasm") == 1
    assert kept["pyodide/pyodide.asm.wasm"]["sha256"] == sha256(WASM)


def cut_in_half(site, site_url, route):
    """An .xz of the site, answered with its first half only (a download cut short)."""
    whole = Path(site, route.request.url.removeprefix(site_url + "/").split("?")[0]).read_bytes()
    route.fulfill(status=200, body=whole[:len(whole) // 2], headers={"Content-Type": "application/x-xz"})


def test_cut_xz_files_of_the_engine_are_refused_and_the_plain_ones_taken_instead(browser, site_url, built_site):
    """The standard library's and the wheel's .xz cut short: each is decoded whole before Python
    has it, so the decoder's error turns the worker to the plain file.
    Both .xz are out before either is found cut: the standard library's is answered once the wheel's has been
    asked for. The wheel is asked for when the wasm is nearly in; a refused .xz turns the worker to the plain
    files from then on, so when the standard library's came first (a full run's load, the wasm's decoding
    slow), the wheel's .xz was never asked for (the next test)."""
    engine = {path: plain for path, plain in packed_files(built_site).items() if path.startswith("engine/")}
    [wheel] = [path for path in engine if path.endswith(".whl")]
    held = []  # the standard library's .xz, until the wheel's is asked for

    def cut(route):
        if route.request.url.split("?")[0].endswith(f"/{wheel}.xz"):
            for waiting in [route, *held]:
                cut_in_half(built_site, site_url, waiting)
            held.clear()
        else:
            held.append(route)

    asked, kept = first_estimate(browser, site_url, built_site, ("**/engine/*/*.xz", cut))
    for path, plain in engine.items():
        assert asked.count(f"/{path}.xz") == 1 and asked.count(f"/{path}") == 1, path
        assert kept[path]["sha256"] == sha256(plain), path


def test_once_an_xz_is_refused_the_files_asked_for_later_come_plain(browser, site_url, built_site):
    """The standard library's .xz cut short and refused before the wasm is nearly in: the wheel, asked for then,
    comes plain at once, its .xz never asked for (engine-worker.js: plainFiles). The wasm's .xz is held until
    the standard library's plain file has been asked for; it is still decoded, having been asked for before."""
    engine = {path: plain for path, plain in packed_files(built_site).items() if path.startswith("engine/")}
    [stdlib] = [path for path in engine if path.endswith("python_stdlib.zip")]
    [wheel] = [path for path in engine if path.endswith(".whl")]
    held = []  # the wasm's .xz, until the standard library's plain file is asked for

    def plain_stdlib(route):
        for waiting in held:
            waiting.continue_()
        held.clear()
        route.continue_()

    asked, kept = first_estimate(
        browser, site_url, built_site,
        (re.compile(r"/pyodide/pyodide\.asm\.wasm\.xz(\?|$)"), lambda route: held.append(route)),
        (re.compile(rf"/{re.escape(stdlib)}\.xz(\?|$)"), lambda route: cut_in_half(built_site, site_url, route)),
        (re.compile(rf"/{re.escape(stdlib)}(\?|$)"), plain_stdlib))
    assert asked.count(f"/{stdlib}.xz") == 1 and asked.count(f"/{stdlib}") == 1
    assert asked.count(f"/{wheel}.xz") == 0 and asked.count(f"/{wheel}") == 1
    assert asked.count("/pyodide/pyodide.asm.wasm.xz") == 1 and "/pyodide/pyodide.asm.wasm" not in asked
    for path, plain in packed_files(built_site).items():
        assert kept[path]["sha256"] == sha256(plain), path
