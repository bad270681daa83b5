"""A parameter's value in words, the one way pages, notices and the rules' own prose
(placeholders like `{late-penalty-rate}` in rules/interpretations/) write it:
15%, 30 days, 8,000, $150.00, January 15, April 15, July 15 and October 15."""
from __future__ import annotations

from decimal import Decimal

from calculator.core import money
from calculator.core.dates import month_days, series  # noqa: F401 - the one way, in the engine (notices use it)
from calculator.core.i18n import N_, _

# a counted unit in words, in the current language: (one, more than one)
_COUNTED = {
    "days": (N_("{count} day"), N_("{count} days")),
    "months": (N_("{count} month"), N_("{count} months")),
    "hours": (N_("{count} hour"), N_("{count} hours")),
    "minutes": (N_("{count} minute"), N_("{count} minutes")),
}


def value_words(value, unit: str) -> str:
    """A stored value (as in rules/parameters/) in words, by its unit."""
    if isinstance(value, list):
        return month_days(value)
    if isinstance(value, dict):
        return f"{value['numerator']:,}/{value['denominator']:,}"
    number = Decimal(str(value))
    if unit.startswith("fraction"):
        return money.percent(number)
    if unit.startswith("dollars"):
        return money.dollars(number)
    word = unit.split()[0]
    if word in _COUNTED:
        one, more = _COUNTED[word]
        counted = one if number == 1 else more
        return _(counted).format(count=f"{number:,}")
    return f"{number:,}"


def parameter_words(parameter: dict) -> str:
    """A compiled parameter's value as the law stands (its latest value), in words."""
    return value_words(parameter["value"], parameter["unit"])
