"""Amendments in time: a parameter holds dated values, and a bill uses the value in force on
the day that matters (the quarter's first day for the minimum, the due date for the penalty),
so bills for quarters before an amendment keep the old number."""
import shutil
from decimal import Decimal

import pytest

from calculator.rates import adoption, hearing
from calculator.cli import run
from calculator.core.rules import parameter
from kit.rules.validate import RULES_DIR, RuleError, compile_rules

# An amendment effective 2028-01-01 (an invented local law, 1-2027): a 10% penalty and a
# minimum charge of 10,000 gallons. The law's text says the new numbers; the old values keep
# their quotes, which the text as received (rules/source/) still holds.
AMENDED_TEXT = [("law.yaml", "a penalty of 15% per quarter", "a penalty of 10% per quarter"),
                ("law.yaml", "usage of 8,000 gallons", "usage of 10,000 gallons"),
                ("parameters/late-penalty-grace-days.yaml", "penalty of 15%", "penalty of 10%"),
                ("parameters/late-penalty-period-months.yaml", "penalty of 15%", "penalty of 10%"),
                ("interpretations/penalty-accrual.yaml", "penalty of 15%", "penalty of 10%"),
                ("interpretations/period-end-business-day.yaml", "penalty of 15%", "penalty of 10%"),
                ("interpretations/payment-order.yaml", "penalty of 15%", "penalty of 10%"),
                ("interpretations/minimum-with-sewage-meter.yaml", "usage of 8,000 gallons", "usage of 10,000 gallons")]
RATE_2028 = '''values:
  "2028-01-01":
    value: "0.10"
    quote: "Nonpayment shall be subject to a penalty of 10% per quarter after nonpayment for 30 days."
    local_law: 1-2027
'''
MINIMUM_2028 = '''values:
  "2028-01-01":
    value: 10000
    quote: "water meter usage of 10,000 gallons in such calendar quarter"
    local_law: 1-2027
'''


def edit(rules_dir, changes):
    for name, old, new in changes:
        path = rules_dir / name
        text = path.read_text(encoding="utf-8")
        assert old in text, (name, old)
        path.write_text(text.replace(old, new), encoding="utf-8")


def append(path, text):
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


@pytest.fixture
def rules_copy(tmp_path):
    shutil.copytree(RULES_DIR, tmp_path / "rules")
    return tmp_path / "rules"


@pytest.fixture
def amended(rules_copy):
    edit(rules_copy, AMENDED_TEXT)
    append(rules_copy / "parameters" / "late-penalty-rate.yaml", RATE_2028)
    append(rules_copy / "parameters" / "minimum-charge-water-gallons.yaml", MINIMUM_2028)
    return compile_rules(rules_copy)


def bill(rules, quarter, paid_on, gallons="12000"):
    return run(["bill", "--quarter", quarter, "--water-gallons", gallons, "--paid-on", paid_on], rules=rules)


def test_a_2027_bill_paid_late_keeps_the_old_rate_and_a_2028_bill_gets_the_new(amended):
    shipped = compile_rules(RULES_DIR)
    old_q4, new_q4 = bill(shipped, "2027-Q4", "2027-11-20"), bill(amended, "2027-Q4", "2027-11-20")
    for key in ("due_date", "charge", "minimum_charge", "penalty_periods", "penalty", "total"):
        assert old_q4[key] == new_q4[key], key                      # 2027 bills are as they were
    assert new_q4["penalty"] == "14.40"                              # 15% of $96.00
    q1 = bill(amended, "2028-Q1", "2028-02-20")
    assert q1["penalty_periods"] == 1 and q1["penalty"] == "9.60"     # 10% of $96.00
    step = lambda r: next(s["text"] for s in r["explanation"] if s.get("interpretation") == "penalty-accrual")
    assert "a 15% (until December 31, 2027) penalty" in step(new_q4)
    assert "a 10% (since January 1, 2028) penalty" in step(q1)
    assert "(since" not in step(old_q4) and "(until" not in step(old_q4)  # one value: wording unchanged


