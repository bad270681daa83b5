"""Arrears (calculator/bills/arrears.py): what is still owed on an earlier quarter's bill, and its late
penalty (rents.F), as of a day; and a bill's link that carries them, read strictly.

rents.F: due on the 15th of January, April, July and October; "Nonpayment shall be subject to a
penalty of 15% per quarter after nonpayment for 30 days." 2025-Q3 is due July 15, 2025; day 30 is
Thursday, August 14 (no holiday moves it), the last day to pay; with the recorded readings, penalty
periods begin August 15, November 15, February 15, May 15... (every 3 months), each adding 15% of the
charge then unpaid (penalty-accrual: simple). Payments go to the charge first (payment-order:
charge-first). Every expected value below is worked out by hand in its comment."""
import datetime as dt
from decimal import Decimal

import pytest

from calculator.bills import arrears
from calculator.core.errors import InputError
from calculator.core.rules import load
from casebook import amended, with_readings

RULES = load()
D = Decimal




def owed(day: str, payments=(), charge="96.00", quarter="2025-Q3", rules=RULES) -> dict:
    return arrears.owed(rules, quarter, D(charge), [(dt.date.fromisoformat(w), D(a)) for w, a in payments],
                        dt.date.fromisoformat(day))


def test_an_unpaid_bill_on_its_last_day_to_pay_has_no_penalty():
    o = owed("2025-08-14")
    assert o == {"quarter": "2025-Q3", "charge": D("96.00"), "paid": D("0.00"), "payments": [],
                 "unpaid_charge": D("96.00"), "penalties": D("0.00"), "unpaid_total": D("96.00"),
                 "due": dt.date(2025, 7, 15), "last_day_to_pay": dt.date(2025, 8, 14),
                 "penalties_as_of": dt.date(2025, 8, 14), "late": False}


def test_the_day_after_the_last_day_begins_the_first_period():
    # 15% of $96.00 = $14.40
    o = owed("2025-08-15")
    assert (o["penalties"], o["unpaid_total"], o["late"]) == (D("14.40"), D("110.40"), True)


@pytest.mark.parametrize("day, periods", [("2025-11-14", 1), ("2025-11-15", 2), ("2026-02-15", 3),
                                          ("2026-05-14", 3), ("2026-05-15", 4), ("2027-11-15", 10)])
def test_each_period_begun_adds_15_percent_of_the_unpaid_charge(day, periods):
    # $14.40 a period
    o = owed(day)
    assert o["penalties"] == D("14.40") * periods
    assert o["unpaid_total"] == D("96.00") + D("14.40") * periods


def test_a_part_paid_late_carries_the_periods_begun_by_its_payment_the_rest_those_begun_by_the_day():
    # $40.00 paid September 2 (one period begun): 15% x 40 = 6.00; $56.00 unpaid on November 20 (two
    # periods begun: August 15, November 15): 2 x 15% x 56 = 16.80; in all 22.80
    o = owed("2025-11-20", [("2025-09-02", "40.00")])
    assert (o["paid"], o["unpaid_charge"], o["penalties"], o["unpaid_total"]) == (
        D("40.00"), D("56.00"), D("22.80"), D("78.80"))
    assert o["payments"] == [(dt.date(2025, 9, 2), D("40.00"))]


def test_a_payment_in_time_carries_no_penalty():
    # $40.00 paid on the last day to pay: no period on it; $56.00 one period by September 1: 8.40
    o = owed("2025-09-01", [("2025-08-14", "40.00")])
    assert (o["unpaid_charge"], o["penalties"]) == (D("56.00"), D("8.40"))


def test_a_payment_after_the_day_is_not_counted_yet_and_payments_count_oldest_first():
    # the October 20 payment is after the day (October 15): not counted. The two counted are sorted by day.
    o = owed("2025-10-15", [("2025-10-20", "50.00"), ("2025-09-10", "10.00"), ("2025-08-01", "20.00")])
    assert o["payments"] == [(dt.date(2025, 8, 1), D("20.00")), (dt.date(2025, 9, 10), D("10.00"))]
    # 20.00 in time: none; 10.00 late, one period: 1.50; 66.00 unpaid, one period: 9.90; in all 11.40
    assert (o["paid"], o["unpaid_charge"], o["penalties"]) == (D("30.00"), D("66.00"), D("11.40"))


