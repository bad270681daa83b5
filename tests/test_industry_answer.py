"""The major-contributing-industry answer (calculator/industry.py), whole: every key, every step's
provision, reading and figures, the field each refusal marks, and the law in force on the day that
matters (the start of the year asked about, or today). tests/cases/industry.yaml pins the outcomes
at the boundaries of pretreatment.E; this pins the rest of what the answer says.

pretreatment.E: a major contributing industry has (E.1) a flow of 50,000 gallons or more per
average workday, or (E.2) a flow greater than 5% of the flow carried by the municipal system, or
(E.3) a toxic pollutant in toxic amounts, or (E.4) a significant impact; it reports "on the
fifteenth day of the months of March, September and December or as otherwise prescribed by the
Sewer Inspector". Every expected value below is written out by hand."""
import datetime as dt

import pytest

from calculator import industry
from calculator.core.errors import InputError
from calculator.core.rules import load
from casebook import amended, with_readings

RULES = load()
D = dt.date.fromisoformat
FACILITIES = ["pretreatment.A.1", "pretreatment.A.2", "pretreatment.A.3"]
RIGHTS = [("pretreatment.A.5", None, {}), ("permits.D", None, {}),
          ("pretreatment.B", "industry-correction-time", {"days_at_most": 30}), ("pretreatment.D", None, {}),
          ("industrial-waste.B.1", None, {}), ("permits.C", None, {})]


def steps(answer_steps):
    return [(s["cite"], s.get("interpretation"), s["values"]) for s in answer_steps]






def test_a_major_industry_by_the_5_percent_test_with_one_fact_unanswered():
    # 30,001 / 600,000 = 5.0002%: greater than 5% (E.2); E.3 not answered; E.4 no
    out = industry.compute(RULES, "30001", "600000", None, False, 2027, today=dt.date(2026, 12, 6))
    assert {k: v for k, v in out.items() if k not in ("explanation", "obligations", "rights", "report_explained")} == {
        "command": "industry", "year": 2027, "report_dates_from": None, "determination": "major",
        "major_contributing_industry": True, "criteria_met": ["pretreatment.E.2"],
        "criteria_not_determined": ["pretreatment.E.3"],
        "facts_needed": ["whether the waste has a toxic pollutant in toxic amounts under Section 307(a) standards "
                         "(yes or no)"],
        "report_due": ["2027-03-15", "2027-09-15", "2027-12-15"], "report_dates_if_major": [],
        # the next report from today, whatever year is asked about: December 15, 2026, in 9 days, not the first
        # of 2027's (public12, L1: "Next report due: March 15, 2027 — in 99 days" for a major industry)
        "next_report": {"date": "2026-12-15", "days": 9, "if_major": False},
        "facilities_required": [], "facilities_if_deemed_necessary": [*FACILITIES, "pretreatment.A.4"],
        "correction_days_at_most": 30, "system_gallons_below": None, "system_gallons_below_words": None}
    assert [s["cite"] for s in out["report_explained"]] == ["pretreatment.E"]
    assert steps(out["explanation"]) == [
        ("pretreatment.E.1", None, {"average_workday_gallons": "30001", "met": False}),
        ("pretreatment.E.2", "industry-flow-share", {"share_percent": "5.00", "met": True}),
        ("pretreatment.E.3", None, {"met": None}),
        ("pretreatment.E.4", None, {"met": False}),
        ("pretreatment.E", None, {"report_due": ["2027-03-15", "2027-09-15", "2027-12-15"]})]
    assert out["explanation"][1]["text"] == ("30,001 gallons per average workday is more than 5% of the system's "
                                             "600,000 gallons a day (30,000 gallons).")
    assert "5.00%" not in out["explanation"][1]["text"] and "greater" not in out["explanation"][1]["text"]
    assert "must report under Section 307 on March 15, 2027, September 15, 2027 and December 15, 2027" in \
        out["explanation"][4]["text"]
    assert steps(out["obligations"]) == [
        ("pretreatment.E", None, {}),
        ("pretreatment.A", "pretreatment-facilities",
         {"required": [], "if_deemed_necessary": [*FACILITIES, "pretreatment.A.4"]}),
        ("measurements", None, {}), ("industrial-waste.A", None, {}), ("pretreatment.C", None, {})]
    assert out["obligations"][0]["quote"].startswith("Notwithstanding any provisions of this chapter")
    assert "needs none until" in out["obligations"][1]["text"]
    assert steps(out["rights"]) == RIGHTS


