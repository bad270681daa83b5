// A page's line to the calculator running in engine-worker.js: start the worker,
// report its loading progress, and ask it things. `ask` sends command-line words
// (argv) and returns the engine's JSON answer; `fillApplication` returns the
// permit application filled in from the checker's answers, as PDF bytes.
// Nothing is worked out here.
// The worker for this wheel: the one engine-start.js began from the page's head (its
// early messages are replayed to `onmessage`, in order), or a new one.
export function engineWorker(wheel, onmessage) {
  const early = window.__pawlingEngine;
  if (early && early.wheel === wheel) {
    window.__pawlingEngine = null;
    early.worker.onmessage = onmessage;
    for (const event of early.messages) onmessage(event);
    return early.worker;
  }
  const worker = new Worker(new URL(`engine-worker.js?wheel=${encodeURIComponent(wheel)}`, import.meta.url), { type: "module" });
  worker.onmessage = onmessage;
  return worker;
}

export function startEngine(wheel, { onProgress = () => {}, onReady = () => {}, onFailed = () => {} } = {}) {
  const pending = new Map();
  let nextId = 1;

  const worker = engineWorker(wheel, (event) => {
    const msg = event.data;
    if (msg.type === "progress") {
      onProgress(msg);
      if (msg.step === 3) onReady();
    } else if (msg.type === "failed") {
      onFailed(msg);
    } else if (msg.type === "result") {
      const resolve = pending.get(msg.id);
      pending.delete(msg.id);
      if (resolve) resolve(msg);
    }
  });

  function post(message) {
    const id = nextId++;
    return new Promise((resolve) => {
      pending.set(id, resolve);
      worker.postMessage({ ...message, id });
    });
  }

  return {
    async ask(argv) {
      const msg = await post({ argv });
      return JSON.parse(msg.json);
    },
    async fillApplication(fill) {
      const msg = await post({ fill });
      return { answer: JSON.parse(msg.json), bytes: msg.bytes || null };
    },
  };
}

// The loading line shared by the engine pages: <p id="engine-status"> with a text
// span and a <progress>. Returns the callbacks for startEngine.
export function statusLine(root, readyText, failedText) {
  const text = document.getElementById("engine-status-text");
  const bar = document.getElementById("engine-progress");
  return {
    onProgress(msg) {
      text.textContent = msg.step === 3 && readyText ? readyText : msg.text;
      bar.value = msg.step;
      if (msg.step === 3) bar.hidden = true;
    },
    onFailed() {
      root.dataset.state = "failed";
      text.textContent = failedText;
      bar.hidden = true;
    },
  };
}

// The GOV.UK error pattern, shared by the engine pages: the message in the error
// summary (a link that moves the focus to the box) and beside the box itself.
export function clearFieldErrors(form) {
  document.getElementById("error-summary").hidden = true;
  document.getElementById("error-summary-list").replaceChildren();
  for (const p of form.querySelectorAll(".field-error")) { p.hidden = true; p.replaceChildren(); }
  for (const i of form.querySelectorAll("[aria-invalid]")) i.removeAttribute("aria-invalid");
}

export function showFieldError(form, input, message, focusSummary) {
  clearFieldErrors(form);
  const link = el("a", { href: `#${input.id}` }, message);
  link.addEventListener("click", (e) => { e.preventDefault(); input.focus(); });
  document.getElementById("error-summary-list").append(el("li", {}, link));
  document.getElementById("error-summary").hidden = false;
  const inline = document.getElementById(`${input.id}-error`);
  if (inline) {
    inline.replaceChildren(el("span", { class: "visually-hidden" }, "Error: "), message);
    inline.hidden = false;
  }
  input.setAttribute("aria-invalid", "true");
  if (focusSummary) document.getElementById("error-summary").focus();
}

// A small element builder: el("a", {href: "#x"}, "text", child, …).
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

// Dates written as the engine writes them (calculator.dates.long): 15 March 2027.
export const longDate = (iso) => new Date(iso + "T00:00:00Z").toLocaleDateString("en-US", { timeZone: "UTC", day: "numeric", month: "long", year: "numeric" });
