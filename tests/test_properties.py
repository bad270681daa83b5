"""Properties every bill must have, whatever the usage (hypothesis)."""
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from calculator.bills import bill
from calculator.core.rules import load

RULES = load()
usage = st.integers(min_value=0, max_value=10_000_000)  # usage is a whole number of gallons or cubic feet
kinds = st.sampled_from(bill.USAGE_KINDS)
quarters = st.builds(lambda y, q: f"{y}-Q{q}", st.integers(2025, 2040), st.integers(1, 4))


def charge(quarter, kind, amount, **kw):
    return bill.compute(RULES, quarter, {kind: str(amount)}, **kw)


@settings(max_examples=300, deadline=None)
@given(quarters, kinds, usage)
def test_the_charge_is_never_below_the_minimum_nor_negative(quarter, kind, amount):
    r = charge(quarter, kind, amount)
    assert Decimal(r["charge"]) >= Decimal(r["minimum_charge"]) >= 0
    assert Decimal(r["total"]) == Decimal(r["charge"]) + Decimal(r["penalty"])


@settings(max_examples=300, deadline=None)
@given(quarters, kinds, usage, usage)
def test_more_usage_never_costs_less(quarter, kind, a, b):
    low, high = sorted((a, b))
    assert Decimal(charge(quarter, kind, low)["charge"]) <= Decimal(charge(quarter, kind, high)["charge"])


@settings(max_examples=200, deadline=None)
@given(quarters, usage, st.integers(0, 800))
def test_paying_later_never_costs_less(quarter, amount, days):
    import datetime as dt
    r0 = charge(quarter, "water-gallons", amount)
    due = dt.date.fromisoformat(r0["due_date"])
    earlier = charge(quarter, "water-gallons", amount, paid_on=(due + dt.timedelta(days=days)).isoformat())
    later = charge(quarter, "water-gallons", amount, paid_on=(due + dt.timedelta(days=days + 1)).isoformat())
    assert Decimal(earlier["penalty"]) <= Decimal(later["penalty"])
    # on time until the last day to pay: day 30, or the next business day when day 30 is not one
    last_day = dt.date.fromisoformat(r0["last_day_to_pay"])
    assert dt.date.fromisoformat(r0["due_date"]) + dt.timedelta(days=30) <= last_day <= due + dt.timedelta(days=33)
    assert (due + dt.timedelta(days=days + 1) <= last_day) == (later["penalty_periods"] == 0)


@settings(max_examples=200, deadline=None)
@given(quarters, st.integers(min_value=0, max_value=40_000))
def test_cubic_feet_bill_as_the_same_water_in_gallons(quarter, units):
    # gallons are whole, so compare where the cubic feet make whole gallons: 231 cubic feet are 1,728 gallons
    cubic_feet = units * 231
    by_cf = charge(quarter, "water-cubic-feet", cubic_feet)
    gallons = Decimal(cubic_feet) * Decimal(1728) / Decimal(231)
    assert gallons == gallons.to_integral_value()
    by_gal = charge(quarter, "water-gallons", gallons.quantize(Decimal(1)))
    assert by_cf["charge"] == by_gal["charge"]
