"""The same YAML cases, and every request the site's pages send, run by the engine
wheel in Pyodide (Python 3.14, under Node) on the site's trimmed standard library,
give byte-identical answers to CPython's, in English and in Spanish (the wheel's
packed catalogue and the checkout's say the same)."""
import json
import platform
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from kit.site import build as kit_site
from kit.browser import stdlib as kit_stdlib
from kit.browser import wheel as kit_wheel
from kit.browser import xz as kit_xz
from calculator.cli import run_json
from casebook import argv_for, load_cases
from flows import page_requests
from kit.documents.application_pdf import build_blank_pdf

ROOT = Path(__file__).resolve().parent.parent


PYODIDE = ROOT / "node_modules" / "pyodide"


@pytest.fixture(scope="session")
def wheel(tmp_path_factory):
    """The engine's wheel and, beside it in locale/, its catalogues, as the build serves them."""
    out = tmp_path_factory.mktemp("wheel")
    kit_wheel.write_engine_catalogues(kit_site.validate_rules(), out)
    return kit_wheel.build_engine_wheel(kit_site.validate_rules(), out)


def sources_of(trimmed: zipfile.ZipFile) -> set[str]:
    """The source files the trimmed library's entries were compiled from (`x.pyc` from `x.py`)."""
    return {n.removesuffix("c") if n.endswith(".pyc") else n for n in trimmed.namelist()}


@pytest.fixture(scope="session")
def trimmed_stdlib(tmp_path_factory):
    """The standard library the site ships (kit/browser/stdlib.py), as build.py makes it."""
    if not PYODIDE.is_dir():
        pytest.fail("node_modules/pyodide is missing: run `npm ci` (the test command in the README does)")
    path = tmp_path_factory.mktemp("stdlib") / "python_stdlib.zip"
    path.write_bytes(kit_stdlib.trimmed_stdlib(PYODIDE / "python_stdlib.zip"))
    return path


