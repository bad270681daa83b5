// Run argv lists through the engine wheel inside Pyodide (under Node), started as the
// site's worker starts it (docs/assets/engine-worker.js), and print one JSON answer per
// line: the parity test compares them with CPython's.
//
// usage: node tests/node/parity.mjs WHEEL CASES.json [--catalogues DIR] [--stdlib ZIP [--check-stripped FULL_ZIP STDLIB_PY SOURCES_ZIP]]
//
// CASES.json: a list whose items are argv lists, or {argv, files?, packages?} as the
// pages send them (files: {path in Pyodide: path on disk}, written first; packages:
// wheels loaded first, like pypdf for the application).
// --stdlib: the standard library to start with (the site's trimmed one), as loadPyodide's
// stdLibURL; without it, Pyodide's whole python_stdlib.zip.
// The last line on stderr is JSON: the Python version, timings, the standard-library
// modules imported (`modules`), and every module asked for that no finder found
// (`not_found`): the test compares those with the whole library.
import { readdirSync, readFileSync } from "node:fs";
import { loadPyodide } from "pyodide";

const args = process.argv.slice(2);
const [wheel, casesFile] = args;
const stdLibURL = args.includes("--stdlib") ? args[args.indexOf("--stdlib") + 1] : null;
const cases = JSON.parse(readFileSync(casesFile, "utf8"));
const started = performance.now();
const pyodide = await loadPyodide({ ...(stdLibURL ? { stdLibURL } : {}), _makeSnapshot: true });
// Every import that no finder answers is noted, from the very first one after start-up.
pyodide.runPython(`
import sys
class _NotFound:
    names = set()
    @classmethod
    def find_spec(cls, name, path=None, target=None):
        cls.names.add(name)
        return None
sys.meta_path.append(_NotFound)
`);
// as the worker does: the wheel unpacked into site-packages, the catalogues served beside it
// given to the engine (--catalogues DIR: its <lang>.json files), every command imported, a
// snapshot made
pyodide.unpackArchive(new Uint8Array(readFileSync(wheel)), "wheel");
if (args.includes("--catalogues")) {
  const dir = args[args.indexOf("--catalogues") + 1];
  const i18n = pyodide.pyimport("calculator.core.i18n");
  for (const name of readdirSync(dir).filter((n) => n.endsWith(".json")).sort()) {
    i18n.add_catalogue(name.slice(0, -".json".length), readFileSync(`${dir}/${name}`, "utf8"));
  }
  i18n.destroy();
}
pyodide.pyimport("calculator.cli").warm();
pyodide.makeMemorySnapshot();
const run = pyodide.pyimport("calculator.cli").run_json;
const loaded = performance.now();
for (const item of cases) {
  const { argv, files = {}, packages = [] } = Array.isArray(item) ? { argv: item } : item;
  for (const path of packages) await pyodide.loadPackage(path, { messageCallback: () => {} });
  for (const [dest, src] of Object.entries(files)) pyodide.FS.writeFile(dest, new Uint8Array(readFileSync(src)));
  const args = pyodide.toPy(argv);
  process.stdout.write(run(args) + "\n");
  args.destroy();
}
const done = performance.now();
const imported = JSON.parse(pyodide.runPython(`
import json, sys
zipped = next(p for p in sys.path if p.endswith(".zip"))
json.dumps({
    "modules": sorted(m for m, mod in list(sys.modules.items())
                      if str(getattr(mod, "__file__", None) or "").startswith(zipped + "/")),
    "not_found": sorted(_NotFound.names),
})
`));
// --check-stripped FULL_ZIP STDLIB_PY SOURCES_ZIP: each module of the stripped sources the
// trimmed library was compiled from (SOURCES_ZIP) has the syntax tree of Pyodide's own,
// docstrings left out (by kit/browser/stdlib.py's without_docstrings), as Python 3.14 parses them; the
// modules that differ are reported (`not_stripped_alike`), and those compared are counted
// (`stripped_compared`).
const check = args.indexOf("--check-stripped");
if (check >= 0) {
  pyodide.FS.writeFile("/tmp/full_stdlib.zip", new Uint8Array(readFileSync(args[check + 1])));
  pyodide.FS.writeFile("/tmp/kit_stdlib.py", readFileSync(args[check + 2], "utf8"));
  pyodide.FS.writeFile("/tmp/stripped_stdlib.zip", new Uint8Array(readFileSync(args[check + 3])));
  Object.assign(imported, JSON.parse(pyodide.runPython(`
import ast, json, sys, zipfile
sys.path.insert(0, "/tmp")
from kit_stdlib import without_docstrings
full = zipfile.ZipFile("/tmp/full_stdlib.zip")
stripped = zipfile.ZipFile("/tmp/stripped_stdlib.zip")
names = [name for name in stripped.namelist() if name.endswith(".py")]
json.dumps({"stripped_compared": len(names), "not_stripped_alike": [
    name for name in names
    if ast.dump(without_docstrings(ast.parse(full.read(name)))) != ast.dump(without_docstrings(ast.parse(stripped.read(name))))]})
`)));
}
process.stderr.write(JSON.stringify({
  python: pyodide.runPython("import sys; '.'.join(map(str, sys.version_info[:3]))"),
  startup_ms: Math.round(loaded - started), cases_ms: Math.round(done - loaded), cases: cases.length,
  ...imported,
}) + "\n");
