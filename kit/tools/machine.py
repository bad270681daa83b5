"""Setting up a machine for the kit, with the standard library only (build.py runs
this under whatever python3 the machine has, before any package is installed).

- The kit lives in its own virtual environment, `.venv/` in the repository: a
  distribution's python3 is "externally managed" (PEP 668) and refuses pip installs,
  so build.py creates .venv once and re-runs itself inside it.
- What Debian/Ubuntu packages provide (python3-venv, Node and npm, Chromium, Java)
  is installed with apt-get when running as root; otherwise the message gives the
  one command to run. See docs/decisions/007-project-virtualenv.md.
"""
from __future__ import annotations

import datetime as dt
import os
import shutil
import subprocess
import sys
from ctypes.util import find_library
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VENV = ROOT / ".venv"


def venv_python() -> Path:
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def in_venv() -> bool:
    return Path(sys.prefix).resolve() == VENV.resolve()


def run(cmd: list, **kw) -> None:
    print("+ " + " ".join(map(str, cmd)), flush=True)
    subprocess.run([str(c) for c in cmd], check=True, cwd=ROOT, **kw)


def apt_install(packages: list[str], why: str, optional: list[str] = ()) -> None:
    """Install Debian packages as root, or stop with the command a person should run.
    `optional` ones are installed too where this machine's apt offers them and it runs as root,
    and are left out otherwise (nothing then stops)."""
    root = hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get")
    if not packages and not (root and any(apt_offers(p) for p in optional)):
        return
    if root:
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        run(["apt-get", "update", "-qq"], env=env)
        offered = [p for p in optional if apt_offers(p)]
        run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", *packages, *offered], env=env)
        return
    raise SystemExit(f"{why} Install {' and '.join(packages)} with:\n\n"
                     f"    sudo apt-get install {' '.join(packages)}\n\nthen run the same command again.")


def apt_offers(package: str) -> bool:
    """Whether apt's package lists have `package` (Debian has chromium-headless-shell; Ubuntu does not)."""
    return shutil.which("apt-cache") is not None and subprocess.run(
        ["apt-cache", "show", package], capture_output=True).returncode == 0


def ensure_venv() -> None:
    """Create .venv with this python3 if it is missing (installing Debian's python3-venv
    when venv cannot make one), then re-run this very command inside it."""
    if in_venv():
        return
    python = venv_python()
    if not python.exists():
        made = subprocess.run([sys.executable, "-m", "venv", str(VENV)], cwd=ROOT).returncode == 0
        if not made or not python.exists():
            shutil.rmtree(VENV, ignore_errors=True)
            version = f"python{sys.version_info.major}.{sys.version_info.minor}-venv"
            apt_install(["python3-venv", version],
                        f"This python3 ({sys.executable}) cannot create a virtual environment.")
            run([sys.executable, "-m", "venv", VENV])
        print(f"Created the project's Python environment in {VENV.relative_to(ROOT)}/.", flush=True)
    script = Path(sys.argv[0]).resolve()
    # as `activate` would: the environment's tools (pytest, linkchecker, mkdocs) come first on PATH
    env = dict(os.environ, VIRTUAL_ENV=str(VENV), PATH=f"{python.parent}{os.pathsep}{os.environ.get('PATH', '')}")
    env.pop("PYTHONHOME", None)
    os.execve(str(python), [str(python), str(script), *sys.argv[1:]], env)


