"""Building the site: named steps into a staging folder beside site/, swapped in only
when every step has passed, so a failed build keeps the previous site."""
from __future__ import annotations

import functools
import http.server
import logging
import mimetypes
import os
import re
import shutil
import signal
import sys
import tempfile
import time
import urllib.parse
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from calculator.core.files import write_atomic
from calculator.core.law import latest_enactment_date

from ..api.files import write_api
from ..browser import xz
from ..rules.config import project_config
from ..errors import BuildError
from ..documents.feed import publish_notices
from .harden import secure_pages, write_service_worker
from ..browser.stdlib import STDLIB_ZIP, trimmed_stdlib, write_empty_lock
from ..words.language import LANGUAGES, building
from .pages import build_date, render_language, stage_docs
from ..rules.validate import RULES_DIR, read_yaml
from ..browser.wheel import build_engine_wheel, build_pypdf_wheel, engine_build_id, write_engine_catalogues

ROOT = Path(__file__).resolve().parents[2]
# Pyodide's own files, as they come; its standard library and lock file are trimmed (kit/browser/stdlib.py)
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm")
WASM_XZ = "pyodide.asm.wasm.xz"
STALE_STAGING_SECONDS = 600  # a staging folder older than this is no build's still at work (a build takes ~30 s)  # what the worker fetches; the plain wasm if it cannot decode it


def validate_rules(rules_dir: Path | None = None) -> dict:
    """Step 1: read and check every rule file and every translation; stop with what to fix."""
    from ..words.messages import validate
    return validate(rules_dir or RULES_DIR)


def read_ahead(rules_dir: Path | None = None) -> None:
    """What every build reads first and needs no Pyodide for, read into the build cache (kit/buildcache.py) before
    a build: the repository's sources looked over for account data (2.4 s when not in the cache) and the rules
    with their catalogues (1.9 s), and the build's modules compiled. `build.py test` runs it while npm installs
    Pyodide (about 18 s, most of them waiting on the network), so its first two builds start from them."""
    from .. import privacy
    privacy.check_sources(ROOT)
    validate_rules(rules_dir)


def copy_pyodide(docs: Path, engine_dir: Path, wasm_xz: Future | None = None) -> Path:
    """Step 4: Pyodide's core files from node_modules (pinned by package-lock.json), its wasm
    also xz-compressed with the decoder the worker unpacks it with (kit/browser/xz.py), its lock file
    without the package list, and beside the engine's wheel the standard library the engine
    needs, trimmed (kit/browser/stdlib.py), also xz-compressed. `wasm_xz`: the wasm's compression,
    already started (`start_wasm_xz`)."""
    src = ROOT / "node_modules" / "pyodide"
    if not src.is_dir():
        raise BuildError("node_modules/pyodide is missing. Run `npm ci` first (python build.py install does it).")
    dst = docs / "pyodide"
    dst.mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_FILES:
        shutil.copy2(src / name, dst / name)
    write_atomic(dst / WASM_XZ, wasm_xz.result() if wasm_xz else xz.compressed(src / "pyodide.asm.wasm"))
    write_atomic(dst / xz.DECODER, xz.decoder_module())
    write_empty_lock(src / "pyodide-lock.json", dst / "pyodide-lock.json")
    xz.write_packed(write_atomic(engine_dir / STDLIB_ZIP, trimmed_stdlib(src / "python_stdlib.zip")))
    return dst


def start_wasm_xz() -> Future | None:
    """The wasm's xz compression (about 10 s when it is not in the build cache) started on a thread of
    its own: lzma lets go of the GIL, so on a second core it is done while the pages are rendered."""
    wasm = ROOT / "node_modules" / "pyodide" / "pyodide.asm.wasm"
    if not wasm.is_file():
        return None  # copy_pyodide says what to do
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="wasm-xz")
    future = pool.submit(xz.compressed, wasm)
    pool.shutdown(wait=False)
    return future


