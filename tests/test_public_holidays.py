"""New York's public holidays, year by year, as NY General Construction Law § 24 states them
(chapter 249 of the laws of 2020): "the first day of January, known as New Year's day; the third
Monday of January, known as Dr. Martin Luther King, Jr. day; the twelfth day of February, known as
Lincoln's birthday; the third Monday in February, known as Washington's birthday; the last Monday in
May, known as Memorial day; the second Sunday in June, known as Flag day; the nineteenth day of June,
known as Juneteenth; the fourth day of July, known as Independence day; the first Monday in
September, known as Labor day; the second Monday in October, known as Columbus day; the eleventh
day of November, known as Veterans' day; the fourth Thursday in November, known as Thanksgiving day;
and the twenty-fifth day of December, known as Christmas day, and if any of such days except flag day
is Sunday, the next day thereafter; each general election day" (the Tuesday after the first Monday
in November, NY Election Law § 8-100).

The dates below are written out from a calendar, one by one, not computed by the engine: a
holiday a day late, Memorial Day a week early, Election Day on the first Tuesday, or a Sunday
holiday observed on the Saturday before would each change a last day to pay."""
import datetime as dt

import pytest

from calculator.core.dates import next_business_day, not_business_day, public_holidays
from calculator.core.rules import load

RULES = load()

# year: every day that is a public holiday, with the Monday after a Sunday holiday (not Flag Day)
STATUTE = {
    2026: {
        "01-01": "New Year's Day",            # Thursday
        "01-19": "Martin Luther King",        # third Monday of January
        "02-12": "Lincoln",                   # Thursday
        "02-16": "Washington",                # third Monday of February
        "05-25": "Memorial Day",              # last Monday of May
        "06-14": "Flag Day",                  # second Sunday of June
        "06-19": "Juneteenth",                # Friday
        "07-04": "Independence Day",          # Saturday: not moved (only Sunday moves)
        "09-07": "Labor Day",                 # first Monday of September
        "10-12": "Columbus Day",              # second Monday of October
        "11-03": "General Election Day",      # Nov 2 is the first Monday
        "11-11": "Veterans",                  # Wednesday
        "11-26": "Thanksgiving",              # fourth Thursday of November
        "12-25": "Christmas",                 # Friday
    },
    2027: {
        "01-01": "New Year's Day",            # Friday
        "01-18": "Martin Luther King",
        "02-12": "Lincoln",                   # Friday
        "02-15": "Washington",
        "05-31": "Memorial Day",              # May has five Mondays: the last, not the fourth
        "06-13": "Flag Day",
        "06-19": "Juneteenth",                # Saturday: not moved
        "07-04": "Independence Day",          # Sunday ...
        "07-05": "Independence Day (observed)",  # ... so the Monday after
        "09-06": "Labor Day",
        "10-11": "Columbus Day",
        "11-02": "General Election Day",      # Nov 1 is the first Monday
        "11-11": "Veterans",                  # Thursday
        "11-25": "Thanksgiving",
        "12-25": "Christmas",                 # Saturday: not moved
    },
    2028: {
        "01-01": "New Year's Day",            # Saturday: not moved
        "01-17": "Martin Luther King",
        "02-12": "Lincoln",                   # Saturday
        "02-21": "Washington",
        "05-29": "Memorial Day",
        "06-11": "Flag Day",
        "06-19": "Juneteenth",                # Monday
        "07-04": "Independence Day",          # Tuesday
        "09-04": "Labor Day",
        "10-09": "Columbus Day",
        "11-07": "General Election Day",      # Nov 6 is the first Monday
        "11-11": "Veterans",                  # Saturday
        "11-23": "Thanksgiving",
        "12-25": "Christmas",                 # Monday
    },
    2029: {
        "01-01": "New Year's Day",            # Monday
        "01-15": "Martin Luther King",
        "02-12": "Lincoln",                   # Monday
        "02-19": "Washington",
        "05-28": "Memorial Day",
        "06-10": "Flag Day",
        "06-19": "Juneteenth",                # Tuesday
        "07-04": "Independence Day",          # Wednesday
        "09-03": "Labor Day",
        "10-08": "Columbus Day",
        "11-06": "General Election Day",      # Nov 5 is the first Monday
        "11-11": "Veterans",                  # Sunday ...
        "11-12": "Veterans' Day (observed)",  # ... so the Monday after
        "11-22": "Thanksgiving",
        "12-25": "Christmas",                 # Tuesday
    },
    2030: {
        "01-01": "New Year's Day",            # Tuesday
        "01-21": "Martin Luther King",
        "02-12": "Lincoln",                   # Tuesday
        "02-18": "Washington",
        "05-27": "Memorial Day",
        "06-09": "Flag Day",
        "06-19": "Juneteenth",                # Wednesday
        "07-04": "Independence Day",          # Thursday
        "09-02": "Labor Day",
        "10-14": "Columbus Day",
        "11-05": "General Election Day",      # Nov 4 is the first Monday
        "11-11": "Veterans",                  # Monday
        "11-28": "Thanksgiving",
        "12-25": "Christmas",                 # Wednesday
    },
}


