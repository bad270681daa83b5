"""The bill's answer (calculator/bills/bill.py), whole: every key of it, the "What if I pay late?" answer,
the fiscal year's schedule, the notices, each reading's minimum and rate day, and the values of the
law in force on the day that matters (the quarter's first day for the minimum and the cubic foot;
the due date for the penalty). tests/cases/ pin the law's figures bill by bill; this pins the rest.

The illustrative schedule: VC = $10.00 per 1,000 gallons, 80% of water billed as sewage; the minimum
is the charge for 8,000 gallons of water (rents.D, minimum-charge); rents.F: due on the 15th of
January, April, July and October, "a penalty of 15% per quarter after nonpayment for 30 days".
Every expected value below is worked out by hand in its comment."""
import copy
from decimal import Decimal

import pytest

from calculator.bills import bill
from calculator.core.errors import InputError
from calculator.core.rules import load
from casebook import amended, with_readings

RULES = load()
SCHEDULE = {"effective": "2025-01-01", "id": "2025-illustrative",
            "label": "ILLUSTRATIVE — invented numbers, not a rate the Town has adopted.", "sewage_fraction": "0.80",
            "status": "illustrative", "title": "Illustrative rate schedule (not adopted)", "vc_per_1000_gallons": "10.00"}
NOTICE = ("This estimate uses the example rate schedule, which the Town has not adopted. ILLUSTRATIVE — "
          "invented numbers, not a rate the Town has adopted.")
FISCAL_2027 = {"proposed": None, "schedule": None, "year": 2027, "text": (
    "No rate schedule is on record for fiscal year 2027. The law asks for a schedule to be prepared before each fiscal "
    "year starts. This estimate uses the example schedule this site uses, “Illustrative rate schedule (not adopted)”, "
    "from January 1, 2025.")}
LAW_F_G = [{"heading": "Due dates and late penalty", "words": "Sewer charges (the law’s “sewer usage rent”), section F"},
           {"heading": "Charges are a lien", "words": "Sewer charges, section G"}]
TOTAL_NOTE = "ILLUSTRATIVE: this total uses an invented rate, not one the Town has adopted. It is not what you owe: the bill the Town sends you says that."
LIEN = "Unpaid charges are a lien on the property, to the extent set forth in § 452 of the General Municipal Law."






def without_explanation(answer: dict) -> dict:
    assert answer.pop("explanation")
    return answer


def test_a_bill_paid_after_a_holiday_moved_its_last_day():
    # 12,000 gallons x 0.80 = 9,600 gallons x $10.00 / 1,000 = $96.00. Due January 15, 2027; day 30 is
    # Sunday, February 14; Monday the 15th is Washington's Birthday (GCL § 24): the last day to pay is
    # Tuesday the 16th, the first penalty from the 17th. Paid March 1 (45 days after the due date): one
    # period, 15% of $96.00 = $14.40.
    out = without_explanation(bill.compute(RULES, "2027-Q1", {"water-gallons": "12000"}, "2027-03-01"))
    assert out == {
        "command": "bill", "quarter": "2027-Q1", "quarter_words": "January–March 2027",
        # the bill as a resident holds it: its due date and the water it charges for (the usability test, Rosa)
        "bill_words": "the bill due January 15, 2027 (water used October–December 2026)",
        "water_words": "October–December 2026",
        "period_start": "2027-01-01", "period_end": "2027-03-31", "due_date": "2027-01-15",
        "penalty_from": "2027-02-17", "last_day_to_pay": "2027-02-16", "schedule": SCHEDULE,
        "usage": {"amount": "12000", "kind": "water-gallons", "words": "Worked out from 12,000 gallons of water."},
        "water_gallons": "12000.00", "volume_gallons": "9600.00", "computed_charge": "96.00",
        "minimum_charge": "64.00", "minimum_applied": False, "charge": "96.00", "paid_on": "2027-03-01",
        "days_after_due": 45, "penalty_periods": 1, "penalty_periods_from": ["2027-02-17"], "penalty": "14.40",
        "total": "110.40", "illustrative": True, "total_note": TOTAL_NOTE,
        # beside the total: what paying that day means (issue 34, item 7)
        "paid_words": "If you pay on March 1, 2027, that is late. The total includes a late penalty of $14.40.",
        # "If you pay later": the next three penalty periods after March 1 (issue 34, item 6)
        "paid_read": None, "if_later": [
            {"from": "2027-05-17", "periods": 2, "penalty": "28.80", "total": "124.80"},
            {"from": "2027-08-17", "periods": 3, "penalty": "43.20", "total": "139.20"},
            {"from": "2027-11-17", "periods": 4, "penalty": "57.60", "total": "153.60"}],
        "annual_total": "384.00", "fiscal_year": FISCAL_2027, "notices": [NOTICE], "usage_question": None,
        "if_late": {
            "last_day_to_pay": "2027-02-16", "penalty_from": "2027-02-17", "rate": "0.15", "first_penalty": "14.40",
            "period_months": 3, "holidays_skipped": [{"date": "2027-02-15", "holiday": "Washington's Birthday"}],
            "text": "Due January 15, 2027. Last day before a late penalty: Tuesday, February 16, 2027. From February 17: +15% ($14.40). Each further 3 "
                    "months: another 15%, as this site reads “per quarter”.",
            "moved": "Day 30 after the due date is Sunday, February 14, 2027. As this site reads the law, the last "
                     "day to pay moves to Tuesday, February 16, 2027, because Monday, February 15, 2027 (Washington's "
                     "Birthday) is a public holiday.",
            "cites": ["rents.F", "rents.G"], "anchors": ["rents-f", "rents-g"], "lien": LIEN, "law": LAW_F_G}}


