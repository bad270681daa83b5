"""The words of the rate-schedule year's notices: the newspaper notice of the
public-comment meeting (rate-schedules.B) and the yearly notice to users
(rate-schedules.D), as text and as an HTML fragment.

In the engine (standard library only), so the Clerk's desk in the browser and the
Clerk's commands (kit/clerk.py) and the site's notice pages (kit/pages.py) make one
text. A notice names the site's address (mkdocs.yml `site_url`): a newspaper reader
cannot follow a relative link, so a notice without it is refused.
"""
from __future__ import annotations

import datetime as dt
from decimal import Decimal
from html import escape

from . import bill, money, schedule
from .dates import due_date, first_quarter_from, long, month_days, quarter_name, quarter_period
from .errors import InputError
from .law import citation, history_words
from .rules import interpretation, parameter


def find_schedule(rules: dict, schedule_id: str) -> dict:
    for s in rules["schedules"]:
        if s["id"] == schedule_id:
            return s
    known = ", ".join(s["id"] for s in rules["schedules"]) or "none"
    raise InputError(f"There is no rate schedule {schedule_id!r} in rules/rate-schedules/ (there are: {known}). "
                     f"Give one of those ids, or run `propose` first.", "schedule")


def without(rules: dict, schedule_id: str) -> dict:
    """The rules as if this schedule did not exist: what would be in force without it."""
    return dict(rules, schedules=[s for s in rules["schedules"] if s["id"] != schedule_id])


def site_address(site_url: str | None) -> str:
    """The site's address as a notice prints it, ending in "/"; refused when it is not set."""
    url = (site_url or "").strip()
    if not url.startswith(("https://", "http://")):
        raise InputError("The site's address is not set, so a notice cannot say where the schedule can be read. "
                         "Set site_url in mkdocs.yml to the site's address, like https://sewer.pawling.example/, "
                         "then build the site again." if not url else
                         f"The site's address {url!r} (site_url in mkdocs.yml) is not a web address. "
                         f"Write it like https://sewer.pawling.example/.", "site-url")
    return url.rstrip("/") + "/"


def schedule_address(site_url: str | None, schedule_id: str) -> str:
    """Where a schedule can be read on the site: <site_url>rates/<id>/."""
    return f"{site_address(site_url)}rates/{schedule_id}/"


# ---- what both notices state ----------------------------------------------------------------------

def _day(value: str) -> str:
    day = dt.date.fromisoformat(value)
    return f"{day.strftime('%A')}, {long(day)}"


def clock(hhmm: str) -> str:
    """19:00 -> 7:00 p.m. (as a newspaper notice writes it)."""
    hour, minute = (int(x) for x in hhmm.split(":"))
    if (hour, minute) == (12, 0):
        return "12:00 noon"
    if (hour, minute) == (0, 0):
        return "12:00 midnight"
    return f"{(hour - 1) % 12 + 1}:{minute:02d} {'a.m.' if hour < 12 else 'p.m.'}"


def _first_day(quarter: str) -> dt.date:
    year, q = quarter.split("-Q")
    return quarter_period(int(year), int(q))[0]


def _rates(rules: dict, s: dict, quarter: str, current: bool) -> dict:
    """Rate, fraction and minimum charge of a schedule, the minimum from bill.compute."""
    usage = {"water-gallons": parameter(rules, "minimum-charge-water-gallons", on=_first_day(quarter))}
    if current:
        result = bill.compute(rules, quarter, usage)
    else:
        result = bill.compute(rules, quarter, usage, vc_per_1000=s["vc_per_1000_gallons"],
                              sewage_fraction=s["sewage_fraction"])
    return {"id": s["id"], "title": s["title"], "status": s["status"], "label": schedule.LABELS[s["status"]],
            "effective": long(dt.date.fromisoformat(s["effective"])),
            "vc": money.dollars(Decimal(s["vc_per_1000_gallons"])),
            "fraction": money.percent(Decimal(s["sewage_fraction"])),
            "minimum": money.dollars(Decimal(result["minimum_charge"]))}


def current_and_proposed(rules: dict, s: dict) -> tuple[dict, dict, str]:
    """This schedule beside the one that would be in force without it, for the first quarter it applies to."""
    others = without(rules, s["id"])
    year, q = first_quarter_from(dt.date.fromisoformat(s["effective"]))
    quarter = quarter_name(year, q)
    current = schedule.in_force(others, quarter_period(year, q)[0])
    return _rates(others, current, quarter, True), _rates(others, s, quarter, False), quarter


# ---- the newspaper notice (rate-schedules.B) ------------------------------------------------------------

