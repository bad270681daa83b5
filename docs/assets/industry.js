// The industry check: moves the form's answers to the engine's `industry` command
// (in a worker) and its answer to the page. The state lives in the query string,
// with the command line's option names (?average-workday-gallons=52000&year=2027),
// so a result is a shareable link. No test of the law is worked out here.
// Every sentence it shows goes through t() (words.js): the page's language.
import { clearFieldErrors, el, lawLinkIn, longDate, quotedIn, sentence, showFieldError, startEngine, startingNote, statusLine } from "./engine-client.js";
import { nt, pageLanguage, t } from "./words.js";

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
  // a citation names the law's English text: marked so on a page in another language
  const citationLang = pageLanguage() === "en" ? null : "en";
  window.__industry = { ready: false };

  const status = statusLine(root, t("The check is ready."),
    t("The check could not start in this browser. The four tests and the report dates are set out below."),
    t("Downloading the check (about 4 MB the first time)…"));
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

  // without a year, the report dates are the next ones from this browser's today
  function today() {
    const d = new Date();
    return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
  }

  function argvFrom(params) {
    // each value joined to its option, so a value that starts with a dash is read as a value (estimate.js)
    const argv = ["industry", `--average-workday-gallons=${params.get("average-workday-gallons") || ""}`];
    for (const name of ["system-gallons-per-day", "year"]) if (params.has(name)) argv.push(`--${name}=${params.get(name)}`);
    argv.push("--today", today()); // the next report date and its days left count from this browser's today
    for (const name of FLAGS) {
      if (params.get(name) === "yes") argv.push(`--${name}`);
      if (params.get(name) === "no") argv.push(`--no-${name}`);
    }
    return argv;
  }

  const TITLES = {
    major: () => t("This is a major contributing industry"),
    "not-major": () => t("This is not a major contributing industry"),
    "not-determined": () => t("Not determined yet: more facts are needed"),
  };

  // ---- showing the answer ----
  function showResult(r, params) {
    clearErrors();
    const box = el("div", { class: "result-box", id: "industry-result", "data-major": String(r.major_contributing_industry),
      "data-determination": r.determination });
    box.append(el("h2", { id: "result-title", tabindex: "-1" }, TITLES[r.determination]()));
    // the next report date and the days left, right under the verdict, with the calendar (the usability test,
    // Linda: December 15 was 9 days away and sat below the fold); not determined yet: said as a condition
    if (r.next_report) box.append(nextReport(r.next_report));
    // the flow that decides it, under the verdict (the outside usability test public9, Linda): the engine's own
    // sentence from "How it was worked out"
    if (r.system_gallons_below_words) {
      box.append(el("p", { id: "result-threshold", class: "result-threshold" }, el("strong", {}, ...quotedIn(r.system_gallons_below_words))));
    }
    if (r.determination === "not-determined") {
      box.append(el("p", {}, t("None of the tests decided so far is met, but some could not be decided. To finish the check, find out:")));
      box.append(el("ul", { id: "facts-needed" }, ...r.facts_needed.map((f) => el("li", {}, ...quotedIn(f)))));
    }
    // the drain rules hold whatever the verdict (the usability test public14, Linda: the brewery washwater rule was
    // 6,000 px below the result, which never named her drains)
    box.append(el("p", { id: "result-drains" }, el("strong", {}, t("Your drains, whatever the answer above:")), " ",
      t("no grease, brewery or distillery washwater, hot circulating water, gasoline, naphtha, benzene or similar liquid, oil or other trade waste may go to the sewer without approved treatment first; as this site reads the law, no roof, yard or sump water. A garage, car wash, laundry, or cleaning or dyeing works may need an oil separator on its drains: see the rules below."),
      " ", el("a", { href: "#business-drains" }, t("The rules for a business's drains"))));
    // a step: its words, the provision it rests on, and the reading where one decides it
    const step = (s) => el("li", {}, ...quotedIn(s.text), " ",
      // (each industry step's text ends with its own label for the quotation: "The law's exception:")
      // and after it the site's unofficial translation, labelled so (the engine's `quote_words`: issue 33)
      // its quotation marks are text, not the browser's <q> marks a screen reader and a copy leave out (spanish7, C1)
      ...(s.quote ? ["“", el("q", { class: "step-quote", lang: citationLang }, s.quote), "” "] : []),
      ...(s.quote_words ? [el("span", { class: "law-words" }, ...quotedIn(s.quote_words)), " "] : []), el("span", { class: "step-law" },
      // the law in the reader's words (explain.fold_citations); a step citing the provision of the one before says so
      ...(s.law ? sentence(t("The law: {where}"), { where: lawLinkIn(`../law/#${s.anchor}`, s.law) })
        : [el("a", { href: `../law/#${s.anchor}`, title: s.where }, t("(same section of the law)"))]),
      ...(s.interpretation ? [" ", el("a", { href: `../how-we-read-the-law/#${s.interpretation}` }, t("How we read it"))] : [])));
    box.append(el("h3", {}, t("How it was worked out")));
    box.append(el("ol", { class: "explanation" }, ...r.explanation.map(step)));
    // what a Section 307 report is, where one is or may be due (issue 34: "Section 307 report" was jargon)
    if ((r.report_explained || []).length) {
      box.append(el("ul", { class: "explanation", id: "section-307" }, ...r.report_explained.map(step)));
    }
    if (r.major_contributing_industry) {
      box.append(el("h3", {}, r.year ? t("Section 307 reports due in {year}", { year: r.year }) : t("The next Section 307 report dates")));
      box.append(el("ul", { id: "report-due" }, ...r.report_due.map((d) => el("li", {}, el("time", { datetime: d }, longDate(d))))));
    } else if ((r.report_dates_if_major || []).length) {
      // not determined yet, a year entered: that year's dates, if the business is major (public12, L3)
      box.append(el("h3", {}, t("If you are a major contributing industry: Section 307 reports due in {year}", { year: r.year })));
      box.append(el("ul", { id: "report-due" }, ...r.report_dates_if_major.map((d) => el("li", {}, el("time", { datetime: d }, longDate(d))))));
    }
    box.append(el("h3", {}, t("What every industry must do")));
    box.append(el("ul", { class: "explanation", id: "obligations" }, ...r.obligations.map(step)));
    box.append(el("p", {}, el("a", { href: "#facilities" }, t("More about the pretreatment facilities"))));
    box.append(el("h3", {}, t("Your rights when the Town inspects or finds a violation")));
    box.append(el("ul", { class: "explanation", id: "result-rights" }, ...r.rights.map(step)));
    box.append(el("p", { class: "share" }, ...sentence(t("Link to this result: {link}"),
      { link: el("a", { href: `${location.pathname}?${params}`, id: "share-link" }, t("copy or bookmark this link")) })));
    result.replaceChildren(box);
    root.dataset.state = "result";
  }

  const calendarYears = (root.dataset.calendarYears || "").split(" ");
  // "Next report due: December 15, 2026 — in 9 days", then the calendar file's link as a button
  function nextReport(n) {
    const date = el("strong", {}, el("time", { datetime: n.date }, longDate(n.date)));
    const days = n.days === 0 ? t("today") : nt("in {n} day", "in {n} days", n.days);
    const line = n.if_major
      ? t("If you are a major contributing industry, your next report is due {date} — {days}.")
      : t("Next report due: {date} — {days}.");
    // the report dates alone; all the due dates, with the bills', in a second file (public14, Linda)
    const calendar = el("a", { href: root.dataset.calendar, download: t("pawling-section-307-report-dates.ics"),
      id: "calendar-result-link", class: "md-button" }, t("Add the report dates to your calendar (.ics file)"));
    const all = el("a", { href: root.dataset.calendarAll, download: t("pawling-sewer-due-dates.ics"), id: "calendar-all-result-link" },
      t("the file with all the due dates (.ics)"));
    return el("div", { class: "next-report", id: "next-report" },
      el("p", { id: "next-report-line" }, ...sentence(line, { date, days })),
      // "Not determined yet" beside a date in 8 days said nothing to do (the usability test public15, Linda)
      n.if_major ? el("p", { id: "next-report-ask" }, t("To find out whether you are, ask the Sewer Inspector before that date.")) : null,
      el("p", {}, calendar),
      // the years the file holds, named (the outside usability test public9: "for two years" read as two years ahead)
      el("p", { class: "next-report-note", id: "calendar-note" }, t("The calendar file holds the report dates of every year from {first} through {last}, the dates already past included, each with a reminder a week before.",
        { first: calendarYears[0], last: calendarYears[1] })),
      el("p", { class: "next-report-note", id: "calendar-all-note" },
        ...sentence(t("To have the quarterly sewer bill due dates in your calendar too, use {file} instead."), { file: all })));
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
    starting.done();
    if (answer.ok) {
      showResult(answer.result, params);
      history.replaceState(null, "", `?${params}`);
      if (focus) $("result-title").focus();
    } else {
      showError(answer, true); // also for a link: the summary takes the focus, as on a page load
    }
  }

  const starting = startingNote($("industry-button"), () => window.__industry.ready,
    t("The check is still starting. The answer will show below as soon as it is ready."));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    starting.pressed();
    check(formParams(), true);
  });

  // ---- start: the link's answers (no year: the next report dates from today) ----
  const initial = new URLSearchParams(location.search);
  fillForm(initial);
  // a value given twice in a link: which one is meant is not known, so none is worked out (as the estimate)
  const keys = [...initial.keys()].filter((k) => NUMBERS.includes(k) || FLAGS.includes(k));
  const twice = keys.find((k, i) => keys.indexOf(k) !== i);
  if (twice) {
    const label = form.querySelector(`label[for="${twice}"]`);
    showError({ field: twice, error: t("This link gives “{name}” more than once, so the check cannot tell which one is meant. Check the form below and press the button.", { name: label ? label.textContent.trim() : twice }) }, true);
  } else if (initial.has("average-workday-gallons")) {
    root.dataset.state = "loading-link";
    check(formParams(), false);
  }
}
