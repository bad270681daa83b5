// The calculator, running in a module worker: Pyodide (self-hosted) and the
// engine wheel built from rules/. The page sends command-line words (argv) and
// gets the engine's JSON back. No answer is computed here. It also fills the
// permit application PDF with calculator.application.fill_pdf, loading pypdf
// (a pure-Python wheel beside the engine) only when a page first asks for it.
import { loadPyodide } from "../pyodide/pyodide.mjs";

const root = new URL("../", import.meta.url);
const wheel = new URL(import.meta.url).searchParams.get("wheel");
let runJson = null;
let fillApplication = null;

function progress(step, text) {
  postMessage({ type: "progress", step, text });
}

const ready = (async () => {
  progress(1, "Downloading the calculator (about 5 MB the first time)…");
  const pyodide = await loadPyodide({ indexURL: new URL("pyodide/", root).href });
  progress(2, "Loading the sewer law…");
  // engine/<build id>/<wheel>: the build id changes with the engine or the rules
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
  fillApplication = applicationFiller(pyodide);
  progress(3, "The calculator is ready.");
})();

ready.catch((err) => postMessage({ type: "failed", text: String(err) }));

const FILL_PY = `
import json
from calculator import application, flow
from calculator.errors import InputError
from calculator.rules import load

def fill_application(answer_words, field_words, src, dst):
    try:
        values = application.fill_pdf(load(), flow.parse_answer_words(answer_words),
                                      application.parse_field_words(field_words), src, dst)
    except InputError as exc:
        return json.dumps({"ok": False, "error": str(exc), "field": exc.field})
    return json.dumps({"ok": True, "result": {"command": "application", "fields": values}})

fill_application
`;

// {answers: ["work=repair", …], fields: ["owner-name=…"], pypdf: "engine/pypdf-….whl",
// blank: "permit/application.pdf"} -> {json, bytes}: the filled PDF's bytes, made here.
function applicationFiller(pyodide) {
  let pypdf = null;
  let fill = null;
  return async ({ answers, fields = [], pypdf: pypdfWheel, blank }) => {
    pypdf ??= pyodide.loadPackage(new URL(pypdfWheel, root).href, { messageCallback: () => {} });
    try {
      await pypdf;
    } catch (err) {
      pypdf = null; // let a later request try again
      throw err;
    }
    fill ??= pyodide.runPython(FILL_PY);
    const response = await fetch(new URL(blank, root));
    if (!response.ok) throw new Error(`The blank application ${blank} could not be read (${response.status}).`);
    pyodide.FS.writeFile("/tmp/blank.pdf", new Uint8Array(await response.arrayBuffer()));
    const args = [pyodide.toPy(answers), pyodide.toPy(fields)];
    let json;
    try {
      json = fill(...args, "/tmp/blank.pdf", "/tmp/application.pdf");
    } finally {
      for (const a of args) a.destroy();
    }
    const bytes = JSON.parse(json).ok ? pyodide.FS.readFile("/tmp/application.pdf") : null;
    return { json, bytes };
  };
}

onmessage = async (event) => {
  const { id, argv, fill } = event.data;
  try {
    await ready;
  } catch (err) {
    postMessage({ type: "result", id, json: JSON.stringify({ ok: false, error: "The calculator could not start in this browser. Try reloading the page." }) });
    return;
  }
  if (fill) {
    try {
      const { json, bytes } = await fillApplication(fill);
      postMessage({ type: "result", id, json, bytes }, bytes ? [bytes.buffer] : []);
    } catch (err) {
      postMessage({ type: "result", id, json: JSON.stringify({ ok: false, error: "The application could not be made in this browser. Download the blank form instead.", detail: String(err) }) });
    }
    return;
  }
  const started = performance.now();
  const json = runJson(argv);
  postMessage({ type: "result", id, json, ms: performance.now() - started });
};
