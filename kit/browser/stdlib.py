"""The browser's Python, trimmed for a phone on a slow link: only the standard-library
modules the site's Python imports (Pyodide's own start-up, the engine), without their
docstrings and comments, compiled to bytecode, and a package lock that names no package.
The modules only pypdf needs (xml, tarfile, uuid, …) travel in the pypdf wheel, as source,
loaded when a page fills the application, so no estimate waits for them.

Pyodide's python_stdlib.zip is 2.5 MB of compressed source, already compressed, so the
server's gzip saves nothing on it; a visitor waits for every byte of it before Python
starts, and Python then compiles every module it imports. The trimmed one holds the kept
modules' bytecode (`compiled`), stored uncompressed, and travels xz-compressed as a whole
(kit/browser/xz.py), which compresses across files. kit/browser/stdlib-modules.txt lists the modules kept;
tests/test_parity.py runs every YAML case and every page's request in Pyodide with this
library and fails, naming the module, when one is imported that the list lacks.

Stripping parses each module with this Python (3.11) and writes it back with
`ast.unparse`, docstrings dropped (as `python -OO` drops them). A module this Python
cannot parse (newer syntax) is kept as it is; tests/test_parity.py checks in Pyodide,
with Python 3.14's own parser, that every stripped module has the original's syntax tree.
The stripped sources are then compiled by Pyodide's Python (kit/browser/pyc.mjs).
"""
from __future__ import annotations

import ast
import functools
import io
import json
import sys
import zipfile
from pathlib import Path

from calculator.core.files import write_atomic

MODULES = Path(__file__).with_name("stdlib-modules.txt")
PYC_SCRIPT = Path(__file__).with_name("pyc.mjs")
# (not parents[2]: the parity test runs this file alone, from /tmp)
PYODIDE = Path(__file__).resolve().parent.parent.parent / "node_modules" / "pyodide"
# served beside the engine's wheel, in engine/<build id>/ (its id covers this library's inputs:
# kit.browser.wheel.engine_build_id), so a changed library is a new address the browser may keep for good
STDLIB_ZIP = "python_stdlib.zip"
ZIP_TIME = (1980, 1, 1, 0, 0, 0)


def listed_modules(path: Path = MODULES) -> dict[str, bool]:
    """{module: marked `# pypdf`} for each name in kit/browser/stdlib-modules.txt (one a line; # starts
    a comment, and `# pypdf` marks a module only pypdf and its loader import)."""
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        name, _, comment = line.partition("#")
        if name.strip():
            out[name.strip()] = comment.strip().startswith("pypdf")
    return out


def kept_modules(path: Path = MODULES) -> list[str]:
    """The modules python_stdlib.zip holds: every listed one but those that load with pypdf."""
    on_use = set(pypdf_modules(path))
    return sorted(m for m in listed_modules(path) if m not in on_use)


def pypdf_modules(path: Path = MODULES) -> list[str]:
    """The modules marked `# pypdf` that travel in the pypdf wheel (kit/wheel.build_pypdf_wheel),
    loaded only when a page fills the application: those of a package of their own. A module of
    a package the library keeps (encodings.cp1252, importlib.metadata) stays in the library,
    since Python looks for a package's modules in the package's own folder only."""
    listed = listed_modules(path)
    first = {m.split(".")[0] for m, marked in listed.items() if not marked}
    return sorted(m for m, marked in listed.items() if marked and m.split(".")[0] not in first)


def files_for(modules, names: set[str]) -> list[str]:
    """The zip entries that hold these modules (a package's __init__.py with each module in it)."""
    keep = set()
    for module in modules:
        parts = module.split(".")
        for i in range(1, len(parts)):
            init = "/".join(parts[:i]) + "/__init__.py"
            if init in names:
                keep.add(init)
        stem = "/".join(parts)
        keep.update(next(([f] for f in (stem + ".py", stem + "/__init__.py") if f in names), []))
    return sorted(keep)


def without_docstrings(tree: ast.AST) -> ast.AST:
    """The tree with the docstring of the module and of each class and function left out."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                node.body = node.body[1:] or [ast.Pass()]
    return tree


def stripped(source: bytes) -> bytes:
    """A module's source without docstrings and comments; as it is if this Python cannot parse it."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source
    return (ast.unparse(without_docstrings(tree)) + "\n").encode("utf-8")


def stripped_files(full_zip: Path, modules) -> dict[str, bytes]:
    """{zip entry: stripped source} of the files that hold these modules, in sorted order."""
    with zipfile.ZipFile(full_zip) as src:
        return {name: stripped(src.read(name)) for name in files_for(modules, set(src.namelist()))}


def trimmed_stdlib(full_zip: Path, modules=None) -> bytes:
    """A python_stdlib.zip holding only these modules (default: kit/browser/stdlib-modules.txt's but
    pypdf's), stripped and compiled, with fixed timestamps and order, so one input gives the
    same bytes."""
    modules = tuple(kept_modules() if modules is None else modules)
    stat = Path(full_zip).stat()
    return _trimmed(str(Path(full_zip).resolve()), stat.st_mtime_ns, stat.st_size, modules)


