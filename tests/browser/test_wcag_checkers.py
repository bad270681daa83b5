"""WCAG 2.1 AA by checkers no one here wrote: pa11y-ci (runner HTML_CodeSniffer, standard
WCAG2AA; axe-core reads every page and these answers in test_site.py) on every English page, the Spanish home page
and a filled estimate, permit result and industry answer in both languages; Lighthouse 12 (accessibility 100 on a page of each kind: LIGHTHOUSE_PAGES below). Both drive the system's
Chromium. (The layout shift of the engine pages opened from a shared link is counted in
test_on_a_phone.py, up to the answer: Lighthouse's own CLS stopped counting when the page
went quiet, which was usually before the engine answered, so it reported 0.000 in 15 runs of
16 for a page that jumped by 0.48 every time.)"""
import json
import os
import subprocess
from pathlib import Path

from urllib.parse import urlencode

import pytest

from calculator.core.rules import load
from casebook import complete_permit_answers
from kit.tools import machine as kit_machine

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]
BIN = ROOT / "node_modules" / ".bin"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run"]


# A connection under a street: a permit, with reasons and requirements to show.
STREET = complete_permit_answers(load(), [("work", "new-connection"), ("street-opening", "yes")])
# The answer each engine page shows when opened from a link, and the element that says it is there.
FILLED = {
    "/estimate/?quarter=2027-Q1&water-gallons=12000&paid-on=2027-06-01": "#result-total",
    "/industry/?average-workday-gallons=52000&system-gallons-per-day=600000&year=2027": "#result-title",
    f"/permit/?{urlencode(STREET + [('step', 'check')])}": "#permit-checker[data-state=check]",
    f"/permit/?{urlencode(STREET + [('step', 'result')])}": "#permit-checker[data-state=outcome]",
}
# the same answers on the Spanish pages (the same query strings)
FILLED.update({f"/es{link}": ready for link, ready in FILLED.items()})


def tool(name):
    path = BIN / name
    if not path.exists():
        pytest.fail(f"node_modules/.bin/{name} is missing: run `npm ci` (python3 build.py test does)")
    return str(path)


def chromium():
    """The tests' Chromium (kit/tools/machine.py: find_test_chromium), the headless shell where there is one."""
    path = kit_machine.find_test_chromium()
    assert path, "Chromium is needed: python3 build.py test installs Debian's chromium-headless-shell"
    return path


def headless(path: str) -> str:
    """How a launcher starts it headless: the shell is headless only; the full browser, its new mode."""
    return "shell" if "headless-shell" in path else "new"


# The checks below each walk many pages; they are cut into slices (every page in exactly one) so
# that pytest-xdist can run them on both cores at once. Each slice is one browser profile and
# opens with one of `openers` (a page whose first answer leaves the engine's snapshot there);
# then each group in turn, dealt round the slices.
def opened_slices(openers: list, *groups: list) -> list[list]:
    n = len(openers)
    return [[openers[i], *(item for group in groups for item in group[i::n])] for i in range(n)]


# pa11y-ci's slices. Each runs in ONE browser profile (useIncognitoBrowserContext: false), as a
# resident's browser is one profile: the theme's scripts and Pyodide's files come from its caches,
# and an engine page starts Python from the profile's own memory snapshot (about 0.5 s) rather
# than the long way (about 3 s). In pa11y-ci's default, a new incognito profile for each URL,
# every engine page started Python the long way. So each slice opens with a shared estimate link,
# whose answer leaves the snapshot behind; then the plain pages; then the other shared links. No
# plain page comes after a permit link, so none shows answers a link kept in localStorage (the
# only thing these pages keep: permit.js; the Clerk's desk keeps work only once she types).
PA11Y_PARTS = 2


def pa11y_slices(plain: list, filled: list) -> list[list]:
    estimates = [u for u in filled if "/estimate/?" in u["url"]]
    assert len(estimates) == PA11Y_PARTS, "one shared estimate link opens each slice"
    return opened_slices(estimates, plain, [u for u in filled if u not in estimates])


def test_the_pa11y_slices_check_every_url_once_and_no_plain_page_after_a_permit_link():
    plain = [f"/p{i}/" for i in range(7)] + ["/permit/", "/es/permit/"]
    filled = [{"url": link} for link in FILLED]
    slices = pa11y_slices(plain, filled)
    urls = [u if isinstance(u, str) else u["url"] for each in slices for u in each]
    assert sorted(urls) == sorted(plain + list(FILLED))
    for each in slices:
        assert "/estimate/?" in each[0]["url"]
        kinds = ["plain" if isinstance(u, str) else "link" for u in each[1:]]
        assert kinds == sorted(kinds, key=lambda k: k == "link"), each


