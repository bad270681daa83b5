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
  link.addEventListener("click", keep);
  link.addEventListener("auxclick", keep);
  link.addEventListener("focus", keep);
}