def find_chromium() -> str | None:
    """The system's Chromium (Debian's package), or Chrome where that is what the machine has.
    The browser tests prefer Playwright's own Chromium when it is installed (tests/browser/conftest.py)."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def find_test_chromium() -> str | None:
    """The Chromium the tests drive: Debian's chromium-headless-shell, the same Chromium (one
    package version) without the windowing layer of the full browser's headless mode; Playwright
    runs it by default for headless tests. Each page costs a third of the CPU: 22 page loads took
    8.9 CPU-s against 29.3 s in the full browser, and the screenshots' file 62.6 against 104.4
    (December 2, 2026), on a 2-core machine where the suite is bound by CPU. Else the full one."""
    return shutil.which("chromium-headless-shell") or find_chromium()


def install(with_tests: bool, while_npm=None) -> None:
    """Install what the kit needs into .venv: the Python packages (pyproject.toml), Pyodide
    and the checkers from npm (package-lock.json), and the Debian packages: Node and npm
    when missing; for the tests, Chromium, Java (the Nu Html Checker), ShellCheck (actionlint
    runs it on the workflows' scripts, as on GitHub's runners) and hunspell with its Spanish
    dictionaries (the Spanish pages, PDFs and answers are spell-checked), and R with dplyr
    and yaml (RateParser reads the OWRS files). The tests drive
    chromium-headless-shell (find_test_chromium); the benchmarks, the full chromium, as a
    resident's browser is."""
    needed = [("nodejs", shutil.which("node")), ("npm", shutil.which("npm")),
              # WeasyPrint (tagged PDFs) draws text with Pango
              ("libpango-1.0-0", find_library("pango-1.0")), ("libpangoft2-1.0-0", find_library("pangoft2-1.0"))]
    if with_tests:
        needed += [("chromium", find_chromium()), ("default-jre-headless", shutil.which("java")),
                   ("shellcheck", shutil.which("shellcheck")),
                   ("hunspell", shutil.which("hunspell")),
                   ("hunspell-es", Path("/usr/share/hunspell/es_US.dic").exists()),
                   # the screenshots' baselines are drawn in Liberation Sans (the theme asks for
                   # Arial/Helvetica); without it Chromium falls back to another font and every
                   # picture differs from its baseline
                   ("fonts-liberation", Path("/usr/share/fonts/truetype/liberation").is_dir()),
                   # RateParser (the Open Water Rate Specification's own reader, in R; tests/vendor/)
                   # computes bills from the site's api/owrs/ files, to be compared with the engine's
                   ("r-base-core", shutil.which("Rscript")),
                   ("r-cran-dplyr", Path("/usr/lib/R/site-library/dplyr").is_dir()),
                   ("r-cran-yaml", Path("/usr/lib/R/site-library/yaml").is_dir())]
    # the tests' Chromium where Debian offers it (find_test_chromium); elsewhere the full one
    optional = ["chromium-headless-shell"] if with_tests and not shutil.which("chromium-headless-shell") else []
    apt_install([pkg for pkg, present in needed if not present],
                "The kit needs these Debian packages" + (" for its tests." if with_tests else "."), optional)
    # the Python packages and npm side by side: neither needs the other, and each waits on the disk and
    # the network much of its time. The checkers' puppeteer must not download a browser of its own (none
    # can be had here; the tests use the system's Chromium); without the tests, no checkers at all.
    # `while_npm`: what the caller has to do once the Python packages are in, while npm is still at work
    run_together(lambda: (install_python_packages(".[test]" if with_tests else "."), while_npm and while_npm()),
                 (["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error", *([] if with_tests else ["--omit=dev"])],
                  dict(os.environ, PUPPETEER_SKIP_DOWNLOAD="1")))


def run_together(first, second: tuple[list, dict]) -> None:
    """Two commands at once (the second with its environment; the first a command, or a function that
    runs its own and raises as run() does); if either fails, stop as run() does, once both have ended,
    naming the one that failed."""
    second_cmd, second_env = second
    print("+ " + " ".join(map(str, second_cmd)), flush=True)
    other = subprocess.Popen([str(c) for c in second_cmd], cwd=ROOT, env=second_env)
    try:
        if callable(first):
            first()
        else:
            run(first)
    finally:
        other_code = other.wait()
    if other_code:
        raise subprocess.CalledProcessError(other_code, [str(c) for c in second_cmd])


def install_python_packages(spec: str) -> None:
    """`pip install -e SPEC` into this environment, by uv when it can be had (from PyPI, as pip would
    have it): on a fresh clone uv installs the 91 packages in about 4 s where pip takes 40 (December 6,
    2026; the same versions, pip list compared). Where uv cannot be installed or fails, pip does it."""
    quiet = ["--quiet", "--disable-pip-version-check"]
    uv = Path(sys.executable).parent / "uv"
    if not uv.exists():
        subprocess.run([sys.executable, "-m", "pip", "install", *quiet, "uv"], cwd=ROOT,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if uv.exists():
        print(f"+ uv pip install -e {spec}", flush=True)
        if subprocess.run([str(uv), "pip", "install", "--quiet", "--python", sys.executable, "-e", spec],
                          cwd=ROOT).returncode == 0:
            return
        print("uv could not install the packages; pip will.", file=sys.stderr, flush=True)
    run([sys.executable, "-m", "pip", "install", *quiet, "-e", spec])


def installed(root: Path = ROOT) -> bool:
    """Whether the build has what it needs: this Python's packages, and Pyodide from npm
    (`node_modules/pyodide/`, which `npm ci` puts there)."""
    return not missing(root)


def missing(root: Path = ROOT, site: bool = True) -> list[str]:
    """What `python3 build.py install` would bring that is not here yet, in words; Pyodide only
    when the command builds the site (`site`)."""
    from importlib.util import find_spec
    out = []
    if not all(find_spec(name) is not None for name in ("yaml", "jsonschema", "jinja2", "mkdocs", "material")):
        out.append("the kit's Python packages")
    if site and not (root / "node_modules" / "pyodide" / "package.json").is_file():
        out.append("Pyodide, the browser's Python (from npm, into node_modules/)")
    return out


TEST_SITE = ROOT / ".cache" / "tests" / "site"
# the day the site was built on (its pages' "today"; tests/test_build.py builds it again on that day
# and compares), written only when the build began and ended on the same day
TEST_SITE_DAY = TEST_SITE.parent / "site-day.txt"


#: the day the screenshots' site is built for, and the browser's today there (tests/browser/test_screenshots.py)
SCREENSHOT_DAY = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.timezone.utc)
SCREENSHOT_SITE = TEST_SITE.parent / "screenshots" / "site"


