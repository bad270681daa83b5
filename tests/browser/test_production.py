"""Production readiness: the estimator offline on a repeat visit, and a rebuilt rate never served
from an old cache. (The strict Content Security Policy on every page: test_site.py.)"""
import functools
import shutil
import threading
from collections import Counter
from pathlib import Path

import pytest
from playwright.sync_api import expect

from kit.site import build as kit_site

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 60_000
LINK = "/estimate/?quarter=2027-Q1&water-gallons=12000"


def wait_for_offline_cache(page):
    """Until the offline worker controls the page and its cache is made (polled with evaluate,
    which awaits the promise: wait_for_function takes a pending promise as true)."""
    import time
    deadline = time.monotonic() + TIMEOUT / 1000
    while not page.evaluate("""async () => {
        const reg = await navigator.serviceWorker.getRegistration();
        if (!reg || !reg.active || !navigator.serviceWorker.controller) return false;
        const names = await caches.keys();
        return names.some((n) => n.startsWith('pawling-kit-'));
    }"""):
        assert time.monotonic() < deadline, "the offline cache was never made"
        page.wait_for_timeout(250)


def wait_for_worker_to_answer_navigations(context, url):
    """Chromium, on a loaded machine, sends a navigation made within about half a second
    of the worker's activation straight to the network (measured: 4 in 40 under load;
    none after a 3 s pause). A visitor's repeat visit comes later than that, so wait
    until a navigation is answered by the worker (the navigation timing's workerStart
    is set only then) before taking the network away."""
    import time
    deadline = time.monotonic() + TIMEOUT / 1000
    while True:
        probe = context.new_page()
        probe.goto(url + "/estimate/")
        answered = probe.evaluate("performance.getEntriesByType('navigation')[0].workerStart > 0")
        probe.close()
        if answered:
            return
        assert time.monotonic() < deadline, "the offline worker never answered a navigation"


