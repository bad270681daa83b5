// Keep "the meeting is N days away" true after the day the site was built, in the
// page's language (assets/words.js).
import { nt, t } from "./words.js";

const today = new Date();
const midnight = Date.UTC(today.getFullYear(), today.getMonth(), today.getDate());
for (const span of document.querySelectorAll(".days-left[data-until]")) {
  const days = Math.round((Date.parse(span.dataset.until + "T00:00:00Z") - midnight) / 86400000);
  span.textContent = days > 0 ? nt("The meeting is {n} day away.", "The meeting is {n} days away.", days)
    : days === 0 ? t("The meeting is today.") : t("The meeting has been held.");
}
