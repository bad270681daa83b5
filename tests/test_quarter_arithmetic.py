"""The engine's calendar arithmetic, case by case: the billing quarter a day falls in, the
first quarter billed at a rate that takes effect on a day (rents.H: bills go out in advance at
the rate in force on the quarter's first day, so a schedule effective April 1 starts with the
quarter of April 1, and one effective April 2 with July's), a quarter's first and last day, and
months added to a day (the penalty's periods, rents.F). Every expected value is written out."""
import copy
import datetime as dt

import pytest

from calculator.core.dates import (add_months, due_date, first_quarter_from, next_quarter_due, quarter_of, quarter_period,
                              quarter_words, quarters_offered)
from calculator.core.rules import load

RULES = load()
D = dt.date.fromisoformat

# month: its quarter
QUARTER_OF_MONTH = {1: 1, 2: 1, 3: 1, 4: 2, 5: 2, 6: 2, 7: 3, 8: 3, 9: 3, 10: 4, 11: 4, 12: 4}


@pytest.mark.parametrize("month", range(1, 13))
def test_the_quarter_of_each_month_on_its_first_and_last_day(month):
    first, last = dt.date(2027, month, 1), add_months(dt.date(2027, month, 1), 1) - dt.timedelta(days=1)
    assert quarter_of(first) == (2027, QUARTER_OF_MONTH[month])
    assert quarter_of(last) == (2027, QUARTER_OF_MONTH[month])


@pytest.mark.parametrize("day, quarter", [
    ("2027-01-01", (2027, 1)),   # a quarter's first day: that quarter
    ("2027-01-02", (2027, 2)),   # the day after: the next one
    ("2027-03-31", (2027, 2)),
    ("2027-04-01", (2027, 2)),   # rents.H: a schedule effective April 1 bills April's quarter
    ("2027-04-02", (2027, 3)),
    ("2027-06-30", (2027, 3)),
    ("2027-07-01", (2027, 3)),
    ("2027-07-15", (2027, 4)),
    ("2027-10-01", (2027, 4)),
    ("2027-10-02", (2028, 1)),   # across the year's end
    ("2027-12-31", (2028, 1)),
])
def test_the_first_quarter_billed_at_a_rate_effective_on_a_day(day, quarter):
    assert first_quarter_from(D(day)) == quarter


@pytest.mark.parametrize("q, first, last", [(1, "2028-01-01", "2028-03-31"), (2, "2028-04-01", "2028-06-30"),
                                            (3, "2028-07-01", "2028-09-30"), (4, "2028-10-01", "2028-12-31")])
def test_a_quarters_first_and_last_day(q, first, last):
    assert quarter_period(2028, q) == (D(first), D(last))


def test_a_quarter_in_words_names_its_first_and_last_month():
    assert quarter_words(2027, 1) == "January–March 2027"
    assert quarter_words(2027, 4) == "October–December 2027"


@pytest.mark.parametrize("day, months, result", [
    ("2027-02-17", 0, "2027-02-17"),
    ("2027-02-17", 3, "2027-05-17"),
    ("2027-02-17", 10, "2027-12-17"),    # still in the year: month 12, not month 0
    ("2027-02-17", 11, "2028-01-17"),    # the first month of the next year
    ("2027-11-16", 3, "2028-02-16"),
    ("2027-02-17", 24, "2029-02-17"),    # two years: the count of penalty periods two years late
    ("2027-02-17", 27, "2029-05-17"),
    ("2027-02-17", 36, "2030-02-17"),
    ("2027-01-31", 1, "2027-02-28"),     # no February 31: the month's last day
    ("2028-01-31", 1, "2028-02-29"),     # a leap year
    ("2027-08-31", 3, "2027-11-30"),
    ("2027-05-31", 1, "2027-06-30"),
    ("2027-03-31", -1, "2027-02-28"),
])
def test_months_added_to_a_day(day, months, result):
    assert add_months(D(day), months) == D(result)


@pytest.mark.parametrize("q, due", [(1, "2027-01-15"), (2, "2027-04-15"), (3, "2027-07-15"), (4, "2027-10-15")])
def test_each_quarters_due_date(q, due):
    assert due_date(RULES, 2027, q) == D(due)


@pytest.mark.parametrize("today, quarter", [("2027-01-15", "2027-Q1"), ("2027-01-16", "2027-Q2"),
                                            ("2027-10-15", "2027-Q4"), ("2027-10-16", "2028-Q1"),
                                            ("2026-12-31", "2027-Q1")])
def test_the_quarter_whose_bill_falls_due_next(today, quarter):
    assert next_quarter_due(RULES, D(today)) == quarter


