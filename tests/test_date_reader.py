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


def test_year_month_day_is_read_without_a_note():
    for language in ("en", "es"):
        with speaking(language):
            assert read_date("2027-02-20", WHAT) == (dt.date(2027, 2, 20), None)


@pytest.mark.parametrize("language,typed,day,note", [
    ("en", "2/20/2027", dt.date(2027, 2, 20), "We read “2/20/2027” as February 20, 2027."),  # Rosa: month/day/year
    ("en", " 02/20/2027 ", dt.date(2027, 2, 20), "We read “02/20/2027” as February 20, 2027."),
    # the page's order, always, never asked (the outside test public-personas2: the hint says "3/15/2027", and
    # 2/3/2027 and 12/6/2026 were asked about or refused); said back in words, so the other order would show
    ("en", "2/3/2027", dt.date(2027, 2, 3), "We read “2/3/2027” as February 3, 2027."),
    ("en", "12/6/2026", dt.date(2026, 12, 6), "We read “12/6/2026” as December 6, 2026."),
    ("en", "2-3-2027", dt.date(2027, 2, 3), "We read “2-3-2027” as February 3, 2027."),  # dashed like slashed
    ("en", "4/4/2027", dt.date(2027, 4, 4), "We read “4/4/2027” as April 4, 2027."),
    ("es", "20/02/2027", dt.date(2027, 2, 20), "Entendimos «20/02/2027» como el 20 de febrero de 2027."),  # Doña Carmen
    ("es", "20/2/2027", dt.date(2027, 2, 20), "Entendimos «20/2/2027» como el 20 de febrero de 2027."),
    ("es", "2/3/2027", dt.date(2027, 3, 2), "Entendimos «2/3/2027» como el 2 de marzo de 2027."),
    ("es", "20-02-2027", dt.date(2027, 2, 20), "Entendimos «20-02-2027» como el 20 de febrero de 2027."),
])
def test_a_slashed_or_dashed_date_is_read_in_the_pages_order_and_said_back(language, typed, day, note):
    with speaking(language):
        assert read_date(typed, WHAT) == (day, note)


@pytest.mark.parametrize("language,typed,day", [
    # the Spanish reviewer spanish8, #6: «20 de febrero de 2027» was refused; the month named is never ambiguous
    ("es", "20 de febrero de 2027", dt.date(2027, 2, 20)),
    ("es", "20 febrero 2027", dt.date(2027, 2, 20)),
    ("es", "20 de Febrero del 2027", dt.date(2027, 2, 20)),
    ("es", "1º de marzo de 2027", dt.date(2027, 3, 1)),
    ("es", "martes 16 de febrero de 2027", dt.date(2027, 2, 16)),  # as the site's own answers write it
    ("es", "5 dic. 2027", dt.date(2027, 12, 5)),
    ("es", "20 de setiembre de 2027", dt.date(2027, 9, 20)),
    ("en", "February 20, 2027", dt.date(2027, 2, 20)),
    ("en", "Tuesday, February 16, 2027", dt.date(2027, 2, 16)),
    ("en", "20 Feb 2027", dt.date(2027, 2, 20)),
    ("en", "Sept. 3 2027", dt.date(2027, 9, 3)),
    ("es", "March 15, 2027", dt.date(2027, 3, 15)),  # English month names are read on a Spanish page too
])
def test_a_date_with_the_months_name_is_read_without_a_note(language, typed, day):
    with speaking(language):
        assert read_date(typed, WHAT) == (day, None)


@pytest.mark.parametrize("language,typed,words", [
    ("es", "31 de febrero de 2027", ["«31 de febrero de 2027»", "esa fecha no existe"]),
    ("es", "20 de ma de 2027", ["no es una fecha que podamos leer"]),  # "ma": marzo or mayo? not guessed
    ("es", "20 de febrero", ["no es una fecha que podamos leer"]),     # no year
    ("en", "February 30, 2027", ["there is no such date"]),
    ("en", "20 de febrero de 2027", ["not a date we can read"]),       # Spanish names only on a Spanish page
])
def test_a_date_in_words_that_is_none_is_said_so(language, typed, words):
    with speaking(language), pytest.raises(InputError) as err:
        read_date(typed, WHAT)
    for w in words:
        assert w in str(err.value), str(err.value)


