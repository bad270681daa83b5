// The Clerk's desk: moves one step's form to the engine's `rates` command (in a worker)
// and its answer to the page: what the step found, and each file it makes as a download
// and, for a file under rules/, a link that commits it on GitHub. The state lives in the
// query string with the command line's option names (?step=notice&schedule=2028&…), so
// a link fills the form and shows the result. Nothing is checked or worked out here:
// calculator/rate_year.py does it, the same code as `python3 build.py rates …`.
import { clearFieldErrors, el, longDate, showFieldError, startEngine, statusLine } from "./engine-client.js";

const root = document.getElementById("clerk-desk");
// Each step's form fields, in the order of the command's words; `schedule` is the
// command's positional word, the rest are its --options.
const STEPS = {
  propose: ["fiscal-year", "effective", "om-cost", "user-volume-gallons", "extraneous-flow-cost",
    "budgeted-om-cost", "sewage-fraction", "proposed-on"],
  notice: ["schedule", "published", "meeting", "time", "place", "newspaper", "body"],
  adopt: ["schedule", "date", "ayes", "noes", "absent", "resolution"],
  "user-notice": ["schedule"],
};
const TITLES = {
  propose: (r) => `Schedule ${r.schedule} is ready to propose`,
  notice: (r) => `The notice for schedule ${r.schedule} is ready to record`,
  adopt: (r) => `Schedule ${r.schedule} is ready to record as adopted`,
  "user-notice": (r) => `The notice to users for schedule ${r.schedule}`,
};
const NEXT = { propose: "notice", notice: "adopt", adopt: "user-notice" };

if (root) start();