@pytest.mark.parametrize("year", sorted(STATUTE))
def test_the_holidays_of_a_year_are_the_statutes(year):
    got = {day.strftime("%m-%d"): name for day, name in public_holidays(RULES, year).items()}
    assert sorted(got) == sorted(STATUTE[year])
    for md, name in STATUTE[year].items():
        assert name.split(" (")[0] in got[md], (year, md, got[md])
        assert ("(observed)" in got[md]) == ("(observed)" in name), (year, md, got[md])


@pytest.mark.parametrize("year", sorted(STATUTE))
def test_every_holiday_is_not_a_business_day_and_the_day_before_and_after_are_named_rightly(year):
    for md in STATUTE[year]:
        day = dt.date.fromisoformat(f"{year}-{md}")
        assert not_business_day(RULES, day), day
        for other in (day - dt.timedelta(days=1), day + dt.timedelta(days=1)):
            if other.year == year and other.strftime("%m-%d") not in STATUTE[year] and other.weekday() < 5:
                assert not_business_day(RULES, other) is None, other


def test_flag_day_is_never_moved_to_the_monday():
    for year in STATUTE:
        flag = next(dt.date.fromisoformat(f"{year}-{md}") for md, n in STATUTE[year].items() if n == "Flag Day")
        assert flag.weekday() == 6                                   # always a Sunday
        assert not_business_day(RULES, flag + dt.timedelta(days=1)) is None  # the Monday after is a working day


def test_election_day_is_the_tuesday_after_the_first_monday_not_the_first_tuesday():
    # November 1, 2033 and 2022 are Tuesdays: the first Monday is November 7, so Election Day is the 8th
    for year in (2022, 2033):
        days = {d for d, name in public_holidays(RULES, year).items() if "Election" in name}
        assert days == {dt.date(year, 11, 8)}, (year, days)
        assert not_business_day(RULES, dt.date(year, 11, 1)) is None


def test_weekends_and_holidays_are_named_and_the_next_business_day_skips_them():
    assert not_business_day(RULES, dt.date(2027, 2, 13)) == "Saturday"
    assert not_business_day(RULES, dt.date(2027, 2, 14)) == "Sunday"
    assert "Washington" in not_business_day(RULES, dt.date(2027, 2, 15))
    assert next_business_day(RULES, dt.date(2027, 2, 13)) == dt.date(2027, 2, 16)  # Sat, Sun, holiday Monday
    assert next_business_day(RULES, dt.date(2027, 2, 16)) == dt.date(2027, 2, 16)  # already one
    assert next_business_day(RULES, dt.date(2029, 11, 10)) == dt.date(2029, 11, 13)  # Sat, Sun, observed Monday
    assert next_business_day(RULES, dt.date(2027, 12, 25)) == dt.date(2027, 12, 27)  # Saturday Christmas: not moved


def test_a_last_weekday_holiday_on_any_weekday_falls_in_the_months_last_week():
    # Memorial Day is the only "last" holiday in the rules and it is a Monday (weekday 0), for which
    # "+ want" and "- want" agree: a Town's holiday on the last Friday of a month tells them apart.
    # November 2027 ends on a Tuesday (the 30th): its last Friday is the 26th, its last Tuesday the 30th;
    # May 2027 ends on a Monday (the 31st): its last Sunday is the 30th.
    from calculator.core.dates import _holiday_date
    assert _holiday_date(2027, {"month": 11, "weekday": "friday", "nth": "last"}) == dt.date(2027, 11, 26)
    assert _holiday_date(2027, {"month": 11, "weekday": "tuesday", "nth": "last"}) == dt.date(2027, 11, 30)
    assert _holiday_date(2027, {"month": 5, "weekday": "sunday", "nth": "last"}) == dt.date(2027, 5, 30)
    assert _holiday_date(2027, {"month": 5, "weekday": "monday", "nth": "last"}) == dt.date(2027, 5, 31)