def test_the_5_percent_test_not_met_and_e1_met_at_its_threshold():
    # 50,000 a workday (E.1: "50,000 gallons or more"); 50,000 / 2,000,000 = 2.5%
    out = industry.compute(RULES, "50000", "2000000", True, True, 2027)
    assert out["criteria_met"] == ["pretreatment.E.1", "pretreatment.E.3", "pretreatment.E.4"]
    assert steps(out["explanation"])[:4] == [
        ("pretreatment.E.1", None, {"average_workday_gallons": "50000", "met": True}),
        ("pretreatment.E.2", "industry-flow-share", {"share_percent": "2.50", "met": False}),
        ("pretreatment.E.3", None, {"met": True}),
        ("pretreatment.E.4", None, {"met": True})]
    assert "is not more than 5% of the system's 2,000,000 gallons a day (100,000 gallons)" in out["explanation"][1]["text"]


def test_the_average_day_reading_compares_the_daily_flow():
    rules = with_readings({"industry-flow-share": "average-day"})
    over = industry.compute(rules, "10000", "600000", False, False, 2027, average_daily_gallons="36000")
    assert over["criteria_met"] == ["pretreatment.E.2"]
    assert steps(over["explanation"])[1] == ("pretreatment.E.2", "industry-flow-share",
                                             {"share_percent": "6.00", "met": True})
    assert "36,000 gallons on an average day" in over["explanation"][1]["text"]
    assert "is more than 5% of the system's" in over["explanation"][1]["text"]
    under = industry.compute(rules, "40000", "600000", False, False, 2027, average_daily_gallons="24000")
    assert under["determination"] == "not-major"
    assert "24,000 gallons on an average day" in under["explanation"][1]["text"]
    assert "is not more than 5% of the system's" in under["explanation"][1]["text"]
    # no daily flow: the 5% test waits for it, whatever the workday flow
    waiting = industry.compute(rules, "40000", "600000", False, False, 2027, average_daily_gallons="  ")
    assert waiting["criteria_not_determined"] == ["pretreatment.E.2"]
    assert waiting["facts_needed"] == [
        "the industry's average daily flow over all days of the year, in gallons"]


def test_not_determined_names_each_fact_still_needed():
    out = industry.compute(RULES, "1000", None, None, None, 2027)
    assert out["determination"] == "not-determined" and out["major_contributing_industry"] is None
    assert out["criteria_not_determined"] == ["pretreatment.E.2", "pretreatment.E.3", "pretreatment.E.4"]
    assert out["report_due"] == [] and out["criteria_met"] == []
    # the year's dates a major industry would have (public12, L3), and none without a year
    assert out["report_dates_if_major"] == ["2027-03-15", "2027-09-15", "2027-12-15"]
    assert industry.compute(RULES, "1000", None, None, None, None)["report_dates_if_major"] == []
    assert industry.compute(RULES, "60000", year=2027)["report_dates_if_major"] == []  # major: its report_due
    assert steps(out["explanation"]) == [
        ("pretreatment.E.1", None, {"average_workday_gallons": "1000", "met": False}),
        ("pretreatment.E.2", "industry-flow-share", {"met": None, "system_gallons_below": "20000.00"}),
        ("pretreatment.E.3", None, {"met": None}),
        ("pretreatment.E.4", None, {"met": None}),
        ("pretreatment.E", None, {"criteria_not_determined": ["pretreatment.E.2", "pretreatment.E.3",
                                                              "pretreatment.E.4"]})]
    assert "could not be decided" in out["explanation"][4]["text"]
    # the average-day reading with neither flow: both facts, in one sentence
    both = industry.compute(with_readings({"industry-flow-share": "average-day"}), "1000",
                            year=2027)
    assert both["facts_needed"][:2] == [
        "the flow carried by the municipal system receiving the waste, in gallons per day (the Sewer Inspector "
        "can tell you)", "the industry's average daily flow over all days of the year, in gallons"]
    assert "it needs the flow carried by the municipal system" in both["explanation"][1]["text"]
    assert " and the industry's average daily flow" in both["explanation"][1]["text"]