def pa11y_pages(all_pages: list) -> list:
    """Every English page and the Spanish home page: a Spanish page is its English one's template in other
    words, and axe-core reads every one of them (test_site.py's walk); the answers are read in both languages."""
    return [p for p in all_pages if not p.startswith("/es/") or p == "/es/"]


def test_pa11y_reads_every_english_page_and_the_spanish_home_page(all_pages):
    pages = pa11y_pages(all_pages)
    assert "/es/" in pages and not any(p.startswith("/es/") and p != "/es/" for p in pages)
    assert len(pages) == len([p for p in all_pages if not p.startswith("/es/")]) + 1


def test_pa11y_finds_no_error_on_any_page_or_answer(site_url, all_pages, tmp_path):
    # after the answer shows, a second more (pa11y's `wait` comes after its actions): a shared link
    # scrolls the answer into view, and the theme's header swaps its title with a fade
    filled = [{"url": f"{site_url}{link}", "actions": [f"wait for element {sel} to be visible"], "wait": 1000}
              for link, sel in FILLED.items()]
    slices = pa11y_slices([f"{site_url}{p}" for p in pa11y_pages(all_pages)], filled)
    # HTML_CodeSniffer only: axe-core reads every page and every one of these answers in test_site.py's
    # first-visit walk, and a page of each kind again in Lighthouse below. (pa11y's
    # own axe, run here until December 6, 2026, reported contrast on table-of-contents entries cut with an
    # ellipsis that Playwright's axe and Lighthouse, on the same pages, never did.)
    # The slices run at once, each pa11y-ci with its Chromium: each spends most of its time waiting
    # (pa11y waits for the network to be quiet on every page; 40 s of wall time a slice for 12 s of CPU).
    running = []
    for part, urls in enumerate(slices):
        config = {"defaults": {"standard": "WCAG2AA", "runners": ["htmlcs"], "timeout": 120_000,
                               "useIncognitoBrowserContext": False,
                               "chromeLaunchConfig": {"executablePath": chromium(), "args": FLAGS,
                                                      "headless": headless(chromium())}},
                  "urls": urls}
        (tmp_path / f"pa11y-{part}.json").write_text(json.dumps(config))
        running.append(subprocess.Popen([tool("pa11y-ci"), "--config", str(tmp_path / f"pa11y-{part}.json"), "--json"],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                        env=dict(os.environ, PUPPETEER_SKIP_DOWNLOAD="1")))
    for urls, proc in zip(slices, running):
        out, err = proc.communicate(timeout=900)
        assert out.strip(), err[-3000:]
        report = json.loads(out)
        # a page pa11y could not check (it did not load, or the answer never showed) is a
        # string or an entry with a message and no code: a failure, never a pass
        found = [(url, r.get("runner"), r["code"], r["message"], r.get("selector"))
                 for url, results in report["results"].items() for r in results if isinstance(r, dict) and "code" in r]
        failures = [(url, r) for url, results in report["results"].items() for r in results
                    if not (isinstance(r, dict) and "code" in r)]
        assert report["total"] == len(urls) and not failures, failures
        assert not found, found
        print(f"\npa11y-ci: {report['total']} URLs, {report['errors']} errors")


def test_pa11y_s_html_codesniffer_does_find_an_error_when_there_is_one(tmp_path):
    """Guards the test above against a pa11y that silently checks nothing: a page with an image
    with no text alternative and a field with no label."""
    page = tmp_path / "bad.html"
    page.write_text('<!doctype html><html lang="en"><head><title>Bad</title></head><body><main>'
                    '<img src="x.png"><input type="text" id="q"></main></body></html>')
    config = {"defaults": {"standard": "WCAG2AA", "runners": ["htmlcs"], "timeout": 60_000,
                           "chromeLaunchConfig": {"executablePath": chromium(), "args": FLAGS,
                                                  "headless": headless(chromium())}},
              "urls": [page.as_uri()]}
    (tmp_path / "pa11y.json").write_text(json.dumps(config))
    proc = subprocess.run([tool("pa11y-ci"), "--config", str(tmp_path / "pa11y.json"), "--json"],
                          capture_output=True, text=True, timeout=300, env=dict(os.environ, PUPPETEER_SKIP_DOWNLOAD="1"))
    codes = {r["code"] for results in json.loads(proc.stdout)["results"].values() for r in results}
    assert any("H37" in code for code in codes), codes  # an img element with no alt attribute
    assert any("F68" in code or "H44" in code or "H91" in code for code in codes), codes  # a field with no name


