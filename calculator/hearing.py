"""The window for the public-comment meeting on a proposed rate schedule (rate-schedules.B)."""
from __future__ import annotations

import datetime as dt

from .dates import long, parse_date
from .explain import Explanation, since
from .i18n import N_, _
from .rules import parameter


def window(rules: dict, published) -> dict:
    day = published if isinstance(published, dt.date) else parse_date(published, N_("The publication date (published)"))
    low, high = parameter(rules, "hearing-minimum-days", on=day), parameter(rules, "hearing-maximum-days", on=day)
    return {"earliest": (day + dt.timedelta(days=low)).isoformat(),
            "latest": (day + dt.timedelta(days=high)).isoformat()}


def compute(rules: dict, published, meeting=None) -> dict:
    pub = parse_date(published, N_("The publication date (published)"))
    w = window(rules, pub)
    low, high = parameter(rules, "hearing-minimum-days", on=pub), parameter(rules, "hearing-maximum-days", on=pub)
    ex = Explanation()
    ex.add(_("Published {published}: the meeting must be no fewer than {low}{low_since} and no more than "
             "{high}{high_since} days later, from {earliest} to {latest}.").format(
                 published=long(pub), low=low, low_since=since(rules, "hearing-minimum-days", pub),
                 high=high, high_since=since(rules, "hearing-maximum-days", pub),
                 earliest=long(dt.date.fromisoformat(w["earliest"])), latest=long(dt.date.fromisoformat(w["latest"]))),
           "rate-schedules.B", **w)
    out = {"command": "hearing", "published": pub.isoformat(), **w}
    if meeting is not None and str(meeting).strip() != "":
        meet = parse_date(meeting, N_("The meeting date (meeting)"))
        days = (meet - pub).days
        valid = w["earliest"] <= meet.isoformat() <= w["latest"]
        ex.add((_("A meeting on {meeting} is {days} days after publication: within the window.") if valid else
                _("A meeting on {meeting} is {days} days after publication: outside the window; choose a date "
                  "within it.")).format(meeting=long(meet), days=days),
               "rate-schedules.B", days_after_publication=days, valid=valid)
        out.update(meeting=meet.isoformat(), days_after_publication=days, valid=valid)
    out["explanation"] = ex.steps
    return out
