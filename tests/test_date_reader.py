"""The engine's one date reader (calculator/core/dates.py read_date), as the estimate page and the command line
use it: year-month-day, or slashed as people write dates, in the order of the reader's language (issue 34)."""
import datetime as dt
import json

import pytest

from calculator.cli import run_json
from calculator.core.dates import read_date
from calculator.core.errors import InputError
from calculator.core.i18n import speaking

WHAT = "The payment date (⟦paid-on⟧)"


@pytest.mark.parametrize("language,typed,day", [
    ("en", "2027-02-20", dt.date(2027, 2, 20)),
    ("en", "2/20/2027", dt.date(2027, 2, 20)),  # Rosa: month/day/year in English
    ("en", " 02/20/2027 ", dt.date(2027, 2, 20)),
    ("es", "20/02/2027", dt.date(2027, 2, 20)),  # Doña Carmen: day/month/year in Spanish
    ("es", "20/2/2027", dt.date(2027, 2, 20)),
    ("en", "4/4/2027", dt.date(2027, 4, 4)),  # the same day whichever order: nothing to ask
])
def test_a_date_in_the_readers_order_is_read_without_a_note(language, typed, day):
    with speaking(language):
        assert read_date(typed, WHAT) == (day, None)


def test_a_date_only_the_other_order_makes_real_is_taken_and_said():
    with speaking("en"):
        assert read_date("20/02/2027", WHAT) == (dt.date(2027, 2, 20), "We read “20/02/2027” as February 20, 2027.")
    with speaking("es"):
        day, note = read_date("2/20/2027", WHAT)
    assert day == dt.date(2027, 2, 20) and note == "Entendimos «2/20/2027» como el 20 de febrero de 2027."  # typed: «…» in Spanish


@pytest.mark.parametrize("language,typed,words", [
    ("en", "3/4/2027", ["Did you mean March 4, 2027 or April 3, 2027?", "2027-03-04 for March 4, 2027",
                        "2027-04-03 for April 3, 2027"]),
    # the Spanish order first: 3/4 is 3 de abril there
    ("es", "3/4/2027", ["¿Quiso decir el 3 de abril de 2027 o el 4 de marzo de 2027?", "2027-04-03", "2027-03-04"]),
    ("en", "2/20/27", ["“2/20/27”", "a year of 2 digits", "Write the year in full"]),
    ("es", "20/2/27", ["«20/2/27»", "un año de 2 cifras"]),
    ("en", "31/31/2027", ["not a real date, whichever number is the month"]),
    ("en", "2027/02/20", ["not a date we can read", "3/15/2027"]),
    ("en", "2/30/2027", ["not a real date"]),
])
def test_a_date_that_could_be_two_or_none_is_asked_about_never_guessed(language, typed, words):
    with speaking(language), pytest.raises(InputError) as err:
        read_date(typed, WHAT)
    for w in words:
        assert w in str(err.value), str(err.value)


def test_the_page_and_the_command_line_share_the_reader_and_every_problem_is_said_at_once():
    base = ["bill", "--quarter", "2027-Q1"]
    answer = json.loads(run_json([*base, "--water-gallons", "9350", "--paid-on", "2/20/2027"]))
    assert answer["ok"] and answer["result"]["paid_on"] == "2027-02-20" and answer["result"]["total"] == "86.02"
    # issue 34, item 5: "9.350" and a date to ask about, both said in one answer, the suggestion kept
    answer = json.loads(run_json([*base, "--water-gallons", "9.350", "--paid-on", "3/4/2027"]))
    assert not answer["ok"]
    assert [p["field"] for p in answer["problems"]] == ["water-gallons", "paid-on"]
    assert answer["problems"][0]["suggest"] == "9350" and "Did you mean 9,350 gallons" in answer["problems"][0]["text"]
    assert "March 4, 2027 or April 3, 2027" in answer["problems"][1]["text"]
    # one problem is said as before, with no list
    one = json.loads(run_json([*base, "--water-gallons", "9350", "--paid-on", "3/4/2027"]))
    assert one["field"] == "paid-on" and "problems" not in one


def test_if_you_pay_later_gives_the_next_three_penalty_periods():
    r = json.loads(run_json(["bill", "--quarter", "2027-Q1", "--water-gallons", "9350"]))["result"]
    assert r["if_later"] == [
        {"from": "2027-02-17", "periods": 1, "penalty": "11.22", "total": "86.02"},
        {"from": "2027-05-17", "periods": 2, "penalty": "22.44", "total": "97.24"},
        {"from": "2027-08-17", "periods": 3, "penalty": "33.66", "total": "108.46"}]
    assert r["if_late"]["text"].startswith("Due January 15, 2027. Last day before a late penalty: Tuesday, February 16")
