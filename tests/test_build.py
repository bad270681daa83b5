"""build.py: the pipeline's steps, and a failed build that keeps the previous site."""
import json
import lzma
import shutil
import zipfile
from pathlib import Path

import pytest

from kit.site import pages as kit_pages
from kit.site import build as kit_site
from kit.browser import wheel as kit_wheel
from kit.rules.validate import RuleError

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def site(built_site, tmp_path_factory):
    """A copy of the built site: the failed builds below are tried on it."""
    copy = tmp_path_factory.mktemp("b") / "site"
    shutil.copytree(built_site, copy)
    return copy


def snapshot(folder: Path) -> dict:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_the_site_has_its_pages_the_engine_and_pyodide(site):
    for page in ("index.html", "estimate/index.html", "law/index.html", "rates/index.html",
                 "how-we-read-the-law/index.html", "rates/2025-illustrative/index.html"):
        assert (site / page).is_file(), page
    for name in kit_site.PYODIDE_FILES:
        assert (site / "pyodide" / name).stat().st_size > 0
    # Pyodide's lock without its package list, and no whole standard library: the trimmed one
    # sits beside the engine's wheel (kit/browser/stdlib.py)
    assert json.loads((site / "pyodide" / "pyodide-lock.json").read_text())["packages"] == {}
    assert not (site / "pyodide" / "python_stdlib.zip").exists()
    [stdlib] = (site / "engine").glob("*/python_stdlib.zip")
    assert "argparse.pyc" in zipfile.ZipFile(stdlib).namelist()  # compiled (kit/browser/stdlib.py)
    [wheel] = (site / "engine").glob("*/pawling_sewer_kit-*.whl")
    assert wheel.parent == stdlib.parent
    assert wheel.name.endswith("-py3-none-any.whl")
    names = zipfile.ZipFile(wheel).namelist()
    # the whole engine, compiled by the browser's Python (kit/browser/wheel.py: compiled_files), no kit
    assert "calculator/compiled_rules.json" in names and "calculator/bills/bill.pyc" in names
    assert "calculator/cli.pyc" in names and not any(n.startswith("kit/") for n in names)
    assert not [n for n in names if n.endswith(".py")]
    # each language's catalogue beside the wheel, not in it: a page fetches its own language's only
    assert not any(n.startswith("calculator/locale/") for n in names)
    # each also xz-compressed beside it, what the calculator's worker fetches (kit/browser/xz.py); the
    # zips store their files, so xz compresses across them
    for plain in (stdlib, wheel):
        packed = Path(f"{plain}.xz").read_bytes()
        assert lzma.decompress(packed) == plain.read_bytes() and len(packed) < plain.stat().st_size / 4
        assert {i.compress_type for i in zipfile.ZipFile(plain).infolist()} == {zipfile.ZIP_STORED}
    catalogue = json.loads((wheel.parent / "locale" / "es.json").read_text(encoding="utf-8"))
    assert catalogue["Charge = {vc} per 1,000 gallons × {volume} gallons = {charge}."].startswith("Cargo")
    assert not (wheel.parent / "locale" / "en.json").exists()  # English is the engine's own
    # the standard-library modules only pypdf imports come with pypdf, not before an estimate
    [pypdf] = (site / "engine").glob("pypdf-*.whl")
    with_pypdf = zipfile.ZipFile(pypdf).namelist()
    assert "xml/dom/minidom.py" in with_pypdf and "tarfile.py" in with_pypdf and "pypdf/__init__.py" in with_pypdf
    assert not {"xml/dom/minidom.py", "tarfile.py"} & set(zipfile.ZipFile(stdlib).namelist())


def test_every_provision_has_its_anchor_on_the_law_page(site):
    from calculator.core.law import anchor
    from calculator.core.rules import load
    html = (site / "law" / "index.html").read_text()
    missing = [p["id"] for p in load()["provisions"] if f'id="{anchor(p["id"])}"' not in html]
    assert not missing
    assert 'id="prohibited-acts-g"' in html


