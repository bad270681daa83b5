// Keep "the meeting is N days away" true after the day the site was built.
(() => {
  const today = new Date();
  const midnight = Date.UTC(today.getFullYear(), today.getMonth(), today.getDate());
  for (const span of document.querySelectorAll(".days-left[data-until]")) {
    const days = Math.round((Date.parse(span.dataset.until + "T00:00:00Z") - midnight) / 86400000);
    span.textContent = days > 0 ? `The meeting is ${days} day${days === 1 ? "" : "s"} away.`
      : days === 0 ? "The meeting is today." : "The meeting has been held.";
  }
})();
