"""What a first visit to /estimate/ from a shared link downloads, counted at the server:
every file and how often it was sent, with the offline service worker installing.

    .venv/bin/python bench/first_visit.py [SITE_DIR]

Counts what the server sent (bytes of response bodies), so the service worker's own
requests are counted too. Prints JSON: total bytes, and the files sent more than once.
"""
from __future__ import annotations

import functools
import json
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kit.tools import machine as kit_machine  # noqa: E402
from kit.site import build as kit_site  # noqa: E402

LINK = "/estimate/?quarter=2027-Q1&water-gallons=12000&paid-on=2027-03-01"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"]


def main() -> int:
    site = Path(sys.argv[1]) if len(sys.argv) > 1 else kit_site.build(ROOT / "bench" / "out" / "site")
    sent: Counter = Counter()
    count: Counter = Counter()
    server = kit_site.serve(site, port=0)
    handler = server.RequestHandlerClass.func  # functools.partial(Handler, directory=…)

    class Counting(handler):
        def copyfile(self, source, outputfile):
            data = source.read()
            sent[self.path.split("?")[0]] += len(data)
            count[self.path.split("?")[0]] += 1
            outputfile.write(data)

    server.RequestHandlerClass = functools.partial(Counting, *server.RequestHandlerClass.args,
                                                   **server.RequestHandlerClass.keywords)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        # a real profile, as a visitor has (an incognito context keeps its HTTP cache in a
        # small memory cache that a 9.6 MB file does not fit in)
        profile = tempfile.mkdtemp(prefix="first-visit-")
        browser = context = p.chromium.launch_persistent_context(profile, executable_path=kit_machine.find_chromium(),
                                                                args=ARGS)
        page = context.new_page()
        page.goto(url + LINK)
        page.wait_for_selector("#result-total", timeout=120_000)
        page.wait_for_selector("#estimator[data-engine=ready]", state="attached", timeout=120_000)
        # the service worker installs after the engine is ready: wait until it is active
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not page.evaluate(
                "navigator.serviceWorker.getRegistration().then(r => !!(r && r.active))"):
            time.sleep(0.25)
        time.sleep(1)
        browser.close()
    server.shutdown()
    twice = {path: n for path, n in count.items() if n > 1}
    print(json.dumps({"total_bytes": sum(sent.values()), "requests": sum(count.values()),
                      "sent_more_than_once": twice,
                      "wasm_bytes": sum(b for path, b in sent.items() if path.endswith((".wasm", ".wasm.xz")))}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
