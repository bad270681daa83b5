"""The window for the public-comment meeting on a proposed rate schedule (rate-schedules.B)."""
from __future__ import annotations

import datetime as dt

from .dates import long, parse_date
from .explain import Explanation, since
from .rules import parameter


def window(rules: dict, published) -> dict:
    day = published if isinstance(published, dt.date) else parse_date(published, "The publication date (published)")
    low, high = parameter(rules, "hearing-minimum-days", on=day), parameter(rules, "hearing-maximum-days", on=day)
    return {"earliest": (day + dt.timedelta(days=low)).isoformat(),
            "latest": (day + dt.timedelta(days=high)).isoformat()}


def compute(rules: dict, published, meeting=None) -> dict:
    pub = parse_date(published, "The publication date (published)")
    w = window(rules, pub)
    low, high = parameter(rules, "hearing-minimum-days", on=pub), parameter(rules, "hearing-maximum-days", on=pub)
    ex = Explanation()
    ex.add(f"Published {long(pub)}: the meeting must be no fewer than {low}{since(rules, 'hearing-minimum-days', pub)} "
           f"and no more than {high}{since(rules, 'hearing-maximum-days', pub)} days later, "
           f"from {long(dt.date.fromisoformat(w['earliest']))} to {long(dt.date.fromisoformat(w['latest']))}.",
           "rate-schedules.B", **w)
    out = {"command": "hearing", "published": pub.isoformat(), **w}
    if meeting is not None and str(meeting).strip() != "":
        meet = parse_date(meeting, "The meeting date (meeting)")
        days = (meet - pub).days
        valid = w["earliest"] <= meet.isoformat() <= w["latest"]
        ex.add(f"A meeting on {long(meet)} is {days} days after publication: "
               + ("within the window." if valid else "outside the window; choose a date within it."),
               "rate-schedules.B", days_after_publication=days, valid=valid)
        out.update(meeting=meet.isoformat(), days_after_publication=days, valid=valid)
    out["explanation"] = ex.steps
    return out
