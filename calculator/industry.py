"""Major contributing industries (pretreatment.E) and their report due dates.

Three answers: major (a criterion is met), not major (all four were decided and none
is met), or not determined (none met so far, but a criterion could not be decided:
the facts still needed are named). Which flow the 5% test compares is a recorded
reading: rules/interpretations/industry-flow-share.yaml."""
from __future__ import annotations

import datetime as dt

from . import money
from .bill import parse_amount
from .dates import long, month_day
from .errors import InputError
from .explain import Explanation, since
from .law import first_year
from .rules import interpretation, parameter

NEEDED = {
    "system-gallons-per-day": "the flow carried by the municipal system receiving the waste, in gallons per day "
                              "(the Sewer Inspector can tell you)",
    "average-daily-gallons": "the industry's average daily flow over all days of the year, in gallons",
    "toxic-pollutant": "whether the waste has a toxic pollutant in toxic amounts under Section 307(a) standards "
                       "(yes or no)",
    "significant-impact": "whether the industry has a significant impact on the treatment works or the quality of "
                          "its effluent (yes or no)",
}


def _flag(value):
    """True, False or None (not answered) from a flag, or from yes/no words."""
    if value is None or isinstance(value, bool):
        return value
    word = str(value).strip().lower()
    if word in ("", "unknown"):
        return None
    if word in ("yes", "true"):
        return True
    if word in ("no", "false"):
        return False
    raise InputError(f"Answer yes or no, not {value!r}.")


def compute(rules: dict, average_workday_gallons, system_gallons_per_day=None,
            toxic_pollutant=None, significant_impact=None, year: int | None = None,
            average_daily_gallons=None) -> dict:
    flow = parse_amount(average_workday_gallons, "The industry's flow per average workday in gallons", "42000",
                        "average-workday-gallons")
    system = None
    if system_gallons_per_day is not None and str(system_gallons_per_day).strip() != "":
        system = parse_amount(system_gallons_per_day, "The system's flow in gallons per day", "600000",
                              "system-gallons-per-day")
        if system == 0:
            raise InputError("The system's flow in gallons per day must be more than 0, like 600000.",
                             "system-gallons-per-day")
    daily = None
    if average_daily_gallons is not None and str(average_daily_gallons).strip() != "":
        daily = parse_amount(average_daily_gallons, "The industry's average daily flow in gallons", "30000",
                             "average-daily-gallons")
    toxic, impact = _flag(toxic_pollutant), _flag(significant_impact)
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
    met, undecided, needed = [], [], []
    threshold = parameter(rules, "major-industry-workday-gallons", on=on)
    if flow >= threshold:
        met.append("pretreatment.E.1")
    ex.add(f"Flow of {money.gallons(flow)} gallons per average workday "
           + ("is" if flow >= threshold else "is not") + f" {money.gallons(threshold)} gallons or more"
           f"{since(rules, 'major-industry-workday-gallons', on)}.",
           "pretreatment.E.1", average_workday_gallons=flow, met=flow >= threshold)

    share = parameter(rules, "major-industry-system-flow-share", on=on)
    reading = interpretation(rules, "industry-flow-share")
    compared, what = (flow, "per average workday") if reading == "workday-vs-system-day" else (daily, "on an average day")
    if system is None or compared is None:
        missing = [k for k, v in (("system-gallons-per-day", system), ("average-daily-gallons", compared)) if v is None]
        undecided.append("pretreatment.E.2")
        needed.extend(NEEDED[k] for k in missing)
        ex.add(f"The {money.percent(share)} test was not applied: it needs " + " and ".join(NEEDED[k] for k in missing)
               + ".", "pretreatment.E.2", interpretation="industry-flow-share", met=None)
    else:
        over = compared > share * system
        if over:
            met.append("pretreatment.E.2")
        pct = compared / system * 100
        ex.add(f"{money.gallons(compared)} gallons {what} against the system's {money.gallons(system)} gallons a day "
               f"is {pct:.2f}%, which " + ("is" if over else "is not") + f" greater than {money.percent(share)}.",
               "pretreatment.E.2", interpretation="industry-flow-share", share_percent=money.text(pct), met=over)

    for cite, answer, key, words in (("pretreatment.E.3", toxic, "toxic-pollutant",
                                      "Toxic pollutant in toxic amounts (standards under Section 307(a) of the FWPCA)"),
                                     ("pretreatment.E.4", impact, "significant-impact",
                                      "Significant impact on the treatment works or its effluent")):
        if answer:
            met.append(cite)
        elif answer is None:
            undecided.append(cite)
            needed.append(NEEDED[key])
        ex.add(f"{words}: " + {True: "yes.", False: "no.", None: "not answered, so not decided."}[answer], cite,
               met=answer)

    determination = "major" if met else ("not-determined" if undecided else "not-major")
    due = [month_day(year, md) for md in parameter(rules, "industry-report-due-dates", on=on)] if met else []
    if determination == "major":
        ex.add("This is a major contributing industry: it must report under Section 307 on "
               + ", ".join(long(d) for d in due) + ", unless the Sewer Inspector prescribes otherwise.",
               "pretreatment.E", report_due=[d.isoformat() for d in due])
    elif determination == "not-determined":
        ex.add("Not determined: none of the criteria decided so far is met, but "
               + ", ".join(c.removeprefix("pretreatment.") for c in undecided)
               + " could not be decided. Still needed: " + "; ".join(needed) + ".", "pretreatment.E",
               criteria_not_determined=undecided)
    else:
        ex.add("None of the four criteria is met: this is not a major contributing industry, and the Section 307 "
               "reports are not required of it (the other industrial-waste rules still apply).", "pretreatment.E")
    return {
        "command": "industry",
        "year": year,
        "determination": determination,
        "major_contributing_industry": {"major": True, "not-major": False}.get(determination),
        "criteria_met": met,
        "criteria_not_determined": undecided,
        "facts_needed": needed,
        "report_due": [d.isoformat() for d in due],
        "explanation": ex.steps,
    }
