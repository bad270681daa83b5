"""Major contributing industries (pretreatment.E) and their report due dates."""
from __future__ import annotations

import datetime as dt

from . import money
from .bill import parse_amount
from .dates import long, month_day
from .errors import InputError
from .explain import Explanation, since
from .law import first_year
from .rules import parameter


def compute(rules: dict, average_workday_gallons, system_gallons_per_day=None,
            toxic_pollutant: bool = False, significant_impact: bool = False, year: int | None = None) -> dict:
    flow = parse_amount(average_workday_gallons, "The industry's flow per average workday in gallons", "42000",
                        "average-workday-gallons")
    system = None
    if system_gallons_per_day is not None and str(system_gallons_per_day).strip() != "":
        system = parse_amount(system_gallons_per_day, "The system's flow in gallons per day", "600000",
                              "system-gallons-per-day")
        if system == 0:
            raise InputError("The system's flow in gallons per day must be more than 0, like 600000.",
                             "system-gallons-per-day")
    if year is None:
        year = dt.date.today().year
    try:
        year = int(str(year).strip())
    except ValueError:
        raise InputError(f"The year must be a whole number, like 2027. You entered {year!r}.", "year") from None
    if not first_year(rules) <= year <= 2200:  # 2200: no one plans that far; a typo, not a year
        raise InputError(f"The year {year} is out of range; enter a year like 2027.", "year")

    on = dt.date(year, 1, 1)  # the law as it stands at the start of the year asked about
    ex = Explanation()
    met = []
    threshold = parameter(rules, "major-industry-workday-gallons", on=on)
    if flow >= threshold:
        met.append("pretreatment.E.1")
    ex.add(f"Flow of {money.gallons(flow)} gallons per average workday "
           + ("is" if flow >= threshold else "is not") + f" {money.gallons(threshold)} gallons or more"
           f"{since(rules, 'major-industry-workday-gallons', on)}.",
           "pretreatment.E.1", average_workday_gallons=flow, met=flow >= threshold)
    share = parameter(rules, "major-industry-system-flow-share", on=on)
    if system is None:
        ex.add(f"The system's flow was not given, so the {money.percent(share)} test was not applied.", "pretreatment.E.2",
               met=False)
    else:
        over = flow > share * system
        if over:
            met.append("pretreatment.E.2")
        pct = flow / system * 100
        ex.add(f"{money.gallons(flow)} of the system's {money.gallons(system)} gallons a day is {pct:.2f}%, which "
               + ("is" if over else "is not") + f" greater than {money.percent(share)}.", "pretreatment.E.2",
               share_percent=money.text(pct), met=over)
    if toxic_pollutant:
        met.append("pretreatment.E.3")
    ex.add("Toxic pollutant in toxic amounts (standards under Section 307(a) of the FWPCA): "
           + ("yes." if toxic_pollutant else "not reported."), "pretreatment.E.3", met=bool(toxic_pollutant))
    if significant_impact:
        met.append("pretreatment.E.4")
    ex.add("Significant impact on the treatment works or its effluent: "
           + ("yes." if significant_impact else "not reported."), "pretreatment.E.4", met=bool(significant_impact))
    major = bool(met)
    due = [month_day(year, md) for md in parameter(rules, "industry-report-due-dates", on=on)] if major else []
    if major:
        ex.add("This is a major contributing industry: it must report under Section 307 on "
               + ", ".join(long(d) for d in due) + ", unless the Sewer Inspector prescribes otherwise.",
               "pretreatment.E", report_due=[d.isoformat() for d in due])
    else:
        ex.add("None of the four criteria is met: this is not a major contributing industry, and the Section 307 "
               "reports are not required of it (the other industrial-waste rules still apply).", "pretreatment.E")
    return {
        "command": "industry",
        "year": year,
        "major_contributing_industry": major,
        "criteria_met": met,
        "report_due": [d.isoformat() for d in due],
        "explanation": ex.steps,
    }
