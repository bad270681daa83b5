// The Clerk's desk: moves each step's form to the engine's `rates` command (in a worker)
// and its answer to the page. Nothing is checked or worked out here: calculator/rates/rate_year.py
// does it, the same code as `python3 build.py rates …`.
//
// The Clerk's work stays in this browser (localStorage) until she publishes it: each step's
// record goes back to the engine with the next step (`--prepared`, the records written into the
// worker's files), so she can go from proposal to notice to vote to the notice to users in one
// sitting, and publish (commit) each step when she is ready. She can also take up a year from
// the files she downloaded. The query string holds only where she is (?step=notice&year=2028);
// a link that carries a step's answers (the option names) fills the form and checks it.
import { el, longDate, startEngine, statusLine, todayIso } from "./engine-client.js"; // today: this computer's, not the build's (clerk13)

const root = document.getElementById("clerk-desk");
const STORE = "pawling-clerk-desk";
const DRAFTS = "pawling-clerk-desk-drafts"; // what she typed and has not recorded yet (below)
// Each step's form fields, in the order of the command's words; the schedule (the year) is
// the command's positional word, the rest are its --options.
const STEPS = {
  propose: ["fiscal-year", "effective", "om-cost", "projected-om-cost", "user-volume-gallons", "user-water-gallons", "extraneous-flow-cost",
    "budgeted-om-cost", "sewage-fraction", "proposed-on", "retroactive", "title-es", "note", "note-es"],
  notice: ["published", "meeting", "time", "place", "newspaper", "clerk-name", "body"],
  adopt: ["date", "ayes", "noes", "absent", "resolution", "recorded-on"],
  "user-notice": [],
};
const ORDER = Object.keys(STEPS);
const STEP_NAMES = { propose: "Propose the schedule", notice: "Publish the notice", adopt: "Record the vote",
  "user-notice": "Notify users" };
const RECORD = { propose: "proposal", notice: "notice", adopt: "vote" }; // the engine's record names
const FILE_OF = { proposal: "proposal.yaml", notice: "notice.yaml", vote: "vote.yaml" };
// Fields the engine may name that have no box on the desk
const OTHER_NAMES = { "site-url": "the site's address", prepared: "the files you chose", schedule: "the year" };
const STAGES = { "no-schedule": "No schedule", proposed: "Proposed", notice: "Notice published",
  adopted: "Adopted", illustrative: "Illustrative only (not adopted)" };
// The publish box's heading, in the Clerk's words (issue 34: "commit", "repository" and ".yaml" are the site
// keeper's words, behind "For the person who keeps the site"): with a GitHub address she publishes herself
const PUBLISH = {
  propose: "Publish the proposal on the site",
  notice: "Publish the notice on the site",
  adopt: "Publish the adoption on the site",
  "user-notice": "Publish the year's records on the site",
};
const SEND = (n) => `Send ${n === 1 ? "this record" : "these records"} to the person who keeps the site`;

// not inside another site's frame: the page's head marked it so (docs/overrides/main.html, `framing: deny`)
if (root && !document.documentElement.classList.contains("framed")) start();

// ---- the Clerk's work, kept in this browser ----
function load() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORE) || "{}");
    return { current: saved.current || null, years: saved.years || {} };
  } catch {
    return { current: null, years: {} };
  }
}

function save(work) {
  try {
    localStorage.setItem(STORE, JSON.stringify(work));
  } catch {
    // private mode or full: the work lasts as long as the page; the downloads keep it
  }
}

// What she has typed into a step and not yet recorded, kept apart from her records (its own key):
// restored when the page loads again (a reload, Back and Forward), never counted as a step done.
function loadDrafts() {
  try {
    return JSON.parse(localStorage.getItem(DRAFTS) || "{}") || {};
  } catch {
    return {};
  }
}
function saveDrafts(drafts) {
  try {
    if (Object.keys(drafts).length) localStorage.setItem(DRAFTS, JSON.stringify(drafts));
    else localStorage.removeItem(DRAFTS);
  } catch {
    // private mode or full: the draft lasts as long as the page
  }
}

// The files in a zip, {path: bytes}, read from its central directory: stored (as the desk's own zip is, `rates
// pack`) or deflated (a zip made again by the computer's own "compress"), with the browser's own
// DecompressionStream; null when it is not a zip this browser can read.
async function unzip(bytes) {
  try {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let end = bytes.length - 22;
    while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) end--;
    if (end < 0) return null;
    const count = view.getUint16(end + 10, true);
    let at = view.getUint32(end + 16, true);
    const files = {};
    for (let i = 0; i < count; i++) {
      if (view.getUint32(at, true) !== 0x02014b50) return null;
      const method = view.getUint16(at + 10, true);
      const size = view.getUint32(at + 20, true);
      const [nameLength, extra, comment] = [28, 30, 32].map((o) => view.getUint16(at + o, true));
      const local = view.getUint32(at + 42, true);
      const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength));
      at += 46 + nameLength + extra + comment;
      if (name.endsWith("/")) continue;
      const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
      const data = bytes.subarray(start, start + size);
      if (method === 0) files[name] = data;
      else if (method === 8 && typeof DecompressionStream === "function") {
        const stream = new Blob([data]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
        files[name] = new Uint8Array(await new Response(stream).arrayBuffer());
      } else return null;
    }
    return files;
  } catch {
    return null;
  }
}

function yearOf(work, year) {
  // a year only as its own key: ?year=constructor named Object's, not a year (the ninth hostile tester, F2)
  if (!Object.hasOwn(work.years, year)) work.years[year] = { records: {}, notices: {}, inputs: {}, made: {} };
  return work.years[year];
}

