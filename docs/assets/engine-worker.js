// The calculator, running in a module worker: Pyodide (self-hosted) and the
// engine wheel built from rules/. Nothing is worked out here.
//
// The protocol, one shape each way:
//   page → worker  {id, argv, files?, packages?}
//       argv: the command line's words; files: {path: bytes} written first (e.g. the
//       blank application); packages: wheel paths on this site loaded first (pypdf).
//   worker → page  {type: "progress", step, text}  while starting (step 1, 2)
//                  {type: "ready"}                 once the engine answers
//                  {type: "kept"}                  after the first reply, once the files this
//                      worker fetched are in Cache Storage (the offline cache may start)
//                  {type: "failed", error}         if it cannot start
//                  {type: "reply", id, ok: true, json, files}   the engine's answer (json is
//                      calculator.cli.run_json's; files: {path: bytes} of what it `written`)
//                  {type: "reply", id, ok: false, error}        no answer could be had
// Marks a sentence for the scripts' catalogue (scripts.po); the page shows it in its
// language (engine-client.js: t()). A worker has no page, so no words.js here.
const t = (message) => message;
// Marks on this worker's timeline (performance.mark: "pawling:…"), read by bench/warm.py to
// say where a repeat visit's time goes; they cost nothing else.
const mark = (name) => { try { performance.mark(`pawling:${name}`); } catch { /* no User Timing here */ } };
mark("worker-start");

const root = new URL("../", import.meta.url);
const params = new URL(import.meta.url).searchParams;
const wheel = params.get("wheel");
// Pyodide's two scripts, asked for at once, into this worker's module map: loadPyodide's own
// import of pyodide.asm.mjs takes the same module, not a second download
const pyodideScript = import("../pyodide/pyodide.mjs");
pyodideScript.then(() => mark("pyodide.mjs"), () => {});
import("../pyodide/pyodide.asm.mjs").then(() => mark("pyodide.asm.mjs"), () => {}); // a failure shows in loadPyodide's own import
// Pyodide's version names this worker's caches: as the page names it (the site's copy of it),
// so the downloads start before pyodide.mjs has arrived; else from pyodide.mjs itself
const version = params.get("pyodide") ? Promise.resolve(params.get("pyodide")) : pyodideScript.then((m) => m.version);
// the engine's folder, engine/<build id>/: its wheel, the standard library it needs and its
// catalogues, locale/<lang>.json (kit/browser/wheel.py: write_engine_catalogues)
const engineDir = new URL(`engine/${wheel.split("/").slice(0, -1).join("/")}/`, root);
const indexURL = new URL("pyodide/", root).href;
const catalogueURL = (language) => new URL(`locale/${language}.json`, engineDir).href;
// the page's language: its catalogue, unless it is the engine's own (English), is fetched with
// the rest; any other language a request names is fetched when asked (giveCatalogue). A desk
// that writes in every language (the Clerk's, the bill run) names them all ("en,es"), so
// nothing is fetched while it runs.
const pageLanguages = (params.get("lang") || "en").split(",");

function progress(step, text) {
  postMessage({ type: "progress", step, text });
}

// The files this worker fetches (Pyodide's wasm and lock file, the standard library, the
// engine's wheel, pypdf) go into Cache Storage as they arrive, and come from there next
// time: the offline cache (sw.js) finds them there rather than downloading them a second
// time, also in a private window, whose HTTP cache does not keep a 9.6 MB file. Their
// addresses change when their contents do (engine/<build id>/; pyodide/ per version, in the
// cache's name), so a kept copy is never stale. Pyodide fetches with the global fetch.
const keepable = (url) => url.origin === self.location.origin && /\/(pyodide|engine)\//.test(url.pathname);
const networkFetch = globalThis.fetch.bind(globalThis);
const filesCache = version.then((v) => caches.open(`pawling-files-${v}`)).catch(() => null); // none: Cache Storage refused
const storing = []; // the copies being written (the wasm's ends well after Python has started)

// Cache Storage is shared by every page of the origin (other project sites under one
// OWNER.github.io too), so a kept file is used only when its SHA-256 is the one the page gives
// for it (the worker's ?integrity=, from the page's head: path:base64 …); one that is not is
// deleted and fetched again. A file the page gives no digest for is not taken from the cache.
const integrity = new Map((params.get("integrity") || "").split(" ").filter(Boolean).map((entry) => {
  const at = entry.lastIndexOf(":");
  return [new URL(entry.slice(0, at), root).href, entry.slice(at + 1)];
}));

