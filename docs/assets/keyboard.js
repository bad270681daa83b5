// The theme opens its navigation drawer (on phones) with a <label for="__drawer">
// that the keyboard cannot reach, and a label may not take role=button (ARIA in
// HTML). Put a real <button> in its place: focusable, named, announcing its state,
// working with Enter and Space as every button does. Without JavaScript the theme's
// label stays, and a tap still opens the drawer. Its name is in the page's language (assets/words.js).
import { t } from "./words.js";

(() => {
  const drawer = document.getElementById("__drawer");
  const label = document.querySelector('label.md-header__button[for="__drawer"]');
  if (!drawer || !label) return;
  const button = document.createElement("button");
  button.type = "button";
  button.className = `${label.className} site-menu-button`;
  button.id = "site-menu-button";
  button.setAttribute("aria-label", t("Site menu"));
  button.append(...label.childNodes);
  label.replaceWith(button);
  // On a phone the drawer is off the screen while closed, but its links still took the Tab key, about ten
  // presses through what cannot be seen (the usability test usability23, M6): closed there, it is inert.
  const sidebar = document.querySelector(".md-sidebar--primary");
  const narrow = window.matchMedia("(max-width: 76.234375em)");
  const sync = () => {
    button.setAttribute("aria-expanded", String(drawer.checked));
    if (sidebar) sidebar.inert = narrow.matches && !drawer.checked;
  };
  sync();
  drawer.addEventListener("change", sync);
  narrow.addEventListener("change", sync);
  button.addEventListener("click", () => {
    drawer.checked = !drawer.checked;
    drawer.dispatchEvent(new Event("change"));
    sync();
    if (drawer.checked) {
      const first = document.querySelector(".md-sidebar--primary a.md-nav__link, .md-sidebar--primary a");
      if (first) first.focus();
    }
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && drawer.checked) {
      drawer.checked = false;
      drawer.dispatchEvent(new Event("change"));
      sync();
      button.focus();
    }
  });
})();
