// The quarterly bill run on the Clerk's desk: the chosen files go to the engine's `bills`
// command in the worker (calculator/bills/billing.py, the same code as `python3 build.py bills`),
// and its files come back as downloads. Nothing is worked out here, and nothing is sent
// anywhere: the files are read in this browser and written into the worker's own memory.
import { clearFieldErrors, el, longDate, quotedIn, showFieldError, startEngine, statusLine } from "./engine-client.js";

const root = document.getElementById("bill-run");
// the site's public address (mkdocs.yml site_url, or the publish workflow's --site-url), never this computer's own
const LOCAL = /^(localhost|127\.[\d.]+|\[::1\]|0\.0\.0\.0)$/i;
function siteUrl() {
  try {
    const url = new URL(root?.dataset.siteUrl || "");
    return /^https?:$/.test(url.protocol) && !LOCAL.test(url.hostname) ? url.href : "";
  } catch {
    return "";
  }
}
// the engine's option names, as its refusals name them (InputError.field), and their boxes
const BOXES = { quarter: "bills-quarter", accounts: "bills-accounts", reads: "bills-reads", payments: "bills-payments",
  "earlier register": "bills-earlier", "as-of": "bills-as-of" };
// (the files keep their names, which other programs and the next run read; the words say what each holds)
const DOWNLOADS = [["register.csv", "The billing record: one line for each account billed"],
  ["summary.csv", "The totals of this run"],
  ["arrears.csv", "Bills still unpaid after their last day to pay, for the Town Board"],
  ["refused.csv", "The rows not billed, with what to fix"]];

// The Clerk's desk keeps the year she is preparing in this browser (clerk.js: localStorage) until she
// publishes it. Its records go to the run too (--prepared), so the quarter of a year she adopted there can
// be billed before the site is built again; the engine then says the bills use a schedule not yet
// published (issue 34, item 2).
const DESK_STORE = "pawling-clerk-desk";
const DESK_FILES = { proposal: "proposal.yaml", notice: "notice.yaml", vote: "vote.yaml" };

function deskRecords(folder) {
  const files = {};
  try {
    const years = JSON.parse(localStorage.getItem(DESK_STORE) || "{}").years || {};
    for (const [year, y] of Object.entries(years)) {
      for (const [record, name] of Object.entries(DESK_FILES)) {
        const text = y?.records?.[record]?.text;
        if (typeof text === "string" && /^\d{4}$/.test(year)) files[`${folder}/${year}/${name}`] = new TextEncoder().encode(text);
      }
    }
  } catch {
    // nothing kept, or not readable: the run uses the published schedules only
  }
  return files;
}

// not inside another site's frame: the page's head marked it so (docs/overrides/main.html, `framing: deny`)
if (root && !document.documentElement.classList.contains("framed")) start();

async function bytesOf(file) {
  return new Uint8Array(await file.arrayBuffer());
}

// The sample's reads, their dates moved from the sample's quarter to another (the Clerk's usability test,
// clerk11: the sample could bill only 2025-Q3 and Q4, not the 2028 she had just adopted). Every read moves by
// the same number of months, so the sample's faulty rows stay faulty; a day past a month's end is its last day.
function quarterIndex(name) {
  const m = /^(\d{4})-Q([1-4])$/.exec(name || "");
  return m ? Number(m[1]) * 4 + Number(m[2]) - 1 : null;
}

export function movedReads(text, fromQuarter, toQuarter) {
  const months = 3 * (quarterIndex(toQuarter) - quarterIndex(fromQuarter));
  const lines = text.split(/\r?\n/);
  const column = lines[0].split(",").indexOf("read_date");
  if (column < 0 || !months) return text;
  const move = (day) => {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
    if (!m) return day; // not a date: a fault the run is meant to refuse, kept as it is
    const total = Number(m[1]) * 12 + Number(m[2]) - 1 + months;
    const year = Math.floor(total / 12), month = total % 12;
    const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
    const two = (n) => String(n).padStart(2, "0");
    return `${year}-${two(month + 1)}-${two(Math.min(Number(m[3]), last))}`;
  };
  return lines.map((line, i) => {
    if (i === 0 || !line) return line;
    const cells = line.split(",");
    if (cells.length > column) cells[column] = move(cells[column]);
    return cells.join(",");
  }).join("\n");
}