async function sha256(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return btoa(String.fromCharCode(...digest));
}

// The kept copy of url, if its bytes are the page's; else null (and a wrong copy is deleted)
async function keptCopy(cache, url) {
  const expected = integrity.get(url.href);
  const hit = expected && await cache.match(url.href, { ignoreSearch: true }).catch(() => null);
  if (!hit) return null;
  const bytes = hit.ok ? await hit.arrayBuffer() : null;
  if (bytes && await sha256(bytes) === expected) return new Response(bytes, { status: hit.status, headers: hit.headers });
  mark(`dropped:${url.pathname.split("/").pop()}`);
  await cache.delete(url.href, { ignoreSearch: true }).catch(() => {});
  return null;
}

async function keptOrFetched(url, resource, init, lookFirst = true) {
  const cache = keepable(url) ? await filesCache : null;
  const hit = lookFirst && cache && await keptCopy(cache, url);
  if (cache) mark(`${hit ? "kept" : "fetching"}:${url.pathname.split("/").pop()}`);
  if (hit && url.href === WASM.href) wasmIn("kept");
  if (hit) return hit;
  const response = await (url.href === WASM.href ? wasmFetched(init)
    : PACKED.has(url.href) ? packedFetched(url, init) : networkFetch(resource, init));
  // the wasm is kept decoded: a repeat visit and the offline cache need no decoder. Only a file
  // the page gives a digest for is kept (it is checked when taken back).
  if (cache && response.ok && integrity.has(url.href)) storing.push(cache.put(url.href, response.clone()).catch(() => {}));
  return response;
}

// Pyodide's wasm comes xz-compressed (2.6 MB, where the server's gzip makes 3.5 MB: kit/browser/xz.py)
// and is decoded here as it arrives, by xz-decompress (served beside Pyodide). Pyodide gets the
// decoded bytes as a wasm response, so the browser still compiles them while they arrive. If
// the decoder cannot be loaded or run, or the .xz cannot be had, the plain wasm is fetched; if
// the decoding stops half way (a download cut short), the rest comes from the plain wasm.
// (Pyodide does not ask again when a compile fails: it waits for ever. So no error may reach it.)
const WASM = new URL("pyodide.asm.wasm", indexURL);
let plainFiles = false; // the decoder failed once: the plain files from now on
// The wasm's bytes are all here, or nearly: "kept" from an earlier visit, or "fetched" (all but
// its last 32 KB: nearlyIn; at once when it comes plain). See `early`, below.
let wasmIn;
const wasmArrived = new Promise((resolve) => { wasmIn = resolve; });

async function wasmFetched(init) {
  if (plainFiles) {
    wasmIn("fetched");
    return networkFetch(WASM.href, init);
  }
  const abort = new AbortController();
  const packed = networkFetch(new URL("pyodide.asm.wasm.xz", indexURL).href, { ...init, signal: abort.signal });
  packed.catch(() => {});
  try {
    const { XzReadableStream } = await import("../pyodide/xz-decompress.mjs");
    const response = await packed;
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const decoded = new XzReadableStream(nearlyIn(response)).getReader();
    const first = await decoded.read(); // the decoder runs, or the plain wasm before Pyodide has a byte
    if (first.done) throw new Error("an empty .xz");
    return new Response(failingOver(decoded, first, init), { headers: { "Content-Type": "application/wasm" } });
  } catch {
    abort.abort(); // the .xz's download, if it is still coming, no longer takes the link
    plainFiles = true;
    wasmIn("fetched");
    return networkFetch(WASM.href, init);
  }
}

// The standard library and the engine's wheel come xz-compressed too: zips whose files are
// stored, compressed as one stream (kit/browser/xz.py). Each is decoded whole once it is here, by a
// decoder of its own: the wasm's holds the first until the wasm's last byte. The plain file if
// the decoder cannot be had or fails.
const stdLibURL = new URL("python_stdlib.zip", engineDir);
const wheelURL = new URL(`engine/${wheel}`, root);
const PACKED = new Set([stdLibURL.href, wheelURL.href]);
let EngineDecoder = null; // the second decoder (kit/browser/xz.py: decoder())

