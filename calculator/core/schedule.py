"""Which rate schedule applies: the one in force, and any one proposed."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from .dates import first_quarter_from, month_day, quarter_period
from .errors import InputError
from .i18n import N_, _
from .rules import parameter

# what a schedule's status means, in words: translate with label(status) (or _(LABELS[status]))
LABELS = {
    "illustrative": N_("ILLUSTRATIVE — invented numbers, not a rate the Town has adopted."),
    "proposed": N_("PROPOSED — not yet adopted by the Town Board; it may change."),
    "adopted": N_("Adopted by the Town Board."),
}


def label(status: str) -> str:
    """A schedule status in words, in the current language."""
    return _(LABELS[status])


def starts(rules: dict, s: dict) -> str:
    """The first day a schedule applies: its effective date; or, for one adopted after that date,
    as rules/interpretations/late-adoption.yaml says (the rules check refuses such a schedule
    under "refuse"; under "first-quarter-after" it starts with the first quarter after adoption)."""
    adopted = s.get("adoption", {}).get("date")
    if (adopted and adopted > s["effective"]
            and rules.get("interpretations", {}).get("late-adoption", {}).get("chosen") == "first-quarter-after"):
        year, q = first_quarter_from(dt.date.fromisoformat(adopted) + dt.timedelta(days=1))
        return quarter_period(year, q)[0].isoformat()
    return s["effective"]


def _covers(rules: dict, s: dict, day: dt.date) -> bool:
    return starts(rules, s) <= day.isoformat() and ("ends" not in s or day.isoformat() <= s["ends"])


def in_force(rules: dict, day: dt.date) -> dict:
    """The adopted (or illustrative) schedule in force on a day. Proposed ones never are."""
    found = [s for s in rules["schedules"] if s["status"] != "proposed" and _covers(rules, s, day)]
    if not found:
        firsts = sorted(s["effective"] for s in rules["schedules"] if s["status"] != "proposed")
        if firsts:
            raise InputError(_("No rate schedule is in force on {day}. The earliest schedule takes effect on {first}. "
                               "Choose a later quarter.").format(day=day.isoformat(), first=firsts[0]))
        raise InputError(_("No rate schedule is in force on {day}. Choose a later quarter.").format(
            day=day.isoformat()))
    return max(found, key=lambda s: starts(rules, s))


def proposed(rules: dict, day: dt.date) -> dict | None:
    """A proposed schedule that would be in force on that day, if one is pending."""
    found = [s for s in rules["schedules"] if s["status"] == "proposed" and _covers(rules, s, day)]
    return max(found, key=lambda s: s["effective"]) if found else None


def summary(s: dict) -> dict:
    """A schedule as an answer states it: its id, title, status, dates and figures."""
    out = {
        "id": s["id"], "title": s["title"], "status": s["status"], "effective": s["effective"],
        "vc_per_1000_gallons": str(Decimal(s["vc_per_1000_gallons"])),
        "sewage_fraction": str(Decimal(s["sewage_fraction"])),
        "label": label(s["status"]),
    }
    if "ends" in s:
        out["ends"] = s["ends"]
    return out


def fiscal_year_of(rules: dict, day: dt.date) -> int:
    """The fiscal year a day falls in, named by the calendar year it begins in
    (rules/parameters/fiscal-year-start.yaml; NY Town Law § 101: January 1)."""
    start = month_day(day.year, parameter(rules, "fiscal-year-start", on=day)[0])
    return day.year if day >= start else day.year - 1


def schedule_fiscal_year(rules: dict, s: dict) -> int:
    """The fiscal year a schedule is for: as recorded (`fiscal_year`), or the one its effective date falls in."""
    return s["fiscal_year"] if "fiscal_year" in s else fiscal_year_of(rules, dt.date.fromisoformat(s["effective"]))


def for_fiscal_year(rules: dict, year: int) -> dict:
    """The schedules prepared for a fiscal year (rate-schedules.A: "Prior to the start of each fiscal
    year ... a rate schedule for the upcoming fiscal year"): the one in force (adopted or illustrative)
    and the one only proposed, each None when there is none."""
    own = [s for s in rules["schedules"] if schedule_fiscal_year(rules, s) == year]
    in_force = [s for s in own if s["status"] != "proposed"]
    proposed_ = [s for s in own if s["status"] == "proposed"]
    return {"year": year,
            "schedule": max(in_force, key=lambda s: s["effective"]) if in_force else None,
            "proposed": max(proposed_, key=lambda s: s["effective"]) if proposed_ else None}
