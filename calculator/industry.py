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
from .i18n import N_, _
from .law import first_year
from .rules import interpretation, parameter

NEEDED = {  # the facts still needed, each translated where it is used
    "system-gallons-per-day": N_("the flow carried by the municipal system receiving the waste, in gallons per day "
                                 "(the Sewer Inspector can tell you)"),
    "average-daily-gallons": N_("the industry's average daily flow over all days of the year, in gallons"),
    "toxic-pollutant": N_("whether the waste has a toxic pollutant in toxic amounts under Section 307(a) standards "
                          "(yes or no)"),
    "significant-impact": N_("whether the industry has a significant impact on the treatment works or the quality "
                             "of its effluent (yes or no)"),
}

# E.3 and E.4 as the explanation states each answer (True: yes, False: no, None: not answered)
ANSWERED = {
    "pretreatment.E.3": {
        True: N_("Toxic pollutant in toxic amounts (standards under Section 307(a) of the FWPCA): yes."),
        False: N_("Toxic pollutant in toxic amounts (standards under Section 307(a) of the FWPCA): no."),
        None: N_("Toxic pollutant in toxic amounts (standards under Section 307(a) of the FWPCA): not answered, "
                 "so not decided."),
    },
    "pretreatment.E.4": {
        True: N_("Significant impact on the treatment works or its effluent: yes."),
        False: N_("Significant impact on the treatment works or its effluent: no."),
        None: N_("Significant impact on the treatment works or its effluent: not answered, so not decided."),
    },
}


def _flag(value):
    """True, False or None (not answered) from a flag, or from yes/no words."""
    if value is None or isinstance(value, bool):
        return value
    word = str(value).strip().lower()
    if word in ("", "unknown"):
        return None
    if word in ("yes", "true", "sí", "si"):
        return True
    if word in ("no", "false"):
        return False
    raise InputError(_("Answer yes or no, not {value}.").format(value=repr(value)))


def compute(rules: dict, average_workday_gallons, system_gallons_per_day=None,
            toxic_pollutant=None, significant_impact=None, year: int | None = None,
            average_daily_gallons=None) -> dict:
    flow = parse_amount(average_workday_gallons, _("The industry's flow per average workday in gallons"), "42000",
                        "average-workday-gallons")
    system = None
    if system_gallons_per_day is not None and str(system_gallons_per_day).strip() != "":
        system = parse_amount(system_gallons_per_day, _("The system's flow in gallons per day"), "600000",
                              "system-gallons-per-day")
        if system == 0:
            raise InputError(_("The system's flow in gallons per day must be more than 0, like 600000."),
                             "system-gallons-per-day")
    daily = None
    if average_daily_gallons is not None and str(average_daily_gallons).strip() != "":
        daily = parse_amount(average_daily_gallons, _("The industry's average daily flow in gallons"), "30000",
                             "average-daily-gallons")
    toxic, impact = _flag(toxic_pollutant), _flag(significant_impact)
    if year is None:
        year = dt.date.today().year
    try:
        year = int(str(year).strip())
    except ValueError:
        raise InputError(_("The year must be a whole number, like 2027. You entered {value}.").format(
            value=repr(year)), "year") from None
    if not first_year(rules) <= year <= 2200:  # 2200: no one plans that far; a typo, not a year
        raise InputError(_("The year {year} is out of range; enter a year like 2027.").format(year=year), "year")

    on = dt.date(year, 1, 1)  # the law as it stands at the start of the year asked about
    ex = Explanation()
    met, undecided, needed = [], [], []
    threshold = parameter(rules, "major-industry-workday-gallons", on=on)
    if flow >= threshold:
        met.append("pretreatment.E.1")
        text = _("Flow of {flow} gallons per average workday is {threshold} gallons or more{since}.")
    else:
        text = _("Flow of {flow} gallons per average workday is not {threshold} gallons or more{since}.")
    ex.add(text.format(flow=money.gallons(flow), threshold=money.gallons(threshold),
                       since=since(rules, 'major-industry-workday-gallons', on)),
           "pretreatment.E.1", average_workday_gallons=flow, met=flow >= threshold)

    share = parameter(rules, "major-industry-system-flow-share", on=on)
    reading = interpretation(rules, "industry-flow-share")
    workday = reading == "workday-vs-system-day"
    compared = flow if workday else daily
    if system is None or compared is None:
        missing = [k for k, v in (("system-gallons-per-day", system), ("average-daily-gallons", compared)) if v is None]
        undecided.append("pretreatment.E.2")
        needed.extend(_(NEEDED[k]) for k in missing)
        if len(missing) == 1:
            text = _("The {share} test was not applied: it needs {fact}.").format(
                share=money.percent(share), fact=_(NEEDED[missing[0]]))
        else:
            text = _("The {share} test was not applied: it needs {fact} and {other_fact}.").format(
                share=money.percent(share), fact=_(NEEDED[missing[0]]), other_fact=_(NEEDED[missing[1]]))
        ex.add(text, "pretreatment.E.2", interpretation="industry-flow-share", met=None)
    else:
        over = compared > share * system
        if over:
            met.append("pretreatment.E.2")
        pct = compared / system * 100
        if workday:
            text = (_("{compared} gallons per average workday against the system's {system} gallons a day is "
                      "{pct}%, which is greater than {share}.") if over else
                    _("{compared} gallons per average workday against the system's {system} gallons a day is "
                      "{pct}%, which is not greater than {share}."))
        else:
            text = (_("{compared} gallons on an average day against the system's {system} gallons a day is "
                      "{pct}%, which is greater than {share}.") if over else
                    _("{compared} gallons on an average day against the system's {system} gallons a day is "
                      "{pct}%, which is not greater than {share}."))
        ex.add(text.format(compared=money.gallons(compared), system=money.gallons(system), pct=f"{pct:.2f}",
                           share=money.percent(share)),
               "pretreatment.E.2", interpretation="industry-flow-share", share_percent=money.text(pct), met=over)

    for cite, answer, key in (("pretreatment.E.3", toxic, "toxic-pollutant"),
                              ("pretreatment.E.4", impact, "significant-impact")):
        if answer:
            met.append(cite)
        elif answer is None:
            undecided.append(cite)
            needed.append(_(NEEDED[key]))
        ex.add(_(ANSWERED[cite][answer]), cite, met=answer)

    determination = "major" if met else ("not-determined" if undecided else "not-major")
    due = [month_day(year, md) for md in parameter(rules, "industry-report-due-dates", on=on)] if met else []
    if determination == "major":
        ex.add(_("This is a major contributing industry: it must report under Section 307 on {dates}, unless the "
                 "Sewer Inspector prescribes otherwise.").format(dates=", ".join(long(d) for d in due)),
               "pretreatment.E", report_due=[d.isoformat() for d in due])
    elif determination == "not-determined":
        ex.add(_("Not determined: none of the criteria decided so far is met, but {criteria} could not be decided. "
                 "Still needed: {facts}.").format(
                     criteria=", ".join(c.removeprefix("pretreatment.") for c in undecided), facts="; ".join(needed)),
               "pretreatment.E", criteria_not_determined=undecided)
    else:
        ex.add(_("None of the four criteria is met: this is not a major contributing industry, and the Section 307 "
                 "reports are not required of it (the other industrial-waste rules still apply)."), "pretreatment.E")
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
