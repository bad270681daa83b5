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


PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
PAGES = ROOT / "docs" / "templates" / "pages"


def build_date():
    """The day the site is built for (SOURCE_DATE_EPOCH when set, for reproducible builds)."""
    import datetime as dt
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch:
        return dt.datetime.fromtimestamp(int(epoch), dt.timezone.utc).date()
    return dt.date.today()


def stage_docs(staging: Path) -> Path:
    """Step 2a: copy the hand-written pages into a fresh folder (templates stay behind)."""
    import shutil
    docs = staging / "docs"
    shutil.copytree(ROOT / "docs", docs, ignore=shutil.ignore_patterns("templates", "overrides", "*.j2"))
    return docs


def render_pages(rules: dict, docs: Path) -> list[Path]:
    """Step 2b: render the pages generated from rules/ (Jinja2 templates in docs/templates/pages/).
    `law.md.j2` becomes law/index.md; `rates/schedule.md.j2` is rendered once per schedule."""
    env = jinja_environment(PAGES)
    ctx = page_context(rules, build_date())
    written = []
    for template in sorted(PAGES.rglob("*.md.j2")):
        rel = template.relative_to(PAGES).as_posix()
        if rel == "rates/schedule.md.j2":
            targets = [(f"rates/{s['id']}/index.md", {"schedule": s}) for s in ctx["schedules"]]
        elif rel == "notices/notice.md.j2":
            targets = [(f"notices/{n['slug']}/index.md", {"notice": n}) for n in ctx["notices"]]
        else:
            name = rel[: -len(".md.j2")]
            targets = [("index.md" if name == "index" else f"{name}/index.md", {})]
        for out, extra in targets:
            path = docs / out
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(env.get_template(rel).render(**ctx, **extra), encoding="utf-8")
            written.append(path)
    return written


def jinja_environment(folder: Path):
    import re

    import jinja2

    from calculator import money
    from calculator.dates import long
    from calculator.law import anchor
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(folder)), undefined=jinja2.ChainableUndefined,
                             keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True, autoescape=False)
    md_special = re.compile(r"([\\`*_\[\]<>#|])")
    env.filters["md"] = lambda text: md_special.sub(r"\\\1", str(text))
    env.filters["anchor"] = anchor
    env.filters["html"] = lambda text: jinja2.utils.markupsafe.escape(str(text))
    env.filters["long"] = lambda d: long(d if hasattr(d, "year") else __import__("datetime").date.fromisoformat(d))
    env.filters["dollars"] = lambda x: money.dollars(__import__("decimal").Decimal(str(x)))
    env.filters["percent"] = lambda x: money.percent(__import__("decimal").Decimal(str(x)))
    return env


def page_context(rules: dict, today) -> dict:
    """What the page templates see: the rules, arranged for reading, and worked examples
    computed by the engine (so no page states a number the engine did not produce)."""
    from calculator import bill, schedule
    from calculator.dates import next_quarter_due
    from calculator.law import anchor, provision_text
    by_id = {p["id"]: dict(p, anchor=anchor(p["id"]), words=provision_text(p)) for p in rules["provisions"]}
    params_by_cite: dict[str, list] = {}
    for p in rules["parameters"].values():
        params_by_cite.setdefault(p["cite"], []).append(p)
    interps_by_cite: dict[str, list] = {}
    for i in rules["interpretations"].values():
        interps_by_cite.setdefault(i["reads"], []).append(i)
    quarter = next_quarter_due(rules, today)
    try:
        current = schedule.in_force(rules, today)
    except Exception:
        current = None
    example = bill.compute(rules, quarter, {"water-gallons": "12000"})
    minimum = bill.compute(rules, quarter, {"water-gallons": "0"})
    schedules = []
    for s in rules["schedules"]:
        q = f"{s['effective'][:4]}-Q{(int(s['effective'][5:7]) - 1) // 3 + 1}"
        at = bill.compute(rules, q, {"water-gallons": "0"}, vc_per_1000=s["vc_per_1000_gallons"],
                          sewage_fraction=s["sewage_fraction"])
        meeting = s.get("notice", {}).get("meeting")
        days = (__import__("datetime").date.fromisoformat(meeting) - today).days if meeting else None
        schedules.append(dict(s, minimum_charge=at["minimum_charge"], label=schedule.LABELS[s["status"]],
                              days_to_meeting=days,
                              in_force=current is not None and s["id"] == current["id"]))
    return {
        "rules": rules, "today": today.isoformat(), "provisions": by_id,
        "articles": [dict(a, top=[by_id[i] for i in a["provisions"]]) for a in rules["law"]["articles"]],
        "params_by_cite": params_by_cite, "interps_by_cite": interps_by_cite,
        "interpretations": list(rules["interpretations"].values()),
        "schedules": schedules, "current": current and next(s for s in schedules if s["id"] == current["id"]),
        "proposed": [s for s in schedules if s["status"] == "proposed"],
        "example": example, "minimum": minimum, "example_quarter": quarter,
        "wheel": f"{WHEEL_NAME}-{engine_version()}-py3-none-any.whl",
        "notices": notices(rules),
        "parameters": rules["parameters"],
    }


