"""Performance record for the site and the engine.

    python bench/bench.py [--runs 5]

Prints, as medians of at least 5 runs: time from navigation to a shareable-link
estimate on screen (cold cache, warm cache, offline repeat when a service worker
exists), recompute latency after an input change, bytes transferred per page,
build time, and engine throughput in bills per second (CPython). Writes
bench/results.json and bench/results.md.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import threading
import time

from phone import RECOMPUTE_JS  # bench/ is this script's folder on sys.path
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kit.tools import machine as kit_machine  # noqa: E402
from kit.site import build as kit_site  # noqa: E402

LINK = "/estimate/?quarter=2027-Q1&water-gallons=12000&paid-on=2027-03-01"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"]


def median(xs):
    return round(statistics.median(xs), 3)


def bench_build(runs: int) -> float:
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(runs):
            t = time.perf_counter()
            kit_site.build(Path(tmp) / "site")
            times.append(time.perf_counter() - t)
    return median(times)


def bench_engine(explain: bool, seconds: float = 3.0) -> float:
    """Bills per second in CPython: a different usage each time, with a late payment."""
    from calculator.bills import bill
    from calculator.core.rules import load
    rules = load()
    n, start = 0, time.perf_counter()
    if not explain:  # the Clerk's batch: every parcel's bill for a quarter
        usages = [{"water-gallons": str(8000 + i % 20000)} for i in range(20000)]
        while time.perf_counter() - start < seconds:
            n += len(bill.compute_many(rules, "2027-Q1", usages, "2027-03-20"))
        return round(n / (time.perf_counter() - start))
    while time.perf_counter() - start < seconds:
        bill.compute(rules, "2027-Q1", {"water-gallons": str(8000 + n % 20000)}, "2027-03-20", explain=explain)
        n += 1
    return round(n / (time.perf_counter() - start))


def time_to_estimate(page, url) -> float:
    t = time.perf_counter()
    page.goto(url)
    page.wait_for_selector("#result-total", timeout=120_000)
    return time.perf_counter() - t


def bench_browser(site_url: str, runs: int, chromium: str | None) -> dict:
    from playwright.sync_api import sync_playwright
    out = {"cold_s": [], "cold_es_s": [], "warm_s": [], "offline_s": [], "recompute_ms": []}
    with sync_playwright() as p:
        launch = {"args": ARGS}
        if chromium:
            launch["executable_path"] = chromium
        for _ in range(runs):
            with tempfile.TemporaryDirectory() as profile:
                ctx = p.chromium.launch_persistent_context(profile, **launch)
                page = ctx.new_page()
                out["cold_s"].append(time_to_estimate(page, site_url + LINK))
                page.wait_for_timeout(1500)  # let the browser store its caches
                ms = page.evaluate(RECOMPUTE_JS)
                out["recompute_ms"].append(ms)
                ctx.close()
                # the same shared link on the Spanish page, in a fresh profile
                with tempfile.TemporaryDirectory() as profile_es:
                    ctx_es = p.chromium.launch_persistent_context(profile_es, **launch)
                    out["cold_es_s"].append(time_to_estimate(ctx_es.new_page(), site_url + "/es" + LINK))
                    ctx_es.close()
                # warm: the same profile (its HTTP and code caches), a fresh browser
                ctx = p.chromium.launch_persistent_context(profile, **launch)
                page = ctx.new_page()
                out["warm_s"].append(time_to_estimate(page, site_url + LINK))
                has_sw = page.evaluate("navigator.serviceWorker && navigator.serviceWorker.controller !== null")
                if has_sw:
                    ctx.set_offline(True)
                    page2 = ctx.new_page()
                    out["offline_s"].append(time_to_estimate(page2, site_url + LINK))
                ctx.close()
        out = {k: median(v) if v else None for k, v in out.items()}
        # bytes per page, cold cache
        browser = p.chromium.launch(**launch)
        pages = {}
        for path in ["/", "/estimate/", "/law/", "/rates/", "/how-we-read-the-law/", "/es/", "/es/estimate/"] \
                + extra_pages(site_url):
            ctx = browser.new_context()
            page = ctx.new_page()
            total = {"bytes": 0, "requests": 0, "pyodide": 0}

            def done(req, total=total):
                sizes = req.sizes()
                total["bytes"] += sizes["responseBodySize"] + sizes["responseHeadersSize"]
                total["requests"] += 1
                total["pyodide"] += "/pyodide/" in req.url

            page.on("requestfinished", done)
            page.goto(site_url + path, wait_until="networkidle")
            if path.endswith("/estimate/"):
                page.wait_for_selector("#estimator[data-engine=ready]", state="attached", timeout=120_000)
                page.wait_for_timeout(500)
            pages[path] = total
            ctx.close()
        browser.close()
        out["pages"] = pages
    return out


def extra_pages(site_url):
    found = []
    for path in ("/permit/", "/industry/", "/notices/"):
        site = ROOT / "site" / path.strip("/") / "index.html"
        if site.exists():
            found.append(path)
    return found


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    runs = max(5, args.runs)
    print("building…", flush=True)
    build_s = bench_build(runs)
    site = kit_site.build()
    server = kit_site.serve(site, port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    browser = bench_browser(url, runs, kit_machine.find_chromium())
    server.shutdown()
    results = {
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform(), "python": platform.python_version(),
                    "measured": time.strftime("%Y-%m-%d")},
        "runs": runs,
        "build_s": build_s,
        "engine_bills_per_s": bench_engine(explain=False),
        "engine_explained_bills_per_s": bench_engine(explain=True),
        **browser,
    }
    (ROOT / "bench" / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    md = ["| measure (median of %d runs) | value | target |" % runs, "|---|---|---|",
          f"| build time | {build_s} s | ≤ 15 s |",
          f"| first estimate from a shared link, cold cache | {browser['cold_s']} s | ≤ 4 s |",
          f"| the same, on the Spanish page (/es/estimate/) | {browser['cold_es_s']} s | ≤ 4 s |",
          f"| first estimate, warm cache (new browser, same profile: HTTP cache, service worker, Python snapshot) | {browser['warm_s']} s | ≤ 1 s |",
          f"| first estimate, offline repeat visit | {browser['offline_s']} s | works |",
          f"| recompute after an input change | {round(browser['recompute_ms'], 1)} ms | ≤ 50 ms |",
          f"| engine throughput (CPython), numbers only (`bill.compute_many`, one quarter's batch) | {results['engine_bills_per_s']:,} bills/s | ≥ 50,000 |",
          f"| engine throughput (CPython), with the cited explanation | {results['engine_explained_bills_per_s']:,} bills/s | |"]
    md += ["", "| page | bytes (cold) | requests | Pyodide files |", "|---|---|---|---|"]
    md += [f"| `{k}` | {v['bytes']:,} | {v['requests']} | {v['pyodide']} |" for k, v in browser["pages"].items()]
    md += ["", f"Machine: {results['machine']['cpus']} cores, {results['machine']['platform']}, "
               f"Python {results['machine']['python']}, measured {results['machine']['measured']}."]
    (ROOT / "bench" / "results.md").write_text("\n".join(md) + "\n")
    print("\n".join(md))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
