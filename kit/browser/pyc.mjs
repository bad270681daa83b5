// The trimmed standard library as bytecode: every module of a zip of Python sources compiled by
// the Python the site runs (Pyodide's, in Node: this machine's CPython is another version, whose
// bytecode Pyodide's cannot read), written as a zip of .pyc files. kit/stdlib.py calls it.
//
// usage: node kit/pyc.mjs SOURCES.zip OUT.zip [--keep-lines]
//
// Each module is compiled as it is (the library's docstrings already left out: kit/stdlib.py),
// with no line table: the sources are not sent, and the stripped sources' line numbers were not
// the library's anyway. --keep-lines keeps each line's number (not its columns), for the
// engine's own modules (kit/wheel.py): a traceback then names the line. Each .pyc is an
// unchecked hash-based one (PEP 552): Python takes it without looking for a source. The zip's
// entries are stored, in the sources' order, dated as they are: one input gives the same bytes.
import { readFileSync, writeFileSync } from "node:fs";
import { loadPyodide } from "pyodide";

const [sources, out, ...options] = process.argv.slice(2);
if (!sources || !out) {
  console.error("usage: node kit/pyc.mjs SOURCES.zip OUT.zip [--keep-lines]");
  process.exit(2);
}
const keepLines = options.includes("--keep-lines");
// PYTHONNODEBUGRANGES: line numbers without columns, when lines are kept at all
const pyodide = await loadPyodide({ env: { PYTHONNODEBUGRANGES: "1" } });
pyodide.globals.set("keep_lines", keepLines);
pyodide.FS.writeFile("/tmp/sources.zip", new Uint8Array(readFileSync(sources)));
pyodide.runPython(`
import importlib._bootstrap_external as external
import zipfile

CodeType = type(compile("", "", "exec"))

def without_lines(code):
    consts = tuple(without_lines(c) if isinstance(c, CodeType) else c for c in code.co_consts)
    return code.replace(co_consts=consts, co_linetable=b"")

with zipfile.ZipFile("/tmp/sources.zip") as src, zipfile.ZipFile("/tmp/out.zip", "w", zipfile.ZIP_STORED) as dst:
    for info in src.infolist():
        data = src.read(info)
        source = info.filename.endswith(".py")
        if source:
            code = compile(data, info.filename, "exec", dont_inherit=True)
            if not keep_lines:
                code = without_lines(code)
            data = bytes(external._code_to_hash_pyc(code, bytes(8), checked=False))
        entry = zipfile.ZipInfo(info.filename + ("c" if source else ""), info.date_time)
        entry.external_attr = info.external_attr
        dst.writestr(entry, data, compress_type=zipfile.ZIP_STORED)
`);
writeFileSync(out, pyodide.FS.readFile("/tmp/out.zip"));