def serve_copy(tmp_path, rules=None, built=None):
    """A site of its own on a port of its own (an origin no other test's browser has seen): built
    from `rules`, or a copy of the session's build (`built`) when the rules are this checkout's (or a
    copy of them not changed yet: the site is the same bytes)."""
    site = shutil.copytree(built, tmp_path / "site") if built else kit_site.build(tmp_path / "site", rules_dir=rules)
    server = kit_site.serve(site, port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return site, server, f"http://127.0.0.1:{server.server_address[1]}"


@pytest.fixture(scope="module")
def rebuilt_at_20(tmp_path_factory):
    """The site of this checkout's rules with the illustrative rate changed from $10.00 to $20.00,
    built once for the tests below that rebuild a served site with a new rate."""
    root = tmp_path_factory.mktemp("rate-20")
    rules = shutil.copytree(ROOT / "rules", root / "rules")
    schedule = rules / "rate-schedules" / "2025-illustrative.yaml"
    text = schedule.read_text()
    assert 'vc_per_1000_gallons: "10.00"' in text
    schedule.write_text(text.replace('vc_per_1000_gallons: "10.00"', 'vc_per_1000_gallons: "20.00"'))
    return kit_site.build(root / "site", rules_dir=rules)


def rebuild(site: Path, rebuilt: Path) -> None:
    """`site`, being served, becomes `rebuilt` as a build makes it: the new files written now, beside
    it, then put in its place by renames (kit/site/build.py publishes its staging folder so)."""
    staged = shutil.copytree(rebuilt, site.parent / f".{site.name}-new", copy_function=shutil.copy)
    old = site.rename(site.parent / f".{site.name}-old")
    staged.rename(site)
    shutil.rmtree(old)


def test_a_repeat_visit_works_with_the_network_off(browser, tmp_path, built_site):
    # "network off" as a visitor meets it: the site cannot be reached at all
    site, server, url = serve_copy(tmp_path, built=built_site)
    context = browser.new_context()
    page = context.new_page()
    page.goto(url + LINK)
    expect(page.locator("#result-total")).to_have_text("$96.00", timeout=TIMEOUT)
    wait_for_offline_cache(page)
    wait_for_worker_to_answer_navigations(context, url)
    page.close()
    server.shutdown()
    server.server_close()
    again = context.new_page()
    again.goto(url + "/estimate/?quarter=2027-Q2&water-gallons=20000")
    expect(again.locator("#result-total")).to_have_text("$160.00", timeout=TIMEOUT)
    assert "Illustrative" in again.inner_text("#result")
    context.close()


def test_a_rebuilt_site_with_a_new_rate_never_serves_the_old_engine(browser, tmp_path, built_site, rebuilt_at_20):
    site, server, url = serve_copy(tmp_path, built=built_site)  # the checkout's rules' site, as built from them
    try:
        context = browser.new_context()
        page = context.new_page()
        page.goto(url + LINK)
        expect(page.locator("#result-total")).to_have_text("$96.00", timeout=TIMEOUT)
        wait_for_offline_cache(page)
        rebuild(site, rebuilt_at_20)  # the rate is now $20.00
        page.reload()
        expect(page.locator("#result-total")).to_have_text("$192.00", timeout=TIMEOUT)
        context.close()
    finally:
        server.shutdown()


def until(page, condition):
    """Poll a condition (page.evaluate awaits a promise; wait_for_function does not)."""
    for _ in range(TIMEOUT // 250):
        if condition():
            return
        page.wait_for_timeout(250)
    raise AssertionError("the condition never held")


def serve_like_github_pages(site):
    """The site served as GitHub Pages serves it: every response may be kept by the browser for
    10 minutes (Cache-Control: max-age=600), then revalidated by its Last-Modified."""
    server = kit_site.serve(site, port=0)
    handler = server.RequestHandlerClass

    class Pages(handler.func):
        def end_headers(self):
            self.send_header("Cache-Control", "max-age=600")
            super().end_headers()

    server.RequestHandlerClass = functools.partial(Pages, *handler.args, **handler.keywords)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


KIT_CACHES = "async () => (await caches.keys()).filter((n) => n.startsWith('pawling-kit-'))"


def test_a_returning_visitor_gets_the_rebuilt_engine_online_and_then_offline(browser_type_launch_args, playwright,
                                                                               tmp_path, built_site, rebuilt_at_20):
    """After a rebuild with a new rate, the next online visit (the browser closed and opened again, then a new
    tab, not a reload) answers from the new engine although the browser may keep the old page for 10 minutes,
    and so does the offline visit after it. (The twenty-fifth hostile tester, #8: with the browser restarted
    between the visits, the service worker's no-cache request for the page was answered from the HTTP cache:
    the old page, its old engine, the old rate; a new tab in the same running browser did not show it.)"""
    # the site of the checkout's rules: the session's build, byte for byte what building them
    # makes (tests/test_build.py), and a build less
    site = shutil.copytree(built_site, tmp_path / "site")
    server, url = serve_like_github_pages(site)
    profile = tmp_path / "profile"
    launch = lambda: playwright.chromium.launch_persistent_context(profile, **browser_type_launch_args)  # noqa: E731
    try:
        context = launch()
        page = context.new_page()
        page.goto(url + LINK)
        expect(page.locator("#result-total")).to_have_text("$96.00", timeout=TIMEOUT)
        wait_for_offline_cache(page)
        wait_for_worker_to_answer_navigations(context, url)
        [old_cache] = page.evaluate(KIT_CACHES)
        rebuild(site, rebuilt_at_20)  # the rate is now $20.00
        # and the old engine's snapshot put under the new engine's key, as another page of the origin can (the
        # twentieth hostile tester, #2: a snapshot of another build answered at its rate): it is not used. (From the
        # page already open: a navigation would let the browser update the service worker before the restart.)
        moved = page.evaluate(r"""async () => {
            const html = await (await fetch("../estimate/", { cache: "no-store" })).text();
            const wheel = /data-wheel="([^"]+)"/.exec(html)[1];
            const cache = await caches.open("pawling-python-snapshot");
            const [old] = await cache.keys();
            if (!old || old.url.includes(wheel)) return null;
            const key = old.url.replace(/engine\/[^?]*?\.whl/, `engine/${wheel}`);
            await cache.put(key, await cache.match(old));
            return key;
        }""")
        assert moved and moved.endswith(".sparse.snapshot"), moved
        page.close()
        context.close()  # the browser closed
        context = launch()  # and opened again, on the same profile: the estimate first
        again = context.new_page()
        again.goto(url + LINK)
        expect(again.locator("#result-total")).to_have_text("$192.00", timeout=TIMEOUT)
        until(again, lambda: (lambda n: len(n) == 1 and n[0] != old_cache)(again.evaluate(KIT_CACHES)))
        wait_for_worker_to_answer_navigations(context, url)
    finally:
        server.shutdown()
        server.server_close()
    offline = context.new_page()
    offline.goto(url + "/estimate/?quarter=2027-Q2&water-gallons=12000")
    expect(offline.locator("#result-total")).to_have_text("$192.00", timeout=TIMEOUT)
    context.close()


def poisoned_wheel(wheel: Path) -> bytes:
    """The engine's wheel with its rate changed to $99.00, as a hostile page would make it."""
    import io
    import zipfile
    out = io.BytesIO()
    with zipfile.ZipFile(wheel) as original, zipfile.ZipFile(out, "w") as copy:
        for info in original.infolist():
            data = original.read(info)
            if info.filename == "calculator/compiled_rules.json":
                assert b'"vc_per_1000_gallons": "10.00"' in data
                data = data.replace(b'"vc_per_1000_gallons": "10.00"', b'"vc_per_1000_gallons": "99.00"')
            copy.writestr(info, data)
    return out.getvalue()


def test_an_engine_another_page_of_the_origin_put_in_the_cache_is_dropped(browser, built_site, site_url):
    """A page elsewhere on the same origin writes a wheel with VC $99.00 into every cache the site
    uses (and one of its own) and deletes the memory snapshot: the next visit still answers $96.00
    at $10.00, and the poisoned copy is replaced by the site's own."""
    import base64
    import hashlib
    context = browser.new_context()
    page = context.new_page()
    page.goto(site_url + LINK)
    expect(page.locator("#result-total")).to_have_text("$96.00", timeout=TIMEOUT)
    wait_for_offline_cache(page)
    wheel_rel = "engine/" + page.locator("#estimator").get_attribute("data-wheel")
    real = (built_site / wheel_rel).read_bytes()
    poison = poisoned_wheel(built_site / wheel_rel)
    digest = lambda data: base64.b64encode(hashlib.sha256(data).digest()).decode()  # noqa: E731
    kept = """async ([url]) => {
        for (const name of await caches.keys()) {
            if (!name.startsWith('pawling-files-')) continue;
            const hit = await (await caches.open(name)).match(url);
            if (hit) { const d = await crypto.subtle.digest('SHA-256', await hit.arrayBuffer());
                       return btoa(String.fromCharCode(...new Uint8Array(d))); }
        }
        return null;
    }"""
    url = f"{site_url}/{wheel_rel}"
    until(page, lambda: page.evaluate(kept, [url]))
    page.evaluate("""async ([url, b64]) => {
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        for (const name of [...await caches.keys(), 'another-site']) {
            if (name === 'pawling-python-snapshot') continue;
            await (await caches.open(name)).put(url, new Response(bytes, {headers: {'Content-Type': 'application/zip'}}));
        }
        await caches.delete('pawling-python-snapshot');
    }""", [url, base64.b64encode(poison).decode()])
    assert page.evaluate(kept, [url]) == digest(poison)
    page.close()
    again = context.new_page()
    again.goto(site_url + LINK)
    expect(again.locator("#result-total")).to_have_text("$96.00", timeout=TIMEOUT)
    assert "$10.00" in again.inner_text("#result") and "$99.00" not in again.inner_text("#result")
    until(again, lambda: again.evaluate(kept, [url]) == digest(real))
    context.close()


RECORD_STATUS = """
window.__statuses = [];
new MutationObserver(() => {
  const s = document.getElementById('engine-status-text');
  if (s && window.__statuses[window.__statuses.length - 1] !== s.textContent) window.__statuses.push(s.textContent);
}).observe(document, {subtree: true, childList: true, characterData: true});
"""


def snapshots(page):
    return page.evaluate("""async () => {
        const cache = await caches.open('pawling-python-snapshot');
        return (await cache.keys()).map((r) => r.url);
    }""")


def test_a_repeat_visit_starts_python_from_this_browser_s_own_snapshot(browser, site_url):
    context = browser.new_context()
    context.add_init_script(RECORD_STATUS)
    page = context.new_page()
    page.goto(site_url + LINK)
    expect(page.locator("#result-total")).to_have_text("$96.00", timeout=TIMEOUT)
    assert "Loading the sewer law…" in page.evaluate("window.__statuses")  # the long way, the first time
    for _ in range(120):  # the snapshot is stored in the background
        if snapshots(page):
            break
        page.wait_for_timeout(250)
    [key] = snapshots(page)
    wheel = page.locator("#estimator").get_attribute("data-wheel")
    assert key.startswith(f"{site_url}/engine/{wheel}.pyodide-") and key.endswith(".snapshot")
    again = context.new_page()
    again.goto(site_url + "/estimate/?quarter=2027-Q3&sewage-gallons=7000")
    expect(again.locator("#result-total")).to_have_text("$70.00", timeout=TIMEOUT)
    assert "Loading the sewer law…" not in again.evaluate("window.__statuses")  # restored, not started again
    context.close()


def stored_snapshot(page):
    return page.evaluate("""async () => {
        const cache = await caches.open('pawling-python-snapshot');
        const [key] = await cache.keys();
        if (!key) return null;
        const response = await cache.match(key);
        return {url: key.url, length: Number(response.headers.get('X-Snapshot-Length')),
                runs: JSON.parse(response.headers.get('X-Snapshot-Runs')),
                bytes: (await response.arrayBuffer()).byteLength};
    }""")


def test_the_kept_snapshot_is_sparse_and_a_broken_one_is_not_used(browser, site_url):
    """Python's memory is kept without its all-zero pages (engine-worker.js: sparseSnapshot), so a
    repeat visit reads about half the bytes; a kept snapshot that does not add up is not restored:
    Python starts the long way, answers, and a good snapshot replaces it."""
    context = browser.new_context()
    context.add_init_script(RECORD_STATUS)
    page = context.new_page()
    page.goto(site_url + LINK)
    expect(page.locator("#result-total")).to_have_text("$96.00", timeout=TIMEOUT)
    for _ in range(120):  # the snapshot is stored in the background
        if snapshots(page):
            break
        page.wait_for_timeout(250)
    kept = stored_snapshot(page)
    assert kept["bytes"] == sum(size for _, size in kept["runs"]) < 0.75 * kept["length"]
    ends = [0] + [offset + size for offset, size in kept["runs"]]
    assert all(offset >= end and size > 0 for (offset, size), end in zip(kept["runs"], ends)), kept["runs"]
    assert ends[-1] <= kept["length"]
    # the same key, runs that claim more bytes than it holds
    page.evaluate("""async ([url, length]) => {
        const cache = await caches.open('pawling-python-snapshot');
        await cache.put(url, new Response(new Uint8Array(1000), {headers: {
            'X-Snapshot-Length': String(length), 'X-Snapshot-Runs': JSON.stringify([[0, 4096]])}}));
    }""", [kept["url"], kept["length"]])
    again = context.new_page()
    again.goto(site_url + "/estimate/?quarter=2027-Q3&sewage-gallons=7000")
    expect(again.locator("#result-total")).to_have_text("$70.00", timeout=TIMEOUT)
    assert "Loading the sewer law…" in again.evaluate("window.__statuses")  # the long way
    for _ in range(120):
        replaced = stored_snapshot(again)
        if replaced and replaced["bytes"] != 1000:
            break
        again.wait_for_timeout(250)
    assert replaced["url"] == kept["url"] and replaced["bytes"] == sum(size for _, size in replaced["runs"])
    context.close()


def test_a_first_visit_downloads_each_file_once_also_in_a_private_window(browser, built_site):
    """The calculator's worker keeps what it fetched in Cache Storage (the wasm decoded from its
    .xz); the offline cache takes it from there instead of downloading Pyodide's wasm a second
    time. A Playwright context is a private (off-the-record) profile: its HTTP cache keeps no
    such file. (The session's build, read only, on a port of its own: an origin no browser has seen.)"""
    site = built_site
    server = kit_site.serve(site, port=0)
    sent = Counter()
    handler = server.RequestHandlerClass

    class Counting(handler.func):
        def send_head(self):
            body = super().send_head()
            if body is not None:  # a file sent; a 304 ("not modified") sends none
                sent[self.path.split("?")[0]] += 1
            return body

    server.RequestHandlerClass = functools.partial(Counting, *handler.args, **handler.keywords)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        context = browser.new_context()
        page = context.new_page()
        page.goto(url + LINK)
        expect(page.locator("#result-total")).to_have_text("$96.00", timeout=TIMEOUT)
        wait_for_offline_cache(page)
        context.close()
    finally:
        server.shutdown()
        server.server_close()
    # Pyodide's wasm, the standard library and the engine's wheel come xz-compressed, decoded in
    # the worker (kit/browser/xz.py); never the plain ones
    assert sent["/pyodide/pyodide.asm.wasm.xz"] == 1 and sent["/pyodide/xz-decompress.mjs"] == 1
    assert "/pyodide/pyodide.asm.wasm" not in sent
    for plain in (*site.glob("engine/*/python_stdlib.zip"), *site.glob("engine/*/pawling_sewer_kit-*.whl")):
        path = "/" + plain.relative_to(site).as_posix()
        assert sent[path + ".xz"] == 1 and path not in sent, path
    assert {path: n for path, n in sent.items() if n > 1} == {}
    # an English estimate: no Spanish catalogue (it is served beside the wheel, fetched by a Spanish page)
    assert not any("/locale/" in path for path in sent), sorted(sent)
    assert not any(path.endswith("python_stdlib.zip") and "/engine/" not in path for path in sent)  # only ours
