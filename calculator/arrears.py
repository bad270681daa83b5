"""Arrears: what is still owed on earlier quarters' bills, and the late penalty on it (rents.F), as
of a day. The bill run (billing.run) counts every account's arrears with `owed`, and a bill's link to
the estimate page carries the same facts (each earlier bill's charge and the payments on it, and the
day penalties are counted to), which `bill --earlier-bill … --earlier-payment … --as-of …` counts
with the same `owed`: the estimate opened from a bill shows the bill's total, to the cent.

A link's values are read strictly: a value that is not what a bill's link writes is refused with a
message, never guessed, so a tampered link gets no wrong figure."""
from __future__ import annotations

import datetime as dt
import hashlib
from decimal import Decimal, InvalidOperation

from . import money, penalty
from .dates import due_date, long, parse_quarter, quarter_name, quarter_words, series
from .errors import InputError
from .i18n import _
from .rules import interpretation

ZERO = Decimal("0.00")
#: how a bill's link writes an earlier bill and a payment on it (`link_values`)
SEP = ":"


def owed(rules: dict, quarter: str, charge: Decimal, payments, day: dt.date, cache: dict | None = None) -> dict:
    """What is owed on one earlier quarter's bill (`charge`), as of `day` (docs/decisions/015-bill-run.md):
    payments go to the charge first, oldest first (the reading payment-order; with its other option,
    penalties-first, a payment first pays the penalties owed on its day); a part of the charge paid after
    the last day to pay carries the penalty for the periods begun by that payment, as `bill --paid-on`
    counts them; the part still unpaid carries the periods begun by `day`; what is paid beyond the charge
    goes to the penalties. `payments`: (date paid, amount) pairs; one paid after `day` is not counted yet.
    `cache`: a dict kept across calls (a run's many accounts share a few quarters and days)."""
    cache = {} if cache is None else cache
    if quarter not in cache:
        due = due_date(rules, *parse_quarter(quarter))
        cache[quarter] = (due, penalty.last_day_to_pay(rules, due), money.line_rounder(rules))
    due, last_day, rounded = cache[quarter]

    def periods(when: dt.date) -> int:  # the same few days for every account: counted once each
        key = (quarter, when)
        if key not in cache:
            cache[key] = penalty.periods(rules, due, when)
        return cache[key]
    # which the payment pays first, the charge or the penalties owed that day: the recorded reading
    # (rules/interpretations/payment-order.yaml)
    penalties_first = interpretation(rules, "payment-order") == "penalties-first"
    counted = sorted(p for p in payments if p[0] <= day)
    left, accrued, paid_total, to_penalties = charge, Decimal(0), ZERO, Decimal(0)
    for when, amount in counted:
        paid_total += amount
        if penalties_first:
            due_then = accrued + penalty.unrounded(rules, left, periods(when), due) - to_penalties
            cleared = min(amount, max(rounded(due_then), ZERO))
            to_penalties += cleared
            amount -= cleared
        part = min(left, amount)
        if part > 0:
            accrued += penalty.unrounded(rules, part, periods(when), due)
            left -= part
        to_penalties += amount - part  # beyond the charge: the penalties
    accrued += penalty.unrounded(rules, left, periods(day), due)
    penalties = rounded(accrued)
    unpaid_penalties = max(penalties - to_penalties, ZERO)
    return {"quarter": quarter, "charge": charge, "paid": paid_total, "payments": counted,
            "unpaid_charge": left, "penalties": unpaid_penalties, "unpaid_total": left + unpaid_penalties,
            "due": due, "last_day_to_pay": last_day, "penalties_as_of": day, "late": day > last_day}


# ---- a bill's link: the earlier bills and payments it carries, written and read back ----

def link_values(owed_list: list[dict], day: dt.date) -> list[tuple[str, str]]:
    """The query parameters a bill's link carries for its arrears (what `bill` needs to count them
    again): each earlier bill still owing (`earlier-bill=2025-Q3:96.00`), each payment counted on it
    (`earlier-payment=2025-Q3:50.00:2025-09-02`) and the day penalties are counted to (`as-of`)."""
    if not owed_list:
        return []
    # every bill, then every payment (the order `read_link` checks them in)
    out = [("earlier-bill", f"{o['quarter']}{SEP}{o['charge']}") for o in owed_list]
    out += [("earlier-payment", f"{o['quarter']}{SEP}{amount}{SEP}{when.isoformat()}")
            for o in owed_list for when, amount in o["payments"]]
    return out + [("as-of", day.isoformat())]


def link_check(values: list[tuple[str, str]]) -> str:
    """The check code of a bill's link: a digest of its other values (the quarter, the usage, the earlier
    bills and payments, the as-of day), so a value changed by hand or cut short is refused, not counted.
    It guards against mistakes, not forgery: it is no signature."""
    text = "\n".join(f"{k}={v}" for k, v in values)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def _refuse(text: str, field: str) -> InputError:
    return InputError(text + " " + _("Open the link on your bill again, or ask the Town Clerk for your bill's "
                                     "total."), field)


def _amount(text: str) -> Decimal | None:
    try:
        value = Decimal(text)
    except InvalidOperation:
        return None
    if not value.is_finite() or value < 0 or value != value.quantize(Decimal("0.01")) or "." not in text:
        return None
    return value


def _quarter(text: str) -> str | None:
    try:
        return quarter_name(*parse_quarter(text))
    except InputError:
        return None