def run_mkdocs(docs: Path, site: Path, site_url: str | None = None) -> None:
    """Step 5: mkdocs build --strict on the staged pages (with the project's site_url: the
    sitemap's addresses and each page's canonical link)."""
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config
    from mkdocs.exceptions import Abort, ConfigurationError
    log = logging.getLogger("mkdocs")
    log.setLevel(logging.WARNING)
    if not log.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("  mkdocs %(levelname)s: %(message)s"))
        log.addHandler(handler)
    said: list[str] = []

    class Kept(logging.Handler):  # what mkdocs warned about, to say what to do (hostile26 #9)
        def emit(self, record):
            said.append(record.getMessage())
    kept = Kept(logging.WARNING)
    log.addHandler(kept)
    try:
        config = load_config(config_file=str(ROOT / "mkdocs.yml"), docs_dir=str(docs), site_dir=str(site),
                             strict=True, **({"site_url": site_url} if site_url else {}),
                             theme={"name": "material", "custom_dir": str(ROOT / "docs" / "overrides"),
                                    **_theme_options()},
                             hooks=[str(ROOT / "kit" / "site" / "theme_hooks.py")])
        mkdocs_build(config)
    except (Abort, ConfigurationError) as exc:
        if any("not included in the \"nav\"" in m for m in said):  # a new page that the menu does not list
            pages = [m.split(":", 1)[-1].replace("\n", " ").replace(" - ", " ").strip(" -")
                     for m in said if "not included in the \"nav\"" in m]
            raise BuildError(f"mkdocs refused the pages: a page is not in the site's menu ({'; '.join(pages)[:300]}). "
                             "Add it under nav: in mkdocs.yml, run `python3 build.py messages` and translate its "
                             "title in rules/locale/es/pages.po, then build again.") from None
        raise BuildError(f"mkdocs refused the pages: {exc}. The warnings above say which page and link to fix.")
    finally:
        log.removeHandler(kept)


def _theme_options() -> dict:
    theme = dict(read_yaml(ROOT / "mkdocs.yml")["theme"])
    theme.pop("name", None)
    theme.pop("custom_dir", None)
    return theme


def unlist_noindex_pages(site: Path) -> None:
    """Step 5b: a page marked noindex (front matter `robots: noindex`, like the Clerk's desk) is
    left out of sitemap.xml, which lists only what search engines should index."""
    sitemap = site / "sitemap.xml"
    if not sitemap.exists():
        return
    text = sitemap.read_text(encoding="utf-8")
    for html in site.rglob("index.html"):
        if '<meta name="robots" content="noindex">' in html.read_text(encoding="utf-8"):
            rel = html.parent.relative_to(site).as_posix()
            text = re.sub(rf"\s*<url>\s*<loc>[^<]*/{re.escape(rel)}/</loc>.*?</url>", "", text, flags=re.S)
    sitemap.write_text(text, encoding="utf-8")
    gz = site / "sitemap.xml.gz"
    if gz.exists():
        import gzip
        gz.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))


def write_billing_sample(docs: Path, rules: dict) -> dict[str, bytes]:
    """Step 2a': the small fictional sample the Clerk's bill-run page offers (/billing-sample/), made
    from the rules being built: its earlier register is billed by them, so an amended penalty, due
    date, minimum or rate shows in it. (The privacy guard has run before: it is never in docs/.)"""
    from ..billrun.sample import DOCS_COUNT, DOCS_FOLDER, sample_files
    folder = docs / DOCS_FOLDER
    folder.mkdir()
    written = {}
    for name, text in sample_files(DOCS_COUNT, rules=rules).items():
        (folder / name).write_text(text, encoding="utf-8")
        written[f"{DOCS_FOLDER}/{name}"] = (folder / name).read_bytes()
    return written  # what the built site's privacy check knows as the build's own (fictional) sample


def swap_in(new_site: Path, site: Path) -> None:
    """Step 6: replace site/ with the new build only now that every step has passed."""
    old = site.with_name(f".site-old-{os.getpid()}")
    if site.exists():
        os.replace(site, old)
    os.replace(new_site, site)
    shutil.rmtree(old, ignore_errors=True)


def sweep_staging(folder: Path) -> None:
    """Remove the staging folders that stopped builds left beside site/ (the fourth hostile tester:
    SIGTERM; the seventh: SIGKILL, when no clean-up runs at all, left 20 MB that the next build kept): each
    whose build (the process named in it) has ended, never one a build still at work is using. A folder
    named before builds named theirs (.site-build-xxxx) goes once it is older than any build takes."""
    for old in folder.glob(".site-build-*"):
        try:
            if not old.is_dir() or old.is_symlink():
                continue
            pid = re.match(r"\.site-build-(\d+)-", old.name)
            if (not _running(int(pid.group(1))) if pid
                    else time.time() - old.stat().st_mtime > STALE_STAGING_SECONDS):
                shutil.rmtree(old, ignore_errors=True)
        except OSError:
            pass


