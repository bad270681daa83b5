"""The Clerk's batch (compute_many) gives exactly the bills compute gives one by one."""
from hypothesis import given, settings
from hypothesis import strategies as st

from calculator import bill
from calculator.rules import load

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
