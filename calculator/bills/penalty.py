"""The late penalty of rents.F: a rate per period after a grace period of nonpayment
(rules/parameters/late-penalty-*.yaml), each as in force on the bill's due date."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from ..core.dates import add_months, next_business_day, quarter_of, quarter_period
from ..core.rules import interpretation, parameter


def last_day_to_pay(rules: dict, due: dt.date) -> dt.date:
    """The last day of the grace period: the 30th day after the due date, or, when that is a
    Saturday, Sunday or public holiday, the next business day, as
    rules/interpretations/period-end-business-day.yaml says."""
    end = due + dt.timedelta(days=parameter(rules, "late-penalty-grace-days", on=due))
    if interpretation(rules, "period-end-business-day") == "next-business-day":
        return next_business_day(rules, end)
    return end


def first_penalty_date(rules: dict, due: dt.date) -> dt.date:
    """The first day a penalty applies: the day after the grace period ends."""
    return last_day_to_pay(rules, due) + dt.timedelta(days=1)


def period_starts(rules: dict, due: dt.date, paid_on: dt.date) -> list[dt.date]:
    """The day each penalty period began, up to the day of payment (none within the grace period).
    The first begins on the first penalty date. The later ones, as two recorded readings of
    "per quarter" say: counted from the first penalty date as moved to the next business day, or
    from the day after the grace days (rules/interpretations/later-penalty-start.yaml); every
    further number of months, or every later billing quarter (penalty-quarter.yaml)."""
    starts = []
    for day in _all_starts(rules, due):
        if day > paid_on:
            return starts
        starts.append(day)


def next_start(rules: dict, due: dt.date, day: dt.date) -> dt.date:
    """The first day after `day` on which a new penalty period begins for a bill due on `due`."""
    return next(d for d in _all_starts(rules, due) if d > day)


def _all_starts(rules: dict, due: dt.date):
    """Every penalty period's first day, in order, without end (period_starts, next_start)."""
    first = first_penalty_date(rules, due)
    anchor = first
    if interpretation(rules, "later-penalty-start") == "day-after-grace":
        anchor = due + dt.timedelta(days=parameter(rules, "late-penalty-grace-days", on=due) + 1)
    if interpretation(rules, "penalty-quarter") == "billing-quarter":
        year, q = quarter_of(anchor)

        def later(k: int) -> dt.date:
            index = q - 1 + k
            return quarter_period(year + index // 4, index % 4 + 1)[0]
    else:
        step = parameter(rules, "late-penalty-period-months", on=due)

        def later(k: int) -> dt.date:
            return add_months(anchor, k * step)
    # rules/interpretations/later-period-end-business-day.yaml: a later period whose last day is a
    # Saturday, Sunday or public holiday runs to the next business day (GCL § 25-a), or not
    moved = interpretation(rules, "later-period-end-business-day") == "next-business-day"
    yield first
    k = 1
    while True:
        day = later(k)
        if moved:
            day = next_business_day(rules, day - dt.timedelta(days=1)) + dt.timedelta(days=1)
        if day > first:
            yield day
        k += 1


def periods(rules: dict, due: dt.date, paid_on: dt.date) -> int:
    """How many penalty periods have begun by the day of payment (0 within the grace period)."""
    return len(period_starts(rules, due, paid_on))


def unrounded(rules: dict, charge: Decimal, n: int, due: dt.date | None = None) -> Decimal:
    """The penalty on a charge after n periods, by the recorded reading of rents.F,
    at the rate in force on the due date (the latest rate without one)."""
    if n <= 0:
        return Decimal(0)
    rate = parameter(rules, "late-penalty-rate", on=due)
    mode = interpretation(rules, "penalty-accrual")
    if mode == "once":
        return charge * rate
    if mode == "compound":
        return charge * ((1 + rate) ** n - 1)
    return charge * rate * n  # "simple": a further rate x the unpaid charge per period