def test_a_sewage_meter_bill_with_both_what_ifs_two_periods_late():
    # sewage meter, 5,000 gallons at a what-if $12 per 1,000 = $60.00; the minimum, water-equivalent
    # (the chosen reading): $12 x 8,000 x 0.9 / 1,000 = $86.40, billed. Due July 15, 2027; day 30 is
    # Saturday, August 14: the last day is Monday the 16th. Paid February 10, 2028 (210 days after the
    # due date): periods from August 17 and November 17 (the next, February 17, not yet): 2 x 15% x
    # $86.40 = $25.92.
    out = without_explanation(bill.compute(RULES, "2027-Q3", {"sewage-gallons": "5000"}, " 2028-02-10 ",
                                           vc_per_1000="12", sewage_fraction="0.9"))
    assert out == {
        "command": "bill", "quarter": "2027-Q3", "quarter_words": "July–September 2027",
        "bill_words": "the bill due July 15, 2027 (water used April–June 2027)", "water_words": "April–June 2027",
        "period_start": "2027-07-01", "period_end": "2027-09-30", "due_date": "2027-07-15",
        "penalty_from": "2027-08-17", "last_day_to_pay": "2027-08-16",
        "schedule": SCHEDULE | {"what_if": {"sewage_fraction": "0.9", "vc_per_1000_gallons": "12"}},
        "usage": {"amount": "5000", "kind": "sewage-gallons",
                  "words": "Worked out from 5,000 gallons of sewage, as your sewage meter measured it."},
        "water_gallons": None, "volume_gallons": "5000.00", "computed_charge": "60.00",
        "minimum_charge": "86.40", "minimum_applied": True, "charge": "86.40", "paid_on": "2028-02-10",
        "days_after_due": 210, "penalty_periods": 2, "penalty_periods_from": ["2027-08-17", "2027-11-17"],
        "penalty": "25.92", "total": "112.32", "illustrative": False, "total_note": None,  # both numbers are what-ifs
        "paid_words": "If you pay on February 10, 2028, that is late. The total includes a late penalty of $25.92.",
        "paid_read": None, "if_later": [
            {"from": "2028-02-17", "periods": 3, "penalty": "38.88", "total": "125.28"},
            {"from": "2028-05-17", "periods": 4, "penalty": "51.84", "total": "138.24"},
            {"from": "2028-08-17", "periods": 5, "penalty": "64.80", "total": "151.20"}],
        "annual_total": "345.60", "fiscal_year": FISCAL_2027, "usage_question": None,
        "notices": [NOTICE, "This is a what-if estimate with values you chose, not the schedule's."],
        "if_late": {
            "last_day_to_pay": "2027-08-16", "penalty_from": "2027-08-17", "rate": "0.15", "first_penalty": "12.96",
            "period_months": 3, "holidays_skipped": [],
            "text": "Due July 15, 2027. Last day before a late penalty: Monday, August 16, 2027. From August 17: +15% ($12.96). Each further 3 months: "
                    "another 15%, as this site reads “per quarter”.",
            "moved": "Day 30 after the due date is Saturday, August 14, 2027. As this site reads the law, the last "
                     "day to pay moves to the next business day, Monday, August 16, 2027.",
            "cites": ["rents.F", "rents.G"], "anchors": ["rents-f", "rents-g"], "lien": LIEN, "law": LAW_F_G}}