def test_not_major_when_all_four_are_decided_and_none_is_met():
    out = industry.compute(RULES, "1000", "600000", False, False, 2027)
    assert (out["determination"], out["major_contributing_industry"], out["report_due"]) == ("not-major", False, [])
    assert steps(out["explanation"])[4] == ("pretreatment.E", None, {})
    assert "None of the four criteria is met" in out["explanation"][4]["text"]


def test_without_a_year_the_next_report_dates_count_from_today():
    out = industry.compute(RULES, "60000", today="2027-09-15")
    assert out["year"] is None and out["report_dates_from"] == "2027-09-15"
    # on a report day itself, that day is still ahead
    assert out["report_due"] == ["2027-09-15", "2027-12-15", "2028-03-15"]
    assert steps(out["explanation"])[4] == ("pretreatment.E", None,
                                            {"report_due": ["2027-09-15", "2027-12-15", "2028-03-15"]})
    assert "Its next report dates are September 15, 2027, December 15, 2027 and March 15, 2028" in \
        out["explanation"][4]["text"]
    assert industry.compute(RULES, "60000", today=D("2027-09-16"))["report_due"] == [
        "2027-12-15", "2028-03-15", "2028-09-15"]
    assert industry.compute(RULES, "60000", year=" ", today="2027-09-16")["year"] is None


@pytest.mark.parametrize("word, answer", [
    ("yes", True), ("Yes", True), (" TRUE ", True), ("sí", True), ("Si", True), ("no", False), ("NO", False),
    ("false", False), ("", None), ("unknown", None), ("Unknown", None), (None, None), (True, True), (False, False)])
def test_yes_and_no_in_words(word, answer):
    """A caller in Python may answer E.3 and E.4 in words (English or Spanish), or leave them unanswered."""
    out = industry.compute(RULES, "1000", "600000", word, word, 2027)
    assert out["explanation"][2]["values"] == {"met": answer}
    assert out["explanation"][3]["values"] == {"met": answer}
    assert out["determination"] == {True: "major", False: "not-major", None: "not-determined"}[answer]


def test_an_answer_that_is_not_yes_or_no_is_refused():
    with pytest.raises(InputError, match="Answer yes or no, not “maybe”"):
        industry.compute(RULES, "1000", "600000", "maybe", None, 2027)


@pytest.mark.parametrize("kwargs, field, words", [
    (dict(average_workday_gallons="lots"), "average-workday-gallons", "flow per average workday"),
    (dict(average_workday_gallons="1000", system_gallons_per_day="-5"), "system-gallons-per-day", "system"),
    (dict(average_workday_gallons="1000", system_gallons_per_day="0"), "system-gallons-per-day",
     "must be more than 0, like 600000"),
    (dict(average_workday_gallons="1000", average_daily_gallons="x"), "average-daily-gallons", "average daily flow"),
    (dict(average_workday_gallons="1000", year="twenty"), "year", "The year must be a whole number"),
    (dict(average_workday_gallons="1000", year="2201"), "year", "The year 2201 is out of range"),
    (dict(average_workday_gallons="1000", year="1991"), "year", "The year 1991 is out of range"),
])
def test_each_refusal_marks_its_field(kwargs, field, words):
    with pytest.raises(InputError) as err:
        industry.compute(RULES, **kwargs)
    assert err.value.field == field and words in str(err.value)


def test_the_years_at_the_ends_of_the_range_are_taken():
    # the first year the law is on record (first_year, 1992) and 2200 are taken; 1991 and 2201 are refused
    from calculator.core.law import first_year
    first = first_year(RULES)
    assert industry.compute(RULES, "60000", year=first)["report_due"][0] == f"{first}-03-15"
    assert industry.compute(RULES, "60000", year="2200")["report_due"] == ["2200-03-15", "2200-09-15", "2200-12-15"]


def test_a_dated_threshold_and_share_apply_from_the_start_of_the_year_asked_about():
    # an amendment in force from January 2, 2028: the year 2028 is judged by the law of January 1
    lower = amended(RULES, "major-industry-workday-gallons", "2028-01-02", 40000)
    assert industry.compute(lower, "45000", "9000000", False, False, 2028, today="2028-06-01")["criteria_met"] == []
    assert industry.compute(lower, "45000", "9000000", False, False, 2029)["criteria_met"] == ["pretreatment.E.1"]
    assert industry.compute(lower, "45000", "9000000", False, False, today="2028-06-01")["criteria_met"] == [
        "pretreatment.E.1"]
    smaller = amended(RULES, "major-industry-system-flow-share", "2028-01-02", "0.04")
    # 29,000 / 600,000 = 4.83%: not greater than 5%, greater than 4%
    assert industry.compute(smaller, "29000", "600000", False, False, 2028, today="2028-06-01")["criteria_met"] == []
    assert industry.compute(smaller, "29000", "600000", False, False, today="2028-06-01")["criteria_met"] == [
        "pretreatment.E.2"]


