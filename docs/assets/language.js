// The language switch (docs/overrides/main.html): the same page in the other
// language, with the same query string, so a shared estimate link switches
// language with its answer. The query string is read when the link is followed:
// the engine pages change it as a person answers.
for (const link of document.querySelectorAll("a[data-keep-query]")) {
  const keep = () => {
    const target = new URL(link.getAttribute("href"), window.location.href);
    target.search = window.location.search;
    link.href = target.href;
  };
  keep();
  // (the theme's own language switch, which Material runs for any link to a page that a
  // <link rel=alternate> names, would send the reader to the other language's start page
  // without the query string; main.html keeps our hreflang links out of its sight, and
  // this stops it should it ever see them: this link goes where its href says)
  link.addEventListener("click", (event) => {
    keep();
    event.stopPropagation();
  });
  link.addEventListener("auxclick", keep);
  link.addEventListener("focus", keep);
}

// A visitor whose browser prefers Spanish (navigator.languages: Spanish before any English) who lands on an
// English page sees one Spanish line at the top with a link to the same page in Spanish (issue 34: Doña
// Carmen, es-US, had to find the «Español» link herself). Never a redirect: the English text is the
// official one. Closed once, it stays closed (localStorage; without storage it shows again, nothing else).
const SPANISH_DISMISSED = "pawling-spanish-offer-closed";

function prefersSpanish() {
  const languages = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || ""];
  const first = languages.find((l) => /^(es|en)\b/i.test(l)) || "";
  return /^es\b/i.test(first);
}

function dismissed() {
  try { return window.localStorage.getItem(SPANISH_DISMISSED) === "1"; } catch { return false; }
}

function offerSpanish() {
  if ((document.documentElement.lang || "en").slice(0, 2).toLowerCase() !== "en") return;
  const spanish = document.querySelector('a[data-keep-query][hreflang="es"]');
  const switcher = spanish && spanish.closest(".language-switch");
  if (!spanish || !switcher || !prefersSpanish() || dismissed()) return;
  const line = document.createElement("p");
  line.className = "spanish-offer";
  line.id = "spanish-offer";
  line.lang = "es";
  const link = document.createElement("a");
  link.href = spanish.href; // with the query string (keep(), above)
  link.hreflang = "es";
  link.textContent = "verla en español";
  link.addEventListener("click", () => {
    const target = new URL(link.getAttribute("href"), window.location.href);
    target.search = window.location.search;
    link.href = target.href;
  });
  const close = document.createElement("button");
  close.type = "button";
  close.className = "spanish-offer__close";
  close.textContent = "Cerrar";
  close.setAttribute("aria-label", "Cerrar este aviso en español");
  close.addEventListener("click", () => {
    try { window.localStorage.setItem(SPANISH_DISMISSED, "1"); } catch { /* shown again next time */ }
    line.remove();
  });
  // (this page is the English one: the line says a Spanish one exists, not that this one is Spanish; the
  // outside test public-personas2 read «Esta página está en español» on an English page)
  line.append("Esta página también está en español: ", link, ". ", close);
  switcher.before(line);
}

offerSpanish();
