"""The law's due dates as a calendar file (.ics): each quarterly bill and each
Section 307 report of a major contributing industry, for this year and the next four, each with a
reminder a week before (REMINDER_DAYS).

The dates already past on the build day stay in the file: it is the whole of five years, the same
file for every build of one commit in a year (calendar_stamp), and a site built in January is still
visited in November. A calendar does not ring a reminder whose day has passed."""
from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

from calculator.core.dates import due_date, month_day, quarter_period, quarter_words, water_quarter_words
from calculator.core.files import write_atomic
from calculator.core.i18n import N_, _, after_colon, lang  # the site speaks the kit's words too (kit.pages.render_language)
from calculator.core.explain import law_words, quote_words
from calculator.core.rules import entry, parameter

CALENDAR_FILE = "industry/sewer-due-dates.ics"
#: the Section 307 report dates alone, for an industry that wants only its own (the usability test public14,
#: Linda: the one file mixed five years of every bill with her reports)
REPORTS_FILE = "industry/section-307-report-dates.ics"
#: the years the file holds, from the build's: five, so that a file saved today still rings for years (the
#: usability test public12, L2: a file of two years went silent after the second, whatever year was asked about)
CALENDAR_YEARS = 5
REMINDER_DAYS = 7  # each event's reminder, this many days before it (the usability test: Linda, 9 days before hers)
PAGES = {"sewer-bill": "estimate/", "section-307-report": "industry/#report-dates"}  # where each kind is explained
#: each kind's category, in the calendar's language (a calendar shows it, as a tag or a colour's name)
CATEGORIES = {"sewer-bill": N_("Sewer bill"), "section-307-report": N_("Section 307 report")}


def calendar_years(today) -> tuple[int, ...]:
    """The years the calendar file holds: the build's year and the next ones, CALENDAR_YEARS in all."""
    return tuple(range(today.year, today.year + CALENDAR_YEARS))


def due_dates(rules: dict, years) -> list[dict]:
    """The dates the calendar file carries, from rules/parameters: each quarterly bill's
    due date (bill-due-dates) and each Section 307 report date of a major
    contributing industry (industry-report-due-dates), each with the words of the law in force then."""
    bills, reports = rules["parameters"]["bill-due-dates"], rules["parameters"]["industry-report-due-dates"]
    out = []
    for year in years:
        for q in range(1, len(parameter(rules, "bill-due-dates", on=dt.date(year, 1, 1))) + 1):
            quote = entry(rules, "bill-due-dates", on=quarter_period(year, q)[0])["quote"]
            # the bill named by the water it charges for, as the estimate names it (the usability test, Rosa:
            # "January–March 2027" was not the months on her bill); the quarter under the other reading
            water = water_quarter_words(rules, year, q)
            out.append({"date": due_date(rules, year, q), "kind": "sewer-bill", "cite": bills["cite"],
                        "quote": quote,
                        "title": _("Sewer bill due (water used {water})").format(water=water) if water else
                        _("Sewer bill due for {quarter}").format(quarter=quarter_words(year, q))})
        reports_then = entry(rules, "industry-report-due-dates", on=dt.date(year, 1, 1))
        for md in reports_then["value"]:
            out.append({"date": month_day(year, md), "kind": "section-307-report", "cite": reports["cite"],
                        "quote": reports_then["quote"],
                        "title": _("Section 307 report due (major contributing industries)")})
    return sorted(out, key=lambda d: (d["date"], d["kind"]))


def calendar_stamp(today):
    """DTSTAMP for the calendar: SOURCE_DATE_EPOCH when set, else midnight UTC on
    1 January of the build year, so two builds of one commit give the same file."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch:
        return dt.datetime.fromtimestamp(int(epoch), dt.timezone.utc)
    return dt.datetime(today.year, 1, 1, tzinfo=dt.timezone.utc)


def build_due_dates_calendar(rules: dict, docs: Path, today, site_url: str | None = None,
                             reports_only: bool = False) -> Path:
    """Step 2e: the due dates of this year and the next four as an iCalendar file (.ics), CALENDAR_FILE;
    with `reports_only`, the Section 307 report dates alone, REPORTS_FILE. With the site's
    address, each event links to the page that explains it (URL: a calendar has no relative links).
    Its words are in the current language (calculator.core.i18n.speaking; `site_url` is then that
    language's pages, …/es/); the law's quotations stay in English, its only official text."""
    from icalendar import Alarm, Calendar, Event
    cal = Calendar()
    cal.add("prodid", f"-//Town of Pawling sewer self-service kit//Sewer due dates//{lang().upper()}")
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("x-wr-calname", _("Town of Pawling Section 307 report dates") if reports_only
            else _("Town of Pawling sewer due dates"))
    stamp = calendar_stamp(today)
    for d in due_dates(rules, calendar_years(today)):
        if reports_only and d["kind"] != "section-307-report":
            continue
        event = Event()
        event.add("uid", f"{d['date'].isoformat()}-{d['kind']}@pawling-sewer-kit")
        event.add("dtstamp", stamp)
        event.add("dtstart", d["date"])
        event.add("dtend", d["date"] + dt.timedelta(days=1))
        event.add("summary", d["title"])
        description = _("Town of Pawling sewer-use law, {provision}: \"{quote}\"").format(
            provision=_provision(rules, d["cite"]), quote=d["quote"])
        after = quote_words(d["quote"])  # in another language: the site's unofficial translation
        # the translation on a line of its own, after the English quotation (spanish15 #12: they ran together)
        event.add("description", f"{description}\n{after}" if after else description)
        event.add("categories", [_(CATEGORIES[d["kind"]])])
        event.add("transp", "TRANSPARENT")
        if site_url:
            event.add("url", f"{site_url.rstrip('/')}/{PAGES[d['kind']]}", parameters={"VALUE": "URI"})
        alarm = Alarm()  # RFC 5545 3.6.6: a DISPLAY alarm has a TRIGGER and a DESCRIPTION
        alarm.add("action", "DISPLAY")
        alarm.add("trigger", dt.timedelta(days=-REMINDER_DAYS))
        # «En 7 días: vence la factura…»: a small letter after the colon in Spanish (spanish13, C-1)
        alarm.add("description", _("In {n} days: {title}").format(n=REMINDER_DAYS, title=after_colon(d["title"])))
        event.add_component(alarm)
        cal.add_component(event)
    target = docs / (REPORTS_FILE if reports_only else CALENDAR_FILE)
    target.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(target, cal.to_ical())
    return target


def _provision(rules: dict, cite: str) -> str:
    """A provision as the calendar's reader names it: its name and heading as the pages name it, in the
    calendar's language ("Sewer charges (the law's “sewer usage rent”), section F (Due dates and late
    penalty)"; the usability test: "Sewer rents F" was the law's heading, not the site's name; issue 33 in Spanish)."""
    words = law_words(rules, cite, set())
    return f"{words['words']} ({words['heading']})" if words["heading"] else words["words"]
