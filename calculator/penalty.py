"""The late penalty of rents.F: a rate per period after a grace period of nonpayment
(rules/parameters/late-penalty-*.yaml), each as in force on the bill's due date."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from .dates import add_months, next_business_day, quarter_of, quarter_period
from .rules import interpretation, parameter


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
    first = first_penalty_date(rules, due)
    if paid_on < first:
        return []
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

    def begins(k: int) -> dt.date:
        day = later(k)
        return next_business_day(rules, day - dt.timedelta(days=1)) + dt.timedelta(days=1) if moved else day
    starts, k = [first], 1
    while (day := begins(k)) <= paid_on:
        if day > first:
            starts.append(day)
        k += 1
    return starts


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
