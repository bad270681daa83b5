"""Adopting a rate schedule by majority vote (rate-schedules.C; NY Town Law § 63).

Each refusal says what is wrong and every lawful way on: correct what was entered, or
what the Board can still do (vote again, by when)."""
from __future__ import annotations

import datetime as dt

from ..core.dates import long
from ..core.explain import named
from ..core.i18n import N_, _
from ..core.rules import parameter


def majority(rules: dict, on=None) -> int:
    """Ayes needed: a majority of all the members of the board, whatever the absences
    (the board's size on the day of the vote; as it stands without a day)."""
    return parameter(rules, "town-board-size", on=on) // 2 + 1


def _long(day: str) -> str:
    return long(dt.date.fromisoformat(day))


def vote_problem(rules: dict, adoption: dict, meeting: str) -> str | None:
    """Why a recorded adoption is not lawful, or None when it is."""
    size = parameter(rules, "town-board-size", on=adoption["date"])
    needed = majority(rules, adoption["date"])
    ayes, noes, absent = adoption["ayes"], adoption["noes"], adoption.get("absent", 0)
    if ayes + noes + absent > size:
        # "for" and "against", not "ayes" and "noes": "1 noes" (issue 34)
        return _("{ayes} for, {noes} against and {absent} absent make {members} members, but the Town Board has "
                 "{size}. Check the numbers voting for, voting against and absent.").format(
                     ayes=ayes, noes=noes, absent=absent, members=ayes + noes + absent, size=size)
    if ayes < needed:
        return _("A vote of {ayes} for is not a majority of all {size} members of the Town Board; {needed} are needed "
                 "whatever the absences (NY Town Law § 63; {law}). If the vote carried with {needed} or more for, "
                 "correct the number voting for; if not, the schedule is not adopted, and the Board may vote on it "
                 "again.").format(ayes=ayes, size=size, needed=needed, law=named(rules, "rate-schedules.C"))
    if adoption["date"] < meeting:
        return _("the adoption date {date} is before the public-comment meeting on {meeting}; a schedule can be "
                 "adopted only after that meeting ({law}). If the vote was later, correct its date; if "
                 "not, the Board may vote on it again on or after {meeting}.").format(
                     date=_long(adoption["date"]), meeting=_long(meeting),
                     law=named(rules, "rate-schedules.C"))
    return None


# why a schedule comes too late, by the step that came after its effective date: the law asks for a schedule
# "Prior to the start of each fiscal year" (rate-schedules.A) and bills are due in advance (rents.F, rents.H);
# refusing a late one is this site's reading (rules/interpretations/late-adoption.yaml, "refuse"), not the Town's
_LATE = {
    "published": N_("the schedule is published on {day}, after its effective date {effective}. The law asks for a "
                    "schedule before its fiscal year starts (Rate schedules A). Bills are due in advance, so bills "
                    "due since {effective} would be repriced. This site reads the law as refusing a late schedule "
                    "(the Town has not adopted this reading). Publish it in time for the meeting to be held by "
                    "{effective}, or propose it again with an effective date on or after the day it can be adopted."),
    "adopted": N_("the schedule is adopted on {day}, after its effective date {effective}. The law asks for a "
                  "schedule before its fiscal year starts (Rate schedules A). Bills are due in advance, so bills "
                  "due since {effective} would be repriced. This site reads the law as refusing a late schedule "
                  "(the Town has not adopted this reading). If the vote was earlier, correct its date; if not, "
                  "propose the schedule again with an effective date on or after {day}."),
}


def timing_problem(s: dict, reading: str, step: str = "adoption") -> str | None:
    """Why a schedule's notice or adoption comes too late for its effective date, or None
    (rules/interpretations/late-adoption.yaml: "refuse" refuses; "first-quarter-after"
    accepts, and the schedule starts with the first quarter after adoption)."""
    if reading != "refuse":
        return None
    for message, day in ((_LATE["published"], s.get("notice", {}).get("published")),
                         (_LATE["adopted"], s.get("adoption", {}).get("date"))):
        if day and day > s["effective"]:
            return _(message).format(day=_long(day), effective=_long(s["effective"]))
    return None
