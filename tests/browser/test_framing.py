"""Issue 35, item 18: a page another website shows inside a frame of its own could hide what a
person clicks (clickjacking). The site's only policy is a <meta> CSP, which cannot carry
`frame-ancestors`, and GitHub Pages sends no header we choose (no X-Frame-Options). So a staff
desk marks itself `framed` from its head when it is not the top window: the stylesheet hides all
of it but a link that opens it on its own, and the desk's script does not start. Resident pages
may still be framed (the Town's own site may show the estimator): only the desks are guarded."""
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


class Framer(BaseHTTPRequestHandler):
    """Another site: a page that shows ?url= in a frame."""
    def do_GET(self):
        url = parse_qs(urlsplit(self.path).query)["url"][0]
        body = (f'<!doctype html><html lang="en"><title>Another site</title><iframe title="framed" src="{url}" '
                f'width="900" height="700"></iframe></html>').encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def other_site():
    """Another origin, served from this machine as "localhost" (the site is at 127.0.0.1): a real
    server, since Chromium lets only a local page frame a local address."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), Framer)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://localhost:{server.server_address[1]}/"
    server.shutdown()


@pytest.fixture
def page(warm_page):
    return warm_page


def framing(page, other_site, url):
    """Another origin's page that shows `url` in a frame; returns that frame once it has loaded."""
    page.goto(f"{other_site}?url={url}")
    frame = page.frame_locator("iframe")
    frame.locator("h1").wait_for(state="attached")
    inner = page.locator("iframe").element_handle().content_frame()
    inner.wait_for_load_state("load")
    assert inner.url == url
    return frame, inner


@pytest.mark.parametrize("desk, root", [("/clerk/", "clerk-desk"), ("/clerk/bills/", "bill-run")])
def test_a_staff_desk_inside_another_site_s_frame_shows_only_a_link_to_open_it(page, other_site, site_url, desk, root):
    frame, inner = framing(page, other_site, site_url + desk)
    link = frame.locator(".framed-notice a")
    expect(link).to_be_visible()
    expect(link).to_have_attribute("href", site_url + desk)
    expect(link).to_have_attribute("target", "_blank")
    expect(frame.locator("h1")).to_be_hidden()
    expect(frame.locator("form").first).to_be_hidden()
    # the desk's script did not start: its box is still hidden, and no engine worker was made
    assert inner.evaluate(f"document.getElementById({root!r}).hidden")
    assert inner.evaluate("window.__pawlingEngine === undefined")
    # the same page on its own is the desk, with no notice
    page.goto(site_url + desk)
    expect(page.locator(f"#{root}")).to_be_visible()
    expect(page.locator(".framed-notice")).to_have_count(0)
    assert not page.evaluate("document.documentElement.classList.contains('framed')")


def test_a_resident_page_may_be_shown_in_the_town_s_own_frame(page, other_site, site_url):
    """The choice recorded above: the estimator is not guarded, so a Town page may frame it."""
    frame, inner = framing(page, other_site, site_url + "/estimate/")
    expect(frame.locator("h1")).to_be_visible()
    expect(frame.locator(".framed-notice")).to_have_count(0)
    assert not inner.evaluate("document.documentElement.classList.contains('framed')")
