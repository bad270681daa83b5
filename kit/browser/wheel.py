"""Packing Python for the browser: the engine with the compiled rules, and pypdf, each
as a pure py3-none-any wheel with fixed timestamps, so one commit gives the same bytes."""
from __future__ import annotations

import base64
import hashlib
import io
import json
import zipfile
from pathlib import Path

import calculator
from calculator.core.files import write_atomic

ENGINE = Path(calculator.__file__).resolve().parent
WHEEL_NAME = "pawling_sewer_kit"
# Fixed timestamp inside zip files, so two builds of one commit are identical.
ZIP_TIME = (1980, 1, 1, 0, 0, 0)


def engine_version() -> str:
    import calculator
    return calculator.__version__


def engine_build_id(rules: dict, rules_dir: Path | None = None) -> str:
    """A short hash of the engine's code, the compiled rules and its translations. The wheel
    is served from engine/<id>/, so a rebuilt site with a changed rate (or a corrected
    translation) never gets an old cached engine."""
    digest = hashlib.sha256(json.dumps(rules, sort_keys=True, ensure_ascii=False).encode())
    for rel, data in engine_translations(rules, rules_dir).items():
        digest.update(rel.encode() + b"\0" + data)
    for rel, data in package_files(ENGINE, only=("*.py",)).items():
        digest.update(rel.encode() + b"\0" + data)
    # the standard library the engine runs on is served beside it (kit/browser/stdlib.py)
    from .stdlib import MODULES
    for path in (MODULES, Path(__file__).with_name("stdlib.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    digest.update(pyodide_version().encode())
    return digest.hexdigest()[:12]


def pyodide_version() -> str:
    """The Pyodide the site ships (node_modules/pyodide, pinned by package-lock.json)."""
    package = ENGINE.parent / "node_modules" / "pyodide" / "package.json"
    return json.loads(package.read_text(encoding="utf-8"))["version"] if package.exists() else "none"


def engine_translations(rules: dict, rules_dir: Path | None = None) -> dict[str, bytes]:
    """The engine's catalogues as the wheel packs them: calculator/locale/<lang>.json
    (engine.po and rules.po, with each rule's parameters filled in; calculator/core/i18n.py)."""
    from calculator.core.i18n import LANGUAGES, SOURCE

    from ..words.messages import WHEEL_DOMAINS, translations
    from ..rules.validate import RULES_DIR
    return {f"calculator/locale/{lang}.json": json.dumps(
                translations(lang, WHEEL_DOMAINS, rules_dir or RULES_DIR, rules["parameters"]),
                sort_keys=True, ensure_ascii=False).encode()
            for lang in LANGUAGES if lang != SOURCE}


def build_engine_wheel(rules: dict, out_dir: Path, rules_dir: Path | None = None) -> Path:
    """Step 3: the engine and the compiled rules as a pure py3-none-any wheel. Its translations
    are served beside it, one file a language (write_engine_catalogues), not in it: a page
    downloads only its own language's."""
    # the whole engine (it is all standard library), compiled by the browser's Python
    files = compiled_files(package_files(ENGINE, only=("*.py",)))
    files["calculator/compiled_rules.json"] = json.dumps(rules, sort_keys=True, ensure_ascii=False).encode()
    files = dict(sorted(files.items()))
    # stored, not deflated: the site sends it xz-compressed as one stream (kit/browser/xz.py)
    return write_wheel(WHEEL_NAME, engine_version(), files, out_dir,
                       summary="The Town of Pawling sewer-use law as a calculator", stored=True)


def compiled_files(files: dict[str, bytes]) -> dict[str, bytes]:
    """The engine's modules as the bytecode of the browser's Python (Pyodide's, compiled in Node:
    kit/browser/stdlib.py's `compiled`), line numbers kept: `x.py` becomes `x.pyc`. Python then does
    not compile the engine in the browser as it imports it (0.4 s of a first estimate's, on
    this machine). Kept by kit/buildcache.py, named by the sources."""
    from .. import buildcache
    from . import stdlib
    sources = stdlib.stored_zip(dict(sorted(files.items())))
    made = buildcache.cached("engine-pyc", [sources, *stdlib.compiler()],
                             lambda: stdlib.compiled(sources, keep_lines=True))
    with zipfile.ZipFile(io.BytesIO(made)) as zf:
        return {info.filename: zf.read(info) for info in zf.infolist()}


def write_engine_catalogues(rules: dict, out_dir: Path, rules_dir: Path | None = None) -> list[Path]:
    """Step 3a: each language's catalogue beside the engine's wheel, as locale/<lang>.json in
    engine/<build id>/: the calculator's worker fetches the page's language's only and gives it
    to the engine (calculator.core.i18n.add_catalogue), so an English visitor never downloads the
    Spanish one (about 55 KB), nor the reverse."""
    return [write_atomic(Path(out_dir) / "locale" / Path(rel).name, data)
            for rel, data in engine_translations(rules, rules_dir).items()]


def build_pypdf_wheel(out_dir: Path, stdlib_zip: Path | None = None) -> Path:
    """Step 3b: the installed pypdf (pure Python) as a wheel beside the engine, so the
    browser can fill the permit application with calculator.permits.application.fill_pdf. With
    `stdlib_zip` (Pyodide's python_stdlib.zip), also the standard-library modules only pypdf
    imports (kit/browser/stdlib.py: pypdf_modules), which the site's trimmed library leaves out:
    they load with pypdf, on use, not before an estimate."""
    import importlib.metadata

    import pypdf
    dist = importlib.metadata.distribution("pypdf")
    files = package_files(Path(pypdf.__file__).parent)
    if stdlib_zip is not None:
        from .stdlib import pypdf_files
        files.update(pypdf_files(stdlib_zip))
        files = dict(sorted(files.items()))
    licences = {}
    for f in dist.files or []:
        if f.name.upper().startswith(("LICENSE", "LICENCE", "COPYING")):
            licences[f"licenses/{f.name}"] = Path(dist.locate_file(f)).read_bytes()
    return write_wheel("pypdf", dist.version, files, out_dir, summary=dist.metadata["Summary"] or "",
                       dist_files=licences)


def package_files(package_dir: Path, only: tuple[str, ...] = ("*",)) -> dict[str, bytes]:
    """A package folder's files, keyed by their path in a wheel (`pkg/sub/mod.py`), in
    sorted order; bytecode caches are left out."""
    package_dir = Path(package_dir)
    files: dict[str, bytes] = {}
    for path in sorted(p for pattern in only for p in package_dir.rglob(pattern)):
        rel = path.relative_to(package_dir)
        if not path.is_file() or "__pycache__" in rel.parts or path.suffix == ".pyc":
            continue
        files[f"{package_dir.name}/{rel.as_posix()}"] = path.read_bytes()
    return dict(sorted(files.items()))


def write_wheel(name: str, version: str, files: dict[str, bytes], out_dir: Path, summary: str = "",
                dist_files: dict[str, bytes] | None = None, stored: bool = False) -> Path:
    """Write these files as a pure py3-none-any wheel (METADATA, WHEEL, top_level.txt and
    RECORD added), with fixed timestamps and order, so one input gives the same bytes; its
    entries deflated, or `stored` as they are."""
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
    method = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
    with zipfile.ZipFile(buf, "w", method) as zf:
        for rel, data in files.items():
            info = zipfile.ZipInfo(rel, ZIP_TIME)
            info.compress_type = method
            info.external_attr = 0o644 << 16
            zf.writestr(info, data)
    write_atomic(target, buf.getvalue())
    return target


def pypdf_wheel_name() -> str:
    import importlib.metadata
    return f"pypdf-{importlib.metadata.version('pypdf')}-py3-none-any.whl"