def test_dated_report_dates_are_those_in_force_on_the_years_first_day():
    rules = amended(RULES, "industry-report-due-dates", "2028-01-02", ["06-15", "11-15"])
    assert industry.report_dates(rules, 2028) == [D("2028-03-15"), D("2028-09-15"), D("2028-12-15")]
    assert industry.report_dates(rules, 2029) == [D("2029-06-15"), D("2029-11-15")]
    # from a day: each year's own dates, as many as that day's law has
    assert industry.report_dates(rules, today=D("2028-01-01")) == [D("2028-03-15"), D("2028-09-15"),
                                                                     D("2028-12-15")]
    assert industry.report_dates(rules, today=D("2028-10-01")) == [D("2028-12-15"), D("2029-06-15")]


@pytest.mark.parametrize("reading, determination, required", [
    ("every-industry", "not-major", FACILITIES), ("major-industries", "major", FACILITIES),
    ("major-industries", "not-major", []), ("major-industries", "not-determined", []),
    ("where-deemed-necessary", "major", [])])
def test_the_pretreatment_facilities_under_each_reading(reading, determination, required):
    rules = with_readings({"pretreatment-facilities": reading})
    conditional = ["pretreatment.A.4"] if required else [*FACILITIES, "pretreatment.A.4"]
    assert industry.facilities(rules, determination) == (required, conditional)
    flow = {"major": "60000", "not-major": "1000", "not-determined": "1000"}[determination]
    answers = (None, None) if determination == "not-determined" else (False, False)
    out = industry.compute(rules, flow, "600000", *answers, 2027)
    assert (out["facilities_required"], out["facilities_if_deemed_necessary"]) == (required, conditional)
    assert out["obligations"][1]["values"] == {"required": required, "if_deemed_necessary": conditional}
    assert ("must build a control manhole" if required else "needs none until") in out["obligations"][1]["text"]


def test_the_correction_time_says_what_the_industry_section_says_and_labels_the_cap_a_reading():
    # the usability test (Linda): "at most 30 days" was stated as her right; pretreatment.B says only
    # "a reasonable time", and the cap comes from permits.C.1, so the answer says both and whose the cap is
    text = industry.compute(RULES, "1000", "600000", False, False, 2027)["rights"][2]["text"]
    assert 'says it gives "a reasonable time" to put it right, and names no number of days' in text
    assert "This site's reading: the limit of at most 30 days in" in text
    assert "ask the Sewer Inspector how long you have" in text
    assert text.index("a reasonable time") < text.index("at most 30 days")


def test_the_correction_time_under_the_reading_with_no_maximum():
    rules = with_readings({"industry-correction-time": "reasonable-time-only"})
    out = industry.compute(rules, "1000", "600000", False, False, 2027)
    assert out["correction_days_at_most"] is None
    assert steps(out["rights"])[2] == ("pretreatment.B", "industry-correction-time", {"days_at_most": None})
    assert "the law sets no maximum" in out["rights"][2]["text"]


def test_empty_boxes_are_not_answers():
    # a form's empty box: no system flow (the 5% test waits for it), no day given (today), no year
    out = industry.compute(RULES, "1000", "", False, False, "", average_daily_gallons="", today="")
    assert out["criteria_not_determined"] == ["pretreatment.E.2"] and out["year"] is None
    assert out["report_dates_from"] == dt.date.today().isoformat()


@pytest.mark.parametrize("kwargs", [
    dict(average_workday_gallons="700000", system_gallons_per_day="600000"),
    dict(average_workday_gallons="1000", average_daily_gallons="700000", system_gallons_per_day="600000"),
])
def test_an_industry_flowing_more_than_the_whole_system_is_questioned(kwargs):
    """The fifth hostile tester: 700,000 gallons a workday into a system carrying 600,000 a day was answered
    as if it could be: the system receives the industry's waste, so it carries at least that."""
    with pytest.raises(InputError) as err:
        industry.compute(RULES, **kwargs, year=2027)
    assert err.value.field == "system-gallons-per-day"
    assert "is more than the flow of the whole system that receives it, 600,000 gallons per day" in str(err.value)
    industry.compute(RULES, average_workday_gallons="600000", system_gallons_per_day="600000", year=2027)