async function packedFetched(url, init) {
  if (!plainFiles) {
    const abort = new AbortController();
    const packed = networkFetch(`${url.href}.xz`, { ...init, signal: abort.signal });
    packed.catch(() => {});
    try {
      const { decoder } = await import("../pyodide/xz-decompress.mjs");
      EngineDecoder ??= decoder();
      const response = await packed;
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const whole = new Blob([await response.arrayBuffer()]);
      const bytes = await new Response(new EngineDecoder(whole.stream())).arrayBuffer();
      mark(`decoded:${url.pathname.split("/").pop()}`);
      return new Response(bytes, { headers: { "Content-Type": "application/zip" } });
    } catch {
      abort.abort(); // the .xz's download, if it is still coming, no longer takes the link
      plainFiles = true;
    }
  }
  return networkFetch(url.href, init);
}

// The .xz's body, as it comes; when all but its last 32 KB are here (about 0.15 s on a 200 KB/s
// link: a round trip), the files asked for after the wasm are asked for (wasmIn), so that their
// bytes follow the wasm's on the link with no gap. (Asked for at the wasm's last byte, they went
// out 0.15 s late: the worker's thread is then busy finishing the compile.)
const NEARLY = 32 * 1024;

function nearlyIn(response) {
  const length = Number(response.headers.get("Content-Length"));
  if (!(length > 0)) return response.body;
  let received = 0;
  return response.body.pipeThrough(new TransformStream({
    transform(chunk, controller) {
      received += chunk.byteLength;
      if (received >= length - NEARLY) wasmIn("fetched");
      controller.enqueue(chunk);
    },
  }));
}

