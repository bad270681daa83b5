"""Pyodide's wasm, xz-compressed for a phone's link, and the decoder the browser unpacks it with.

The wasm is most of what a first estimate downloads: 9.6 MB, 3.5 MB with the server's gzip. xz
(`xz -9e`) makes it 2.6 MB, 4.4 s less on a 200 KB/s link. No browser decodes xz by itself, so
the calculator's worker fetches `pyodide.asm.wasm.xz` and decodes it as it arrives with
xz-decompress (a 20 KB WebAssembly decoder from npm, served from this site), handing Pyodide the
decoded bytes as they come (docs/assets/engine-worker.js). The plain wasm stays beside it, for a
browser where the decoder cannot run (docs/decisions/018-xz-wasm.md).

The engine's two other files, the trimmed standard library and the engine's wheel, travel the
same way (`packed`): zips whose entries are stored, not deflated, so xz compresses them as one
stream (kit/site/build.py; docs/decisions/019-stdlib-bytecode.md).

The dictionary is the wasm's own size, not preset 9's 64 MiB: the same bytes out (a dictionary
larger than the file finds nothing more), and the phone's decoder needs 13 MiB, not 65."""
from __future__ import annotations

import functools
import json
import lzma
from pathlib import Path

from calculator.core.files import write_atomic

from .. import buildcache
from ..errors import BuildError

ROOT = Path(__file__).resolve().parents[2]
DECODER_PACKAGE = ROOT / "node_modules" / "xz-decompress"
DECODER = "xz-decompress.mjs"  # its name on the site, beside Pyodide's files


def filters(size: int) -> list[dict]:
    """`xz -9e`'s filter, with a dictionary no larger than the data needs (at least 4 KiB)."""
    return [{"id": lzma.FILTER_LZMA2, "preset": 9 | lzma.PRESET_EXTREME, "dict_size": max(size, 4096)}]


def compressed(path: Path) -> bytes:
    """The file xz-compressed (CRC64, as `xz` checks), the same bytes every time. About 10 s
    for the wasm: kept in memory for this process and on disk by kit/buildcache.py."""
    stat = Path(path).stat()
    return _compressed(str(Path(path).resolve()), stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=2)
def _compressed(path: str, _mtime_ns: int, _size: int) -> bytes:
    return packed(Path(path).read_bytes())


def packed(data: bytes) -> bytes:
    """These bytes xz-compressed with `filters`, kept on disk by kit/buildcache.py."""
    spec = filters(len(data))
    return buildcache.cached("xz", [data, repr(spec)], lambda: lzma.compress(
        data, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC64, filters=spec))


def write_packed(path: Path) -> Path:
    """Write `<path>.xz` beside the file (the worker fetches it, and the file if it cannot decode it)."""
    return write_atomic(Path(str(path) + ".xz"), packed(Path(path).read_bytes()))


def decoder_module() -> bytes:
    """xz-decompress's browser build as an ES module for the module worker. The package ships
    one UMD script (its WebAssembly inside, as a data: URL); given `module` and `require`, it puts
    its exports on `module.exports`. The package decodes one stream at a time (the others wait
    for it), so the module exports `decoder()`, which evaluates the script afresh and returns a
    decoder with a WebAssembly instance of its own, and `XzReadableStream`, a first one: the
    worker decodes the wasm with the first while its bytes arrive, and the standard library and
    the engine with a second, without waiting for the wasm's last byte."""
    package = DECODER_PACKAGE / "package.json"
    if not package.is_file():
        raise BuildError("node_modules/xz-decompress is missing. Run `npm ci` first (python build.py install does it).")
    version = json.loads(package.read_text(encoding="utf-8"))["version"]
    script = (DECODER_PACKAGE / "dist" / "package" / "xz-decompress.min.js").read_text(encoding="utf-8")
    return "\n".join([
        f"// xz-decompress {version} (npm), its browser build as an ES module (kit/browser/xz.py). License: MIT;",
        "// its own notice, below, names the parts it contains and their licenses.",
        "export function decoder() {",
        "const module = { exports: {} }; const exports = module.exports; const require = () => ({});",
        script.strip(),
        "return module.exports.XzReadableStream;",
        "}",
        "export const XzReadableStream = decoder();",
        "",
    ]).encode("utf-8")
