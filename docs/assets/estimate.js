// The bill estimator page: moves the form's answers to the engine (in a worker)
// and the engine's answer to the page. The state lives in the query string,
// with the command line's option names, so an estimate is a shareable link.
// Every sentence it shows goes through t() (words.js): the page's language.
import { clearFieldErrors, el, lawLinkIn, longDate, quotedIn, sentence, showFieldError, startEngine, startingNote, statusLine,
  todayIso } from "./engine-client.js";
import { pageLanguage, t } from "./words.js";

const root = document.getElementById("estimator");
const USAGE_KINDS = ["water-gallons", "water-cubic-feet", "sewage-gallons"];
const FIELD_INPUT = {
  quarter: "quarter", meter: "meter-water-gallons", "previous-reading": "previous-reading",
  "current-reading": "current-reading", "paid-on": "paid-on", "vc-per-1000": "vc-per-1000",
  "sewage-fraction": "sewage-fraction", "water-gallons": "usage", "water-cubic-feet": "usage",
  "sewage-gallons": "usage",
};
// what only a bill's link carries (calculator/bills/arrears.py): the earlier bills still owing, the payments
// on them, the day their penalties are counted to and the link's check code. No box of the form holds
// them: the estimate from the link shows the bill's total, and a changed form is an estimate again.
const LINK_ONLY = ["earlier-bill", "earlier-payment", "as-of", "check", "parcel", "billed"];

if (root) start();