def test_the_quarters_offered_run_from_the_first_schedule_to_the_end_of_next_year():
    out = quarters_offered(RULES, D("2026-11-30"))
    names = [q["quarter"] for q in out["quarters"]]
    assert names == [f"{y}-Q{q}" for y in (2025, 2026, 2027) for q in (1, 2, 3, 4)]
    assert out["next_due"] == "2027-Q1" and out["today"] == "2026-11-30" and out["command"] == "quarters"
    q3 = out["quarters"][6]
    assert q3 == {"quarter": "2026-Q3", "words": "July–September 2026", "due_date": "2026-07-15",
                  # the menu's option: the bill by the month it is due and the water it charges for, in few words
                  "choice": "Bill due Jul 2026 (water Apr–Jun)",
                  "period_start": "2026-07-01", "period_end": "2026-09-30",
                  # the choice's label: its due date and the water it charges for, as the site reads rents.H (issue 34)
                  "water_words": "April–June 2026",
                  "label": "Due July 15, 2026 (for water used April–June 2026)"}
    assert out["quarters"][8]["water_words"] == "October–December 2026"  # 2027-Q1: the year before's last quarter
    # the bill due in January 2027 is the one a person with water used October–December 2026 is looking for
    assert out["quarters"][8]["choice"] == "Bill due Jan 2027 (water Oct–Dec)"


def test_a_schedule_effective_mid_quarter_offers_quarters_from_the_next_one():
    rules = copy.deepcopy(RULES)
    rules["schedules"][0]["effective"] = "2025-02-01"
    names = [q["quarter"] for q in quarters_offered(rules, D("2025-03-01"))["quarters"]]
    assert names[0] == "2025-Q2" and names[-1] == "2026-Q4"


def test_a_proposed_schedule_does_not_open_earlier_quarters():
    rules = copy.deepcopy(RULES)
    rules["schedules"] = [dict(rules["schedules"][0], id="2024-proposed", status="proposed", effective="2024-01-01"),
                          *rules["schedules"]]
    assert quarters_offered(rules, D("2026-11-30"))["quarters"][0]["quarter"] == "2025-Q1"


def _with_proposed(effective: str) -> dict:
    rules = copy.deepcopy(RULES)
    rules["schedules"] = [*rules["schedules"], dict(
        rules["schedules"][0], id="2027-proposed", title="Proposed 2027", status="proposed", effective=effective,
        vc_per_1000_gallons="12.00", sewage_fraction="0.75")]
    return rules


def test_the_same_bill_under_the_schedule_proposed_for_its_quarter():
    """rents.H: a quarter is billed at the rate in force on its first day, so a schedule proposed
    from that day is the one the quarter's bill would have if adopted (the estimate shows it beside
    the bill in force). 12,000 gallons x 0.75 = 9,000 gallons x $12.00 / 1,000 = $108.00; paid
    March 1, 2027, after the first penalty date (February 17): one period, 15% = $16.20."""
    from calculator.bills import bill
    rules = _with_proposed("2027-01-01")
    usage = {"water-gallons": "12000"}
    now = bill.compute(rules, "2027-Q1", usage, "2027-03-01")
    assert (now["charge"], now["penalty"], now["schedule"]["id"]) == ("96.00", "14.40", "2025-illustrative")
    alongside = bill.proposed_alongside(rules, now, usage, "2027-03-01")
    assert {k: alongside[k] for k in ("quarter", "charge", "minimum_charge", "penalty_periods", "penalty", "total")} == {
        "quarter": "2027-Q1", "charge": "108.00", "minimum_charge": "72.00", "penalty_periods": 1, "penalty": "16.20",
        "total": "124.20"}
    assert alongside["schedule"] == {
        "id": "2027-proposed", "title": "Proposed 2027", "status": "proposed", "effective": "2027-01-01",
        "vc_per_1000_gallons": "12.00", "sewage_fraction": "0.75",
        "label": "PROPOSED — not yet adopted by the Town Board; it may change."}
    assert bill.proposed_alongside(rules, now, usage, None)["penalty"] == "0.00"


def test_a_schedule_proposed_from_after_a_quarters_first_day_is_not_that_quarters():
    from calculator.bills import bill
    rules = _with_proposed("2027-02-01")
    now = bill.compute(rules, "2027-Q1", {"water-gallons": "12000"})
    assert bill.proposed_alongside(rules, now, {"water-gallons": "12000"}, None) is None
    assert bill.proposed_alongside(RULES, now, {"water-gallons": "12000"}, None) is None


@pytest.mark.parametrize("today", ["2024-10-01", "2024-02-29", "1999-06-01", "1900-01-01"])
def test_before_the_first_schedule_the_next_bill_is_its_first_quarter(today):
    """The third hostile tester: on 2024-10-01 the next bill due was said to be 2025-Q4 (the last offered),
    and on 1999-06-01 the command failed (IndexError). The first schedule takes effect on 2025-01-01."""
    from calculator.core.dates import quarters_offered
    offered = quarters_offered(RULES, dt.date.fromisoformat(today))
    assert offered["next_due"] == "2025-Q1" and offered["quarters"][0]["quarter"] == "2025-Q1"