function start() {
  root.hidden = false;
  root.dataset.state = "loading";
  const $ = (id) => document.getElementById(id);
  const result = $("result");
  let latest = 0;
  let urls = [];
  window.__clerk = { ready: false };

  const status = statusLine(root, "The calculator is ready.",
    "The calculator could not start in this browser. The same steps run in a terminal: python3 build.py rates.");
  const engine = startEngine(root.dataset.wheel, {
    ...status,
    onReady: () => {
      status.onReady();
      window.__clerk.ready = true;
      if (root.dataset.state === "loading") root.dataset.state = "ready";
    },
  });

  const formOf = (step) => $(`${step}-form`);
  const input = (step, name) => (name === "body" ? $("notice-body") : $(`${step}-${name}`));

  function show(step) {
    for (const name of Object.keys(STEPS)) formOf(name).hidden = name !== step;
    for (const a of root.querySelectorAll("[data-step-link]")) {
      if (a.dataset.stepLink === step) a.setAttribute("aria-current", "step");
      else a.removeAttribute("aria-current");
    }
  }

  // ---- the form <-> the query string <-> argv (one set of names) ----
  function formParams(step) {
    const p = new URLSearchParams({ step });
    const form = formOf(step);
    for (const name of STEPS[step]) {
      const value = name === "body" ? form.querySelector("input[name=body]:checked")?.value : input(step, name).value.trim();
      if (value) p.set(name, value);
    }
    return p;
  }

  function fillForm(step, params) {
    for (const name of STEPS[step]) {
      if (!params.has(name)) continue;
      if (name === "body") {
        for (const r of formOf(step).querySelectorAll("input[name=body]")) r.checked = r.value === params.get(name);
      } else input(step, name).value = params.get(name);
    }
  }

  function argvFrom(step, params) {
    const argv = ["rates", step];
    for (const name of STEPS[step]) {
      const required = name !== "body" && input(step, name).hasAttribute("data-required");
      if (!params.has(name) && !required) continue;
      const value = params.get(name) || "";
      if (name === "schedule") argv.push(value);
      else argv.push(`--${name}=${value}`); // "=": a value like -5 is a value, and the engine says why it is wrong
    }
    if (root.dataset.siteUrl) argv.push(`--site-url=${root.dataset.siteUrl}`);
    if (root.dataset.repoUrl) argv.push(`--repo-url=${root.dataset.repoUrl}`);
    return argv;
  }

  // ---- showing the answer ----
  function table(t) {
    return el("table", { id: "effects-table" },
      el("caption", {}, t.title),
      el("thead", {}, el("tr", {}, ...t.head.map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, ...t.rows.map((r) => el("tr", {}, el("th", { scope: "row" }, r[0]), ...r.slice(1).map((c) => el("td", {}, c))))));
  }

  function findings(r) {
    const box = el("div", { id: "findings" });
    if (r.step === "propose") {
      box.append(el("dl", { class: "summary" },
        el("dt", {}, "Rate (VC)"), el("dd", { id: "vc" }, `$${r.vc.vc_per_1000_gallons} per 1,000 gallons`),
        el("dt", {}, "Share of water billed as sewage"), el("dd", {}, r.sewage_fraction)));
      box.append(table(r.effects));
      if (r.effects.note) box.append(el("p", {}, r.effects.note));
    } else if (r.step === "notice") {
      const w = r.window;
      box.append(el("p", { id: "window" }, `The lawful meeting window: ${longDate(w.earliest)} to ${longDate(w.latest)} `
        + `(${w.minimum_days} to ${w.maximum_days} days after publication on ${longDate(w.published)}). `
        + `The meeting on ${longDate(w.meeting)} is ${w.days} days after publication.`));
    } else if (r.step === "adopt") {
      const v = r.vote;
      box.append(el("p", { id: "vote-needed" }, `The vote needed: ${v.needed} ayes of all ${v.board_size} members, `
        + `whatever the absences. Recorded: ${v.ayes} ayes, ${v.noes} noes${v.absent !== undefined ? `, ${v.absent} absent` : ""}.`));
    }
    return box;
  }

  function fileItem(f, i) {
    const url = URL.createObjectURL(new Blob([f.text], { type: "text/plain;charset=utf-8" }));
    urls.push(url);
    const item = el("li", { class: "clerk-file", "data-path": f.path },
      el("a", { href: url, download: f.name, id: `file-${i}`, class: "download" }, `Download ${f.name}`),
      ` (${f.path})`);
    const g = f.github;
    if (g && g.kind === "new") {
      item.append(el("br"), el("a", { href: g.url, class: "github-link", rel: "noopener" }, `Commit ${f.name} on GitHub`),
        ": opens GitHub's new-file page with its name and content filled in; press \"Commit changes\".");
    } else if (g && g.kind === "edit") {
      item.append(el("br"), `This replaces a file already there: `,
        el("a", { href: g.url, class: "github-link", rel: "noopener" }, `open ${f.path} on GitHub`),
        `, replace all its text with the downloaded file's, and press "Commit changes".`);
    } else if (g && g.kind === "upload") {
      item.append(el("br"), "Too long for a link: download it, open ",
        el("a", { href: g.url, class: "github-link", rel: "noopener" }, "GitHub's \"Upload files\" page for its folder"),
        `, drag ${f.name} onto it, and press "Commit changes".`);
    } else if (f.rules) {
      item.append(el("br"), `Add it to the repository as ${f.path}.`);
    }
    return item;
  }

  function showResult(step, r, params) {
    for (const u of urls) URL.revokeObjectURL(u);
    urls = [];
    const box = el("div", { class: "result-box", id: "clerk-result", "data-step": r.step });
    box.append(el("h2", { id: "result-title", tabindex: "-1" }, TITLES[r.step](r)));
    box.append(findings(r));
    const records = r.files.filter((f) => f.rules);
    const notices = r.files.filter((f) => !f.rules);
    if (records.length) {
      box.append(el("h3", {}, "Add this to the rules"));
      box.append(el("p", {}, "Nothing is recorded until the file is in the site's rules and the site is built again "
        + "(GitHub builds it after a commit)."));
      box.append(el("ul", { id: "record-files" }, ...records.map((f, i) => fileItem(f, i))));
    }
    for (const path of r.removes) {
      box.append(el("p", { class: "clerk-remove" }, `Also delete ${path}: it belonged to the proposal this one replaces.`));
    }
    if (notices.length) {
      box.append(el("h3", {}, "The notice"));
      box.append(el("ul", { id: "notice-files" }, ...notices.map((f, i) => fileItem(f, records.length + i))));
      box.append(el("p", {}, "Its PDF is made when the site is built with the records above; it is then on the Notices page."));
      box.append(el("pre", { class: "notice-text", id: "notice-text" }, notices[0].text));
    }
    box.append(el("details", {}, el("summary", {}, `What python3 build.py rates ${r.step} prints`),
      el("pre", { id: "report" }, r.report.join("\n"))));
    if (NEXT[r.step]) {
      box.append(el("p", {}, "Once it is committed and the site rebuilt: ",
        el("a", { href: `?step=${NEXT[r.step]}&schedule=${encodeURIComponent(r.schedule)}`, id: "next-step" }, "the next step"), "."));
    }
    box.append(el("p", { class: "share" }, "Link to this result: ",
      el("a", { href: `${location.pathname}?${params}`, id: "share-link" }, "copy or bookmark this link")));
    result.replaceChildren(box);
    root.dataset.state = "result";
  }

  function showError(step, answer, focus) {
    const fields = STEPS[step].filter((n) => n !== "body");
    const target = fields.includes(answer.field) ? input(step, answer.field) : input(step, fields[0]);
    result.replaceChildren();
    root.dataset.state = "error";
    showFieldError(formOf(step), target, answer.error, focus);
  }

  async function check(step, params, focus) {
    const mine = ++latest;
    const answer = await engine.ask(argvFrom(step, params));
    if (mine !== latest) return;
    if (answer.ok) {
      clearFieldErrors(formOf(step));
      showResult(step, answer.result, params);
      history.replaceState(null, "", `?${params}`);
      if (focus) $("result-title").focus();
    } else {
      showError(step, answer, true); // also for a link: the summary takes the focus, as on a page load
    }
  }

  for (const step of Object.keys(STEPS)) {
    formOf(step).addEventListener("submit", (e) => {
      e.preventDefault();
      check(step, formParams(step), true);
    });
  }

  // ---- start: the link's step and answers ----
  const initial = new URLSearchParams(location.search);
  const step = STEPS[initial.get("step")] ? initial.get("step") : "propose";
  show(step);
  fillForm(step, initial);
  const given = STEPS[step].some((n) => n !== "body" && initial.has(n));
  if (given && STEPS[step].filter((n) => input(step, n)?.hasAttribute("data-required")).every((n) => initial.has(n))) {
    root.dataset.state = "loading-link";
    check(step, formParams(step), false);
  }
}