def test_a_payment_on_the_day_is_counted():
    o = owed("2025-09-02", [("2025-09-02", "96.00")])
    # the whole charge paid late, one period: 14.40 still owed
    assert (o["paid"], o["unpaid_charge"], o["penalties"], o["unpaid_total"]) == (
        D("96.00"), D("0.00"), D("14.40"), D("14.40"))


def test_what_is_paid_beyond_the_charge_pays_the_penalties():
    # $100.00 on September 2: 96.00 pays the charge (late: 14.40 penalty), 4.00 pays penalties: 10.40 left
    o = owed("2025-12-01", [("2025-09-02", "100.00")])
    assert (o["unpaid_charge"], o["penalties"], o["unpaid_total"]) == (D("0.00"), D("10.40"), D("10.40"))
    # and a payment beyond charge and penalty leaves nothing owed, never less than nothing
    o = owed("2025-12-01", [("2025-09-02", "120.00")])
    assert (o["unpaid_charge"], o["penalties"], o["unpaid_total"]) == (D("0.00"), D("0.00"), D("0.00"))


def test_penalties_first_a_payment_pays_the_penalty_owed_that_day_then_the_charge():
    rules = with_readings({"payment-order": "penalties-first"})
    # $40.00 on September 2: one period on $96.00 is owed, 14.40; it pays that, and 25.60 of the charge
    # (paid late: 15% x 25.60 = 3.84 on it). $70.40 left: one period by October 15, 10.56.
    # Penalties: 3.84 + 10.56 = 14.40, all paid by the 14.40: nothing owed.
    o = owed("2025-10-15", [("2025-09-02", "40.00")], rules=rules)
    assert (o["unpaid_charge"], o["penalties"], o["unpaid_total"]) == (D("70.40"), D("0.00"), D("70.40"))
    # November 15 begins the second period on the $70.40 left: 2 x 10.56 = 21.12; with 3.84, 24.96,
    # less the 14.40 paid: 10.56 owed
    o = owed("2025-11-15", [("2025-09-02", "40.00")], rules=rules)
    assert (o["unpaid_charge"], o["penalties"], o["unpaid_total"]) == (D("70.40"), D("10.56"), D("80.96"))
    # the same payment with the charge first (the recorded reading): 40.00 late, one period, 6.00;
    # 56.00 two periods, 16.80
    o = owed("2025-11-15", [("2025-09-02", "40.00")])
    assert (o["unpaid_charge"], o["penalties"]) == (D("56.00"), D("22.80"))


def test_penalties_first_a_payment_in_time_pays_the_charge():
    # nothing is owed in penalties on August 1: the whole payment pays the charge
    rules = with_readings({"payment-order": "penalties-first"})
    o = owed("2025-08-20", [("2025-08-01", "40.00")], rules=rules)
    # 56.00 unpaid, one period by August 20: 8.40
    assert (o["unpaid_charge"], o["penalties"]) == (D("56.00"), D("8.40"))


def test_for_bill_counts_only_bills_still_owing_and_sums_them():
    day = dt.date(2025, 11, 20)
    earlier = [("2024-Q4", D("50.00"), []),                                  # nothing paid
               ("2025-Q2", D("80.00"), [(dt.date(2025, 4, 20), D("80.00"))]),  # paid in full in time
               ("2025-Q3", D("96.00"), [(dt.date(2025, 9, 2), D("40.00"))])]
    out = arrears.for_bill(RULES, earlier, day)
    # 2024-Q4: due October 15, 2024; last day November 14, 2024; periods begun by November 20, 2025:
    # Nov 15, Feb 15, May 15, Aug 15, Nov 15: five, 5 x 15% x 50 = 37.50. 2025-Q3: 22.80 (above).
    assert [o["quarter"] for o in out["quarters"]] == ["2024-Q4", "2025-Q3"]
    assert out["quarters"][0]["penalties"] == D("37.50")
    assert (out["as_of"], out["unpaid"], out["penalties"]) == ("2025-11-20", D("106.00"), D("60.30"))


def test_for_bill_with_nothing_owing():
    out = arrears.for_bill(RULES, [("2025-Q3", D("96.00"), [(dt.date(2025, 8, 1), D("96.00"))])],
                           dt.date(2025, 10, 15))
    assert out == {"as_of": "2025-10-15", "quarters": [], "unpaid": D("0.00"), "penalties": D("0.00"),
                   "credit": D("0.00")}