def test_the_minimum_charge_follows_the_quarters_first_day(amended):
    q4, q1 = (run(["bill", "--quarter", q, "--water-gallons", "0"], rules=amended) for q in ("2027-Q4", "2028-Q1"))
    assert q4["minimum_charge"] == "64.00"                           # 10.00 x 8,000 x 0.8 / 1,000
    assert q1["minimum_charge"] == "80.00"                           # 10.00 x 10,000 x 0.8 / 1,000
    assert any("10,000 gallons of water use (since January 1, 2028)" in s["text"] for s in q1["explanation"])


def test_a_penalty_follows_the_due_date_not_the_payment_date(amended):
    # a 2027-Q4 bill paid in 2028 is penalised at the rate in force on its due date
    late = bill(amended, "2027-Q4", "2028-02-20")
    assert late["penalty_periods"] == 2 and late["penalty"] == "28.80"  # 2 x 15% of $96.00


def test_parameter_reads_the_value_in_force_on_a_day(amended):
    assert parameter(amended, "late-penalty-rate", on="2027-12-31") == Decimal("0.15")
    assert parameter(amended, "late-penalty-rate", on="2028-01-01") == Decimal("0.10")
    assert parameter(amended, "late-penalty-rate") == Decimal("0.10")    # the law as it stands
    assert amended["parameters"]["late-penalty-rate"]["value"] == "0.10"
    import json
    assert json.loads(json.dumps(amended)) == amended                      # compiled rules stay JSON


def test_the_hearing_window_and_the_board_follow_their_dates(rules_copy):
    append(rules_copy / "parameters" / "town-board-size.yaml",
           'values:\n  "2030-01-01":\n    value: 7\n    quote: "adopted by majority vote"\n    source: "A larger board"\n')
    rules = compile_rules(rules_copy)
    assert adoption.majority(rules, "2029-12-31") == 3 and adoption.majority(rules, "2030-01-01") == 4
    assert hearing.window(rules, "2029-01-01")["earliest"] == "2029-01-16"


def test_values_out_of_order_are_refused_where_they_stand(rules_copy):
    append(rules_copy / "parameters" / "late-penalty-rate.yaml",
           'values:\n  "2029-01-01": {value: "0.12", quote: "a penalty of 15%", local_law: 2-2028}\n'
           '  "2028-01-01": {value: "0.10", quote: "a penalty of 15%", local_law: 1-2027}\n')
    with pytest.raises(RuleError) as err:
        compile_rules(rules_copy)
    [p] = err.value.problems
    assert "late-penalty-rate.yaml:8:3: the date 2028-01-01 is listed after 2029-01-01" in p


def test_a_date_given_twice_is_refused(rules_copy):
    append(rules_copy / "parameters" / "late-penalty-rate.yaml",
           'values:\n  "2028-01-01": {value: "0.12", quote: "a penalty of 15%", local_law: 1-2027}\n'
           '  "2028-01-01": {value: "0.10", quote: "a penalty of 15%", local_law: 1-2027}\n')
    with pytest.raises(RuleError) as err:
        compile_rules(rules_copy)
    [p] = err.value.problems
    assert "late-penalty-rate.yaml:8:3: the date 2028-01-01 is given twice" in p


def test_a_dated_value_whose_quote_is_not_in_the_text_is_refused(rules_copy):
    append(rules_copy / "parameters" / "late-penalty-rate.yaml", RATE_2028)  # the text still says 15%
    with pytest.raises(RuleError) as err:
        compile_rules(rules_copy)
    [p] = err.value.problems
    assert "late-penalty-rate.yaml:9:12: this quote is not in the text of rents.F" in p


PENALTY_TEXT = [c for c in AMENDED_TEXT if "15%" in c[1]]


