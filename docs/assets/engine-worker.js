// The calculator, running in a module worker: Pyodide (self-hosted) and the
// engine wheel built from rules/. The page sends command-line words (argv) and
// gets the engine's JSON back. No answer is computed here. It also fills the
// permit application PDF with calculator.application.fill_pdf, loading pypdf
// (a pure-Python wheel beside the engine) only when a page first asks for it.
import { loadPyodide, version } from "../pyodide/pyodide.mjs";

const root = new URL("../", import.meta.url);
const wheel = new URL(import.meta.url).searchParams.get("wheel");
let runJson = null;
let fillApplication = null;

function progress(step, text) {
  postMessage({ type: "progress", step, text });
}

// Starting Python and importing the engine takes about 3 s; restoring a memory
// snapshot of that state takes about 0.3 s. The first visit makes the snapshot here,
// in this browser, and keeps it in this browser's Cache Storage (it never leaves the
// machine); later visits restore it. The snapshot is keyed by the engine wheel's path,
// which carries a hash of the engine and the rules, so a rebuilt site with a changed
// rate never starts from an old snapshot; older snapshots are deleted.
const SNAPSHOT_CACHE = "pawling-python-snapshot";
const SNAPSHOT_KEY = new URL(`engine/${wheel}.pyodide-${version}.snapshot`, root).href;
const WARM = "import calculator.cli, calculator.bill, calculator.flow, calculator.industry, calculator.hearing\n"
  + "import calculator.vc, calculator.rules\ncalculator.rules.load()";

async function savedSnapshot() {
  try {
    const hit = await (await caches.open(SNAPSHOT_CACHE)).match(SNAPSHOT_KEY);
    return hit ? new Uint8Array(await hit.arrayBuffer()) : null;
  } catch {
    return null; // no Cache Storage here (private mode): start Python the long way
  }
}

async function keepSnapshot(bytes) {
  const cache = await caches.open(SNAPSHOT_CACHE);
  for (const old of await cache.keys()) if (old.url !== SNAPSHOT_KEY) await cache.delete(old);
  await cache.put(SNAPSHOT_KEY, new Response(bytes, { headers: { "Content-Type": "application/octet-stream" } }));
}

async function engineWheel() {
  const response = await fetch(new URL(`engine/${wheel}`, root));
  if (!response.ok) throw new Error(`The calculator's engine could not be loaded (${response.status}).`);
  return response.arrayBuffer();
}

async function startEngine() {
  const indexURL = new URL("pyodide/", root).href;
  const [snapshot, engine] = await Promise.all([savedSnapshot(), engineWheel()]);
  if (snapshot) {
    try {
      const pyodide = await loadPyodide({ indexURL, _loadSnapshot: snapshot });
      // the engine's modules are in the snapshot; its files are put back for lazy imports
      pyodide.unpackArchive(engine, "wheel");
      return pyodide;
    } catch {
      await caches.open(SNAPSHOT_CACHE).then((c) => c.delete(SNAPSHOT_KEY)).catch(() => {});
    }
  }
  const pyodide = await loadPyodide({ indexURL, _makeSnapshot: true });
  progress(2, "Loading the sewer law…");
  // A wheel is a zip: unpacking it into site-packages ourselves skips the package
  // manager's bookkeeping for a package with no dependencies.
  pyodide.unpackArchive(engine, "wheel");
  pyodide.runPython(WARM);
  try {
    keepSnapshot(pyodide.makeMemorySnapshot()).catch(() => {});
  } catch {
    // no snapshot this time; the next visit starts the long way again
  }
  return pyodide;
}

const ready = (async () => {
  progress(1, "Downloading the calculator (about 5 MB the first time)…");
  const pyodide = await startEngine();
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
