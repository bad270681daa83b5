// The application form as a web page (/permit/application/): filled in from the permit
// checker's answers, which arrive in the page's address as the checker writes them
// (?work=new-connection&street-opening=yes...), then downloaded as the filled PDF with
// what the person typed here. The engine (calculator/permits/application.py) decides which
// box each answer fills and fills the PDF; this script moves values between it and the
// form. Every sentence it shows goes through t() (words.js).
import { el, fileWords, sentence, startEngine, statusLine } from "./engine-client.js";
import { nt, t } from "./words.js";

const root = document.getElementById("application-make");
if (root) start();

function start() {
  const $ = (id) => document.getElementById(id);
  const form = $("application-form");
  const status = $("application-status");
  const button = $("make-filled");
  let answers = [];
  let blobUrl = null;
  window.__application = { ready: false };

  const line = statusLine(root, t("You can download this form, filled in, when you have typed your details."),
    t("The form could not be filled in by this browser. Print this page with your browser's Print command, or download the blank form."),
    t("Getting the form ready…"));
  const engine = startEngine(root.dataset.wheel, {
    ...line,
    onReady: () => {
      line.onReady();
      window.__application.ready = true;
    },
    onFailed: (msg) => {
      line.onFailed(msg);
      unfilled(); // the form is the person's to fill in by hand
    },
  });

  // the form's own boxes, by field name: text and date boxes, and each yes-no's two buttons
  const boxes = () => [...form.querySelectorAll("input[name], textarea[name]")];

  function typed() {
    const out = [];
    for (const box of boxes()) {
      if (box.type === "radio") {
        if (box.checked) out.push(`${box.name}=${box.value}`);
      } else if (box.value.trim()) {
        out.push(`${box.name}=${box.value.replace(/\n/g, "\\n")}`);
      }
    }
    return out;
  }

  // the filled form's file name: "sewer-permit-application-12-main-street.pdf" with the property's address,
  // else "sewer-permit-application-filled.pdf" (letters and digits only, accents dropped)
  function filledName() {
    const short = fileWords((form.querySelector('[name="property-address"]') || {}).value);
    return short ? t("sewer-permit-application-{address}.pdf", { address: short }) : t("sewer-permit-application-filled.pdf");
  }

  function fill(values) {
    for (const [name, value] of Object.entries(values)) {
      for (const box of boxes().filter((b) => b.name === name)) {
        if (box.type === "radio") box.checked = box.value === value;
        else if (!box.value.trim()) box.value = value;
      }
    }
    showIfNo(); // the notes of questions filled in with No
  }
  const ifNo = [];
  function showIfNo() { for (const show of ifNo) show(); }

  // While the checker's answers are being filled in, the form waits: a box ticked or typed in before they
  // land would be overwritten or mixed with them (the usability test, Tony: 5 to 10 seconds of a form that
  // looked ready). Only with answers in the address; without them there is nothing to wait for.
  const note = $("prefilled");
  form.before(note); // said where the form starts, not under it
  const waiting = location.search.length > 1;
  function busy(on) {
    for (const box of boxes()) box.disabled = on;
    button.disabled = on;
    if (on) form.setAttribute("aria-busy", "true");
    else form.removeAttribute("aria-busy");
    window.__application.filled = !on;
  }
  // the engine did not start: nothing was filled in, and the form is the person's to fill in by hand
  function unfilled() {
    if (!waiting || window.__application.filled) return;
    note.textContent = t("Your answers to the permit checker could not be filled in: nothing was filled in. Type your answers here, or print this page.");
    busy(false);
  }
  if (waiting) {
    busy(true);
    note.textContent = t("Filling in your answers from the permit checker…");
    note.hidden = false;
  } else {
    window.__application.filled = true;
  }

  // What the person types is kept in this browser (localStorage), never sent anywhere, so a reload or a trip back
  // to the checker does not lose it (the re-test, Tony: about 15 boxes typed again after changing one answer in
  // the checker). Not the checker's answers, its finding or what it filled in: those come from the checker's link.
  // "Forget what I typed" clears it, for a shared computer.
  const KEPT = "pawling-application-typed";
  let prefilled = {};
  const keepable = (b) => b.type !== "radio" && b.name !== "checker-result";
  const forget = el("button", { type: "button", class: "md-button", id: "forget-typed" }, t("Forget what I typed"));
  const keptNote = el("p", { id: "kept-typed", hidden: "" },
    t("This browser keeps what you type in this form, so it is still here when you come back. Nothing is sent anywhere. On a shared computer, press:"), " ", forget);
  // said where the button was, not beside the download button at the form's end (the Spanish review: 9,000 px below)
  const forgot = el("p", { id: "forgot-typed", role: "status" });
  note.after(keptNote, forgot);
  function readKept() {
    try {
      const kept = JSON.parse(localStorage.getItem(KEPT) || "{}");
      return kept && typeof kept === "object" ? kept : {};
    } catch { return {}; }
  }
  function keepTyped() {
    forgot.textContent = "";
    const kept = {};
    for (const b of boxes()) if (keepable(b) && b.value.trim() && b.value !== prefilled[b.name]) kept[b.name] = b.value;
    try {
      if (Object.keys(kept).length) localStorage.setItem(KEPT, JSON.stringify(kept));
      else localStorage.removeItem(KEPT);
    } catch { /* storage refused (a private window's quota): nothing is kept */ }
    keptNote.hidden = !Object.keys(kept).length;
  }
  function restoreTyped() {
    const kept = readKept();
    for (const b of boxes()) {
      if (keepable(b) && !b.value.trim() && typeof kept[b.name] === "string") b.value = kept[b.name];
    }
    keptNote.hidden = !Object.keys(kept).length;
  }
  forget.addEventListener("click", () => {
    const kept = readKept();
    for (const b of boxes()) if (keepable(b) && kept[b.name] === b.value) b.value = "";
    try { localStorage.removeItem(KEPT); } catch { /* nothing was kept */ }
    keptNote.hidden = true;
    forgot.textContent = t("What you typed is no longer kept in this browser, and the boxes you typed in are empty.");
  });
  form.addEventListener("input", (event) => { if (keepable(event.target)) keepTyped(); });
  if (!waiting) restoreTyped();

  // An answer to a checker question changed here: the checker's finding at the top was for other answers. The
  // engine then puts, in its place, why it is left out (application.ANSWERS_CHANGED), before any download (the
  // usability test residents30, Tony: "sump pump: No" on page 4 under "Connecting a sump pump…" on page 1)
  let shownFinding = null;
  let checkerFinding = null; // the finding for the checker's own answers
  let findingAsked = 0;
  async function refreshFinding(changed) {
    const box = form.querySelector('[name="checker-result"]');
    if (!box || !answers.length || (shownFinding !== null && box.value !== shownFinding)) return; // typed over: kept
    const asked = ++findingAsked;
    const ticked = boxes().filter((b) => b.type === "radio" && b.checked).map((b) => `${b.name}=${b.value}`);
    const answer = await engine.ask(["application", ...answers.flatMap((a) => ["--answer", a]),
      ...ticked.flatMap((f) => ["--field", f])]);
    if (asked !== findingAsked || !answer.ok) return;
    box.value = shownFinding = answer.result.fields["checker-result"] || "";
    // and said where the answer was changed, with the way to the box it changed (the re-test, Tony: the only
    // word of it was in the box at the top, which he did not see from the question)
    for (const note of form.querySelectorAll(".answer-changed")) note.remove();
    const group = changed && changed.closest("fieldset");
    if (group && shownFinding !== checkerFinding) {
      const top = el("a", { href: "#field-checker-result" }, t("the note at the top of the form"));
      top.addEventListener("click", (e) => { e.preventDefault(); box.focus(); box.scrollIntoView({ block: "center" }); });
      group.after(el("p", { class: "answer-changed", id: `${changed.name}-changed`, role: "status" },
        ...sentence(t("This answer is not the one you gave the permit checker, so its finding is left out of the form: see {top}. Check the work again with the permit checker before you file the form."), { top })));
    }
  }
  form.addEventListener("change", (event) => { if (event.target.type === "radio") refreshFinding(event.target); });

  // The checker's answers: the words of the address that name one of its questions.
  engine.ask(["permit", "--list-questions"]).then(async (listed) => {
    if (!listed.ok) return unfilled();
    const ids = new Set(listed.result.questions.map((q) => q.id));
    answers = [...new URLSearchParams(location.search)]
      .filter(([id, value]) => ids.has(id) && value.trim()).map(([id, value]) => `${id}=${value.trim()}`);
    if (!answers.length) {
      note.hidden = true;
      return;
    }
    const answer = await engine.ask(["application", ...answers.flatMap((a) => ["--answer", a])]);
    if (!answer.ok) {
      note.textContent = answer.error;
    } else {
      prefilled = answer.result.fields;
      fill(answer.result.fields);
      const finding = form.querySelector('[name="checker-result"]');
      if (finding) shownFinding = checkerFinding = finding.value;
      // one question said as one (the Spanish reviewer spanish24: «Completamos 1 de las preguntas… Revíselas»)
      note.textContent = nt("We filled in {n} question from your answers to the permit checker. Check it, then type the rest.",
        "We filled in {n} of the questions from your answers to the permit checker. Check them, then type the rest.",
        answer.result.answered.length);
    }
    note.hidden = false;
  }).finally(() => {
    if (waiting) busy(false);
    restoreTyped(); // after the checker's answers, into the boxes they left empty
  });

  // A date is read as the estimator reads it (calculator/core/dates.py read_date), when the person leaves its
  // box: its problem, or how a slashed date was read ("We read 12/6/2026 as December 6, 2026."), is said at
  // the box, not only beside the download button (the usability test, Tony).
  const dateBoxes = () => boxes().filter((b) => b.closest(".form-field--date"));
  function clearAt(box) {
    const error = $(`${box.id}-error`);
    if (error) { error.hidden = true; error.replaceChildren(); }
    box.removeAttribute("aria-invalid");
    const read = $(`${box.id}-read`);
    if (read) read.textContent = "";
  }
  function errorAt(box, message) {
    const error = $(`${box.id}-error`);
    if (!error) return false;
    error.replaceChildren(el("span", { class: "visually-hidden" }, t("Error:") + " "), message);
    error.hidden = false;
    box.setAttribute("aria-invalid", "true");
    return true;
  }
  async function checkDate(box) {
    clearAt(box);
    if (!box.value.trim()) return true;
    const answer = await engine.ask(["application", "--field", `${box.name}=${box.value}`]);
    if (!answer.ok) {
      if (answer.field === box.name && errorAt(box, answer.error) && answer.suggest) {
        // "Did you mean December 7, 2026?" with one tap to use it, as the estimator offers (public11, T5)
        const use = el("button", { type: "button", class: "md-button use-suggestion", id: `${box.id}-use` },
          t("Yes, use {value}", { value: answer.suggest }));
        use.addEventListener("click", () => { box.value = answer.suggest; checkDate(box); box.focus(); });
        $(`${box.id}-error`).append(" ", use);
      }
      return answer.field !== box.name;
    }
    const said = (answer.result.read || {})[box.name];
    if (said) $(`${box.id}-read`).textContent = said;
    return true;
  }
  for (const box of dateBoxes()) box.addEventListener("change", () => checkDate(box));

  // a question's note for No (what the law then asks for), shown while No is chosen (public11, T4)
  for (const note of form.querySelectorAll("[data-if-no]")) {
    const radios = [...form.querySelectorAll(`input[type=radio][name="${note.dataset.ifNo}"]`)];
    const show = () => { note.hidden = !radios.some((r) => r.checked && r.value === "no"); };
    for (const radio of radios) radio.addEventListener("change", show);
    ifNo.push(show);
    show();
  }

  // The required questions still empty are named before the first download, not found empty in the PDF
  // (issue 34, item 10); choosing the button again downloads the form as it is.
  let warned = false;
  function emptyRequired() {
    return boxes().filter((b) => (b.required || b.getAttribute("aria-required") === "true") && b.type !== "radio" && !b.value.trim());
  }

  button.addEventListener("click", async () => {
    const empty = emptyRequired();
    if (empty.length && !warned) {
      warned = true;
      const first = el("a", { href: `#${empty[0].id}`, id: "first-empty" }, t("Go to the first one"));
      first.addEventListener("click", (e) => { e.preventDefault(); empty[0].focus(); });
      const names = empty.map((b) => (form.querySelector(`label[for="${b.id}"]`) || b).textContent.trim()
        .replace(/\s*\([^)]*\)$/, "")).join("; "); // its label, without "(required)"
      status.replaceChildren(...sentence(empty.length === 1
        ? t("1 required question is still empty: {names}. {first}, or press the button again to download the form as it is, unfinished.")
        : t("{count} required questions are still empty: {names}. {first}, or press the button again to download the form as it is, unfinished."),
      { count: String(empty.length), names, first }));
      return;
    }
    button.disabled = true;
    status.textContent = t("Making your application form…");
    const { answer, bytes } = await engine.fillApplication({
      answers, fields: typed(), pypdf: root.dataset.pypdf, blank: root.dataset.blank,
    });
    button.disabled = false;
    if (!answer.ok || !bytes) {
      // a box's problem is said at the box (and focused), and named beside the button
      const box = answer.field && boxes().find((b) => b.name === answer.field && b.type !== "radio");
      if (box && errorAt(box, answer.error)) {
        status.textContent = t("Nothing was downloaded. Correct the box marked with an error, then press the button again.");
        box.focus();
      } else {
        status.textContent = answer.error;
      }
      return;
    }
    for (const box of dateBoxes()) {
      clearAt(box);
      const said = (answer.result.read || {})[box.name];
      if (said) $(`${box.id}-read`).textContent = said;
    }
    if (blobUrl) URL.revokeObjectURL(blobUrl);
    blobUrl = URL.createObjectURL(new Blob([bytes], { type: "application/pdf" }));
    // named apart from the blank form, and by the property's address when it is typed, so two jobs' files
    // are told apart (the usability test public12, T3: both were "sewer-permit-application.pdf")
    const link = el("a", { href: blobUrl, download: filledName(), id: "application-download" },
      t("download it again (PDF, {size} KB)", { size: Math.ceil(bytes.length / 1024) }));
    // "with your plans" only when the answers ask for plans (answer.result.plans: tearing down does not)
    status.replaceChildren(...sentence(answer.result.plans
      ? t("Your application form is downloading, with {filled} of its questions answered. If it does not open, {link}. Sign it, and file it with your plans.",
        { filled: answer.result.answered.length })
      : t("Your application form is downloading, with {filled} of its questions answered. If it does not open, {link}. Sign it, and file it.",
        { filled: answer.result.answered.length }), { link }));
    // the line above the form said "You can download this form … when you have typed your details" beside the
    // success (residents28, Tony): once downloaded, it is not needed
    const ready = $("engine-status");
    if (ready) ready.hidden = true;
    link.click();
    link.focus();
  });
}
