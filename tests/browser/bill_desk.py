"""The Clerk's desk for the bill run (/clerk/bills/), driven as the billing clerk drives it: the
quarter chosen, the sample's files chosen from the computer, "Run the bills", then, on request,
"Show the bills to print". One place for the browser tests (test_bill_run_desk.py) and the bench
(bench/bill_run.py), so both run the desk the same way. It imports the kit's sample (kit ->
calculator), never the other way round."""
from __future__ import annotations

import time
from pathlib import Path

from kit.billrun import sample

TIMEOUT = 120_000


def fill_the_desk(page, desk_url: str, folder: Path, quarter: str = sample.SECOND, earlier: bool = True,
                  timeout: int = TIMEOUT) -> None:
    """Open the desk, wait for its engine, choose the quarter and choose the sample's files in `folder`
    (as kit/billrun/sample.write leaves them): the accounts, the quarter's reads and, with `earlier`,
    the payments and the register of the quarter before."""
    folder = Path(folder)
    page.goto(desk_url)
    page.wait_for_function("() => window.__billRun && window.__billRun.ready", timeout=timeout)
    page.get_by_label("Quarter to bill").select_option(quarter)
    page.get_by_label("Accounts file").set_input_files(str(folder / "accounts.csv"))
    page.get_by_label("Meter reads for the quarter").set_input_files(str(folder / f"reads-{sample.SECOND}.csv"))
    if earlier:
        page.get_by_label("Payments received on earlier bills (optional)").set_input_files(
            str(folder / "payments.csv"))
        page.get_by_label("Yes — choose it below").check()
        page.get_by_label("Billing records of earlier runs (register.csv) (needed when you answered Yes)").set_input_files(
            str(folder / f"register-{sample.FIRST}.csv"))


def run_the_bills(page, timeout: int = TIMEOUT) -> float:
    """Click "Run the bills" and wait until the answer is on the screen; the seconds it took."""
    started = time.perf_counter()
    page.get_by_role("button", name="Run the bills").click()
    page.wait_for_function("() => window.__billRun.done === 1", timeout=timeout)
    return time.perf_counter() - started


def show_the_bills_to_print(page, timeout: int = TIMEOUT) -> float:
    """After a run, click "Show the bills to print" and wait for them; the seconds the page measured."""
    page.get_by_role("button", name="Show the bills to print").click()
    page.wait_for_function("() => window.__billRun.printed === 1", timeout=timeout)
    return page.evaluate("window.__billRun.printSeconds")
