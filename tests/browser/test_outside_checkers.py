"""Checkers no one here wrote: the Nu Html Checker (vnu) on every page, and
LinkChecker crawling the served site. Anchors are checked by mkdocs --strict
(validation.links.anchors) when the pages are built: LinkChecker 10.6's AnchorCheck
plugin reported nothing even for a broken anchor here, so it is not relied on."""
import json
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
VNU = ROOT / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
KNOWN = yaml.safe_load((ROOT / "tests" / "outside" / "theme-html-errors.yaml").read_text())


def vnu(paths):
    if not VNU.exists():
        pytest.fail("node_modules/vnu-jar is missing: run `npm ci` (python build.py test does)")
    if not shutil.which("java"):
        pytest.fail("Java is needed for the Nu Html Checker: `apt-get install default-jre-headless` "
                    "(python build.py test installs it)")
    proc = subprocess.run(["java", "-jar", str(VNU), "--errors-only", "--format", "json", "--skip-non-html",
                           *map(str, paths)], capture_output=True, text=True, timeout=300)
    return json.loads(proc.stderr or proc.stdout)["messages"]


def is_theme(message):
    return next((k for k in KNOWN if message["message"].startswith(k["message_starts"])
                 and k["extract_contains"] in message.get("extract", "")), None)


def test_our_markup_has_no_html_errors_and_the_theme_s_are_listed(built_site):
    pages = sorted(built_site.rglob("*.html"))
    assert len(pages) >= 6
    messages = vnu(pages)
    ours = [(m["url"].split(str(built_site))[-1], m["message"], m.get("extract", "")) for m in messages
            if not is_theme(m)]
    assert not ours, ours
    seen = {id(is_theme(m)) for m in messages}
    assert all(id(k) in seen for k in KNOWN), "a listed theme error is gone: remove it from theme-html-errors.yaml"
    print(f"\nvnu: {len(pages)} pages; {len(messages)} errors, all in the theme's own markup (listed)")


def test_vnu_does_report_an_error_when_there_is_one(tmp_path):
    bad = tmp_path / "bad.html"
    bad.write_text("<!doctype html><html lang=en><title>x</title><p><div></p>")
    assert vnu([bad])


LINKCHECK_CONFIG = """
[checking]
threads=4
maxrequestspersecond=200
[filtering]
checkextern=0
"""


def linkcheck(url, tmp_path):
    cfg = tmp_path / "linkcheckerrc"
    cfg.write_text(LINKCHECK_CONFIG)
    exe = shutil.which("linkchecker")
    assert exe, "linkchecker is missing: pip install -e '.[test]'"
    return subprocess.run([exe, "-f", str(cfg), "--no-status", "-o", "text", url], capture_output=True, text=True,
                          timeout=600)


def test_no_broken_links_or_anchors_on_the_site(built_site, tmp_path):
    """The whole site crawled. Its own server says "LinkChecker", which lifts linkchecker's limit of
    about three requests a second to one host (maxrequestspersecond): 52 s for 186 URLs without it."""
    import threading

    from kit.site import build as kit_site
    server = kit_site.serve(built_site, port=0, headers={"LinkChecker": "local test server"})
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        proc = linkcheck(f"http://127.0.0.1:{server.server_address[1]}/", tmp_path)
    finally:
        server.shutdown()
    tail = proc.stdout[-3000:]
    assert proc.returncode == 0, tail
    assert " 0 warnings found. 0 errors found." in proc.stdout, tail
    checked = int(proc.stdout.split(" links in ")[0].rsplit("\n", 1)[-1].strip().split()[-1])
    assert checked > 50


def test_linkchecker_does_catch_a_broken_link(tmp_path):
    import threading

    from kit.site import build as kit_site
    site = tmp_path / "s"
    site.mkdir()
    (site / "index.html").write_text('<!doctype html><html lang=en><title>t</title><a href="gone.html">x</a>')
    server = kit_site.serve(site, port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        proc = linkcheck(f"http://127.0.0.1:{server.server_address[1]}/", tmp_path)
    finally:
        server.shutdown()
    assert proc.returncode == 1 and "gone.html" in proc.stdout and "404" in proc.stdout


def test_a_broken_anchor_in_a_page_stops_the_build(tmp_path, monkeypatch):
    # anchors are checked by mkdocs --strict (validation.links.anchors), the crawl checks the links
    from kit.site import pages as kit_pages
    from kit.site import build as kit_site
    pages = tmp_path / "pages"
    shutil.copytree(kit_pages.PAGES, pages)
    (pages / "rates.md.j2").write_text((pages / "rates.md.j2").read_text()
                                       + "\n[no such provision](../law/index.md#rents-z)\n")
    monkeypatch.setattr(kit_pages, "PAGES", pages)
    with pytest.raises(kit_site.BuildError):
        kit_site.build(tmp_path / "site")
