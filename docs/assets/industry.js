// The industry check: moves the form's answers to the engine's `industry` command
// (in a worker) and its answer to the page. The state lives in the query string,
// with the command line's option names (?average-workday-gallons=52000&year=2027),
// so a result is a shareable link. No test of the law is worked out here.
import { clearFieldErrors, el, longDate, showFieldError, startEngine, statusLine } from "./engine-client.js";

const root = document.getElementById("industry-checker");
const NUMBERS = ["average-workday-gallons", "system-gallons-per-day", "year"];
const FLAGS = ["toxic-pollutant", "significant-impact"];

if (root) start();

function start() {
  root.hidden = false;
  root.dataset.state = "loading";
  const $ = (id) => document.getElementById(id);
  const form = $("industry-form");
  const result = $("result");
  let latest = 0;
  window.__industry = { ready: false };

  const status = statusLine(root, "The calculator is ready.",
    "The calculator could not start in this browser. The four tests and the report dates are set out below.");
  const engine = startEngine(root.dataset.wheel, {
    ...status,
    onReady: () => {
      status.onReady();
      window.__industry.ready = true;
      if (root.dataset.state === "loading") root.dataset.state = "ready";
    },
  });

  // ---- the form <-> the query string <-> argv (one set of names) ----
  // Each yes/no question: "yes", "no", or not answered (no radio checked).
  const answered = (name) => form.querySelector(`input[name="${name}"]:checked`)?.value;

  function formParams() {
    const p = new URLSearchParams();
    for (const name of NUMBERS) if ($(name).value.trim()) p.set(name, $(name).value.trim());
    for (const name of FLAGS) if (answered(name)) p.set(name, answered(name));
    return p;
  }

  function fillForm(params) {
    for (const name of NUMBERS) if (params.has(name)) $(name).value = params.get(name);
    for (const name of FLAGS) {
      $(name).checked = params.get(name) === "yes";
      $(`${name}-no`).checked = params.get(name) === "no";
    }
  }

  function argvFrom(params) {
    const argv = ["industry", "--average-workday-gallons", params.get("average-workday-gallons") || ""];
    for (const name of ["system-gallons-per-day", "year"]) if (params.has(name)) argv.push(`--${name}`, params.get(name));
    for (const name of FLAGS) {
      if (params.get(name) === "yes") argv.push(`--${name}`);
      if (params.get(name) === "no") argv.push(`--no-${name}`);
    }
    return argv;
  }

  const TITLES = {
    major: "This is a major contributing industry",
    "not-major": "This is not a major contributing industry",
    "not-determined": "Not determined yet: more facts are needed",
  };

  // ---- showing the answer ----
  function showResult(r, params) {
    clearErrors();
    const box = el("div", { class: "result-box", id: "industry-result", "data-major": String(r.major_contributing_industry),
      "data-determination": r.determination });
    box.append(el("h2", { id: "result-title", tabindex: "-1" }, TITLES[r.determination]));
    if (r.determination === "not-determined") {
      box.append(el("p", {}, "None of the tests decided so far is met, but some could not be decided. To finish the check, find out:"));
      box.append(el("ul", { id: "facts-needed" }, ...r.facts_needed.map((f) => el("li", {}, f))));
    }
    box.append(el("h3", {}, "How it was worked out"));
    box.append(el("ol", { class: "explanation" }, ...r.explanation.map((s) =>
      el("li", {}, `${s.text} `, el("span", { class: "step-law" }, "The law: ", el("a", { href: `../law/#${s.anchor}` }, s.where))))));
    if (r.major_contributing_industry) {
      box.append(el("h3", {}, `Section 307 reports due in ${r.year}`));
      box.append(el("ul", { id: "report-due" }, ...r.report_due.map((d) => el("li", {}, el("time", { datetime: d }, longDate(d))))));
      box.append(el("p", {}, el("a", { href: root.dataset.calendar, download: "pawling-sewer-due-dates.ics", id: "calendar-result-link" }, "Add the due dates to your calendar (.ics file)"),
        ". It holds the report dates and the quarterly sewer bill due dates for two years."));
    }
    box.append(el("p", {}, "Whether or not it is a major contributing industry, the business may have to build ",
      el("a", { href: "#facilities" }, "the pretreatment facilities the law requires"), "."));
    box.append(el("p", { class: "share" }, "Link to this result: ",
      el("a", { href: `${location.pathname}?${params}`, id: "share-link" }, "copy or bookmark this link")));
    result.replaceChildren(box);
    root.dataset.state = "result";
  }

  const clearErrors = () => clearFieldErrors(form);

  function showError(answer, focus) {
    const id = NUMBERS.includes(answer.field) ? answer.field : "average-workday-gallons";
    result.replaceChildren();
    root.dataset.state = "error";
    showFieldError(form, $(id), answer.error, focus);
  }

  async function check(params, focus) {
    const mine = ++latest;
    const answer = await engine.ask(argvFrom(params));
    if (mine !== latest) return;
    if (answer.ok) {
      showResult(answer.result, params);
      history.replaceState(null, "", `?${params}`);
      if (focus) $("result-title").focus();
    } else {
      showError(answer, true); // also for a link: the summary takes the focus, as on a page load
    }
  }

  form.addEventListener("submit", (e) => {
    e.preventDefault();
    check(formParams(), true);
  });

  // ---- start: the link's answers, or this year ----
  const initial = new URLSearchParams(location.search);
  fillForm(initial);
  if (!$("year").value) $("year").value = String(new Date().getFullYear());
  if (initial.has("average-workday-gallons")) {
    root.dataset.state = "loading-link";
    check(formParams(), false);
  }
}
