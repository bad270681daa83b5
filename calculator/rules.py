"""Where the engine gets the law's data from.

In the browser (and in the wheel) the rules arrive compiled, as
`compiled_rules.json` beside this file. In a source checkout there is no such
file, and the rules are read and validated from rules/ on first use.
"""
from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

_PACKED = Path(__file__).with_name("compiled_rules.json")
_cache: dict | None = None


def load() -> dict:
    global _cache
    if _cache is None:
        if _PACKED.exists():
            _cache = json.loads(_PACKED.read_text(encoding="utf-8"))
        else:
            from .validate import compile_rules  # CPython only: needs PyYAML and jsonschema
            _cache = compile_rules()
    return _cache


def reset(rules: dict | None = None) -> None:
    """Forget the loaded rules (or use these): for tests and the Clerk's tools."""
    global _cache
    _cache = rules


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
