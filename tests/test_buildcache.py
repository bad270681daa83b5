"""kit/buildcache.py: what a build keeps on disk between processes is named by all it comes from."""

import pytest

from kit import buildcache


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setattr(buildcache, "CACHE", tmp_path / "cache")
    monkeypatch.delenv("PAWLING_BUILD_CACHE", raising=False)
    return tmp_path / "cache"


def entries(cache):
    """The kept entries (not the lock files beside them)."""
    return [p for p in cache.iterdir() if p.suffix != ".lock"]


def maker(data: bytes):
    calls = []

    def make():
        calls.append(1)
        return data
    return make, calls


def test_the_second_time_comes_from_the_disk(cache):
    make, calls = maker(b"one")
    assert buildcache.cached("thing", ["a", b"b"], make) == b"one"
    assert buildcache.cached("thing", ["a", b"b"], make) == b"one"
    assert len(calls) == 1 and len(entries(cache)) == 1


def test_a_changed_input_is_made_anew(cache):
    make, calls = maker(b"one")
    buildcache.cached("thing", ["a", "b"], make)
    buildcache.cached("thing", ["a", "c"], make)
    buildcache.cached("thing", ["ab"], make)   # the parts do not run together: ["a", "b"] is not ["ab"]
    buildcache.cached("other", ["a", "b"], make)
    assert len(calls) == 4 and len(entries(cache)) == 4


def test_turned_off_it_neither_reads_nor_writes(cache, monkeypatch):
    make, calls = maker(b"one")
    buildcache.cached("thing", ["a"], make)
    monkeypatch.setenv("PAWLING_BUILD_CACHE", "0")
    buildcache.cached("thing", ["a"], make)
    buildcache.cached("thing", ["new"], make)
    assert len(calls) == 3 and len(entries(cache)) == 1


def test_a_cache_it_cannot_write_is_skipped(cache):
    """(a file where its folder should be: root, who runs CI, can write a read-only folder)"""
    cache.parent.mkdir(exist_ok=True)
    cache.write_text("not a folder")
    make, calls = maker(b"one")
    assert buildcache.cached("thing", ["a"], make) == b"one"
    assert buildcache.cached("thing", ["a"], make) == b"one" and len(calls) == 2


def test_the_trimmed_library_and_the_application_come_from_the_cache_as_made(cache):
    """The cached bytes are the bytes made: a build from the cache is the build without it."""
    from pathlib import Path

    from calculator.core.rules import load
    from kit.browser import stdlib
    from kit.documents import application_pdf
    full = Path(buildcache.ROOT / "node_modules" / "pyodide" / "python_stdlib.zip")
    modules = ("json", "json.decoder")
    made = stdlib._trim(str(full), modules)
    assert len(entries(cache)) == 1                              # the stripped sources it compiled
    stdlib._trimmed.cache_clear()
    assert stdlib.trimmed_stdlib(full, modules) == made          # made, and kept
    stdlib._trimmed.cache_clear()
    assert len(entries(cache)) == 2
    assert stdlib.trimmed_stdlib(full, modules) == made          # from the disk
    application_pdf._rendered.cache_clear()
    rules = load()  # (kept too, when this process had not read them yet: kit/rules/compiled.py)
    kept = len(entries(cache))
    pdf = application_pdf.blank_pdf_bytes(rules)
    application_pdf._rendered.cache_clear()
    assert application_pdf.blank_pdf_bytes(rules) == pdf and len(entries(cache)) == kept + 1


def test_processes_that_build_at_once_make_an_entry_once(cache, tmp_path):
    """Two processes ask for the same entry at the same time (the test workers' first builds):
    one makes it, the other waits for it and reads it."""
    import subprocess
    import sys
    import textwrap
    log = tmp_path / "made.log"
    code = textwrap.dedent(f"""
        import time
        from pathlib import Path
        from kit import buildcache
        buildcache.CACHE = Path({str(cache)!r})
        def make():
            with open({str(log)!r}, "a") as f:
                f.write("made\\n")
            time.sleep(1.5)
            return b"slow"
        print(buildcache.cached("slow", ["x"], make).decode())
    """)
    procs = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                              cwd=buildcache.ROOT) for _ in range(2)]
    outs = [p.communicate(timeout=60)[0].strip() for p in procs]
    assert outs == ["slow", "slow"] and all(p.returncode == 0 for p in procs)
    assert log.read_text().count("made") == 1


def test_the_privacy_guard_s_readings_are_kept_by_text_and_give_the_same_refusal(cache, tmp_path, monkeypatch):
    """The guard's reading of a text (18 s of a 32 s build) is kept by the text's digest and the guard's source:
    a second build, in a new process, refuses the same file for the same record without reading it again, and
    a changed text is read anew."""
    import json

    from kit import privacy
    from kit.errors import BuildError
    monkeypatch.setattr(privacy, "_MEMO", {})
    site = tmp_path / "site"
    site.mkdir()
    (site / "owed.html").write_text("<p>Ortega, Luis: 388.10</p>", encoding="utf-8")
    (site / "rates.html").write_text("<p>The rate is set each year by the Town Board.</p>", encoding="utf-8")
    with pytest.raises(BuildError) as first:
        privacy.check_site(site)
    [memo] = cache.glob("privacy-*.json")
    kept = json.loads(memo.read_text(encoding="utf-8"))
    assert sorted(len(records) for records in kept.values()) == [0, 1]
    privacy._MEMO.clear()  # as a new process starts: only what is on disk

    def read_again(*args, **kwargs):
        raise AssertionError("a kept text was read again")
    monkeypatch.setattr(privacy, "account_records", read_again)
    with pytest.raises(BuildError) as second:
        privacy.check_site(site)
    assert str(second.value) == str(first.value) and "Ortega, Luis: 388.10" in str(second.value)
    (site / "rates.html").write_text("<p>The rate is set each year.</p>", encoding="utf-8")
    with pytest.raises(AssertionError, match="read again"):  # a changed text is not taken from what was kept
        privacy.check_site(site)