def test_a_bill_paid_on_time_in_cubic_feet():
    # 1,600 cubic feet x 1728/231 gallons = 11,968.831 gallons x 0.80 = 9,575.065 gallons (9,575.06 at the
    # cent, half up): $95.75. Due October 15, 2027; day 30 is Sunday, November 14: the last day Monday the 15th.
    out = bill.compute(RULES, "2027-Q4", {"water-cubic-feet": "1600"}, "2027-10-15")
    assert "explanation" in out
    assert (out["water_gallons"], out["volume_gallons"], out["charge"]) == ("11968.83", "9575.06", "95.75")
    assert (out["paid_on"], out["days_after_due"], out["penalty_periods"], out["penalty"], out["total"]) == (
        "2027-10-15", 0, 0, "0.00", "95.75")
    assert out["if_late"]["holidays_skipped"] == [] and "lien" not in out["if_late"]
    assert (out["if_late"]["cites"], out["if_late"]["anchors"]) == (["rents.F"], ["rents-f"])
    unpaid = bill.compute(RULES, "2027-Q4", {"water-cubic-feet": "1600"})
    assert (unpaid["paid_on"], unpaid["days_after_due"], unpaid["penalty_periods_from"]) == (None, None, [])


def test_the_minimum_with_a_sewage_meter_under_each_reading():
    # water-equivalent (chosen): $10 x 8,000 x 0.80 / 1,000 = $64.00; sewage-8000: $10 x 8,000 / 1,000 = $80.00.
    # A water-metered bill has the water minimum under both.
    steps = {"water-equivalent": "Minimum charge = the charge for 8,000 gallons of water use = $10.00 × 8,000 × "
                                 "0.80 ÷ 1,000 = $64.00. This site reads the minimum as the same for a property with "
                                 "a sewage meter. The charge is below it, so the minimum of $64.00 is billed.",
             "sewage-8000": "Minimum charge = the charge for 8,000 gallons of metered sewage = $10.00 × 8,000 ÷ 1,000 "
                            "= $80.00. The charge is below it, so the minimum of $80.00 is billed."}
    for reading, sewage_minimum in (("water-equivalent", "64.00"), ("sewage-8000", "80.00")):
        rules = with_readings({"minimum-with-sewage-meter": reading})
        out = bill.compute(rules, "2027-Q1", {"sewage-gallons": "100"})
        assert (out["minimum_charge"], out["charge"], out["minimum_applied"]) == (sewage_minimum, sewage_minimum, True)
        assert [(s["text"], s.get("interpretation")) for s in out["explanation"] if s["cite"] == "minimum-charge"] == [
            (steps[reading], "minimum-with-sewage-meter")]
        assert bill.compute(rules, "2027-Q1", {"water-gallons": "100"})["minimum_charge"] == "64.00"


def test_the_rate_day_under_each_reading_of_billing_in_advance():
    # a second schedule from July 1, 2027 at $12.00: the third quarter is billed at the rate of its first
    # day (previous-quarter-reading, chosen), or at the rate of January 1 when the year's charge is billed
    # in four parts (annual-in-four-parts). 12,000 gallons x 0.80 = 9,600 gallons.
    for reading, charge, rate_schedule in (("previous-quarter-reading", "115.20", "2027-raised"),
                                           ("annual-in-four-parts", "96.00", "2025-illustrative")):
        rules = with_readings({"billing-in-advance": reading})
        rules["schedules"] = [*rules["schedules"], dict(rules["schedules"][0], id="2027-raised", title="Raised",
                                                        effective="2027-07-01", vc_per_1000_gallons="12.00")]
        out = bill.compute(rules, "2027-Q3", {"water-gallons": "12000"})
        assert (out["charge"], out["schedule"]["id"]) == (charge, rate_schedule)
    # a schedule from January 2 is not the one in force on the year's first day
    rules = with_readings({"billing-in-advance": "annual-in-four-parts"})
    rules["schedules"] = [*rules["schedules"], dict(rules["schedules"][0], id="2027-raised", title="Raised",
                                                    effective="2027-01-02", vc_per_1000_gallons="12.00")]
    out = bill.compute(rules, "2027-Q3", {"water-gallons": "12000"})
    assert (out["charge"], out["schedule"]["id"]) == ("96.00", "2025-illustrative")