def _build_command(site: Path, draft: bool) -> list[str]:
    """A Python that builds the site into `site` (a `draft`: not published, kit/site/build.py)."""
    return [sys.executable, "-c", "import sys; from pathlib import Path; from kit.site.build import build; "
            f"build(Path(sys.argv[1]), draft={draft})", str(site)]


def start_screenshot_site(env: dict | None = None) -> subprocess.Popen:
    """The screenshots' site (built for SCREENSHOT_DAY, as published: not a draft), built beside the tests'
    site: the two builds share the build cache's slow entries (kit/buildcache.py makes each once), and
    the second keeps the core the first leaves idle, where a worker built it during the tests (16-27 s)."""
    return subprocess.Popen(_build_command(SCREENSHOT_SITE, draft=False), cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(env or os.environ, SOURCE_DATE_EPOCH=str(int(SCREENSHOT_DAY.timestamp()))))


def test_site(env: dict | None = None) -> Path | None:
    """The site built from rules/ for the tests to read (in .cache/, not site/, which stays yours);
    None, with the build's own message, when it cannot be built: the tests then build it and fail."""
    print("Building the site once for the tests to read", flush=True)
    TEST_SITE_DAY.unlink(missing_ok=True)
    day = dt.date.today().isoformat()
    code = subprocess.run(_build_command(TEST_SITE, draft=True), cwd=ROOT, stdout=subprocess.DEVNULL, env=env).returncode
    if code != 0:
        return None
    if dt.date.today().isoformat() == day:  # the day it was built for, as the build reads it (no midnight in between)
        TEST_SITE_DAY.write_text(day, encoding="utf-8")
    return TEST_SITE


def test(pytest_args: list[str]) -> int:
    """The one test command: install what is needed, then run every test."""
    # the environment's own tools first on PATH, however this Python was started. Python writes the
    # compiled modules it reads (__pycache__/, ignored by git and by the build's checks), whatever
    # PYTHONDONTWRITEBYTECODE says: the workers' collection of the tests took 10.3 s with it set (each
    # module compiled, each assert rewritten, again in each worker) and 3.3 s without, and so does
    # every Python a test starts (build.py, python -m calculator) (December 7, 2026).
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    env.pop("PYTHONDONTWRITEBYTECODE", None)

    def while_npm():
        """While npm is still at work (it waits on the network, a core idle): the tests collected once, so the
        compiled modules are there before the workers start (nothing is run), and beside that what the first
        builds read before they need Pyodide (kit/site/build.py: read_ahead). Either may fail here unsaid:
        the build and the tests then do it, and say so."""
        ahead = subprocess.Popen([sys.executable, "-c", "from kit.site.build import read_ahead; read_ahead()"],
                                 cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
                       cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        ahead.wait()
    install(with_tests=True, while_npm=while_npm)
    # every core (pytest-xdist), and a worker more: the browser tests leave a core idle while they wait
    # on Chromium. On this 2-core machine three workers ran the suite in 725 s where two took 790 s, the
    # cores 97% busy (December 7, 2026). (Three were tried on December 5 and set aside after two flaky
    # browser tests; both causes are gone: pa11y no longer runs its own axe, and a page whose module
    # fetch the server dropped under load is reloaded once, as a visitor would: test_site.py.)
    # worksteal keeps each test file on one worker where it can, so a file's expensive fixtures are
    # made once, and moves work to a worker that runs dry
    parallel = ["-n", str((os.cpu_count() or 1) + 1), "--dist", "worksteal"]
    # the site the tests read, built once here, not once a worker: the workers' first builds came at
    # the same moment on a cold build cache, each waiting on the other's (tests/conftest.py: built_site)
    screenshots = start_screenshot_site(env)
    site = test_site(env)
    if site:
        env["PAWLING_TEST_SITE"] = str(site)
    # where it cannot be built (a work tree with changes: a published build refuses them), the
    # screenshots' test builds it and says why
    if screenshots.wait() == 0:
        env["PAWLING_SCREENSHOT_SITE"] = str(SCREENSHOT_SITE)
    # and the ten slowest tests named at the end of every run, where a slowing suite shows first
    code = subprocess.run([sys.executable, "-m", "pytest", *parallel, "--durations=10", *pytest_args],
                          cwd=ROOT, env=env).returncode
    if code == 5:
        print("pytest collected no tests: that is a failure here.", file=sys.stderr)
        return 1
    return code
