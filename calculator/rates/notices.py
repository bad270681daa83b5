"""The words of the rate-schedule year's notices: the newspaper notice of the
public-comment meeting (rate-schedules.B) and the yearly notice to users
(rate-schedules.D), as text and as an HTML fragment.

In the engine (standard library only), so the Clerk's desk in the browser and the
Clerk's commands (kit/clerk/command.py) and the site's notice pages (kit/site/pages.py) make one
text. A notice names the site's address (mkdocs.yml `site_url`): a newspaper reader
cannot follow a relative link, so a notice without it is refused.

Each notice is written in the current language (calculator.core.i18n.speaking): the same
functions give the Spanish notice, whole, with its dates in Spanish, the same figures
and the same citations; a translation also says that the English notice is the
official one.
"""
from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from html import escape, unescape

from ..bills import bill
from ..core import money, schedule
from ..core.dates import (due_date, first_quarter_from, long, long_with_weekday, month_days, quarter_name,
                    quarter_period, typed)
from ..core.errors import InputError
from ..core.explain import named, quote_words, quoted_english, quoted_law, quoted_own
from ..core.i18n import SOURCE, _, lang
from ..core.law import citation, history_words, quoted
from ..core.rules import entry, interpretation, parameter


#: the water use of the typical quarterly bills the Clerk and the notice to users show (not the law's: examples)
TYPICAL_QUARTERLY_WATER_GALLONS = ("15000", "30000")


def find_schedule(rules: dict, schedule_id: str) -> dict:
    for s in rules["schedules"]:
        if s["id"] == schedule_id:
            return s
    known = ", ".join(s["id"] for s in rules["schedules"]) or _("none")
    raise InputError(_("There is no rate schedule {schedule} in rules/rate-schedules/ (there are: {known}). "
                       "Give one of those ids, or run `propose` first.").format(schedule=typed(schedule_id),
                                                                                 known=known), "schedule")


def without(rules: dict, schedule_id: str) -> dict:
    """The rules as if this schedule did not exist: what would be in force without it."""
    return dict(rules, schedules=[s for s in rules["schedules"] if s["id"] != schedule_id])


def site_address(site_url: str | None) -> str | None:
    """The site's address as a notice prints it, ending in "/"; None when it is not set (the notice
    then names no web address: issue 34, a desk on a computer's own address printed that address, which
    no newspaper reader could open); refused when it is not a web address."""
    url = (site_url or "").strip()
    if not url:
        return None
    if not url.startswith(("https://", "http://")):
        raise InputError(_("The site's address is not set, so a notice cannot say where the schedule can be read. "
                           "Set site_url in mkdocs.yml to the site's address, like https://sewer.pawling.example/, "
                           "then build the site again.") if not url else
                         _("The site's address {url} (site_url in mkdocs.yml) is not a web address. "
                           "Write it like https://sewer.pawling.example/.").format(url=typed(url)), "site-url")
    return url.rstrip("/") + "/"


def schedule_address(site_url: str | None, schedule_id: str) -> str:
    """Where a schedule can be read on the site: <site_url>rates/<id>/ (in Spanish, the
    Spanish page: <site_url>es/rates/<id>/)."""
    return page_address(site_url, f"rates/{schedule_id}/")


def page_address(site_url: str | None, path: str) -> str | None:
    """A page of the site in the language spoken: <site_url><path> (<site_url>es/<path>); None without one."""
    site = site_address(site_url)
    return None if site is None else f"{site}{'' if lang() == SOURCE else lang() + '/'}{path}"


# ---- what both notices state ----------------------------------------------------------------------

def _day(value: str) -> str:
    """A day as a notice names it: "Thursday, October 30, 2025" ("jueves 30 de octubre de 2025")."""
    return long_with_weekday(dt.date.fromisoformat(value))


