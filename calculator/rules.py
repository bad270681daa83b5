"""Where the engine gets the law's data from, and how it reads one value.

In the browser (and in the wheel) the rules arrive compiled, as
`compiled_rules.json` beside this file. In a source checkout there is no such
file; the kit's rule reader (registered as the "rules" provider) reads and
validates rules/ on first use.
"""
from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

from .providers import provided

_PACKED = Path(__file__).with_name("compiled_rules.json")
_cache: dict | None = None


def load() -> dict:
    global _cache
    if _cache is None:
        if _PACKED.exists():
            _cache = json.loads(_PACKED.read_text(encoding="utf-8"))
        else:
            _cache = provided("rules")()
    return _cache


def parameter(rules: dict, name: str):
    """A parameter's value: int, Decimal, list of month-days, or an exact ratio as Decimal."""
    value = rules["parameters"][name]["value"]
    if isinstance(value, str):
        return Decimal(value)
    if isinstance(value, dict):
        return Decimal(value["numerator"]) / Decimal(value["denominator"])
    return value


def interpretation(rules: dict, ident: str) -> str:
    """The reading chosen for an ambiguous passage."""
    return rules["interpretations"][ident]["chosen"]


def provision(rules: dict, ident: str) -> dict:
    for p in rules["provisions"]:
        if p["id"] == ident:
            return p
    raise KeyError(ident)