def start_lighthouse(urls: list[str], out: Path, categories: str = "accessibility", keep_storage=False):
    """Lighthouse 12 on each URL, through its Node API with one Chromium for the list
    (tests/node/lighthouse.mjs): the CLI starts a Node and a Chromium for every page.
    Each URL is a run of its own, in a fresh tab, with the origin's storage reset unless
    `keep_storage` (then an engine page starts Python from the first one's snapshot).
    Returns the running process; `lighthouse_reports` waits for it."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "urls.json").write_text(json.dumps(urls))
    env = dict(os.environ, CHROME_PATH=chromium(), CHROME_FLAGS=" ".join(
        ["--headless" if headless(chromium()) == "shell" else "--headless=new", *FLAGS]))
    return subprocess.Popen(["node", str(ROOT / "tests" / "node" / "lighthouse.mjs"), categories,
                             str(out / "urls.json"), str(out / "lighthouse.json"),
                             *(["--keep-storage"] if keep_storage else [])],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def lighthouse_reports(proc, urls: list[str], out: Path) -> dict:
    _, err = proc.communicate(timeout=900)
    assert proc.returncode == 0, err[-3000:]
    reports = json.loads((out / "lighthouse.json").read_text())
    assert list(reports) == urls, "Lighthouse did not report on every URL it was given"
    return reports


# Lighthouse's slices: two, each one Chromium (tests/node/lighthouse.mjs); in each, the estimate
# page first: it asks the engine for its quarters as it opens, so its first answer leaves the
# engine's snapshot in the profile, and each engine page after it starts Python from that
# (about 0.5 s) rather than the long way (about 3 s).
LIGHTHOUSE_PARTS = 2


#: the pages Lighthouse reads: one of each kind (the home page, the estimator, the permit checker, the
#: application's web form, the law, a table of rates), in English, and the Spanish home page and estimator.
#: Lighthouse's accessibility audits are axe-core's own rules, and axe-core reads every page and every answer in
#: test_site.py's walk, as HTML_CodeSniffer does in pa11y above; Lighthouse read every English page and five
#: Spanish ones until December 7, 2026 (46 s of the suite's time for no page the two others did not read).
LIGHTHOUSE_PAGES = ("/", "/estimate/", "/permit/", "/permit/application/", "/law/", "/rates/", "/es/", "/es/estimate/")


def lighthouse_pages(all_pages: list) -> list:
    return [p for p in all_pages if p in LIGHTHOUSE_PAGES]


def lighthouse_slice(pages: list, part: int) -> list:
    estimates = [page for page in pages if page.endswith("/estimate/")]  # one a language
    assert len(estimates) == LIGHTHOUSE_PARTS, "one estimate page opens each slice"
    return opened_slices(estimates, [page for page in pages if page not in estimates])[part]


def test_each_lighthouse_slice_opens_with_an_estimate_page_and_all_are_checked(all_pages):
    slices = [lighthouse_slice(lighthouse_pages(all_pages), part) for part in range(LIGHTHOUSE_PARTS)]
    assert sorted(p for each in slices for p in each) == sorted(LIGHTHOUSE_PAGES)  # each is a page of the site
    assert all(each[0].endswith("/estimate/") for each in slices), slices


def test_lighthouse_accessibility_is_100_on_a_page_of_each_kind(site_url, all_pages, tmp_path):
    # only the accessibility category: this test asserts nothing of performance, whose
    # trace would double each page's time; and the storage kept from page to page, as a
    # resident's browser keeps it: what is checked is the page as it shows, not how a first
    # visit loads. The slices run at once, each with its Chromium (most of their time is waiting).
    slices = [lighthouse_slice(lighthouse_pages(all_pages), part) for part in range(LIGHTHOUSE_PARTS)]
    running = [start_lighthouse([f"{site_url}{page}" for page in pages], tmp_path / str(part),
                                categories="accessibility", keep_storage=True)
               for part, pages in enumerate(slices)]
    for part, (pages, proc) in enumerate(zip(slices, running)):
        reports = lighthouse_reports(proc, [f"{site_url}{page}" for page in pages], tmp_path / str(part))
        scores = {page: (reports[f"{site_url}{page}"]["categories"]["accessibility"], reports[f"{site_url}{page}"]["failed"])
                  for page in pages}
        print("\nLighthouse accessibility: " + ", ".join(f"{p} {s * 100:.0f}" for p, (s, _) in scores.items()))
        assert all(s == 1 for s, _ in scores.values()), scores
        # the machine was benchmarked once for the list (tests/node/lighthouse-hooks.mjs), not before
        # each page: a measured index, the same figure on every report
        indexes = {reports[f"{site_url}{page}"]["benchmarkIndex"] for page in pages}
        assert len(indexes) == 1 and next(iter(indexes)) > 0, indexes
        # and its message formatters were made once for the list and used again (the same strings:
        # a formatter depends only on its message and locale): after the first page, few new ones
        made = [reports[f"{site_url}{page}"]["formatters"] for page in pages]
        assert made[0] > 50 and made[-1] < 2 * made[0], made
