"""Money: Decimal throughout, and the one place where amounts are rounded."""
from __future__ import annotations

from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal

from .rules import interpretation

CENT = Decimal("0.01")
_MODES = {"half-up-per-line": ROUND_HALF_UP, "half-even-per-line": ROUND_HALF_EVEN}


def round_line(amount: Decimal, rules: dict) -> Decimal:
    """Round one bill line to the cent, the way rules/interpretations/rounding.yaml says."""
    return amount.quantize(CENT, rounding=_MODES[interpretation(rules, "rounding")])


def line_rounder(rules: dict):
    """round_line with the reading looked up once, for many bills in a row."""
    mode = _MODES[interpretation(rules, "rounding")]
    return lambda amount: amount.quantize(CENT, rounding=mode)


def text(amount: Decimal) -> str:
    """Money and volumes as decimal strings with two places: "120.00"."""
    return str(amount.quantize(CENT, rounding=ROUND_HALF_UP))


def dollars(amount: Decimal) -> str:
    """For sentences: $1,234.50; a credit (below zero) as −$40.00, the minus sign before the dollar sign."""
    q = amount.quantize(CENT, rounding=ROUND_HALF_UP)
    return f"−${-q:,}" if q < 0 else f"${abs(q):,}"


def percent(fraction: Decimal) -> str:
    """For sentences: 0.80 -> 80%, 0.155 -> 15.5%."""
    p = (Decimal(fraction) * 100).normalize()
    return f"{p:f}%"


def gallons(amount: Decimal) -> str:
    """For sentences: 12,000 or 7,480.52 gallons."""
    q = Decimal(amount).quantize(CENT, rounding=ROUND_HALF_UP)
    return f"{q:,.0f}" if q == q.to_integral_value() else f"{q:,}"