// The decoded bytes as they come; if the decoding stops, the plain wasm's bytes after those given.
function failingOver(decoded, first, init) {
  let reader = decoded;
  let pending = first;
  let given = 0;
  let skip = 0;
  return new ReadableStream({
    async pull(controller) {
      for (;;) {
        let chunk;
        try {
          chunk = pending || await reader.read();
          pending = null;
        } catch (err) {
          if (reader !== decoded) {
            wasmIn("fetched");
            throw err; // the plain wasm broke off too: nothing more to try
          }
          plainFiles = true;
          const plain = await networkFetch(WASM.href, init);
          if (!plain.ok) throw new Error(`${WASM.href}: HTTP ${plain.status}`);
          reader = plain.body.getReader();
          skip = given;
          continue;
        }
        if (chunk.done) {
          mark("wasm-in");
          wasmIn("fetched");
          controller.close();
          return;
        }
        const skipped = Math.min(skip, chunk.value.length);
        skip -= skipped;
        if (skipped === chunk.value.length) continue;
        given += chunk.value.length - skipped;
        controller.enqueue(chunk.value.subarray(skipped));
        return;
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

// Every file Python needs to start is asked for now, all at once, before pyodide.mjs has
// arrived, so the link is never idle: a phone's slow link, not a chain of requests, sets the
// time. The files Python needs only once it runs (the engine's wheel, the page's catalogue) are
// asked for when the wasm's last byte is here: they come while Python starts, instead of
// sharing the link with the files it waits for. When the wasm was not kept, neither are they:
// they are asked for at once, not after a look into Cache Storage, which would wait until
// Python has started (it runs on this thread). Pyodide's own requests for them (by the
// global fetch, below) take these responses.
const early = new Map();
for (const url of [WASM, new URL("pyodide-lock.json", indexURL), stdLibURL]) {
  early.set(url.href, keptOrFetched(url, url.href));
}
for (const url of [wheelURL, ...pageLanguages.filter((language) => language !== "en").map((language) => new URL(catalogueURL(language)))]) {
  early.set(url.href, wasmArrived.then((how) => keptOrFetched(url, url.href, undefined, how === "kept")));
}

globalThis.fetch = async (resource, init) => {
  const url = new URL(resource instanceof Request ? resource.url : resource, self.location.href);
  mark(`fetch:${url.pathname.split("/").pop()}`);
  const started = early.get(url.href);
  if (started) {
    early.delete(url.href); // a response is read once; a later fetch asks again
    return started;
  }
  return keptOrFetched(url, resource, init);
};

// Starting Python and importing the engine takes about 3 s; restoring a memory
// snapshot of that state takes about 0.5 s. The first visit makes the snapshot here,
// in this browser, once its first answer is on screen, and keeps it in this browser's
// Cache Storage (it never leaves the machine); later visits restore it. The snapshot is
// keyed by the engine wheel's path, which carries a hash of the engine and the rules, so
// a rebuilt site with a changed rate never starts from an old snapshot; older snapshots
// are deleted.
const SNAPSHOT_CACHE = "pawling-python-snapshot";
const snapshotKey = version.then((v) => new URL(`engine/${wheel}.pyodide-${v}.sparse.snapshot`, root).href);

// A snapshot is Python's whole memory (about 31 MB), half of it zeros in a few long stretches.
// It is kept sparse: only its 4 KB pages that are not all zeros, one after another, and where
// each run of them goes (X-Snapshot-Runs: [[offset, length], …]; X-Snapshot-Length: the
// memory's size). Reading half the bytes back halves the time a repeat visit waits for them.
const PAGE = 4096;

function sparseSnapshot(bytes) {
  const aligned = bytes.byteOffset % 4 === 0;
  const words = aligned ? new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length >> 2) : null;
  const runs = [];
  for (let page = 0; page < bytes.length; page += PAGE) {
    const end = Math.min(page + PAGE, bytes.length);
    let zero = true;
    if (words && end % 4 === 0) {
      for (let i = page >> 2; i < end >> 2; i++) if (words[i]) { zero = false; break; }
    } else {
      for (let i = page; i < end; i++) if (bytes[i]) { zero = false; break; }
    }
    if (zero) continue;
    const last = runs[runs.length - 1];
    if (last && last[0] + last[1] === page) last[1] += end - page;
    else runs.push([page, end - page]);
  }
  return new Response(new Blob(runs.map(([offset, length]) => bytes.subarray(offset, offset + length))), {
    headers: { "Content-Type": "application/octet-stream", "X-Snapshot-Length": String(bytes.length),
      "X-Snapshot-Runs": JSON.stringify(runs) },
  });
}

// The memory again, from a kept sparse snapshot; null if it does not add up.
async function fullSnapshot(response) {
  const length = Number(response.headers.get("X-Snapshot-Length"));
  const runs = JSON.parse(response.headers.get("X-Snapshot-Runs") || "null");
  const packed = new Uint8Array(await response.arrayBuffer());
  if (!Number.isSafeInteger(length) || length <= 0 || !Array.isArray(runs)) return null;
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const [offset, size] of runs) {
    if (!(offset >= 0 && size > 0 && offset + size <= length && at + size <= packed.length)) return null;
    bytes.set(packed.subarray(at, at + size), offset);
    at += size;
  }
  return at === packed.length ? bytes : null;
}

// The kept snapshot, looked for at once and its bytes read while Pyodide's scripts arrive and
// compile (a repeat visit waits for this read, not for them): null when there is none.
const keptSnapshot = (async () => {
  try {
    return (await (await caches.open(SNAPSHOT_CACHE)).match(await snapshotKey)) || null;
  } catch {
    return null; // no Cache Storage here: start Python the long way
  }
})();
const snapshotBytes = keptSnapshot.then((response) => response && fullSnapshot(response)).catch(() => null);
snapshotBytes.then((bytes) => bytes && mark("snapshot-read"));

// (Compiling the wasm here while the snapshot is read, ahead of Pyodide, was tried: on a machine
// whose cores are busy it competes with the read and the page's scripts and made the repeat
// visit slower, 1.9 s against 1.5 s: bench/warm.md.)

async function keepSnapshot(bytes) {
  const cache = await caches.open(SNAPSHOT_CACHE);
  const key = await snapshotKey;
  for (const old of await cache.keys()) if (old.url !== key) await cache.delete(old);
  await cache.put(key, sparseSnapshot(bytes));
}

const NOT_LOADED = t("The calculator's engine could not be loaded.");

async function engineWheel() {
  const response = await fetch(wheelURL.href);
  if (!response.ok) throw new Error(`${NOT_LOADED} (HTTP ${response.status})`);
  return response.arrayBuffer();
}

const afterFirstAnswer = []; // what can wait until the first answer is on its way
let answeredOnce = false;
let packageLoaded = false;

async function startPython() {
  const options = { indexURL, stdLibURL: stdLibURL.href };
  const engine = engineWheel(); // on its way already (above); Python starts without waiting for it
  engine.catch(() => {}); // its failure is reported where it is awaited
  const [{ loadPyodide }, snapshot] = await Promise.all([pyodideScript, keptSnapshot]);
  mark(snapshot ? "snapshot-found" : "no-snapshot");
  if (snapshot) {
    try {
      const bytes = await snapshotBytes; // null: it could not be read, or does not add up
      if (bytes) {
        const pyodide = await loadPyodide({ ...options, _loadSnapshot: bytes });
        // a snapshot of this engine, by the wheel's digest it was warmed with: another page of the origin can put
        // another build's snapshot under this key (the twentieth hostile tester: it answered at another rate)
        if (pyodide.pyimport("calculator.cli").ENGINE_DIGEST !== (integrity.get(wheelURL.href) || "-")) {
          throw new Error("a snapshot of another engine");
        }
        mark("python-restored");
        // the engine's modules, rules and catalogues are in the snapshot (calculator.cli.warm);
        // its files are put back after the first answer, for a module imported later
        afterFirstAnswer.push(async () => pyodide.unpackArchive(await engine, "wheel"));
        return pyodide;
      }
    } catch {
      // not restored: the long way, below
    }
    await caches.open(SNAPSHOT_CACHE).then(async (c) => c.delete(await snapshotKey)).catch(() => {});
  }
  const pyodide = await loadPyodide({ ...options, _makeSnapshot: true });
  mark("python-started");
  progress(2, t("Loading the sewer law…"));
  // A wheel is a zip: unpacking it into site-packages ourselves skips the package
  // manager's bookkeeping for a package with no dependencies.
  pyodide.unpackArchive(await engine, "wheel");
  mark("engine-unpacked");
  afterFirstAnswer.push(() => {
    if (packageLoaded) return; // a snapshot holds no loaded package: none this visit
    try {
      // every command's module, the rules and the catalogues, for the snapshot: after the first
      // answer, which needs only its own
      pyodide.pyimport("calculator.cli").warm(integrity.get(wheelURL.href) || "");
      keepSnapshot(pyodide.makeMemorySnapshot()).catch(() => {});
    } catch {
      // no snapshot this time; the next visit starts the long way again
    }
  });
  return pyodide;
}

const ready = (async () => {
  progress(1, t("Downloading the calculator (about 4 MB the first time)…"));
  const pyodide = await startPython();
  const runJson = pyodide.pyimport("calculator.cli").run_json;
  mark("ready");
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

// The catalogue of the language a request asks in (--lang), given to the engine once: from the
// snapshot, or fetched from beside the wheel (the page's own was asked for at the start). The
// commands that write in every language the site speaks whatever the page's (the Clerk's rate
// steps: notices with their Spanish title and note; the bill run: each account's bill in its
// language) get every catalogue.
const EVERY_LANGUAGE = new Set(["rates", "bills"]);

async function giveCatalogue(pyodide, argv) {
  const at = argv.indexOf("--lang");
  const i18n = pyodide.pyimport("calculator.core.i18n");
  try {
    const languages = [...(at >= 0 ? [argv[at + 1]] : []),
                       ...(EVERY_LANGUAGE.has(argv[0]) ? i18n.LANGUAGES.toJs() : [])];
    for (const language of languages) {
      // a bad one is refused by the engine itself
      if (!language || !/^[a-z]{2,3}$/.test(language) || i18n.has_catalogue(language)) continue;
      const response = await fetch(catalogueURL(language));
      if (!response.ok) throw new Error(`${NOT_LOADED} (HTTP ${response.status})`);
      i18n.add_catalogue(language, await response.text());
    }
  } finally {
    i18n.destroy();
  }
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
  mark(`asked:${id}`);
  let engine;
  try {
    engine = await ready;
  } catch {
    postMessage({ type: "reply", id, ok: false, error: t("The calculator could not start in this browser. Try reloading the page.") });
    return;
  }
  try {
    if (packages.length) packageLoaded = true;
    await giveCatalogue(engine.pyodide, argv);
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
    mark(`replied:${id}`);
    if (!answeredOnce) {
      answeredOnce = true;
      // the snapshot (a few hundred ms) once the first answer is on its way, not before it
      setTimeout(() => afterFirstAnswer.forEach((task) => Promise.resolve(task()).catch(() => {})), 0);
      // then the page may start the offline cache, which takes these files from Cache Storage
      Promise.all(storing).then(() => postMessage({ type: "kept" }));
    }
  } catch (err) {
    postMessage({ type: "reply", id, ok: false,
      error: t("The calculator could not answer this in this browser. Try again, or reload the page."), detail: String(err) });
  }
};
