"""The notices of the rate-schedule year, as text and HTML: the newspaper notice of
the public-comment meeting (rate-schedules.B) and the yearly notice to users
(rate-schedules.D). Jinja2 templates in docs/templates/notices/; CPython only."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path

from calculator import bill, money, schedule
from calculator.dates import due_date, first_quarter_from, long, quarter_name, quarter_period
from calculator.errors import InputError
from calculator.law import citation, history_words
from calculator.rules import interpretation, parameter

from .wording import month_days

TEMPLATES_DIR = Path(__file__).resolve().parent.parent / "docs" / "templates" / "notices"


class ClerkError(InputError):
    """A refusal: one line saying what is wrong and what to change."""


def find_schedule(rules: dict, schedule_id: str) -> dict:
    for s in rules["schedules"]:
        if s["id"] == schedule_id:
            return s
    known = ", ".join(s["id"] for s in rules["schedules"]) or "none"
    raise ClerkError(f"There is no rate schedule {schedule_id!r} in rules/rate-schedules/ (there are: {known}). "
                     f"Give one of those ids, or run `propose` first.")


def without(rules: dict, schedule_id: str) -> dict:
    """The rules as if this schedule did not exist: what would be in force without it."""
    return dict(rules, schedules=[s for s in rules["schedules"] if s["id"] != schedule_id])


def _day(value: str) -> str:
    day = dt.date.fromisoformat(value)
    return f"{day.strftime('%A')}, {long(day)}"


def _clock(hhmm: str) -> str:
    """19:00 -> 7:00 p.m. (as a newspaper notice writes it)."""
    hour, minute = (int(x) for x in hhmm.split(":"))
    if (hour, minute) == (12, 0):
        return "12:00 noon"
    if (hour, minute) == (0, 0):
        return "12:00 midnight"
    return f"{(hour - 1) % 12 + 1}:{minute:02d} {'a.m.' if hour < 12 else 'p.m.'}"


def _rates(rules: dict, s: dict, quarter: str, current: bool) -> dict:
    """Rate, fraction and minimum charge of a schedule, the minimum from bill.compute."""
    usage = {"water-gallons": parameter(rules, "minimum-charge-water-gallons", on=_first_day(quarter))}
    if current:
        result = bill.compute(rules, quarter, usage)
    else:
        result = bill.compute(rules, quarter, usage, vc_per_1000=s["vc_per_1000_gallons"],
                              sewage_fraction=s["sewage_fraction"])
    vc_ = Decimal(s["vc_per_1000_gallons"])
    fraction = Decimal(s["sewage_fraction"])
    return {"id": s["id"], "title": s["title"], "status": s["status"], "label": schedule.LABELS[s["status"]],
            "effective": long(dt.date.fromisoformat(s["effective"])),
            "vc": money.dollars(vc_), "fraction": money.percent(fraction),
            "minimum": money.dollars(Decimal(result["minimum_charge"]))}


def _first_day(quarter: str) -> dt.date:
    year, q = quarter.split("-Q")
    return quarter_period(int(year), int(q))[0]


def current_and_proposed(rules: dict, s: dict) -> tuple[dict, dict, str]:
    """This schedule beside the one that would be in force without it, for the first quarter it applies to."""
    others = without(rules, s["id"])
    year, q = first_quarter_from(dt.date.fromisoformat(s["effective"]))
    quarter = quarter_name(year, q)
    current = schedule.in_force(others, quarter_period(year, q)[0])
    return _rates(others, current, quarter, True), _rates(others, s, quarter, False), quarter


def _environment(autoescape: bool):
    import jinja2
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES_DIR)), autoescape=autoescape,
                              undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                              keep_trailing_newline=True)


def hearing_notice_context(rules: dict, schedule_id: str) -> dict:
    s = find_schedule(rules, schedule_id)
    if "notice" not in s:
        raise ClerkError(f"Schedule {schedule_id!r} has no notice recorded; run `notice {schedule_id} …` first.")
    n = s["notice"]
    current, proposed, quarter = current_and_proposed(rules, s)
    basis = s.get("basis", {})
    extra = Decimal(basis.get("extraneous_flow_cost", "0"))
    return {
        "schedule": s, "current": current, "proposed": proposed, "first_quarter": quarter,
        "fiscal_year": s.get("fiscal_year"),
        "newspaper": n.get("newspaper"),
        "published": _day(n["published"]), "meeting": _day(n["meeting"]), "time": _clock(n["time"]),
        "place": n["place"], "body": n.get("body", "town-board"),
        "om_cost": money.dollars(Decimal(basis["om_cost"])) if basis else None,
        "extraneous_flow_cost": money.dollars(extra) if extra else None,
        "extraneous_added": interpretation(rules, "extraneous-flow") == "added-to-om",
        "user_volume_gallons": money.gallons(Decimal(basis["user_volume_gallons"])) if basis else None,
        "minimum_gallons": money.gallons(Decimal(parameter(rules, "minimum-charge-water-gallons",
                                                           on=_first_day(quarter)))),
        "window": {"low": parameter(rules, "hearing-minimum-days", on=n["published"]),
                   "high": parameter(rules, "hearing-maximum-days", on=n["published"])},
        "law_history": history_words(rules),
        "cite": lambda ident: citation(rules, ident),
    }


def hearing_notice_text(rules: dict, schedule_id: str) -> str:
    """The newspaper notice of the meeting on a proposed schedule (rate-schedules.B), as plain text."""
    return _environment(False).get_template("hearing-notice.txt.j2").render(hearing_notice_context(rules, schedule_id))


def user_notice_context(rules: dict, schedule_id: str) -> dict:
    s = find_schedule(rules, schedule_id)
    if s["status"] == "proposed":
        raise ClerkError(f"Schedule {schedule_id!r} is only proposed; users are told the adopted schedule. "
                         f"Run `adopt {schedule_id} …` first, or give an adopted schedule's id.")
    year, q = first_quarter_from(dt.date.fromisoformat(s["effective"]))
    rates = _rates(rules, s, quarter_name(year, q), False)
    # the law as it stands for the schedule's first quarter: its due dates, and the penalty on its due date
    start = quarter_period(year, q)[0]
    due_day = due_date(rules, year, q)
    return {
        "schedule": s, "rates": rates, "illustrative": s["status"] == "illustrative",
        "adoption": s.get("adoption"),
        "adopted_on": long(dt.date.fromisoformat(s["adoption"]["date"])) if "adoption" in s else None,
        "ends": long(dt.date.fromisoformat(s["ends"])) if "ends" in s else None,
        "due_dates": month_days(parameter(rules, "bill-due-dates", on=start)),
        "minimum_gallons": money.gallons(Decimal(parameter(rules, "minimum-charge-water-gallons", on=start))),
        "penalty": {"rate": money.percent(parameter(rules, "late-penalty-rate", on=due_day)),
                    "grace_days": parameter(rules, "late-penalty-grace-days", on=due_day),
                    "period_months": parameter(rules, "late-penalty-period-months", on=due_day),
                    "reading": interpretation(rules, "penalty-accrual")},
        "cite": lambda ident: citation(rules, ident),
    }


def user_notice(rules: dict, schedule_id: str) -> dict:
    """The yearly notice to every user (rate-schedules.D), as {"text": …, "html": …} (HTML is a fragment)."""
    context = user_notice_context(rules, schedule_id)
    return {"text": _environment(False).get_template("user-notice.txt.j2").render(context),
            "html": _environment(True).get_template("user-notice.html.j2").render(context)}


