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

from . import penalty
from ..core import money
from ..core.dates import due_date, long, parse_quarter, quarter_name, quarter_words, series, typed
from ..core.errors import InputError
from ..core.i18n import _
from ..core.rules import interpretation

ZERO = Decimal("0.00")
#: how a bill's link writes an earlier bill and a payment on it (`link_values`)
SEP = ":"


def ledger(rules: dict, bills, payments, day: dt.date, cache: dict | None = None) -> dict:
    """Every earlier bill of one account and every payment on them, as of `day`
    (docs/decisions/015-bill-run.md). `bills`: (quarter, charge) pairs; `payments`: (date paid, amount,
    the quarter it names) triples, counted in the order of their days (a payment after `day` is not
    counted: the bill run refuses such a run, and a bill's link never carries one).

    A payment goes to the bill it names first: that bill's charge and its late penalties, in the order
    the recorded reading payment-order says (charge first, or penalties first). A part of a charge paid
    after the last day to pay carries the penalty for the periods begun by that payment, as
    `bill --paid-on` counts them; the part still unpaid carries the periods begun by `day`. What the
    payment brings beyond all that the bill owes on its day is never lost: by the recorded reading
    payment-surplus it pays the oldest other bill still owing, then the next (oldest-owed), or it waits
    as a credit on the next bill (next-bill); what is left after every bill is `credit`.

    The answer: `quarters`, one `owed` dict a bill (in quarter order; its `payments` are the (date,
    amount) parts of payments that went to it), `credit`, `counted` (the payments counted, in order,
    each with where its money went: `applied`, [(quarter, amount)])."""
    cache = {} if cache is None else cache
    penalties_first = interpretation(rules, "payment-order") == "penalties-first"
    spread = interpretation(rules, "payment-surplus") == "oldest-owed"
    state = {}
    for quarter, charge in sorted(bills):
        if quarter not in cache:
            due = due_date(rules, *parse_quarter(quarter))
            cache[quarter] = (due, penalty.last_day_to_pay(rules, due))
        state[quarter] = {"charge": charge, "left": charge, "accrued": Decimal(0), "to_penalties": ZERO,
                          "parts": [], "due": cache[quarter][0], "last": cache[quarter][1]}
    rounded = money.line_rounder(rules)

    def periods(quarter: str, when: dt.date) -> int:  # the same few days for every account: counted once each
        key = (quarter, when)
        if key not in cache:
            cache[key] = penalty.periods(rules, state[quarter]["due"], when)
        return cache[key]

    def penalties_owed(quarter: str, when: dt.date) -> Decimal:
        s = state[quarter]
        return max(rounded(s["accrued"] + penalty.unrounded(rules, s["left"], periods(quarter, when), s["due"]))
                   - s["to_penalties"], ZERO)

    def pay(quarter: str, when: dt.date, amount: Decimal) -> Decimal:
        """Pays what it can of one bill on `when`; what is left of `amount`."""
        s, given = state[quarter], amount
        if penalties_first:
            cleared = min(amount, penalties_owed(quarter, when))
            s["to_penalties"] += cleared
            amount -= cleared
        part = min(s["left"], amount)
        if part > 0:
            s["accrued"] += penalty.unrounded(rules, part, periods(quarter, when), s["due"])
            s["left"] -= part
            amount -= part
        cleared = min(amount, penalties_owed(quarter, when))  # beyond the charge: its penalties
        s["to_penalties"] += cleared
        amount -= cleared
        if given - amount > 0:
            s["parts"].append((when, given - amount))
        return amount

    counted, credit = [], ZERO
    for when, amount, named in sorted((p for p in payments if p[0] <= day), key=lambda p: (p[0], p[2])):
        order = [named] + ([q for q in state if q != named] if spread else [])
        applied, rest = [], amount
        for quarter in order:
            if rest <= 0:
                break
            if quarter in state:
                left = pay(quarter, when, rest)
                if left < rest:
                    applied.append((quarter, rest - left))
                rest = left
        credit += rest
        counted.append({"paid_on": when, "amount": amount, "quarter": named, "applied": applied, "credit": rest})
    quarters = []
    for quarter, s in state.items():
        penalties = rounded(s["accrued"] + penalty.unrounded(rules, s["left"], periods(quarter, day), s["due"]))
        unpaid_penalties = max(penalties - s["to_penalties"], ZERO)
        quarters.append({"quarter": quarter, "charge": s["charge"], "paid": sum((a for _, a in s["parts"]), ZERO),
                         "payments": list(s["parts"]), "unpaid_charge": s["left"], "penalties": unpaid_penalties,
                         "unpaid_total": s["left"] + unpaid_penalties, "due": s["due"], "last_day_to_pay": s["last"],
                         "penalties_as_of": day, "late": day > s["last"]})
    return {"quarters": quarters, "credit": credit, "counted": counted}


