// The calculator, running in a module worker: Pyodide (self-hosted) and the
// engine wheel built from rules/. Nothing is worked out here.
//
// The protocol, one shape each way:
//   page → worker  {id, argv, files?, packages?}
//       argv: the command line's words; files: {path: bytes} written first (e.g. the
//       blank application); packages: wheel paths on this site loaded first (pypdf).
//   worker → page  {type: "progress", step, text}  while starting (step 1, 2)
//                  {type: "ready"}                 once the engine answers
//                  {type: "failed", error}         if it cannot start
//                  {type: "reply", id, ok: true, json, files}   the engine's answer (json is
//                      calculator.cli.run_json's; files: {path: bytes} of what it `written`)
//                  {type: "reply", id, ok: false, error}        no answer could be had
import { loadPyodide, version } from "../pyodide/pyodide.mjs";

// Marks a sentence for the scripts' catalogue (scripts.po); the page shows it in its
// language (engine-client.js: t()). A worker has no page, so no words.js here.
const t = (message) => message;

const root = new URL("../", import.meta.url);
const wheel = new URL(import.meta.url).searchParams.get("wheel");

function progress(step, text) {
  postMessage({ type: "progress", step, text });
}

// Starting Python and importing the engine takes about 3 s; restoring a memory
// snapshot of that state takes about 0.5 s. The first visit makes the snapshot here,
// in this browser, and keeps it in this browser's Cache Storage (it never leaves the
// machine); later visits restore it. The snapshot is keyed by the engine wheel's path,
// which carries a hash of the engine and the rules, so a rebuilt site with a changed
// rate never starts from an old snapshot; older snapshots are deleted.
const SNAPSHOT_CACHE = "pawling-python-snapshot";
const SNAPSHOT_KEY = new URL(`engine/${wheel}.pyodide-${version}.snapshot`, root).href;

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

async function startPython() {
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
  progress(2, t("Loading the sewer law…"));
  // A wheel is a zip: unpacking it into site-packages ourselves skips the package
  // manager's bookkeeping for a package with no dependencies.
  pyodide.unpackArchive(engine, "wheel");
  pyodide.pyimport("calculator.cli").warm(); // every command's module and the rules, in the snapshot
  try {
    keepSnapshot(pyodide.makeMemorySnapshot()).catch(() => {});
  } catch {
    // no snapshot this time; the next visit starts the long way again
  }
  return pyodide;
}

const ready = (async () => {
  progress(1, t("Downloading the calculator (about 5 MB the first time)…"));
  const pyodide = await startPython();
  const runJson = pyodide.pyimport("calculator.cli").run_json;
  postMessage({ type: "ready" });
  return { pyodide, runJson };
})();

ready.catch((err) => postMessage({ type: "failed", error: String(err) }));

const loaded = new Map(); // wheel path → its loading promise (a failed one is forgotten)

function loadPackage(pyodide, path) {
  if (!loaded.has(path)) {
    const loading = pyodide.loadPackage(new URL(path, root).href, { messageCallback: () => {} });
    loading.catch(() => loaded.delete(path));
    loaded.set(path, loading);
  }
  return loaded.get(path);
}

function answer({ pyodide, runJson }, argv) {
  const args = pyodide.toPy(argv);
  try {
    return runJson(args);
  } finally {
    args.destroy();
  }
}

onmessage = async (event) => {
  const { id, argv, files = {}, packages = [] } = event.data;
  let engine;
  try {
    engine = await ready;
  } catch {
    postMessage({ type: "reply", id, ok: false, error: t("The calculator could not start in this browser. Try reloading the page.") });
    return;
  }
  try {
    for (const path of packages) await loadPackage(engine.pyodide, path);
    for (const [path, bytes] of Object.entries(files)) {
      engine.pyodide.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")) || "/");
      engine.pyodide.FS.writeFile(path, new Uint8Array(bytes));
    }
    const json = answer(engine, argv);
    const parsed = JSON.parse(json);
    const out = {};
    for (const path of (parsed.ok && parsed.result.written) || []) out[path] = engine.pyodide.FS.readFile(path);
    postMessage({ type: "reply", id, ok: true, json, files: out }, Object.values(out).map((b) => b.buffer));
  } catch (err) {
    postMessage({ type: "reply", id, ok: false,
      error: t("The calculator could not answer this in this browser. Try again, or reload the page."), detail: String(err) });
  }
};
