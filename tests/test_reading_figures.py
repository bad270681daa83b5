"""The exact figures of each reading of the late penalty, chosen or not.

tests/test_every_switch.py proves that switching a reading changes an answer; this proves the
answer is the right one. The Town may switch to any recorded reading, and then its figures are
the bills. A copy of the rules with the reading switched, as test_every_switch does.
rents.F: "a penalty of 15% per quarter after nonpayment for 30 days" (rules/interpretations/
penalty-accrual.yaml). The bill: 2028-Q1, 12,000 gallons, charge $96.00; the first penalty applies
from February 15, 2028 and each further period 3 months later (tests/cases/penalty-periods.yaml)."""
import copy
import datetime as dt
from decimal import Decimal

import pytest

from calculator.bills import bill, penalty
from calculator.core.rules import load

RULES = load()


def reading(ident, option):
    rules = copy.deepcopy(RULES)
    assert option in rules["interpretations"][ident]["options"], option
    rules["interpretations"][ident]["chosen"] = option
    return rules


PAID = {1: "2028-02-15", 2: "2028-05-15", 3: "2028-08-15", 4: "2028-11-15", 9: "2030-02-15", 10: "2030-05-15"}

# periods: penalty on $96.00, by reading, worked out by hand
FIGURES = {
    # 15% of the charge for each period
    "simple": {1: "14.40", 2: "28.80", 3: "43.20", 4: "57.60", 9: "129.60", 10: "144.00"},
    # 15% of the charge plus the penalties before: 96 x (1.15^n - 1), rounded half up to the cent
    "compound": {1: "14.40", 2: "30.96", 3: "50.00", 4: "71.90", 9: "241.72", 10: "292.37"},
    # one 15%, however long it stays unpaid
    "once": {1: "14.40", 2: "14.40", 3: "14.40", 4: "14.40", 9: "14.40", 10: "14.40"},
}


@pytest.mark.parametrize("option", sorted(FIGURES))
@pytest.mark.parametrize("n", sorted(PAID))
def test_each_reading_of_the_penalty_gives_its_own_figure(option, n):
    out = bill.compute(reading("penalty-accrual", option), "2028-Q1", {"water-gallons": "12000"}, PAID[n])
    assert out["charge"] == "96.00"
    assert out["penalty_periods"] == (1 if option == "once" else n)  # the periods charged (H14)
    assert out["penalty"] == FIGURES[option][n], (option, n, out["penalty"])
    assert out["total"] == str(Decimal("96.00") + Decimal(FIGURES[option][n]))


def test_every_reading_of_the_penalty_is_tested():
    assert set(FIGURES) == set(RULES["interpretations"]["penalty-accrual"]["options"])


@pytest.mark.parametrize("option", sorted(FIGURES))
def test_the_unrounded_penalty_by_reading(option):
    rules = reading("penalty-accrual", option)
    due = dt.date(2028, 1, 15)
    exact = {"simple": ["0", "14.40", "28.80", "43.20"],
             "compound": ["0", "14.40", "30.9600", "50.004000"],   # 96 x 0.15, 96 x 0.3225, 96 x 0.520875
             "once": ["0", "14.40", "14.40", "14.40"]}[option]
    for n, value in enumerate(exact):
        assert penalty.unrounded(rules, Decimal("96.00"), n, due) == Decimal(value), (option, n)
    assert penalty.unrounded(rules, Decimal("96.00"), -1, due) == 0


def test_no_penalty_within_the_grace_period_under_any_reading():
    for option in FIGURES:
        out = bill.compute(reading("penalty-accrual", option), "2028-Q1", {"water-gallons": "12000"}, "2028-02-14")
        assert (out["penalty_periods"], out["penalty"], out["total"]) == (0, "0.00", "96.00"), option


def test_counting_calendar_days_ends_the_grace_period_on_day_30_even_on_a_weekend():
    # 2027-Q1: day 30 after January 15 is Sunday February 14 (and the 15th is Washington's Birthday)
    days = reading("period-end-business-day", "calendar-days")
    assert penalty.last_day_to_pay(days, dt.date(2027, 1, 15)) == dt.date(2027, 2, 14)
    assert penalty.first_penalty_date(days, dt.date(2027, 1, 15)) == dt.date(2027, 2, 15)
    out = bill.compute(days, "2027-Q1", {"water-gallons": "12000"}, "2027-02-15")
    assert (out["last_day_to_pay"], out["penalty_periods"], out["penalty"]) == ("2027-02-14", 1, "14.40")
    chosen = bill.compute(RULES, "2027-Q1", {"water-gallons": "12000"}, "2027-02-15")
    assert (chosen["last_day_to_pay"], chosen["penalty_periods"], chosen["penalty"]) == ("2027-02-16", 0, "0.00")