def test_link_values_and_read_link_give_back_the_same_bills():
    o = owed("2025-10-15", [("2025-09-02", "40.00")])
    values = arrears.link_values([("2025-Q3", o["charge"])], [(dt.date(2025, 9, 2), D("40.00"), "2025-Q3")],
                                 dt.date(2025, 10, 15))
    assert values == [("earlier-bill", "2025-Q3:96.00"), ("earlier-payment", "2025-Q3:40.00:2025-09-02"),
                      ("as-of", "2025-10-15")]
    assert arrears.link_values([], [], dt.date(2025, 10, 15)) == []
    bills = [v for k, v in values if k == "earlier-bill"]
    payments = [v for k, v in values if k == "earlier-payment"]
    usage = ("water-gallons", "12000")
    check = arrears.link_check([("quarter", "2025-Q4"), usage, *values])
    assert arrears.read_link("2025-Q4", bills, payments, "2025-10-15", check, usage) == (
        [("2025-Q3", D("96.00"), [(dt.date(2025, 9, 2), D("40.00"))])], dt.date(2025, 10, 15))


# ---- a bill's link, read strictly ----
# The check code is the first 12 hex digits of the SHA-256 of the link's other values, one `key=value` a
# line, in the order the bill writes them: the quarter, the usage, each earlier bill, each payment, as-of.

def _check(quarter, bills=(), payments=(), as_of=None, usage=None) -> str:
    import hashlib
    lines = [f"quarter={quarter}", *([f"{usage[0]}={usage[1]}"] if usage else []),
             *(f"earlier-bill={b}" for b in bills), *(f"earlier-payment={p}" for p in payments),
             *([f"as-of={as_of}"] if as_of else [])]
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()[:12]


def read(bills=(), payments=(), as_of=None, check=None, quarter="2025-Q4", usage=None):
    if check is None and bills:
        check = _check(quarter, bills, payments, as_of, usage)
    return arrears.read_link(quarter, list(bills), list(payments), as_of, check, usage)


def refused(field: str, **link) -> str:
    with pytest.raises(InputError) as e:
        read(**link)
    assert e.value.field == field
    assert str(e.value).endswith("Open the link on your bill again, or ask the Town Clerk for your bill's total.")
    return str(e.value)


def test_the_check_code_is_the_digest_of_the_links_values():
    # the bill's link of tests/cases/arrears.yaml, "A bill paid in part, late…"
    values = [("quarter", "2025-Q4"), ("water-gallons", "12000"), ("earlier-bill", "2025-Q3:96.00"),
              ("earlier-payment", "2025-Q3:40.00:2025-09-02"), ("as-of", "2025-10-15")]
    assert arrears.link_check(values) == "f04463072ed8" == _check(
        "2025-Q4", ["2025-Q3:96.00"], ["2025-Q3:40.00:2025-09-02"], "2025-10-15", ("water-gallons", "12000"))


def test_a_link_read_back_sorted_by_quarter_with_each_bills_payments():
    bills = ["2025-Q3:96.00", "2024-Q4:50.00"]
    payments = ["2025-Q3:40.00:2025-09-02", "2024-Q4:10.00:2024-12-01", "2025-Q3:6.50:2025-09-30"]
    assert read(bills, payments, "2025-10-15") == (
        [("2024-Q4", D("50.00"), [(dt.date(2024, 12, 1), D("10.00"))]),
         ("2025-Q3", D("96.00"), [(dt.date(2025, 9, 2), D("40.00")), (dt.date(2025, 9, 30), D("6.50"))])],
        dt.date(2025, 10, 15))
    # no as-of: None (the bill's own due date is used); a bill of $0.00 and an amount like 96.0 are read
    assert read(["2025-Q3:0.00", "2025-Q2:96.0"]) == (
        [("2025-Q2", D("96.0"), []), ("2025-Q3", D("0.00"), [])], None)
    # the usage is part of what the check code covers
    assert read(["2025-Q3:96.00"], usage=("water-cubic-feet", "1600"))[0] == [("2025-Q3", D("96.00"), [])]


def test_no_earlier_bill_no_arrears():
    assert arrears.read_link("2025-Q4", [], [], None, None) == ([], None)
    assert arrears.read_link("2025-Q4", None, None, "", "") == ([], None)


