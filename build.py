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


def engine_build_id(rules: dict) -> str:
    """A short hash of the engine's code and the compiled rules. The wheel is served from
    engine/<id>/, so a rebuilt site with a changed rate never gets an old cached engine."""
    digest = hashlib.sha256(json.dumps(rules, sort_keys=True, ensure_ascii=False).encode())
    for path in sorted(ENGINE.glob("*.py")):
        if path.name not in NOT_IN_BROWSER:
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def build_engine_wheel(rules: dict, out_dir: Path) -> Path:
    """Step 3: the engine and the compiled rules as a pure py3-none-any wheel."""
    files = package_files(ENGINE, only=("*.py",), skip=NOT_IN_BROWSER)
    files["calculator/compiled_rules.json"] = json.dumps(rules, sort_keys=True, ensure_ascii=False).encode()
    return write_wheel(WHEEL_NAME, engine_version(), files, out_dir,
                       summary="The Town of Pawling sewer-use law as a calculator")


def build_pypdf_wheel(out_dir: Path) -> Path:
    """Step 3b: the installed pypdf (pure Python) as a wheel beside the engine, so the
    browser can fill the permit application with calculator.application.fill_pdf."""
    import importlib.metadata

    import pypdf
    dist = importlib.metadata.distribution("pypdf")
    files = package_files(Path(pypdf.__file__).parent)
    licences = {}
    for f in dist.files or []:
        if f.name.upper().startswith(("LICENSE", "LICENCE", "COPYING")):
            licences[f"licenses/{f.name}"] = Path(dist.locate_file(f)).read_bytes()
    return write_wheel("pypdf", dist.version, files, out_dir, summary=dist.metadata["Summary"] or "",
                       dist_files=licences)


def package_files(package_dir: Path, only: tuple[str, ...] = ("*",), skip=()) -> dict[str, bytes]:
    """A package folder's files, keyed by their path in a wheel (`pkg/sub/mod.py`), in
    sorted order; bytecode caches and the names in `skip` are left out."""
    package_dir = Path(package_dir)
    files: dict[str, bytes] = {}
    for path in sorted(p for pattern in only for p in package_dir.rglob(pattern)):
        rel = path.relative_to(package_dir)
        if not path.is_file() or path.name in skip or "__pycache__" in rel.parts or path.suffix == ".pyc":
            continue
        files[f"{package_dir.name}/{rel.as_posix()}"] = path.read_bytes()
    return dict(sorted(files.items()))


def write_wheel(name: str, version: str, files: dict[str, bytes], out_dir: Path, summary: str = "",
                dist_files: dict[str, bytes] | None = None) -> Path:
    """Write these files as a pure py3-none-any wheel (METADATA, WHEEL, top_level.txt and
    RECORD added), with fixed timestamps and order, so one input gives the same bytes."""
    dist = f"{name}-{version}.dist-info"
    files = dict(files)
    for rel, data in (dist_files or {}).items():
        files[f"{dist}/{rel}"] = data
    files[f"{dist}/METADATA"] = (f"Metadata-Version: 2.1\nName: {name.replace('_', '-')}\nVersion: {version}\n"
                                 f"Summary: {summary}\n").encode()
    files[f"{dist}/WHEEL"] = b"Wheel-Version: 1.0\nGenerator: pawling-build\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    top = sorted({n.split("/")[0] for n in files if "/" in n and not n.startswith(dist)})
    files[f"{dist}/top_level.txt"] = "".join(f"{t}\n" for t in top).encode()
    record = []
    for rel, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{rel},sha256={digest},{len(data)}")
    record.append(f"{dist}/RECORD,,")
    files[f"{dist}/RECORD"] = ("\n".join(record) + "\n").encode()
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / f"{name}-{version}-py3-none-any.whl"
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for rel, data in files.items():
            info = zipfile.ZipInfo(rel, ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, data)
    _write_atomic(target, buf.getvalue())
    return target


# ---- the permit checker's and the industry page's files ---------------------------

APPLICATION_PDF = "permit/application.pdf"
CALENDAR_FILE = "industry/sewer-due-dates.ics"


def build_application_pdf(rules: dict, docs: Path) -> Path:
    """Step 2d: the blank, fillable permit application (rules/application-form.yaml) as
    a PDF in the site. The browser fills a copy of it from the checker's answers."""
    from calculator.application import build_blank_pdf
    target = docs / APPLICATION_PDF
    target.parent.mkdir(parents=True, exist_ok=True)
    build_blank_pdf(rules, target)
    target.chmod(0o644)  # written through a private temporary file; the web server must read it
    return target


