"""What makes the built site safe to serve: a Content Security Policy on every page,
and the service worker that keeps the estimator working offline."""
from __future__ import annotations

import base64
import hashlib
import json
import re
from pathlib import Path

from ..browser import xz
from ..errors import BuildError

TEMPLATES = Path(__file__).resolve().parents[2] / "docs" / "templates"

CSP = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval' {hashes}; style-src 'self'; "
       "img-src 'self' data: blob:; font-src 'self'; connect-src 'self'; worker-src 'self'; "
       "object-src 'none'; base-uri 'self'; form-action 'self'")


def source_of(page: Path, site: Path, docs: Path | None) -> str:
    """The file under docs/ a built page comes from, as a person finds it (the fifth hostile tester: the
    build named its temporary copy, /tmp/…/.site-build-…/site/notes/x.html); else the page's address."""
    rel = page.relative_to(site)
    if docs is not None:
        stem = rel.parent if rel.name == "index.html" else rel.with_suffix("")
        for candidate in (rel, stem.with_suffix(".md"), stem / "index.md", stem / "README.md"):
            if candidate.parts and (docs / candidate).is_file():
                return str(Path(docs.name) / candidate)
    return f"the built page {rel.as_posix()}"


def secure_pages(site: Path, docs: Path | None = None) -> int:
    """Step 5b: a Content Security Policy on every page. Scripts only from this site,
    WebAssembly allowed (Pyodide needs 'wasm-unsafe-eval', not 'unsafe-eval'), and the
    theme's two small inline scripts allowed by their hashes, page by page. `docs`: the
    pages' sources, to name the one a page without a <head> comes from."""
    count = 0
    for page in sorted(site.rglob("*.html")):
        html = page.read_text(encoding="utf-8")
        inline = re.findall(r"<script>(.*?)</script>", html, flags=re.S)
        hashes = " ".join(f"'sha256-{base64.b64encode(hashlib.sha256(s.encode()).digest()).decode()}'"
                          for s in dict.fromkeys(inline))
        meta = f'<meta http-equiv="Content-Security-Policy" content="{CSP.format(hashes=hashes)}">'
        html, n = re.subn(r"<head>", "<head>\n    " + meta, html, count=1)
        if n != 1:
            raise BuildError(f"{source_of(page, site, docs)}: no <head> to put the Content Security Policy in. "
                             "Give the page a whole <html><head>…</head><body>…</body></html>, or write it as "
                             "a Markdown (.md) page.")
        page.write_text(html, encoding="utf-8")
        count += 1
    return count


def sha256_b64(data: bytes) -> str:
    """A file's SHA-256 as Subresource Integrity writes it (base64), without its "sha256-"."""
    return base64.b64encode(hashlib.sha256(data).digest()).decode()


def write_service_worker(site: Path, build_id: str) -> Path:
    """Step 5c: the service worker that keeps the estimator working offline on a repeat
    visit. Its cache is named after a hash of everything it keeps, so any change to the
    site (a new rate, a new engine) makes a new cache and drops the old one."""
    # Pyodide's files, as the worker keeps them: the wasm decoded (from the .xz it fetched), so
    # neither the .xz nor its decoder is needed offline, and neither is downloaded again for it
    keep = ["estimate/", *(f"{p.relative_to(site).as_posix()}" for p in sorted((site / "pyodide").iterdir())
                           if p.suffix != ".xz" and p.name != xz.DECODER),
            # the engine's wheel; pypdf is cached when a page first loads it (fetch handler below)
            *(p.relative_to(site).as_posix() for p in sorted((site / "engine").rglob("pawling_sewer_kit-*.whl"))),
            # and the standard library it runs on (kit/browser/stdlib.py)
            *(p.relative_to(site).as_posix() for p in sorted((site / "engine").rglob("python_stdlib.zip"))),
            *(p.relative_to(site).as_posix() for p in sorted((site / "assets").rglob("*"))
              if p.is_file() and p.suffix in (".js", ".css") and not {"workers", "lunr"} & set(p.parts))]
    digest = hashlib.sha256(build_id.encode())
    for rel in keep:
        target = site / rel / "index.html" if rel.endswith("/") else site / rel
        digest.update(rel.encode() + b"\0" + target.read_bytes())
    version = digest.hexdigest()[:16]
    template = (TEMPLATES / "service-worker.js").read_text(encoding="utf-8")
    from ..browser.wheel import pyodide_version
    # the bytes each Pyodide or engine file must have to be served from a cache (Cache Storage is
    # the whole origin's: another site's page can write into it)
    served = {p.relative_to(site).as_posix(): p for folder in ("pyodide", "engine")
              for p in sorted((site / folder).rglob("*")) if p.is_file()}
    digests = {rel: sha256_b64(path.read_bytes()) for rel, path in sorted(served.items())}
    script = template.replace("__VERSION__", version).replace("__KEEP__", json.dumps(keep, indent=2)) \
        .replace("__PYODIDE__", pyodide_version()).replace("__DIGESTS__", json.dumps(digests, indent=2))
    path = site / "sw.js"
    path.write_text(script, encoding="utf-8")
    return path
