"""Speed of the quarterly bill run (issue 23), with the machine's load beside each figure.

    python bench/bill_run.py [--register 10000] [--pdf 2000] [--desk 2000] [--skip-pdf] [--skip-desk]

- the register for N accounts (calculator/billing.run, CPython): the issue asks ≤ 5 s for 10,000;
- the PDF bills for N accounts (kit/billrun/bills_pdf, WeasyPrint): ≤ 3 min for 2,000;
- the desk's register for N accounts in Chromium (/clerk/bills/, Pyodide), from the click to
  the answer on screen: ≤ 20 s for 2,000.
The accounts are the fictional sample (kit/billrun/sample.py). Writes bench/bill_run.md.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(1, str(ROOT / "tests" / "browser"))  # bill_desk: the desk driven as the tests drive it

from calculator.bills import billing  # noqa: E402
from calculator.core.rules import load  # noqa: E402
from kit.billrun import bills_pdf, sample  # noqa: E402


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def run_sample(files):
    return billing.run(load(), sample.SECOND, ("accounts.csv", files["accounts.csv"]),
                       (f"reads-{sample.SECOND}.csv", files[f"reads-{sample.SECOND}.csv"]),
                       ("payments.csv", files["payments.csv"]),
                       [(f"register-{sample.FIRST}.csv", files[f"register-{sample.FIRST}.csv"])])


def register(n: int) -> dict:
    files = sample.sample_files(n)
    load()
    before = load_average()
    started = time.perf_counter()
    result = run_sample(files)
    seconds = time.perf_counter() - started
    billed = len(result["register"])
    return {"what": f"register, {billed} accounts (CPython)", "seconds": seconds, "per_second": billed / seconds,
            "target": "≤ 5 s for 10,000", "load": f"{before} → {load_average()}"}


def pdf(n: int) -> dict:
    result = run_sample(sample.sample_files(n))
    before = load_average()
    cpu = os.times()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        bills_pdf.write_bills(load(), result, Path(folder), "https://sewer.pawling.example/")
    seconds = time.perf_counter() - started
    after = os.times()
    # the layout runs in child processes (one a core): their CPU time counts once they have ended
    cpu_seconds = sum(getattr(after, f) - getattr(cpu, f) for f in ("user", "system", "children_user", "children_system"))
    billed = len(result["register"])
    return {"what": f"PDF bills, {billed} accounts (WeasyPrint, {os.cpu_count()} processes)", "seconds": seconds,
            "per_second": billed / seconds, "target": "≤ 180 s for 2,000", "load": f"{before} → {load_average()}",
            "cpu": f"{cpu_seconds:.1f} s of CPU, {billed / cpu_seconds:.1f} bills a CPU-second"}


def desk(n: int) -> dict:
    import bill_desk
    from playwright.sync_api import sync_playwright

    from kit.site import build as site
    from kit.tools import machine
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        for name, text in sample.sample_files(n).items():
            (folder / name).write_text(text)
        built = site.build(folder / "site")
        server = site.serve(built, port=0)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{server.server_address[1]}/clerk/bills/"
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=machine.find_chromium(), args=[
                "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"])
            page = browser.new_page()
            bill_desk.fill_the_desk(page, url, folder, timeout=300_000)
            before = load_average()
            seconds = bill_desk.run_the_bills(page, timeout=300_000)
            billed = int(page.locator("#bills-done").inner_text().split()[1])
            # the bills to print, on request: the same run again with --printable, and a section a bill
            print_seconds = bill_desk.show_the_bills_to_print(page, timeout=600_000)
            browser.close()
        server.shutdown()
    return {"what": f"desk register, {billed} accounts (Chromium, Pyodide)", "seconds": seconds,
            "per_second": billed / seconds, "target": "≤ 20 s for 2,000", "load": f"{before} → {load_average()}",
            "cpu": f"then the bills to print, {billed} sections: {print_seconds:.1f} s"}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--register", type=int, default=10_000)
    ap.add_argument("--pdf", type=int, default=2000)
    ap.add_argument("--desk", type=int, default=2000)
    ap.add_argument("--skip-pdf", action="store_true")
    ap.add_argument("--skip-desk", action="store_true")
    args = ap.parse_args()
    rows = [register(args.register)]
    print(rows[-1], flush=True)
    if not args.skip_desk:
        rows.append(desk(args.desk))
        print(rows[-1], flush=True)
    if not args.skip_pdf:
        rows.append(pdf(args.pdf))
        print(rows[-1], flush=True)
    lines = ["# The bill run's speed (bench/bill_run.py)", "",
             f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} on a shared machine with "
             f"{os.cpu_count()} cores; the load average (1, 5, 15 min) before → after each is beside it.", "",
             "| what | seconds | accounts per second | target | load average |", "|---|---|---|---|---|"]
    lines += [f"| {r['what']} | {r['seconds']:.2f} | {r['per_second']:.1f} | {r['target']} | {r['load']} |" for r in rows]
    lines += [f"\n{r['what']}: {r['cpu']}." for r in rows if "cpu" in r]
    (ROOT / "bench" / "bill_run.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
