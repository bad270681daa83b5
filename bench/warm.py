"""Where the warm repeat estimate's time goes: a shared estimate link opened in a new browser on a
profile that has seen the site (bench/phone.py's `warm`, the same steps), with the page's and the
calculator's worker's timelines read back.

    .venv/bin/python bench/warm.py [--runs 5] [--site SITE_DIR] [--trace FILE.json]

Each run: a first browser opens the link until the answer is on screen and the offline cache and
the Python snapshot are stored (phone.open_until_cached); a new browser on the same profile opens
it again, timed as phone.py times it (from `page.goto` to `#result-total` in the page). Read back:
the page's navigation and resource timings, a mark when the answer is drawn (a MutationObserver
added before the page's scripts), and the worker's own marks (`pawling:…`, engine-worker.js), all
on one clock (each side's timeOrigin). Prints one table of medians, in ms from the navigation's
start; --json writes every run's figures. --trace writes a Chrome trace (CDP Tracing) of the last
run's timed visit, for chrome://tracing or Perfetto.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import phone  # noqa: E402
from kit.tools import machine as kit_machine  # noqa: E402
from kit.site import build as kit_site  # noqa: E402

DRAWN = """(() => {
  const seen = () => document.getElementById('result-total');
  new MutationObserver((_, observer) => {
    if (seen()) { performance.mark('pawling:answer-drawn'); observer.disconnect(); }
  }).observe(document, { childList: true, subtree: true });
})();"""

PAGE_TIMELINE = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const out = {timeOrigin: performance.timeOrigin, nav: {}, resources: [], marks: {}};
  for (const k of ['workerStart', 'fetchStart', 'requestStart', 'responseStart', 'responseEnd',
                   'domInteractive', 'domContentLoadedEventEnd', 'loadEventEnd']) out.nav[k] = nav[k];
  for (const r of performance.getEntriesByType('resource'))
    out.resources.push({name: new URL(r.name).pathname, start: r.startTime, end: r.responseEnd,
                        workerStart: r.workerStart, bytes: r.transferSize, type: r.initiatorType});
  for (const m of performance.getEntriesByType('mark')) out.marks[m.name] = m.startTime;
  for (const p of performance.getEntriesByType('paint')) out.marks[p.name] = p.startTime;
  return out;
}"""

WORKER_TIMELINE = """() => {
  const out = {timeOrigin: performance.timeOrigin, marks: {}, resources: []};
  for (const m of performance.getEntriesByType('mark')) if (!(m.name in out.marks)) out.marks[m.name] = m.startTime;
  for (const r of performance.getEntriesByType('resource'))
    out.resources.push({name: new URL(r.name).pathname, start: r.startTime, end: r.responseEnd,
                        workerStart: r.workerStart, bytes: r.transferSize});
  return out;
}"""


WAIT_UNTIL = "load"