def _running(pid: int) -> bool:
    """Whether a process with this id is running (one of another user's is: it cannot be signalled)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True
    return True


def check_votes_held(rules: dict, today) -> None:
    """Refuse (BuildError) to publish a schedule as adopted by a vote dated after the day the site is built for:
    the desk records a vote dated ahead when told the computer's date is wrong, and the site then said "The Town
    adopted the 2027 rates" 17 days before the meeting (the outside usability test clerk12, high)."""
    ahead = [(s["id"], s["adoption"]) for s in rules["schedules"]
             if s.get("adoption") and max(s["adoption"].get("date", ""), s["adoption"].get("recorded_on", "")) > today.isoformat()]
    if ahead:
        sid, vote = ahead[0]
        raise BuildError(f"Not publishing: the vote on rate schedule {sid} is dated {vote['date']}"
                         + (f", recorded on {vote['recorded_on']}" if vote.get("recorded_on") else "")
                         + f", after today ({today.isoformat()}). A schedule is published as adopted only once the "
                         f"Board has voted. If the vote has not been held, take rules/rate-schedules/{sid}/vote.yaml "
                         f"out of the repository (git rm) until it has; if it was, correct its date. Then build again.")


def build(site: Path = ROOT / "site", rules_dir: Path | None = None, site_url: str | None = None,
          preview: bool = False, draft: bool | None = None) -> Path:
    """Build the site into `site`. `site_url`, when given, is the address the site is published
    at, in place of mkdocs.yml's (the publish workflow passes GitHub Pages' own). In a git checkout it is
    built only from files git has been given as they are (privacy.check_given_to_git), but for a `draft`:
    `build.py serve`'s preview (the default when `preview`) and the site the tests read, never published."""
    started = time.perf_counter()
    building(rules_dir)  # the catalogues are read afresh for each build, from its rules/
    site = Path(site).resolve()
    site.parent.mkdir(parents=True, exist_ok=True)
    sweep_staging(site.parent)
    # staged beside the target, so the final swap is a rename on one file system; named by this process,
    # so a later build knows whether the build that made it is still at work
    staging = Path(tempfile.mkdtemp(prefix=f".site-build-{os.getpid()}-", dir=site.parent))
    wasm_xz = start_wasm_xz()
    try:
        config = project_config(rules_dir)  # the site's address and repository (mkdocs.yml)
        if site_url:
            config = {**config, "site_url": site_url.rstrip("/") + "/"}
        check_site_url(config["site_url"], "--site-url" if site_url else f"site_url in {config['file']}", preview)
        step("Checking that no account file would be published")
        from .. import privacy
        # the pages, the rules and the engine the browser runs (calculator/, shipped whole: the twenty-eighth
        # hostile tester published a string from an untracked module of the engine), and the code that makes them
        held = () if (preview if draft is None else draft) else (
            ROOT / "docs", Path(rules_dir or ROOT / "rules"), ROOT / "mkdocs.yml", ROOT / "calculator", ROOT / "kit",
            ROOT / "build.py")
        privacy.check_given_to_git(ROOT, *held)
        privacy.check(ROOT / "docs", Path(rules_dir or ROOT / "rules"), pictures=config["pictures"])
        privacy.check_repository(ROOT)
        if rules_dir is None:  # comments and all (the twelfth hostile tester, F3); a build of a copy of the rules
            privacy.check_sources(ROOT)  # (an amendment tried in a copy: the tests) reads the same repository again
        step("Checking the rules")
        rules = validate_rules(rules_dir)
        check_votes_held(rules, build_date())
        step("Rendering the pages from the rules, in English and in Spanish")
        docs = stage_docs(staging)
        step("Making the fictional bill-run sample, billed by these rules")
        sample = write_billing_sample(docs, rules)
        build_id = engine_build_id(rules, rules_dir)  # one engine for every language
        # once per language: the pages, the notices and the documents share it
        contexts = {lang: render_language(rules, docs, lang, build_date(), config, rules_dir, build_id)
                    for lang in LANGUAGES}
        ctx = contexts["en"]
        # the feed carries each notice in every language, each linking to its own page
        publish_notices(ctx["notices"], docs, latest_enactment_date(rules) or "1970-01-01", config["site_url"],
                        {lang: c["notices"] for lang, c in contexts.items() if lang != "en"},
                        {lang: c["feed_words"] for lang, c in contexts.items()})
        step("Writing the law's numbers as data for other programs (api/)")
        write_api(rules, docs, build_id, build_date().isoformat(), config["site_url"], rules_dir)
        step("Packing the calculator and the rules for the browser")
        xz.write_packed(build_engine_wheel(rules, docs / "engine" / build_id, rules_dir))
        write_engine_catalogues(rules, docs / "engine" / build_id, rules_dir)
        step("Copying Pyodide (Python for the browser) and the standard library the engine needs")
        copy_pyodide(docs, docs / "engine" / build_id, wasm_xz)
        # pypdf, with the standard-library modules only it imports (loaded when a page fills the application)
        build_pypdf_wheel(docs / "engine", ROOT / "node_modules" / "pyodide" / "python_stdlib.zip")
        step("Building the site with mkdocs")
        run_mkdocs(docs, staging / "site", config["site_url"])
        unlist_noindex_pages(staging / "site")
        step("Adding the security policy and the offline cache")
        secure_pages(staging / "site", ROOT / "docs")
        write_service_worker(staging / "site", build_id)
        step("Reading the built site for account data")
        privacy.check_site(staging / "site", generated=sample,
                           copied={f"pyodide/{name}": ROOT / "node_modules" / "pyodide" / name for name in PYODIDE_FILES})
        # and again once built: a file changed while the build read it (the twenty-ninth hostile tester changed the
        # theme's override after the first look, and every page carried it)
        privacy.check_given_to_git(ROOT, *held)
        step("Publishing to site/")
        swap_in(staging / "site", site)
    finally:
        if wasm_xz:
            wasm_xz.cancel() or wasm_xz.exception()  # a failed build still waits for its thread to end
        shutil.rmtree(staging, ignore_errors=True)
    print(f"Built {site} in {time.perf_counter() - started:.1f} s", flush=True)
    return site