def read_link(quarter: str, bills: list[str], payments: list[str], as_of: str | None, check: str | None = None,
              usage: tuple[str, str] | None = None) -> tuple[list, dt.date | None]:
    """The earlier bills and payments of a bill's link, read strictly: [(quarter, charge, [(date, amount)])]
    and the as-of day (None: the billed quarter's due date). Anything a bill's link would not write is
    refused with a message saying which value, and what to do; so are values that do not match the
    link's check code (`link_check` of the quarter, the `usage` (kind, value) and these values)."""
    bills, payments = list(bills or []), list(payments or [])
    if bills:
        values = [("quarter", quarter), *([usage] if usage else []), *(("earlier-bill", b) for b in bills),
                  *(("earlier-payment", p) for p in payments), *([("as-of", as_of)] if as_of else [])]
        if check != link_check(values):
            raise _refuse(_("This link's figures do not match its check code (check), so the link was changed or "
                            "cut short. The estimate cannot show your bill's total from it."), "check")
    elif check not in (None, ""):
        raise _refuse(_("This link has a check code (check), but no earlier bill."), "check")
    if not bills:
        if payments:
            raise _refuse(_("This link has a payment on an earlier bill, but not the bill."), "earlier-payment")
        if as_of not in (None, ""):
            raise _refuse(_("This link has a date for penalties on earlier bills (as-of), but no earlier bill."),
                          "as-of")
        return [], None
    found: dict[str, tuple[Decimal, list]] = {}
    for value in bills:
        parts = value.split(SEP)
        qtr = _quarter(parts[0]) if len(parts) == 2 else None
        charge = _amount(parts[1]) if qtr else None
        if charge is None:
            raise _refuse(_("The link's earlier bill {value} cannot be read. A bill's link writes it as a quarter "
                            "and an amount, like 2025-Q3:96.00.").format(value=repr(value)), "earlier-bill")
        if qtr >= quarter:
            raise _refuse(_("The link's earlier bill is for {earlier}, which is not before {quarter}.").format(
                earlier=qtr, quarter=quarter), "earlier-bill")
        if qtr in found:
            raise _refuse(_("The link has two earlier bills for {earlier}.").format(earlier=qtr), "earlier-bill")
        found[qtr] = (charge, [])
    for value in payments:
        parts = value.split(SEP)
        qtr = _quarter(parts[0]) if len(parts) == 3 else None
        amount = _amount(parts[1]) if qtr else None
        try:
            when = dt.date.fromisoformat(parts[2]) if amount else None
        except ValueError:
            when = None
        if when is None or amount == 0:
            raise _refuse(_("The link's payment {value} cannot be read. A bill's link writes it as a quarter, an "
                            "amount and a date, like 2025-Q3:50.00:2025-09-02.").format(value=repr(value)),
                          "earlier-payment")
        if qtr not in found:
            raise _refuse(_("The link has a payment on a bill for {earlier}, but not that bill.").format(
                earlier=qtr), "earlier-payment")
        found[qtr][1].append((when, amount))
    day = None
    if as_of not in (None, ""):
        try:
            day = dt.date.fromisoformat(as_of)
        except ValueError:
            raise _refuse(_("The link's date {value} (as-of) is not a date like 2025-10-15.").format(
                value=repr(as_of)), "as-of") from None
    return [(q, charge, paid) for q, (charge, paid) in sorted(found.items())], day


def for_bill(rules: dict, quarter: str, earlier: list, day: dt.date) -> dict:
    """The arrears part of a bill's estimate: each earlier bill still owing, what was billed and paid, what
    is unpaid, its penalties as of `day`, and the sums. Its `quarters` and sums are what the bill run's
    register says for the account."""
    cache: dict = {}
    quarters = []
    for qtr, charge, paid in earlier:
        o = owed(rules, qtr, charge, paid, day, cache)
        if o["unpaid_total"] <= 0:
            continue  # paid in full: the register does not count it either
        quarters.append(o)
    unpaid = sum((o["unpaid_charge"] for o in quarters), ZERO)
    penalties = sum((o["penalties"] for o in quarters), ZERO)
    return {"as_of": day.isoformat(), "quarters": quarters, "unpaid": unpaid, "penalties": penalties}


def words(o: dict) -> dict:
    """One earlier bill in words: what was billed and paid, what is unpaid, and its penalty."""
    year, q = parse_quarter(o["quarter"])
    period = quarter_words(year, q)
    said = [_("Your bill for {period} was {charge}.").format(period=period, charge=money.dollars(o["charge"]))]
    if o["payments"]:
        said.append(_("You paid {payments}.").format(payments=series([
            _("{amount} on {date}").format(amount=money.dollars(amount), date=long(when))
            for when, amount in o["payments"]])))
    said.append(_("{unpaid} of it is still unpaid.").format(unpaid=money.dollars(o["unpaid_charge"]))
                if o["unpaid_charge"] > 0 else _("The charge is paid."))
    if o["penalties"] > 0:
        said.append(_("The last day to pay it was {last}. The late penalty still owed on it is {penalty}, counted "
                      "to {as_of}.").format(last=long(o["last_day_to_pay"]), as_of=long(o["penalties_as_of"]),
                                            penalty=money.dollars(o["penalties"])))
    else:
        said.append(_("There is no late penalty on it on {as_of}.").format(as_of=long(o["penalties_as_of"])))
    return {"period": period, "text": " ".join(said)}