@pytest.mark.parametrize("lang", ["en", "es"])  # two runs, so both cores can take one each
def test_every_case_and_every_page_request_gives_the_same_answer_in_pyodide(wheel, trimmed_stdlib, tmp_path, lang):
    """Run as the site runs them: the wheel unpacked, the trimmed standard library, a snapshot made;
    pypdf loaded by address for the application. No module any of them imports is missing."""
    rules = kit_site.validate_rules()
    cases = load_cases()
    # a case that names its own language (input `lang: es`) runs as it is, in the English run;
    # the Spanish run asks every other case again in Spanish
    if lang == "es":
        cases = [c for c in cases if "lang" not in (c.get("input") or {})]
    argvs = [argv_for(c) for c in cases]
    argvs.append(["provisions"])
    if lang == "es":
        argvs = [[*argv, "--lang", "es"] for argv in argvs]
    requests = [r for r in page_requests(rules, kit_wheel.build_pypdf_wheel(tmp_path, PYODIDE / "python_stdlib.zip"),
                                         build_blank_pdf(rules, tmp_path / "blank.pdf"))
                if ("--lang" in r["argv"]) == (lang == "es")]
    # the requests that load pypdf last: the standard-library modules only pypdf needs come in its
    # wheel, so a module any other request imports is missed (not found) before pypdf brings it
    requests.sort(key=lambda r: bool(r.get("packages")))
    (tmp_path / "cases.json").write_text(json.dumps(argvs + requests))
    sources = tmp_path / "stripped_stdlib.zip"
    sources.write_bytes(kit_stdlib.stripped_sources(PYODIDE / "python_stdlib.zip"))
    check = ["--check-stripped", str(PYODIDE / "python_stdlib.zip"), str(ROOT / "kit" / "browser" / "stdlib.py"), str(sources)]
    proc = subprocess.run([shutil.which("node"), "tests/node/parity.mjs", str(wheel), str(tmp_path / "cases.json"),
                           "--catalogues", str(wheel.parent / "locale"),
                           "--stdlib", str(trimmed_stdlib), *(check if lang == "en" else [])],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = proc.stdout.splitlines()
    assert len(lines) == len(argvs) + len(requests)
    stats = json.loads(proc.stderr.strip().splitlines()[-1])
    # really Pyodide's interpreter: the Python its lock file names, not the one running this test
    pyodide_python = json.loads((PYODIDE / "pyodide-lock.json").read_text())["info"]["python"]
    assert stats["python"] == pyodide_python != platform.python_version()
    print(f"\nparity ({lang}): { {k: v for k, v in stats.items() if not isinstance(v, list)} }")

    # no module missing: none asked for that Pyodide's whole library has and the trimmed one lacks
    # (an optional import, `try: import x`, would otherwise change an answer silently)
    with zipfile.ZipFile(PYODIDE / "python_stdlib.zip") as full, zipfile.ZipFile(trimmed_stdlib) as trimmed:
        in_full = {n[:-3].removesuffix("/__init__").replace("/", ".") for n in full.namelist() if n.endswith(".py")}
        missing = sorted(set(stats["not_found"]) & in_full)
        assert not missing, (f"The site's Python asked for {missing}, which the trimmed standard library lacks: "
                             f"add them to kit/browser/stdlib-modules.txt.")
        # and every module it imported came from a file the trimmed library has (compiled)
        assert set(kit_stdlib.files_for(stats["modules"], set(full.namelist()))) <= sources_of(trimmed)
    # every stripped module is the original without its docstrings, by Python 3.14's own parser;
    # each module the library holds compiled was compared so
    assert stats.get("not_stripped_alike", []) == [] and ("not_stripped_alike" in stats) == (lang == "en")
    if lang == "en":
        with zipfile.ZipFile(trimmed_stdlib) as trimmed:
            compiled = [n for n in trimmed.namelist() if n.endswith(".pyc")]
        assert stats["stripped_compared"] == len(compiled) > 100

    for argv, got in zip(argvs, lines):
        assert got == run_json(argv), argv
    assert sum('"ok": false' in line for line in lines[:len(argvs)]) == sum("error" in c for c in cases)
    answers = [json.loads(line) for line in lines]
    # (the Clerk's steps report in English whatever the language asked, as the desk does: spanish20)
    asked = [("es" if "--lang" in argv and argv[argv.index("--lang") + 1] == "es" and argv[0] != "rates" else "en")
             for argv in argvs] + [("es" if "--lang" in r["argv"] and r["argv"][0] != "rates" else "en")
                                   for r in requests]
    assert all(a["result"]["lang"] == want for a, want in zip(answers, asked)
               if a["ok"] and isinstance(a["result"], dict))
    assert lang in asked

    # the pages' requests: the same answers as CPython's; refusals, never a defect
    for request, got in zip(requests, lines[len(argvs):]):
        answer = json.loads(got)
        assert not answer.get("defect"), (request["argv"], answer)
        if request["argv"][0] == "application":
            assert answer["ok"] and answer["result"]["written"] == ["/tmp/application.pdf"], answer
        elif request["argv"][0] == "bills":  # the same files here, at their own paths
            argv = [request["files"].get(w, w) for w in request["argv"]]
            out = argv.index("--out") + 1
            argv[out] = str(tmp_path / "bills-out")
            here = json.loads(run_json(argv))
            assert here["result"].pop("written") == [f"{argv[out]}/{n}" for n in
                                                     ("register.csv", "summary.csv", "arrears.csv", "refused.csv")]
            assert answer["result"].pop("written") == [f"/tmp/bills-out/{n}" for n in
                                                       ("register.csv", "summary.csv", "arrears.csv", "refused.csv")]
            assert answer == here and answer["result"]["refused"], request["argv"]
        else:
            assert got == run_json(request["argv"]), request["argv"]
        assert answer["ok"] is not request.get("refusal", False), (request["argv"], answer)


def test_the_trimmed_standard_library_is_a_fraction_of_pyodides(trimmed_stdlib):
    """What a phone downloads before Python starts: the kept modules only, stripped, compiled by
    Pyodide's Python (kit/browser/pyc.mjs), stored in the zip and sent xz-compressed as one stream
    (kit/browser/xz.py)."""
    full = (PYODIDE / "python_stdlib.zip").stat().st_size
    assert len(kit_xz.packed(trimmed_stdlib.read_bytes())) < full / 3
    with zipfile.ZipFile(trimmed_stdlib) as z:
        assert {i.compress_type for i in z.infolist()} == {zipfile.ZIP_STORED}
        names = z.namelist()
        assert "argparse.pyc" in names and "decimal.pyc" in names and "unittest/__init__.pyc" not in names
        assert not [n for n in names if n.endswith(".py")]  # no source to compile at each start
        pyc = z.read("argparse.pyc")
        # PEP 552: Python 3.14's magic number (3600-3649: 3.14), then flags 0b01, a hash-based
        # .pyc Python takes without looking for a source
        assert 3600 <= int.from_bytes(pyc[:2], "little") < 3650 and pyc[2:4] == b"\r\n"
        assert int.from_bytes(pyc[4:8], "little") == 0b01
        assert b"Command-line parsing library" not in pyc and b"ArgumentParser" in pyc  # no docstrings
    assert kit_stdlib.trimmed_stdlib(PYODIDE / "python_stdlib.zip") == trimmed_stdlib.read_bytes()  # same bytes


def test_the_modules_only_pypdf_needs_load_with_pypdf_not_before_an_estimate(trimmed_stdlib, tmp_path):
    """The modules marked `# pypdf` (kit/browser/stdlib-modules.txt) travel in the pypdf wheel, except those
    of a package the library keeps (Python finds a package's modules in its own folder only)."""
    on_use = kit_stdlib.pypdf_modules()
    assert "xml.dom.minidom" in on_use and "tarfile" in on_use
    kept_packages = {m.split(".")[0] for m in kit_stdlib.kept_modules()}
    assert not {m.split(".")[0] for m in on_use} & kept_packages
    assert "encodings.cp1252" in kit_stdlib.kept_modules()  # pypdf's, but of the kept encodings package
    with zipfile.ZipFile(PYODIDE / "python_stdlib.zip") as full:
        files = set(kit_stdlib.files_for(on_use, set(full.namelist())))
    pypdf = zipfile.ZipFile(kit_wheel.build_pypdf_wheel(tmp_path, PYODIDE / "python_stdlib.zip")).namelist()
    assert files and files <= set(pypdf)
    assert not files & sources_of(zipfile.ZipFile(trimmed_stdlib))