# ---- issue 34 (the food plant's office manager) -----------------------------------------------

def test_with_the_system_flow_unknown_the_answer_names_the_flow_under_which_the_business_counts():
    # 30,000 gallons a workday, more than 5% of the system's flow: the system carries less than 30,000 / 0.05
    out = industry.compute(RULES, "30,000", None, False, None, 2027)
    assert out["determination"] == "not-determined" and out["system_gallons_below"] == "600000.00"
    assert ("At 30,000 gallons per average workday, the business is a major contributing industry if the system "
            "carries less than 600,000 gallons a day, as this site reads the law. The Town has not published the system's flow: ask the Sewer Inspector for it.") in \
        out["explanation"][1]["text"]
    # the same sentence for the page to show under the verdict (the outside usability test public9, Linda)
    assert out["system_gallons_below_words"] == (
        "At 30,000 gallons per average workday, the business is a major contributing industry if the system "
        "carries less than 600,000 gallons a day, as this site reads the law. The Town has not published the system's flow: ask the Sewer Inspector for it.")
    assert out["explanation"][1]["text"].endswith(out["system_gallons_below_words"])
    assert industry.compute(RULES, "30000", "600000", False, False, 2027)["system_gallons_below_words"] is None
    # the boundary the sentence states: a system one gallon under it makes her major, that flow itself does not
    assert industry.compute(RULES, "30000", "599999", False, None, 2027)["determination"] == "major"
    assert industry.compute(RULES, "30000", "600000", False, False, 2027)["determination"] == "not-major"


def test_the_average_day_reading_names_the_flow_from_the_average_day():
    out = industry.compute(with_readings({"industry-flow-share": "average-day"}), "40000", None, False, False, 2027,
                           average_daily_gallons="24000")
    assert out["system_gallons_below"] == "480000.00"
    assert "At 24,000 gallons on an average day" in out["explanation"][1]["text"]


def test_who_decides_significant_impact_is_said_as_this_sites_reading():
    out = industry.compute(RULES, "30000", None, False, None, 2027)
    e4 = next(s for s in out["explanation"] if s["cite"] == "pretreatment.E.4")
    assert "The law does not say who decides this. This site's reading: ask the Sewer Inspector" in e4["text"]
    answered = industry.compute(RULES, "30000", None, False, False, 2027)
    assert "who decides" not in next(s for s in answered["explanation"] if s["cite"] == "pretreatment.E.4")["text"]


def test_a_section_307_report_is_explained_unless_the_business_is_not_major():
    def said(out):
        return any(s["text"].startswith("A Section 307 report shows") for s in out["report_explained"])
    assert said(industry.compute(RULES, "60000", year=2027))
    assert said(industry.compute(RULES, "30000", None, False, None, 2027))
    assert not said(industry.compute(RULES, "1000", "600000", False, False, 2027))
    [step] = industry.compute(RULES, "60000", year=2027)["report_explained"]
    text = step["text"]
    assert "does not say what goes in the report, what form it takes or who receives it" in text
    assert "This site's reading: send it to the Sewer Inspector" in text


def test_each_duty_in_the_answer_is_said_as_a_duty_in_both_languages():
    """The Spanish reviewer spanish8, #18: «Entonces construye…», «Añade un medidor de pH…», «sigue la última
    edición…» read as what a business does; the law asks it. Said with must / «debe»."""
    from calculator.core.i18n import speaking
    for lang, duties, descriptions in (
            ("en", ["Then it must build a control manhole", "It must also install a recording pH meter",
                    "must follow the latest edition"], ["Then it builds", "It adds a recording", "waste follows"]),
            ("es", ["Entonces el negocio debe construir", "También debe instalar un medidor de pH",
                    "debe seguir la edición más reciente"], ["Entonces construye", "Añade un medidor", "residuales sigue"])):
        with speaking(lang):
            text = " ".join(s["text"] for s in industry.compute(RULES, "42000", "600000", False, False, 2027)
                            ["obligations"])
        for duty in duties:
            assert duty in text, (lang, duty)
        for description in descriptions:
            assert description not in text, (lang, description)
