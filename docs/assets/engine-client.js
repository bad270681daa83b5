// A page's line to the calculator running in engine-worker.js: start the worker,
// report its loading progress, and ask it things. `ask` sends command-line words
// (argv) and returns the engine's JSON answer; `fillApplication` returns the
// permit application filled in from the checker's answers, as PDF bytes.
// Nothing is worked out here. The engine answers in the page's language (--lang), and
// every sentence this file shows goes through t() (words.js).
import { pageLanguage, t } from "./words.js";

// The worker for this wheel: the one the page's head began (docs/overrides/main.html: its
// early messages are replayed to `onmessage`, in order), or a new one.
export function engineWorker(wheel, onmessage) {
  const early = window.__pawlingEngine;
  if (early && early.wheel === wheel) {
    window.__pawlingEngine = null;
    early.worker.onmessage = onmessage;
    // the messages that came before this page's script, replayed once the caller has the engine in hand:
    // replayed at once, a "ready" ran the page's onReady inside startEngine, before `const engine = …`
    // was set ("Cannot access 'engine' before initialization" on the Clerk's desk: the hostile tester, H34).
    // A microtask runs before any later message event, so the order is kept.
    const queued = early.messages;
    queueMicrotask(() => { for (const event of queued) onmessage(event); });
    return early.worker;
  }
  const url = new URL("engine-worker.js", import.meta.url);
  url.searchParams.set("wheel", wheel);
  // the Pyodide the site ships, as the head names it (the worker's cache names carry it)
  const meta = document.querySelector('meta[name="pawling-engine-wheel"]');
  url.searchParams.set("pyodide", meta?.dataset.pyodide || "");
  // the bytes each file the worker takes from Cache Storage must have (the page's own word: a copy
  // another page of this origin put there is dropped)
  url.searchParams.set("integrity", meta?.dataset.integrity || "");
  url.searchParams.set("lang", pageLanguage()); // its catalogue is fetched with the rest
  const worker = new Worker(url, { type: "module" });
  worker.onmessage = onmessage;
  return worker;
}

export function startEngine(wheel, { onProgress = () => {}, onReady = () => {}, onFailed = () => {}, onKept = () => {} } = {}) {
  const pending = new Map();
  let nextId = 1;

  const worker = engineWorker(wheel, (event) => {
    const msg = event.data;
    if (msg.type === "progress") onProgress(msg);
    else if (msg.type === "ready") onReady();
    else if (msg.type === "failed") onFailed(msg);
    else if (msg.type === "kept") onKept();
    else if (msg.type === "reply") {
      const resolve = pending.get(msg.id);
      pending.delete(msg.id);
      if (resolve) resolve(msg);
    }
  });

  // One request shape (engine-worker.js): {id, argv, files?, packages?}. The engine
  // answers in the page's language (<html lang>): every command takes --lang; a request that names its own (the
  // Clerk's desk asking for the notice to users in Spanish) keeps it.
  function post(request, transfer = []) {
    const id = nextId++;
    const argv = request.argv.includes("--lang") ? [...request.argv] : [...request.argv, "--lang", pageLanguage()];
    return new Promise((resolve) => {
      pending.set(id, resolve);
      worker.postMessage({ ...request, argv, id }, transfer);
    });
  }

  // The engine's answer {ok, result | error, field}; a reply without one (the engine
  // failed) becomes an answer with its message, so every page shows it the same way.
  // A command-line message ("… Run `python -m calculator bill --help` for the options.") is never shown to a
  // resident: it means the page asked for something the engine does not take (the ninth hostile tester, F2).
  const answerOf = (msg) => {
    const answer = msg.ok ? JSON.parse(msg.json) : { ok: false, error: t(msg.error), field: null };
    if (!answer.ok && /python -m calculator/.test(answer.error || "")) {
      answer.error = t("This page asked the calculator for something it does not know. Check the form and try again, or reload the page.");
      answer.field = null;
    }
    return answer;
  };

  return {
    // files: {path: bytes} written into the worker's file system first (the Clerk's desk's
    // prepared records)
    async ask(argv, files) {
      return answerOf(await post(files ? { argv, files } : { argv }));
    },
    // the answer and the files the engine wrote (its `written`), as {path: bytes} (the bill run)
    async run(argv, files) {
      const msg = await post({ argv, files }, Object.values(files).map((b) => b.buffer));
      return { answer: answerOf(msg), files: msg.files || {} };
    },
    // The permit application filled in from the checker's answers: the engine's
    // `application` command, run on the site's blank form, with pypdf loaded first.
    async fillApplication({ answers, fields = [], pypdf, blank }) {
      const response = await fetch(new URL(`../${blank}`, import.meta.url));
      if (!response.ok) return { answer: { ok: false, error: t("The blank application could not be read. Download the blank form instead.") }, bytes: null };
      const bytes = await response.arrayBuffer();
      const argv = ["application", ...answers.flatMap((a) => ["--answer", a]), ...fields.flatMap((f) => ["--field", f]),
        "--blank", "/tmp/blank.pdf", "--output", "/tmp/application.pdf", "--force"]; // the worker's own copy, filled again each time
      const msg = await post({ argv, files: { "/tmp/blank.pdf": bytes }, packages: [pypdf] }, [bytes]);
      const answer = answerOf(msg);
      return { answer, bytes: answer.ok ? msg.files["/tmp/application.pdf"] || null : null };
    },
  };
}