def due_dates(rules: dict, years) -> list[dict]:
    """The dates the calendar file carries, from rules/parameters: each quarterly bill's
    due date (bill-due-dates) and each Section 307 report date of a major
    contributing industry (industry-report-due-dates)."""
    from calculator.dates import due_date, month_day, quarter_name
    from calculator.rules import parameter
    bills, reports = rules["parameters"]["bill-due-dates"], rules["parameters"]["industry-report-due-dates"]
    out = []
    for year in years:
        for q in range(1, 5):
            out.append({"date": due_date(rules, year, q), "kind": "sewer-bill", "cite": bills["cite"],
                        "quote": bills["quote"], "title": f"Quarterly sewer bill due ({quarter_name(year, q)})"})
        for md in parameter(rules, "industry-report-due-dates"):
            out.append({"date": month_day(year, md), "kind": "section-307-report", "cite": reports["cite"],
                        "quote": reports["quote"],
                        "title": "Section 307 report due (major contributing industries)"})
    return sorted(out, key=lambda d: (d["date"], d["kind"]))


def calendar_stamp(today):
    """DTSTAMP for the calendar: SOURCE_DATE_EPOCH when set, else midnight UTC on
    1 January of the build year, so two builds of one commit give the same file."""
    import datetime as dt
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch:
        return dt.datetime.fromtimestamp(int(epoch), dt.timezone.utc)
    return dt.datetime(today.year, 1, 1, tzinfo=dt.timezone.utc)


def build_due_dates_calendar(rules: dict, docs: Path, today) -> Path:
    """Step 2e: the due dates of this year and the next as an iCalendar file (.ics)."""
    import datetime as dt

    from icalendar import Calendar, Event
    cal = Calendar()
    cal.add("prodid", "-//Town of Pawling sewer self-service kit//Sewer due dates//EN")
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("x-wr-calname", "Town of Pawling sewer due dates")
    stamp = calendar_stamp(today)
    for d in due_dates(rules, (today.year, today.year + 1)):
        event = Event()
        event.add("uid", f"{d['date'].isoformat()}-{d['kind']}@pawling-sewer-kit")
        event.add("dtstamp", stamp)
        event.add("dtstart", d["date"])
        event.add("dtend", d["date"] + dt.timedelta(days=1))
        event.add("summary", d["title"])
        event.add("description", f"Town of Pawling sewer-use law, {d['cite']}: \"{d['quote']}\"")
        event.add("categories", [d["kind"]])
        event.add("transp", "TRANSPARENT")
        cal.add_component(event)
    target = docs / CALENDAR_FILE
    target.parent.mkdir(parents=True, exist_ok=True)
    _write_atomic(target, cal.to_ical())
    return target


def pypdf_wheel_name() -> str:
    import importlib.metadata
    return f"pypdf-{importlib.metadata.version('pypdf')}-py3-none-any.whl"


def permit_context(rules: dict) -> dict:
    """What the permit pages see: the checker's questions with where each answer
    leads, its outcomes, the application form by section, and the files beside them."""
    from calculator import application
    from calculator.law import anchor
    flow = rules["permits"]
    question_ids = {q["id"] for q in flow["questions"]}
    titles = {q["id"]: q["text"] for q in flow["questions"]}
    titles.update({o["id"]: o["title"] for o in flow["outcomes"]})
    questions = [dict(q, choices=[dict(c, leads_to=titles[c["next"]], leads_to_outcome=c["next"] not in question_ids)
                                  for c in q["choices"]])
                 for q in flow["questions"]]
    form = application.form(rules)
    sections = [dict(s, fields=[f for f in form["fields"] if f["section"] == s["id"]]) for s in form["sections"]]
    return {
        "permit_flow": dict(flow, questions=questions), "application_form": form,
        "application_sections": sections, "application_fee": application.fee(rules),
        "application_pdf": APPLICATION_PDF, "pypdf_wheel": pypdf_wheel_name(),
        "law_index": {p["id"]: {"anchor": anchor(p["id"]), "heading": p["heading"]} for p in rules["provisions"]},
    }


def industry_context(rules: dict, today) -> dict:
    """What the industry page sees: the calendar file, and the years and dates it holds."""
    years = (today.year, today.year + 1)
    return {"calendar_file": CALENDAR_FILE, "calendar_years": years, "calendar_dates": due_dates(rules, years)}


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


def render_pages(rules: dict, docs: Path, ctx: dict | None = None) -> list[Path]:
    """Step 2b: render the pages generated from rules/ (Jinja2 templates in docs/templates/pages/).
    `law.md.j2` becomes law/index.md; `rates/schedule.md.j2` is rendered once per schedule."""
    env = jinja_environment(PAGES)
    ctx = ctx or page_context(rules, build_date())
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
    build_id = engine_build_id(rules)  # the engine wheel's folder, engine/<build id>/
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
        "build_id": build_id,
        "wheel": f"{build_id}/{WHEEL_NAME}-{engine_version()}-py3-none-any.whl",
        "notices": notices(rules),
        "parameters": rules["parameters"],
        **permit_context(rules), **industry_context(rules, today),
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