function start() {
  root.hidden = false;
  root.dataset.state = "loading";
  const $ = (id) => document.getElementById(id);
  const result = $("result");
  let work = load();
  let latest = 0;
  let requests = 0;
  let urls = [];
  let step = "propose";
  window.__clerk = { ready: false, work: () => load() };

  const status = statusLine(root, "The calculator is ready.",
    "The calculator could not start in this browser. Try reloading the page, or another browser.");
  const engine = startEngine(root.dataset.wheel, {
    ...status,
    onReady: () => {
      status.onReady();
      window.__clerk.ready = true;
      if (root.dataset.state === "loading") root.dataset.state = "ready";
      // the step's result as she last saw it, with its downloads (the usability test: after a reload the
      // result was gone until she pressed the button again), once the year's standing is known
      glance().then(() => {
        if (root.dataset.state === "ready" && !result.children.length) showKept(step);
      });
    },
  });

  // The site's address, which a notice names: the one the site was built with, else the
  // address this desk is served from (the site is one folder up from /clerk/).
  // the site's public address: as set (site_url), or the address the desk is served from, unless that is
  // this computer's own (a newspaper reader could not open it: issue 34), when the notices name none
  const local = ["localhost", "[::1]", ""].includes(location.hostname) || /^127\./.test(location.hostname);
  const siteUrl = root.dataset.siteUrl || (local ? "" : new URL("../", location.origin + location.pathname).href);
  // no address: said once, above the desk, in her words; the address is the site keeper's to set (their steps
  // and the publish page say how), never asked of the Clerk (her third usability test)
  if (!siteUrl) {
    root.before(el("p", { id: "no-site-address", class: "clerk-note" },
      el("strong", {}, "The site's web address is not set yet. "),
      "The person who keeps the site sets it. Until then, the notices you make here carry no link to the site."));
  }

  const formOf = (s) => $(`${s}-form`);
  const input = (s, name) => (name === "body" ? $("notice-body") : $(`${s}-${name}`));
  // a box to tick (propose's "retroactive"): "yes" when ticked, as a link gives it
  const isTick = (s, name) => name !== "body" && input(s, name)?.type === "checkbox";
  const valueOf = (s, name) => (name === "body" ? formOf(s).querySelector("input[name=body]:checked")?.value
    : isTick(s, name) ? (input(s, name).checked ? "yes" : "") : input(s, name).value.trim());
  const labelOf = (s, name) => {
    const label = document.querySelector(`label[for="${s}-${name}"]`);
    return label ? label.textContent.replace(/ \(optional\)$/, "").trim() : null;
  };

  // ---- a message in the desk's words: each field by its label, each step by its name ----
  // ---- and each provision by its article's name, not its id: "(rate-schedules.B, C)" is "(Rate
  // schedules, sections B and C)" (issue 34, item 4) ----
  const ARTICLE_NAMES = { "rate-schedules": "Rate schedules", rents: "Sewer charges" };
  function provisions(text) {
    return text.replace(/\b(rate-schedules|rents)\.([A-H](?:\.\d)?)((?:, [A-H])*)(?:-([A-H]))?\b/g,
      (_m, article, first, more, last) => {
        const labels = [first, ...(more ? more.split(", ").filter(Boolean) : [])];
        if (last) return `${ARTICLE_NAMES[article]}, sections ${first} to ${last}`;
        return `${ARTICLE_NAMES[article]}, ${labels.length > 1 ? "sections" : "section"} `
          + (labels.length > 1 ? `${labels.slice(0, -1).join(", ")} and ${labels.at(-1)}` : first);
      });
  }
  function words(text) {
    return provisions(text.replace(/⟦(step:)?([a-z-]+)⟧/g, (_m, isStep, name) => {
      if (isStep) return `step ${ORDER.indexOf(name) + 1}, “${STEP_NAMES[name]}”`;
      const s = ORDER.find((x) => STEPS[x].includes(name) && labelOf(x, name));
      return s ? `“${labelOf(s, name)}”` : OTHER_NAMES[name] || name;
    }));
  }

  // ---- the engine's words: the step's argv, with the year's prepared records ----
  function prepared(year, upTo) {
    // the records of the year made before this step (a step replaces its own record)
    const files = {};
    const folder = `/desk/${++requests}`;
    const y = work.years[year];
    if (y) {
      for (const [s, rec] of Object.entries(RECORD)) {
        if (s === upTo) break;
        if (y.records[rec]) files[`${folder}/${year}/${FILE_OF[rec]}`] = new TextEncoder().encode(y.records[rec].text);
      }
    }
    return { folder, files };
  }

  async function ask(argv, year, upTo) {
    const { folder, files } = prepared(year, upTo);
    const words_ = [...argv, `--prepared=${folder}`, ...(siteUrl ? [`--site-url=${siteUrl}`] : [])];
    if (root.dataset.repoUrl) words_.push(`--repo-url=${root.dataset.repoUrl}`);
    return engine.ask(words_, files);
  }

  // a box needed only with another field (the note in Spanish, with the note): shown while that
  // field has words; while hidden, its words are kept in the box but not sent
  const shownWith = [...root.querySelectorAll("[data-with]")];
  function showNeeded() {
    for (const box of shownWith) box.hidden = !$(box.dataset.with).value.trim();
  }
  for (const box of shownWith) $(box.dataset.with).addEventListener("input", showNeeded);
  // the first day of the fiscal year typed, as the effective date, until the Clerk types her own (issue 34)
  let autoEffective = "";
  function prefillEffective() {
    const year = $("propose-fiscal-year").value.trim();
    const effective = $("propose-effective");
    if (effective.value && effective.value !== autoEffective) return;
    autoEffective = /^\d{4}$/.test(year) ? `${year}-${root.dataset.fiscalStart || "01-01"}` : "";
    effective.value = autoEffective;
  }
  $("propose-fiscal-year").addEventListener("input", prefillEffective);
  const isHidden = (s, name) => Boolean(input(s, name)?.closest("[data-with]")?.hidden);

  function formParams(s) {
    const p = new URLSearchParams();
    for (const name of STEPS[s]) {
      if (name !== "body" && isHidden(s, name)) continue;
      const value = valueOf(s, name);
      if (value) p.set(name, value);
    }
    return p;
  }

  function fillForm(s, values) {
    for (const name of STEPS[s]) {
      const value = values instanceof URLSearchParams ? values.get(name) : values?.[name];
      if (value === null || value === undefined) continue;
      if (name === "body") {
        for (const r of formOf(s).querySelectorAll("input[name=body]")) r.checked = r.value === value;
      } else if (isTick(s, name)) input(s, name).checked = value === "yes";
      else input(s, name).value = value;
    }
    showNeeded();
    if (s === "propose") prefillEffective();
    if (s === "notice") showWindow(); // for a newspaper date kept, or filled in by a link
  }

  // ---- what she typed, kept as a draft per year and step until the step is recorded ----
  const draftKey = (s) => `${work.current || "new"}:${s}`;
  function draftOf(s) {
    const values = {};
    for (const name of STEPS[s]) {
      const value = valueOf(s, name);
      if (value) values[name] = value;
    }
    return values;
  }
  function keepDraft(s) {
    if (!STEPS[s].length) return;
    const drafts = loadDrafts();
    drafts[draftKey(s)] = draftOf(s);
    saveDrafts(drafts);
  }
  function dropDraft(...keys) {
    const drafts = loadDrafts();
    for (const k of keys) delete drafts[k];
    saveDrafts(drafts);
  }
  function restoreDrafts() {
    const drafts = loadDrafts();
    for (const s of ORDER) if (drafts[draftKey(s)]) fillForm(s, drafts[draftKey(s)]);
  }
  for (const s of ORDER) {
    formOf(s).addEventListener("input", () => keepDraft(s));
    formOf(s).addEventListener("change", () => keepDraft(s));
  }

  // ---- the lawful meeting window, shown as soon as the newspaper date is a date (the meeting's hint
  // promises it): the engine's `hearing` command works it out, as for the notice ----
  let windowAsked = 0;
  async function showWindow() {
    const box = $("notice-window");
    const published = $("notice-published").value.trim();
    const mine = ++windowAsked;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(published)) {
      box.textContent = "";
      return;
    }
    const answer = await engine.ask(["hearing", `--published=${published}`]);
    if (mine !== windowAsked) return;
    // the proposal's first day, from its record in this browser: a meeting after it is refused (the Board could
    // not adopt the rates in time), so the window shown ends there too (clerk12: January 5 was offered, then refused)
    const proposal = ((work.years[work.current] || {}).records || {}).proposal;
    const effective = proposal && (/^effective:\s*"?(\d{4}-\d{2}-\d{2})"?/m.exec(proposal.text) || [])[1];
    const capped = answer.ok && effective && effective >= answer.result.earliest && effective < answer.result.latest;
    box.textContent = answer.ok
      ? `The meeting for public comments must be between ${longDate(answer.result.earliest)} and `
        + `${longDate(answer.result.latest)}: ${box.dataset.minimumDays} to ${box.dataset.maximumDays} days after `
        + `the notice appears in the newspaper on ${longDate(published)}.`
        + (capped ? ` To adopt the rates by ${longDate(effective)}, the day they take effect, hold it by `
          + `${longDate(effective)} (as this site reads Rate schedules A; the Town has not adopted this reading).` : "")
      : "";
  }
  // the meeting's box is described by the window too, as its hint promises
  $("notice-meeting").setAttribute("aria-describedby",
    `${$("notice-meeting").getAttribute("aria-describedby")} notice-window`);
  $("notice-published").addEventListener("input", showWindow);
  $("notice-published").addEventListener("change", showWindow);

  function argvFrom(s, params, year) {
    const argv = ["rates", s];
    if (s !== "propose") argv.push(year);
    for (const name of STEPS[s]) {
      const required = name !== "body" && input(s, name).hasAttribute("data-required");
      if (!params.has(name) && !required) continue;
      if (isTick(s, name)) { // a switch, given or not: "--retroactive" for "yes" (and any other value is not it)
        if (params.get(name) === "yes") argv.push(`--${name}`);
        continue;
      }
      argv.push(`--${name}=${params.get(name) || ""}`); // "=": a value like -5 is a value, and the engine says why
    }
    return argv;
  }

  // ---- the first screen: where each year stands ----
  function daysLeft(d) {
    if (d.days_left > 1) return `${d.days_left} days left`;
    if (d.days_left === 1) return "1 day left";
    if (d.days_left === 0) return "today";
    return "passed";
  }

  async function glance() {
    const years = Object.keys(work.years);
    let answer = { ok: false };
    // every year this browser holds work for, in one folder
    const files = {};
    const folder = `/desk/${++requests}`;
    for (const year of years) {
      for (const [rec, f] of Object.entries(work.years[year].records)) {
        files[`${folder}/${year}/${FILE_OF[rec]}`] = new TextEncoder().encode(f.text);
      }
    }
    answer = await engine.ask(["rates", "status", `--today=${todayIso()}`, `--prepared=${folder}`], files);
    const box = $("year-table");
    if (!answer.ok) {
      box.replaceChildren(el("p", {}, words(answer.error)));
      return;
    }
    const r = answer.result;
    const rows = r.years.map((y) => {
      const mine = work.years[String(y.fiscal_year)];
      let stage = STAGES[y.stage] || y.stage;
      if (y.stage === "notice" && y.prepared.includes("notice")) stage = "Notice prepared";
      if (y.stage === "adopted" && mine?.made["user-notice"]) stage = "Adopted; notice to users made";
      // whether the public site shows it: every record of the year published, or some only in this browser
      const onSite = y.schedule && !y.prepared.length && !["illustrative", "no-schedule"].includes(y.stage);
      const unpublished = y.prepared.length
        ? el("span", { class: "unpublished", "data-published": "no" },
          y.stage === "adopted" ? " Adopted in this browser, not yet on the site." : " Prepared in this browser, not yet on the site.")
        : onSite ? el("span", { class: "published", "data-published": "yes" }, " Published on this site ✓") : null;
      // a year under way with no adopted schedule of its own: what its bills use, said calmly, and no offer to
      // propose one once none could bill a quarter of it (the Clerk's second usability test: "No schedule … has
      // started without an adopted schedule … Propose a schedule for 2026" alarmed her in December 2026)
      const late = y.started && !["adopted", "illustrative"].includes(y.stage);
      if (late && y.stage === "no-schedule") stage = "No adopted schedule";
      const next = r.years.find((o) => o.fiscal_year === y.fiscal_year + 1);
      const uses = !y.uses ? "" : y.uses.status === "illustrative"
        ? "This site uses its example rates for this year: the schedule in force on its first day, as this site reads the law."
        : `This site uses “${y.uses.title}” for this year: the schedule in force on its first day, as this site reads the law.`;
      const deadlines = y.deadlines.length
        ? el("ul", { class: "deadlines" }, ...y.deadlines.map((d) => el("li", {}, `${d.what} ${longDate(d.date)}: `,
          el("strong", {}, daysLeft(d)))))
        : !late ? ""
          : y.may_propose ? `${uses} A schedule for it can still be proposed; it would be billed from a later quarter.`.trim()
            : `${uses}${next && next.stage !== "adopted" ? ` The next step is the ${next.fiscal_year} schedule.` : ""}`.trim();
      const done = ["adopted", "illustrative"].includes(y.stage) && !mine;
      const open = done || (late && !y.may_propose && !y.schedule && !mine) ? ""
        : el("a", { href: `?year=${y.fiscal_year}`, "data-year": y.fiscal_year, class: "open-year" },
          y.schedule ? `Work on ${y.fiscal_year}` : `Propose a schedule for ${y.fiscal_year}`);
      return el("tr", { "data-year": y.fiscal_year },
        el("th", { scope: "row" }, String(y.fiscal_year)),
        el("td", { class: "stage" }, stage, unpublished),
        el("td", {}, deadlines),
        el("td", {}, open));
    });
    box.replaceChildren(el("table", { id: "years" },
      el("caption", {}, `Today is ${longDate(r.today)}.`),
      el("thead", {}, el("tr", {}, ...["Year", "Where it stands", "Deadlines (the law, as this site reads it)"].map((h) => el("th", { scope: "col" }, h)),
        el("th", { scope: "col" }, el("span", { class: "visually-hidden" }, "What to do")))),
      el("tbody", {}, ...rows)));
    for (const a of box.querySelectorAll("a.open-year")) {
      a.addEventListener("click", (e) => {
        e.preventDefault();
        openYear(a.dataset.year);
      });
    }
    const without = $("years-without");
    without.hidden = false;
    without.textContent = r.without_schedule.length
      // in the Clerk's words (clerk12, 15: "Years with no schedule of their own" was jargon)
      ? `No rate schedule has been adopted for: ${r.without_schedule.join(", ")}. A proposed one counts once the Board's vote is recorded.`
      : "Every year shown has a rate schedule of its own.";
    window.__clerk.status = r;
  }

  // ---- which year and step ----
  function nextStepFor(year) {
    const y = work.years[year];
    if (!y) return "propose";
    if (y.records.vote) return "user-notice";
    if (y.records.notice) return "adopt";
    if (y.records.proposal) return "notice";
    return "propose";
  }

  function openYear(year) {
    work.current = year;
    save(work);
    const y = yearOf(work, year);
    show(nextStepFor(year));
    if (!work.years[year].records.proposal) {
      fillForm("propose", { "fiscal-year": year });
      keepDraft("propose"); // the year the link filled in lasts through a reload too
    }
    for (const s of ORDER) if (y.inputs[s]) fillForm(s, y.inputs[s]);
    restoreDrafts();
    formOf(step).querySelector("h2").focus();
  }

  function show(s) {
    step = s;
    for (const name of ORDER) formOf(name).hidden = name !== s;
    for (const a of root.querySelectorAll("[data-step-link]")) {
      if (a.dataset.stepLink === s) a.setAttribute("aria-current", "step");
      else a.removeAttribute("aria-current");
    }
    const year = work.current;
    $("year-title").textContent = year ? `The rate schedule for ${year}` : "A new rate schedule";
    const q = new URLSearchParams({ step: s });
    if (year) q.set("year", year);
    history.replaceState(null, "", `?${q}`);
    clearProblems();
  }

  for (const a of root.querySelectorAll("[data-step-link]")) {
    a.addEventListener("click", (e) => {
      e.preventDefault();
      show(a.dataset.stepLink);
      result.replaceChildren();
      showKept(a.dataset.stepLink);
    });
  }

  // ---- every problem at once, each beside its box and in the summary ----
  function clearProblems() {
    $("error-summary").hidden = true;
    $("error-summary-list").replaceChildren();
    for (const p of root.querySelectorAll(".field-error")) { p.hidden = true; p.replaceChildren(); }
    for (const i of root.querySelectorAll("[aria-invalid]")) i.removeAttribute("aria-invalid");
  }

  function showProblems(s, answer) {
    clearProblems();
    const problems = answer.problems || [{ field: answer.field, text: answer.error }];
    if (problems.some((p) => p.field === "prepared")) $("take-up").open = true; // the files she chose
    for (const p of problems) {
      const message = words(p.text);
      const box = (p.field && STEPS[s].includes(p.field) && p.field !== "body" && input(s, p.field))
        || (p.field === "prepared" ? $("take-up-files") : $(`${s}-schedule`));
      const link = el("a", { href: `#${box.id}` }, message);
      link.addEventListener("click", (e) => { e.preventDefault(); box.focus(); });
      // a field of another step the message names (the proposal's date, from the notice): a link to it there
      const elsewhere = [...p.text.matchAll(/⟦([a-z-]+)⟧/g)].map((m) => m[1])
        .map((name) => [ORDER.find((x) => x !== s && STEPS[x].includes(name) && labelOf(x, name)), name])
        .filter(([x]) => x);
      const goTo = () => elsewhere.map(([x, name]) => {
        const a = el("a", { href: `?step=${x}`, class: "other-step-field" },
          `Change “${labelOf(x, name)}” in step ${ORDER.indexOf(x) + 1}, “${STEP_NAMES[x]}”`);
        a.addEventListener("click", (e) => {
          e.preventDefault();
          show(x);
          result.replaceChildren();
          input(x, name).focus();
        });
        return a;
      });
      $("error-summary-list").append(el("li", {}, link, ...goTo().flatMap((a) => [" ", a])));
      const inline = $(`${box.id}-error`);
      if (inline) {
        inline.append(el("span", { class: "visually-hidden" }, "Error: "), message, " ", ...goTo().flatMap((a) => [a, " "]));
        inline.hidden = false;
      }
      if (box.tagName === "INPUT") box.setAttribute("aria-invalid", "true");
    }
    $("error-summary").hidden = false;
    $("error-summary").focus();
    result.replaceChildren();
    root.dataset.state = "error";
  }

  // ---- the answer ----
  function table(t) {
    // "Now" at the example schedule says so in its heading (the Clerk's re-test: she took its $64.00 for the Town's rate)
    const head = ["Water use (gallons)", t.note ? "Now (example rate: invented)" : "Now", "Proposed", "Change"];
    return el("table", { id: "effects-table" },
      el("caption", {}, t.title),
      el("thead", {}, el("tr", {}, ...head.map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, ...t.rows.map((r) => el("tr", {}, el("th", { scope: "row" }, r[0]), ...r.slice(1).map((c) => el("td", {}, c))))));
  }

  function findings(r, year) {
    const box = el("div", { id: "findings" });
    if (r.step === "propose") {
      box.append(el("dl", { class: "summary" },
        el("dt", {}, "Rate per 1,000 gallons (the law's VC)"), el("dd", { id: "vc" }, `$${r.vc.vc_per_1000_gallons} per 1,000 gallons`),
        // the share as she typed it, a percent (clerk11, P3: "85%" was shown back as 0.85)
        el("dt", {}, "Share of water billed as sewage"), el("dd", { id: "sewage-fraction" }, r.sewage_percent || r.sewage_fraction)));
      // the water entered, and the sewage volume worked out from it (clerk11, P1)
      if (r.user_volume_words) box.append(el("p", { id: "user-volume-words" }, r.user_volume_words));
      // left blank, the share was taken from another schedule: which, and a warning when that one is not adopted
      // (the example schedule's share is invented)
      const from = r.sewage_fraction_from;
      if (from) {
        box.append(from.status === "adopted"
          ? el("p", { id: "sewage-fraction-from" }, words(from.words))
          : el("p", { id: "sewage-fraction-from", class: "unpublished-label sewage-warning" },
            el("strong", {}, "Warning: "), words(from.words)));
      }
      // last year's cost and this year's budget both given: the rate from each, side by side, and the site's
      // reading labelled as the site's, not the law (issue 34, item 3)
      const by = r.vc.vc_by_basis;
      if (by) {
        const first = by["past-year"] ? "past-year" : "projected";
        const from = { "past-year": "From last year's cost", projected: "From this year's projected cost",
          budgeted: "From this year's budget" };
        const cell = (key) => el("td", { "data-basis": key }, `$${by[key]} per 1,000 gallons`,
          key === by.chosen ? el("strong", {}, " (this site's reading uses this one)") : "");
        box.append(el("table", { id: "basis-table" },
          el("caption", {}, "Two rates, one for each way the law can be read"),
          el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Cost the rate is based on"), el("th", { scope: "col" }, "Rate"))),
          el("tbody", {}, ...[first, "budgeted"].map((key) => el("tr", {}, el("th", { scope: "row" }, from[key]), cell(key))))));
        box.append(el("p", { id: "basis-choice", class: "site-reading" }, el("strong", {}, "This site's reading, not the law: "),
          words(r.basis_reading)));  // the rates themselves are in the table just above
      }
      box.append(table(r.effects));
      if (r.effects.first) box.append(el("p", { id: "effects-note" }, "No rate schedule is in force before this one: there is no “Now” to compare with."));
      else if (r.effects.note) box.append(el("p", { id: "effects-note" }, "“Now” is the illustrative schedule: invented numbers, not a rate the Town has adopted. "
        + "No change is shown against them."));
    } else if (r.step === "notice") {
      const w = r.window;
      box.append(el("p", { id: "window" }, `The lawful meeting window: ${longDate(w.earliest)} to ${longDate(w.latest)} `
        + `(${w.minimum_days} to ${w.maximum_days} days after publication on ${longDate(w.published)}). `
        + `The meeting on ${longDate(w.meeting)} is ${w.days} days after publication.`
        + (w.last_for_adoption < w.latest ? ` For the Board to adopt the rates by the day they take effect, the meeting `
          + `must be by ${longDate(w.last_for_adoption)}.` : "")));
      const ended = (text) => (text.endsWith(".") ? text : `${text}.`); // "7:00 p.m." ends a sentence once
      box.append(el("p", { id: "time-understood" }, r.time.entered !== r.time.words
        ? `Meeting time: ${r.time.words} (you typed “${r.time.entered}”).` : ended(`Meeting time: ${r.time.words}`)));
      // a proposal with two rates, one for each reading of the law: what to confirm, said in the past tense once
      // the notice has run (the Clerk's second usability test)
      if (r.basis_after_notice) {
        box.append(el("p", { id: "basis-after-notice", class: "site-reading" }, words(r.basis_after_notice)));
      }
      // a meeting on a public holiday or a weekend, to check (clerk12, 11)
      if (r.meeting_closed_day) box.append(el("p", { id: "meeting-closed-day", class: "clerk-check" }, words(r.meeting_closed_day)));
    } else if (r.step === "adopt") {
      const v = r.vote;
      // the law says "majority vote"; how many that is comes from New York's Town Law and the Board's size, which
      // this site takes as 5, to confirm: said as such, not as the law's words (clerk10)
      box.append(el("p", { id: "vote-needed" }, `The vote needed: ${v.needed} for. The law asks for a “majority vote”; `
        + `New York Town Law § 63 counts a majority of all the Board's members, whatever the absences. This site counts `
        + `${v.board_size} members (the usual New York town board; the Town should confirm the number). `
        + `Recorded: ${v.ayes} for, ${v.noes} against${v.absent !== undefined ? `, ${v.absent} absent` : ""}.`));
      // a vote recorded on a day after this computer's date is pointed out (clerk11, V1)
      if (r.recorded_ahead) box.prepend(el("p", { id: "recorded-ahead", class: "field-error", role: "alert" }, words(r.recorded_ahead)));
      // the next thing she does with an adopted year: bill it (the Clerk's usability test)
      box.append(el("p", { id: "bill-this-year" }, "Once it is adopted, you can bill its quarters: ",
        el("a", { href: `bills/?quarter=${encodeURIComponent(year)}-Q1` }, `bill the first quarter of ${year}`),
        " (in this browser now, or anywhere once the year is published)."));
    }
    return box;
  }

  function download(f, id) {
    const url = URL.createObjectURL(new Blob([f.text], { type: "text/plain;charset=utf-8" }));
    urls.push(url);
    return el("a", { href: url, download: f.name, id, class: "download" }, `Download ${f.name}`);
  }

  // One place to publish: every record of the year prepared here and not yet published
  function publishBox(s, year) {
    const y = work.years[year];
    // what the site was built with already is not offered again
    const standing = window.__clerk.status?.years.find((x) => String(x.fiscal_year) === String(year));
    const records = Object.values(RECORD).filter((rec) => y.records[rec] && (!standing || standing.prepared.includes(rec)))
      .map((rec) => y.records[rec]);
    const box = el("section", { class: "publish", id: "publish", "aria-labelledby": "publish-title" });
    const github = Boolean(root.dataset.repoUrl);
    box.append(el("h3", { id: "publish-title" }, github ? PUBLISH[s] : SEND(records.length)));
    if (!records.length) {
      box.append(el("p", {}, "Nothing is waiting to be published for this year."));
      return box;
    }
    // "Until then" followed "commit these files" once; now the heading may say "send": say until what
    // a notice of the meeting not yet on the site, before the vote: it is for people to read before the meeting (Linda,
    // the Clerk's reading: "publish later" let the notice reach the site only after the meeting, with the vote)
    const meetingAhead = records.includes(y.records.notice) && !y.records.vote;
    box.append(el("p", { id: "publish-when" }, (records.length === 1
      ? "Until it is on the site, this record is kept in this browser only, and the public site does not show it. "
      : "Until they are on the site, these records are kept in this browser only, and the public site does not show "
        + "them. ")
      + (meetingAhead
        ? "Put it on the site now, before the meeting: people should be able to read the notice of the meeting on the site before "
          + "it is held. You can go on to the next step meanwhile."
        : "You can go on to the next step now and publish later.")));
    // clerk11: was the notice to be sent too? The build makes every notice from the records
    if (!github) box.append(el("p", { id: "notices-made-again" }, "The site makes the notices again from these records: "
      + "send the person who keeps the site only the zip."
      // (only with the notice of the meeting, before the vote: the newspaper's text is that step's; the Clerk's
      // reading: the line stood under the proposal and the vote, which have no newspaper text)
      + (meetingAhead ? " (The newspaper gets the notice's text, from the step above.)" : "")));
    // each record, where it goes in the site's files and how: the site keeper's words
    const files = el("ul", { id: "record-files" }, ...records.map((f, i) => {
      const item = el("li", { class: "clerk-file", "data-path": f.path }, download(f, `record-${i}`), ` (to go in ${f.path})`);
      const g = f.github;
      if (g && g.kind === "new") {
        item.append(el("br"), el("a", { href: g.url, class: "github-link", rel: "noopener" }, `Commit ${f.name} on GitHub`),
          ": opens GitHub's new-file page with its name and content filled in; press \"Commit changes\".");
      } else if (g && g.kind === "edit") {
        item.append(el("br"), "This replaces a file already published: ",
          el("a", { href: g.url, class: "github-link", rel: "noopener" }, `open ${f.path} on GitHub`),
          ", replace all its text with the downloaded file's, and press \"Commit changes\".");
      } else if (g && g.kind === "upload") {
        item.append(el("br"), "Too long for a link: download it, open ",
          el("a", { href: g.url, class: "github-link", rel: "noopener" }, "GitHub's \"Upload files\" page for its folder"),
          `, drag ${f.name} onto it, and press "Commit changes".`);
      } else {
        item.append(el("br"), `Add it to the site's repository as ${f.path}.`);
      }
      return item;
    }));
    const removes = (y.removes || []).map((path) =>
      el("p", { class: "clerk-remove" }, `Also delete ${path}: it belonged to the proposal this one replaces.`));
    if (github) {
      box.append(files, ...removes,
        el("p", {}, "GitHub builds the site again after each commit; the step then shows on the site."));
      return box;
    }
    // no GitHub address: one zip of exactly these records, first, with the steps for the person who keeps the
    // site (issue 34, item 1); made by the engine (`rates pack`), the same bytes for the same records
    const zip = el("button", { type: "button", class: "md-button md-button--primary", id: "publish-zip" },
      `Download the ${records.length === 1 ? "record" : `${records.length} records`} as one zip file`);
    const said = el("p", { id: "publish-zip-status", role: "status" });
    zip.addEventListener("click", async () => {
      zip.disabled = true;
      const { folder, files: prepared_ } = prepared(year, null);
      const out = `/desk/pack-${requests}/${year}-records.zip`;
      const { answer, files: made } = await engine.run(["rates", "pack", year, `--prepared=${folder}`, `--out=${out}`], prepared_);
      zip.disabled = false;
      if (!answer.ok) {
        said.textContent = words(answer.error);
        return;
      }
      const url = URL.createObjectURL(new Blob([made[out]], { type: "application/zip" }));
      urls.push(url);
      // named by what it holds, so each step's zip is told apart (clerk13, L-6: "2027-records (1).zip")
      const holds = records.map((f) => f.path.split("/").pop().replace(/\.[a-z]+$/, "")).join("-");
      const name = `${year}-records-${holds}.zip`;
      const link = el("a", { href: url, download: name, id: "publish-zip-link" }, name);
      // which zip to send (clerk15: "each step's zip, or only the last one?"): this one holds every record of the
      // year the site does not show yet, so an earlier zip not yet added is in it
      said.replaceChildren("Ready: ", link, `. Send it to ${root.dataset.siteKeeper || "the person who keeps the site"}, `
        + "by email or on a USB stick. "
        + "It holds every record of this year that the site does not show yet, so it is the only one to send: an "
        + "earlier zip of this year that they have not added yet is inside it.");
      link.click();
    });
    // (a site without its public address is said once, above the desk (#no-site-address), not in each box)
    box.append(zip, said,
      el("p", {}, "Your step shows on the public site once they have added it. The desk then says "
        + "“Published on this site” beside the year."),
      el("details", { id: "for-site-keeper" },
        el("summary", {}, "For the person who keeps the site"),
        el("p", {}, "The zip holds these files and ", el("a", { href: "publish/" }, "the steps to publish them"),
          ". Unzipped at the top of the site's repository, it puts each file in its place; commit them and build "
          + "the site again."),
        files, ...removes));
    return box;
  }

  // a step's last result, kept in this browser with its record: shown again as it was, without the engine
  function showKept(s) {
    const r = work.current && work.years[work.current]?.results?.[s];
    if (r) showResult(s, r, work.current, true);
    return Boolean(r);
  }

  function showResult(s, r, year, kept = false) {
    for (const u of urls) URL.revokeObjectURL(u);
    urls = [];
    const y = work.years[year];
    const box = el("div", { class: "result-box", id: "clerk-result", "data-step": r.step });
    const titles = {
      propose: `The schedule for ${year} is proposed`,
      notice: `The notice for ${year} is ready for the newspaper`,
      adopt: `The vote adopting the schedule for ${year} is recorded`,
      "user-notice": `The notice to users for ${year}`,
    };
    box.append(el("h2", { id: "result-title", tabindex: "-1" }, titles[r.step]));
    if (kept) {
      box.append(el("p", { id: "kept-result", class: "kept-result" }, "Made earlier and kept in this browser, "
        + "with its downloads. To change it, change the answers above and press the button again."));
    }
    if (r.step !== "user-notice") box.append(el("p", { class: "unpublished-label" }, el("strong", {}, "Prepared, not yet published.")));
    box.append(findings(r, year));
    const notices = r.files.filter((f) => !f.rules);
    if (notices.length) {
      box.append(el("h3", {}, r.step === "notice" ? "The notice for the newspaper" : "The notice to users"));
      box.append(el("ul", { id: "notice-files" }, ...notices.map((f, i) =>
        el("li", { class: "clerk-file", "data-path": f.path }, download(f, `notice-${i}`),
          f.lang === "es" ? " (in Spanish, for the bills that go out in Spanish)" : ""))));
      if (r.step === "notice") box.append(el("pre", { class: "notice-text", id: "notice-text" }, notices[0].text));
      else box.append(el("pre", { class: "notice-text", id: "notice-text" }, notices[0].text));
    }
    const next = ORDER[ORDER.indexOf(r.step) + 1];
    if (next) {
      const go = el("button", { type: "button", class: "md-button md-button--primary", id: "next-step" },
        `Go on to step ${ORDER.indexOf(next) + 1}: ${STEP_NAMES[next]}`);
      go.addEventListener("click", () => {
        show(next);
        result.replaceChildren();
        formOf(next).querySelector("h2").focus();
      });
      box.append(el("p", {}, go));
    }
    box.append(publishBox(r.step, year));
    result.replaceChildren(box);
    if (!kept) root.dataset.state = "result";
  }

  // What a lawful step keeps: its record (the later ones are dropped: they rested on it)
  function keep(s, r, year, params) {
    const y = yearOf(work, year);
    y.inputs[s] = Object.fromEntries(params);
    const rec = RECORD[s];
    if (rec) {
      const f = r.files.find((x) => x.rules);
      y.records[rec] = { path: f.path, name: f.name, text: f.text, github: f.github };
      const later = ORDER.slice(ORDER.indexOf(s) + 1);
      for (const l of later) {
        if (RECORD[l]) delete y.records[RECORD[l]];
        delete y.made[l];
        delete y.results?.[l];
      }
      if (s === "propose") y.removes = r.removes;
    }
    for (const f of r.files.filter((x) => !x.rules)) y.notices[f.name] = f.text;
    y.made[s] = true;
    y.results = { ...y.results, [s]: r }; // shown again when she comes back (showKept)
    work.current = year;
    save(work);
  }

  async function check(s, params, focus) {
    const mine = ++latest;
    root.dataset.state = "checking";
    const year = s === "propose" ? (params.get("fiscal-year") || "").trim() : work.current;
    const drafted = draftKey(s);
    const answer = await ask(argvFrom(s, params, year), year, s);
    if (mine !== latest) return;
    if (answer.ok && s === "user-notice") {
      // the notice goes out with a regular bill, and bills go out in Spanish too: the same notice in Spanish,
      // its files named -es (issue 34, M3; `build.py rates user-notice` writes the same)
      const spanish = await ask([...argvFrom(s, params, year), "--lang", "es"], year, s);
      if (mine !== latest) return;
      if (spanish.ok) {
        const es = (name) => name.replace(/(\.[a-z]+)$/, "-es$1");
        answer.result.files = [...answer.result.files, ...spanish.result.files.filter((f) => !f.rules)
          .map((f) => ({ ...f, name: es(f.name), path: es(f.path), lang: "es" }))];
      } else { // said, not dropped: she would send English notices with Spanish bills without knowing
        answer.result.report = [...answer.result.report, `The notice in Spanish could not be made: ${spanish.error}`];
      }
    }
    if (answer.ok) {
      clearProblems();
      const y = answer.result.schedule;
      keep(s, answer.result, y, params);
      dropDraft(drafted, `${y}:${s}`); // recorded: what she typed is the step's record now
      await glance(); // where the year stands now, and which of its records are published
      if (mine !== latest) return;
      show(s);
      showResult(s, answer.result, y);
      if (focus) $("result-title").focus();
    } else {
      showProblems(s, answer);
    }
  }

  for (const s of ORDER) {
    formOf(s).addEventListener("submit", (e) => {
      e.preventDefault();
      check(s, formParams(s), true);
    });
  }

  // ---- taking up a year from the files she downloaded ----
  $("take-up-files").addEventListener("change", async (e) => {
    const chosen = [...e.target.files];
    const texts = {};
    const error = $("take-up-files-error");
    error.hidden = true;
    const kindOf = (name) => Object.entries(FILE_OF).find(([, f]) => name.startsWith(f.split(".")[0]))?.[0];
    for (const file of chosen) {
      if (/\.zip$/i.test(file.name)) {
        // the desk's own zip (`rates pack`): the year's records inside it, at rules/rate-schedules/YEAR/
        const inside = await unzip(new Uint8Array(await file.arrayBuffer()));
        if (!inside) {
          error.replaceChildren(`The desk could not read ${file.name} in this browser. Unzip it first (double-click `
            + "it), then choose the files inside its folder rules/rate-schedules/ and the year: proposal.yaml, and "
            + "notice.yaml and vote.yaml if they are there.");
          error.hidden = false;
          return;
        }
        for (const [path, bytes] of Object.entries(inside)) {
          const name = /^rules\/rate-schedules\/[^/]+\/([^/]+)$/.exec(path)?.[1];
          const kind = name && Object.entries(FILE_OF).find(([, f]) => f === name)?.[0];
          if (kind) texts[kind] = new TextDecoder().decode(bytes);
        }
        continue;
      }
      const kind = kindOf(file.name);
      if (kind) texts[kind] = await file.text();
    }
    const id = /^id: "?([0-9]{4})"?$/m.exec(texts.proposal || "")?.[1] || work.current;
    if (!texts.proposal && !id) {
      error.replaceChildren("Choose the year's proposal.yaml too, or the zip the desk gave you: the desk starts a year "
        + "from its proposal.");
      error.hidden = false;
      return;
    }
    const files = {};
    const folder = `/desk/${++requests}`;
    for (const [kind, text] of Object.entries(texts)) files[`${folder}/${id}/${FILE_OF[kind]}`] = new TextEncoder().encode(text);
    const answer = await engine.ask(["rates", "status", `--today=${todayIso()}`, `--prepared=${folder}`], files);
    if (!answer.ok) {
      error.replaceChildren(words(answer.error));
      error.hidden = false;
      return;
    }
    const y = yearOf(work, id);
    for (const [kind, text] of Object.entries(texts)) {
      y.records[kind] = { path: `rules/rate-schedules/${id}/${FILE_OF[kind]}`, name: FILE_OF[kind], text, github: null };
    }
    delete y.results; // results of records these replace
    save(work);
    $("take-up-done").textContent = `Taken up: the year ${id}, from ${Object.keys(texts).map((k) => FILE_OF[k]).join(", ")}.`;
    openYear(id);
    glance();
  });

  // ---- start: the link's step and answers, else where she left off ----
  const initial = new URLSearchParams(location.search);
  const asked = initial.get("year") || initial.get("schedule"); // (schedule: the older links' word)
  if (asked && asked !== "__proto__") work.current = asked;
  if (work.current) {
    const y = yearOf(work, work.current);
    for (const s of ORDER) if (y.inputs[s]) fillForm(s, y.inputs[s]);
  }
  restoreDrafts(); // what she typed and had not recorded yet, over what she last recorded
  step = Object.hasOwn(STEPS, initial.get("step") ?? "") ? initial.get("step") : (work.current ? nextStepFor(work.current) : "propose");
  show(step);
  // a box the link gives twice is left empty and named, not filled with one of them (the twelfth hostile tester,
  // F15: om-cost=912400&om-cost=1 proposed from the first with no word; the command line refuses a repeat)
  const repeated = STEPS[step].filter((n) => n !== "body" && initial.getAll(n).length > 1);
  for (const name of repeated) initial.delete(name);
  fillForm(step, initial);
  // a link fills in the step's answers, and nothing more: the step is checked and kept (its record, the
  // later steps' dropped) only when the Clerk presses its button. A link that kept what it carried replaced
  // her proposal and deleted her notice with no button pressed (the hostile tester, H5).
  const given = STEPS[step].some((n) => n !== "body" && initial.has(n));
  if (given || repeated.length) {
    const button = formOf(step).querySelector("button[type=submit]");
    const twice = repeated.map((n) => (formOf(step).querySelector(`label[for="${input(step, n).id}"]`)?.textContent || n).trim());
    result.replaceChildren(el("p", { id: "link-filled", class: "link-filled" },
      "The link filled in this step's answers. Nothing is recorded until you check them and press ",
      el("strong", {}, `“${button.textContent.trim()}”`), ".",
      ...(twice.length ? [` The link gave ${twice.map((l) => `“${l}”`).join(" and ")} more than once: `
        + `${twice.length > 1 ? "those boxes are" : "that box is"} left empty. Type the right figure.`] : [])));
  }
}
