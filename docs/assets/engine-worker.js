// The calculator, running in a module worker: Pyodide (self-hosted) and the
// engine wheel built from rules/. The page sends command-line words (argv) and
// gets the engine's JSON back. No answer is computed here.
import { loadPyodide } from "../pyodide/pyodide.mjs";

const root = new URL("../", import.meta.url);
const wheel = new URL(import.meta.url).searchParams.get("wheel");
let runJson = null;

function progress(step, text) {
  postMessage({ type: "progress", step, text });
}

const ready = (async () => {
  progress(1, "Downloading the calculator (about 5 MB the first time)…");
  const pyodide = await loadPyodide({ indexURL: new URL("pyodide/", root).href });
  progress(2, "Loading the sewer law…");
  await pyodide.loadPackage(new URL(`engine/${wheel}`, root).href, { messageCallback: () => {} });
  const run = pyodide.runPython("from calculator.cli import run_json\nrun_json");
  runJson = (argv) => {
    const args = pyodide.toPy(argv);
    try {
      return run(args);
    } finally {
      args.destroy();
    }
  };
  progress(3, "The calculator is ready.");
})();

ready.catch((err) => postMessage({ type: "failed", text: String(err) }));

onmessage = async (event) => {
  const { id, argv } = event.data;
  try {
    await ready;
  } catch (err) {
    postMessage({ type: "result", id, json: JSON.stringify({ ok: false, error: "The calculator could not start in this browser. Try reloading the page." }) });
    return;
  }
  const started = performance.now();
  const json = runJson(argv);
  postMessage({ type: "result", id, json, ms: performance.now() - started });
};