def test_a_figure_that_is_a_reading_is_marked_so_on_the_law_page(site):
    """The third legal reading: "3 months" and "fraction of the unpaid charge" were shown as the law's
    figures. Each figure a reading decides (its `figures:`) links to that reading, in both languages;
    the law's own figures (the 30 days) do not."""
    import re

    from calculator.core.rules import load
    decided = {name: i["id"] for i in load()["interpretations"].values() for name in i.get("figures", [])}
    assert decided["late-penalty-period-months"] == "penalty-quarter"
    for page, words in (("law/index.html", "the law's words leave open how this figure applies"),
                        ("es/law/index.html", "las palabras de la ley dejan abierto cómo se aplica esta cifra")):
        html = (site / page).read_text()
        items = re.findall(r"<li>(.*?)</li>", html, flags=re.S)
        for name in ("late-penalty-period-months", "late-penalty-rate", "late-penalty-grace-days"):
            [item] = [i for i in items if f"rules/parameters/{name}.yaml" in i]
            marked = words in item and f'how-we-read-the-law/#{decided.get(name)}"' in item
            assert marked == (name in decided), (page, name, item)


def test_generated_pages_are_not_in_the_repository():
    assert not (ROOT / "docs" / "law").exists() and not (ROOT / "docs" / "rates").exists()


def test_a_bad_rule_stops_the_build_and_keeps_the_previous_site(site, tmp_path):
    before = snapshot(site)
    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "rules", rules)
    f = rules / "parameters" / "late-penalty-rate.yaml"
    f.write_text(f.read_text().replace("cite: rents.F", "cite: rents.Q"))
    with pytest.raises(RuleError) as err:
        kit_site.build(site, rules_dir=rules)
    assert "rents.Q" in str(err.value)
    assert snapshot(site) == before
    assert not list(site.parent.glob(".site-*")) and not list(ROOT.glob(".site-build-*"))


def test_a_broken_link_stops_the_build_and_keeps_the_previous_site(site, tmp_path, monkeypatch):
    before = snapshot(site)
    pages = tmp_path / "pages"
    shutil.copytree(kit_pages.PAGES, pages)
    (pages / "rates.md.j2").write_text((pages / "rates.md.j2").read_text() + "\n[gone](../nowhere/index.md)\n")
    monkeypatch.setattr(kit_pages, "PAGES", pages)
    with pytest.raises(kit_site.BuildError) as err:
        kit_site.build(site)
    assert "mkdocs" in str(err.value)
    assert snapshot(site) == before


def test_the_wheel_is_the_same_bytes_twice(tmp_path):
    rules = kit_site.validate_rules()
    a = kit_wheel.build_engine_wheel(rules, tmp_path / "a").read_bytes()
    b = kit_wheel.build_engine_wheel(rules, tmp_path / "b").read_bytes()
    assert a == b


