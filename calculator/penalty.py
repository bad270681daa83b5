"""The late penalty of rents.F: a rate per period after a grace period of nonpayment
(rules/parameters/late-penalty-*.yaml), each as in force on the bill's due date."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from .dates import add_months, next_business_day
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


def periods(rules: dict, due: dt.date, paid_on: dt.date) -> int:
    """How many penalty periods have begun by the day of payment (0 within the grace period)."""
    first = first_penalty_date(rules, due)
    if paid_on < first:
        return 0
    step = parameter(rules, "late-penalty-period-months", on=due)
    months = (paid_on.year - first.year) * 12 + paid_on.month - first.month
    n = months // step
    while add_months(first, (n + 1) * step) <= paid_on:
        n += 1
    while n > 0 and add_months(first, n * step) > paid_on:
        n -= 1
    return 1 + n


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