// The loading line shared by the engine pages: <p id="engine-status"> with a text
// span and a <progress>. Returns the callbacks for startEngine. downloadText, when given, is said while the
// engine downloads (step 1) in place of the worker's "Downloading the calculator…": a page whose progress bar
// is named for its checker or its form says so in words too, one name for one thing (the Spanish reviewer
// spanish8, #22: «Descargando la calculadora» beside «Progreso de carga del cuestionario»).
export function statusLine(root, readyText, failedText, downloadText) {
  const text = document.getElementById("engine-status-text");
  const bar = document.getElementById("engine-progress");
  return {
    onProgress(msg) {
      // the worker's sentences, in the page's language
      text.textContent = msg.step === 1 && downloadText ? downloadText : t(msg.text);
      bar.value = msg.step;
    },
    onReady() {
      text.textContent = readyText || t("The calculator is ready.");
      bar.value = bar.max;
      bar.hidden = true;
    },
    onFailed(msg) {
      // why, for whoever helps the resident (the browser's console): the page says only that it failed
      console.error(`The calculator could not start: ${msg?.error}`);
      root.dataset.state = "failed";
      text.textContent = failedText;
      bar.hidden = true;
    },
  };
}

// A button pressed before the engine is ready says so beside it: on a slow link the status line is far
// up the page, and the press seemed to do nothing (the usability tester). The note is a live region,
// empty until then, and emptied once the answer is shown.
export function startingNote(button, isReady, text) {
  const note = el("p", { class: "engine-wait", id: `${button.id}-wait`, role: "status" });
  button.after(note);
  return {
    pressed() { if (!isReady()) note.textContent = text; },
    done() { note.textContent = ""; },
  };
}

// The GOV.UK error pattern, shared by the engine pages: the message in the error
// summary (a link that moves the focus to the box) and beside the box itself.
export function clearFieldErrors(form) {
  const summary = document.getElementById("error-summary");
  summary.hidden = true;
  summary.classList.remove("error-summary--question"); // (a question's look: estimate.js, "Did you mean …?")
  const title = document.getElementById("error-summary-title");
  if (title?.dataset.problem) title.textContent = title.dataset.problem;
  document.getElementById("error-summary-list").replaceChildren();
  for (const p of form.querySelectorAll(".field-error")) { p.hidden = true; p.replaceChildren(); p.classList.remove("field-question"); }
  for (const i of form.querySelectorAll("[aria-invalid]")) i.removeAttribute("aria-invalid");
}