def test_a_link_whose_values_do_not_match_its_check_code_is_refused():
    good = _check("2025-Q4", ["2025-Q3:96.00"])
    assert read(["2025-Q3:96.00"], check=good)[0] == [("2025-Q3", D("96.00"), [])]
    refused("check", bills=["2025-Q3:9.60"], check=good)
    refused("check", bills=["2025-Q3:96.00"], check="")
    refused("check", bills=["2025-Q3:96.00"], check=good, quarter="2026-Q1")
    refused("check", bills=["2025-Q3:96.00"], check=good, usage=("water-gallons", "12000"))
    refused("check", bills=["2025-Q3:96.00"], check=good, as_of="2025-10-15")
    refused("check", bills=["2025-Q3:96.00"], payments=["2025-Q3:1.00:2025-09-02"], check=good)


def test_a_link_without_an_earlier_bill_carries_nothing_else():
    assert "no earlier bill" in refused("check", check="abc")
    assert "not the bill" in refused("earlier-payment", payments=["2025-Q3:40.00:2025-09-02"])
    assert "(⟦as-of⟧)" in refused("as-of", as_of="2025-10-15")  # the command line's (--as-of); no option on a page


@pytest.mark.parametrize("bill", ["2025-Q3", "2025-Q3:96.00:x", "2025-Q9:96.00", "Q3:96.00", "2025-Q3:96",
                                  "2025-Q3:-1.00", "2025-Q3:96.001", "2025-Q3:abc", "2025-Q3:NaN",
                                  "2025-Q3:Infinity", "2025-Q3:1E+2", ":96.00"])
def test_an_earlier_bill_a_link_would_not_write_is_refused(bill):
    assert f"“{bill}”" in refused("earlier-bill", bills=[bill])


def test_an_earlier_bill_must_be_before_the_billed_quarter_and_one_a_quarter():
    refused("earlier-bill", bills=["2025-Q4:96.00"])
    refused("earlier-bill", bills=["2026-Q1:96.00"])
    assert read(["2025-Q3:96.00"])[0] == [("2025-Q3", D("96.00"), [])]
    refused("earlier-bill", bills=["2025-Q3:96.00", "2025-Q3:10.00"])
    # the quarter as written is read as the quarter it names
    refused("earlier-bill", bills=["2025-Q3:96.00", "2025-q3:10.00"])


@pytest.mark.parametrize("payment", ["2025-Q3:40.00", "2025-Q3:40.00:2025-09-02:x", "2025-Q9:40.00:2025-09-02",
                                     "2025-Q3:40:2025-09-02", "2025-Q3:0.00:2025-09-02", "2025-Q3:-5.00:2025-09-02",
                                     "2025-Q3:40.00:2025-13-02", "2025-Q3:40.00:soon", "2025-Q3:40.00:"])
def test_a_payment_a_link_would_not_write_is_refused(payment):
    assert f"“{payment}”" in refused("earlier-payment", bills=["2025-Q3:96.00"], payments=[payment])


def test_a_payment_on_a_bill_the_link_does_not_carry_is_refused():
    refused("earlier-payment", bills=["2025-Q3:96.00"], payments=["2025-Q2:40.00:2025-09-02"])


def test_an_as_of_that_is_not_a_date_is_refused():
    assert "“2025-10-32”" in refused("as-of", bills=["2025-Q3:96.00"], as_of="2025-10-32")
    assert read(["2025-Q3:96.00"], as_of="")[1] is None


def amended_rate(rules, since: str, value: str) -> dict:
    """The rules with the late-penalty rate amended from `since` (a second, dated value)."""
    return amended(rules, "late-penalty-rate", since, D(value))


def test_two_late_payments_each_carry_their_own_periods_charge_first():
    # $40.00 on September 2 (one period: 6.00), $20.00 on November 20 (two periods: 2 x 15% x 20 = 6.00),
    # $36.00 unpaid on December 1 (two periods: 10.80): 22.80
    o = owed("2025-12-01", [("2025-09-02", "40.00"), ("2025-11-20", "20.00")])
    assert (o["paid"], o["unpaid_charge"], o["penalties"]) == (D("60.00"), D("36.00"), D("22.80"))


