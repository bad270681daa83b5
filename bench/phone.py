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
  profile: HTTP cache, offline cache, Python snapshot) and the recompute after an input change.
- First visit, what the server sent, with the offline cache installing: every file and how
  often, in a normal profile and in a private (incognito) window.
- Engine throughput in CPython, bills per second with the cited explanation.
Writes bench/phone.json and bench/phone.md.
"""
from __future__ import annotations

import argparse
import json
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

from kit import machine as kit_machine  # noqa: E402
from kit import site as kit_site  # noqa: E402

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
            server.counts()
            out[f"{who}_s"].append(timed(ctx.new_page(), server.url + path, selector))
            sent, count = server.counts()
            out[f"{who}_bytes"].append(sum(sent.values()))
            if who == "ours":
                out["ours_requests"].append(sum(count.values()))
                out["ours_files"] = sent
            ctx.close()
            browser.close()
    return out


def warm(p, launch, server, runs, link=LINK):
    """The same profile again, in a new browser: what a repeat visit waits for; and a recompute."""
    out = {"warm_s": [], "recompute_ms": []}
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as profile:
            open_until_cached(p.chromium.launch_persistent_context(profile, **launch, **PHONE), server.url + link)
            ctx = p.chromium.launch_persistent_context(profile, **launch, **PHONE)
            page = ctx.new_page()
            out["warm_s"].append(timed(page, server.url + link, "#result-total"))
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
from calculator import bill
from calculator.rules import load
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
        slow = Server(root, *SLOW_4G)
        try:
            results["slow"] = side_by_side(p, launch, slow, args.runs, before)
        finally:
            slow.close()
        fast = Server(root, 10_000_000, 0)
        try:
            results["fast"] = side_by_side(p, launch, fast, max(args.runs, 5), before)
            results["warm"] = warm(p, launch, fast, max(args.runs, 3))
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
    for _ in range(3):  # alternating, so a busy machine slows both alike
        engine["ours"].append(engine_throughput(ROOT))
        if ap_src:
            engine["before"].append(engine_throughput(ap_src))
    results["engine_explained_bills_per_s"] = {k: statistics.median(v) for k, v in engine.items() if v}
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


def report(r) -> str:
    slow, fast, warm_, old = r["slow"], r["fast"], r["warm"], r.get("before", {})
    kbps = SLOW_4G[0] * 1024
    limit = lambda b: f"{statistics.median(b) / kbps:.1f} s" if b else ""  # noqa: E731
    med = lambda xs, unit="s": f"{median(xs)} {unit}" if xs else ""  # noqa: E731
    def ratio(who):
        if not fast.get(who + "_s"):
            return ""
        times = fast[who + "_s"]
        return f"{median(times)} s ({statistics.median(times) / statistics.median(fast['bare_s']):.2f}×)"
    twice = lambda fv: fv["sent_more_than_once"] or "none"  # noqa: E731
    fv, ofv = r["first_visit"], old.get("first_visit")
    engine = r["engine_explained_bills_per_s"]
    rows = [
        f"Measured {r['measured']}; medians of {len(slow['ours_s'])} throttled and {len(fast['ours_s'])} "
        f"unthrottled runs of each, bare, before and after alternating in one run (bench/phone.py: the method). "
        "Before: the site built from `main`; after: this branch.", "",
        "| measure | bare Pyodide | before | after | target |", "|---|---|---|---|---|",
        f"| Slow 4G, cold: to Python ready (bare) / to the estimate on screen | {med(slow['bare_s'])} "
        f"| {med(slow.get('before_s'))} | {med(slow['ours_s'])} | ≤ 20 s |",
        f"| Slow 4G: bytes sent | {median(slow['bare_bytes']):,.0f} | "
        f"{median(slow['before_bytes']):,.0f} | {median(slow['ours_bytes']):,.0f} | |" if slow.get("before_bytes") else
        f"| Slow 4G: bytes sent | {median(slow['bare_bytes']):,.0f} | | {median(slow['ours_bytes']):,.0f} | |",
        f"| Slow 4G: the link's limit (bytes ÷ 200 KB/s) | {limit(slow['bare_bytes'])} "
        f"| {limit(slow.get('before_bytes'))} | {limit(slow['ours_bytes'])} | |",
        f"| unthrottled, cold (× bare) | {med(fast['bare_s'])} | {ratio('before')} | {ratio('ours')} | ≤ 1.05× |",
        f"| warm repeat estimate (new browser, same profile) | | {med(old.get('warm', {}).get('warm_s'))} "
        f"| {med(warm_['warm_s'])} | ≤ 0.5 s |",
        f"| recompute after an input change | | {med(old.get('warm', {}).get('recompute_ms'), 'ms')} "
        f"| {med(warm_['recompute_ms'], 'ms')} | |",
        f"| first visit, files sent more than once (normal profile) | | {twice(ofv['profile']) if ofv else ''} "
        f"| {twice(fv['profile'])} | none |",
        f"| first visit, files sent more than once (private window) | | {twice(ofv['private']) if ofv else ''} "
        f"| {twice(fv['private'])} | none |",
        f"| requests for files that do not exist (10 pages, both languages) | | "
        f"{', '.join(old['not_found']) if old.get('not_found') else ('none' if old else '')} "
        f"| {', '.join(r['not_found']) or 'none'} | none |",
        f"| engine throughput (CPython), bills/s with the cited explanation (median of 3) | | "
        f"{engine.get('before', ''):,} | {engine['ours']:,} | ≥ 12,000 |" if "before" in engine else
        f"| engine throughput (CPython), bills/s with the cited explanation (median of 3) | | | "
        f"{engine['ours']:,} | ≥ 12,000 |",
        "", "After: our first estimate on Slow 4G, bytes per file (one run):", "",
        "| file | bytes sent |", "|---|---|",
        *(f"| `{k}` | {v:,} |" for k, v in sorted(slow["ours_files"].items(), key=lambda kv: -kv[1])),
    ]
    return "\n".join(rows) + "\n"


if __name__ == "__main__":
    raise SystemExit(main())