def check_site_url(url, where: str, preview: bool = False) -> None:
    """Refuse (BuildError) a site address that is not a plain http(s) address: pages, the feed and the
    calendar write it as it is (the fifth hostile tester: a script in it was run on every page). Refuse this
    computer's own address (localhost, 127.…) too, except for `build.py serve`'s preview: the site keeper of the
    usability test built with http://127.0.0.1:8803/ and the public hearing notice printed it (issue 34)."""
    from urllib.parse import urlsplit
    from ..billrun.command import own_computer  # (the bill run's test: calculator.cli's, not this room's to import)
    from ..rules.config import plain_web_address
    if url is not None and not plain_web_address(str(url)):
        raise BuildError(f"{where} {str(url)!r} is not a web address: give the address the site is published at, "
                         "like https://OWNER.github.io/REPO/ (http or https, with no quotes, <, >, spaces, "
                         "? or #).")
    if url is not None and not preview and own_computer(urlsplit(str(url)).hostname or ""):
        raise BuildError(f"{where} {str(url)!r} is this computer's own address: nobody else can open it, yet the "
                         "notices, the feed and the calendars would print it. Give the site's public address, "
                         "which the Town gives you (like https://sewer.pawling.example/). If the site has none yet, "
                         "leave site_url out of mkdocs.yml and give no --site-url: the notices then name the Town "
                         "Clerk's office alone. To look at the site on this computer, run python3 build.py serve.")


def step(name: str) -> None:
    print(f"- {name}", flush=True)


def serve(site: Path = ROOT / "site", host: str = "127.0.0.1", port: int = 8000, headers: dict | None = None):
    """Serve site/ with the types Pyodide needs (.mjs as JavaScript, .wasm for streaming compile).
    `headers`: sent with every response (the link check's "LinkChecker", which lets it ask faster)."""
    mimetypes.add_type("text/javascript", ".mjs")
    mimetypes.add_type("application/wasm", ".wasm")

    class Handler(http.server.SimpleHTTPRequestHandler):
        extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                          ".mjs": "text/javascript", ".wasm": "application/wasm", ".js": "text/javascript",
                          ".whl": "application/zip", ".xz": "application/x-xz", ".zip": "application/zip", ".ics": "text/calendar",
                          ".xml": "application/xml"}

        def log_message(self, *args):
            pass

        def end_headers(self):
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            super().end_headers()

        def send_error(self, code, message=None, explain=None):
            """A missing address gets the site's own "not found" page (404.html: what to do, in
            each language), with status 404, as GitHub Pages answers, not Python's English error
            page. Under a language's folder (/es/…) it is that language's own (es/404.html), all in
            that language (on GitHub Pages, assets/not-found.js opens it)."""
            page = Path(site) / "404.html"
            head, sep, _rest = urllib.parse.urlsplit(self.path).path.lstrip("/").partition("/")
            if sep and head and (Path(site) / head / "404.html").is_file():
                page = Path(site) / head / "404.html"
            if code != 404 or not page.is_file():
                return super().send_error(code, message, explain)
            body = page.read_bytes()
            self.send_response(404, message)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Connection", "close")
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

    class Server(http.server.ThreadingHTTPServer):
        # a browser opening an engine page asks for a dozen files at once, and its service worker for the rest;
        # socketserver's backlog of 5 refused connections on a loaded machine ("Failed to fetch dynamically
        # imported module: …/pyodide/pyodide.mjs" at the end of the tests' first-visit walk, December 6)
        request_queue_size = 128
        daemon_threads = True

    server = Server((host, port), functools.partial(Handler, directory=str(site)))
    return server


