// The "not found" page (404.html, one for the whole site: kit/site/theme_hooks.py on_post_template).
// It has a block in each language, English first. A missing address under another language's
// folder (/es/…) is a reader of that language: their block goes first, and the tab's title
// names the page in their language first. Each block's link leads to its language's home page,
// so its folder is read from there (the site may be served under a path of its own).
const blocks = document.querySelectorAll(".not-found > section[lang]");
for (const block of blocks) {
  const home = block.querySelector("a[hreflang]");
  if (!home) continue;  // the English block: its home is the site's root, which every address is under
  const folder = new URL(home.href, window.location.href).pathname;
  if (!window.location.pathname.startsWith(folder)) continue;
  block.parentNode.prepend(block);
  const names = [...block.parentNode.querySelectorAll("section[lang] > h2")].map((h) => h.textContent.trim());
  const site = document.title.split(" - ").slice(1).join(" - ");
  document.title = `${names.join(" · ")}${site ? ` - ${site}` : ""}`;
  break;
}
