// The permit checker page, in the GOV.UK question-page pattern: one question at a
// time, a back link, "check your answers" with Change links, then the outcome.
// The engine (calculator/permits/flow.py walking rules/permits.yaml, in a worker) decides
// everything: which question comes next, the outcome, its reasons and requirements.
// This script moves answers to it and its answer to the page.
//
// The answers live in the query string, with the engine's own question ids and
// values (?work=new-connection&street-opening=yes), so a step is a shareable link,
// and in this browser's localStorage, so a person can come back later.
// `step` names the page to show when it is not the next unanswered question:
// a question id, "check" or "result"; `from=check` marks a Change link.
// Every sentence it shows goes through t() (words.js): the page's language.
import { el, fileWords, lawLinkIn, quotedIn, sentence, startEngine, statusLine } from "./engine-client.js";
import { pageLanguage, t } from "./words.js";

const root = document.getElementById("permit-checker");
const STORE = "pawling-sewer-kit:permit-answers";

if (root) start();

function start() {
  root.hidden = false;
  root.dataset.state = "loading";
  const $ = (id) => document.getElementById(id);
  const stepBox = $("step");
  const law = JSON.parse($("permit-law").textContent);
  const baseTitle = document.title;
  // a citation names the law's English text: marked so on a page in another language
  const citationLang = pageLanguage() === "en" ? null : "en";
  let questions = new Map();
  let latest = 0;
  let current = { answers: [], step: null, from: null };
  let blobUrl = null;
  window.__permit = { ready: false };

  const status = statusLine(root, t("The checker is ready."),
    t("The checker could not start in this browser. Its questions and the rules behind them are listed below, and you can download the application form."),
    t("Downloading the checker (about 4 MB the first time)…"));
  const engine = startEngine(root.dataset.wheel, {
    ...status,
    onReady: () => {
      status.onReady();
      window.__permit.ready = true;
    },
  });

  // ---- the state <-> the query string and localStorage ----
  function readState(search) {
    const params = new URLSearchParams(search);
    const answers = [];
    let twice = null;
    for (const [id, value] of params) {
      // Only the checker's questions; other words in a link (and empty answers) are not answers.
      if (!questions.has(id) || !value.trim()) continue;
      // a question answered twice in a link: which answer is meant is not known, so neither is taken and
      // the question is asked again, saying why (as the estimate refuses a value given twice)
      if (answers.some(([q]) => q === id)) twice = twice || id;
      else answers.push([id, value.trim()]);
    }
    return { answers: answers.filter(([q]) => q !== twice), step: params.get("step"), from: params.get("from"), twice };
  }

  function query(state) {
    const params = new URLSearchParams(state.answers);
    if (state.step) params.set("step", state.step);
    if (state.from) params.set("from", state.from);
    const text = params.toString();
    return text ? `?${text}` : location.pathname;
  }

  function save(state) {
    try {
      if (state.answers.length) localStorage.setItem(STORE, query(state));
      else localStorage.removeItem(STORE);
    } catch (blocked) { /* storage turned off: the link still holds the answers */ }
  }

  function saved() {
    try {
      return localStorage.getItem(STORE);
    } catch (blocked) {
      return null;
    }
  }

  const argv = (answers) => ["permit", ...answers.flatMap(([id, value]) => ["--answer", `${id}=${value}`])];
  const withAnswer = (answers, id, value) => {
    const out = answers.filter(([q]) => q !== id);
    const at = answers.findIndex(([q]) => q === id);
    out.splice(at < 0 ? out.length : at, 0, [id, value]);
    return out;
  };

  // ---- moving between steps ----
  async function go(state, { push = true, focus = true } = {}) {
    const shown = await show(state, focus);
    if (!shown) return; // a newer step was asked for meanwhile
    const url = query(shown);
    if (push) history.pushState(null, "", url);
    else history.replaceState(null, "", url);
    current = shown;
    save(shown);
  }

  // Ask the engine about these answers and show the step they lead to.
  // state.after: the question just answered (show the one after it on the path).
  async function show(state, focus) {
    const mine = ++latest;
    let answers = state.answers;
    let bad = state.twice ? { id: state.twice, message: t("This link answers “{question}” more than once, so the checker cannot tell which answer is meant. Choose one below.", { question: questions.get(state.twice).text }) } : null;
    let answer = await engine.ask(argv(answers));
    // A value in a link that is not an answer: say so at its question, and go on without it.
    while (!answer.ok && questions.has(answer.field) && answers.some(([q]) => q === answer.field)) {
      // in the page's words and language: the question as the page asks it, whose answers are shown
      // below it (the engine's message names the command line's ids: street-opening, yes, no)
      const given = (answers.find(([q]) => q === answer.field) || [])[1];
      bad = bad || { id: answer.field, message: t("“{value}” is not one of the answers to the question “{question}”. Choose one of the answers below.", { value: given, question: questions.get(answer.field).text }) };
      answers = answers.filter(([q]) => q !== answer.field);
      answer = await engine.ask(argv(answers));
    }
    if (mine !== latest) return null;
    if (!answer.ok) {
      failure(answer.error);
      return null;
    }
    const r = answer.result;
    // Keep every valid answer, also those the path does not reach now (the engine
    // ignores them), so going back and changing an answer loses nothing.
    answers = [...r.answers, ...r.ignored].map((a) => [a.id, a.value]);
    const path = r.answers.map((a) => a.id);
    const onPath = (id) => path.includes(id) || (r.next_question && r.next_question.id === id);
    let view;
    if (bad) {
      view = { kind: "question", id: bad.id, error: bad.message };
    } else if (state.after && path.indexOf(state.after) >= 0 && path.indexOf(state.after) + 1 < path.length) {
      view = { kind: "question", id: path[path.indexOf(state.after) + 1] };
    } else if (state.after) {
      view = r.next_question ? { kind: "question", id: r.next_question.id } : { kind: "check" };
    } else if (state.step === "result" && r.outcome) {
      view = { kind: "result" };
    } else if ((state.step === "check" || state.step === "result") && r.outcome) {
      view = { kind: "check" };
    } else if (questions.has(state.step) && onPath(state.step)) {
      view = { kind: "question", id: state.step };
    } else if (r.next_question) {
      view = { kind: "question", id: r.next_question.id };
    } else {
      view = { kind: "check" };
    }
    const from = view.kind === "question" && state.from === "check" && !state.after ? "check" : null;
    const shown = { answers, from, step: null };
    if (view.kind === "question" && !(r.next_question && r.next_question.id === view.id && !from)) shown.step = view.id;
    if (view.kind === "check" && r.next_question) shown.step = "check";
    if (view.kind === "result") shown.step = "result";

    clearErrors();
    if (view.kind === "question") renderQuestion(questions.get(view.id), shown, r, path);
    else if (view.kind === "check") renderCheck(shown, r);
    else renderResult(shown, r);
    $("start-again-line").hidden = false;
    if (view.error) {
      showError(view.error, true); // as on a page load with errors: the summary takes the focus
    } else if (focus) {
      $("step-title").focus();
    }
    return shown;
  }

  function stepLink(state, text, attrs = {}) {
    const a = el("a", { href: query(state), ...attrs }, ...[].concat(text));
    a.addEventListener("click", (e) => {
      e.preventDefault();
      go(state);
    });
    return a;
  }

  function backLink(state) {
    return el("p", { class: "back" }, stepLink(state, t("Back"), { id: "back-link", class: "back-link" }));
  }

  function setTitle(heading, error = false) {
    document.title = (error ? t("Error: {title}", { title: heading }) : heading) + " - " + baseTitle;
  }

  // ---- a question ----
  function renderQuestion(q, shown, r, path) {
    const chosen = (shown.answers.find(([id]) => id === q.id) || [])[1];
    const at = path.indexOf(q.id);
    const before = at >= 0 ? path[at - 1] : path[path.length - 1];
    const number = at >= 0 ? at + 1 : path.length + 1;
    let back = null;
    if (shown.from === "check") back = backLink({ answers: shown.answers, step: "check" });
    else if (before) back = backLink({ answers: shown.answers, step: before });
    const fieldset = el("fieldset", { class: "field question", "aria-describedby": "question-hint question-law" },
      el("legend", { class: "question-legend" },
        // where she is: the questions asked before this one, and the most any answers can still ask after it
        el("span", { class: "question-count", id: "question-count" },
          t("Question {number} of up to {most}", { number: String(number), most: String(number + (q.most_after || 0)) })),
        el("h2", { id: "step-title", tabindex: "-1" }, q.text)),
      el("p", { class: "hint", id: "question-hint" }, ...quotedIn(q.hint),
        ...(q.reading ? [" (", el("a", { href: `#reading-${q.reading}` }, t("how we read it")), ")"] : [])),
      el("p", { class: "hint law-ref", id: "question-law" }, ...sentence(t("The law: {where}"),
        // the provision in the reader's words (explain.law_words), as the page without JavaScript names it
        { where: q.law ? lawLinkIn(`../law/#${(law[q.cite] || {}).anchor}`, q.law)
          : el("a", { href: `../law/#${(law[q.cite] || {}).anchor}` }, q.where) })),
      el("p", { class: "field-error", id: "question-error", hidden: true }));
    for (const c of q.choices) {
      const id = `answer-${c.value}`;
      fieldset.append(el("div", { class: "choice" },
        el("input", { type: "radio", id, name: "answer", value: c.value, checked: c.value === chosen }), " ",
        el("label", { for: id }, c.label)));
    }
    const form = el("form", { id: "question-form", novalidate: true }, fieldset,
      el("button", { type: "submit", id: "continue-button", class: "md-button md-button--primary" }, t("Continue")));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const picked = form.querySelector("input[name=answer]:checked");
      if (!picked) {
        const yesNo = q.choices.every((c) => c.value === "yes" || c.value === "no");
        showError(yesNo ? t("Select yes or no.") : t("Select one of the answers."), true);
        return;
      }
      const answers = withAnswer(shown.answers, q.id, picked.value);
      // After a Change, go back to the answers (asking any question the change opens first).
      go(shown.from === "check" ? { answers, step: null, from: "check" } : { answers, after: q.id });
    });
    // the law behind each answer: the page's own list (#rules-<id>, below), shown here on request
    const rules = document.getElementById(`rules-${q.id}`);
    let lawBox = null;
    if (rules) {
      const copy = rules.cloneNode(true);
      for (const node of [copy, ...copy.querySelectorAll("[id]")]) node.removeAttribute("id");
      lawBox = el("details", { class: "question-law", id: "question-rules" },
        el("summary", {}, t("What the law says about each answer")), ...copy.childNodes);
    }
    stepBox.replaceChildren(...[back, form, lawBox].filter(Boolean));
    root.dataset.state = "question";
    root.dataset.step = q.id;
    setTitle(q.text);
  }

  // ---- check your answers ----
  function renderCheck(shown, r) {
    const last = r.answers[r.answers.length - 1];
    const list = el("dl", { class: "summary-list", id: "answers-list" });
    for (const a of r.answers) {
      list.append(el("div", { class: "summary-list__row", "data-question": a.id },
        el("dt", { class: "summary-list__key" }, a.question),
        el("dd", { class: "summary-list__value" }, a.label),
        el("dd", { class: "summary-list__actions" },
          stepLink({ answers: shown.answers, step: a.id, from: "check" },
            [t("Change"), el("span", { class: "visually-hidden" }, " " + t("your answer to: {question}", { question: a.question }))],
            { id: `change-${a.id}` }))));
    }
    const see = el("button", { type: "button", id: "see-result", class: "md-button md-button--primary" }, t("See the result"));
    see.addEventListener("click", () => go({ answers: shown.answers, step: "result" }));
    stepBox.replaceChildren(
      last ? backLink({ answers: shown.answers, step: last.id }) : "",
      el("h2", { id: "step-title", tabindex: "-1" }, t("Check your answers")),
      list, see);
    root.dataset.state = "check";
    root.dataset.step = "check";
    setTitle(t("Check your answers"));
  }

  // ---- the outcome ----
  function cite(item) {
    // the provision in the reader's words (explain.law_words), its heading in the page's language (ours)
    const parts = sentence(t("The law: {where}"), { where: lawLinkIn(`../law/#${item.anchor}`, item.law) });
    if (item.reading) parts.push("; ", el("a", { href: `#reading-${item.reading}` }, t("how we read it")));
    if (item.guide) parts.push("; ", el("a", { href: "../industry/" }, t("the industry guide")));
    return [" ", el("span", { class: "step-law" }, ...parts)];
  }

  function renderResult(shown, r) {
    const o = r.outcome_detail;
    const box = el("div", { class: `outcome outcome--${o.id}`, id: "outcome", "data-outcome": o.id });
    // the headline names what fails, in plain words (issue 34: the contractor read "Septic tanks…" when his sump pump
    // was the reason); the title where no answer names its thing
    const heads = o.headlines || [];
    // one failing thing heads the result; several go in a list under the outcome's title, each a sentence with
    // its period (the Spanish reviewer, spanish8 #7: seven headlines ran on in one heading, with no final period)
    const title = heads.length === 1 ? heads[0].text : o.title;
    box.append(el("h2", { id: "step-title", tabindex: "-1" }, ...quotedIn(title)));
    if (heads.length > 1) {
      box.append(el("ul", { id: "headlines", class: "headlines" }, ...heads.map((h) => el("li", {}, ...quotedIn(`${h.text}.`)))));
    }
    // a headline that rests on this site's reading says so right under it, with the other reading
    for (const h of heads.filter((x) => x.reading)) {
      box.append(el("p", { class: "reading-note", "data-reading": h.reading }, ...quotedIn(h.note), " ",
        el("a", { href: `../how-we-read-the-law/#${h.reading}` }, t("How we read the law"))));
    }
    box.append(el("p", { class: "outcome-summary" }, ...quotedIn(o.summary)));
    const links = o.cites.flatMap((c, i) => [i ? "; " : "", lawLinkIn(`../law/#${(law[c] || {}).anchor}`, o.law[i])]);
    box.append(el("p", { class: "law-ref" }, ...sentence(t("The law: {where}"), { where: links })));
    // work that can get a permit: its fee and the inspections the law requires, in the result itself (issue 34)
    if (o.fee || (o.inspections || []).length) {
      const facts = el("ul", { id: "fee-and-inspections", class: "fee-and-inspections" });
      if (o.fee) {
        facts.append(el("li", { id: "result-fee" }, el("strong", {}, `${o.fee.label}: ${o.fee.dollars}`),
          o.fee.note ? ` (${o.fee.note})` : "", " ", ...quotedIn(o.fee.text), ...cite(o.fee)));
      }
      for (const i of o.inspections || []) facts.append(el("li", { class: "inspection" }, ...quotedIn(i.text), ...cite(i)));
      box.append(el("h3", {}, t("Fee and inspections")), facts);
    }
    // work that can get a permit: what to do next, with the filled application's button, comes first, under
    // the outcome, not below the whole result (issue 34, item 10); for work that cannot, it comes last, after
    // the lines it asks to change
    const nextSteps = [el("h3", {}, t("What to do next")), el("div", { class: "next-steps", id: "next-steps" })];
    if (o.id !== "prohibited") box.append(...nextSteps);
    // one line for each thing asked about, in the person's words (the engine's verdicts)
    box.append(el("h3", {}, t("What you asked about")));
    box.append(el("ul", { id: "verdicts", class: "verdicts" }, ...r.verdicts.map((v) => el("li",
      { class: `verdict verdict--${v.outcome}`, "data-question": v.question, "data-outcome": v.outcome },
      el("strong", {}, ...quotedIn(v.text)), ": ", ...quotedIn(v.says), " — ",
      lawLinkIn(`../law/#${v.anchor}`, v.law)))));
    box.append(el("h3", {}, t("What the law requires")));
    const required = el("div", { id: "requirements", class: "requirements" });
    for (const stage of r.stages) {
      required.append(el("h4", { id: `stage-${stage.id}` }, stage.title),
        el("ul", { "aria-labelledby": `stage-${stage.id}`, "data-stage": stage.id },
          ...stage.requirements.map((i) => el("li", {}, ...quotedIn(i.text), ...cite(i)))));
    }
    box.append(required);
    if (r.reasons.length) {
      // the law's words behind each line: there on request, so the result stays short
      box.append(el("details", { class: "reasons-details", id: "why" },
        el("summary", {}, t("Why: the law behind each line")),
        el("ul", { id: "reasons", class: "reasons" }, ...r.reasons.map((i) => el("li", {}, ...quotedIn(i.text), ...cite(i))))));
    }
    if (r.rights.length) {
      box.append(el("h3", {}, t("Your rights as a permit holder")));
      box.append(el("ul", { id: "rights", class: "rights" }, ...r.rights.map((i) => el("li", {}, ...quotedIn(i.text), ...cite(i)))));
    }
    const next = nextSteps[1];
    // the blank form beside this page, in this page's language (data-blank: kit/site/pages.py's application_pdf)
    const blank = el("a", { href: root.dataset.blank.split("/").pop(), download: t("sewer-permit-application-blank.pdf"), id: "blank-form" },
      t("the blank application form (PDF)"));
    // the web form, filled in from these answers: the owner's and the contractor's details go there
    const formLink = `application/?${new URLSearchParams(r.answers.map((a) => [a.id, a.value])).toString()}`;
    const webForm = el("a", { href: formLink, id: "web-form" }, t("the form as a web page"));
    // not allowed only as this site reads the law: the filled form is offered too, the disputed part marked
    // for the Sewer Inspector to decide (the outside usability test public9, Tony)
    const refused = o.id === "prohibited" && !o.by_reading;
    if (refused) {
      const change = stepLink({ answers: shown.answers, step: "check" }, t("change your answers"), { id: "change-answers" });
      next.append(el("p", {}, ...sentence(t("Change the plan so that none of the reasons above applies, then {change}. If you are unsure, ask the Sewer Inspector. You can read {blank} and {web_form} to see what the application asks."),
      { change, blank, web_form: webForm })));
    } else {
      const status = el("p", { id: "application-status", class: "application-status", role: "status" });
      const make = el("button", { type: "button", id: "make-application", class: "md-button md-button--primary" },
        t("Download the application form, filled in with my answers (PDF)"));
      make.addEventListener("click", () => makeApplication(r, make, status));
      const typeDetails = el("a", { href: formLink, id: "fill-in-details" }, t("type the owner's and the contractor's details first"));
      if (o.id === "prohibited") {
        const change = stepLink({ answers: shown.answers, step: "check" }, t("change your answers"), { id: "change-answers" });
        next.append(el("p", { id: "inspector-decides" }, ...sentence(t("Change the plan, then {change}. Or ask the Sewer Inspector to decide: in the filled form, that part has the note “FOR THE SEWER INSPECTOR TO DECIDE”."),
          { change })));
      }
      next.append(
        // "with your plans" only when the result asks for plans (r.plans: tearing down asks for a permit, not plans)
        el("p", {}, r.plans ? t("Fill in the application and file it at the Sewer Inspector's office with your plans, before any work starts.")
          : t("Fill in the application and file it at the Sewer Inspector's office, before any work starts.")),
        el("p", {}, make), status,
        el("p", {}, ...sentence(t("Or {type_details}, on the web form, and download it from there. You can also use {blank}."),
          { type_details: typeDetails, blank })));
    }
    if (o.id === "prohibited") box.append(...nextSteps);
    const share = el("p", { class: "share" }, ...sentence(t("Link to this result: {link}"),
      { link: el("a", { href: query(shown), id: "share-link" }, t("copy or bookmark this link")) }));
    stepBox.replaceChildren(backLink({ answers: shown.answers, step: "check" }), box, share);
    root.dataset.state = "outcome";
    root.dataset.step = "result";
    setTitle(title);
  }

  async function makeApplication(r, button, status) {
    button.disabled = true;
    status.textContent = t("Making your application form…");
    const { answer, bytes } = await engine.fillApplication({
      answers: r.answers.map((a) => `${a.id}=${a.value}`), fields: [],
      pypdf: root.dataset.pypdf, blank: root.dataset.blank,
    });
    button.disabled = false;
    if (!answer.ok || !bytes) {
      status.textContent = answer.error;
      return;
    }
    if (blobUrl) URL.revokeObjectURL(blobUrl);
    blobUrl = URL.createObjectURL(new Blob([bytes], { type: "application/pdf" }));
    // one click: the download starts now; the link is there to download it again
    const filled = answer.result.answered.length;
    // named by the kind of work (public14: Job A's and Job B's files had one name), in the page's language
    const short = fileWords((r.answers.find((a) => a.id === "work") || {}).label);
    const name = short ? t("sewer-permit-application-{address}.pdf", { address: short }) : t("sewer-permit-application-filled.pdf");
    const link = el("a", { href: blobUrl, download: name, id: "application-download" },
      t("download it again (PDF, {size} KB)", { size: Math.ceil(bytes.length / 1024) }));
    status.replaceChildren(...sentence(answer.result.plans
      ? t("Your application form is downloading, with {filled} of its questions answered from your answers. If it does not open, {link}. Fill in the rest, sign it, and file it with your plans.", { filled })
      : t("Your application form is downloading, with {filled} of its questions answered from your answers. If it does not open, {link}. Fill in the rest, sign it, and file it.", { filled }), { link }));
    link.click();
    link.focus();
  }

  // ---- errors ----
  function clearErrors() {
    $("error-summary").hidden = true;
    $("error-summary-list").replaceChildren();
  }

  function showError(message, focus) {
    const first = stepBox.querySelector("input[name=answer]");
    const link = el("a", { href: `#${first.id}` }, message);
    link.addEventListener("click", (e) => {
      e.preventDefault();
      first.focus();
    });
    $("error-summary-list").replaceChildren(el("li", {}, link));
    $("error-summary").hidden = false;
    const inline = $("question-error");
    inline.replaceChildren(el("span", { class: "visually-hidden" }, t("Error:") + " "), message);
    inline.hidden = false;
    const fieldset = stepBox.querySelector("fieldset");
    fieldset.classList.add("field--error");
    fieldset.setAttribute("aria-describedby", "question-hint question-law question-error");
    root.dataset.state = "error";
    // the legend's two parts, said apart: "Question 1 of up to 14: What work…?" (the Spanish reviewer, 33e:
    // its whole text ran them together, "…14¿Qué obra…")
    const count = stepBox.querySelector("#question-count");
    const title = stepBox.querySelector("#step-title");
    setTitle(count && title ? `${count.textContent}: ${title.textContent}` : stepBox.querySelector("legend").textContent, true);
    if (focus) $("error-summary").focus();
  }

  // No answer could be had (the engine failed): the error summary says so, with the
  // same pattern as a wrong answer, and the page does not wait on.
  function failure(message) {
    clearErrors();
    $("error-summary-list").replaceChildren(el("li", {}, message));
    $("error-summary").hidden = false;
    $("error-summary").focus();
    stepBox.replaceChildren();
    root.dataset.state = "failed";
  }

  // ---- start again, the browser's back button, and the first step ----
  $("start-again").addEventListener("click", () => {
    try {
      localStorage.removeItem(STORE);
    } catch (blocked) { /* nothing kept */ }
    $("resumed").hidden = true;
    go({ answers: [], step: null });
  });

  window.addEventListener("popstate", async () => {
    const state = readState(location.search);
    const shown = await show(state, true);
    if (shown) {
      current = shown;
      save(shown);
    }
  });

  engine.ask(["permit", "--list-questions"]).then((answer) => {
    if (!answer.ok) {
      failure(answer.error);
      return;
    }
    questions = new Map(answer.result.questions.map((q) => [q.id, q]));
    let state = readState(location.search);
    const kept = saved();
    if (!state.answers.length && kept) {
      state = readState(kept);
      $("resumed").hidden = !state.answers.length;
    }
    go(state, { push: false, focus: false });
  });
}