def test_two_late_payments_penalties_first():
    rules = with_readings({"payment-order": "penalties-first"})
    # September 2: owed 14.40 (one period on 96.00): $40.00 pays it and 25.60 of the charge (late: 3.84 on
    # it); 70.40 left. November 20: owed on that day 3.84 + 2 x 15% x 70.40 (21.12) - 14.40 paid = 10.56;
    # $20.00 pays it and 9.44 of the charge (two periods: 2.832); 60.96 left.
    # December 1: 60.96 two periods, 18.288; penalties 3.84 + 2.832 + 18.288 = 24.96, all paid (14.40 + 10.56)
    o = owed("2025-12-01", [("2025-09-02", "40.00"), ("2025-11-20", "20.00")], rules=rules)
    assert (o["paid"], o["unpaid_charge"], o["penalties"], o["unpaid_total"]) == (
        D("60.00"), D("60.96"), D("0.00"), D("60.96"))
    # February 15, 2026 begins a third period on the 60.96 left: 3 x 9.144 = 27.432; 3.84 + 2.832 + 27.432
    # = 34.104, 34.10 rounded, less 24.96 paid: 9.14
    o = owed("2026-02-15", [("2025-09-02", "40.00"), ("2025-11-20", "20.00")], rules=rules)
    assert (o["unpaid_charge"], o["penalties"]) == (D("60.96"), D("9.14"))


def test_a_payment_of_a_dollar_or_less_pays_the_charge():
    o = owed("2025-08-14", [("2025-08-01", "1.00")])
    assert (o["unpaid_charge"], o["penalties"], o["unpaid_total"]) == (D("95.00"), D("0.00"), D("95.00"))
    o = owed("2025-08-14", [("2025-08-01", "0.01")])
    assert o["unpaid_charge"] == D("95.99")


@pytest.mark.parametrize("order", ["charge-first", "penalties-first"])
def test_the_penalty_rate_is_the_one_in_force_on_the_due_date(order):
    # The rate amended to 20% from January 1, 2026; 2025-Q3 was due July 15, 2025, at 15%: its penalties
    # stay 15% a period, counted to March 1, 2026 (periods begun August 15, November 15, February 15).
    rules = amended_rate(with_readings({"payment-order": order}), "2026-01-01", "0.20")
    o = owed("2026-03-01", [("2025-09-02", "40.00")], rules=rules)
    if order == "charge-first":
        # 40.00 one period: 6.00; 56.00 three periods: 25.20; 31.20
        assert (o["unpaid_charge"], o["penalties"]) == (D("56.00"), D("31.20"))
    else:
        # 40.00 pays 14.40 owed and 25.60 of the charge (3.84); 70.40 three periods: 31.68; 3.84 + 31.68
        # - 14.40 = 21.12
        assert (o["unpaid_charge"], o["penalties"]) == (D("70.40"), D("21.12"))
    # a bill due after the amendment: 20% a period. 2026-Q1 due January 15, 2026; last day to pay
    # February 17 (day 30 is Saturday, February 14; Monday the 16th is Washington's Birthday); one period
    # by March 1: 20% of 96.00 = 19.20
    o = owed("2026-03-01", [], quarter="2026-Q1", rules=rules)
    assert o["penalties"] == D("19.20")


def test_for_bill_keeps_a_bill_with_a_dollar_or_less_unpaid():
    # $95.50 paid in time on a $96.00 bill: 0.50 unpaid, one period by October 15 (0.075, 0.08 rounded)
    out = arrears.for_bill(RULES, [("2025-Q3", D("96.00"), [(dt.date(2025, 8, 1), D("95.50"))])],
                           dt.date(2025, 10, 15))
    assert [(o["quarter"], o["unpaid_charge"], o["penalties"]) for o in out["quarters"]] == [
        ("2025-Q3", D("0.50"), D("0.08"))]
    assert (out["unpaid"], out["penalties"]) == (D("0.50"), D("0.08"))


def test_a_payment_of_one_dollar_in_a_link_is_read():
    assert read(["2025-Q3:96.00"], ["2025-Q3:1.00:2025-09-02"])[0] == [
        ("2025-Q3", D("96.00"), [(dt.date(2025, 9, 2), D("1.00"))])]


def test_a_link_with_the_propertys_charges_and_no_check_code_says_so_not_earlier_bills():
    """The eleventh hostile tester (F13): `parcel=24.00,*` with no check code was refused as having "earlier bills"."""
    with pytest.raises(InputError) as err:
        arrears.read_link("2025-Q4", [], [], None, None, ("water-gallons", "12000"), [("parcel", "24.00,*")])
    assert str(err.value).startswith("This link has the property's charges but no check code")
    with pytest.raises(InputError) as err:
        arrears.read_link("2025-Q4", ["2025-Q3:96.00"], [], None, None, ("water-gallons", "12000"))
    assert str(err.value).startswith("This link has earlier bills but no check code")