def test_the_notices_and_fiscal_year_of_an_adopted_schedule_and_of_one_proposed():
    rules = copy.deepcopy(RULES)
    rules["schedules"] = [dict(rules["schedules"][0], status="adopted")]
    out = bill.compute(rules, "2027-Q1", {"water-gallons": "12000"})
    assert out["notices"] == []
    proposed = copy.deepcopy(RULES)
    proposed["schedules"] = [*proposed["schedules"], dict(proposed["schedules"][0], id="2027-proposed",
                                                          title="Proposed 2027", status="proposed",
                                                          effective="2027-01-01")]
    fiscal = bill.compute(proposed, "2027-Q1", {"water-gallons": "12000"})["fiscal_year"]
    assert fiscal == {"year": 2027, "schedule": None, "proposed": "2027-proposed", "text": (
        "The rate schedule for fiscal year 2027, “Proposed 2027”, is only proposed. The law asks for a schedule to be "
        "prepared before each fiscal year starts. Until one is adopted, this estimate uses the example schedule "
        "this site uses, “Illustrative rate schedule (not adopted)”, from January 1, 2025.")}


@pytest.mark.parametrize("accrual, quarter, further", [
    ("simple", "three-months", "Each further 3 months: another 15%, as this site reads “per quarter”."),
    ("compound", "three-months", "Each further 3 months: another 15% of the unpaid total, as this site reads “per quarter”."),
    ("once", "three-months", "No further penalty after that."),
    ("once", "billing-quarter", "No further penalty after that."),
    ("simple", "billing-quarter", "Each later billing quarter: another 15%, as this site reads “per quarter”."),
    ("compound", "billing-quarter", "Each later billing quarter: another 15% of the unpaid total, as this site reads "
                                    "“per quarter”."),
])
def test_what_each_further_period_adds_under_each_reading(accrual, quarter, further):
    rules = with_readings({"penalty-accrual": accrual, "penalty-quarter": quarter})
    late = bill.compute(rules, "2027-Q1", {"water-gallons": "12000"})["if_late"]
    assert late["text"] == f"Due January 15, 2027. Last day before a late penalty: Tuesday, February 16, 2027. From February 17: +15% ($14.40). {further}"


def test_under_the_once_reading_the_periods_are_those_charged_and_the_explanation_says_once():
    """The fifth hostile tester: with penalty-accrual `once`, a payment a year late answered "penalty_periods": 4
    with "penalty": "14.40", one period's penalty, and the step spoke of "a further 15% for each further period"."""
    rules = with_readings({"penalty-accrual": "once"})
    out = bill.compute(rules, "2025-Q1", {"water-gallons": "12000"}, "2026-01-01")
    assert (out["penalty_periods"], out["penalty_periods_from"], out["penalty"]) == (1, ["2025-02-15"], "14.40")
    words = " ".join(s["text"] for s in out["explanation"])
    assert ("a 15% penalty applies from February 15, 2025, once, however long the bill then stays unpaid, as this "
            "site reads the law. Penalty $14.40.") in words
    assert "for each further period" not in words
    simple = bill.compute(with_readings({"penalty-accrual": "simple"}), "2025-Q1", {"water-gallons": "12000"},
                          "2026-01-01")
    assert (simple["penalty_periods"], simple["penalty"]) == (4, "57.60")


@pytest.mark.parametrize("usage, asked", [
    ({"water-gallons": "99999999999"}, "Is 99,999,999,999 gallons right? That is about 1,111,111,111 gallons a day "
                                       "through the quarter"),
    ({"water-cubic-feet": "100000000"}, "Is 100,000,000 cubic feet right? That is about 8,311,688 gallons a day"),
    ({"water-gallons": "99999999"}, None),
])
def test_a_usage_no_single_bill_could_have_is_asked_about_and_still_estimated(usage, asked):
    """The fifth hostile tester: 99,999,999,999 gallons was estimated at $799,999,999.99 without a word.
    The law sets no ceiling, so the estimate is given, with the question above it."""
    out = bill.compute(RULES, "2025-Q1", usage)
    assert Decimal(out["total"]) > 0
    if asked is None:
        assert out["usage_question"] is None
    else:
        assert out["usage_question"].startswith(asked)
        assert out["usage_question"].endswith("Check the number on your bill or meter: the estimate below uses it "
                                              "as entered.")