def test_an_earlier_value_must_be_quoted_from_some_text(rules_copy):
    edit(rules_copy, PENALTY_TEXT)
    edit(rules_copy, [("parameters/late-penalty-rate.yaml", 'Nonpayment shall be', 'Lateness shall be')])
    append(rules_copy / "parameters" / "late-penalty-rate.yaml", RATE_2028)
    with pytest.raises(RuleError) as err:
        compile_rules(rules_copy)
    [p] = err.value.problems
    assert "late-penalty-rate.yaml:5:8: this quote of an earlier value is neither in the text" in p


def test_a_dated_value_needs_its_local_law_or_source(rules_copy):
    edit(rules_copy, PENALTY_TEXT)
    append(rules_copy / "parameters" / "late-penalty-rate.yaml", RATE_2028.replace("    local_law: 1-2027\n", ""))
    with pytest.raises(RuleError) as err:
        compile_rules(rules_copy)
    assert any("late-penalty-rate.yaml:8:" in p for p in err.value.problems), err.value.problems


# A second dated value for the board's size and for the due dates, each taking effect in the middle
# of a span (a quarter, a year), so a lookup on the wrong day (the quarter's last day instead of its
# first, the law as it stands instead of the day of the vote) gives a different answer.
BOARD_2030 = 'values:\n  "2030-01-01":\n    value: 7\n    quote: "adopted by majority vote"\n    source: "A larger board"\n'
DUE_2029 = ('values:\n  "2029-02-01":\n    value: ["02-01", "05-01", "08-01", "11-01"]\n'
            '    quote: "billed quarterly"\n    source: "Due dates moved (a test)"\n')


def test_a_vote_is_counted_against_the_board_on_the_day_of_the_vote(rules_copy):
    append(rules_copy / "parameters" / "town-board-size.yaml", BOARD_2030)
    rules = compile_rules(rules_copy)
    problem = lambda day, ayes, noes, absent: adoption.vote_problem(
        rules, {"date": day, "ayes": ayes, "noes": noes, "absent": absent}, "2029-12-01")
    # seven members voting before the board grew: more than its five
    assert problem("2029-12-31", 3, 2, 2) == ("3 for, 2 against and 2 absent make 7 members, but the Town Board has 5. "
                                              "Check the numbers voting for, voting against and absent.")
    assert problem("2029-12-31", 3, 1, 1) is None                  # three of five
    # once it has seven, three ayes are not a majority of all of them; four are
    assert problem("2030-01-01", 3, 2, 2) == ("A vote of 3 for is not a majority of all 7 members of the Town Board; "
                                              "4 are needed whatever the absences (NY Town Law § 63; Rate schedules "
                                              "C). If the vote carried with 4 or more for, correct the number voting "
                                              "for; "
                                              "if not, the schedule is not adopted, and the Board may vote on it "
                                              "again.")
    assert problem("2030-01-01", 4, 2, 1) is None
    assert adoption.majority(rules) == 4                            # the board as it stands


def test_a_quarters_due_date_is_read_on_its_first_day(rules_copy):
    append(rules_copy / "parameters" / "bill-due-dates.yaml", DUE_2029)
    rules = compile_rules(rules_copy)
    due = lambda quarter: run(["bill", "--quarter", quarter, "--water-gallons", "12000"], rules=rules)["due_date"]
    # 2029-Q1 starts January 1, before the new dates: still January 15 (the quarter's last day,
    # March 31, would give February 1)
    assert due("2028-Q4") == "2028-10-15"
    assert due("2029-Q1") == "2029-01-15"
    assert due("2029-Q2") == "2029-05-01"
    assert due("2029-Q4") == "2029-11-01"
    late = run(["bill", "--quarter", "2029-Q2", "--water-gallons", "12000", "--paid-on", "2029-05-31"], rules=rules)
    assert (late["last_day_to_pay"], late["penalty_periods"]) == ("2029-05-31", 0)   # May 1 + 30 days, a Thursday
    late = run(["bill", "--quarter", "2029-Q2", "--water-gallons", "12000", "--paid-on", "2029-06-01"], rules=rules)
    assert late["penalty_periods"] == 1