CSP = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval' {hashes}; style-src 'self'; "
       "img-src 'self' data: blob:; font-src 'self'; connect-src 'self'; worker-src 'self'; "
       "object-src 'none'; base-uri 'self'; form-action 'self'")


def secure_pages(site: Path) -> int:
    """Step 5b: a Content Security Policy on every page. Scripts only from this site,
    WebAssembly allowed (Pyodide needs 'wasm-unsafe-eval', not 'unsafe-eval'), and the
    theme's two small inline scripts allowed by their hashes, page by page."""
    import re
    count = 0
    for page in sorted(site.rglob("*.html")):
        html = page.read_text(encoding="utf-8")
        inline = re.findall(r"<script>(.*?)</script>", html, flags=re.S)
        hashes = " ".join(f"'sha256-{base64.b64encode(hashlib.sha256(s.encode()).digest()).decode()}'"
                          for s in dict.fromkeys(inline))
        meta = f'<meta http-equiv="Content-Security-Policy" content="{CSP.format(hashes=hashes)}">'
        html, n = re.subn(r"<head>", "<head>\n    " + meta, html, count=1)
        if n != 1:
            raise BuildError(f"{page}: no <head> to put the Content Security Policy in.")
        page.write_text(html, encoding="utf-8")
        count += 1
    return count


def write_service_worker(site: Path, build_id: str) -> Path:
    """Step 5c: the service worker that keeps the estimator working offline on a repeat
    visit. Its cache is named after a hash of everything it keeps, so any change to the
    site (a new rate, a new engine) makes a new cache and drops the old one."""
    keep = ["estimate/", *(f"{p.relative_to(site).as_posix()}" for p in sorted((site / "pyodide").iterdir())),
            *(p.relative_to(site).as_posix() for p in sorted((site / "engine").rglob("*.whl"))),
            *(p.relative_to(site).as_posix() for p in sorted((site / "assets").rglob("*"))
              if p.is_file() and p.suffix in (".js", ".css") and not {"workers", "lunr"} & set(p.parts))]
    digest = hashlib.sha256(build_id.encode())
    for rel in keep:
        target = site / rel / "index.html" if rel.endswith("/") else site / rel
        digest.update(rel.encode() + b"\0" + target.read_bytes())
    version = digest.hexdigest()[:16]
    template = (ROOT / "docs" / "templates" / "service-worker.js").read_text(encoding="utf-8")
    script = template.replace("__VERSION__", version).replace("__KEEP__", json.dumps(keep, indent=2))
    path = site / "sw.js"
    path.write_text(script, encoding="utf-8")
    return path


class BuildError(Exception):
    """A step failed; the message says what to fix. site/ is left as it was."""


def build(site: Path = ROOT / "site", rules_dir: Path | None = None) -> Path:
    import shutil
    import tempfile
    import time
    started = time.perf_counter()
    site = Path(site).resolve()
    site.parent.mkdir(parents=True, exist_ok=True)
    # staged beside the target, so the final swap is a rename on one file system
    staging = Path(tempfile.mkdtemp(prefix=".site-build-", dir=site.parent))
    try:
        step("Checking the rules")
        rules = validate_rules(rules_dir)
        step("Rendering the pages from the rules")
        docs = stage_docs(staging)
        ctx = page_context(rules, build_date())  # once: the pages and the notices share it
        build_id = ctx["build_id"]
        render_pages(rules, docs, ctx)
        publish_notices(ctx["notices"], docs)
        build_application_pdf(rules, docs)
        build_due_dates_calendar(rules, docs, build_date())
        step("Packing the calculator and the rules for the browser")
        build_engine_wheel(rules, docs / "engine" / build_id)
        build_pypdf_wheel(docs / "engine")
        step("Copying Pyodide (Python for the browser)")
        copy_pyodide(docs)
        step("Building the site with mkdocs")
        run_mkdocs(docs, staging / "site")
        step("Adding the security policy and the offline cache")
        secure_pages(staging / "site")
        write_service_worker(staging / "site", build_id)
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
    """The system's Chromium (Debian's package), or Chrome where that is what the machine has.
    The browser tests prefer Playwright's own Chromium when it is installed (tests/browser/conftest.py)."""
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
    # Debian packages the tests need: Chromium (browser tests) and Java (the Nu Html Checker)
    missing = [pkg for pkg, present in (("chromium", find_chromium()), ("default-jre-headless", shutil.which("java")))
               if with_tests and not present]
    if missing:
        if os.geteuid() == 0 and shutil.which("apt-get"):
            env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
            _run(["apt-get", "update", "-qq"], env=env)
            _run(["apt-get", "install", "-y", "-qq", *missing], env=env)
        else:
            raise SystemExit(f"The tests need {' and '.join(missing)}. Install with "
                             f"`sudo apt-get install {' '.join(missing)}` (Debian/Ubuntu) and run the tests again.")


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