def test_the_values_in_force_on_the_day_that_matters():
    # amendments in force from the day after the quarter's first day, or after its due date: the 2027-Q2 bill
    # (April 1; due April 15) keeps the old values; the 2027-Q3 bill takes the new ones.
    rules = amended(RULES, "minimum-charge-water-gallons", "2027-04-02", 9000)
    rules = amended(rules, "gallons-per-cubic-foot", "2027-04-02", {"numerator": 7, "denominator": 1})
    rules = amended(rules, "late-penalty-grace-days", "2027-04-16", 20)
    rules = amended(rules, "late-penalty-rate", "2027-04-16", "0.10")
    rules = amended(rules, "late-penalty-period-months", "2027-04-16", 1)
    old = bill.compute(rules, "2027-Q2", {"water-cubic-feet": "100"}, "2027-06-01")
    # 100 cubic feet x 1728/231 = 748.05 gallons; the minimum $10 x 8,000 x 0.80 / 1,000 = $64.00; due April 15:
    # day 30 is Saturday, May 15: the last day Monday the 17th; 15% of $64.00 = $9.60, every 3 months; paid
    # June 1: one period, $9.60
    assert (old["water_gallons"], old["minimum_charge"], old["last_day_to_pay"]) == ("748.05", "64.00", "2027-05-17")
    assert (old["penalty_periods"], old["penalty"]) == (1, "9.60")
    assert old["if_late"]["moved"] == ("Day 30 after the due date is Saturday, May 15, 2027. As this site reads the "
                                       "law, the last day to pay moves to the next business day, Monday, May 17, 2027.")
    periods = [s["text"] for s in old["explanation"] if s.get("interpretation") == "penalty-quarter"]
    assert periods == ["Each further period begins 3 months (until April 15, 2027) after the one before, counted "
                       "from May 18, 2027, the first penalty date, as we read the law. By June 1, 2027, 1 penalty "
                       "period had begun, on May 18, 2027."]
    assert (old["if_late"]["rate"], old["if_late"]["first_penalty"], old["if_late"]["period_months"]) == (
        "0.15", "9.60", 3)
    new = bill.compute(rules, "2027-Q3", {"water-cubic-feet": "100"})
    # 100 x 7 = 700 gallons; the minimum $10 x 9,000 x 0.80 / 1,000 = $72.00; due July 15: day 20 is Wednesday,
    # August 4; 10% of $72.00 = $7.20, every month
    assert (new["water_gallons"], new["minimum_charge"], new["last_day_to_pay"]) == ("700.00", "72.00", "2027-08-04")
    assert (new["if_late"]["rate"], new["if_late"]["first_penalty"], new["if_late"]["period_months"]) == (
        "0.10", "7.20", 1)


def test_the_explanation_names_each_day_skipped_and_no_more():
    out = bill.compute(RULES, "2027-Q1", {"water-gallons": "12000"})
    moved = [s for s in out["explanation"] if s["text"].startswith("Day 30 after the due date")]
    assert len(moved) == 1
    assert ("Sunday, February 14, 2027, is not a business day. Monday, February 15, 2027, is Washington's Birthday, "
            "a New York public holiday (General Construction Law § 24). Under NY") in moved[0]["text"]


@pytest.mark.parametrize("paid_on, shown", [
    # due January 15, 2027, first penalty February 17; a period begins every 3 months after it
    ("2028-05-17", "May 17, 2028, 6 penalty periods had begun: February 17, 2027, May 17, 2027, August 17, 2027, "
                   "November 17, 2027, February 17, 2028 and May 17, 2028."),                  # 6 periods: each named
    ("2028-08-17", "August 17, 2028, 7 penalty periods had begun: February 17, 2027 to August 17, 2028."),  # 7
])
def test_the_periods_begun_are_named_up_to_six(paid_on, shown):
    out = bill.compute(RULES, "2027-Q1", {"water-gallons": "12000"}, paid_on)
    step = [s for s in out["explanation"] if s.get("interpretation") == "penalty-quarter"]
    assert len(step) == 1
    assert step[0]["text"].startswith("Each further period begins 3 months after the one before, counted from "
                                      "February 17, 2027, the first penalty date, as we read the law.")
    assert step[0]["text"].endswith(f"By {shown}")


def test_the_batch_takes_the_payment_date_and_the_what_ifs():
    usages = [{"water-gallons": "12000"}, {"sewage-gallons": "5000"}, {"water-cubic-feet": "1600"}]
    batch = bill.compute_many(RULES, "2027-Q3", usages, "2028-02-10", "12", "0.9")
    assert all("explanation" not in b for b in batch)
    for one, usage in zip(batch, usages):
        alone = without_explanation(bill.compute(RULES, "2027-Q3", usage, "2028-02-10", "12", "0.9"))
        assert one == alone
    # 12,000 x 0.9 x $12 / 1,000 = $129.60; the sewage meter's minimum $86.40; 1,600 cubic feet x 1728/231 x 0.9 =
    # 10,771.948 gallons: $129.26; each with 2 periods of 15%
    assert [b["total"] for b in batch] == ["168.48", "112.32", "168.04"]


def test_empty_boxes_are_not_values():
    # a form sends an empty box as "": no usage of that kind, no what-if, no payment date
    out = bill.compute(RULES, "2027-Q1", {"water-gallons": "12000", "sewage-gallons": "", "water-cubic-feet": None},
                       "", vc_per_1000=" ", sewage_fraction="")
    assert (out["charge"], out["paid_on"], out["penalty_periods"], out["notices"]) == ("96.00", None, 0, [NOTICE])
    assert "what_if" not in out["schedule"]


