"""The same YAML cases, run by the engine wheel in Pyodide (Python 3.14, under
Node), give byte-identical answers to CPython's, in English and in Spanish (the
wheel's packed catalogue and the checkout's say the same)."""
import json
import platform
import shutil
import subprocess
from pathlib import Path

import pytest

from kit import site as kit_site
from kit import wheel as kit_wheel
from calculator.cli import run_json
from casebook import argv_for, load_cases

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def wheel(tmp_path_factory):
    return kit_wheel.build_engine_wheel(kit_site.validate_rules(), tmp_path_factory.mktemp("wheel"))


@pytest.mark.parametrize("lang", ["en", "es"])  # two runs, so both cores can take one each
def test_every_case_gives_the_same_answer_in_pyodide(wheel, tmp_path, lang):
    if not (ROOT / "node_modules" / "pyodide").is_dir():
        pytest.fail("node_modules/pyodide is missing: run `npm ci` (the test command in the README does)")
    cases = load_cases()
    argvs = [argv_for(c) for c in cases]
    argvs.append(["provisions"])
    if lang == "es":
        argvs = [[*argv, "--lang", "es"] for argv in argvs]
    (tmp_path / "cases.json").write_text(json.dumps(argvs))
    proc = subprocess.run([shutil.which("node"), "tests/node/parity.mjs", str(wheel), str(tmp_path / "cases.json")],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = proc.stdout.splitlines()
    assert len(lines) == len(argvs)
    stats = json.loads(proc.stderr.strip().splitlines()[-1])
    # really Pyodide's interpreter: the Python its lock file names, not the one running this test
    pyodide_python = json.loads((ROOT / "node_modules" / "pyodide" / "pyodide-lock.json").read_text())["info"]["python"]
    assert stats["python"] == pyodide_python != platform.python_version()
    print(f"\nparity ({lang}): {stats}")
    for argv, got in zip(argvs, lines):
        assert got == run_json(argv), argv
    assert sum('"ok": false' in line for line in lines) == sum("error" in c for c in cases)
    answers = [json.loads(line) for line in lines]
    assert all(a["result"]["lang"] == lang for a in answers if a["ok"] and isinstance(a["result"], dict))