def owed(rules: dict, quarter: str, charge: Decimal, payments, day: dt.date, cache: dict | None = None) -> dict:
    """What is owed on one earlier quarter's bill (`charge`), as of `day`, when every payment (date paid,
    amount) names it: the `ledger` of that one bill."""
    return ledger(rules, [(quarter, charge)], [(when, amount, quarter) for when, amount in payments], day,
                  cache)["quarters"][0]


def needed(result: dict) -> tuple[list, list]:
    """The bills and payments of a `ledger` that a later count still needs: every bill except one paid in
    full (its penalties too) whose money came only from payments that paid nothing else, and those
    payments. Counting again what is kept gives every kept bill the same figures and the same credit
    (a dropped bill owes nothing on any later day either), so a bill's link carries only these."""
    touched = {}
    for p in result["counted"]:
        for quarter, _amount in p["applied"]:
            touched.setdefault(quarter, []).append(p)
        touched.setdefault(p["quarter"], []).append(p)
    dropped = {o["quarter"] for o in result["quarters"] if o["unpaid_total"] == 0 and all(
        p["credit"] == 0 and p["quarter"] == o["quarter"] and all(q == o["quarter"] for q, _ in p["applied"])
        for p in touched.get(o["quarter"], []))}
    bills = [(o["quarter"], o["charge"]) for o in result["quarters"] if o["quarter"] not in dropped]
    payments = [(p["paid_on"], p["amount"], p["quarter"]) for p in result["counted"] if p["quarter"] not in dropped]
    return bills, payments


# ---- a bill's link: the earlier bills and payments it carries, written and read back ----

def link_values(bills: list, payments: list, day: dt.date) -> list[tuple[str, str]]:
    """The query parameters a bill's link carries for its arrears (what `bill` needs to count them
    again; `needed` of the account's ledger): each earlier bill (`earlier-bill=2025-Q3:96.00`), each
    payment counted, with the bill it names (`earlier-payment=2025-Q3:50.00:2025-09-02`), and the day
    penalties are counted to (`as-of`)."""
    if not bills:
        return []
    # every bill, then every payment, a bill's payments together (the order `read_link` checks them in)
    out = [("earlier-bill", f"{quarter}{SEP}{charge}") for quarter, charge in bills]
    out += [("earlier-payment", f"{quarter}{SEP}{amount}{SEP}{when.isoformat()}")
            for quarter, _charge in bills for when, amount, named in payments if named == quarter]
    return out + [("as-of", day.isoformat())]


def link_check(values: list[tuple[str, str]]) -> str:
    """The check code of a bill's link: a digest of its other values (the quarter, the usage, the earlier
    bills and payments, the as-of day), so a value changed by hand or cut short is refused, not counted.
    It guards against mistakes, not forgery: it is no signature."""
    text = "\n".join(f"{k}={v}" for k, v in values)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def _refuse(text: str, field: str, options: str | None = None) -> InputError:
    """`text` as a page says it (a bill's link); `options`: as the command line says it, where a person
    copies the link's values as options (spanish7 A2: "this link … was cut short", where there is no link)."""
    said = options and options + " " + _("Copy the options as they appear in your bill's link, or ask the Town "
                                         "Clerk for your bill's total.")
    return InputError(text + " " + _("Open the link on your bill again, or ask the Town Clerk for your bill's "
                                     "total."), field, command_line=said)


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


def refuse_what_if(field: str) -> InputError:
    """A bill's link with a what-if rate or share added (the tenth hostile tester, F2: `&sewage-fraction=0.01` on
    a checked link changed the bill's total from $702.20 to $467.82, labelled as the bill's). A bill is worked
    out at the adopted figures only; a what-if is an estimate's, never a bill's."""
    return _refuse(_("This is your bill's link, with a what-if figure added to it (⟦{field}⟧). Your bill is worked "
                     "out at the Town's adopted figures only. Remove the what-if to see your bill, or try it in an "
                     "estimate without the bill's values.").format(field=field), field,
                   _("You gave a bill's values with a check code (⟦check⟧) and a what-if figure (⟦{field}⟧): a bill is "
                     "worked out at the adopted figures only. Leave out the what-if, or leave out the bill's values "
                     "to try it.").format(field=field))


def read_parcel(text: str) -> list:
    """A bill's link's `parcel` value, read strictly: the computed charges of the property's accounts,
    this account as "*" (`24.00,*`), as [Decimal | None]."""
    parts = text.split(",")
    charges = [None if p == "*" else _amount(p) for p in parts]
    if parts.count("*") != 1 or len(parts) < 2 or any(c is None for p, c in zip(parts, charges) if p != "*"):
        raise _refuse(_("The link's property charges {value} (⟦parcel⟧) cannot be read. A bill's link writes them as "
                        "amounts with a * for this account, like 24.00,*.").format(value=typed(text)), "parcel")
    return charges


def read_billed(text: str) -> Decimal:
    """A bill's link's `billed` value (the total the bill printed), read strictly: an amount to the cent."""
    value = _amount(text)
    if value is None:
        raise _refuse(_("The link's bill total {value} (⟦billed⟧) cannot be read. A bill's link writes it as an "
                        "amount to the cent, like 74.80.").format(value=typed(text)), "billed")
    return value