# One process (a test worker, `build.py serve`) builds the site many times from one
# Pyodide: the 6-8 s of stripping and the 5 s of compiling are done once for each zip and list
# of modules. Between processes, kit/buildcache.py keeps it on disk, named by the zip's bytes, the
# modules, this file's code, kit/browser/pyc.mjs, Pyodide's package.json and Python's version (ast.unparse
# writes differently from version to version).
@functools.lru_cache(maxsize=4)
def _trimmed(full_zip: str, _mtime_ns: int, _size: int, modules: tuple) -> bytes:
    # imported here: the parity test runs this file on its own in Pyodide (its `stripped`), without the kit
    from .. import buildcache
    return buildcache.cached("stdlib", [Path(full_zip).read_bytes(), "\n".join(modules), buildcache.source_of(
        sys.modules[__name__]), *compiler()], lambda: _trim(full_zip, modules))


def _trim(full_zip: str, modules: tuple) -> bytes:
    return compiled(stripped_sources(full_zip, modules))


def stripped_sources(full_zip, modules=None) -> bytes:
    """The zip of stripped sources the trimmed library is compiled from (tests/test_parity.py
    compares each with Pyodide's own, by Python 3.14's parser), kept by kit/buildcache.py."""
    modules = tuple(kept_modules() if modules is None else modules)
    from .. import buildcache
    return buildcache.cached("stdlib-sources", [Path(full_zip).read_bytes(), "\n".join(modules),
                                                buildcache.source_of(sys.modules[__name__])],
                             lambda: _zipped_sources(full_zip, modules))


def _zipped_sources(full_zip, modules: tuple) -> bytes:
    return stored_zip(stripped_files(full_zip, modules))


def stored_zip(files: dict[str, bytes]) -> bytes:
    """These files as a zip whose entries are stored, with fixed timestamps, in this order."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as out:
        for name, data in files.items():
            info = zipfile.ZipInfo(name, ZIP_TIME)
            info.compress_type = zipfile.ZIP_STORED
            info.external_attr = 0o644 << 16
            out.writestr(info, data)
    return buf.getvalue()


def compiler() -> list[bytes]:
    """What bytecode made by `compiled` depends on besides its sources, for kit/buildcache.py's
    names: kit/browser/pyc.mjs and the Pyodide (its package.json) it runs."""
    return [PYC_SCRIPT.read_bytes(), (PYODIDE / "package.json").read_bytes()]


def compiled(sources: bytes, keep_lines: bool = False) -> bytes:
    """A zip of Python sources as a zip of the same modules' bytecode, compiled by Pyodide's own
    Python in Node (kit/browser/pyc.mjs; this Python is another version, whose bytecode Pyodide's cannot
    read). Python compiles every module it imports from source at each start: about 2.3 s of a
    first start's 3.3 s went to compiling the library's sources (measured in Node on the site's
    library). The bytecode, without line tables, is 636 KB xz-compressed against the sources'
    387 KB: 1.2 s more on a 200 KB/s link for 2.3 s less of work that cannot start before the
    last byte has come. `keep_lines` keeps each line's number (the engine's own modules)."""
    import shutil
    import subprocess
    import tempfile

    from ..errors import BuildError
    node = shutil.which("node")
    if not node:
        raise BuildError("Node.js is missing: the build compiles the browser's standard library with Pyodide "
                         "in Node. Install it (python build.py install does it).")
    with tempfile.TemporaryDirectory(prefix="pawling-pyc-") as tmp:
        src, out = Path(tmp, "sources.zip"), Path(tmp, "bytecode.zip")
        src.write_bytes(sources)
        proc = subprocess.run([node, str(PYC_SCRIPT), str(src), str(out), *(["--keep-lines"] if keep_lines else [])],
                              capture_output=True, text=True, cwd=PYC_SCRIPT.parents[2])
        if proc.returncode or not out.is_file():
            raise BuildError("Pyodide could not compile the browser's standard library (kit/browser/pyc.mjs). Run "
                             "`npm ci` (python build.py install does it), then build again. Node said:\n"
                             + (proc.stderr.strip() or proc.stdout.strip())[-2000:])
        return out.read_bytes()


def pypdf_files(full_zip: Path) -> dict[str, bytes]:
    """The stripped files of the modules that travel with pypdf (pypdf_modules), made once a
    process for each zip, as the trimmed library is."""
    stat = Path(full_zip).stat()
    return dict(_pypdf_files(str(Path(full_zip).resolve()), stat.st_mtime_ns, stat.st_size, tuple(pypdf_modules())))


@functools.lru_cache(maxsize=4)
def _pypdf_files(full_zip: str, _mtime_ns: int, _size: int, modules: tuple) -> tuple:
    # and kept on disk between processes (kit/buildcache.py), as the trimmed library is: 1.6 s of each build
    import marshal

    from .. import buildcache
    kept = buildcache.cached("pypdf-stripped", [Path(full_zip).read_bytes(), "\n".join(modules), buildcache.source_of(
        sys.modules[__name__])], lambda: marshal.dumps(tuple(stripped_files(full_zip, modules).items())))
    return marshal.loads(kept)


def write_empty_lock(full_lock: Path, out: Path) -> Path:
    """Pyodide's lock file with its `info` (the Python and platform it was built for) and no
    packages: the site loads its own wheels by address, never one from Pyodide's list, so the
    30 KB list of 357 packages is not sent."""
    lock = json.loads(full_lock.read_text(encoding="utf-8"))
    return write_atomic(out, json.dumps({"info": lock["info"], "packages": {}}, sort_keys=True).encode())
