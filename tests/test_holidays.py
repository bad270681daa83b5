"""New York's public holidays (rules/holidays.yaml, GCL § 24), worked out once per year and
language: the engine asks for them for every bill's penalty date."""
import copy
import datetime as dt

from calculator.core import dates
from calculator.core.i18n import localized, speaking
from calculator.core.rules import load


def test_a_sunday_holiday_moves_to_monday_in_the_language_asked_for_each_time():
    rules = load()
    assert dates.public_holidays(rules, 2027)[dt.date(2027, 7, 5)] == "Independence Day (observed)"
    with speaking("es"):
        spanish = dates.public_holidays(localized(rules), 2027)[dt.date(2027, 7, 5)]
    assert spanish.endswith("(feriado trasladado)") and "observed" not in spanish  # issue 22: not "día observado"
    assert dates.public_holidays(rules, 2027)[dt.date(2027, 7, 5)] == "Independence Day (observed)"  # not the Spanish


def test_a_year_is_worked_out_once_and_other_rules_get_their_own_answer():
    rules = load()
    assert dates.public_holidays(rules, 2028) is dates.public_holidays(rules, 2028)
    other = copy.deepcopy(rules)
    other["holidays"]["sunday_moves_to_monday"] = False
    assert dt.date(2027, 7, 5) in dates.public_holidays(rules, 2027)
    assert dt.date(2027, 7, 5) not in dates.public_holidays(other, 2027)
    assert dates.not_business_day(other, dt.date(2027, 7, 5)) is None  # an ordinary Monday under those rules
