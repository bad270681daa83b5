"""Adopting a rate schedule by majority vote (rate-schedules.C; NY Town Law § 63)."""
from __future__ import annotations

from .rules import parameter


def majority(rules: dict, on=None) -> int:
    """Ayes needed: a majority of all the members of the board, whatever the absences
    (the board's size on the day of the vote; as it stands without a day)."""
    return parameter(rules, "town-board-size", on=on) // 2 + 1


def vote_problem(rules: dict, adoption: dict, meeting: str) -> str | None:
    """Why a recorded adoption is not lawful, or None when it is."""
    size = parameter(rules, "town-board-size", on=adoption["date"])
    needed = majority(rules, adoption["date"])
    ayes, noes, absent = adoption["ayes"], adoption["noes"], adoption.get("absent", 0)
    if ayes + noes + absent > size:
        return (f"{ayes} ayes, {noes} noes and {absent} absent make {ayes + noes + absent} members, but the Town Board "
                f"has {size} (rules/parameters/town-board-size.yaml). Check the vote.")
    if ayes < needed:
        return (f"{ayes} ayes is not a majority of all {size} members of the Town Board; {needed} are needed "
                f"whatever the absences (NY Town Law § 63; rate-schedules.C). The schedule is not adopted.")
    if adoption["date"] < meeting:
        return (f"the adoption date {adoption['date']} is before the public-comment meeting on {meeting}; "
                f"a schedule can be adopted only after that meeting (rate-schedules.C).")
    return None


def timing_problem(s: dict, reading: str, step: str = "adoption") -> str | None:
    """Why a schedule's notice or adoption comes too late for its effective date, or None
    (rules/interpretations/late-adoption.yaml: "refuse" refuses; "first-quarter-after"
    accepts, and the schedule starts with the first quarter after adoption)."""
    if reading != "refuse":
        return None
    for what, day in (("published", s.get("notice", {}).get("published")),
                      ("adopted", s.get("adoption", {}).get("date"))):
        if day and day > s["effective"]:
            return (f"the schedule is {what} on {day}, after its effective date {s['effective']}: bills due since then "
                    f"would be repriced. Propose it again with an effective date on or after the day it can be "
                    f"adopted (rules/interpretations/late-adoption.yaml).")
    return None