def hearing_notice_text(rules: dict, schedule_id: str, site_url: str | None) -> str:
    """The newspaper notice of the meeting on a proposed schedule, as plain text; its first
    paragraph is the PDF's heading."""
    s = find_schedule(rules, schedule_id)
    if "notice" not in s:
        raise InputError(f"Schedule {schedule_id!r} has no notice recorded; run `notice {schedule_id} …` first.",
                         "schedule")
    where = schedule_address(site_url, s["id"])
    n = s["notice"]
    current, proposed, quarter = current_and_proposed(rules, s)
    cite = lambda ident: citation(rules, ident)  # noqa: E731
    commission = n.get("body", "town-board") == "joint-sewer-commission"
    hearer = ("the Pawling Joint Sewer Commission, as designated by the Town Board of the Town of Pawling,"
              if commission else "the Town Board of the Town of Pawling")
    fiscal = f"for fiscal year {s['fiscal_year']} " if s.get("fiscal_year") else ""
    history = history_words(rules)
    low = parameter(rules, "hearing-minimum-days", on=n["published"])
    high = parameter(rules, "hearing-maximum-days", on=n["published"])
    minimum_gallons = money.gallons(Decimal(parameter(rules, "minimum-charge-water-gallons", on=_first_day(quarter))))
    lines = [
        "TOWN OF PAWLING, DUTCHESS COUNTY, NEW YORK",
        "NOTICE OF PUBLIC MEETING ON A PROPOSED SEWER RATE SCHEDULE",
        "",
        f"PLEASE TAKE NOTICE that {hearer} will hold a meeting to hear public comments on the proposed sewer rate "
        f"schedule {fiscal}on {_day(n['meeting'])}, at {clock(n['time'])}, at {n['place']}.",
        "",
        f"Purpose: the Town's sewer-use law{f' ({history})' if history else ''} provides that each proposed rate "
        f"schedule is published in {n.get('newspaper') or 'the official newspaper of the Town of Pawling'} with a "
        f"time and place for public comments, held no fewer than {low} and no more than {high} days after "
        f"publication, before the Town Board may adopt it by majority vote ({cite('rate-schedules.B')}; "
        f"{cite('rate-schedules.C')}).",
        "",
        "The proposed rate schedule, to take effect on " + proposed["effective"] + ", and the schedule now in force:",
        f"- Rate (VC), per 1,000 gallons of sewage: proposed {proposed['vc']}; now {current['vc']}.",
        f"- Share of metered water use billed as sewage, for properties without a sewage meter: proposed "
        f"{proposed['fraction']}; now {current['fraction']}.",
        f"- Minimum charge each quarter, the charge for {minimum_gallons} gallons of water use: proposed "
        f"{proposed['minimum']}; now {current['minimum']}.",
    ]
    basis = s.get("basis")
    if basis:
        extra = Decimal(basis.get("extraneous_flow_cost", "0"))
        om = money.dollars(Decimal(basis["om_cost"]))
        if extra and interpretation(rules, "extraneous-flow") == "added-to-om":
            om += f", plus {money.dollars(extra)} for treating extraneous flow,"
        elif extra:
            om += (f" (of which {money.dollars(extra)} was for treating extraneous flow, borne by users in "
                   f"proportion to their volume),")
        lines.append(f"- How the rate was set: the operation and maintenance cost of {om} divided by the users' "
                     f"sewage volume of {money.gallons(Decimal(basis['user_volume_gallons']))} gallons, per 1,000 "
                     f"gallons ({cite('rents.D')}{'; ' + cite('rents.E') if extra else ''}).")
    lines.append(f"- Each user's quarterly charge is the rate times the user's sewage volume (CU = VC x VU, "
                 f"{cite('rents.B')}), and not less than the minimum charge.")
    if current["status"] != "adopted":
        lines += ["", f"{current['label']} The figures shown as \"now\" come from the schedule \"{current['title']}\"."]
    lines += [
        "",
        f"The proposed rate schedule may be read at the office of the Town Clerk during regular business hours, "
        f"and on the Town's sewer website at {where}.",
        "",
        "All interested persons will be given an opportunity to be heard at the meeting.",
        "",
        "By order of " + ("the Pawling Joint Sewer Commission" if commission else "the Town Board of the Town of Pawling"),
        "Town Clerk",
        f"Dated and published: {_day(n['published'])}",
    ]
    return "\n".join(lines) + "\n"


def hearing_notice_title(schedule_id: str) -> str:
    return f"Notice of public meeting on the proposed sewer rate schedule {schedule_id} – Town of Pawling"


# ---- the yearly notice to users (rate-schedules.D; 40 CFR 35.929) -------------------------------------

def user_notice_title(s: dict) -> str:
    return (("ILLUSTRATIVE – " if s["status"] == "illustrative" else "")
            + f"Annual notice of sewer rates, schedule {s['id']} – Town of Pawling")


