"""The window for the public-comment meeting on a proposed rate schedule (rate-schedules.B).

Whether the window runs on to the next business day when its last day is a Saturday,
Sunday or public holiday is a recorded reading: rules/interpretations/hearing-window-end.yaml."""
from __future__ import annotations

import datetime as dt

from ..core.dates import long, next_business_day, not_business_day, parse_date
from ..core.explain import Explanation, since
from ..core.i18n import N_, _, ngettext
from ..core.rules import parameter


def _runs_on(rules: dict) -> bool:
    """Whether the window runs on to the next business day (the hearing-window-end reading). The
    schedule check reads parameters alone (calculator.rates.rate_year): without the readings and the
    holidays, the window is the one the law writes."""
    reading = rules.get("interpretations", {}).get("hearing-window-end", {}).get("chosen", "calendar-days")
    return reading == "next-business-day" and "holidays" in rules


def window(rules: dict, published) -> dict:
    day = published if isinstance(published, dt.date) else parse_date(published, N_("The publication date (⟦published⟧)"))
    low, high = parameter(rules, "hearing-minimum-days", on=day), parameter(rules, "hearing-maximum-days", on=day)
    latest = day + dt.timedelta(days=high)
    if _runs_on(rules):
        latest = next_business_day(rules, latest)
    return {"earliest": (day + dt.timedelta(days=low)).isoformat(), "latest": latest.isoformat()}


def compute(rules: dict, published, meeting=None) -> dict:
    pub = parse_date(published, N_("The publication date (⟦published⟧)"))
    w = window(rules, pub)
    low, high = parameter(rules, "hearing-minimum-days", on=pub), parameter(rules, "hearing-maximum-days", on=pub)
    last = pub + dt.timedelta(days=high)
    ex = Explanation()
    ex.add(_("Published {published}: the meeting must be no fewer than {low}{low_since} and no more than "
             "{high}{high_since} days later, from {earliest} to {latest}.").format(
                 published=long(pub), low=low, low_since=since(rules, "hearing-minimum-days", pub),
                 high=high, high_since=since(rules, "hearing-maximum-days", pub),
                 earliest=long(dt.date.fromisoformat(w["earliest"])), latest=long(last)),
           "rate-schedules.B", **w)
    out = {"command": "hearing", "published": pub.isoformat(), **w}
    closed = not_business_day(rules, last) if "holidays" in rules else None
    if closed:
        # day 30 is a Saturday, Sunday or holiday: say which reading decides whether the window runs on
        if _runs_on(rules):
            text = _("Day {high} after publication, {last}, is not a business day ({why}). How we read the law: the "
                     "window runs on to the next business day, {latest}.")
        else:
            text = _("Day {high} after publication, {last}, is not a business day ({why}). How we read the law: the "
                     "window still ends that day. Unlike the time to pay a bill, it does not run on to the next "
                     "business day. Hold the meeting on or before {latest}.")
        ex.add(text.format(high=high, last=long(last), why=closed, latest=long(dt.date.fromisoformat(w["latest"]))),
               "rate-schedules.B", interpretation="hearing-window-end", last_day_is_a_business_day=False)
    out["last_day_is_a_business_day"] = not closed
    if meeting is not None and str(meeting).strip() != "":
        meet = parse_date(meeting, N_("The meeting date (⟦meeting⟧)"))
        days = (meet - pub).days
        valid = w["earliest"] <= meet.isoformat() <= w["latest"]
        if valid:
            said = _("A meeting on {meeting} is {days} days after publication: within the window.")
        elif days < 0:  # "-18 days after" said nothing a reader could use (issue 33)
            said = ngettext("A meeting on {meeting} is {before} day before publication: it must come after it; "
                            "choose a date within the window.",
                            "A meeting on {meeting} is {before} days before publication: it must come after it; "
                            "choose a date within the window.", -days)
        elif days == 0:
            said = _("A meeting on {meeting} is on the day of publication: outside the window; choose a date within "
                     "it.")
        else:
            said = _("A meeting on {meeting} is {days} days after publication: outside the window; choose a date "
                     "within it.")
        ex.add(said.format(meeting=long(meet), days=days, before=-days),
               "rate-schedules.B", days_after_publication=days, valid=valid)
        out.update(meeting=meet.isoformat(), days_after_publication=days, valid=valid)
    out["explanation"] = ex.steps
    return out