def test_half_even_rounding_rounds_a_half_cent_to_the_even_cent():
    # gallons are whole, so the half cent comes from a what-if rate with odd cents:
    # 8,010 gallons of sewage x $10.50 / 1,000 = $84.105
    up = bill.compute(RULES, "2027-Q1", {"sewage-gallons": "8010"}, vc_per_1000="10.50")
    even = bill.compute(reading("rounding", "half-even-per-line"), "2027-Q1", {"sewage-gallons": "8010"},
                        vc_per_1000="10.50")
    assert (up["charge"], even["charge"]) == ("84.11", "84.10")
    # 8,030 gallons: $84.315, which both readings round up to the even cent
    assert bill.compute(reading("rounding", "half-even-per-line"), "2027-Q1", {"sewage-gallons": "8030"},
                        vc_per_1000="10.50")["charge"] == "84.32"


# ---- VC's explanation: each step's provision, reading and figures, under each reading ----

def vc_steps(rules, *args, **kw):
    from calculator.rates import vc
    return [(s["cite"], s.get("interpretation"), s["values"]) for s in vc.compute(rules, *args, **kw)["explanation"]]


def test_each_vc_step_cites_its_provision_and_reading_with_its_figures():
    assert vc_steps(RULES, "856791", "85000000", "25000", budgeted_om_cost="900000") == [
        ("rents.D", None, {"om_cost": "856791"}),
        ("rate-schedules.A", "vc-cost-basis", {"budgeted_om_cost": "900000"}),
        ("rents.E", "extraneous-flow", {"extraneous_flow_cost": "25000"}),
        ("rents.D", "rounding", {"vc_per_1000_gallons": "10.08"}),
        ("rents.B", None, {})]
    assert vc_steps(RULES, "856791", "85000000")[1] == ("rate-schedules.A", "vc-cost-basis", {"budgeted_om_cost": None})


def test_the_vc_step_shows_the_division_and_its_rounding():
    """clerk12 (8): $912,400 ÷ 80,750 thousand gallons is $11.2991, shown only as $11.30; the rounding moves the
    minimum by 1¢. The step shows the division before the rounding; a division that comes out even is said once."""
    from calculator.rates import vc
    texts = [s["text"] for s in vc.compute(RULES, "912400", "80750000")["explanation"]]
    assert "VC = $912,400.00 ÷ 80,750,000 gallons × 1,000 = $11.2990…, rounded to the cent: $11.30 per 1,000 gallons." in texts
    texts = [s["text"] for s in vc.compute(RULES, "850000", "85000000")["explanation"]]
    assert "VC = $850,000.00 ÷ 85,000,000 gallons × 1,000 = $10.00 per 1,000 gallons." in texts


def test_vc_under_the_other_readings_adds_the_extraneous_flow_or_uses_the_budget():
    added = reading("extraneous-flow", next(o for o in RULES["interpretations"]["extraneous-flow"]["options"]
                                            if o != "part-of-om"))
    assert vc_steps(added, "856791", "85000000", "25000")[2] == (
        "rents.E", "extraneous-flow", {"extraneous_flow_cost": "25000"})
    from calculator.rates import vc
    assert vc.compute(added, "856791", "85000000", "25000")["vc_per_1000_gallons"] == "10.37"  # 881,791 / 85,000,000
    budgeted = reading("vc-cost-basis", "budgeted")
    out = vc.compute(budgeted, "856791", "85000000", None, budgeted_om_cost="900000")
    assert (out["cost_basis"], out["total_cost"], out["vc_per_1000_gallons"]) == ("budgeted", "900000.00", "10.59")
    assert vc_steps(budgeted, "856791", "85000000", None, budgeted_om_cost="900000")[1] == (
        "rate-schedules.A", "vc-cost-basis", {"budgeted_om_cost": "900000"})


def test_vc_refusals_name_the_field_to_correct():
    from calculator.rates import vc
    from calculator.core.errors import InputError
    cases = [(RULES, ("10000", "100000000", "25000"), {}, "extraneous-flow-cost"),
             (reading("vc-cost-basis", "budgeted"), ("856791", "85000000"), {}, "budgeted-om-cost")]
    for rules, args, kw, field in cases:
        with pytest.raises(InputError) as err:
            vc.compute(rules, *args, **kw)
        assert err.value.field == field, (args, err.value.field)
    for empty in ("", "  "):   # an empty budget field is no budget
        assert vc.compute(RULES, "856791", "85000000", None, budgeted_om_cost=empty)["budgeted_om_cost"] is None


