"""The Clerk's batch (compute_many) gives exactly the bills compute gives one by one."""
from hypothesis import given, settings
from hypothesis import strategies as st

from calculator.bills import bill
from calculator.core.rules import load

RULES = load()
usage = st.builds(lambda k, v: {k: str(v)}, st.sampled_from(bill.USAGE_KINDS),
                  st.integers(min_value=0, max_value=1_000_000))  # usage is whole gallons or cubic feet


@settings(max_examples=50, deadline=None)
@given(st.lists(usage, min_size=1, max_size=20), st.sampled_from([None, "2027-01-10", "2027-03-01", "2027-09-01"]))
def test_a_batch_equals_the_bills_one_by_one(usages, paid_on):
    batch = bill.compute_many(RULES, "2027-Q1", usages, paid_on)
    assert batch == [bill.compute(RULES, "2027-Q1", u, paid_on, explain=False) for u in usages]
    explained = bill.compute(RULES, "2027-Q1", usages[0], paid_on)
    assert {k: v for k, v in explained.items() if k != "explanation"} == batch[0]


def test_a_quarter_worked_out_once_still_answers_in_each_language_and_for_other_rules():
    """compute keeps a quarter's context between bills: the same answer the second time, an
    answer in the language asked for, and other rules (a flipped reading) answered by their own."""
    import copy
    from decimal import Decimal

    from calculator.core.i18n import localized, speaking
    first = bill.compute(RULES, "2027-Q1", {"water-gallons": "12000"}, "2027-05-01")
    first["schedule"]["title"] = "changed by a caller"  # what is handed out is the caller's own
    again = bill.compute(RULES, "2027-Q1", {"water-gallons": "12000"}, "2027-05-01")
    assert again["schedule"]["title"] != "changed by a caller" and again["total"] == first["total"]
    with speaking("es"):
        spanish = bill.compute(localized(RULES), "2027-Q1", {"water-gallons": "12000"}, "2027-05-01")
    assert spanish["quarter_words"] != again["quarter_words"] and spanish["total"] == again["total"]
    other = copy.deepcopy(RULES)  # another rate: its own quarter context, not the one kept for RULES
    for schedule in other["schedules"]:
        schedule["vc_per_1000_gallons"] = str(2 * Decimal(schedule["vc_per_1000_gallons"]))
    doubled = bill.compute(other, "2027-Q1", {"water-gallons": "12000"}, "2027-05-01")
    assert Decimal(doubled["charge"]) == 2 * Decimal(again["charge"])
    assert bill.compute(RULES, "2027-Q1", {"water-gallons": "12000"}, "2027-05-01") == again
