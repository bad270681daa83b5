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
