"""Pyodide's wasm as the site serves it: xz-compressed, smaller than the server's gzip makes it,
decoded to Pyodide's own bytes by Python and by the decoder the site ships (kit/browser/xz.py)."""
import gzip
import hashlib
import json
import lzma
import re
import subprocess

import pytest

from kit import buildcache
from kit.site import build as kit_site
from kit.browser import xz as kit_xz

WASM = kit_site.ROOT / "node_modules" / "pyodide" / "pyodide.asm.wasm"


@pytest.fixture(scope="module")
def site(built_site):
    return built_site


def test_the_site_s_xz_decodes_to_pyodide_s_wasm_byte_for_byte(site):
    packed = (site / "pyodide" / kit_site.WASM_XZ).read_bytes()
    wasm = WASM.read_bytes()
    assert lzma.decompress(packed, format=lzma.FORMAT_XZ) == wasm
    assert (site / "pyodide" / "pyodide.asm.wasm").read_bytes() == wasm  # the plain one, for a fallback
    # what it is for: fewer bytes than a server's gzip (level 6, bench/slow_serve.py) sends
    assert len(packed) < 0.8 * len(gzip.compress(wasm, 6))
    # a phone decodes it in a dictionary of the wasm's size, not xz -9's 64 MiB
    assert lzma.LZMADecompressor(memlimit=16 * 2**20).decompress(packed) == wasm
    with pytest.raises(lzma.LZMAError):
        lzma.LZMADecompressor(memlimit=4 * 2**20).decompress(packed)


def test_the_compression_is_xz_9e_s_size_with_a_dictionary_the_file_s_size_kept_by_the_cache(
        tmp_path, monkeypatch):
    monkeypatch.setattr(buildcache, "CACHE", tmp_path / "cache")
    monkeypatch.delenv("PAWLING_BUILD_CACHE", raising=False)
    data = bytes(range(256)) * 40 + WASM.read_bytes()[:200_000]
    src = tmp_path / "data.bin"
    src.write_bytes(data)
    packed = kit_xz.compressed(src)
    assert lzma.decompress(packed) == data
    extreme = lzma.compress(data, preset=9 | lzma.PRESET_EXTREME)  # xz -9e, its 64 MiB dictionary
    assert len(packed) == len(extreme) and packed != extreme  # the same stream but its header's dictionary
    assert kit_xz.filters(len(data))[0]["dict_size"] == len(data)
    # kept on disk: the next build (another process) takes it from there, the same bytes
    [kept] = [p for p in (tmp_path / "cache").iterdir() if p.suffix != ".lock"]  # (its lock beside it)
    assert kept.name.startswith("xz-") and kept.read_bytes() == packed
    kit_xz._compressed.cache_clear()
    kept.write_bytes(b"what the cache holds")
    assert kit_xz.compressed(src) == b"what the cache holds"
    kit_xz._compressed.cache_clear()


def test_the_decoder_the_site_ships_decodes_it_and_refuses_a_cut_one(site, tmp_path):
    decoder = (site / "pyodide" / kit_xz.DECODER).as_uri()
    packed = site / "pyodide" / kit_site.WASM_XZ
    cut = tmp_path / "cut.xz"
    cut.write_bytes(packed.read_bytes()[:100_000])
    script = """
import { XzReadableStream } from %s;
import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
const decode = async (path) => new Uint8Array(await new Response(
  new XzReadableStream(new Blob([readFileSync(path)]).stream())).arrayBuffer());
const whole = await decode(%s);
let cut;
try { cut = `decoded ${(await decode(%s)).length} bytes`; } catch (err) { cut = `refused: ${err.message}`; }
console.log(JSON.stringify({ sha256: createHash("sha256").update(whole).digest("hex"), cut }));
""" % (json.dumps(decoder), json.dumps(str(packed)), json.dumps(str(cut)))
    out = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["sha256"] == hashlib.sha256(WASM.read_bytes()).hexdigest()
    assert result["cut"].startswith("refused:"), result["cut"]


def test_a_second_decoder_decodes_while_the_first_is_busy_with_the_wasm(site):
    """The package decodes one stream at a time per instance: the worker decodes the standard
    library and the engine with a decoder of their own (`decoder()`) while the wasm's stream,
    still arriving, holds the first. Here the wasm's stream is left half read; with one
    decoder the standard library's would wait for it for ever."""
    decoder = (site / "pyodide" / kit_xz.DECODER).as_uri()
    [stdlib] = site.glob("engine/*/python_stdlib.zip")
    script = """
import { XzReadableStream, decoder } from %s;
import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
const stream = (path) => new Blob([readFileSync(path)]).stream();
const wasm = new XzReadableStream(stream(%s)).getReader();
await wasm.read();  // the first decoder is now taken, its stream not finished
const within = (promise) => Promise.race([promise, new Promise((resolve) => setTimeout(() => resolve(null), 5000))]);
const decode = async (Decoder) => new Uint8Array(await new Response(new Decoder(stream(%s))).arrayBuffer());
const second = await within(decode(decoder()));
const same = await within(decode(XzReadableStream));
const sha = (bytes) => bytes && createHash("sha256").update(bytes).digest("hex");
console.log(JSON.stringify({ second: sha(second), same: sha(same) }));
process.exit(0);
""" % (json.dumps(decoder), json.dumps(str(site / "pyodide" / kit_site.WASM_XZ)), json.dumps(f"{stdlib}.xz"))
    out = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result == {"second": hashlib.sha256(stdlib.read_bytes()).hexdigest(), "same": None}


def test_the_offline_cache_keeps_the_decoded_wasm_not_the_xz_nor_its_decoder(site):
    keep = json.loads(re.search(r"const KEEP = (\[.*?\]);", (site / "sw.js").read_text(), re.S).group(1))
    assert "pyodide/pyodide.asm.wasm" in keep  # taken from the worker's Cache Storage, decoded
    assert not [rel for rel in keep if rel.endswith(".xz") or rel.endswith(kit_xz.DECODER)], keep


def test_the_worker_asks_for_the_files_the_build_writes(site):
    worker = (site / "assets" / "engine-worker.js").read_text()
    assert f'"{kit_site.WASM_XZ}"' in worker
    assert f'import("../pyodide/{kit_xz.DECODER}")' in worker