def test_a_date_only_the_other_order_makes_real_is_taken_and_said():
    with speaking("en"):
        assert read_date("20/02/2027", WHAT) == (dt.date(2027, 2, 20), "We read “20/02/2027” as February 20, 2027.")
    with speaking("es"):
        day, note = read_date("2/20/2027", WHAT)
    assert day == dt.date(2027, 2, 20) and note == "Entendimos «2/20/2027» como el 20 de febrero de 2027."  # typed: «…» in Spanish


@pytest.mark.parametrize("language,typed,words", [
    ("en", "2/20-2027", ["not a date we can read"]),  # one separator, used twice
    ("es", "32-13-2027", ["no existe, ni como día/mes/año ni como mes/día/año"]),
    ("en", "2/20/27", ["“2/20/27”", "a year of 2 digits", "Write the year in full"]),
    ("es", "20/2/27", ["«20/2/27»", "un año de 2 cifras"]),
    ("en", "31/31/2027", ["not a real date, whichever number is the month"]),
    ("en", "2027/02/20", ["not a date we can read", "3/15/2027"]),
    ("en", "2/30/2027", ["not a real date"]),
])
def test_a_date_with_a_short_year_or_none_real_is_asked_about_never_guessed(language, typed, words):
    with speaking(language), pytest.raises(InputError) as err:
        read_date(typed, WHAT)
    for w in words:
        assert w in str(err.value), str(err.value)


@pytest.mark.parametrize("typed,day", [
    ("２０２５-１１-１５", dt.date(2025, 11, 15)),   # fullwidth
    ("٢٠٢٥-١١-١٥", dt.date(2025, 11, 15)),           # Arabic-Indic
    ("２０２５－１１－１５", dt.date(2025, 11, 15)),  # fullwidth dashes too
    ("١١/١٥/٢٠٢٥", dt.date(2025, 11, 15)),
])
def test_a_date_in_another_scripts_digits_is_read_as_a_number_is(typed, day):
    """The ninth hostile tester (F3): `--paid-on ２０２５-１１-１５` was "written correctly, but there is no
    such date". Its digits are read as a usage number's are; digits of two kinds are refused, as in a number."""
    with speaking("en"):
        assert read_date(typed, WHAT)[0] == day
        with pytest.raises(InputError) as err:
            read_date("２０25-11-15", WHAT)
    assert "mixes digits of different kinds. Write the date with the digits 0 to 9 only" in str(err.value)
    assert "no such date" not in str(err.value)


def test_the_page_and_the_command_line_share_the_reader_and_every_problem_is_said_at_once():
    base = ["bill", "--quarter", "2027-Q1"]
    answer = json.loads(run_json([*base, "--water-gallons", "9350", "--paid-on", "2/20/2027"]))
    assert answer["ok"] and answer["result"]["paid_on"] == "2027-02-20" and answer["result"]["total"] == "86.02"
    assert answer["result"]["paid_read"] == "We read “2/20/2027” as February 20, 2027."
    # the command line reads 2/3/2027 as the English page does: February 3, said back (public-personas2)
    answer = json.loads(run_json([*base, "--water-gallons", "9350", "--paid-on", "2/3/2027"]))
    assert answer["ok"] and answer["result"]["paid_on"] == "2027-02-03"
    assert answer["result"]["paid_read"] == "We read “2/3/2027” as February 3, 2027."
    # issue 34, item 5: "9.350" and a date that is none, both said in one answer, the suggestion kept
    answer = json.loads(run_json([*base, "--water-gallons", "9.350", "--paid-on", "2/30/2027"]))
    assert not answer["ok"]
    assert [p["field"] for p in answer["problems"]] == ["water-gallons", "paid-on"]
    assert answer["problems"][0]["suggest"] == "9350" and "Did you mean 9,350 gallons" in answer["problems"][0]["text"]
    assert "not a real date" in answer["problems"][1]["text"]
    # one problem is said as before, with no list
    one = json.loads(run_json([*base, "--water-gallons", "9350", "--paid-on", "2/30/2027"]))
    assert one["field"] == "paid-on" and "problems" not in one


