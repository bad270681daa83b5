// The "not found" page (404.html, one for the whole site on GitHub Pages: kit/site/theme_hooks.py
// on_post_template). It has a block in each language, English first. A missing address under another
// language's folder (/es/…) is a reader of that language: they get that language's own "not found"
// page (es/404.html: its menu, title, footer and `lang` all in that language), opened in place of this
// one (replace: the Back button still leads to the page they came from). The local server sends
// es/404.html itself, so this script runs only where the host has one 404.html. Each block's link
// leads to its language's home page, so its folder is read from there (the site may be served under
// a path of its own).
const blocks = document.querySelectorAll(".not-found > section[lang]");
for (const block of blocks) {
  const home = block.querySelector("a[hreflang]");
  if (!home) continue;  // the English block: its home is the site's root, which every address is under
  const folder = new URL(home.href, window.location.href).pathname;
  if (!window.location.pathname.startsWith(folder)) continue;
  block.parentNode.prepend(block);  // until the page in that language opens (or if it cannot)
  window.location.replace(new URL("404.html", new URL(folder, window.location.href)).href);
  break;
}
