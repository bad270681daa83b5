"""The site on a phone's link, side by side with bare Pyodide, in one run.

    .venv/bin/python bench/phone.py [--runs 3] [--site SITE_DIR]

Method. One folder is served by bench/slow_serve.py (a copy of ../shared/tools/slow_serve.py:
gzip level 6 for text and wasm, one token bucket shared by every connection, one round trip
before each response, bytes and requests counted per path). It holds the built site under
/pawling-sewer/ (as GitHub serves a project site) and, under /bare/, a page that only starts
Pyodide (its own python_stdlib.zip and lock file, as npm ships them) in a module worker and
runs one line of Python. Headless Chromium, phone-sized (390x844), a fresh profile for every
cold run; bare and ours alternate, so a busy machine slows both alike. Reported: medians, and
the number of runs.

- Slow 4G (Lighthouse's mobile preset: 200 KB/s down, 150 ms round trip): bare Pyodide to
  Python ready, and our estimate from a shared link to the answer on screen; the bytes sent;
  the link's limit (bytes / rate: no page can be faster on this link).
- Unthrottled (the same server, no limit, no delay): the same two, and their ratio (the cold
  overhead of the site over bare Pyodide); then the warm repeat (a new browser on the same
  profile: HTTP cache, offline cache, Python snapshot), beside bare Pyodide's own repeat visit (a
  page that restores a snapshot it kept and runs one line: the floor under ours), and the
  recompute after an input change.
- Each timed visit also reads when the answer entered the page, on the page's own clock (a
  MutationObserver added before the page's scripts): Playwright's own wait comes after it.
- First visit, what the server sent, with the offline cache installing: every file and how
  often, in a normal profile and in a private (incognito) window.
- Engine throughput in CPython, bills per second with the cited explanation.
Writes bench/phone.json and bench/phone.md.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kit.tools import machine as kit_machine  # noqa: E402
from kit.site import build as kit_site  # noqa: E402

LINK = "/pawling-sewer/estimate/?quarter=2027-Q1&water-gallons=12000&paid-on=2027-03-01"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"]
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3, "is_mobile": True, "has_touch": True}
SLOW_4G = (200, 150)  # KB/s, ms

BARE_PAGE = """<!doctype html><html lang="en"><title>bare Pyodide</title>
<p id="status">starting</p>
<script type="module">
const worker = new Worker("worker.js", { type: "module" });
worker.onmessage = (e) => { const p = document.getElementById("status"); p.textContent = e.data; p.id = "ready"; };
</script>
"""
BARE_WORKER = """import { loadPyodide } from "./pyodide/pyodide.mjs";
const pyodide = await loadPyodide({ indexURL: new URL("./pyodide/", import.meta.url).href });
postMessage(String(pyodide.runPython("1 + 1")));
"""
# Bare Pyodide on a repeat visit, the floor under our warm repeat: the first visit makes a memory
# snapshot and keeps it in Cache Storage (whole, as Pyodide makes it); a later one restores it and
# runs one line. No page scripts, no theme, no engine.
BARE_WARM_PAGE = """<!doctype html><html lang="en"><title>bare Pyodide, from a snapshot</title>
<p id="status">starting</p>
<script type="module">
const worker = new Worker("warm-worker.js", { type: "module" });
worker.onmessage = (e) => {
  const p = document.createElement("p");
  p.id = e.data === "kept" ? "kept" : "ready";
  p.textContent = e.data;
  document.body.append(p);
};
</script>
"""
BARE_WARM_WORKER = """import { loadPyodide } from "./pyodide/pyodide.mjs";
const indexURL = new URL("./pyodide/", import.meta.url).href;
const cache = await caches.open("bare-pyodide-snapshot");
const kept = await cache.match("snapshot");
if (kept) {
  const pyodide = await loadPyodide({ indexURL, _loadSnapshot: new Uint8Array(await kept.arrayBuffer()) });
  postMessage(String(pyodide.runPython("1 + 1")));
} else {
  const pyodide = await loadPyodide({ indexURL, _makeSnapshot: true });
  postMessage(String(pyodide.runPython("1 + 1")));
  await cache.put("snapshot", new Response(pyodide.makeMemorySnapshot()));
  postMessage("kept");
}
"""
# When the answer (or bare Pyodide's #ready) enters the page, on the page's own clock: Playwright's
# own wait adds its work after that (bench/warm.md: about 0.3 s).
DRAWN = """(() => {
  const seen = () => document.getElementById('result-total') || document.getElementById('ready');
  new MutationObserver((_, observer) => {
    if (seen()) { performance.mark('pawling:answer-drawn'); observer.disconnect(); }
  }).observe(document, { childList: true, subtree: true });
})();"""
DRAWN_AT = "() => (performance.getEntriesByName('pawling:answer-drawn')[0] || {}).startTime ?? null"


# Time from typing a new usage to the new total on screen (bench.py measures the same).
RECOMPUTE_JS = """async () => {
    const box = document.getElementById('usage');
    const before = document.getElementById('result-total').textContent;
    const t0 = performance.now();
    box.value = '15000';
    box.dispatchEvent(new Event('input', {bubbles: true}));
    await new Promise((resolve) => {
        const check = () => {
            const now = document.getElementById('result-total');
            if (now && now.textContent !== before) resolve(); else requestAnimationFrame(check);
        };
        check();
    });
    return performance.now() - t0;
}"""


def link_floor(server, paths) -> float:
    """Seconds for a plain HTTP client (no browser, no CPU work) to receive these files from the
    throttled server, all at once: what the link alone allows, measured, not worked out."""
    import concurrent.futures

    def get(path):
        request = urllib.request.Request(server.url + path, headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(request) as r:
            return len(r.read())
    server.counts()
    start = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(len(paths)) as pool:
        list(pool.map(get, paths))
    took = time.perf_counter() - start
    server.counts()
    return round(took, 3)


def median(xs):
    return round(statistics.median(xs), 3) if xs else None


def serve_root(site: Path, tmp: Path, before: Path | None = None) -> Path:
    root = tmp / "root"
    root.mkdir()
    shutil.copytree(site, root / "pawling-sewer")
    if before:
        shutil.copytree(before, root / "before")
    bare = root / "bare"
    (bare / "pyodide").mkdir(parents=True)
    for name in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"):
        shutil.copy2(ROOT / "node_modules" / "pyodide" / name, bare / "pyodide" / name)
    (bare / "index.html").write_text(BARE_PAGE)
    (bare / "worker.js").write_text(BARE_WORKER)
    (bare / "warm.html").write_text(BARE_WARM_PAGE)
    (bare / "warm-worker.js").write_text(BARE_WARM_WORKER)
    return root


class Server:
    """bench/slow_serve.py in its own process, at a rate and round trip."""

    def __init__(self, root: Path, kbytes_per_s: float, rtt_ms: float):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.proc = subprocess.Popen([sys.executable, str(ROOT / "bench" / "slow_serve.py"), str(root),
                                      str(self.port), str(kbytes_per_s), str(rtt_ms)])
        self.url = f"http://127.0.0.1:{self.port}"
        for _ in range(100):
            try:
                self.counts()
                return
            except OSError:
                time.sleep(0.1)

    def _get(self, path):
        with urllib.request.urlopen(self.url + path) as r:
            return json.loads(r.read())

    def times(self):
        """{path: seconds from the first request to its own first request} since the last call."""
        return self._get("/__times")

    def counts(self):
        """(bytes per path, requests per path) since the last call."""
        return self._get("/__bytes"), self._get("/__count")

    def close(self):
        self.proc.terminate()
        self.proc.wait()


def timed(page, url, selector) -> float:
    t = time.perf_counter()
    page.goto(url)
    page.wait_for_selector(selector, state="attached", timeout=300_000)
    return time.perf_counter() - t


def side_by_side(p, launch, server, runs, before=False):
    who_path = [("bare", "/bare/", "#ready"), ("ours", LINK, "#result-total")]
    if before:
        who_path.append(("before", LINK.replace("/pawling-sewer/", "/before/"), "#result-total"))
    out = {f"{who}_{k}": [] for who, _, _ in who_path for k in ("s", "bytes")}
    out["ours_requests"] = []
    for _ in range(runs):
        for who, path, selector in who_path:
            browser = p.chromium.launch(**launch)
            ctx = browser.new_context(**PHONE)
            ctx.add_init_script(DRAWN)
            server.counts()
            server.times()
            page = ctx.new_page()
            out[f"{who}_s"].append(timed(page, server.url + path, selector))
            drawn = page.evaluate(DRAWN_AT)
            out.setdefault(f"{who}_drawn_s", []).append(round(drawn / 1000, 3) if drawn is not None else None)
            sent, count = server.counts()
            asked = server.times()
            out.setdefault(f"{who}_wasm_asked_s", []).append(
                next((v for k, v in asked.items() if k.endswith(("pyodide.asm.wasm", "pyodide.asm.wasm.xz"))), None))
            out[f"{who}_bytes"].append(sum(sent.values()))
            if who == "ours":
                out["ours_requests"].append(sum(count.values()))
                out["ours_files"] = sent
            ctx.close()
            browser.close()
    return out


def warm(p, launch, server, runs, link=LINK, bare=False):
    """The same profile again, in a new browser: what a repeat visit waits for; and a recompute.
    With `bare`, each round also measures bare Pyodide's repeat visit (BARE_WARM_PAGE: its own
    snapshot restored), alternating with ours."""
    out = {"warm_s": [], "warm_drawn_s": [], "recompute_ms": [], "bare_warm_s": [], "bare_warm_drawn_s": []}
    for _ in range(runs):
        for who, url, selector in ([("bare_", "/bare/warm.html", "#ready")] if bare else []) + [("", link, "#result-total")]:
            with tempfile.TemporaryDirectory() as profile:
                if who:
                    first = p.chromium.launch_persistent_context(profile, **launch, **PHONE)
                    first.new_page().goto(server.url + url)
                    first.pages[-1].wait_for_selector("#kept", state="attached", timeout=300_000)
                    first.close()
                else:
                    open_until_cached(p.chromium.launch_persistent_context(profile, **launch, **PHONE), server.url + url)
                ctx = p.chromium.launch_persistent_context(profile, **launch, **PHONE)
                ctx.add_init_script(DRAWN)
                page = ctx.new_page()
                out[f"{who}warm_s"].append(timed(page, server.url + url, selector))
                drawn = page.evaluate(DRAWN_AT)
                out[f"{who}warm_drawn_s"].append(round(drawn / 1000, 3) if drawn is not None else None)
                if not who:
                    out["recompute_ms"].append(page.evaluate(RECOMPUTE_JS))
                ctx.close()
    return out


def wait_for_offline_cache(page):
    """Until the offline cache is active and this browser's Python snapshot is stored."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not page.evaluate("""async () => {
            const r = await navigator.serviceWorker.getRegistration();
            const snapshot = await (await caches.open('pawling-python-snapshot')).keys();
            return !!(r && r.active) && snapshot.length > 0;
        }"""):
        time.sleep(0.25)
    time.sleep(1)


def open_until_cached(ctx, url):
    """A first visit in `ctx`: the answer on screen and the offline copies stored; then closed."""
    page = ctx.new_page()
    timed(page, url, "#estimator[data-engine=ready]")
    page.wait_for_selector("#result-total")
    wait_for_offline_cache(page)
    ctx.close()


def first_visit(p, launch, server, private: bool, link=LINK):
    """What the server sent on a first visit, the offline cache installing: {path: times} sent more than once."""
    server.counts()
    if private:
        browser = p.chromium.launch(**launch)
        ctx = browser.new_context(**PHONE)
    else:
        profile = tempfile.mkdtemp(prefix="first-visit-")
        browser = None
        ctx = p.chromium.launch_persistent_context(profile, **launch, **PHONE)
    open_until_cached(ctx, server.url + link)
    if browser:
        browser.close()
    sent, count = server.counts()
    return {"bytes": sum(sent.values()), "requests": sum(count.values()),
            "sent_more_than_once": {k: v for k, v in count.items() if v > 1}}


THROUGHPUT = """
import sys, time
sys.path.insert(0, sys.argv[1])
from calculator.bills import bill
from calculator.core.rules import load
rules = load()
n, start = 0, time.perf_counter()
while time.perf_counter() - start < 3.0:
    bill.compute(rules, "2027-Q1", {"water-gallons": str(8000 + n % 20000)}, "2027-03-20", explain=True)
    n += 1
