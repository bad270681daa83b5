"""The quarterly bills as tagged PDF/UA-1 documents, one page an account: one document for the
accounts in English and one for those in Spanish (a document has one language, /Lang), made the way
the application and the notices are (kit/documents/layout.py, kit/documents/tagged_pdf.py)."""
from __future__ import annotations

import math
import multiprocessing
import os
import signal
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from calculator.bills import billing
from calculator.core.i18n import N_, localized, speaking

from ..documents.layout import DOCUMENTS, PRINT_CSS, document_html, environment
from ..words.language import PDF_TAGS, page_words
from ..documents.tagged_pdf import html_to_pdf, join_tagged

BILL_CSS = DOCUMENTS / "bill.css"
TITLE = N_("Sewer bills for {quarter}")
#: Bills laid out in one go by one process: WeasyPrint's layout is most of a run's time (about
#: 0.13 s of CPU a bill, bench/bill_run.md), so a language's bills are split into chunks laid out
#: side by side, one process a core, and the tagged PDFs joined into one (tagged_pdf.join_tagged).
CHUNK = 100


def bill_html(rules: dict, row: dict, account: dict, site_url: str, env=None) -> str:
    """One account's bill (a register line) as HTML, in the language being spoken (`rules` localized to
    it): the engine's printable bill (calculator/bills/billing.py: printable_bill), which the Clerk's desk prints
    too, for the same usage and quarter as the estimate page the bill links to."""
    env = env or environment()
    return env.get_template("bill.html.j2").render(p=billing.printable_bill(rules, row, account, site_url))


def bills_pdf(rules: dict, rows: list[dict], accounts: dict, language: str, site_url: str,
              workers: int | None = None) -> bytes:
    """The bills of the accounts in one language, in the register's order, as one tagged PDF.
    More than CHUNK bills are laid out in `workers` processes (default: one a core), a chunk each,
    and joined."""
    workers = workers or os.cpu_count() or 1
    if workers == 1 or len(rows) <= CHUNK:
        return _chunk_pdf(rules, rows, accounts, language, site_url)
    size = min(CHUNK, math.ceil(len(rows) / workers))
    chunks = [rows[i:i + size] for i in range(0, len(rows), size)]
    # fork, not spawn: spawn re-runs the caller's main module, which a script without a
    # `if __name__ == "__main__"` guard does not survive; the parent has not laid anything out yet
    pool = None
    try:
        # the workers are forked with Ctrl-C and SIGTERM held: one arriving during a fork was swallowed
        # by a fork handler ("Exception ignored in _releaseLock") and the run went on to the end. Held, it
        # is delivered once they are all started (a fork pool starts them all at its first task), here.
        held = signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
        try:
            pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork"),
                                       initializer=_die_with_parent)
            pool.submit(int).result()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
        parts = list(pool.map(_chunk_pdf, [rules] * len(chunks), chunks,
                              [{r["account"]: accounts[r["account"]] for r in chunk} for chunk in chunks],
                              [language] * len(chunks), [site_url] * len(chunks)))
    except BaseException:  # stopped (Ctrl-C, SIGTERM) or failed: the workers end now, not after their chunks
        if pool is None:
            raise
        # the pool's own thread sees its workers die and may raise: the run says itself why it stopped, so
        # that thread's traceback is not printed (a fresh clone's CI caught one, SIGTERM to the run)
        import threading
        threading.excepthook = lambda args: None
        for process in list((pool._processes or {}).values()):
            process.kill()  # (they ignore SIGTERM: _die_with_parent)
        pool.shutdown(wait=False, cancel_futures=True)
        STOPPED.append(pool)  # the pool's own thread may wait at exit for workers ended mid-chunk (command.main)
        raise
    pool.shutdown()
    return join_tagged(parts)


#: the signals that stop a run (command.main), held while its workers are forked
STOPS = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}

#: the pools stopped mid-run: the process then ends at once when it has said so (command.main), since
#: Python's exit would wait for the pool's thread, which a worker ended mid-chunk can leave waiting
STOPPED: list = []


def _die_with_parent() -> None:
    """A worker ends when the run that started it ends, even when the run is killed (SIGKILL leaves
    no time to stop the pool): Linux's PR_SET_PDEATHSIG, where there is one."""
    import ctypes
    import signal
    # Ctrl-C in a terminal, or SIGTERM to the run's process group, reaches every worker too: the run
    # itself stops them and says so, so a worker ends quietly (no KeyboardInterrupt traceback of its own:
    # the second hostile tester saw 3 to 6 of them after "Stopped before the end")
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # SIGTERM to the whole group too: a worker dying before the run saw the signal left the pool's thread a
    # traceback of its own; the run kills its workers itself when it stops
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)  # the terminal closing: as SIGTERM
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPS)  # held while it was forked
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG = 1
    except (OSError, AttributeError):
        pass  # not Linux: the pool still ends with the run on an ordinary exit or signal


def _chunk_pdf(rules: dict, rows: list[dict], accounts: dict, language: str, site_url: str) -> bytes:
    with speaking(language):
        spoken = localized(rules)
        env = environment()
        title = (page_words(language).get(TITLE) or TITLE).format(quarter=rows[0]["quarter"])
        body = "\n".join(bill_html(spoken, row, accounts[row["account"]], site_url, env) for row in rows)
        # no "Page 12 of 35" on a resident's bill: each page is its own letter (bill.css)
        html = document_html(body, title=title, lang=PDF_TAGS[language], kind="bills", page_numbers=False)
    return html_to_pdf(html, title=title, lang=PDF_TAGS[language], base_url=str(PRINT_CSS.parent),
                       stylesheets=[str(PRINT_CSS), str(BILL_CSS)])


def write_bills(rules: dict, result: dict, folder: Path, site_url: str, workers: int | None = None) -> list[Path]:
    """bills-en.pdf and bills-es.pdf (each only when it has an account) into a folder."""
    written = []
    for language in PDF_TAGS:
        rows = [r for r in result["register"] if r["language"] == language]
        if rows:
            path = Path(folder) / f"bills-{language}.pdf"
            path.write_bytes(bills_pdf(rules, rows, result["accounts"], language, site_url, workers))
            written.append(path)
    return written