def test_two_builds_of_one_commit_are_byte_identical(tmp_path):
    import datetime as dt
    import os
    import subprocess
    import sys
    # `build.py test` built the site for the tests (PAWLING_TEST_SITE) from this commit, this day,
    # in CI on a fresh clone, so on an empty kit/buildcache.py cache (making everything itself, and keeping it):
    # one build here, which may take what the cache kept, is compared with it
    shared = os.environ.get("PAWLING_TEST_SITE")
    day_file = Path(shared or ".").parent / "site-day.txt"
    shared_day = day_file.read_text(encoding="utf-8").strip() if shared and day_file.is_file() else None
    if shared_day == dt.date.today().isoformat():
        code = "import pathlib; from kit.site import build; build.build(pathlib.Path(%r))" % str(tmp_path / "two" / "site")
        done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=dict(os.environ, PAWLING_BUILD_CACHE="1"),
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        if dt.date.today().isoformat() == shared_day:  # else its pages are of another day: two builds below
            return compare_builds(Path(shared), tmp_path / "two" / "site")
    env = dict(os.environ, SOURCE_DATE_EPOCH="1798761600")  # 2027-01-01
    # the first makes everything itself; the second may take what kit/buildcache.py kept (from
    # an earlier build: the first keeps nothing), so what the cache gives is checked against it too.
    # Two processes at once: the second takes a third of the first's time
    running = []
    for name, cache in (("one", "0"), ("two", "1")):
        code = ("import pathlib; from kit.site import build; build.build(pathlib.Path(%r))" % str(tmp_path / name / "site"))
        running.append(subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env=dict(env, PAWLING_BUILD_CACHE=cache),
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    for proc in running:
        _, err = proc.communicate()
        assert proc.returncode == 0, err
    compare_builds(tmp_path / "one" / "site", tmp_path / "two" / "site")


def compare_builds(first: Path, second: Path):
    one, two = snapshot(first), snapshot(second)
    assert sorted(one) == sorted(two)
    differ = [name for name in one if one[name] != two[name]]
    assert not differ, differ
    assert len(one) > 30


@pytest.mark.parametrize("place", ["Town Hall <Room 2>", "Hall #3 | *upstairs* [east] _wing_ `x` \\ back", "A&B <script>x</script>"])
def test_a_place_with_markdown_s_characters_shows_as_typed_with_no_stray_backslash(place):
    """Issue 35, item 14: a notice's place with "<" (or Markdown's other characters) reads on the page as
    the Clerk typed it: no backslash shown, no HTML made of it."""
    import html
    import re as regex
    import markdown
    from kit.site.pages import jinja_environment
    env = jinja_environment(Path(__file__).resolve().parent.parent / "docs" / "templates")
    rendered = markdown.markdown(env.filters["md"](place), extensions=["tables", "attr_list", "md_in_html"])
    assert "<script" not in rendered and "<Room" not in rendered
    assert html.unescape(regex.sub(r"</?p>", "", rendered)) == place


def test_a_build_sweeps_the_staging_folder_a_stopped_build_left(tmp_path, monkeypatch):
    """The fourth hostile tester: SIGTERM during `build.py` left a 40 MB .site-build-* folder that no later
    build removed. A build removes those old enough to be no build's still at work, and keeps a recent one."""
    import os
    import time as _time
    from kit.site import build as kit_site
    old, recent = tmp_path / ".site-build-old", tmp_path / ".site-build-recent"
    for folder in (old, recent):
        (folder / "site").mkdir(parents=True)
    os.utime(old, (_time.time() - 3600, _time.time() - 3600))
    monkeypatch.setattr(kit_site, "validate_rules", lambda *a: (_ for _ in ()).throw(RuntimeError("stop here")))
    with pytest.raises(RuntimeError, match="stop here"):
        kit_site.build(tmp_path / "site")
    assert not old.exists() and recent.exists()


def test_a_build_sweeps_a_killed_build_s_staging_folder_and_keeps_a_running_one_s(tmp_path, monkeypatch):
    """The seventh hostile tester: a build killed with SIGKILL (no clean-up runs) left its .site-build-*
    folder (20 MB), and the next build, a minute later, kept it: only folders older than 10 minutes were
    swept. A staging folder is named by its build's process: one whose process has ended goes at once,
    one whose process is still running stays, however old."""
    import os
    import subprocess
    import sys
    import time as _time
    from kit.site import build as kit_site
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    killed, running = tmp_path / f".site-build-{ended.pid}-ab12cd", tmp_path / f".site-build-{os.getpid()}-ef34gh"
    for folder in (killed, running):
        (folder / "site").mkdir(parents=True)
    os.utime(running, (_time.time() - 3600, _time.time() - 3600))
    monkeypatch.setattr(kit_site, "validate_rules", lambda *a: (_ for _ in ()).throw(RuntimeError("stop here")))
    with pytest.raises(RuntimeError, match="stop here"):
        kit_site.build(tmp_path / "site")
    assert not killed.exists() and running.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == [running.name]  # this build's own is gone too


@pytest.mark.parametrize("signame", ["SIGTERM", "SIGHUP"])
def test_a_build_stopped_by_sigterm_or_a_hang_up_cleans_up_and_says_so(tmp_path, signame):
    """The fifth hostile tester: `kill -TERM` to a build exited 143 with no word and left its .site-build-*
    folder (up to 20 MB). Stopped by SIGTERM or SIGHUP, the build's `finally` runs: the staging folder is
    gone, one line says it was stopped, and the status is 128 + the signal's number."""
    import signal
    import subprocess
    import sys
    import time as _time
    site = tmp_path / "out" / "site"
    # the build is held at its mkdocs step, with its staging folder made, until the signal comes: a build from
    # the build cache takes 3 s, and one let run on finished before a signal sent a second after its staging
    # folder appeared (a full run of December 8 exited 0)
    held = tmp_path / "held"
    # a hang-up at its default, as in a terminal: a run under nohup ignores SIGHUP, and so does the build then
    # (build_or_report keeps nohup's choice), which a suite started by nohup would otherwise pass on to it
    proc = subprocess.Popen([sys.executable, "-c", "import signal, sys, time; from pathlib import Path; "
                             "signal.signal(signal.SIGHUP, signal.SIG_DFL); "
                             "from kit.site import build as b; from kit.site.build import build_or_report; "
                             "said = b.step\n"
                             "def step(name):\n"
                             "    said(name)\n"
                             "    if name.startswith('Building the site with mkdocs'):\n"
                             f"        Path({str(held)!r}).touch(); time.sleep(300)\n"
                             "b.step = step\n"
                             f"sys.exit(0 if build_or_report(Path({str(site)!r})) else 1)"],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = _time.time() + 120
        while not held.exists() and _time.time() < deadline and proc.poll() is None:
            _time.sleep(0.05)
        assert list((tmp_path / "out").glob(".site-build-*")), "the build was not under way"
        proc.send_signal(getattr(signal, signame))
        err = proc.communicate(timeout=120)[1]
    finally:
        proc.kill()
    assert proc.returncode == 128 + getattr(signal, signame), err
    assert err.strip().splitlines()[-1] == (f"The build was stopped ({signame}); site/ is unchanged and nothing "
                                            "was left behind."), err
    assert "Traceback" not in err
    assert list((tmp_path / "out").iterdir()) == []


def test_a_page_without_a_head_is_named_by_its_source_under_docs(tmp_path):
    """The fifth hostile tester: a build failing on a page without <head> named its temporary copy
    (/tmp/…/.site-build-…/site/notes/x.html), not docs/notes/x.html."""
    from kit.errors import BuildError
    from kit.site.harden import secure_pages
    docs, site = tmp_path / "docs", tmp_path / ".site-build-x" / "site"
    (docs / "notes").mkdir(parents=True)
    (site / "notes").mkdir(parents=True)
    (docs / "notes" / "x.html").write_text("<p>a note</p>")
    (site / "notes" / "x.html").write_text("<p>a note</p>")
    with pytest.raises(BuildError) as refused:
        secure_pages(site, docs)
    assert str(refused.value).startswith("docs/notes/x.html: no <head> to put the Content Security Policy in. ")
    assert ".site-build" not in str(refused.value)
    (site / "notes" / "x.html").unlink()
    (docs / "notes" / "y.md").write_text("# Y")
    (site / "notes" / "y").mkdir()
    (site / "notes" / "y" / "index.html").write_text("<p>y</p>")
    with pytest.raises(BuildError) as refused:
        secure_pages(site, docs)
    assert str(refused.value).startswith("docs/notes/y.md: no <head>")


def test_a_vote_dated_after_the_build_day_is_not_published_as_adopted():
    """The outside usability test clerk12 (high): the desk recorded a vote dated on the meeting day, 17 days ahead
    (told the computer's date was wrong), and the rebuilt site said "The Town adopted the 2027 rates" before the
    meeting. The build refuses a vote dated after the day it builds for; on or before it, the vote is published."""
    import copy
    import datetime as dt
    from calculator.core.rules import load
    from kit.errors import BuildError
    from kit.site.build import check_votes_held
    rules = copy.deepcopy(load())
    schedule = dict(rules["schedules"][0], id="2027", status="adopted",
                    adoption={"date": "2026-12-23", "ayes": 3, "noes": 1})
    rules["schedules"].append(schedule)
    check_votes_held(rules, dt.date(2026, 12, 23))
    with pytest.raises(BuildError) as refused:
        check_votes_held(rules, dt.date(2026, 12, 6))
    assert "vote on rate schedule 2027 is dated 2026-12-23" in str(refused.value)
    assert "rules/rate-schedules/2027/vote.yaml" in str(refused.value)


def test_a_settings_file_that_cannot_be_read_is_said_in_one_line_with_its_place(tmp_path):
    """The fourteenth hostile tester: a quotation mark left open in mkdocs.yml (where the README says to set
    site_url) gave a yaml traceback from build.py, validate and the bill run. It is one line, with the file, line
    and column, and what to look for."""
    from kit.errors import BuildError
    from kit.rules.config import project_config
    (tmp_path / "rules").mkdir()
    (tmp_path / "mkdocs.yml").write_text('site_name: x\nsite_url: "https://a\ncopyright: x\n', encoding="utf-8")
    with pytest.raises(BuildError) as refused:
        project_config(tmp_path / "rules")
    said = str(refused.value)
    assert said.startswith("mkdocs.yml:4:1: this file cannot be read") and "quotation mark left open" in said
    assert "\n" not in said
    (tmp_path / "mkdocs.yml").write_text("- just a list\n", encoding="utf-8")
    with pytest.raises(BuildError, match="holds no settings"):
        project_config(tmp_path / "rules")


def test_a_build_on_a_full_disk_says_so_and_keeps_the_site(site, monkeypatch, capsys):
    """The seventeenth hostile tester, F2: a build on a full disk said only "the output could not be written" (exit
    74), as if standard output were full, and with the disk full at another point it ended in shutil.Error's
    traceback. It says what could not be written and that site/ is unchanged."""
    import errno
    before = snapshot(site)
    for failure in (shutil.Error([("docs/assets/words.js", "x/words.js",
                                   "[Errno 28] No space left on device: 'docs/assets/words.js' -> 'x/words.js'")]),
                    OSError(errno.EROFS, "Read-only file system", "x/index.html")):
        def full(*args, failure=failure, **kwargs):
            raise failure
        monkeypatch.setattr(kit_site, "stage_docs", full)
        assert kit_site.build_or_report(site) is False
        said = capsys.readouterr().err
        assert said.startswith("The build stopped; site/ is unchanged. The new site could not be written beside it")
        assert "No space left on device" in said or "Read-only file system" in said
        assert snapshot(site) == before


def test_a_page_not_in_the_menu_says_to_add_it_to_nav(tmp_path):
    """The twenty-sixth hostile tester, #9: a new page under docs/ that nav: does not list stopped the build with
    "Aborted with 1 warnings in strict mode!. The warnings above say which page and link to fix." (no link was
    wrong). The message names the page and what to do."""
    import shutil
    from kit.errors import BuildError
    from kit.site.build import run_mkdocs
    docs = tmp_path / "docs"
    shutil.copytree(ROOT / "docs", docs, ignore=shutil.ignore_patterns("templates", "decisions"))
    (docs / "index.md").write_text("# Home\n")
    (docs / "probe").mkdir()
    (docs / "probe" / "x.md").write_text("# Probe\n\nHello.\n")
    with pytest.raises(BuildError) as refused:
        run_mkdocs(docs, tmp_path / "site")
    said = str(refused.value)
    assert "a page is not in the site's menu" in said and "probe/x.md" in said, said
    assert "Add it under nav: in mkdocs.yml" in said and "warnings above" not in said