function offerMovedSample($) {
  const button = $("sample-use");
  if (!button) return;
  $("sample-moved").hidden = false;
  button.addEventListener("click", async () => {
    const status = $("sample-use-status");
    const quarter = $("bills-quarter").value;
    if (!quarterIndex(quarter)) {
      status.textContent = "Choose the quarter to bill in the form first.";
      return;
    }
    try {
      const [accounts, reads] = await Promise.all([button.dataset.accounts, button.dataset.reads].map(async (url) => {
        const response = await fetch(url);
        if (!response.ok) throw new Error(url);
        return response.text();
      }));
      const put = (id, name, text) => {
        const files = new DataTransfer();
        files.items.add(new File([text], name, { type: "text/csv" }));
        $(id).files = files.files;
      };
      put("bills-accounts", "accounts.csv", accounts);
      put("bills-reads", `reads-${quarter}-sample.csv`, movedReads(reads, button.dataset.sampleQuarter, quarter));
      $("bills-first-quarter").checked = true;
      status.textContent = `The form has accounts.csv and reads-${quarter}-sample.csv, the sample's reads dated for `
        + `${quarter}. Press “Run the bills”.`;
    } catch {
      status.textContent = "The sample files could not be read. Reload the page and try again.";
    }
  });
}

function start() {
  offerMovedSample((id) => document.getElementById(id));
  root.hidden = false;
  root.dataset.state = "loading";
  const $ = (id) => document.getElementById(id);
  const form = $("bills-form");
  const result = $("result");
  let urls = [];
  // A run's results live only in this page: nothing of them is kept in the browser's storage, so no account's
  // name or address stays on the office's computer. Leaving or reloading the page before the register is
  // downloaded asks first (the Clerk's usability reading: a reload lost the run's results without a word).
  let registerKept = true;
  window.addEventListener("beforeunload", (event) => {
    if (registerKept) return;
    event.preventDefault();
    event.returnValue = "";
  });
  let runs = 0;
  window.__billRun = { ready: false, done: 0 };
  const engine = startEngine(root.dataset.wheel, {
    ...statusLine(root, "The calculator is ready.",
      "The calculator could not start in this browser. Try reloading the page, or another browser."),
    async onReady() {
      await offerQuarters();
      $("engine-status-text").textContent = "The calculator is ready.";
      $("engine-progress").hidden = true;
      root.dataset.state = "ready";
      window.__billRun.ready = true;
    },
  });

  // the quarter as a menu like the estimate page's ("Bill due Jan 2027 (water Oct–Dec 2026)"), its value
  // the quarter's name the run and its files use (2027-Q1); the next bill due is chosen (the usability test:
  // "Q1 2027" typed was refused)
  async function offerQuarters() {
    const two = (n) => String(n).padStart(2, "0");
    const now = new Date();
    const today = `${now.getFullYear()}-${two(now.getMonth() + 1)}-${two(now.getDate())}`;
    // a year adopted on the desk in this browser has its quarters offered too (clerk10: 2028, adopted in
    // December 2026, was not in the menu)
    const desk = deskRecords("/bills/menu-desk");
    const argv = ["quarters", "--today", today, ...(Object.keys(desk).length ? ["--prepared", "/bills/menu-desk"] : [])];
    const { answer } = await engine.run(argv, desk);
    const select = $("bills-quarter");
    if (!answer.ok) {
      select.replaceChildren(el("option", { value: "" }, "The quarters could not be listed: reload the page"));
      return;
    }
    select.replaceChildren(...answer.result.quarters.map((q) => {
      const waterYear = /\d{4}$/.exec(q.water_words || "")?.[0];
      const choice = waterYear ? q.choice.replace(/\)$/, ` ${waterYear})`) : q.choice;
      return el("option", { value: q.quarter }, `${choice} — ${q.quarter}`);
    }));
    select.value = answer.result.next_due;
    // a link from the desk names the quarter (?quarter=2028-Q1): chosen when offered, and said when not, never
    // silently replaced by another (clerk10: ?quarter=2028-Q1 showed 2027-Q1 with no word)
    const asked = new URLSearchParams(window.location.search).get("quarter");
    const note = $("bills-quarter-note");
    if (asked && note) {
      const offered = answer.result.quarters.some((q) => q.quarter === asked);
      if (offered) select.value = asked;
      note.hidden = offered;
      note.textContent = offered ? "" : `The link asked for the quarter “${asked}”, which this page cannot bill: no `
        + "schedule adopted on the site or in this browser covers it. The menu shows the next bill due instead. "
        + "If you adopted its year on the Clerk's desk, use the same browser, or publish the year first.";
    }
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearFieldErrors(form);
    for (const input of form.querySelectorAll("[data-required]")) {
      if (!(input.type === "file" ? input.files.length : input.value.trim())) {
        const what = form.querySelector(`label[for="${input.id}"]`).textContent;
        showFieldError(form, input, input.type === "file" ? `Choose the ${what.toLowerCase()}.` : `Enter the ${what.toLowerCase()}, like 2025-Q4.`, true);
        return;
      }
    }
    // "Do you have a register.csv from an earlier bill run on this site?": a file chosen answers Yes
    const first = $("bills-first-quarter").checked;
    if (!first && !$("bills-earlier-yes").checked && !$("bills-earlier").files.length) {
      showFieldError(form, $("bills-earlier-yes"), "Answer the question: do you have a register.csv from an earlier "
        + "bill run on this site? If you do, choose Yes and choose the file. If not, choose “No, this is the first bill run on this site”.", true);
      return;
    }
    const folder = `/bills/run-${++runs}`;
    const files = {};
    const argv = ["bills", "--quarter", $("bills-quarter").value.trim(), "--out", `${folder}/out`];
    const add = async (option, file, index = "") => {
      const path = `${folder}/in${index}/${file.name}`; // the file's own name: the refusals name it
      files[path] = await bytesOf(file);
      argv.push(option, path);
    };
    await add("--accounts", $("bills-accounts").files[0]);
    await add("--reads", $("bills-reads").files[0]);
    if ($("bills-payments").files.length) await add("--payments", $("bills-payments").files[0]);
    let i = 0;
    // (given with either answer: an earlier run of this same quarter's register says which accounts it billed)
    for (const file of $("bills-earlier").files) await add("--earlier", file, `-earlier-${i++}`);
    if ($("bills-as-of").value) argv.push("--as-of", $("bills-as-of").value);
    if (first) argv.push("--first-quarter");
    const desk = deskRecords(`${folder}/desk`);
    if (Object.keys(desk).length) {
      Object.assign(files, desk);
      argv.push("--prepared", `${folder}/desk`);
    }
    result.replaceChildren(el("p", { role: "status" }, "Billing every account…"));
    const started = performance.now();
    const { answer, files: out } = await engine.run(argv, files);
    const seconds = (performance.now() - started) / 1000;
    if (!answer.ok) {
      result.replaceChildren();
      const box = $(BOXES[answer.field] || "bills-quarter");
      showFieldError(form, box, answer.error, true);
      return;
    }
    show(answer.result, out, folder, seconds, argv);
  });

  // A provision as a bill names it ({words, heading}, explain.law_words): in a Spanish bill the words are
  // Spanish, with the law's English name quoted in them and its heading beside them marked as English
  function lawNamed(law, language) {
    const english = language === "en" ? {} : { lang: "en" };
    if (!law.heading) return language === "en" ? [law.words] : [el("span", english, law.words)];
    return [...quotedIn(law.words, language), " (", el("span", english, law.heading), ")"];
  }

  // The bills to print: one section an account, in its language (lang on the section), each starting a
  // new printed page (site.css); printing the page after a run prints these and nothing else.
  function printable(bills) {
    const button = el("button", { type: "button", class: "md-button", id: "bills-print-button" }, "Print the bills");
    button.addEventListener("click", () => window.print());
    const rows = (lines, cls) => el("table", { class: cls }, el("tbody", {}, ...lines.map(([label, value]) =>
      el("tr", {}, el("th", { scope: "row" }, label), el("td", {}, value)))));
    const sections = bills.map((b) => {
      const lines = rows(b.lines, "bill-lines");
      lines.tBodies[0].append(el("tr", { class: "bill-total" }, el("th", { scope: "row" }, b.total[0]),
        el("td", {}, b.total[1])));
      return el("section", { class: "bill", lang: b.language, "aria-labelledby": `bill-${b.account}`, "data-account": b.account },
        el("h4", { id: `bill-${b.account}` }, b.title),
        el("p", { class: "bill-from" }, b.from), el("p", { class: "bill-to" }, b.to[0], el("br"), b.to[1]),
        rows(b.account_lines, "bill-account"), lines,
        // a bill at the illustrative schedule's invented rate says so at its total (the engine's words)
        ...(b.total_note ? [el("p", { class: "bill-illustrative" }, el("strong", {}, b.total_note))] : []),
        el("p", { class: "bill-due" }, el("strong", {}, b.pay_by), " ", b.late),
        // the public site's address only (the engine leaves the link out when the site has none)
        ...(b.link ? [el("p", { class: "bill-link" }, b.link_label, " ", el("a", { href: b.link }, b.link))] : []),
        // how to pay, one line as on the PDF: the Town Clerk's office and what the Town publishes of it (rules/contacts.yaml)
        el("p", { class: "bill-pay" }, el("strong", {}, `${b.pay_title}:`), " ", b.pay),
        el("h5", {}, b.steps_title),
        // the law named as the PDF bill names it (bill.html.j2), in the bill's language ("Cargos de
        // alcantarillado, sección F"); a step citing the provision the step before it cites names none
        el("ol", { class: "bill-steps" }, ...b.steps.map((step) => el("li", {}, ...quotedIn(step.text, b.language),
          ...(step.law ? [" ", el("span", { class: "cite" }, "(", ...lawNamed(step.law, b.language), ")")] : [])))));
    });
    const noLink = bills.length && !bills[0].link ? [el("p", { id: "bills-no-link", class: "bill-run-notice" },
      el("strong", {}, "The site's web address is not set yet. "),
      "The person who keeps the site sets it. Until then, these bills carry no link to the Town's estimate page.")]
      : [];
    return [...noLink, el("p", { id: "bills-print-hint" }, `${bills.length} bills. Each prints on its own page. `
        + "Printing this page now prints the bills only."),
      button, el("div", { id: "bills-print", "aria-labelledby": "bills-print-title" }, ...sections)];
  }

  // The bills to print, on request (making 2,000 of them takes longer than the register): the same run
  // again on the files already in the worker, with --printable, so the engine answers with each account's
  // bill, its words and figures in the account's language (calculator/billing.printable_bill, what the
  // PDF bills show), linking to the estimate page at the site's public address (site_url, which the build
  // writes on the page), never at the address this page was opened from (the laptop's own, on a laptop): without
  // a public address, the bills carry no link and the desk says so.
  function printStart(argv, count) {
    const area = el("div", { id: "bills-print-area" });
    const make = el("button", { type: "button", class: "md-button", id: "bills-make-button" }, "Show the bills to print");
    make.addEventListener("click", async () => {
      make.disabled = true;
      area.replaceChildren(el("p", { role: "status" }, `Making ${count} bills…`));
      const started = performance.now();
      const site = siteUrl();
      const answer = await engine.ask([...argv, "--printable", ...(site ? ["--site-url", site] : [])]);
      if (!answer.ok) {
        area.replaceChildren(el("p", { role: "alert" }, answer.error));
        make.disabled = false;
        return;
      }
      make.remove();
      area.replaceChildren(...printable(answer.result.bills));
      $("bills-print-title").focus();
      window.__billRun.printed = (window.__billRun.printed || 0) + 1;
      window.__billRun.printSeconds = (performance.now() - started) / 1000;
    });
    return [el("h3", { id: "bills-print-title", tabindex: "-1" }, "The bills to print"),
      el("p", { id: "bills-print-intro" }, "Each account's bill, in its language: print them from here (or save them as a PDF from the print window)."),
      make, area];
  }

  // money as the site writes it, $9,559.20 (the register keeps 9559.20, for spreadsheets)
  // a credit (below zero) as −$40.00, the minus sign before the dollar sign
  const dollars = (s) => (Number(s) < 0 ? "−$" : "$") +
    Math.abs(Number(s)).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

  // each download named with its quarter and the run's local date and time, 2027-Q1-register-2026-12-06-1432.csv:
  // two runs of a quarter never share a name (the usability test: the second register saved as "…(1).csv").
  // The next run reads a register by its content, whatever its name (billing.billed_this_quarter, _earlier).
  function fileName(quarter, name, when) {
    const two = (n) => String(n).padStart(2, "0");
    const stamp = `${when.getFullYear()}-${two(when.getMonth() + 1)}-${two(when.getDate())}-`
      + `${two(when.getHours())}${two(when.getMinutes())}`;
    return `${quarter}-${name.replace(/\.csv$/, "")}-${stamp}.csv`;
  }

  function show(r, out, folder, seconds, argv) {
    urls.forEach((u) => URL.revokeObjectURL(u));
    urls = [];
    const when = new Date();
    const named = Object.fromEntries(DOWNLOADS.map(([name]) => [name, fileName(r.quarter, name, when)]));
    const links = DOWNLOADS.map(([name, label]) => {
      const bytes = out[`${folder}/out/${name}`];
      const url = URL.createObjectURL(new Blob([bytes], { type: "text/csv" }));
      urls.push(url);
      const link = el("a", { href: url, download: named[name], "data-file": name }, label);
      if (name === "register.csv") link.addEventListener("click", () => { registerKept = true; });
      return el("li", {}, link, ": ", el("code", {}, named[name]));
    });
    const rows = r.summary.map((s) => el("tr", {}, el("th", { scope: "row" }, s.item), el("td", {}, String(s.accounts)),
      el("td", {}, s.amount ? dollars(s.amount) : "")));
    const summary = el("table", { id: "bills-summary" },
      el("caption", {}, `The run for ${r.quarter}, due ${longDate(r.due_date)}`),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Item"), el("th", { scope: "col" }, "Accounts"),
        el("th", { scope: "col" }, "Amount"))),
      el("tbody", {}, ...rows));
    const parts = [el("h2", { id: "bills-done", tabindex: "-1" }, `Billed ${r.accounts_billed} accounts for ${r.quarter}`),
      // a schedule adopted on the desk in this browser and not yet published: said first (the engine's words)
      ...(r.schedule_note ? [el("p", { class: "bill-run-notice", id: "bills-unpublished" },
        el("strong", {}, `${r.schedule.label}: `), r.schedule_note)] : []),
      ...r.notices.map((n) => el("p", { class: "bill-run-notice" }, n)),
      // the first bills of a fiscal year, or under a new schedule: the notice to users goes with them
      // (rate-schedules.D; the engine's rate_notice_due says when, and its words name the notice)
      // not when no account was billed: there are no bills to enclose it with (clerk11, B3)
      ...(r.enclose && r.accounts_billed > 0 ? [el("p", { class: "bill-run-notice", id: "bills-enclose" },
        el("strong", {}, "Enclose the notice to users: "), ...quotedIn(r.enclose.text, "en"))] : []),
      summary,
      el("h3", {}, "Download the results"),
      el("p", { id: "bills-downloads-named" }, `Each file's name says its quarter and when this run was made (`
        + `${when.toLocaleString("en-US", { dateStyle: "long", timeStyle: "short" })}), so the files of two runs `
        + "never share a name. Keep them together."),
      el("p", { id: "bills-downloads-only-here" }, el("strong", {}, "Download them before you close or reload this page: "),
        "the results are only in this page. This browser does not keep them, so no account's details stay on this computer."),
      el("ul", { id: "bills-downloads" }, ...links)];
    if (r.refused.length) {
      // a list, not a table: each row's file, line and account, then what to fix (readable on a phone)
      const refused = r.refused.map((x) => el("li", {}, el("strong", {}, `${x.file}, line ${x.line}`),
        x.account ? `, account ${x.account}: ` : ": ", x.what_to_fix));
      // one item a row of a file, with every problem found on it (the engine joins them)
      parts.push(el("h3", { id: "bills-refused-title" }, r.refused.length === 1
        ? "1 row was not billed: fix it and run again" : `${r.refused.length} rows were not billed: fix each and run again`));
      // one reason for most rows is said once, above them (clerk11, B2: 41 identical refusals of reads dated for
      // another quarter, with no word that the file or the quarter was the wrong one)
      const reasons = new Map();
      for (const x of r.refused) reasons.set(x.what_to_fix, (reasons.get(x.what_to_fix) || 0) + 1);
      const [common, count] = [...reasons.entries()].sort((a, b) => b[1] - a[1])[0];
      if (count >= 5 && count * 2 > r.refused.length) {
        parts.push(el("p", { id: "bills-refused-common", class: "bill-run-notice" },
          el("strong", {}, `${count} of these rows were refused for the same reason: `), common,
          " When most rows fail in the same way, check that you chose the right file and the right quarter."));
      }
      parts.push(el("ul", { id: "bills-refused", "aria-labelledby": "bills-refused-title" }, ...refused));
      // the accounts that passed are billed now, the refused ones later, by a second run of the same quarter
      // given this run's register: the engine bills only the accounts it did not (billing.billed_this_quarter)
      if (r.accounts_billed) {
        parts.push(el("p", { id: "bills-later", class: "bill-run-notice" },
          el("strong", {}, `The ${r.accounts_billed} ${r.accounts_billed === 1 ? "account that passed is" : "accounts that passed are"} billed. `),
          "To bill the others later: fix the rows above in the water department's files (or ask the water department "
          + `to), then run ${r.quarter} again on this page with the same files and the same answer about an earlier `
          + `register.csv. Also choose this run's register, ${named["register.csv"]} (the first download above), in the box `
          + "“Billing records of earlier runs”. The accounts it lists are not billed again. Keep both runs' registers: "
          + "next quarter's run needs both."));
      }
    }
    if (r.checks && r.checks.length) {
      // billed, but to look at before the bills go out: a payment far above its bill, a usage far above
      // the account's last quarter (the engine's words, as the command line prints them after "Check:")
      parts.push(el("h3", { id: "bills-checks-title" }, `${r.checks.length} to check before the bills go out`),
        el("ul", { id: "bills-checks", "aria-labelledby": "bills-checks-title" }, ...r.checks.map((c) => el("li", {}, c))));
    }
    if (r.accounts_billed) parts.push(...printStart(argv, r.accounts_billed));
    result.replaceChildren(...parts);
    registerKept = false;
    $("bills-done").focus();
    window.__billRun.done += 1;
    window.__billRun.seconds = seconds;
  }
}