def _user_facts(rules: dict, s: dict) -> dict:
    year, q = first_quarter_from(dt.date.fromisoformat(s["effective"]))
    start = quarter_period(year, q)[0]
    due_day = due_date(rules, year, q)  # the law as it stands for the schedule's first quarter
    rate, grace = money.percent(parameter(rules, "late-penalty-rate", on=due_day)), parameter(
        rules, "late-penalty-grace-days", on=due_day)
    months, reading = parameter(rules, "late-penalty-period-months", on=due_day), interpretation(rules, "penalty-accrual")
    if reading == "simple":
        further = (f", and a further {rate} of the same charge for each further {months} months it stays unpaid; "
                   f"penalties are not charged on penalties")
    elif reading == "compound":
        further = f", and a further {rate} of the charge plus penalties already added for each further {months} months it stays unpaid"
    else:
        further = ", once"
    adoption = s.get("adoption")
    adopted = None
    if adoption:
        adopted = f"It was adopted by the Town Board on {long(dt.date.fromisoformat(adoption['date']))}" + (
            f" (resolution {adoption['resolution']})" if adoption.get("resolution") else "") + "."
    return {"rates": _rates(rules, s, quarter_name(year, q), False),
            "ends": f" to {long(dt.date.fromisoformat(s['ends']))}" if "ends" in s else "",
            "adopted": adopted, "due_dates": month_days(parameter(rules, "bill-due-dates", on=start)),
            "minimum_gallons": money.gallons(Decimal(parameter(rules, "minimum-charge-water-gallons", on=start))),
            "late": f"A bill still unpaid {grace} days after its due date has a penalty of {rate} of the unpaid charge{further}"}


def user_notice(rules: dict, schedule_id: str, site_url: str | None) -> dict:
    """The yearly notice to every user, as {"text": …, "html": …} (HTML is a fragment for a page)."""
    s = find_schedule(rules, schedule_id)
    if s["status"] == "proposed":
        raise InputError(f"Schedule {schedule_id!r} is only proposed; users are told the adopted schedule. "
                         f"Run `adopt {schedule_id} …` first, or give an adopted schedule's id.", "schedule")
    where = schedule_address(site_url, s["id"])
    f = _user_facts(rules, s)
    r = f["rates"]
    cite = lambda ident: citation(rules, ident)  # noqa: E731
    intro = (f"Once a year, with a regular bill, the Town tells every user the rate schedule ({cite('rate-schedules.D')}). "
             f"This notice is for the rate schedule \"{s['title']}\", in force from {r['effective']}{f['ends']}.")
    items = [  # (term, text) in the order the notice gives them
        ("Rate (VC)", f"{r['vc']} per 1,000 gallons of sewage ({cite('rents.D')})."),
        ("Your sewage volume", f"If your property has no approved sewage meter, {r['fraction']} of your metered water "
                               f"use; with one, the sewage it measures ({cite('rents.C.1')})."),
        ("Your quarterly charge", f"The rate times your sewage volume, per 1,000 gallons ({{formula}}, {cite('rents.B')})."),
        ("Minimum charge", f"{r['minimum']} each quarter, the charge for {f['minimum_gallons']} gallons of water use "
                           f"({cite('minimum-charge')})."),
        ("Due dates", f"Bills are sent quarterly, in advance, and are due on {f['due_dates']} ({cite('rents.F')}; "
                      f"{cite('rents.H')})."),
        ("Late payment", f"{f['late']} ({cite('rents.F')}). Unpaid charges are a lien on the property ({cite('rents.G')})."),
        ("Part of your charge that pays for operation and maintenance",
         f"100%. Under this law the whole charge is the operation and maintenance charge, {{formula}}, with no other "
         f"part ({cite('rents.B')}; {cite('rents.D')}). Federal rules for sewer user charges (40 CFR 35.929) ask "
         f"that users be told this."),
    ]
    illustrative = s["status"] == "illustrative"

    text = []
    if illustrative:
        text += ["*** ILLUSTRATIVE - NOT THE TOWN'S RATE. Invented numbers to show the notice; do not send. ***", ""]
    text += ["TOWN OF PAWLING SEWER DISTRICTS", "ANNUAL NOTICE OF SEWER RATES", "", intro]
    if f["adopted"]:
        text.append(f["adopted"])
    text.append("")
    for term, words in items:
        plain = words.replace("{formula}", "CU = VC x VU")
        text.append(f"- {term}: {plain[0].lower() + plain[1:]}")
    text += ["", f"The rate schedule can be read at the office of the Town Clerk and on the Town's sewer website at {where}."]

    e = escape
    anchor = f"user-notice-{e(s['id'])}"
    html = [f'<section class="user-notice" lang="en" aria-labelledby="{anchor}">']
    if illustrative:
        html.append('  <p class="user-notice__illustrative" role="note"><strong>ILLUSTRATIVE — not the Town\'s '
                    'rate.</strong> Invented numbers to show the notice; do not send.</p>')
    html += [f'  <h2 id="{anchor}">Annual notice of sewer rates</h2>',
             f"  <p>Once a year, with a regular bill, the Town tells every user the rate schedule "
             f"({e(cite('rate-schedules.D'))}). This notice is for the rate schedule “{e(s['title'])}”, in force from "
             f"{e(r['effective'])}{e(f['ends'])}." + (" " + e(f["adopted"]) if f["adopted"] else "") + "</p>", "  <dl>"]
    for term, words in items:
        html += [f"    <dt>{e(term)}</dt>",
                 "    <dd>" + e(words).replace("{formula}", '<span class="formula">CU = VC × VU</span>') + "</dd>"]
    html += ["  </dl>",
             f'  <p>The rate schedule can be read at the office of the Town Clerk and on the Town\'s sewer website '
             f'at <a href="{e(where)}">{e(where)}</a>.</p>', "</section>"]
    return {"text": "\n".join(text) + "\n", "html": "\n".join(html) + "\n"}