GRACE_2029 = ('values:\n  "2029-01-01":\n    value: 20\n    quote: "after nonpayment for 20 days"\n'
              '    source: "A shorter grace period (a test)"\n')
# the law's words say the new number, in every file quoting them; the old value keeps its quote,
# which the text as received still holds (the value must be a number its quote states)
GRACE_TEXT = [("law.yaml", "after nonpayment for 30\n", "after nonpayment for 20\n")] + [
    (name, "after nonpayment for 30 days", "after nonpayment for 20 days") for name in ("parameters/late-penalty-rate.yaml", "interpretations/penalty-accrual.yaml",
    "interpretations/payment-order.yaml", "interpretations/penalty-quarter.yaml",
    "interpretations/period-end-business-day.yaml", "interpretations/later-penalty-start.yaml",
    "interpretations/later-period-end-business-day.yaml")]
MONTHS_2029 = ('values:\n  "2029-01-01":\n    value: 1\n    quote: "a penalty of 15% per quarter"\n'
               '    source: "A monthly penalty period (a test)"\n')


def test_the_grace_period_is_the_one_in_force_on_the_due_date(rules_copy):
    edit(rules_copy, GRACE_TEXT)
    append(rules_copy / "parameters" / "late-penalty-grace-days.yaml", GRACE_2029)
    rules = compile_rules(rules_copy)
    # 2028-Q4, due October 15, 2028: 30 days, to Tuesday November 14, even when paid in 2029
    q4 = bill(rules, "2028-Q4", "2029-01-10")
    assert (q4["last_day_to_pay"], q4["penalty_from"]) == ("2028-11-14", "2028-11-15")
    # 2029-Q2, due April 15, 2029: 20 days, to Saturday May 5, so the next business day, Monday May 7
    q2 = bill(rules, "2029-Q2", "2029-05-08")
    assert (q2["last_day_to_pay"], q2["penalty_periods"]) == ("2029-05-07", 1)


def test_the_penalty_period_is_the_one_in_force_on_the_due_date(rules_copy):
    append(rules_copy / "parameters" / "late-penalty-period-months.yaml", MONTHS_2029)
    rules = compile_rules(rules_copy)
    # 2028-Q4: first penalty November 15, 2028, then quarterly: February 15, 2029 is its second period
    assert bill(rules, "2028-Q4", "2029-04-14")["penalty_periods"] == 2
    # 2029-Q1: first penalty February 15, 2029 (day 30, February 14, is a Wednesday), then monthly:
    # March 15 and April 15 begin the second and third periods
    assert bill(rules, "2029-Q1", "2029-04-14")["penalty_periods"] == 2
    assert bill(rules, "2029-Q1", "2029-04-15")["penalty_periods"] == 3


def test_the_hearing_sentence_states_the_days_in_force_on_the_publication_date(rules_copy):
    edit(rules_copy, [("law.yaml", "no fewer than 15 but not longer than 30 days", "no fewer than 20 but not longer than 40 days"),
                      ("interpretations/hearing-window-end.yaml", "not longer than 30 days", "not longer than 40 days")])
    append(rules_copy / "parameters" / "hearing-minimum-days.yaml",
           'values:\n  "2030-01-01":\n    value: 20\n    quote: "no fewer than 20"\n    source: "A test"\n')
    append(rules_copy / "parameters" / "hearing-maximum-days.yaml",
           'values:\n  "2030-01-01":\n    value: 40\n    quote: "not longer than 40 days"\n    source: "A test"\n')
    rules = compile_rules(rules_copy)
    before = hearing.compute(rules, "2029-12-01")
    assert (before["earliest"], before["latest"]) == ("2029-12-16", "2029-12-31")
    assert "no fewer than 15 (until December 31, 2029) and no more than 30 (until December 31, 2029) days later" \
        in before["explanation"][0]["text"]
    after = hearing.compute(rules, "2030-01-01")
    assert (after["earliest"], after["latest"]) == ("2030-01-21", "2030-02-10")