def test_a_meter_that_is_none_of_the_three_is_refused_at_its_box():
    from calculator.core.errors import InputError
    with pytest.raises(InputError, match="Say what the meter measures") as err:
        bill.usage_from_readings("gas", "1", "2")
    assert err.value.field == "meter"
    assert bill.usage_from_readings("water-cubic-feet", "120500", "121100") == {"water-cubic-feet": "600"}


def test_the_batch_refuses_a_usage_at_its_box_and_whole_units_only():
    from calculator.core.errors import InputError
    with pytest.raises(InputError, match="Water use in gallons cannot be negative") as err:
        bill.compute_many(RULES, "2027-Q1", [{"water-gallons": "12000"}, {"water-gallons": "-1"}])
    assert err.value.field == "water-gallons"
    with pytest.raises(InputError, match="must be a whole number") as err:
        bill.compute_many(RULES, "2027-Q1", [{"water-cubic-feet": "1600.5"}])
    assert err.value.field == "water-cubic-feet"


def test_the_schedule_used_starts_where_a_late_adoption_moves_it():
    # rules/interpretations/late-adoption.yaml, "first-quarter-after": a schedule effective January 1, 2025 but
    # adopted February 10 applies from the first quarter after its adoption, April 1, 2025; with no schedule
    # for fiscal year 2027, the bill names it as used from then (an illustrative schedule is never in force).
    rules = with_readings({"late-adoption": "first-quarter-after"})
    rules["schedules"][0]["adoption"] = dict(rules["schedules"][0].get("adoption") or {}, date="2025-02-10")
    fiscal = bill.compute(rules, "2027-Q1", {"water-gallons": "12000"})["fiscal_year"]
    assert fiscal["text"].endswith("“Illustrative rate schedule (not adopted)”, from April 1, 2025.")


# ---- a bill with what is unpaid on earlier bills (its link's arrears; calculator/bills/arrears.py) ----

def _with_arrears(quarter, usage, paid_on=None, bills=(), payments=(), as_of=None):
    from calculator.bills import arrears
    kind, raw = next(iter(usage.items()))
    values = [("quarter", quarter), (kind, raw), *(("earlier-bill", b) for b in bills),
              *(("earlier-payment", p) for p in payments), *([("as-of", as_of)] if as_of else [])]
    return bill.compute(RULES, quarter, usage, paid_on, earlier_bills=list(bills), earlier_payments=list(payments),
                        as_of=as_of, check=arrears.link_check(values))


def _line(label, amount, cite, law_words, heading, interpretation=None):
    return {"label": label, "amount": amount, "cite": cite, **({"interpretation": interpretation} if interpretation
                                                                 else {}),
            "anchor": cite.replace(".", "-").lower(), "law": {"words": law_words, "heading": heading}}


F_AGAIN = ("Sewer charges, section F", "Due dates and late penalty")