function start() {
  root.hidden = false;
  const $ = (id) => document.getElementById(id);
  const form = $("estimate-form");
  const result = $("result");
  const example = $("worked-example");
  let latest = 0;
  window.__estimator = { ready: false, computeMs: null };
  // (messages the worker sent before this script ran are replayed, in order)
  const status = statusLine(root, null,
    t("The calculator could not start in this browser. The worked example below shows how a bill is calculated."));
  const engine = startEngine(root.dataset.wheel, {
    ...status,
    onReady: () => {
      status.onReady();
      root.dataset.engine = "ready";
      root.dataset.state = "ready";
      window.__estimator.ready = true;
    },
    onKept: registerOfflineCache,
  });
  const ask = async (argv) => ({ answer: await engine.ask(argv) });

  // Once the calculator has answered and its worker has put the files it fetched into
  // Cache Storage, keep a copy for offline repeat visits (taken from there, not downloaded again).
  function registerOfflineCache() {
    if (!("serviceWorker" in navigator)) return;
    navigator.serviceWorker.register(new URL("../sw.js", import.meta.url), { updateViaCache: "none" })
      .catch(() => {}); // the estimator works without it, only not offline
  }

  // ---- the form <-> argv and the query string (same names) ----
  const checked = (name) => form.querySelector(`input[name="${name}"]:checked`).value;
  const value = (id) => $(id).value.trim();

  function formParams() {
    const p = new URLSearchParams();
    p.set("quarter", $("quarter").value);
    const meter = checked("meter");
    if (checked("have") === "readings") {
      p.set("meter", meter);
      p.set("previous-reading", value("previous-reading"));
      p.set("current-reading", value("current-reading"));
    } else {
      p.set(meter, value("usage"));
    }
    for (const name of ["paid-on", "vc-per-1000", "sewage-fraction"]) {
      if (value(name)) p.set(name, value(name));
    }
    return p;
  }

  function argvFrom(params) {
    const argv = ["bill", "--with-proposed"];
    // each value joined to its option ("--water-gallons=-h"): a value from the address that starts with a
    // dash is read as the value it is, never as another option (the second hostile tester: "--help")
    for (const [key, val] of params) argv.push(`--${key}=${val}`);
    return argv;
  }

  function fillForm(params) {
    if (params.get("quarter")) ensureQuarter(params.get("quarter"));
    const kind = USAGE_KINDS.find((k) => params.has(k));
    if (kind) {
      $(`meter-${kind}`).checked = true;
      $("have-usage").checked = true;
      $("usage").value = params.get(kind);
    } else if (params.has("meter")) {
      const meter = $(`meter-${params.get("meter")}`);
      if (meter) meter.checked = true;
      $("have-readings").checked = true;
      $("previous-reading").value = params.get("previous-reading") || "";
      $("current-reading").value = params.get("current-reading") || "";
    }
    for (const name of ["paid-on", "vc-per-1000", "sewage-fraction"]) {
      if (params.has(name)) $(name).value = params.get(name);
    }
    if (params.has("vc-per-1000") || params.has("sewage-fraction")) $("what-if").open = true;
    syncMode();
    return Boolean(kind || params.has("meter"));
  }

  function ensureQuarter(q) {
    const select = $("quarter");
    if (![...select.options].some((o) => o.value === q)) select.add(new Option(q, q));
    select.value = q;
  }

  function syncMode() {
    const readings = checked("have") === "readings";
    $("usage-field").hidden = readings;
    $("readings-field").hidden = !readings;
    const unit = checked("meter") === "water-cubic-feet" ? t("(cubic feet)") : t("(gallons)");
    $("usage-unit").textContent = unit;
  }

  // ---- showing the answer ----
  // (money and numbers are written the same in both languages: $1,234.50, 12,000)
  // a credit (below zero) as −$40.00, the minus sign before the dollar sign
  const money = (s) => (Number(s) < 0 ? "−$" : "$") +
    Math.abs(Number(s)).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const gallons = (s) => Number(s).toLocaleString("en-US", { maximumFractionDigits: 2 });
  const lawLink = (step) => `../law/#${step.anchor}`;
  // a citation names the law's English text: marked so on a page in another language
  const citationLang = pageLanguage() === "en" ? null : "en";
  // the menu names each bill in few words (its full due date in each option did not fit a phone in Spanish);
  // the chosen quarter's due date is on the line below the menu
  // with the months of water it charges for, as this site reads "billed in advance" (issue 34: a person matches
  // her water bill's months, and "October–December 2026" was the bill due October 15, 2026)
  function showDue() {
    const option = $("quarter").selectedOptions[0];
    if (!option || !option.dataset.due) return;
    const line = [t("Due {date}.", { date: longDate(option.dataset.due) })];
    if (option.dataset.water) {
      line.push(" ", ...sentence(t("It charges for the water used {water}, as {reading}."), {
        water: option.dataset.water,
        reading: el("a", { href: "../how-we-read-the-law/#billing-in-advance" }, t("this site reads the law")) }));
      // the water months of a bill not sent yet are not over: no one has that number yet (issue 34, M4)
      if (option.dataset.start > todayIso()) {
        line.push(" ", t("Those months are not over yet. Until your meter is read, enter your most recent quarter's use as an estimate."));
      }
    }
    $("quarter-due").replaceChildren(...line);
  }
  // a schedule's title comes in the page's language (the Clerk gives each: title, title_es)
  const CAPTIONS = {
    // the example schedule's title says "illustrative (not adopted)" itself: not named twice (spanish7, E1)
    illustrative: () => t("Under the example rate schedule, which the Town has not adopted"),
    proposed: () => t("Under the proposed schedule: {title}"),
    adopted: () => t("Under the adopted schedule: {title}"),
  };
  const caption = (status, title) => sentence(CAPTIONS[status](), { title: el("span", { class: "schedule-title" }, title) });
  const whatIfRate = (r) => (r.schedule.what_if || {}).vc_per_1000_gallons;
  // a what-if estimate's table is the person's values, not the schedule's (bill.py: schedule.what_if)
  const tableCaption = (r) => (r.schedule.what_if
    ? sentence(t("What-if with the values you chose, not those of: {title}"), { title: el("span", { class: "schedule-title" }, r.schedule.title) })
    : caption(r.schedule.status, r.schedule.title));

  function linesTable(r, captionParts) {
    const table = el("table", { class: "bill-lines" }, el("caption", {}, ...captionParts));
    let rows = [
      [t("Sewage volume"), t("{volume} gallons", { volume: gallons(r.volume_gallons) })],
      // a what-if rate is the one the charge used: shown, and said to be the person's own (the third Spanish review)
      [t("Rate"), whatIfRate(r) ? t("{rate} per 1,000 gallons (what-if)", { rate: money(whatIfRate(r)) })
        : t("{rate} per 1,000 gallons", { rate: money(r.schedule.vc_per_1000_gallons) })],
      [t("Charge for the volume"), money(r.computed_charge)],
      [t("Minimum charge"), r.minimum_applied ? t("{amount} (applies)", { amount: money(r.minimum_charge) }) : money(r.minimum_charge)],
      [t("Quarter's charge"), money(r.charge)],
      // this quarter's own penalty: a bill's penalties on earlier quarters are in its own table (arrearsTable)
      [r.arrears ? t("Late penalty on this quarter's charge") : t("Late penalty"), money(r.penalty)],
      [t("Total"), money(r.total)],
    ];
    // a bill with arrears: its total is in the bill's own table (arrearsTable), not this quarter's
    if (r.arrears) rows = rows.slice(0, -1);
    const body = el("tbody");
    for (const [k, v] of rows) body.append(el("tr", {}, el("th", { scope: "row" }, k), el("td", {}, v)));
    table.append(body);
    return table;
  }

  // A bill opened from its link, with what is unpaid from earlier quarters (the engine's words,
  // bill.arrears_answer): this quarter's charge, each unpaid amount and its penalty, the total,
  // each line with the law behind it; then each earlier bill in a sentence.
  function arrearsTable(a) {
    const head = el("tr", {}, ...a.columns.map((c) => el("th", { scope: "col" }, c)));
    const body = el("tbody");
    a.lines.forEach((line, i) => {
      const last = i === a.lines.length - 1;
      const amount = last ? el("strong", { id: "bill-arrears-total" }, money(line.amount)) : money(line.amount);
      // the law under the line's words (a third column did not fit a phone)
      body.append(el("tr", { class: last ? "bill-total" : null },
        el("th", { scope: "row" }, line.label,
          el("span", { class: "step-law" }, lawLinkIn(lawLink(line), line.law))),
        el("td", {}, amount)));
    });
    const box = el("section", { class: "bill-arrears", id: "bill-arrears", "aria-labelledby": "bill-arrears-title" },
      el("h3", { id: "bill-arrears-title" }, a.title),
      el("table", { class: "bill-lines", id: "bill-arrears-lines" }, el("thead", {}, head), body));
    for (const q of a.quarters) box.append(el("p", { class: "bill-arrears-quarter" }, ...quotedIn(q.text)));
    return box;
  }

  function showResult(r, params) {
    clearErrors();
    const box = el("div", { class: "result-box" });
    box.append(el("h2", { id: "result-title", tabindex: "-1" }, t("Your estimate for {bill}", { bill: r.bill_words })));
    // a quarter from a link is in the list before the engine has put the list into words
    const option = [...$("quarter").options].find((o) => o.value === r.quarter);
    if (option && option.text === r.quarter) {
      option.text = r.quarter_words;
      option.dataset.due = r.due_date;
      showDue();
    }
    // a bill's link whose figures now total otherwise (a rate amended in place after the bill was made: the
    // twenty-ninth hostile tester): said before any total, with both, and whom to ask (bill.BILLED_DIFFERS)
    if (r.billed && r.billed.differs) {
      box.append(el("div", { class: "admonition warning", id: "result-billed-differs" },
        el("p", { class: "admonition-title" }, t("This is not the total on your bill")),
        el("p", {}, ...quotedIn(r.billed.text))));
    }
    // while the schedule is not the Town's adopted one, the total says so beside itself (issue 19, item 6)
    // with a what-if rate the total is at that rate, whatever the schedule (the fifth Spanish review, item 9)
    const kind = { illustrative: () => t("example rate"), proposed: () => t("proposed rate"), whatIf: () => t("your what-if rate") };
    const status = whatIfRate(r) ? "whatIf" : r.schedule.status;
    const rateKind = (id = "result-rate-kind") => (kind[status] ? el("span", { class: "rate-kind", id }, `(${kind[status]()})`) : "");
    const total = () => el("strong", { id: "result-total" }, money(r.total));
    const paid = Boolean(r.paid_on);
    if (r.arrears) {
      // a bill's link with earlier bills: the total is the bill's, as before (arrearsTable has its lines)
      const title = paid ? (kind[status] ? t("Total {total} {kind}, if paid on {date}") : t("Total {total}, if paid on {date}"))
        : (kind[status] ? t("Total {total} {kind}, due {date}") : t("Total {total}, due {date}"));
      box.append(el("p", { class: "result-total" }, ...sentence(title,
        { date: longDate(paid ? r.paid_on : r.due_date), total: total(), kind: rateKind() })));
      if (r.paid_words) box.append(el("p", { class: "result-paid", id: "result-paid" }, el("strong", {}, r.paid_words)));
    } else {
      // the top says the bill and its due date, then what is paid on the date entered (issue 34: only the total
      // with its penalty was at the top, and "Pay by Tuesday, February 16" was read as the due date)
      const bill = paid ? el("strong", { id: "result-bill" }, money(r.charge)) : total();
      box.append(el("p", { class: "result-total" }, ...sentence(
        // "(example rate)" in every state, a payment date entered too (the outside usability test public9, Rosa)
        kind[status] ? t("Bill: {amount} {kind}, due {date}.") : t("Bill: {amount}, due {date}."),
        { amount: bill, kind: rateKind(paid ? "result-bill-rate-kind" : "result-rate-kind"), date: longDate(r.due_date) })));
      if (paid) {
        const late = Number(r.penalty) > 0;
        const words = late ? (kind[status] ? t("Paid on {date}: {total} {kind}, with a late penalty of {penalty}.") : t("Paid on {date}: {total}, with a late penalty of {penalty}."))
          : (kind[status] ? t("Paid on {date}: {total} {kind}, no late penalty.") : t("Paid on {date}: {total}, no late penalty."));
        box.append(el("p", { class: "result-paid", id: "result-paid" }, ...sentence(words,
          { date: longDate(r.paid_on), total: total(), kind: rateKind(), penalty: money(r.penalty) })));
      }
    }
    // a slashed date read the other way round says how it was read ("We read 20/02/2027 as February 20, 2027.")
    if (r.paid_read) box.append(el("p", { class: "result-paid-read", id: "result-paid-read" }, ...quotedIn(r.paid_read)));
    // the chosen quarter's bill long past its last day to pay: said at the top, not only as penalties (issue 34:
    // Rosa chose the months of her water bill and got the bill due October 15, 2026, 30% late)
    // (the law sets no last day to pay, only when a penalty is added: spanish14, WM-1; and not when the payment date
    // entered is in time)
    if (r.last_day_to_pay < todayIso() && !(r.paid_on && r.paid_on <= r.last_day_to_pay)) {
      box.append(el("div", { class: "admonition warning", id: "result-overdue" },
        el("p", { class: "admonition-title" }, t("This bill's last day without a late penalty has passed")),
        // named as the menu and the result name a bill: its due date and its water (spanish11, C5: "the bill for
        // July–September 2026" here named the bill due July 15 by months that are neither)
        el("p", {}, t("This bill was due {date}. It charges for the water used in {water}. Is that the bill you mean?",
          { date: longDate(r.due_date), water: r.water_words }))));
    }
    // at the invented (illustrative) rate, the engine's sentence for the total, right under it (bill.total_note)
    if (r.illustrative && r.total_note) {
      box.append(el("p", { class: "result-total-note", id: "result-total-note" }, el("strong", {}, r.total_note)));
    }
    // the number the estimate was worked out from, as the engine read it ("Worked out from 9,350 gallons of water.")
    box.append(el("p", { class: "result-used", id: "result-used" }, r.usage.words));
    if (r.arrears) box.append(arrearsTable(r.arrears));
    // the share button under the total, in the same screen on a phone; then what paying late means
    const link = linkOf(params, r);
    box.append(shareButton(new URL(link, location.href).href, shareText(r, kind[status])));
    box.append(ifLate(r.if_late));
    if (r.if_later && r.if_later.length) box.append(ifLater(r));
    // a usage too large to be one bill's (the engine's question, bill.usage_question): asked above the figures
    if (r.usage_question) {
      box.append(el("div", { class: "admonition warning", id: "usage-question" },
        el("p", { class: "admonition-title" }, t("Check the number")), el("p", {}, ...quotedIn(r.usage_question))));
    }
    // rate-schedules.A: a schedule for each fiscal year; the engine says when this one has none of its own and
    // which rates the estimate uses. A calm note, not a warning (the usability test, Doña Carmen: the orange
    // "no schedule of its own" box worried a resident for nothing); the choice of rates is this site's reading
    if (r.fiscal_year && r.fiscal_year.text) {
      box.append(el("div", { class: "admonition note", id: "fiscal-year-notice" },
        el("p", { class: "admonition-title" }, t("Which rates this estimate uses")),
        el("p", {}, ...quotedIn(r.fiscal_year.text), " ", ...sentence(
          t("Your bill from the Town may differ. The law does not say which rates apply while a year has no schedule of its own, so the choice is {reading}."),
          { reading: el("a", { href: "../how-we-read-the-law/" }, t("this site's reading")) }))));
    }
    r.notices.forEach((notice, i) => {
      const status = r.schedule.status;
      // the engine puts the what-if notice last (bill.py): it is titled so, whatever the schedule
      const whatIf = r.schedule.what_if && i === r.notices.length - 1;
      const title = whatIf || status === "adopted" ? t("What-if") : status === "proposed" ? t("Proposed rates") : t("Illustrative rates");
      box.append(el("div", { class: "admonition warning" }, el("p", { class: "admonition-title" }, title), el("p", {}, ...quotedIn(notice))));
    });
    const tables = el("div", { class: "bill-tables" }, linesTable(r, tableCaption(r)));
    if (r.proposed) tables.append(linesTable(r.proposed, caption("proposed", r.proposed.schedule.title)));
    box.append(tables);
    box.append(el("h3", {}, t("How it was worked out")));
    const steps = el("ol", { class: "explanation" });
    for (const s of r.explanation) {
      // the law's own words a step rests on (its English, the only official text)
      // on a page in another language the law's English is labelled as such before it (issue 33, item 11)
      const label = citationLang ? [t("The law says (official English text):"), " "] : [];
      // and after it the site's unofficial translation, labelled so (the engine's `quote_words`: issue 33)
      const words = s.quote_words ? [el("span", { class: "law-words" }, ...quotedIn(s.quote_words)), " "] : [];
      const quote = s.quote ? [...label, "“", el("q", { class: "step-quote", lang: citationLang }, s.quote), "” ", ...words] : [];
      steps.append(el("li", {}, ...quotedIn(s.text), " ", ...quote, el("span", { class: "step-law" }, ...stepLaw(s))));
    }
    box.append(steps);
    box.append(el("p", { class: "share" }, ...sentence(t("Link to this estimate: {link}"),
      { link: el("a", { href: link, id: "share-link" }, t("copy or bookmark this link")) })));
    result.replaceChildren(box);
    result.classList.remove("result-stale");
    result.removeAttribute("aria-busy");
    root.dataset.state = "result";
    // one total on the page: the worked example's (for 12,000 gallons) goes while there is a real one
    if (example) example.hidden = true;
  }

  // Each step's provision, as the engine put it for a reader (explain.fold_citations): the
  // everyday name of the law's part once, then shorter; a step citing the same provision as
  // the one before it links to it with "same section". Every step keeps its link to the law.
  function stepLaw(s) {
    if (!s.law) return [el("a", { href: lawLink(s), title: s.where }, t("(same section of the law)"))];
    return sentence(t("The law: {where}"), { where: lawLinkIn(lawLink(s), s.law) });
  }


  // "What if I pay late?", answered under the total, in the engine's words (bill.if_late):
  // the last day, the first penalty, what each further period adds, the holiday that moved
  // the last day, and the lien when this estimate has a penalty.
  function ifLate(late) {
    const block = el("div", { class: "if-late", id: "if-late" },
      el("h3", { id: "if-late-title" }, t("What if I pay late?")),
      el("p", { id: "if-late-text" }, ...quotedIn(late.text)));
    if (late.moved) block.append(el("p", { id: "if-late-moved" }, ...quotedIn(late.moved)));
    if (late.lien) block.append(el("p", { id: "if-late-lien" }, ...quotedIn(late.lien)));
    const links = late.anchors.map((anchor, i) => lawLinkIn(`../law/#${anchor}`, late.law[i]));
    block.append(el("p", { class: "step-law" }, ...sentence(t("The law: {where}"), { where: links.flatMap((a, i) => (i ? ["; ", a] : [a])) })));
    return block;
  }

  // "If you pay later": what this quarter's bill comes to if paid in each of the next penalty periods
  // (the engine's rows, bill.if_later), so no one has to make up a date to see it (issue 34: Doña Carmen)
  function ifLater(r) {
    const body = el("tbody");
    for (const row of r.if_later) {
      body.append(el("tr", {}, el("th", { scope: "row" }, longDate(row.from)), el("td", {}, money(row.penalty)),
        el("td", {}, money(row.total))));
    }
    return el("div", { class: "if-later", id: "if-later" },
      el("h3", { id: "if-later-title" }, t("If you pay later")),
      el("table", { class: "later-lines", id: "if-later-table" },
        el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("Paid from")), el("th", { scope: "col" }, t("Late penalty")),
          el("th", { scope: "col" }, t("Total")))),
        body),
      el("p", { class: "if-later-note" }, ...sentence(t("The dates follow {reading} of the late penalty."), {
        reading: el("a", { href: "../how-we-read-the-law/#penalty-quarter" }, t("this site's reading")) })));
  }

  // The link to an estimate: the same in the address bar and in "Share this estimate" (issue 34: the address
  // bar left out the payment date), with the payment date as the engine read it (2027-02-20), so the link
  // means the same day on the page in the other language, where 2/20/2027 would be read day first.
  function linkOf(params, r) {
    const kept = new URLSearchParams(params);
    if (r && r.paid_on) kept.set("paid-on", r.paid_on);
    return `${location.pathname}?${kept}`;
  }

  // The words "Share this estimate" sends with the link: what the top of the result says, in the same sentences
  // (the outside test public-personas2: Rosa's husband got only "…: $86.02", with no bill, no due date, no
  // late penalty and no word that the rate is the site's example). `kind` names a rate not adopted
  // ("example rate"), and at the example rate the engine's own sentence for the total follows (total_note).
  function shareText(r, kind) {
    const rate = kind ? ` (${kind()})` : "";
    // the bill's due date follows in the next sentence: here only the water it charges for (the usability test, Rosa)
    const words = [r.water_words ? t("Sewer bill estimate, for the water used {water}.", { water: r.water_words }) : t("Sewer bill estimate.")];
    const paid = Boolean(r.paid_on);
    if (r.arrears) {
      words.push(paid ? t("Total {total}, if paid on {date}", { total: money(r.total) + rate, date: longDate(r.paid_on) })
        : t("Total {total}, due {date}", { total: money(r.total) + rate, date: longDate(r.due_date) }));
    } else {
      words.push(t("Bill: {amount}, due {date}.", { amount: money(paid ? r.charge : r.total) + rate, date: longDate(r.due_date) }));
      // the day that matters to whoever pays it (the usability test public12, R1)
      if (r.last_day_to_pay) words.push(t("Last day to pay without a late penalty: {date}.", { date: longDate(r.last_day_to_pay) }));
      if (paid) {
        words.push(Number(r.penalty) > 0
          ? t("Paid on {date}: {total}, with a late penalty of {penalty}.", { date: longDate(r.paid_on), total: money(r.total) + rate, penalty: money(r.penalty) })
          : t("Paid on {date}: {total}, no late penalty.", { date: longDate(r.paid_on), total: money(r.total) + rate }));
      }
    }
    if (r.illustrative && r.total_note) words.push(r.total_note);
    return words.map((w) => (/[.!?]$/.test(w) ? w : `${w}.`)).join(" ");
  }

  // "Share this estimate": the phone's share sheet where there is one, else the link
  // copied, said in a live region (the button's own words do not change).
  function shareButton(url, text) {
    const status = el("span", { class: "share-status", id: "share-status", role: "status" });
    const button = el("button", { type: "button", class: "md-button share-button", id: "share-button" },
      t("Share this estimate"));
    button.addEventListener("click", async () => {
      status.textContent = "";
      if (navigator.share) {
        try {
          await navigator.share({ title: document.title, text, url });
          return;
        } catch (error) {
          if (error && error.name === "AbortError") return; // the visitor closed the share sheet
        }
      }
      try {
        // the same words the share sheet sends, then the link (public14: only the link was copied)
        await navigator.clipboard.writeText(`${text}\n${url}`);
        status.textContent = t("Estimate and link copied");
      } catch {
        status.textContent = t("The link could not be copied. Copy it from the address bar.");
      }
    });
    return el("p", { class: "share-actions" }, button, " ", status);
  }

  // The answer a visitor asked for (the button, or a link they opened): scrolled to the
  // top of the screen, below the theme's header (scroll-margin-top in site.css), and its
  // heading focused, so a screen reader starts there. Typing alone moves nothing.
  // The page moves a frame after the answer is drawn: moved in the same frame, what
  // followed the form (pushed down by the answer) would count as jumping into and out of
  // sight (layout shift), though no one saw it where it was.
  function bringIntoView() {
    requestAnimationFrame(() => requestAnimationFrame(() => {
      const heading = $("result-title");
      if (!heading) return;
      heading.focus({ preventScroll: true });
      heading.scrollIntoView({ block: "start" });
    }));
  }

  let errorsShown = null; // the problems on screen, as showError drew them
  const clearErrors = () => { errorsShown = null; clearFieldErrors(form); };

  // A bad value in a bill's link (earlier bills, payments, as-of, check): no box holds it, so the
  // error summary says it on its own, and no figure is shown.
  // What a changed or mistyped link gets in the resident's words, before the engine sees it (the
  // engine's own words for these name its command line: issue 35)
  function linkProblem(params) {
    const keys = [...params.keys()];
    const twice = keys.find((k, i) => keys.indexOf(k) !== i && !["earlier-bill", "earlier-payment"].includes(k));
    if (twice) {
      return t("This link gives {name} more than once, so the estimate cannot tell which one is meant. Fill in the form below, or open the link on your bill again.", { name: twice });
    }
    if (params.has("meter") && !USAGE_KINDS.includes(params.get("meter"))) {
      return t("This link's meter kind, {value}, is not one the estimator knows. Choose what your meter measures in the form below.", { value: params.get("meter") });
    }
    return "";
  }

  function showLinkError(message, focusSummary) {
    clearErrors();
    result.replaceChildren();
    root.dataset.state = "error";
    if (example) example.hidden = false;
    document.getElementById("error-summary-list").replaceChildren(el("li", { id: "link-error" }, message));
    document.getElementById("error-summary").hidden = false;
    if (focusSummary) document.getElementById("error-summary").focus();
  }

  function showError(answer, focusSummary) {
    result.classList.remove("result-stale");
    result.removeAttribute("aria-busy");
    if (LINK_ONLY.includes(answer.field)) return showLinkError(answer.error, focusSummary);
    result.replaceChildren();
    root.dataset.state = "error";
    if (example) example.hidden = false;
    // every box's problem at once (issue 34: the date's came first, "Did you mean 9,350 gallons?" only on the next try)
    const problems = answer.problems || [{ field: answer.field, text: answer.error, suggest: answer.suggest }];
    // The same problems as those on screen (the box left for its "use 9350" button answers again) are left as they
    // are: drawn anew between a tap's press and its release, the button the finger was on is gone and the tap is
    // lost (a CI run: Doña Carmen's date typed, then "Sí, usar 9350" tapped, and nothing happened)
    const shown = JSON.stringify([problems, checked("have"), value("usage").trim() === ""]);
    if (root.dataset.state === "error" && errorsShown === shown && !$("error-summary").hidden) {
      if (focusSummary) {
        $("error-summary").focus();
        oneTapInView();
      }
      return;
    }
    clearErrors();
    errorsShown = shown;
    // only questions ("Did you mean 9,350 gallons?"): asked as a question, not shown as an error (issue 34, L1:
    // Doña Carmen's "9.350" met a red «Hay un problema» though she had made no mistake)
    const asking = problems.every((problem) => problem.suggest);
    $("error-summary").classList.toggle("error-summary--question", asking);
    const title = $("error-summary-title");
    title.dataset.problem ??= title.textContent; // the page's own words for a problem, put back by clearFieldErrors
    if (asking) title.textContent = t("Check the number");
    problems.forEach((problem, i) => {
      const inputId = (Object.hasOwn(FIELD_INPUT, problem.field) && FIELD_INPUT[problem.field]) || "usage";
      if (inputId === "vc-per-1000" || inputId === "sewage-fraction") $("what-if").open = true;
      // an empty box: what to write in it, not the engine's "enter exactly one of" its three options (the
      // command line's words; the page has one box, its meter chosen above it: spanish8 #5)
      const empty = inputId === "usage" && checked("have") !== "readings" && !value("usage").trim();
      const text = empty ? t("Enter the most recent quarter's usage, like 12000.") : problem.text;
      showFieldError(form, $(inputId), text, focusSummary && i === problems.length - 1, true);
      // "Did you mean 9,350 gallons?": one tap uses it, instead of deleting and typing it again (the
      // usability tester's Rosa, who writes 9.350)
      // The button is in the error summary at the top too, which the page focuses and a phone shows first: its
      // link only moved to the box, which still held "9.350" (the outside usability test public9, Doña Carmen)
      const inline = document.getElementById(`${inputId}-error`);
      if (asking && inline) {
        inline.classList.add("field-question");
        inline.querySelector(".visually-hidden")?.replaceChildren(t("Question:") + " ");
      }
      const summary = document.getElementById("error-summary-list").lastElementChild;
      if (problem.suggest) {
        for (const [where, id] of [[summary, `${inputId}-use-summary`], [inline, `${inputId}-use`]]) {
          if (!where) continue;
          const use = el("button", { type: "button", class: "md-button use-suggestion", id },
            t("Yes, use {value}", { value: problem.suggest }));
          use.addEventListener("click", () => { $(inputId).value = problem.suggest; $(inputId).focus(); compute(true); });
          where.append(" ", use);
        }
      }
    });
    if (focusSummary) oneTapInView();
  }

  // the summary was focused (and scrolled to) before its "use" buttons were added: the first of them is brought
  // into view too, so a phone shows the one tap that fixes it (a full run: the button just below the screen);
  // so too when the summary on screen already says the same (focused again, not drawn again)
  function oneTapInView() {
    const first = $("error-summary").querySelector(".use-suggestion");
    if (first) first.scrollIntoView({ block: "nearest" });
  }

  // A press of a button of the estimator (a finger's or a mouse's: down, then up with its click) is not drawn
  // over: an answer that comes while the button is down waits until the press has ended. Drawn between the two,
  // it moves what is under the finger, and the click is lost: the answer to leaving the box (its focus taken by
  // the estimate button going down) drew the box's problem above the button and pushed the button down (loaded
  // CI runs: the error summary shown, but never focused, its one-tap button never in view). The press's own
  // answer, asked for at its click, then replaces the one that waited. (Buttons only: a press on a menu opens
  // the browser's own list, and its release may never reach the page.)
  let pressEnded = null; // while a button is down: a promise of the press's end
  let endPress = () => {};
  root.addEventListener("pointerdown", (e) => {
    if (e.button !== 0 || !e.target.closest("button") || pressEnded) return;
    pressEnded = new Promise((resolve) => { endPress = resolve; });
  });
  const released = () => {
    if (!pressEnded) return;
    pressEnded = null;
    setTimeout(endPress, 0); // after the click, which follows the release in the same task
  };
  window.addEventListener("pointerup", released, true);
  window.addEventListener("pointercancel", released, true);
  window.addEventListener("blur", released); // the window's own (a box's blur does not bubble): let go elsewhere

  async function compute(focusErrors, given) {
    const params = given || formParams();
    const mine = ++latest;
    const started = performance.now();
    const { answer } = await ask(argvFrom(params));
    while (pressEnded) await pressEnded;
    if (mine !== latest) return; // a newer input has been sent since
    starting.done();
    if (answer.ok) {
      showResult(answer.result, params);
      history.replaceState(null, "", linkOf(params, answer.result));
      if (focusErrors) bringIntoView();
    } else {
      showError(answer, focusErrors);
      // the address no longer holds an earlier number: reloaded or bookmarked, it would show that one's total
      if (!given) history.replaceState(null, "", location.pathname);
    }
    window.__estimator.computeMs = performance.now() - started;
  }

  const hasUsage = () => (checked("have") === "readings" ? value("previous-reading") && value("current-reading") : value("usage"));

  const starting = startingNote($("estimate-button"), () => window.__estimator.ready,
    t("The calculator is still starting. Your estimate will show below as soon as it is ready."));
  // A number being typed is answered after a pause in typing, not at each key: "9" on the way to
  // "9350" would show the minimum charge's total for a moment (issue 34, item 8). Meanwhile the
  // answer on screen is marked as not yet for what is typed. A choice (a radio button, the
  // quarter) is answered at once.
  const TYPING_PAUSE_MS = 900; // a phone's typing: 600 ms still showed "9"'s total (the usability tester)
  let pause = null;
  // A press answers what is typed: the pause's answer is not asked for as well. Asked for after it ("20000"
  // typed, then Enter at once), it drew the answer again, and the heading the press had focused was gone with
  // the focus (to the page's body: a screen reader started again from the top).
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    clearTimeout(pause);
    pause = null;
    starting.pressed();
    compute(true);
  });
  form.addEventListener("input", (e) => {
    if (e.target.name === "meter" || e.target.name === "have") syncMode();
    clearTimeout(pause);
    if (!hasUsage()) return;
    const typing = e.target.tagName === "INPUT" && !["radio", "checkbox"].includes(e.target.type);
    if (!typing) return compute(false);
    if (root.dataset.state === "result") { result.classList.add("result-stale"); result.setAttribute("aria-busy", "true"); }
    pause = setTimeout(() => { pause = null; compute(false); }, TYPING_PAUSE_MS);
  });
  // leaving the box answers at once
  form.addEventListener("focusout", (e) => {
    // to a "use 9350" button: its tap answers (an answer drawn before the tap ends would replace the button)
    if (e.relatedTarget?.classList?.contains("use-suggestion")) { clearTimeout(pause); pause = null; return; }
    if (pause !== null && e.target.tagName === "INPUT" && hasUsage()) { clearTimeout(pause); pause = null; compute(false); }
  });
  let quarterChosen = null; // a quarter she picked before the list of quarters came: kept when it comes
  form.addEventListener("change", (e) => {
    if (e.target.name === "meter" || e.target.name === "have") syncMode();
    if (e.target.id === "quarter") {
      quarterChosen = e.target.value;
      showDue();
    }
  });

  // ---- start: the link's estimate (if any), then the quarters from the engine ----
  const initial = new URLSearchParams(location.search);
  const iso = todayIso();
  const fromLink = fillForm(initial);
  if (fromLink) root.dataset.state = "loading-link";
  if (fromLink) {
    // The link's estimate first (it is what the visitor came for), then the list of
    // quarters. The link's own words go to the engine, so a bad value in a link is
    // reported rather than dropped by the browser's date box.
    const known = new URLSearchParams();
    for (const [k, v] of initial) if (Object.hasOwn(FIELD_INPUT, k) || LINK_ONLY.includes(k)) known.append(k, v);
    const problem = linkProblem(known);
    if (problem) showLinkError(problem, true);
    else compute(true, known);
  }
  ask(["quarters", "--today", iso]).then(({ answer }) => {
    if (!answer.ok) return;
    const select = $("quarter");
    // the bill that falls due next: "my next bill" (public usability reading: a default of the bill whose water
    // months were over gave Rosa the October bill, and its penalty, when she asked about her next one)
    const chosen = quarterChosen || initial.get("quarter") || answer.result.next_due;
    select.replaceChildren(...answer.result.quarters.map((q) => {
      // each option names the bill in few words: the month it is due and the water it charges for (dates.py
      // bill_choice), so a person matching her water bill's months picks the right one; the full due date and
      // water months, with the site's reading labelled, are the line below the menu (showDue)
      const option = new Option(q.choice || q.words, q.quarter);
      option.dataset.due = q.due_date;
      option.dataset.start = q.period_start;
      if (q.water_words) option.dataset.water = q.water_words;
      return option;
    }));
    ensureQuarter(chosen);
    showDue();
  });
}