// keep: add to the errors already shown (a form with several bad boxes shows them all at once)
export function showFieldError(form, input, message, focusSummary, keep = false) {
  if (!keep) clearFieldErrors(form);
  const link = el("a", { href: `#${input.id}` }, message);
  link.addEventListener("click", (e) => { e.preventDefault(); input.focus(); });
  document.getElementById("error-summary-list").append(el("li", {}, link));
  document.getElementById("error-summary").hidden = false;
  const inline = document.getElementById(`${input.id}-error`);
  if (inline) {
    inline.replaceChildren(el("span", { class: "visually-hidden" }, t("Error:") + " "), message);
    inline.hidden = false;
  }
  input.setAttribute("aria-invalid", "true");
  if (focusSummary) document.getElementById("error-summary").focus();
}

// Today in the visitor's own time zone, as the engine writes a date (2027-02-20): the estimate's and the
// Clerk's desk's "today" (clerk13: the desk had counted from the build's date).
export function todayIso() {
  const today = new Date();
  return `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, "0")}-${String(today.getDate()).padStart(2, "0")}`;
}

// Words as a file name's part: letters and digits only, accents dropped, joined by "-", cut at a whole word past
// 40 letters ("14 Quaker Hill Rd., Pawling" -> "14-quaker-hill-rd-pawling"; public12 T3, public14).
export function fileWords(words) {
  const slug = (words || "").normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
    .replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  return slug.length > 40 ? slug.slice(0, 41).replace(/-[^-]*$/, "") || slug.slice(0, 40) : slug;
}

// A small element builder: el("a", {href: "#x"}, "text", child, …).
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  // "§ 452" kept on one line (spanish11, item 9)
  for (const child of children) {
    if (child !== null && child !== undefined) node.append(typeof child === "string" ? child.replace(/§ (?=\d)/g, "§\u00a0") : child);
  }
  return node;
}

// A link to a provision in a reader's words (the engine's `law` of a step, explain.fold_citations):
// the name and the provision's heading (ours, not the law's: rules/law.yaml) in the page's
// language. A section with no letter is named alone, in the page's language too («Cargo mínimo»: it was
// marked English, and a screen reader said it in English sounds; spanish11); a quotation of the law's
// English inside a name is marked English (quotedIn).
export function lawLinkIn(href, law) {
  if (!law.heading) return el("a", { href }, ...quotedIn(law.words));
  // the law's English name the words quote ("… (en inglés, “sewer rents”), sección F") is English too
  return el("a", { href }, ...quotedIn(law.words), ` (${law.heading})`);
}

// An engine sentence as the pieces to append: on a page in another language each quotation
// of the law's English (set in “…” by the engine; its own words are quoted «…»,
// explain.quoted_own) marked as English, e.g. el("li", {}, ...quotedIn(step.text)).
// `language`: the text's language where it is not the page's (a Spanish bill on the Clerk's desk).
export function quotedIn(text, language = pageLanguage()) {
  if (language === "en" || typeof text !== "string") return [text];
  return text.split(/“([^”]+)”/).flatMap((piece, i) => (i % 2
    ? ["“", el("span", { lang: "en" }, piece), "”"] : piece ? [piece] : []));
}

// A sentence with elements in it: the pieces to append, each {name} that t() left in
// the text replaced by its node(s), e.g.
// el("p", {}, ...sentence(t("Total {total}, due {date}", { date }), { total: el("strong", {}, "$1.00") })).
export function sentence(text, nodes = {}) {
  return text.split(/\{([a-z_]+)\}/).flatMap((piece, i) => (i % 2 ? [].concat(nodes[piece] ?? `{${piece}}`) : piece ? [piece] : []));
}

// Dates written as the engine writes them (calculator.core.dates.long), in the page's language
// and the same in every browser: March 15, 2027 / 15 de marzo de 2027.
function monthName(month) {
  return [t("January"), t("February"), t("March"), t("April"), t("May"), t("June"), t("July"), t("August"),
    t("September"), t("October"), t("November"), t("December")][month - 1];
}

export function longDate(iso) {
  const [year, month, day] = iso.split("-").map(Number);
  return t("{month} {day}, {year}", { month: monthName(month), day, year });
}

// A day of the year without its year: March 15 / 15 de marzo.
export function monthDay(iso) {
  const [, month, day] = iso.split("-").map(Number);
  return t("{month} {day}", { month: monthName(month), day });
}