def one_run(p, launch, server, trace: Path | None = None, link: str = phone.LINK) -> dict:
    with tempfile.TemporaryDirectory() as profile:
        phone.open_until_cached(p.chromium.launch_persistent_context(profile, **launch, **phone.PHONE),
                                server.url + link)
        ctx = p.chromium.launch_persistent_context(profile, **launch, **phone.PHONE)
        ctx.add_init_script(DRAWN)
        page = ctx.new_page()
        cdp = None
        if trace:
            cdp = ctx.new_cdp_session(page)
            cdp.send("Tracing.start", {"traceConfig": {"includedCategories": [
                "devtools.timeline", "v8", "v8.wasm", "disabled-by-default-v8.wasm.detailed", "v8.execute",
                "blink", "loading", "ServiceWorker", "disabled-by-default-devtools.timeline",
                "CacheStorage", "blink.user_timing", "toplevel", "disabled-by-default-v8.compile"]},
                "transferMode": "ReturnAsStream"})
        workers = []
        page.on("worker", lambda w: workers.append(w))
        start, wall = time.perf_counter(), time.time() * 1000
        page.goto(server.url + link, wait_until=WAIT_UNTIL)
        loaded = time.time() * 1000
        page.wait_for_selector("#result-total", state="attached", timeout=300_000)
        total = time.perf_counter() - start
        seen = time.time() * 1000
        if cdp:
            done = {}
            cdp.on("Tracing.tracingComplete", lambda e: done.update(e))
            cdp.send("Tracing.end")
            while not done:
                page.wait_for_timeout(100)
            chunks = []
            while True:
                r = cdp.send("IO.read", {"handle": done["stream"], "size": 1 << 20})
                chunks.append(r["data"])
                if r.get("eof"):
                    break
            trace.write_text("".join(chunks))
        time.sleep(0.2)
        page_side = page.evaluate(PAGE_TIMELINE)
        worker_side = next((w.evaluate(WORKER_TIMELINE) for w in workers if "engine-worker" in w.url), None)
        ctx.close()
    shift = (worker_side["timeOrigin"] - page_side["timeOrigin"]) if worker_side else 0
    row = {"total_ms": round(total * 1000, 1), "goto": round(wall - page_side["timeOrigin"], 1),
           "goto-returned": round(loaded - page_side["timeOrigin"], 1),
           "selector-seen": round(seen - page_side["timeOrigin"], 1)}
    row.update({f"nav:{k}": round(v, 1) for k, v in page_side["nav"].items()})
    row.update({f"page:{k.removeprefix('pawling:')}": round(v, 1) for k, v in page_side["marks"].items()})
    for r in page_side["resources"]:
        name = r["name"].rsplit("/", 1)[-1] or r["name"]
        row.setdefault(f"res:{name}:start", round(r["start"], 1))
        row.setdefault(f"res:{name}:end", round(r["end"], 1))
    if worker_side:
        row["worker:origin"] = round(shift, 1)
        row.update({f"worker:{k.removeprefix('pawling:')}": round(v + shift, 1)
                    for k, v in worker_side["marks"].items()})
        for r in worker_side["resources"]:
            name = r["name"].rsplit("/", 1)[-1]
            row.setdefault(f"wres:{name}:start", round(r["start"] + shift, 1))
            row.setdefault(f"wres:{name}:end", round(r["end"] + shift, 1))
    return row


def table(rows, before_rows):
    keys = sorted({k for r in rows for k in r}, key=lambda k: statistics.median([r[k] for r in rows if k in r]))
    if before_rows:
        keys += [k for k in sorted({k for r in before_rows for k in r}) if k not in keys]
        print("| event | before, median ms | median ms | runs (before) | runs |")
        print("|---|---|---|---|---|")
    else:
        print("| event | median ms | runs |")
        print("|---|---|---|")
    for k in keys:
        cells = []
        for rs in ([before_rows] if before_rows else []) + [rows]:
            values = [r[k] for r in rs if k in r]
            cells.append((f"{statistics.median(values):.0f}" if values else "", ", ".join(f"{v:.0f}" for v in values)))
        print(f"| {k} | " + " | ".join(c[0] for c in cells) + " | " + " | ".join(c[1] for c in cells) + " |")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--site", type=Path)
    ap.add_argument("--json", type=Path)
    ap.add_argument("--before", type=Path, help="another build, measured alternately with this one")
    ap.add_argument("--trace", type=Path)
    ap.add_argument("--wait-until", default="load", help="page.goto's wait_until (phone.py: load)")
    args = ap.parse_args()
    global WAIT_UNTIL
    WAIT_UNTIL = args.wait_until
    site = args.site or kit_site.build(ROOT / "bench" / "out" / "site")
    from playwright.sync_api import sync_playwright
    rows, before_rows = [], []
    old_link = phone.LINK.replace("/pawling-sewer/", "/before/")
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        root = phone.serve_root(site, Path(tmp), args.before)
        launch = {"args": phone.ARGS, "executable_path": kit_machine.find_chromium()}
        server = phone.Server(root, 10_000_000, 0)
        try:
            for i in range(args.runs):
                rows.append(one_run(p, launch, server, args.trace if i == args.runs - 1 else None))
                print(f"run {i + 1}: {rows[-1]['total_ms']} ms", file=sys.stderr)
                if args.before:
                    before_rows.append(one_run(p, launch, server, None, old_link))
                    print(f"run {i + 1}, before: {before_rows[-1]['total_ms']} ms", file=sys.stderr)
        finally:
            server.close()
    table(rows, before_rows)
    if args.json:
        args.json.write_text(json.dumps({"runs": rows, "before": before_rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