print(round(n / (time.perf_counter() - start)))
"""


def engine_throughput(source: Path) -> int:
    """Bills per second with the cited explanation, in CPython, of the engine in `source`."""
    out = subprocess.run([sys.executable, "-c", THROUGHPUT, str(source)], capture_output=True, text=True,
                         check=True, cwd=source)
    return int(out.stdout.split()[-1])


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--site", type=Path)
    ap.add_argument("--before", type=Path, help="another build (e.g. main's) measured alongside, as 'before'")
    ap.add_argument("--before-source", type=Path, help="that build's source folder (its engine's throughput)")
    args = ap.parse_args()
    site = args.site or kit_site.build(ROOT / "bench" / "out" / "site")
    from playwright.sync_api import sync_playwright
    results = {"runs": args.runs, "measured": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        root = serve_root(site, Path(tmp), args.before)
        launch = {"args": ARGS, "executable_path": kit_machine.find_chromium()}
        before = bool(args.before)
        old_link = LINK.replace("/pawling-sewer/", "/before/")
        results["load_before"] = [round(x, 2) for x in os.getloadavg()]
        slow = Server(root, *SLOW_4G)
        try:
            results["slow"] = side_by_side(p, launch, slow, args.runs, before)
            # the files our first answer was sent (the last run's), fetched again by a plain client
            results["slow"]["ours_floor_s"] = link_floor(slow, sorted(results["slow"]["ours_files"]))
        finally:
            slow.close()
        fast = Server(root, 10_000_000, 0)
        try:
            results["fast"] = side_by_side(p, launch, fast, max(args.runs, 5), before)
            results["warm"] = warm(p, launch, fast, max(args.runs, 3), bare=True)
            results["first_visit"] = {"profile": first_visit(p, launch, fast, private=False),
                                      "private": first_visit(p, launch, fast, private=True)}
            results["not_found"] = sorted(first_visit_404s(p, launch, fast))
            if before:
                results["before"] = {
                    "warm": warm(p, launch, fast, max(args.runs, 3), old_link),
                    "first_visit": {"profile": first_visit(p, launch, fast, private=False, link=old_link),
                                    "private": first_visit(p, launch, fast, private=True, link=old_link)},
                    "not_found": sorted(first_visit_404s(p, launch, fast, "/before"))}
        finally:
            fast.close()
    ap_src = args.before_source
    engine = {"ours": [], "before": []}
    for _ in range(5):  # alternating, so a busy machine slows both alike
        engine["ours"].append(engine_throughput(ROOT))
        if ap_src:
            engine["before"].append(engine_throughput(ap_src))
    results["engine_explained_bills_per_s"] = {k: statistics.median(v) for k, v in engine.items() if v}
    results["load_after"] = [round(x, 2) for x in os.getloadavg()]
    results["stdlib"] = stdlib_listing(site)
    (ROOT / "bench" / "phone.json").write_text(json.dumps(results, indent=1) + "\n")
    md = report(results)
    (ROOT / "bench" / "phone.md").write_text(md)
    print(md)
    return 0


def first_visit_404s(p, launch, server, prefix="/pawling-sewer"):
    """Requests the pages make for files that do not exist (every page, both languages)."""
    browser = p.chromium.launch(**launch)
    ctx = browser.new_context(service_workers="block")
    page = ctx.new_page()
    missing = {}
    page.on("response", lambda r: missing.__setitem__(r.url.replace(server.url, ""), r.status)
            if r.status == 404 else None)
    for path in ("/", "/estimate/", "/permit/", "/industry/", "/rates/", "/law/", "/notices/",
                 "/es/", "/es/estimate/", "/es/permit/"):
        page.goto(server.url + prefix + path, wait_until="networkidle")
    ctx.close()
    browser.close()
    return missing


def stdlib_listing(site: Path) -> dict:
    """What the first answer's Python files hold: the trimmed standard library by top-level module
    (bytes of bytecode) and the engine's wheel by file (bytes), each zip with the size of the
    .xz it is sent as (one stream for the whole zip, so it cannot be split by file)."""
    import zipfile
    from collections import Counter
    [stdlib] = (site / "engine").glob("*/python_stdlib.zip")
    [wheel] = (site / "engine").glob("*/pawling_sewer_kit-*.whl")
    modules = Counter()
    with zipfile.ZipFile(stdlib) as z:
        for info in z.infolist():
            modules[info.filename.split("/")[0].removesuffix(".pyc").removesuffix(".py")] += info.file_size
    with zipfile.ZipFile(wheel) as z:
        files = {info.filename: info.file_size for info in z.infolist()}
    xz_size = lambda path: Path(f"{path}.xz").stat().st_size if Path(f"{path}.xz").is_file() else None  # noqa: E731
    return {"stdlib_bytes": stdlib.stat().st_size, "stdlib_xz_bytes": xz_size(stdlib), "modules": dict(modules.most_common()),
            "wheel_bytes": wheel.stat().st_size, "wheel_xz_bytes": xz_size(wheel),
            "wheel_files": dict(sorted(files.items(), key=lambda kv: -kv[1]))}


def report(r) -> str:
    slow, fast, warm_, old = r["slow"], r["fast"], r["warm"], r.get("before", {})
    rate = SLOW_4G[0] * 1024  # bytes per second
    limit = lambda b: f"{statistics.median(b) / rate:.1f} s" if b else ""  # noqa: E731
    med = lambda xs, unit="s": f"{median(xs)} {unit}" if xs else ""  # noqa: E731
    drawn = lambda xs: [x for x in xs or [] if x is not None]  # noqa: E731

    def ratio(who):
        if not fast.get(who + "_s"):
            return ""
        times = fast[who + "_s"]
        return f"{median(times)} s ({statistics.median(times) / statistics.median(fast['bare_s']):.2f}×)"
    twice = lambda fv: fv["sent_more_than_once"] or "none"  # noqa: E731
    fv, ofv = r["first_visit"], old.get("first_visit")
    engine = r["engine_explained_bills_per_s"]
    files = sorted(slow["ours_files"].items(), key=lambda kv: -kv[1])
    total = sum(slow["ours_files"].values())
    wasm_path, wasm = next((k, v) for k, v in files if k.endswith((".wasm", ".wasm.xz")))
    packed = "xz-compressed by the build (kit/browser/xz.py), decoded in the worker" if wasm_path.endswith(".xz") else "gzipped"
    mjs = next((v for k, v in files if k.endswith("asm.mjs")), 0)
    rtt = SLOW_4G[1] / 1000
    rows = [
        "# The site on a phone's link: every goal of issue 21, side by side, in one run", "",
        f"Measured {r['measured']} by `bench/phone.py` (the method is its docstring, and below); machine load "
        f"(1, 5, 15 min) {r.get('load_before')} at the start and {r.get('load_after')} at the end, on 2 cores "
        "shared with other work, every process of the run at `nice -n 19`. Medians of "
        f"{len(slow['ours_s'])} throttled and {len(fast['ours_s'])} unthrottled runs of each; bare Pyodide, before "
        "and after alternate within each round, so a busy machine slows all three alike. Before: the site built "
        "from `main`; after: this branch.", "",
        "| measure | bare Pyodide | before | after | target |", "|---|---|---|---|---|",
        f"| Slow 4G, cold: to Python ready (bare) / to the estimate on screen | {med(slow['bare_s'])} "
        f"| {med(slow.get('before_s'))} | {med(slow['ours_s'])} | ≤ 20 s |",
        f"| Slow 4G, the same, on the page's own clock (the answer enters the page; Playwright sees it after its own "
        f"work) | {med(drawn(slow.get('bare_drawn_s')))} | {med(drawn(slow.get('before_drawn_s')))} "
        f"| {med(drawn(slow.get('ours_drawn_s')))} | |",
        f"| Slow 4G: bytes sent | {median(slow['bare_bytes']):,.0f} | "
        + (f"{median(slow['before_bytes']):,.0f}" if slow.get("before_bytes") else "")
        + f" | {median(slow['ours_bytes']):,.0f} | |",
        f"| Slow 4G: the wasm asked for, after the page was asked for | {med(slow.get('bare_wasm_asked_s'))} "
        f"| {med(slow.get('before_wasm_asked_s'))} | {med(slow.get('ours_wasm_asked_s'))} | as early as can be |",
        f"| Slow 4G: the link's limit (bytes ÷ 200 KB/s) | {limit(slow['bare_bytes'])} "
        f"| {limit(slow.get('before_bytes'))} | {limit(slow['ours_bytes'])} | |",
        f"| Slow 4G: the same files fetched at once by a plain client (the link's floor, measured) | | | "
        f"{slow.get('ours_floor_s', '')} s | |",
        f"| unthrottled, cold (× bare) | {med(fast['bare_s'])} | {ratio('before')} | {ratio('ours')} | ≤ 1.05× |",
        f"| warm repeat estimate (new browser, same profile; bare: Pyodide restoring its own snapshot, one line "
        f"of Python) | {med(warm_.get('bare_warm_s'))} | {med(old.get('warm', {}).get('warm_s'))} "
        f"| {med(warm_['warm_s'])} | ≤ 0.5 s |",
        f"| warm repeat, on the page's own clock | {med(drawn(warm_.get('bare_warm_drawn_s')))} | "
        f"{med(drawn(old.get('warm', {}).get('warm_drawn_s')))} | {med(drawn(warm_.get('warm_drawn_s')))} | |",
        f"| recompute after an input change | | {med(old.get('warm', {}).get('recompute_ms'), 'ms')} "
        f"| {med(warm_['recompute_ms'], 'ms')} | |",
        f"| first visit, files sent more than once (normal profile) | | {twice(ofv['profile']) if ofv else ''} "
        f"| {twice(fv['profile'])} | none |",
        f"| first visit, files sent more than once (private window) | | {twice(ofv['private']) if ofv else ''} "
        f"| {twice(fv['private'])} | none |",
        f"| requests for files that do not exist (10 pages, both languages) | | "
        f"{', '.join(old['not_found']) if old.get('not_found') else ('none' if old else '')} "
        f"| {', '.join(r['not_found']) or 'none'} | none |",
        f"| engine throughput (CPython), bills/s with the cited explanation (median of 5, alternating) | | "
        f"{engine['before']:,} | {engine['ours']:,} | ≥ 12,000 |" if "before" in engine else
        f"| engine throughput (CPython), bills/s with the cited explanation (median of 5, alternating) | | | "
        f"{engine['ours']:,} | ≥ 12,000 |",
        "", "## The 20 s goal and the size of Pyodide's wasm", "",
        f"What our first estimate was sent on Slow 4G (one run), and how long each file alone takes at "
        f"200 KB/s ({rate:,} bytes a second). Every file is asked for at once (the worker starts from an "
        "inline script first in the page's head), so they share the link; none waits for another.", "",
        "| file | bytes sent | alone at 200 KB/s |", "|---|---|---|",
        *(f"| `{k}` | {v:,} | {v / rate:.2f} s |" for k, v in files),
        f"| **all** | **{total:,}** | **{total / rate:.2f} s** |", "",
        f"The wasm alone is {wasm:,} bytes ({packed}): {wasm / rate:.1f} s at this link, before any other file "
        f"and before one round trip ({rtt:.2f} s) for the page itself. Everything the first answer needs is "
        f"{total:,} bytes, {total / rate:.1f} s of link; a plain client fetching the same files at once took "
        f"{slow.get('ours_floor_s', '?')} s. No page that starts Pyodide 314 this way can show an answer on this "
        f"link in less than that. 20 s of link carries {20 * rate:,} bytes; the wasm and `pyodide.asm.mjs` "
        f"leave {20 * rate - wasm - mjs:,} of them for the page, the standard library and the engine, "
        + ("so the link alone no longer keeps the goal out of reach. " if total < 20 * rate else
           "so the 20 s goal is blocked by the size of Pyodide's wasm. ")
        + "What remains above the floor is the work that cannot start before the wasm's last byte: "
        "Chromium finishes compiling the wasm, Python starts (0.7-0.8 s here, from bytecode; bare Pyodide "
        "compiles its library's sources, about 2.5 s more), imports the engine (its wheel arrives meanwhile: "
        "it is asked for as the wasm's last bytes come) and answers, and the page draws the answer. "
        "(docs/decisions/019-stdlib-bytecode.md)", "",
        "## What the first answer's Python holds", "",
        f"The trimmed standard library, `python_stdlib.zip`: {r['stdlib']['stdlib_bytes']:,} bytes of Python 3.14 "
        f"bytecode (kit/browser/pyc.mjs), stored, sent as `python_stdlib.zip.xz`, {r['stdlib'].get('stdlib_xz_bytes') or 0:,} "
        "bytes (one xz stream for the whole zip). By top-level module, bytes of bytecode. It holds what Pyodide's own "
        "start-up imports (`pyodide`, `_pyodide`, and through them `asyncio`, `typing`, `inspect`, "
        "`dataclasses`, `zipfile`, `tarfile`'s neighbours …) and what the engine imports; the modules only "
        "pypdf needs come with pypdf's wheel, when a page fills the application (kit/browser/stdlib.py).", "",
        "| module | bytes |", "|---|---|",
        *(f"| `{k}` | {v:,} |" for k, v in r["stdlib"]["modules"].items()),
        "", f"The engine's wheel: {r['stdlib']['wheel_bytes']:,} bytes stored, sent as its `.xz`, "
        f"{r['stdlib'].get('wheel_xz_bytes') or 0:,} bytes, asked for when the wasm has nearly all come (its largest "
        "files; each language's catalogue is served beside it, `locale/<lang>.json`, and fetched by that language's "
        "pages only):", "",
        "| file | bytes |", "|---|---|",
        *(f"| `{k}` | {v:,} |" for k, v in list(r["stdlib"]["wheel_files"].items())[:12]),
        "", "## Method", "",
        "One folder served by `bench/slow_serve.py` (gzip level 6 for text and wasm; one token bucket shared by "
        "every connection; one round trip before each response; bytes and requests counted per path): the "
        "built site under `/pawling-sewer/` (as GitHub serves a project site), `main`'s under `/before/`, and "
        "under `/bare/` a page that only starts Pyodide (its own `python_stdlib.zip` and lock file, as npm "
        "ships them) in a module worker and runs one line of Python. Headless Chromium, phone-sized "
        "(390×844), a fresh profile for every cold run. Slow 4G is Lighthouse's mobile preset (200 KB/s "
        "down, 150 ms round trip); unthrottled is the same server with no limit. The warm repeat opens the "
        "estimate in a first browser until its answer is on screen and the offline cache and Python snapshot "
        "are stored, then times it in a new browser on the same profile. The first-visit rows count what the "
        "server sent while the offline cache installs, in a normal profile and a private window. Engine "
        "throughput: `bill.compute` with its explanation in a loop for 3 s, in CPython, each engine in its "
        "own process, alternating. Run it again with:", "",
        "    nice -n 19 .venv/bin/python bench/phone.py --runs 3 --before BUILT_MAIN_SITE --before-source MAIN_CHECKOUT",
        "",
    ]
    return "\n".join(rows) + "\n"


if __name__ == "__main__":
    raise SystemExit(main())