def test_a_bill_paid_late_with_two_earlier_bills_unpaid_and_one_paid():
    # 2025-Q4: 12,000 gallons = $96.00, due October 15, 2025, last day to pay Friday, November 14; paid
    # November 20: one period, $14.40: this quarter $110.40. Earlier bills, counted to November 20, 2025:
    # 2024-Q4 $50.00 unpaid: due October 15, 2024, last day November 14, 2024; periods begun November 15,
    # February 15, May 15, August 15, November 15: 5 x 15% x 50.00 = 37.50.
    # 2025-Q2 $80.00 paid April 20, in time: nothing owed, not shown.
    # 2025-Q3 $96.00, $40.00 paid September 2 (after August 14: one period, 6.00); $56.00 unpaid, two periods
    # (August 15, November 15): 16.80; in all 22.80.
    # Total: 110.40 + (50.00 + 56.00) + (37.50 + 22.80) = 110.40 + 106.00 + 60.30 = 276.70
    out = _with_arrears("2025-Q4", {"water-gallons": "12000"}, "2025-11-20",
                        ["2024-Q4:50.00", "2025-Q2:80.00", "2025-Q3:96.00"],
                        ["2025-Q2:80.00:2025-04-20", "2025-Q3:40.00:2025-09-02"], "2025-11-20")
    assert (out["charge"], out["penalty"], out["quarter_total"], out["total"]) == ("96.00", "14.40", "110.40", "276.70")
    a = out["arrears"]
    assert (a["as_of"], a["unpaid"], a["penalties"]) == ("2025-11-20", "106.00", "60.30")
    assert a["quarters"] == [
        {"quarter": "2024-Q4", "period": "October–December 2024", "charge": "50.00", "paid": "0.00", "payments": [],
         "unpaid_charge": "50.00", "penalties": "37.50", "unpaid_total": "87.50", "last_day_to_pay": "2024-11-14",
         "text": "Your bill for October–December 2024 was $50.00. $50.00 of it is still unpaid. The last day to pay "
                 "it was November 14, 2024. The late penalty still owed on it is $37.50, counted to November 20, 2025."},
        {"quarter": "2025-Q3", "period": "July–September 2025", "charge": "96.00", "paid": "40.00",
         "payments": [{"paid_on": "2025-09-02", "amount": "40.00"}],
         "unpaid_charge": "56.00", "penalties": "22.80", "unpaid_total": "78.80", "last_day_to_pay": "2025-08-14",
         "text": "Your bill for July–September 2025 was $96.00. You paid $40.00 on September 2, 2025. $56.00 of it is "
                 "still unpaid. The last day to pay it was August 14, 2025. The late penalty still owed on it is "
                 "$22.80, counted to November 20, 2025."}]
    # each line with its provision; the law's long name once (the first line), then "Sewer charges"
    assert a["lines"] == [
        _line("This quarter's charge", "96.00", "rents.B", "Sewer charges (the law’s “sewer usage rent”), section B",
              "Determination of charge"),
        # paid November 20, after its own last day (November 14): one period, 15% of $96.00
        _line("Late penalty on this quarter's charge", "14.40", "rents.F", *F_AGAIN, "penalty-accrual"),
        _line("Unpaid from October–December 2024", "50.00", "rents.F", *F_AGAIN, "payment-order"),
        _line("Late penalty on it, as of November 20, 2025", "37.50", "rents.F", *F_AGAIN, "penalty-accrual"),
        _line("Unpaid from July–September 2025", "56.00", "rents.F", *F_AGAIN, "payment-order"),
        _line("Late penalty on it, as of November 20, 2025", "22.80", "rents.F", *F_AGAIN, "penalty-accrual"),
        _line("Total to pay", "276.70", "rents.F", *F_AGAIN)]
    assert (a["title"], a["columns"]) == ("Your bill, with what is unpaid from earlier quarters", ["Line", "Amount"])
    assert set(a) == {"as_of", "quarters", "unpaid", "penalties", "credit", "credit_carried", "lines", "title", "columns"}
    # the explanation's total says the same sums
    assert out["explanation"][-2]["text"] == ("Total = $110.40 this quarter + $106.00 unpaid from earlier quarters + "
                                              "$60.30 in late penalties on them = $276.70.")


def test_without_an_as_of_day_earlier_bills_are_counted_to_the_bills_due_date():
    # 2025-Q4 is due October 15, 2025. 2024-Q4's $50.00: periods begun by then November 15, February 15,
    # May 15, August 15: 4 x 7.50 = 30.00. 2025-Q3: 40.00 paid September 2 (one period, 6.00), 56.00 one
    # period (8.40): 14.40. Penalties 44.40; this quarter, not paid yet: 96.00; total 96.00 + 106.00 + 44.40
    out = _with_arrears("2025-Q4", {"water-cubic-feet": "1600"}, None, ["2024-Q4:50.00", "2025-Q3:96.00"],
                        ["2025-Q3:40.00:2025-09-02"])
    # 1,600 cubic feet x 7.48052 = 11,968.832 gallons x 0.80 x $10.00 / 1,000 = $95.75
    assert (out["charge"], out["quarter_total"]) == ("95.75", "95.75")
    a = out["arrears"]
    assert (a["as_of"], a["unpaid"], a["penalties"], out["total"]) == ("2025-10-15", "106.00", "44.40", "246.15")
    assert [q["penalties"] for q in a["quarters"]] == ["30.00", "14.40"]


def test_earlier_bills_all_paid_leave_only_this_quarter():
    out = _with_arrears("2025-Q4", {"water-gallons": "12000"}, None, ["2025-Q3:96.00"],
                        ["2025-Q3:96.00:2025-08-14"], "2025-10-15")
    a = out["arrears"]
    assert (a["quarters"], a["unpaid"], a["penalties"], out["total"], out["quarter_total"]) == (
        [], "0.00", "0.00", "96.00", "96.00")
    assert a["lines"] == [_line("This quarter's charge", "96.00", "rents.B",
                                "Sewer charges (the law’s “sewer usage rent”), section B", "Determination of charge"),
                          _line("Total to pay", "96.00", "rents.F", *F_AGAIN)]