def test_both_meter_readings_and_the_date_are_said_in_one_answer():
    """The usability test public10 (Doña Carmen): "120.500", "132.500" and "20/02/27" took three tries, one
    problem a try. All three come in one answer now, each with the value it suggests to take with one tap."""
    answer = json.loads(run_json(["bill", "--quarter", "2027-Q1", "--lang", "es", "--meter", "water-gallons",
                                  "--previous-reading", "120.500", "--current-reading", "132.500",
                                  "--paid-on", "20/02/27"]))
    assert not answer["ok"]
    assert [p["field"] for p in answer["problems"]] == ["previous-reading", "current-reading", "paid-on"]
    assert [p["suggest"] for p in answer["problems"]] == ["120500", "132500", "20/02/2027"]
    assert "¿Quiso decir 120,500" in answer["problems"][0]["text"]
    assert "un año de 2 cifras" in answer["problems"][2]["text"]
    # one reading missing and the other fine: that one problem alone, as before
    one = json.loads(run_json(["bill", "--quarter", "2027-Q1", "--meter", "water-gallons",
                               "--previous-reading", "120500", "--current-reading", ""]))
    assert not one["ok"] and one["field"] == "current-reading" and "problems" not in one
    # the readings fine and the date wrong: the bill's own check says it
    late = json.loads(run_json(["bill", "--quarter", "2027-Q1", "--meter", "water-gallons",
                                "--previous-reading", "120500", "--current-reading", "132500",
                                "--paid-on", "2/30/2027"]))
    assert not late["ok"] and late["field"] == "paid-on"


@pytest.mark.parametrize("language,typed,full", [
    ("es", "20/02/27", "20/02/2027"), ("en", "2/20/27", "2/20/2027"), ("en", "2/20/027", None)])
def test_a_two_digit_year_offers_this_centurys_year_and_never_takes_it_unasked(language, typed, full):
    with speaking(language), pytest.raises(InputError) as err:
        read_date(typed, WHAT)
    assert err.value.suggest == full


def test_if_you_pay_later_gives_the_next_three_penalty_periods():
    r = json.loads(run_json(["bill", "--quarter", "2027-Q1", "--water-gallons", "9350"]))["result"]
    assert r["if_later"] == [
        {"from": "2027-02-17", "periods": 1, "penalty": "11.22", "total": "86.02"},
        {"from": "2027-05-17", "periods": 2, "penalty": "22.44", "total": "97.24"},
        {"from": "2027-08-17", "periods": 3, "penalty": "33.66", "total": "108.46"}]
    assert r["if_late"]["text"].startswith("Due January 15, 2027. Last day before a late penalty: Tuesday, February 16")


def test_the_page_and_the_command_line_read_a_date_in_words_and_a_spaced_amount_alike():
    """spanish8, #6 and #32, through the one entry the page's worker and the command line share (run_json)."""
    base = ["bill", "--quarter", "2027-Q1", "--lang", "es"]
    answer = json.loads(run_json([*base, "--water-gallons", "9350", "--paid-on", "20 de febrero de 2027"]))
    assert answer["ok"] and answer["result"]["paid_on"] == "2027-02-20" and answer["result"]["total"] == "86.02"
    answer = json.loads(run_json([*base, "--water-gallons", "9 350", "--paid-on", "20 de febrero de 2027"]))
    assert not answer["ok"] and answer["field"] == "water-gallons" and answer.get("suggest") == "9350"
    assert answer["error"].startswith("¿Quiso decir 9,350 galones (nueve mil trescientos cincuenta)? Si es así, "
                                      "escriba 9350."), answer


@pytest.mark.parametrize("typed, said", [
    ("abc", "La fecha de pago, «abc», no es una fecha que podamos leer."),
    ("31/02/2027", "La fecha de pago, «31/02/2027», no existe"),
    ("2/3/27", "La fecha de pago, «2/3/27», tiene un año de 2 cifras."),
])
def test_the_payment_date_messages_have_one_pattern_in_spanish(typed, said):
    # one pattern (spanish9, #10): «La fecha de pago, «…», …», set off by commas in every message (spanish13, F-1:
    # two quotations side by side with no comma ran together, and a screen reader ran them together)
    from calculator.core.dates import read_date
    from calculator.core.errors import InputError
    from calculator.core.i18n import speaking
    with speaking("es"), pytest.raises(InputError) as caught:
        read_date(typed, "The payment date (⟦paid-on⟧)")
    shown = str(caught.value).replace(" (⟦paid-on⟧)", "")  # as the page shows it, beside its box
    assert shown.startswith(said), shown