def read_link(quarter: str, bills: list[str], payments: list[str], as_of: str | None, check: str | None = None,
              usage: tuple[str, str] | None = None, extra: list = ()) -> tuple[list, dt.date | None]:
    """The earlier bills and payments of a bill's link, read strictly: [(quarter, charge, [(date, amount)])]
    and the as-of day (None: the billed quarter's due date). Anything a bill's link would not write is
    refused with a message saying which value, and what to do; so are values that do not match the
    link's check code (`link_check` of the quarter, the `usage` (kind, value) and these values)."""
    bills, payments = list(bills or []), list(payments or [])
    if bills or extra:
        values = [("quarter", quarter), *([usage] if usage else []), *extra, *(("earlier-bill", b) for b in bills),
                  *(("earlier-payment", p) for p in payments), *([("as-of", as_of)] if as_of else [])]
        parcel = any(k == "parcel" for k, _v in extra)
        if check in (None, ""):  # the third hostile tester: "do not match its check code" when there was none
            raise _refuse(_("This link has earlier bills but no check code (⟦check⟧), so it was cut short or made by "
                            "hand. The estimate cannot show your bill's total from it.") if bills else
                          # the eleventh hostile tester (F13): `parcel=` alone was said to be "earlier bills"
                          _("This link has the property's charges but no check code (⟦check⟧), so it was cut short or "
                            "made by hand. The estimate cannot show your bill's total from it.") if parcel else
                          _("This link has your bill's total but no check code (⟦check⟧), so it was cut short or "
                            "made by hand. The estimate cannot show your bill's total from it."), "check",
                          _("You gave earlier bills (⟦earlier-bill⟧) but no check code (⟦check⟧).") if bills else
                          _("You gave the property's charges (⟦parcel⟧) but no check code (⟦check⟧).") if parcel else
                          _("You gave the bill's total (⟦billed⟧) but no check code (⟦check⟧)."))
        if check != link_check(values):
            raise _refuse(_("This link's figures do not match its check code (⟦check⟧), so the link was changed or "
                            "cut short. The estimate cannot show your bill's total from it."), "check",
                          _("The options you gave do not match the check code (⟦check⟧): one was changed, left "
                            "out or added."))
    elif check not in (None, ""):  # (a bill's link with its total, `billed`, is checked above)
        raise _refuse(_("This link has a check code (⟦check⟧), but no earlier bill."), "check",
                      _("You gave a check code (⟦check⟧) but no earlier bill (⟦earlier-bill⟧)."))
    if not bills:
        if payments:
            raise _refuse(_("This link has a payment on an earlier bill, but not the bill."), "earlier-payment",
                          _("You gave a payment on an earlier bill (⟦earlier-payment⟧) but not the bill "
                            "(⟦earlier-bill⟧)."))
        if as_of not in (None, ""):
            raise _refuse(_("This link has a date for penalties on earlier bills (⟦as-of⟧), but no earlier bill."),
                          "as-of", _("You gave a date for penalties on earlier bills (⟦as-of⟧) but no earlier bill "
                                     "(⟦earlier-bill⟧)."))
        return [], None
    found: dict[str, tuple[Decimal, list]] = {}
    for value in bills:
        parts = value.split(SEP)
        qtr = _quarter(parts[0]) if len(parts) == 2 else None
        charge = _amount(parts[1]) if qtr else None
        if charge is None:
            raise _refuse(_("The link's earlier bill {value} cannot be read. A bill's link writes it as a quarter "
                            "and an amount, like 2025-Q3:96.00.").format(value=typed(value)), "earlier-bill")
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
                            "amount and a date, like 2025-Q3:50.00:2025-09-02.").format(value=typed(value)),
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
            raise _refuse(_("The link's date {value} (⟦as-of⟧) is not a date like 2025-10-15.").format(
                value=typed(as_of)), "as-of") from None
    return [(q, charge, paid) for q, (charge, paid) in sorted(found.items())], day


def for_bill(rules: dict, earlier: list, day: dt.date) -> dict:
    """The arrears part of a bill's estimate (`earlier`: a bill's link read back, [(quarter, charge,
    [(date, amount)])], each payment under the bill it names): each earlier bill still owing, what was
    billed and paid, what is unpaid, its penalties as of `day`, the sums and the credit (what earlier
    payments brought beyond all that the earlier bills owe). Its `quarters`, sums and credit are what the
    bill run's register says for the account."""
    result = ledger(rules, [(q, charge) for q, charge, _paid in earlier],
                    [(when, amount, q) for q, _charge, paid in earlier for when, amount in paid], day)
    quarters = [o for o in result["quarters"] if o["unpaid_total"] > 0]  # paid in full: not a line of the bill
    unpaid = sum((o["unpaid_charge"] for o in quarters), ZERO)
    penalties = sum((o["penalties"] for o in quarters), ZERO)
    return {"as_of": day.isoformat(), "quarters": quarters, "unpaid": unpaid, "penalties": penalties,
            "credit": result["credit"]}


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