class Stopped(KeyboardInterrupt):
    """A build stopped by SIGTERM or SIGHUP, as Ctrl-C stops it (its `finally` removes the staging folder),
    with the signal's number: the exit status is 128 + that number (143, 129)."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def _stop(signum, frame):
    for s in _STOPS:  # a second signal does not cut the clean-up short
        signal.signal(s, signal.SIG_IGN)
    raise Stopped(signum)


_STOPS = [s for s in (signal.SIGTERM, getattr(signal, "SIGHUP", None)) if s is not None]


def build_or_report(site: Path = ROOT / "site", site_url: str | None = None, preview: bool = False) -> bool:
    """Build; on a refusal print what to fix (site/ unchanged) and return False. Stopped by SIGTERM or
    a hang-up (the fifth hostile tester: exit 143 with no word, and up to 20 MB of staging left behind),
    the build removes its staging folder, says so, and exits 128 + the signal's number, as the bill run
    does (kit/billrun/command.py)."""
    from ..rules.validate import RuleError
    previous = {}
    try:  # (only the main thread may set a handler; a build in another thread keeps Python's)
        previous = {s: signal.signal(s, _stop) for s in _STOPS
                    if s == signal.SIGTERM or signal.getsignal(s) != signal.SIG_IGN}  # nohup keeps its own
    except ValueError:
        pass
    try:
        build(site, site_url=site_url, preview=preview)
    except Stopped as exc:
        print(f"\nThe build was stopped ({signal.Signals(exc.signum).name}); site/ is unchanged and nothing was "
              "left behind.", file=sys.stderr)
        raise SystemExit(128 + exc.signum) from None
    except RuleError as exc:
        print("The build stopped; site/ is unchanged. Fix these in rules/:", file=sys.stderr)
        for p in exc.problems:
            print("  " + p, file=sys.stderr)
        return False
    except BuildError as exc:
        print(f"The build stopped; site/ is unchanged. {exc}", file=sys.stderr)
        return False
    except OSError as exc:  # a full or read-only disk under the staging folder (the seventeenth hostile tester, F2:
        # "the output could not be written", as if standard output were full; copying a folder, a traceback)
        if isinstance(exc, shutil.Error) and exc.args and isinstance(exc.args[0], list) and exc.args[0]:
            found = re.search(r"\] ([^:]+)", str(exc.args[0][0][2]))
            why = found.group(1) if found else str(exc.args[0][0][2])
        elif exc.filename is not None and exc.errno is not None:
            why = exc.strerror
        else:
            raise
        print(f"The build stopped; site/ is unchanged. The new site could not be written beside it, in "
              f"{site.resolve().parent} ({why}). Free some space, or make the folder writable, and build again.",
              file=sys.stderr)
        return False
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
    return True


def free_port(host: str, after: int) -> int:
    """A port after `after` that nothing listens on now (the twelfth hostile tester: the port suggested after a
    busy one was busy too), or 8001 when none of the next 50 is."""
    import socket
    for port in range(after + 1, min(after + 51, 65536)):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            try:
                s.bind((host, port))
            except OSError:
                continue
            return port
    return 8001


def serve_or_report(site: Path = ROOT / "site", host: str = "127.0.0.1", port: int = 8000):
    """The server at `port` (serve), or None after saying why it cannot be had: a port another program
    uses (the fifth hostile tester: "the output could not be written (Address already in use)", 74)."""
    import errno
    try:
        return serve(site, host, port)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            print(f"Port {port} is in use by another program, so the site cannot be served there. Serve it at "
                  f"another port: `python3 build.py serve --port {free_port(host, port)}`.", file=sys.stderr)
        elif exc.errno == errno.EACCES:
            print(f"Port {port} may not be used by this user (ports below 1024 need an administrator). Choose "
                  f"another: `python3 build.py serve --port 8000`.", file=sys.stderr)
        else:
            print(f"The site cannot be served at port {port} ({exc.strerror or exc}). Choose another port: "
                  f"`python3 build.py serve --port 8001`.", file=sys.stderr)
        return None


def serve_forever(site: Path = ROOT / "site", host: str = "127.0.0.1", port: int = 8000, server=None) -> None:
    server = server or serve(site, host, port)
    host, port = server.server_address[:2]
    print(f"Serving the site at http://{host}:{port}/ (Ctrl+C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