def test_a_bill_without_earlier_bills_has_no_arrears():
    out = bill.compute(RULES, "2025-Q4", {"water-gallons": "12000"})
    assert "arrears" not in out and "quarter_total" not in out and out["total"] == "96.00"


def test_each_day_skipped_before_the_last_day_to_pay_is_named_and_no_more():
    import datetime as dt
    # 2027-Q1: day 30 after January 15 is Sunday, February 14; the day before it is Saturday the 13th.
    # Monday the 15th is Washington's Birthday (GCL § 24: the third Monday in February): the last day to
    # pay is Tuesday the 16th. The days from the 13th to the day before the 16th, one sentence each.
    assert bill.skipped_days(RULES, dt.date(2027, 2, 13), dt.date(2027, 2, 16)) == [
        "Saturday, February 13, 2027, is not a business day.",
        "Sunday, February 14, 2027, is not a business day.",
        "Monday, February 15, 2027, is Washington's Birthday, a New York public holiday (General Construction Law "
        "§ 24)."]
    assert bill.skipped_days(RULES, dt.date(2027, 2, 16), dt.date(2027, 2, 16)) == []


@pytest.mark.parametrize("paid_on,words", [
    # the last day to pay is Tuesday, February 16, 2027 (Monday the 15th is Washington's Birthday)
    ("2027-02-16", "If you pay on February 16, 2027, that is in time: no late penalty."),
    ("2027-02-17", "If you pay on February 17, 2027, that is late. The total includes a late penalty of $14.40."),
    ("2027-01-02", "If you pay on January 2, 2027, that is in time: no late penalty."),
])
def test_the_verdict_for_the_payment_date_is_said_beside_the_total(paid_on, words):
    # Issue 34, item 7: "Paid on February 5 … no penalty" was 3.2 screens below the total
    r = bill.compute(RULES, "2027-Q1", {"water-gallons": "12000"}, paid_on=paid_on)
    assert r["paid_words"] == words
    assert bill.compute(RULES, "2027-Q1", {"water-gallons": "12000"})["paid_words"] is None


@pytest.mark.parametrize("what_if", [{"sewage_fraction": "0.01"}, {"vc_per_1000": "1.00"}])
def test_a_bills_link_with_a_what_if_added_is_refused_not_counted(what_if):
    """The tenth hostile tester (F2): `&sewage-fraction=0.01` added to a checked bill's link changed its total
    from $702.20 to $467.82, shown as the bill's. A bill is worked out at the adopted figures only."""
    from calculator.bills import arrears
    bills = ["2026-Q3:96.00"]
    values = [("quarter", "2027-Q1"), ("water-gallons", "12000"), *(("earlier-bill", b) for b in bills)]
    plain = bill.compute(RULES, "2027-Q1", {"water-gallons": "12000"}, earlier_bills=bills,
                         check=arrears.link_check(values))
    assert plain["arrears"]
    with pytest.raises(InputError) as err:
        bill.compute(RULES, "2027-Q1", {"water-gallons": "12000"}, earlier_bills=bills,
                     check=arrears.link_check(values), **what_if)
    field = next(iter(what_if)).replace("_", "-")
    assert err.value.field == field and "adopted figures only" in str(err.value)
    # as a page says it: the field is beside its own box, not a raw marker (hostile12: "(⟦vc-per-1000⟧)")
    from calculator.cli import _for_page
    assert "⟦" not in _for_page(str(err.value)) and "adopted figures only" in _for_page(str(err.value))
    # an estimate without the bill's values takes the what-if as before
    estimate = bill.compute(RULES, "2027-Q1", {"water-gallons": "12000"}, **what_if)
    assert estimate["total"] != plain["total"]


def test_a_payment_date_more_than_a_year_before_the_bill_is_refused():
    """The twelfth hostile tester: `--paid-on 1900-01-01` for a bill due in 2025 was "in time". A payment date more
    than a year before the bill is due is asked about (the year mistyped); one a month early is an early payment."""
    import pytest as _pytest
    from calculator.bills import bill
    from calculator.core.errors import InputError
    from calculator.core.rules import load
    with _pytest.raises(InputError) as err:
        bill.compute(load(), "2025-Q4", {"water-gallons": "12000"}, paid_on="1900-01-01")
    assert "is more than a year before this bill is due (October 15, 2025)" in str(err.value)
    assert err.value.field == "paid-on"
    early = bill.compute(load(), "2025-Q4", {"water-gallons": "12000"}, paid_on="2025-09-01")
    assert early["paid_on"] == "2025-09-01" and early["penalty"] == "0.00"