def newspaper_words(name: str | None) -> str:
    """The newspaper as a sentence names it: "the Poughkeepsie Journal" for "Poughkeepsie Journal", a name that
    begins with "The" as it is written; without one, the official newspaper (the usability test: "published in
    Poughkeepsie Journal")."""
    name = " ".join((name or "").split())
    if not name:
        return _("the official newspaper of the Town of Pawling")
    if name.lower().startswith("the "):
        return name
    return _("the {newspaper}").format(newspaper=name)


def resolution_words(text: str) -> str:
    """A resolution as a sentence names it after the word "resolution": "2026-112" for "Resolution 2026-112"
    or "Resolution No. 2026-112" (the usability test: "(resolution Resolution 2026-112)")."""
    text = " ".join(str(text).split())
    bare = re.sub(r"^(?:resolution\b|res\.)\s*(?:no\.|number\b|#)?\s*", "", text, flags=re.IGNORECASE)
    return bare or text


def clock(hhmm: str) -> str:
    """19:00 -> 7:00 p.m. (as a newspaper notice writes it)."""
    hour, minute = (int(x) for x in hhmm.split(":"))
    if (hour, minute) == (12, 0):
        return _("12:00 noon")
    if (hour, minute) == (0, 0):
        return _("12:00 midnight")
    time = _("{hour}:{minute} a.m.") if hour < 12 else _("{hour}:{minute} p.m.")
    return time.format(hour=(hour - 1) % 12 + 1, minute=f"{minute:02d}")


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
    return {"id": s["id"], "title": s["title"], "status": s["status"], "label": schedule.label(s["status"]),
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


def _translation_note() -> list[str]:
    """In a translation, the sentence that says the English notice is the official one."""
    if lang() == SOURCE:
        return []
    return [_("This translation is a courtesy, not yet reviewed by the Town; the notice in English is the "
              "official one.")]


# ---- the newspaper notice (rate-schedules.B) ------------------------------------------------------------

def in_the_law(rules: dict, *idents: str) -> str:
    """Provisions of one article as a newspaper reader is told where to find them in the Town's law:
    "the sewer-use law's rate schedules section, paragraphs B and C" ("… section § 12-3 …" once the
    Town's section numbers are known), never the site's own names with their headings ("Rate schedules B
    (Notice and publication)", the usability test)."""
    from ..core.law import by_id, parts
    provisions = by_id(rules)
    article = parts(rules, idents[0])[0]
    labels = [parts(rules, ident)[1] for ident in idents]
    number = provisions[article].get("section")
    name = f"§ {number}" if number else provisions[article]["heading"].lower()
    where = (_("the sewer-use law's {name} section").format(name=name) if not any(labels) else
             _("the sewer-use law's {name} section, paragraph {label}").format(name=name, label=labels[0])
             if len(labels) == 1 else
             _("the sewer-use law's {name} section, paragraphs {labels} and {last}").format(
                 name=name, labels=", ".join(labels[:-1]), last=labels[-1]))
    return where


def hearing_notice_text(rules: dict, schedule_id: str, site_url: str | None) -> str:
    """The newspaper notice of the meeting on a proposed schedule, as plain text; its first
    paragraph is the PDF's heading."""
    s = find_schedule(rules, schedule_id)
    if "notice" not in s:
        raise InputError(_("Schedule {schedule} has no notice recorded; run `notice {id} …` first.").format(
            schedule=typed(schedule_id), id=schedule_id), "schedule")
    n = s["notice"]
    # the address the notice printed when it was made (its record's `website`), never a later build's: the site
    # shows the notice exactly as it ran in the newspaper (the usability test, issue 34)
    where = schedule_address(n["website"] if "website" in n else site_url, s["id"])
    current, proposed, quarter = current_and_proposed(rules, s)
    said: set[str] = set()  # in Spanish, each article of the law is named in full once (calculator.core.explain.named)
    # in English, where the reader finds it in the Town's law (in_the_law); in another language in the reader's
    # words, the law's English name quoted (explain.named)
    cite = lambda ident: in_the_law(rules, ident) if lang() == SOURCE else named(rules, ident, said)  # noqa: E731
    commission = n.get("body", "town-board") == "joint-sewer-commission"
    history = history_words(rules)
    low = parameter(rules, "hearing-minimum-days", on=n["published"])
    high = parameter(rules, "hearing-maximum-days", on=n["published"])
    minimum_gallons = money.gallons(Decimal(parameter(rules, "minimum-charge-water-gallons", on=_first_day(quarter))))
    meeting = {"day": _day(n["meeting"]), "time": clock(n["time"]), "place": n["place"],
               "fiscal_year": s.get("fiscal_year")}
    if commission and s.get("fiscal_year"):
        take_notice = _("PLEASE TAKE NOTICE that the Pawling Joint Sewer Commission, as designated by the Town Board "
                        "of the Town of Pawling, will hold a public hearing to hear public comments on the proposed "
                        "sewer rate schedule for fiscal year {fiscal_year} on {day}, at {time}, at {place}.")
    elif commission:
        take_notice = _("PLEASE TAKE NOTICE that the Pawling Joint Sewer Commission, as designated by the Town Board "
                        "of the Town of Pawling, will hold a public hearing to hear public comments on the proposed "
                        "sewer rate schedule on {day}, at {time}, at {place}.")
    elif s.get("fiscal_year"):
        take_notice = _("PLEASE TAKE NOTICE that the Town Board of the Town of Pawling will hold a public hearing to "
                        "hear public comments on the proposed sewer rate schedule for fiscal year {fiscal_year} on {day}, "
                        "at {time}, at {place}.")
    else:
        take_notice = _("PLEASE TAKE NOTICE that the Town Board of the Town of Pawling will hold a public hearing to "
                        "hear public comments on the proposed sewer rate schedule on {day}, at {time}, at {place}.")
    both = (in_the_law(rules, "rate-schedules.B", "rate-schedules.C") if lang() == SOURCE else
            f'{cite("rate-schedules.B")}; {cite("rate-schedules.C")}')
    purpose = {"history": history, "low": low, "high": high, "cite_bc": both,
               "newspaper": newspaper_words(n.get("newspaper"))}
    if history:
        purpose_text = _("Purpose: the Town's sewer-use law ({history}) provides that each proposed rate schedule is "
                         "published in {newspaper} with a time and place for public comments, held no fewer than "
                         "{low} and no more than {high} days after publication, before the Town Board may adopt it "
                         "by majority vote ({cite_bc}).")
    else:
        purpose_text = _("Purpose: the Town's sewer-use law provides that each proposed rate schedule is published in "
                         "{newspaper} with a time and place for public comments, held no fewer than {low} and no "
                         "more than {high} days after publication, before the Town Board may adopt it by majority "
                         "vote ({cite_bc}).")
    lines = [
        _("TOWN OF PAWLING, DUTCHESS COUNTY, NEW YORK"),
        _("NOTICE OF PUBLIC HEARING ON A PROPOSED SEWER RATE SCHEDULE"),
        *_translation_note(),
        "",
        take_notice.format(**meeting),
        "",
        purpose_text.format(**purpose),
        "",
    ]
    if current["status"] == "adopted":
        lines += [
            _("The proposed rate schedule, to take effect on {date}, and the schedule now in force:").format(
                date=proposed["effective"]),
            "- " + _("Rate per 1,000 gallons of sewage: proposed {proposed}; now {now}.").format(
                proposed=proposed["vc"], now=current["vc"]),
            "- " + _("Share of metered water use billed as sewage, for properties without a sewage meter: proposed "
                     "{proposed}; now {now}.").format(proposed=proposed["fraction"], now=current["fraction"]),
            "- " + _("Minimum charge each quarter, the charge for {gallons} gallons of water use: proposed {proposed}; "
                     "now {now}.").format(gallons=minimum_gallons, proposed=proposed["minimum"], now=current["minimum"])]
    else:  # no adopted schedule to compare with: a newspaper notice never prints an invented one (issue 34)
        lines += [
            _("The proposed rate schedule, to take effect on {date}:").format(date=proposed["effective"]),
            "- " + _("Rate per 1,000 gallons of sewage: {proposed}.").format(proposed=proposed["vc"]),
            "- " + _("Share of metered water use billed as sewage, for properties without a sewage meter: "
                     "{proposed}.").format(proposed=proposed["fraction"]),
            "- " + _("Minimum charge each quarter, the charge for {gallons} gallons of water use: {proposed}.").format(
                gallons=minimum_gallons, proposed=proposed["minimum"])]
    basis = s.get("basis")
    if basis:
        extra = Decimal(basis.get("extraneous_flow_cost", "0"))
        projected = "om_cost" not in basis  # rents.D's fallback: projected costs, when past data is not available
        figures = {"om": money.dollars(Decimal(basis["projected_om_cost" if projected else "om_cost"])),
                   "extra": money.dollars(extra),
                   "volume": money.gallons(Decimal(basis["user_volume_gallons"])),
                   "cite_d": cite("rents.D"), "cite_e": cite("rents.E")}
        if projected:
            how = _("How the Town computed the proposed rate: past data was not available, so the projected operation "
                    "and maintenance expenditures for the year, {om}, divided by the users' sewage volume of {volume} "
                    "gallons, times 1,000: the rate per 1,000 gallons.")
        elif extra and interpretation(rules, "extraneous-flow") == "added-to-om":
            how = _("How the Town computed the proposed rate: the operation and maintenance cost of {om}, plus {extra} "
                    "for treating extraneous flow (ground water and rain water that get into the sewers; {cite_e}), "
                    "divided by the users' sewage volume of {volume} gallons, times 1,000: the rate per 1,000 gallons.")
        elif extra:
            how = _("How the Town computed the proposed rate: the operation and maintenance cost of {om} (of which "
                    "{extra} was for treating extraneous flow, that is ground water and rain water that get into the "
                    "sewers, borne by users in proportion to their volume; {cite_e}), divided by the users' sewage "
                    "volume of {volume} gallons, times 1,000: the rate per 1,000 gallons.")
        else:
            how = _("How the Town computed the proposed rate: the operation and maintenance cost of {om} divided by "
                    "the users' sewage volume of {volume} gallons, times 1,000: the rate per 1,000 gallons.")
        # the division rarely comes out in whole cents: said (clerk15: 11.2991 printed as $11.30 without a word)
        lines.append("- " + how.format(**figures) + " " + _("The result is rounded to the cent."))
        # the law's own words quoted beside how the rate was set, the division never called the law's (clerk11,
        # N2); and no site's disclaimer in the Town's legal notice (clerk12, high: "(the Town has not adopted this
        # reading)" under "By order of the Town Board")
        # the law quoted, not paraphrased: the Town Board establishes the rate (clerk13: "The law sets the rate")
        # (the Spanish notice says it in Spanish: its official text is the English one, as it says)
        lines.append("- " + (_("When past data is not available, the law ({cite_d}) says the Village Board or its "
                               "agents compute the rate “based on data which are deemed to reasonably represent the "
                               "projected annual operation and maintenance expenditures for the year”.") if projected
                             else _("The law ({cite_d}) says the rate “shall be established annually by the Town Board "
                                    "based on the operation and maintenance expenses incurred during the past fiscal "
                                    "year”.")
                             ).format(**figures))
    # in words, not the law's formula (the usability test: "the law writes it CU = VC x VU" in a newspaper); the
    # minimum is each property's, in its own paragraph (clerk11, N1: "each user's … (paragraph B)")
    lines.append("- " + _("Each user's quarterly charge is the rate times the user's sewage volume ({cite}). Each "
                          "property connected to the sewer pays at least the minimum charge each quarter "
                          "({cite_min}).").format(cite=cite("rents.B"), cite_min=cite("minimum-charge")))
    lines += [
        "",
        _("The proposed rate schedule may be read at the office of the Town Clerk during regular business hours, "
          "and on the Town's sewer website at {address}.").format(address=where) if where else
        _("The proposed rate schedule may be read at the office of the Town Clerk during regular business hours."),
        "",
        _("All interested persons will be given an opportunity to be heard at the public hearing."),
        "",
        _("By order of the Pawling Joint Sewer Commission") if commission else
        _("By order of the Town Board of the Town of Pawling"),
        _("{name}, Town Clerk").format(name=n["clerk_name"]) if n.get("clerk_name") else _("Town Clerk"),
        # the day it appears, not a day it was signed (clerk13 L-2: "Dated" on a day she did not sign it)
        _("Published: {day}").format(day=_day(n["published"])),
    ]
    return "\n".join(lines) + "\n"


def hearing_notice_title(schedule_id: str) -> str:
    return _("Notice of public hearing on the proposed sewer rate schedule {schedule} – Town of Pawling").format(
        schedule=schedule_id)


# ---- the yearly notice to users (rate-schedules.D; 40 CFR 35.929) -------------------------------------

def user_notice_title(s: dict) -> str:
    if s["status"] == "illustrative":
        # named by its title, in the reader's language: its id ("2025-illustrative") is a file's name
        # (the Spanish reviewer, 33e: «…tabla 2025-illustrative…»)
        title = s.get(f"title_{lang()}") or s["title"]
        return _("ILLUSTRATIVE – Annual notice of sewer rates: {title} – Town of Pawling").format(title=title)
    return _("Annual notice of sewer rates, schedule {schedule} – Town of Pawling").format(schedule=s["id"])


# a citation in the notice to users, put into words for each format, and a quotation of the law in
# quotation marks: in a translation's HTML both are marked as English (they are the law's English
# text; WCAG 3.1.2)
_CITED = re.compile("\x00([^\x00]+)\x00")
_QUOTED = re.compile("\x01([^\x01]+)\x01")


def _cite(ident: str) -> str:
    return f"\x00{ident}\x00"


def _quote(words: str) -> str:
    """The law's own words, quoted as written."""
    return f"\x01{words}\x01"


def _cited(rules: dict, text: str, html: bool = False, named_in_full: set[str] | None = None) -> str:
    """Citations and quotations put into words; `text` is already escaped for HTML when `html`.
    In English a citation is the law's name for the provision; in another language it is named in
    the reader's words, the law's English name quoted (and marked as English on a page) the first
    time the notice names its article (`named_in_full`: the articles already named so)."""
    def words(m):
        if lang() == SOURCE:
            return escape(citation(rules, m.group(1))) if html else citation(rules, m.group(1))
        said = named(rules, m.group(1), named_in_full)
        return quoted_english(escape(said, quote=False)) if html else said

    def quoted(m):
        # the law's words are marked, so the readability measure leaves them out (kit/tools/readability.py);
        # in another language the site's unofficial translation follows them (explain.quote_words)
        if lang() == SOURCE:
            return f'“<span class="law-quote">{m.group(1)}</span>”' if html else quoted_law(m.group(1))
        words = quote_words(unescape(m.group(1)) if html else m.group(1))
        if html:
            return (f'“<span lang="en" class="law-quote">{m.group(1)}</span>” '
                    f'<span class="law-words">{quoted_english(escape(words, quote=False))}</span>')
        return f"{quoted_law(m.group(1))} {words}"
    return _QUOTED.sub(quoted, _CITED.sub(words, text))


def _user_facts(rules: dict, s: dict) -> dict:
    year, q = first_quarter_from(dt.date.fromisoformat(s["effective"]))
    start = quarter_period(year, q)[0]
    due_day = due_date(rules, year, q)  # the law as it stands for the schedule's first quarter
    rate, grace = money.percent(parameter(rules, "late-penalty-rate", on=due_day)), parameter(
        rules, "late-penalty-grace-days", on=due_day)
    months, reading = parameter(rules, "late-penalty-period-months", on=due_day), interpretation(rules, "penalty-accrual")
    # the law's words are quoted (as they stood for the schedule's first quarter); what follows is
    # this site's reading of them (penalty-accrual, period-end-business-day), labelled as such: the Town has
    # adopted no reading
    if reading == "simple":
        late = _("A bill still unpaid {grace} days after its due date has a penalty of {rate} of the unpaid charge, "
                 "and a further {rate} of the same charge for each further {months} months it stays unpaid; "
                 "penalties are not charged on penalties.")
    elif reading == "compound":
        late = _("A bill still unpaid {grace} days after its due date has a penalty of {rate} of the unpaid charge, "
                 "and a further {rate} of the charge plus penalties already added for each further {months} months "
                 "it stays unpaid.")
    else:
        late = _("A bill still unpaid {grace} days after its due date has a penalty of {rate} of the unpaid charge, "
                 "once.")
    if interpretation(rules, "period-end-business-day") == "next-business-day":
        last_day = _("When the last of the {grace} days is a Saturday, Sunday or New York public holiday, a payment on "
                     "the next business day is on time (NY General Construction Law § 25-a).")
    else:
        last_day = _("The {grace} days are calendar days: the penalty applies from the next day even when the last "
                     "of them is a Saturday, Sunday or public holiday.")
    late = late.format(grace=grace, rate=rate, months=months)
    # a Town document does not speak of "this site" (the usability test), and it labels its explanation as the
    # Town's: how the Town applies the law in the bills it sends. It does not say that the Town has adopted a
    # reading (tests/test_whose_readings.py), nor, in the Town's own notice, that it has not (clerk12, M5: "the
    # Town has not adopted the penalty rule it bills by")
    law = _("The law ({cite}) says: {quote} How the Town applies it: {late} {last_day}").format(
        quote=_quote(entry(rules, "late-penalty-rate", on=due_day)["quote"]), cite=_cite("rents.F"),
        late=late[0].lower() + late[1:], last_day=last_day.format(grace=grace))
    adoption = s.get("adoption")
    adopted = None
    if adoption and adoption.get("resolution"):
        adopted = _("It was adopted by the Town Board on {date} (resolution {resolution}).").format(
            date=long(dt.date.fromisoformat(adoption["date"])), resolution=resolution_words(adoption["resolution"]))
    elif adoption:
        adopted = _("It was adopted by the Town Board on {date}.").format(
            date=long(dt.date.fromisoformat(adoption["date"])))
    typical = TYPICAL_QUARTERLY_WATER_GALLONS[0]
    typical_bill = bill.compute(rules, quarter_name(year, q), {"water-gallons": typical},
                                vc_per_1000=s["vc_per_1000_gallons"], sewage_fraction=s["sewage_fraction"])
    return {"rates": _rates(rules, s, quarter_name(year, q), False),
            "typical": {"gallons": money.gallons(Decimal(typical)),
                        "charge": money.dollars(Decimal(typical_bill["total"]))},
            "late_plain": late[0].lower() + late[1:] + " " + last_day.format(grace=grace),
            "ends": long(dt.date.fromisoformat(s["ends"])) if "ends" in s else None,
            "adopted": adopted, "due_dates": month_days(parameter(rules, "bill-due-dates", on=start)),
            "minimum_gallons": money.gallons(Decimal(parameter(rules, "minimum-charge-water-gallons", on=start))),
            "late": law}


def user_notice(rules: dict, schedule_id: str, site_url: str | None) -> dict:
    """The yearly notice to every user, as {"text": …, "html": …} (HTML is a fragment for a page)."""
    s = find_schedule(rules, schedule_id)
    if s["status"] == "proposed":
        raise InputError(_("Schedule {schedule} is only proposed; users are told the adopted schedule. "
                           "Run `adopt {id} …` first, or give an adopted schedule's id.").format(
                               schedule=typed(schedule_id), id=schedule_id), "schedule")
    where = schedule_address(site_url, s["id"])
    f = _user_facts(rules, s)
    r = f["rates"]
    cite = _cite  # put into words below, for the text and for the page
    once_a_year = _("At least once a year, with a regular bill, the Town tells every user the rate schedule ({cite}).").format(
        cite=cite("rate-schedules.D"))
    # the schedule's title in quotes: straight ones in the text, curly ones on the page
    this_notice = (_("This notice is for the rate schedule {title}, in force from {effective} to {ends}.")
                   if f["ends"] else _("This notice is for the rate schedule {title}, in force from {effective}."))
    if s["status"] == "illustrative":  # never in force: the example schedule this site uses (the fifth Spanish review)
        this_notice = (_("This notice is for the example rate schedule {title}, which this site uses from {effective} "
                         "to {ends}.") if f["ends"] else
                       _("This notice is for the example rate schedule {title}, which this site uses from {effective}."))
    # the main text in plain words (the usability test, issue 34: "CU = VC x VU" and "40 CFR 35.929" in a
    # notice for residents): the rate, the minimum, a typical bill, when it starts, when to pay; the law's
    # formula, its citations and its words follow under their own heading
    plain_items = [
        (_("Rate"), _("{vc} for each 1,000 gallons of sewage.").format(vc=r["vc"])),
        (_("Your sewage"), _("If your property has no approved sewage meter, {fraction} of the water your meter "
                             "measures; with one, the sewage it measures.").format(fraction=r["fraction"])),
        (_("Minimum charge"), _("{minimum} each quarter, the charge for {gallons} gallons of water use.").format(
            minimum=r["minimum"], gallons=f["minimum_gallons"])),
        (_("A typical bill"), _("A property that uses {gallons} gallons of water in a quarter pays {charge} for that "
                                "quarter.").format(**f["typical"])),
        (_("When it starts"), _("From {effective}.").format(effective=r["effective"])),
        (_("When to pay"), _("Bills are sent every three months, before the quarter, and are due on {dates}.").format(
            dates=f["due_dates"])),
        (_("Late payment"), _("As the Town applies the law, {late}").format(
            late=f["late_plain"])),
    ]
    law_heading = _("The law's formula and citations")
    items = [  # (term, text) in the order the notice gives them; {formula} is put in for each format
        (_("Rate per 1,000 gallons"), _("{vc} per 1,000 gallons of sewage ({cite}).").format(vc=r["vc"], cite=cite("rents.D"))),
        (_("Your sewage volume"),
         _("If your property has no approved sewage meter, {fraction} of your metered water use; with one, the "
           "sewage it measures ({cite}).").format(fraction=r["fraction"], cite=cite("rents.C.1"))),
        (_("Your quarterly charge"),
         _("The rate times your sewage volume, per 1,000 gallons (the law writes it {formula}, {cite}).").format(
             formula="{formula}", cite=cite("rents.B"))),
        (_("Minimum charge"),
         _("{minimum} each quarter, the charge for {gallons} gallons of water use ({cite}).").format(
             minimum=r["minimum"], gallons=f["minimum_gallons"], cite=cite("minimum-charge"))),
        (_("Due dates"),
         _("Bills are sent quarterly, in advance, and are due on {dates} ({cite_f}; {cite_h}).").format(
             dates=f["due_dates"], cite_f=cite("rents.F"), cite_h=cite("rents.H"))),
        (_("Late payment"), f["late"]),
        (_("Lien"), _("The law ({cite}) says: {quote}").format(quote=_quote(quoted(rules, "lien-provision")),
                                                               cite=cite("rents.G"))),
        (_("Part of your charge that pays for operation and maintenance"),
         # the Town's statement, labelled as the Town's (clerk13 L-3: "a reading stated as the law")
         _("100%. As the Town applies the law, the whole charge is the operation and maintenance charge, {formula}, "
           "with no other part ({cite_b}; {cite_d}). Federal rules for sewer user charges (40 CFR 35.929) ask that "
           "users be told, at least once a year with a regular bill, the rate and the part of the charge that is for "
           "operation and maintenance.").format(formula="{formula}", cite_b=cite("rents.B"), cite_d=cite("rents.D"))),
    ]
    illustrative = s["status"] == "illustrative"
    do_not_send = _("Invented numbers to show the notice; do not send.")
    read_at = _("The rate schedule can be read at the office of the Town Clerk and on the Town's sewer website at "
                "{address}.")
    readings = _("Where the law can be read more than one way, the Town applies one reading of it. That reading, and "
                 "the other ways to read the law, are explained at {address}.")
    readings_at = page_address(site_url, "how-we-read-the-law/")

    in_text, on_page = set(), set()  # the articles each format has named in full
    text = []
    if illustrative:
        text += ["*** " + _("ILLUSTRATIVE - NOT THE TOWN'S RATE.") + " " + do_not_send + " ***", ""]
    note = _translation_note()  # a paragraph of its own, after the heading
    title = f'"{s["title"]}"' if lang() == SOURCE else quoted_own(s["title"])  # («…» in Spanish: not the law's)
    text += [_("TOWN OF PAWLING SEWER DISTRICTS"), _("ANNUAL NOTICE OF SEWER RATES"), *([""] + note if note else []), "",
             _cited(rules, once_a_year, named_in_full=in_text) + " " + this_notice.format(title=title, effective=r["effective"],
                                                                   ends=f["ends"])]
    if f["adopted"]:
        text.append(f["adopted"])
    text.append("")
    for term, words in plain_items:
        text.append(f"- {term}: {words[0].lower() + words[1:]}")
    text += ["", law_heading.upper(), ""]
    for term, words in items:
        plain = _cited(rules, words, named_in_full=in_text).replace("{formula}", "CU = VC x VU")
        text.append(f"- {term}: {plain[0].lower() + plain[1:]}")
    if where is None:  # no web address set: the office alone, and the readings said without their page
        read_at = _("The rate schedule can be read at the office of the Town Clerk.")
        readings = _("Where the law can be read more than one way, the Town applies one reading of it. The law's own "
                     "words, quoted in this notice, are the official text.")
    text += ["", read_at.format(address=where), readings.format(address=readings_at)]

    e = escape
    words = lambda message: escape(message, quote=False)  # noqa: E731 - the kit's own sentences, on a page
    anchor = f"user-notice-{e(s['id'])}"
    html = [f'<section class="user-notice" lang="{lang()}" aria-labelledby="{anchor}">']
    if illustrative:
        loud = words(_("ILLUSTRATIVE — not the Town's rate."))
        html.append(f'  <p class="user-notice__illustrative" role="note"><strong>{loud}</strong> '
                    f'{words(do_not_send)}</p>')
    heading = words(_("Annual notice of sewer rates"))
    html += [f'  <h2 id="{anchor}">{heading}</h2>']
    html += [f"  <p>{words(note)}</p>" for note in _translation_note()]
    html += ["  <p>" + _cited(rules, words(once_a_year), html=True, named_in_full=on_page) + " " + words(this_notice).format(
                 title=quoted_own(e(s['title'])), effective=e(r["effective"]), ends=e(f["ends"] or ""))
             + (" " + e(f["adopted"]) if f["adopted"] else "") + "</p>", '  <dl class="user-notice__plain">']
    html += [f"    <dt>{e(term)}</dt>\n    <dd>{e(text_of)}</dd>" for term, text_of in plain_items]
    html += ["  </dl>", f"  <h3>{words(law_heading)}</h3>", '  <dl class="user-notice__law">']
    for term, text_of in items:
        html += [f"    <dt>{e(term)}</dt>",
                 "    <dd>" + _cited(rules, e(text_of), html=True, named_in_full=on_page).replace(
                     "{formula}", '<span class="formula">CU = VC × VU</span>') + "</dd>"]
    html += ["  </dl>",
             "  <p>" + words(read_at).format(address=f'<a href="{e(where or "")}">{e(where or "")}</a>') + " "
             + words(readings).format(address=f'<a href="{e(readings_at or "")}">{e(readings_at or "")}</a>')
             + "</p>", "</section>"]
    # another law's English name glossed in a translation, «(en inglés, “General Construction Law”)», marked English
    page = re.sub(r'\(en inglés, “([^“”<>]+)”\)', r'(en inglés, “<span lang="en">\1</span>”)', "\n".join(html) + "\n")
    return {"text": "\n".join(text) + "\n", "html": page}
