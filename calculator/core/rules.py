"""Where the engine gets the law's data from, and how it reads one value.

In the browser (and in the wheel) the rules arrive compiled, as
`compiled_rules.json` beside this file. In a source checkout there is no such
file; the kit's rule reader (registered as the "rules" provider) reads and
validates rules/ on first use.

A parameter may have changed by amendment: its compiled `history` lists each value
with the day it took effect (`since`; None for a value in force from the start),
oldest first. `parameter(rules, name, on=day)` reads the value in force on that day;
without `on`, the law as it stands (the latest value).
"""
from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal
from pathlib import Path

from .providers import provided

_PACKED = Path(__file__).parent.parent / "compiled_rules.json"  # calculator/, beside the rooms
_cache: dict | None = None


def load() -> dict:
    global _cache
    if _cache is None:
        if _PACKED.exists():
            _cache = json.loads(_PACKED.read_text(encoding="utf-8"))
        else:
            _cache = provided("rules")()
    return _cache


def history(rules: dict, name: str) -> list[dict]:
    """Every value a parameter has had, oldest first: [{"since": "YYYY-MM-DD" or None, "value": …, …}]."""
    p = rules["parameters"][name]
    return p.get("history") or [{"since": None, "value": p["value"], "quote": p.get("quote")}]


def entry(rules: dict, name: str, on=None) -> dict:
    """The history entry in force on a day (a date or YYYY-MM-DD), or the latest one without a day.
    Before the first dated value the earliest value is used: it is the oldest the rules know."""
    values = history(rules, name)
    if on is None:
        return values[-1]
    day = on.isoformat() if isinstance(on, dt.date) else str(on)
    found = values[0]
    for e in values:
        if e["since"] is None or e["since"] <= day:
            found = e
    return found


def typed(value):
    """A stored value as the engine computes with it: int, Decimal, list of month-days, or an exact ratio as Decimal."""
    if isinstance(value, str):
        return Decimal(value)
    if isinstance(value, dict):
        return Decimal(value["numerator"]) / Decimal(value["denominator"])
    return value


def parameter(rules: dict, name: str, on=None):
    """A parameter's value in force on a day (the latest without one)."""
    return typed(entry(rules, name, on)["value"])


def interpretation(rules: dict, ident: str) -> str:
    """The reading chosen for an ambiguous passage."""
    return rules["interpretations"][ident]["chosen"]


def provision(rules: dict, ident: str) -> dict:
    for p in rules["provisions"]:
        if p["id"] == ident:
            return p
    raise KeyError(ident)
