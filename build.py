"""Build the Pawling sewer kit's static site, step by step.

    python build.py            build site/ (validate → render → wheel → pyodide → mkdocs)
    python build.py serve      build, then serve at http://127.0.0.1:8000
    python build.py rates …    the Clerk's rate-schedule workflow (see README)

Each step is a function you can run alone. The site is built in a temporary
folder and swapped in at the end, so a failed build keeps the previous site/.
"""
from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent
ENGINE = ROOT / "calculator"
# Modules that need CPython-only libraries (PyYAML, jsonschema, Jinja2, reportlab):
# the browser gets compiled rules instead and never imports them.
NOT_IN_BROWSER = {"validate.py", "clerk.py"}
WHEEL_NAME = "pawling_sewer_kit"
# Fixed timestamp inside zip files, so two builds of one commit are identical.
ZIP_TIME = (1980, 1, 1, 0, 0, 0)


def validate_rules(rules_dir: Path | None = None) -> dict:
    """Step 1: read and check every rule file; stop with what to fix."""
    from calculator.validate import RULES_DIR, compile_rules
    return compile_rules(rules_dir or RULES_DIR)


def engine_version() -> str:
    import calculator
    return calculator.__version__


def build_engine_wheel(rules: dict, out_dir: Path) -> Path:
    """Step 3: the engine and the compiled rules as a pure py3-none-any wheel."""
    version = engine_version()
    dist = f"{WHEEL_NAME}-{version}.dist-info"
    files: dict[str, bytes] = {}
    for path in sorted(ENGINE.glob("*.py")):
        if path.name not in NOT_IN_BROWSER:
            files[f"calculator/{path.name}"] = path.read_bytes()
    files["calculator/compiled_rules.json"] = json.dumps(rules, sort_keys=True, ensure_ascii=False).encode()
    files[f"{dist}/METADATA"] = (f"Metadata-Version: 2.1\nName: {WHEEL_NAME.replace('_', '-')}\nVersion: {version}\n"
                                 "Summary: The Town of Pawling sewer-use law as a calculator\n").encode()
    files[f"{dist}/WHEEL"] = b"Wheel-Version: 1.0\nGenerator: pawling-build\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    files[f"{dist}/top_level.txt"] = b"calculator\n"
    record = []
    for name, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{name},sha256={digest},{len(data)}")
    record.append(f"{dist}/RECORD,,")
    files[f"{dist}/RECORD"] = ("\n".join(record) + "\n").encode()
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / f"{WHEEL_NAME}-{version}-py3-none-any.whl"
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in files.items():
            info = zipfile.ZipInfo(name, ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, data)
    _write_atomic(target, buf.getvalue())
    return target


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


# ---- setting up a machine, and the test command ---------------------------------

def _run(cmd: list[str], **kw) -> None:
    import subprocess
    print("+ " + " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True, cwd=ROOT, **kw)


def find_chromium() -> str | None:
    """Playwright's own Chromium if installed, else the system's."""
    import shutil
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def install(with_tests: bool) -> None:
    """Install what the kit needs: Python packages, Pyodide from npm, and (for the
    tests) Chromium from Debian's `chromium` package when it is missing."""
    import shutil
    _run([sys.executable, "-m", "pip", "install", "--quiet", "-e", ".[test]" if with_tests else "."])
    _run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"])
    if with_tests and not find_chromium():
        if os.geteuid() == 0 and shutil.which("apt-get"):
            env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
            _run(["apt-get", "update", "-qq"], env=env)
            _run(["apt-get", "install", "-y", "-qq", "chromium"], env=env)
        else:
            raise SystemExit("Chromium is needed for the browser tests. Install it with "
                             "`sudo apt-get install chromium` (Debian/Ubuntu) and run the tests again.")


def test(pytest_args: list[str]) -> int:
    """The one test command: install what is needed, then run every test."""
    install(with_tests=True)
    import subprocess
    code = subprocess.run([sys.executable, "-m", "pytest", *pytest_args], cwd=ROOT).returncode
    if code == 5:
        print("pytest collected no tests: that is a failure here.", file=sys.stderr)
        return 1
    return code


def main(argv: list[str]) -> int:
    command, rest = (argv[0], argv[1:]) if argv else ("build", [])
    if command == "rates":
        from calculator.clerk import main as rates
        return rates(rest)
    if command == "test":
        return test(rest)
    if command == "install":
        install(with_tests="--with-tests" in rest)
        return 0
    raise SystemExit(f"Unknown command {command!r}. Use: build, serve, test, rates, install.")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