# ---- the days the penalty periods begin, under each reading of "per quarter" ----
# 2027-Q1 is due January 15, 2027. Day 30 is Sunday, February 14; Monday, February 15 is
# Washington's Birthday (the third Monday of February), so the last day to pay is Tuesday,
# February 16 and the first penalty applies from Wednesday, February 17 (tests/cases/rents.yaml).
# 2027-Q4 is due October 15, 2027; day 30 is Sunday, November 14, so the last day to pay is
# Monday, November 15 and the first penalty applies from Tuesday, November 16.

def starts(rules, due, paid_on):
    return [d.isoformat() for d in penalty.period_starts(rules, dt.date.fromisoformat(due),
                                                         dt.date.fromisoformat(paid_on))]


def test_penalty_periods_begin_every_three_months_from_the_moved_first_penalty_date():
    assert starts(RULES, "2027-01-15", "2027-02-16") == []
    assert starts(RULES, "2027-01-15", "2027-02-17") == ["2027-02-17"]
    assert starts(RULES, "2027-01-15", "2027-05-16") == ["2027-02-17"]
    assert starts(RULES, "2027-01-15", "2027-05-17") == ["2027-02-17", "2027-05-17"]
    assert starts(RULES, "2027-01-15", "2028-02-17") == ["2027-02-17", "2027-05-17", "2027-08-17",
                                                          "2027-11-17", "2028-02-17"]


def test_penalty_periods_from_the_day_after_the_grace_days_under_that_reading():
    rules = reading("later-penalty-start", "day-after-grace")
    # the first still waits for the moved last day; the later ones count from February 15
    assert starts(rules, "2027-01-15", "2027-02-16") == []
    assert starts(rules, "2027-01-15", "2027-05-14") == ["2027-02-17"]
    assert starts(rules, "2027-01-15", "2027-11-10") == ["2027-02-17", "2027-05-15", "2027-08-15"]


def test_penalty_periods_by_billing_quarter_under_that_reading():
    rules = reading("penalty-quarter", "billing-quarter")
    assert starts(rules, "2027-01-15", "2027-03-31") == ["2027-02-17"]
    assert starts(rules, "2027-01-15", "2027-04-01") == ["2027-02-17", "2027-04-01"]
    assert starts(rules, "2027-01-15", "2027-11-10") == ["2027-02-17", "2027-04-01", "2027-07-01", "2027-10-01"]
    # the fourth quarter's later periods begin in the next year
    assert starts(rules, "2027-10-15", "2028-04-01") == ["2027-11-16", "2028-01-01", "2028-04-01"]
    both = copy.deepcopy(rules)
    both["interpretations"]["later-penalty-start"]["chosen"] = "day-after-grace"
    assert starts(both, "2027-10-15", "2028-07-01") == ["2027-11-16", "2028-01-01", "2028-04-01", "2028-07-01"]


def test_vc_from_the_projected_cost_when_past_data_is_not_available():
    # rents.D: "If past date is not available, the value of VC shall be determined on the basis of
    # data which are deemed to reasonably represent the projected ... expenditures for the year."
    from calculator.rates import vc
    out = vc.compute(RULES, None, "85000000", projected_om_cost="856791")
    assert (out["om_cost"], out["projected_om_cost"], out["cost_source"], out["total_cost"],
            out["vc_per_1000_gallons"]) == (None, "856791.00", "projected", "856791.00", "10.08")
    assert (out["command"], out["user_volume_gallons"]) == ("vc", "85000000")   # what the Clerk's desk reads back
    steps = out["explanation"]
    assert [(s["cite"], s.get("interpretation"), s["values"]) for s in steps[:2]] == [
        ("rents.D", None, {"projected_om_cost": "856791"}),
        ("rate-schedules.A", "vc-cost-basis", {"budgeted_om_cost": None})]
    assert steps[0]["quote"].startswith("If past date is not available") and steps[0]["quote"].endswith("year.")
    # an empty past-year box is no past-year cost; a budget is shown, not used
    shown = vc.compute(RULES, "  ", "85000000", projected_om_cost="856791", budgeted_om_cost="900000")
    assert (shown["total_cost"], shown["budgeted_om_cost"], shown["cost_source"]) == ("856791.00", "900000.00", "projected")
    assert vc_steps(RULES, "", "85000000", projected_om_cost="856791", budgeted_om_cost="900000")[1] == (
        "rate-schedules.A", "vc-cost-basis", {"budgeted_om_cost": "900000"})
    # the budgeted reading uses the budget whichever cost is known
    budgeted = vc.compute(reading("vc-cost-basis", "budgeted"), None, "85000000", projected_om_cost="856791",
                          budgeted_om_cost="900000")
    assert (budgeted["total_cost"], budgeted["vc_per_1000_gallons"]) == ("900000.00", "10.59")


