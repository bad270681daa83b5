"""End-to-end fixtures: the site is built once into a temporary folder and served
on 127.0.0.1 by the same server `python build.py serve` uses."""
import threading
from pathlib import Path

import pytest

from kit.tools import machine as kit_machine
from kit.site import build as kit_site
from warm import clear_storage

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-quic"]


def _playwright_has_its_own_chromium() -> bool:
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        return Path(p.chromium.executable_path).exists()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    args = dict(browser_type_launch_args, args=CHROMIUM_ARGS)
    if not _playwright_has_its_own_chromium():
        path = kit_machine.find_test_chromium()
        if not path:
            pytest.fail("No Chromium found. `python build.py test` installs Debian's chromium-headless-shell "
                        "package; or run `sudo apt-get install chromium-headless-shell`.")
        args["executable_path"] = path
    return args


@pytest.fixture(scope="session")
def site_url(built_site):
    server = kit_site.serve(built_site, port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


@pytest.fixture(scope="session")
def all_pages(built_site):
    """Every page of the built site (every index.html), not a hand-picked list."""
    pages = []
    for html in sorted(built_site.rglob("index.html")):
        rel = html.parent.relative_to(built_site).as_posix()
        pages.append("/" if rel == "." else f"/{rel}/")
    return pages


# A warm browser: one context for the session (per xdist worker) in which the engine has
# started before, so Python comes back from this profile's own memory snapshot
# (engine-worker.js: about 0.5 s, as on a resident's second visit) rather than the 3-7 s
# of a cold start in a new profile. A test file whose tests only drive the pages (not a
# first visit, the offline cache or the download's progress) takes it as its `page`:
#     @pytest.fixture
#     def page(warm_page):
#         return warm_page
# Service workers are blocked there, so page.route and request events see every request.
# Each test starts with this origin's localStorage, IndexedDB and cookies cleared (the
# permit checker and the Clerk's desk keep work in localStorage); Cache Storage, which
# holds the snapshot and the downloaded files, stays.
@pytest.fixture(scope="session")
def warm_context(browser, browser_context_args):
    context = browser.new_context(**dict(browser_context_args, service_workers="block"))
    yield context
    context.close()


@pytest.fixture
def warm_page(warm_context, site_url):
    page = warm_context.new_page()
    yield page
    clear_storage(page, site_url)
    page.close()