def notices(rules: dict) -> list[dict]:
    """Every notice the Town has given under the rate-schedule process, newest first:
    each hearing notice (rate-schedules.B) and each annual notice to users with an
    adopted schedule (rate-schedules.D)."""
    from calculator import clerk
    out = []
    for s in rules["schedules"]:
        if s.get("notice"):
            out.append({"slug": f"{s['id']}-hearing", "kind": "Hearing notice", "date": s["notice"]["published"],
                        "schedule": s["id"], "cite": "rate-schedules.B",
                        "title": f"Proposed sewer rate schedule {s['id']}: public comment meeting",
                        "text": clerk.hearing_notice_text(rules, s["id"])})
        if s["status"] == "adopted":
            notice = clerk.user_notice(rules, s["id"])
            out.append({"slug": f"{s['id']}-rates", "kind": "Annual notice to users", "date": s["adoption"]["date"],
                        "schedule": s["id"], "cite": "rate-schedules.D",
                        "title": f"Sewer rate schedule {s['id']} adopted: the rate, the minimum charge and due dates",
                        "text": notice["text"], "html": notice["html"]})
    return sorted(out, key=lambda n: (n["date"], n["slug"]), reverse=True)


def publish_notices(items: list[dict], docs: Path) -> None:
    """Step 2c: each notice as a PDF beside its page, and the notices feed (Atom)."""
    import datetime as dt

    from feedgen.feed import FeedGenerator

    from calculator import clerk
    folder = docs / "notices"
    folder.mkdir(parents=True, exist_ok=True)
    for n in items:
        (folder / n["slug"]).mkdir(parents=True, exist_ok=True)
        clerk.write_pdf(n["text"], n["title"], folder / n["slug"] / f"{n['slug']}.pdf")
    feed = FeedGenerator()
    feed.id("urn:pawling-sewer-kit:notices")
    feed.title("Town of Pawling sewer notices")
    feed.subtitle("Proposed sewer rate schedules, public comment meetings, and adopted rates.")
    feed.link(href="./", rel="alternate")
    feed.link(href="feed.xml", rel="self")
    feed.language("en")
    latest = max((n["date"] for n in items), default="1992-03-04")
    feed.updated(dt.datetime.fromisoformat(latest + "T12:00:00+00:00"))
    for n in reversed(items):  # feedgen puts the last added first
        entry = feed.add_entry()
        entry.id(f"urn:pawling-sewer-kit:notice:{n['slug']}")
        entry.title(n["title"])
        entry.link(href=f"{n['slug']}/")
        when = dt.datetime.fromisoformat(n["date"] + "T12:00:00+00:00")
        entry.published(when)
        entry.updated(when)
        entry.content(n["text"], type="text")
    _write_atomic(folder / "feed.xml", feed.atom_str(pretty=True))


def copy_pyodide(docs: Path) -> Path:
    """Step 4: Pyodide's core files from node_modules (pinned by package-lock.json)."""
    import shutil
    src = ROOT / "node_modules" / "pyodide"
    if not src.is_dir():
        raise BuildError("node_modules/pyodide is missing. Run `npm ci` first (python build.py install does it).")
    dst = docs / "pyodide"
    dst.mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_FILES:
        shutil.copy2(src / name, dst / name)
    return dst