def test_vc_takes_the_past_cost_or_the_projected_one_never_both_nor_neither():
    from calculator.rates import vc
    from calculator.core.errors import InputError
    for args, kw, field in [(("856791", "85000000"), {"projected_om_cost": "856791"}, "projected-om-cost"),
                            ((None, "85000000"), {}, "om-cost"), (("", "85000000"), {"projected_om_cost": " "}, "om-cost"),
                            (("abc", "85000000"), {}, "om-cost"),
                            ((None, "85000000"), {"projected_om_cost": "abc"}, "projected-om-cost")]:
        with pytest.raises(InputError) as err:
            vc.compute(RULES, *args, **kw)
        assert err.value.field == field, (args, kw, err.value.field)
    with pytest.raises(InputError, match="more than 0 gallons"):
        vc.compute(RULES, "856791", "0")
    assert vc.compute(RULES, "856791", "1")["vc_per_1000_gallons"] == "856791000.00"


def test_the_hearing_window_runs_on_only_under_its_reading_and_with_the_holidays_known():
    # the schedule check (calculator.rates.rate_year) reads parameters alone: without the readings and
    # the holidays, the window is the one the law writes, day 30 even on a Sunday
    from calculator.rates import hearing
    rules = reading("hearing-window-end", "next-business-day")
    assert hearing.window(rules, "2027-10-01") == {"earliest": "2027-10-16", "latest": "2027-11-01"}
    assert hearing.window(rules, dt.date(2027, 10, 1)) == {"earliest": "2027-10-16", "latest": "2027-11-01"}
    bare = {k: v for k, v in rules.items() if k != "holidays"}
    assert hearing.window(bare, dt.date(2027, 10, 1)) == {"earliest": "2027-10-16", "latest": "2027-10-31"}
    assert hearing.window(RULES, "2027-10-01") == {"earliest": "2027-10-16", "latest": "2027-10-31"}


def test_the_hearing_window_with_parameters_alone_ends_on_day_30():
    # what the schedule check gives it: no readings (or not this one) and no holidays
    from calculator.rates import hearing
    rules = reading("hearing-window-end", "next-business-day")
    alone = {k: v for k, v in rules.items() if k not in ("holidays", "interpretations")}
    other = dict(alone, interpretations={k: v for k, v in rules["interpretations"].items() if k != "hearing-window-end"})
    for r in (alone, other):
        assert hearing.window(r, dt.date(2027, 10, 1)) == {"earliest": "2027-10-16", "latest": "2027-10-31"}
        out = hearing.compute(r, "2027-10-01", "2027-10-31")
        # without the holidays nothing says whether day 30 is a business day: no step about it
        assert (out["latest"], out["last_day_is_a_business_day"], out["valid"]) == ("2027-10-31", True, True)
        assert [s["cite"] for s in out["explanation"]] == ["rate-schedules.B", "rate-schedules.B"]


def test_the_hearing_step_about_a_closed_day_30_names_its_reading():
    from calculator.rates import hearing
    for rules, latest in ((RULES, "2027-10-31"), (reading("hearing-window-end", "next-business-day"), "2027-11-01")):
        out = hearing.compute(rules, "2027-10-01")
        steps = [(s["cite"], s.get("interpretation"), s["values"]) for s in out["explanation"]]
        assert steps == [("rate-schedules.B", None, {"earliest": "2027-10-16", "latest": latest}),
                         ("rate-schedules.B", "hearing-window-end", {"last_day_is_a_business_day": False})], steps


def test_the_day_after_grace_reading_counts_the_grace_days_in_force_on_the_due_date():
    # a later law shortening the grace to 20 days from 2029 does not move a 2027 bill's periods
    rules = reading("later-penalty-start", "day-after-grace")
    rules["parameters"]["late-penalty-grace-days"]["history"] = [
        {"since": None, "value": 30, "quote": "nonpayment for 30 days"},
        {"since": "2029-01-01", "value": 20, "quote": "nonpayment for 20 days"}]
    assert starts(rules, "2027-01-15", "2027-11-10") == ["2027-02-17", "2027-05-15", "2027-08-15"]
