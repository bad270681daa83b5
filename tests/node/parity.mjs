// Run argv lists through the engine wheel inside Pyodide (under Node) and print
// one JSON answer per line: the parity test compares them with CPython's.
// usage: node tests/node/parity.mjs WHEEL CASES.json
import { readFileSync } from "node:fs";
import { loadPyodide } from "pyodide";

const [wheel, casesFile] = process.argv.slice(2);
const cases = JSON.parse(readFileSync(casesFile, "utf8"));
const started = performance.now();
const pyodide = await loadPyodide();
await pyodide.loadPackage(wheel, { messageCallback: () => {} });
const run = pyodide.pyimport("calculator.cli").run_json;
const loaded = performance.now();
for (const argv of cases) {
  process.stdout.write(run(pyodide.toPy(argv)) + "\n");
}
const done = performance.now();
process.stderr.write(JSON.stringify({
  python: pyodide.pyimport("platform").python_version(),
  startup_ms: Math.round(loaded - started), cases_ms: Math.round(done - loaded), cases: cases.length,
}) + "\n");
