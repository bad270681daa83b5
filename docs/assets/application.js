// The application form as a web page (/permit/application/): filled in from the permit
// checker's answers, which arrive in the page's address as the checker writes them
// (?work=new-connection&street-opening=yes...), then downloaded as the filled PDF with
// what the person typed here. The engine (calculator/permits/application.py) decides which
// box each answer fills and fills the PDF; this script moves values between it and the
// form. Every sentence it shows goes through t() (words.js).
import { el, sentence, startEngine, statusLine } from "./engine-client.js";
import { t } from "./words.js";

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

  function fill(values) {
    for (const [name, value] of Object.entries(values)) {
      for (const box of boxes().filter((b) => b.name === name)) {
        if (box.type === "radio") box.checked = box.value === value;
        else if (!box.value.trim()) box.value = value;
      }
    }
  }

  // The checker's answers: the words of the address that name one of its questions.
  engine.ask(["permit", "--list-questions"]).then(async (listed) => {
    if (!listed.ok) return;
    const ids = new Set(listed.result.questions.map((q) => q.id));
    answers = [...new URLSearchParams(location.search)]
      .filter(([id, value]) => ids.has(id) && value.trim()).map(([id, value]) => `${id}=${value.trim()}`);
    if (!answers.length) return;
    const answer = await engine.ask(["application", ...answers.flatMap((a) => ["--answer", a])]);
    const note = $("prefilled");
    form.before(note); // said where the form starts, not under it
    if (!answer.ok) {
      note.textContent = answer.error;
    } else {
      fill(answer.result.fields);
      note.textContent = t("We filled in {filled} of the questions from your answers to the permit checker. Check them, then type the rest.",
        { filled: answer.result.answered.length });
    }
    note.hidden = false;
  });

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
      status.textContent = answer.error;
      return;
    }
    if (blobUrl) URL.revokeObjectURL(blobUrl);
    blobUrl = URL.createObjectURL(new Blob([bytes], { type: "application/pdf" }));
    const link = el("a", { href: blobUrl, download: t("sewer-permit-application.pdf"), id: "application-download" },
      t("download it again (PDF, {size} KB)", { size: Math.ceil(bytes.length / 1024) }));
    // "with your plans" only when the answers ask for plans (answer.result.plans: tearing down does not)
    status.replaceChildren(...sentence(answer.result.plans
      ? t("Your application form is downloading, with {filled} of its questions answered. If it does not open, {link}. Sign it, and file it with your plans.",
        { filled: answer.result.answered.length })
      : t("Your application form is downloading, with {filled} of its questions answered. If it does not open, {link}. Sign it, and file it.",
        { filled: answer.result.answered.length }), { link }));
    link.click();
    link.focus();
  });
}
