// The theme opens its navigation drawer (on phones) with a <label> that the
// keyboard cannot reach. Make it a real button for keyboard and screen-reader
// users: focusable, named, announcing its state, working with Enter and Space.
(() => {
  const drawer = document.getElementById("__drawer");
  const button = document.querySelector('label.md-header__button[for="__drawer"]');
  if (!drawer || !button) return;
  button.setAttribute("role", "button");
  button.setAttribute("tabindex", "0");
  button.setAttribute("aria-label", "Site menu");
  const sync = () => button.setAttribute("aria-expanded", String(drawer.checked));
  sync();
  drawer.addEventListener("change", sync);
  button.addEventListener("click", () => setTimeout(sync));
  button.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    drawer.checked = !drawer.checked;
    drawer.dispatchEvent(new Event("change"));
    if (drawer.checked) {
      const first = document.querySelector(".md-sidebar--primary a.md-nav__link, .md-sidebar--primary a");
      if (first) first.focus();
    }
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && drawer.checked) {
      drawer.checked = false;
      sync();
      button.focus();
    }
  });
})();