def run_mkdocs(docs: Path, site: Path) -> None:
    """Step 5: mkdocs build --strict on the staged pages."""
    import logging
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config
    from mkdocs.exceptions import Abort, ConfigurationError
    log = logging.getLogger("mkdocs")
    log.setLevel(logging.WARNING)
    if not log.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("  mkdocs %(levelname)s: %(message)s"))
        log.addHandler(handler)
    try:
        config = load_config(config_file=str(ROOT / "mkdocs.yml"), docs_dir=str(docs), site_dir=str(site),
                             strict=True, theme={"name": "material", "custom_dir": str(ROOT / "docs" / "overrides"),
                                                 **_theme_options()})
        mkdocs_build(config)
    except (Abort, ConfigurationError) as exc:
        raise BuildError(f"mkdocs refused the pages: {exc}. The warnings above say which page and link to fix.")


def _theme_options() -> dict:
    from calculator.validate import read_yaml
    theme = dict(read_yaml(ROOT / "mkdocs.yml")["theme"])
    theme.pop("name", None)
    theme.pop("custom_dir", None)
    return theme


def swap_in(new_site: Path, site: Path) -> None:
    """Step 6: replace site/ with the new build only now that every step has passed."""
    import shutil
    old = site.with_name(f".site-old-{os.getpid()}")
    if site.exists():
        os.replace(site, old)
    os.replace(new_site, site)
    shutil.rmtree(old, ignore_errors=True)


class BuildError(Exception):
    """A step failed; the message says what to fix. site/ is left as it was."""


def build(site: Path = ROOT / "site", rules_dir: Path | None = None) -> Path:
    import shutil
    import tempfile
    import time
    started = time.perf_counter()
    staging = Path(tempfile.mkdtemp(prefix=".site-build-", dir=ROOT))
    try:
        step("Checking the rules")
        rules = validate_rules(rules_dir)
        step("Rendering the pages from the rules")
        docs = stage_docs(staging)
        render_pages(rules, docs)
        publish_notices(notices(rules), docs)
        step("Packing the calculator and the rules for the browser")
        build_engine_wheel(rules, docs / "engine")
        step("Copying Pyodide (Python for the browser)")
        copy_pyodide(docs)
        step("Building the site with mkdocs")
        run_mkdocs(docs, staging / "site")
        step("Publishing to site/")
        swap_in(staging / "site", site)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    print(f"Built {site} in {time.perf_counter() - started:.1f} s", flush=True)
    return site


def step(name: str) -> None:
    print(f"- {name}", flush=True)


def serve(site: Path = ROOT / "site", host: str = "127.0.0.1", port: int = 8000):
    """Serve site/ with the types Pyodide needs (.mjs as JavaScript, .wasm for streaming compile)."""
    import functools
    import http.server
    import mimetypes
    mimetypes.add_type("text/javascript", ".mjs")
    mimetypes.add_type("application/wasm", ".wasm")

    class Handler(http.server.SimpleHTTPRequestHandler):
        extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                          ".mjs": "text/javascript", ".wasm": "application/wasm", ".js": "text/javascript",
                          ".whl": "application/zip", ".zip": "application/zip", ".ics": "text/calendar",
                          ".xml": "application/xml"}

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer((host, port), functools.partial(Handler, directory=str(site)))
    return server


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
    if command in ("build", "serve"):
        if "--install" in rest:
            install(with_tests=False)
        from calculator.validate import RuleError
        try:
            build()
        except RuleError as exc:
            print("The build stopped; site/ is unchanged. Fix these in rules/:", file=sys.stderr)
            for p in exc.problems:
                print("  " + p, file=sys.stderr)
            return 1
        except BuildError as exc:
            print(f"The build stopped; site/ is unchanged. {exc}", file=sys.stderr)
            return 1
        if command == "serve":
            server = serve()
            print("Serving the site at http://127.0.0.1:8000/ (Ctrl+C to stop)", flush=True)
            try:
                server.serve_forever()
            except KeyboardInterrupt:
                pass
        return 0
    raise SystemExit(f"Unknown command {command!r}. Use: build, serve, test, rates, install.")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
