// The quarterly bill run on the Clerk's desk: the chosen files go to the engine's `bills`
// command in the worker (calculator/billing.py, the same code as `python3 build.py bills`),
// and its files come back as downloads. Nothing is worked out here, and nothing is sent
// anywhere: the files are read in this browser and written into the worker's own memory.
import { clearFieldErrors, el, longDate, showFieldError, startEngine, statusLine } from "./engine-client.js";

const root = document.getElementById("bill-run");
// the engine's option names, as its refusals name them (InputError.field), and their boxes
const BOXES = { quarter: "bills-quarter", accounts: "bills-accounts", reads: "bills-reads", payments: "bills-payments",
  "earlier register": "bills-earlier", "as-of": "bills-as-of" };
const DOWNLOADS = [["register.csv", "The register: one line an account"], ["summary.csv", "The summary"],
  ["arrears.csv", "Arrears: the list the Town Board needs for a levy (not a levy)"],
  ["refused.csv", "The refused rows, with what to fix"]];

if (root) start();

async function bytesOf(file) {
  return new Uint8Array(await file.arrayBuffer());
}

function start() {
  root.hidden = false;
  root.dataset.state = "loading";
  const $ = (id) => document.getElementById(id);
  const form = $("bills-form");
  const result = $("result");
  let urls = [];
  let runs = 0;
  window.__billRun = { ready: false, done: 0 };
  const engine = startEngine(root.dataset.wheel, {
    ...statusLine(root, "The calculator is ready.",
      "The calculator could not start in this browser. Try reloading the page, or another browser."),
    onReady() {
      $("engine-status-text").textContent = "The calculator is ready.";
      $("engine-progress").hidden = true;
      root.dataset.state = "ready";
      window.__billRun.ready = true;
    },
  });

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
    for (const file of $("bills-earlier").files) await add("--earlier", file, `-earlier-${i++}`);
    if ($("bills-as-of").value) argv.push("--as-of", $("bills-as-of").value);
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
    show(answer.result, out, folder, seconds);
  });

  function show(r, out, folder, seconds) {
    urls.forEach((u) => URL.revokeObjectURL(u));
    urls = [];
    const links = DOWNLOADS.map(([name, label]) => {
      const bytes = out[`${folder}/out/${name}`];
      const url = URL.createObjectURL(new Blob([bytes], { type: "text/csv" }));
      urls.push(url);
      return el("li", {}, el("a", { href: url, download: `${r.quarter}-${name}`, "data-file": name }, label),
        ` (${name})`);
    });
    const rows = r.summary.map((s) => el("tr", {}, el("th", { scope: "row" }, s.item), el("td", {}, String(s.accounts)),
      el("td", {}, s.amount ? `$${s.amount}` : "")));
    const summary = el("table", { id: "bills-summary" },
      el("caption", {}, `The run for ${r.quarter}, due ${longDate(r.due_date)}`),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Item"), el("th", { scope: "col" }, "Accounts"),
        el("th", { scope: "col" }, "Amount"))),
      el("tbody", {}, ...rows));
    const parts = [el("h2", { id: "bills-done", tabindex: "-1" }, `Billed ${r.accounts_billed} accounts for ${r.quarter}`),
      ...r.notices.map((n) => el("p", { class: "bill-run-notice" }, n)), summary,
      el("h3", {}, "Download the results"), el("ul", { id: "bills-downloads" }, ...links)];
    if (r.refused.length) {
      // a list, not a table: each row's file, line and account, then what to fix (readable on a phone)
      const refused = r.refused.map((x) => el("li", {}, el("strong", {}, `${x.file}, line ${x.line}`),
        x.account ? `, account ${x.account}: ` : ": ", x.what_to_fix));
      parts.push(el("h3", { id: "bills-refused-title" }, `${r.refused.length} rows were not billed: fix each and run again`),
        el("ul", { id: "bills-refused", "aria-labelledby": "bills-refused-title" }, ...refused));
    }
    result.replaceChildren(...parts);
    $("bills-done").focus();
    window.__billRun.done += 1;
    window.__billRun.seconds = seconds;
  }
}
