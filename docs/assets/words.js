// The words the pages' scripts show, in the page's language. A script writes each
// sentence once, in English, as t("… {name} …", {name: value}); the build puts the
// page's translations (rules/locale/<lang>/scripts.po) in the page as JSON
// (<script type="application/json" id="pawling-words">), and t() looks them up.
// English pages carry no table: the sentence is its own translation.
let table = null;

function words() {
  if (table === null) {
    const node = document.getElementById("pawling-words");
    try {
      table = node ? JSON.parse(node.textContent) : {};
    } catch {
      table = {};
    }
  }
  return table;
}

/** The page's language, as its <html lang> says ("en" or "es"). */
export function pageLanguage() {
  return (document.documentElement.lang || "en").slice(0, 2).toLowerCase();
}

/** A sentence in the page's language, with {name} filled from `values`. */
export function t(message, values = {}) {
  const text = (Object.hasOwn(words(), message) && words()[message]) || message;
  return text.replace(/\{([a-z_]+)\}/g, (whole, name) => (Object.hasOwn(values, name) ? String(values[name]) : whole));
}

/** A sentence for a count, in the page's language: nt("{n} day", "{n} days", 3) is
 * "3 days" (Spanish: "3 días"). The table holds a plural message's forms under its
 * English singular and plural joined by NUL, as gettext does; both languages take the
 * first form for 1 and the second for any other count. {n} and the other {name}s are
 * filled from `values`. */
export function nt(singular, plural, n, values = {}) {
  const form = Math.abs(n) === 1 ? 0 : 1;
  const forms = words()[`${singular}\u0000${plural}`];
  const text = Array.isArray(forms) && forms[form] ? forms[form] : [singular, plural][form];
  const all = { n, ...values };
  return text.replace(/\{([a-z_]+)\}/g, (whole, name) => (name in all ? String(all[name]) : whole));
}
