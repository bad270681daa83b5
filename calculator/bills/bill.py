"""A quarterly sewer bill: CU = VC x VU (rents.B), the minimum charge, the due
date and the late penalty, explained step by step."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from . import arrears, penalty
from ..core import money, schedule
from .amounts import parse_amount, plain
from ..core.dates import (WEEKDAY_NAMES, due_date, long, long_with_weekday, month_name, not_business_day, read_date,
                    parse_quarter, public_holidays, quarter_name, quarter_period, quarter_words, series, typed,
                    bill_words, water_quarter_words)
from ..core.errors import InputError
from ..core.i18n import N_, _, after_colon, in_sentence, lang, ngettext
from ..core.explain import Explanation, everyday, fold_citations, since
from ..core.law import anchor, citation, quoted
from ..core.rules import entry, interpretation, parameter

USAGE_KINDS = ("water-gallons", "water-cubic-feet", "sewage-gallons")
THOUSAND = Decimal(1000)
NO_PENALTY = Decimal("0.00")


def compute(rules: dict, quarter: str, usage: dict, paid_on: str | None = None,
            vc_per_1000: str | None = None, sewage_fraction: str | None = None, explain: bool = True,
            earlier_bills: list[str] = (), earlier_payments: list[str] = (), as_of: str | None = None,
            check: str | None = None, parcel: str | None = None, billed: str | None = None) -> dict:
    """usage: exactly one of {"water-gallons": N}, {"water-cubic-feet": N}, {"sewage-gallons": N}.
    With explain=False the answer has the same numbers and no explanation (for batch runs).
    earlier_bills, earlier_payments, as_of: a bill's arrears as its link to the estimate page writes
    them (calculator/bills/arrears.py, "2025-Q3:96.00", "2025-Q3:50.00:2025-09-02"), with its check code: the
    answer then has `arrears`, and its total is the bill's, counted as the bill run counts it. With a
    payment date after the as-of day, the earlier bills' penalties are counted to the payment date too.
    parcel: the computed charges of every account billed on the same property, in the accounts file's
    order, this one as "*" ("24.00,*"), as a bill's link writes them: the minimum charge is the
    property's (the reading minimum-per-property), shared between its accounts (property_shares).
    billed: the total the bill printed, as its link writes it (checked with the rest): when the rules now give
    the same values another total (a schedule amended in place after the bill was made: the twenty-ninth
    hostile tester), the answer's `billed` says so, with both totals, rather than show the new one as the bill's."""
    try:
        kind, raw = _usage(usage)
        ctx = _known_quarter_context(rules, quarter, paid_on, vc_per_1000, sewage_fraction)
        amount = parse_amount(raw, _NAMES[kind], _EXAMPLES[kind], kind, UNITS[kind])
    except InputError:
        _every_problem(rules, quarter, usage, paid_on, vc_per_1000, sewage_fraction)  # two or more: all of them
        raise
    if earlier_bills or parcel not in (None, "") or billed not in (None, ""):  # a bill's link: no what-if (the
        # tenth hostile tester, F2)
        for field, value in (("vc-per-1000", vc_per_1000), ("sewage-fraction", sewage_fraction)):
            if value not in (None, ""):
                raise arrears.refuse_what_if(field)
    extra = [("parcel", parcel)] if parcel not in (None, "") else []
    extra += [("billed", billed)] if billed not in (None, "") else []
    earlier, day = arrears.read_link(ctx["quarter"], earlier_bills, earlier_payments, as_of, check, (kind, str(raw)),
                                     extra)
    others = arrears.read_parcel(parcel) if parcel not in (None, "") else None
    printed = arrears.read_billed(billed) if billed not in (None, "") else None
    day = day or ctx["due"]

    def owing_to(counted_to: dt.date) -> dict | None:
        if not earlier:
            return None
        owing = arrears.for_bill(rules, earlier, counted_to)
        owing["earlier"], owing["day"] = earlier, counted_to
        return owing

    result = _bill(rules, ctx, kind, amount, explain, owing_to(max(day, ctx["paid"]) if ctx["paid"] else day), others)
    if printed is not None:
        # the bill's own total is the one with no payment date (what the bill printed)
        now = Decimal(result["total"]) if not ctx["paid"] else Decimal(_bill(
            rules, _known_quarter_context(rules, quarter, None, None, None), kind, amount, False, owing_to(day),
            others)["total"])
        result["billed"] = {"printed": str(printed), "now": str(now), "differs": now != printed,
                            "text": _(BILLED_DIFFERS).format(printed=money.dollars(printed), now=money.dollars(now))
                            if now != printed else None}
    return result


#: a bill's link whose values the rules now total otherwise (a figure changed in place after the bill was made)
BILLED_DIFFERS = N_("Your bill's total is {printed}. With the figures this site has now, the same bill comes to {now}. "
                    "Something changed after your bill was made: a rate, a rule or this site. Ask the Town Clerk "
                    "which total to pay.")


def _every_problem(rules: dict, quarter, usage: dict | None, paid_on, vc_per_1000, sewage_fraction,
                   found: list[InputError] | None = None) -> None:
    """Every box's problem at once (issue 34: with "9.350" and "20/02/2027" only the date's was said, and "Did you
    mean 9,350 gallons?" came on the next try): each value is read on its own, and with two or more problems
    one error carries them all (`problems`: field, message, the value it suggests). One problem is raised as it is.
    found: problems already met (the meter readings'); usage None: the usage is not read again."""
    found = list(found or [])

    def read(step, *args):
        try:
            step(*args)
        except InputError as exc:
            found.append(exc)

    def the_usage():
        kind, raw = _usage(usage)
        parse_amount(raw, _NAMES[kind], _EXAMPLES[kind], kind, UNITS[kind])

    read(quarter_context, rules, quarter)
    if usage is not None:
        read(the_usage)
    read(_paid, paid_on)
    read(_what_if_rate, vc_per_1000)
    read(_what_if_share, sewage_fraction)
    _raise_together(found)


def _raise_together(found: list[InputError]) -> None:
    """None: nothing; one problem as it is; two or more as one error that carries them all (`problems`)."""
    if len(found) == 1:
        raise found[0]
    if found:
        error = InputError(" ".join(str(e) for e in found), found[0].field, found[0].suggest)
        error.problems = [(e.field, str(e), e.suggest) for e in found]
        raise error


def every_problem_with_readings(rules: dict, readings_error: InputError, quarter, paid_on, vc_per_1000,
                                sewage_fraction) -> None:
    """The meter readings' problems said together with the other boxes' (the usability test public10, Doña
    Carmen: "120.500", "132.500" and "20/02/27" took three tries, one problem a try)."""
    met = [InputError(text, field, suggest) for field, text, suggest in readings_error.problems] \
        if getattr(readings_error, "problems", None) else [readings_error]
    _every_problem(rules, quarter, None, paid_on, vc_per_1000, sewage_fraction, met)


# (rules, quarter, payment date, what-ifs, language) -> (those rules, the quarter's context): a bill
# after another of the same quarter (the estimator as a person types, a run of single bills) does
# not work the quarter out again. _bill only reads the context (it copies what it hands out); the
# rules object is kept with it, so its id is never reused for other rules.
_quarter_contexts: dict[tuple, tuple[dict, dict]] = {}


def _known_quarter_context(rules: dict, quarter, paid_on, vc_per_1000, sewage_fraction) -> dict:
    key = (id(rules), quarter, paid_on, vc_per_1000, sewage_fraction, lang())
    known = _quarter_contexts.get(key)
    if known is None or known[0] is not rules:
        if len(_quarter_contexts) > 256:
            _quarter_contexts.clear()
        known = _quarter_contexts[key] = (rules, quarter_context(rules, quarter, paid_on, vc_per_1000, sewage_fraction))
    return known[1]


def compute_many(rules: dict, quarter: str, usages, paid_on: str | None = None, vc_per_1000: str | None = None,
                 sewage_fraction: str | None = None, explain: bool = False) -> list[dict]:
    """Many bills for one quarter (the Clerk's run for every parcel): what the quarter
    decides (due date, schedule, minimum, penalty periods) is worked out once."""
    ctx = quarter_context(rules, quarter, paid_on, vc_per_1000, sewage_fraction)
    out = []
    for usage in usages:
        kind, raw = _usage(usage)
        out.append(_bill(rules, ctx, kind, parse_amount(raw, _NAMES[kind], _EXAMPLES[kind], kind, UNITS[kind]), explain))
    return out


def _usage(usage: dict) -> tuple[str, str]:
    given = {k: v for k, v in usage.items() if v is not None and str(v).strip() != ""}
    if len(given) != 1:
        raise InputError((_("You gave two kinds of usage. Enter exactly one of: water use in gallons, water use in "
                            "cubic feet, or metered sewage in gallons.") if given else
                          _("You gave no usage. Enter exactly one of: water use in gallons, water use in cubic feet, "
                            "or metered sewage in gallons.")), next(iter(given), "water-gallons"))
    kind, raw = next(iter(given.items()))
    if kind not in USAGE_KINDS:
        raise InputError(_("Unknown usage kind {kind}; use one of {kinds}.").format(
            kind=typed(kind), kinds=", ".join(USAGE_KINDS)))
    return kind, raw


def _share(value) -> Decimal:
    return read_share(value, N_("The what-if sewage fraction"))


def read_share(value, what: str, field: str = "sewage-fraction") -> Decimal:
    """A share of water billed as sewage, as a person writes it: 0.85, or a percent with its sign, 85%. A plain
    number is a share from 0 to 1 (1 is all of it). A plain number above 1 and up to 100 is asked about, not
    read as a percent (the eighth hostile tester, F10: 2 was read as 2% and 1 as 100% without a word while 1.5
    was asked about, and `rates propose` refused the 85 the estimator took). Above 100 it is returned as read,
    above 1, for the caller to refuse. `what` (marked with N_) names the share; the estimator and the Clerk's
    `rates propose` both read it here."""
    text = str(value).strip()
    percent = text.endswith("%")
    amount = parse_amount(text[:-1].strip() if percent else text, what, "0.85", field)
    if not percent and 1 < amount <= 100:
        raise InputError(_("{what}, {value}, is not clear. Did you mean {value}%? Write {value}% (with the % sign) "
                           "or {share}.").format(
                               what=_(what), value=text, share=plain(amount / 100)),
                         field, suggest=f"{text}%")
    if percent and 0 < amount <= 1:
        # the thirtieth hostile tester (F3): "0.80%" was read as 0.8% of water use, and a proposal's rate came to a
        # hundredth of the one meant; a share of 1% or less is a decimal written with a % sign, more likely
        raise InputError(_("{what}, {value}, is not clear: so small a share of water use is unlikely. Did you mean "
                           "{meant}? Write {meant} (with the % sign) or {share}.").format(
                               what=_(what), value=text, meant=f"{plain(amount * 100)}%", share=plain(amount)),
                         field, suggest=f"{plain(amount * 100)}%")
    return amount / 100 if percent else amount


def _given(value) -> bool:
    return value is not None and str(value).strip() != ""


def _what_if_rate(vc_per_1000) -> Decimal | None:
    if not _given(vc_per_1000):
        return None
    return parse_amount(vc_per_1000, N_("The what-if rate per 1,000 gallons"), "9.50", "vc-per-1000")


def _what_if_share(sewage_fraction) -> Decimal | None:
    if not _given(sewage_fraction):
        return None
    fraction = _share(sewage_fraction)
    if fraction > 1:
        raise InputError(_("The what-if sewage fraction must be from 0% to 100%, like 85% (or 0.85) for 85% of water use."),
                         "sewage-fraction")
    return fraction


def _paid(paid_on) -> tuple[dt.date | None, str | None]:
    """The payment date as read (dates.read_date: 2/20/2027 too), and how a slashed one was read when it
    was not in the page's order (20/02/2027 on an English page), else None."""
    if not _given(paid_on):
        return None, None
    try:
        return read_date(paid_on, N_("The payment date (⟦paid-on⟧)"))
    except InputError as exc:
        raise InputError(str(exc), "paid-on", exc.suggest) from None


def quarter_context(rules: dict, quarter: str, paid_on=None, vc_per_1000=None, sewage_fraction=None) -> dict:
    """What a quarter decides for every bill in it: its dates, the schedule (or the
    what-if values), the minimum charge, and the late-penalty periods by the payment date."""
    try:
        year, q = parse_quarter(quarter)
    except InputError as exc:
        raise InputError(str(exc), "quarter") from None
    start, end = quarter_period(year, q)
    due = due_date(rules, year, q)
    # rules/interpretations/billing-in-advance.yaml: the rate of the quarter's first day, or the
    # rate of the year's first day when the year's charge is calculated once and billed in four parts
    rate_day = start if interpretation(rules, "billing-in-advance") != "annual-in-four-parts" else dt.date(year, 1, 1)
    try:
        sched = schedule.in_force(rules, rate_day)
    except InputError as exc:
        raise InputError(str(exc), "quarter") from None
    vc = Decimal(sched["vc_per_1000_gallons"])
    fraction = Decimal(sched["sewage_fraction"])
    what_if = {}
    if (rate := _what_if_rate(vc_per_1000)) is not None:
        vc = rate
        what_if["vc_per_1000_gallons"] = str(vc)
    if (share := _what_if_share(sewage_fraction)) is not None:
        fraction = share
        what_if["sewage_fraction"] = str(fraction)
    paid, paid_read = _paid(paid_on)
    if paid is not None and paid < due - dt.timedelta(days=366):
        # the twelfth hostile tester: 1900-01-01 was "in time" for a bill due in 2025
        raise InputError(_("The payment date, {date}, is more than a year before this bill is due ({due}). Check the "
                           "year of the payment date.").format(date=long(paid), due=long(due)), "paid-on")
    min_water = Decimal(parameter(rules, "minimum-charge-water-gallons", on=start))
    fiscal = fiscal_year_answer(rules, rate_day, sched)
    notices = []
    if sched["status"] != "adopted":
        notices.append(_(_USES[sched["status"]]).format(title=sched["title"], label=schedule.label(sched["status"])))
    if what_if:
        notices.append(_("This is a what-if estimate with values you chose, not the schedule's."))
    first_penalty = penalty.first_penalty_date(rules, due)
    grace_end = due + dt.timedelta(days=parameter(rules, "late-penalty-grace-days", on=due))
    starts = penalty.period_starts(rules, due, paid) if paid else []
    if interpretation(rules, "penalty-accrual") == "once":  # one penalty however long it stays unpaid: the
        starts = starts[:1]  # periods charged, not those begun (the fifth hostile tester: 4 periods, one penalty)
    return {
        "year": year, "q": q, "start": start, "end": end, "due": due, "sched": sched, "vc": vc, "rate_day": rate_day,
        "fraction": fraction, "what_if": what_if, "paid": paid, "paid_on": paid.isoformat() if paid else None,
        "paid_read": paid_read,
        "n": len(starts), "starts": starts, "fiscal": fiscal,
        "first_penalty": first_penalty, "grace_end": grace_end,
        "last_day": first_penalty - dt.timedelta(days=1),
        "min_water": min_water,
        "quarters_a_year": len(parameter(rules, "bill-due-dates", on=start)),
        "minimum": money.round_line(vc * min_water * fraction / THOUSAND, rules),
        # rules/interpretations/minimum-with-sewage-meter.yaml: with a sewage meter, the
        # same water-equivalent minimum, or the charge for that many gallons of sewage
        "minimum_sewage_meter": money.round_line(
            vc * min_water * (fraction if interpretation(rules, "minimum-with-sewage-meter") == "water-equivalent"
                              else 1) / THOUSAND, rules),
        "per_cf": parameter(rules, "gallons-per-cubic-foot", on=start),
        "round": money.line_rounder(rules),
        "period_start": start.isoformat(), "period_end": end.isoformat(), "due_date": due.isoformat(),
        "penalty_from": first_penalty.isoformat(),
        "quarter": quarter_name(year, q),
        "quarter_words": quarter_words(year, q),
        "bill_words": bill_words(rules, year, q),
        "water_words": water_quarter_words(rules, year, q),
        "summary": schedule.summary(sched) | ({"what_if": what_if} if what_if else {}),
        "notices": notices,
        # the rate or the fraction used is the illustrative schedule's invented number (both what-ifs: neither is)
        "illustrative": sched["status"] == "illustrative" and len(what_if) < 2,
        # what the explanations of this context's bills share, worked out for the first (_explain)
        "memo": {},
    }


def fiscal_year_answer(rules: dict, day: dt.date, sched: dict) -> dict:
    """The fiscal year of the day whose rate a bill uses, and the schedule prepared for it, if any:
    rate-schedules.A asks for one "Prior to the start of each fiscal year". When there is none in
    force, `text` says so and names the schedule used instead (the latest one in force)."""
    year = schedule.fiscal_year_of(rules, day)
    found = schedule.for_fiscal_year(rules, year)
    out = {"year": year, "schedule": found["schedule"]["id"] if found["schedule"] else None,
           "proposed": found["proposed"]["id"] if found["proposed"] else None}
    if found["schedule"] is None:
        used = dict(title=sched["title"], effective=long(dt.date.fromisoformat(schedule.starts(rules, sched))),
                    year=year)
        if sched["status"] == "illustrative":  # never in force: the schedule this site uses
            out["text"] = (_("The rate schedule for fiscal year {year}, “{proposed}”, is only proposed. The law asks "
                             "for a schedule to be prepared before each fiscal year starts. Until one is adopted, this "
                             "estimate uses the example schedule this site uses, “{title}”, from {effective}.")
                           if found["proposed"] is not None else
                           _("No rate schedule is on record for fiscal year {year}. The law asks for a schedule to be "
                             "prepared before each fiscal year starts. This estimate uses the example schedule this "
                             "site uses, “{title}”, from {effective}.")).format(
                proposed=found["proposed"]["title"] if found["proposed"] else "", **used)
        elif found["proposed"] is not None:
            out["text"] = _("The rate schedule for fiscal year {year}, “{proposed}”, is only proposed. The law asks "
                            "for a schedule to be prepared before each fiscal year starts. Until this one is "
                            "adopted, this estimate uses the latest schedule in force, “{title}”, in force from "
                            "{effective}.").format(proposed=found["proposed"]["title"], **used)
        else:
            out["text"] = _("No rate schedule is on record for fiscal year {year}. The law asks for a schedule to be "
                            "prepared before each fiscal year starts. This estimate uses the latest schedule in "
                            "force, “{title}”, in force from {effective}.").format(**used)
    return out


def property_shares(minimum: Decimal, charges: list[Decimal]) -> list[Decimal]:
    """The minimum charge of one property shared between its accounts (the reading minimum-per-property):
    in proportion to each account's computed charge (equally when none has one), to the cent, the cents
    left over going to the largest remainders (the first account first on a tie), so the shares add up
    to the minimum exactly."""
    cent = Decimal("0.01")
    weights = charges if sum(charges) > 0 else [Decimal(1)] * len(charges)
    raw = [minimum * w / sum(weights) for w in weights]
    shares = [r.quantize(cent, rounding="ROUND_DOWN") for r in raw]
    left = int((minimum - sum(shares)) / cent)
    for i in sorted(range(len(raw)), key=lambda i: (shares[i] - raw[i], i))[:left]:
        shares[i] += cent
    return shares


def _bill(rules: dict, ctx: dict, kind: str, amount: Decimal, explain: bool, owing: dict | None = None,
          parcel: list | None = None) -> dict:
    """One bill: VU (rents.C), CU = VC x VU (rents.B), the minimum, the penalty (rents.F), and with
    `owing` (arrears.for_bill) what is unpaid on earlier bills and their penalties, and any credit
    from earlier payments; with `parcel` (the property's other accounts' computed charges, None for
    this one), the property's minimum charge shared (property_shares)."""
    vc, fraction, n = ctx["vc"], ctx["fraction"], ctx["n"]
    minimum = ctx["minimum_sewage_meter"] if kind == "sewage-gallons" else ctx["minimum"]
    water_gallons = None
    if kind == "water-cubic-feet":
        water_gallons = amount * ctx["per_cf"]
    elif kind == "water-gallons":
        water_gallons = amount
    volume = water_gallons * fraction if water_gallons is not None else amount
    rounded = ctx["round"]
    computed = rounded(vc * volume / THOUSAND)
    minimum_applied = computed < minimum
    charge = minimum if minimum_applied else computed
    on_property = None
    if parcel is not None and interpretation(rules, "minimum-per-property") == "property":
        charges = [computed if c is None else c for c in parcel]
        place = parcel.index(None)
        minimum_applied = sum(charges) < minimum
        charge = property_shares(minimum, charges)[place] if minimum_applied else computed
        on_property = {"accounts": len(charges), "combined": sum(charges, NO_PENALTY), "share": charge}
    # a credit from earlier payments pays this quarter's charge first, before its due date: no penalty on it
    credit = min(owing["credit"], charge) if owing is not None else NO_PENALTY
    pen = rounded(penalty.unrounded(rules, charge - credit, n, ctx["due"])) if n else NO_PENALTY
    total = charge + pen - credit
    if owing is not None:
        total += owing["unpaid"] + owing["penalties"]
    annual = charge * ctx["quarters_a_year"]
    paid, due = ctx["paid"], ctx["due"]
    # every line below is already rounded to the cent, so str() shows it as "96.00"
    result = {
        "command": "bill",
        "quarter": ctx["quarter"],
        "quarter_words": ctx["quarter_words"],
        # the bill as a resident holds it (the estimate's heading) and the months of water it charges for, as
        # this site reads "billed in advance" (None under the other reading)
        "bill_words": ctx["bill_words"],
        "water_words": ctx["water_words"],
        "period_start": ctx["period_start"],
        "period_end": ctx["period_end"],
        "due_date": ctx["due_date"],
        "penalty_from": ctx["penalty_from"],
        "last_day_to_pay": ctx["last_day"].isoformat(),
        "schedule": dict(ctx["summary"]),
        "usage": {"kind": kind, "amount": str(amount), "words": usage_words(kind, amount, water_gallons)},
        "water_gallons": money.text(water_gallons) if water_gallons is not None else None,
        "volume_gallons": money.text(volume),
        "computed_charge": str(computed),
        "minimum_charge": str(minimum),
        "minimum_applied": minimum_applied,
        "charge": str(charge),
        "paid_on": ctx["paid_on"],
        "days_after_due": (paid - due).days if paid else None,
        "penalty_periods": n,
        "penalty_periods_from": [d.isoformat() for d in ctx["starts"]],
        "penalty": str(pen),
        "total": str(total),
        # with a payment date, its verdict, said beside the total (issue 34, item 7)
        "paid_words": paid_words(paid, n, pen, owing is not None) if paid else None,
        # an estimate at the invented (illustrative) rate says so at its total, not only in a step (issue: item 11)
        "illustrative": ctx["illustrative"],
        # (with a what-if rate, only the share billed is the example's: the note says that, not "an invented rate")
        "total_note": (None if not ctx["illustrative"] else _(ILLUSTRATIVE_SHARE_TOTAL)
                       if "vc_per_1000_gallons" in ctx["what_if"] else _(ILLUSTRATIVE_TOTAL)),
        "annual_total": str(annual),
        "fiscal_year": dict(ctx["fiscal"]),
        "notices": list(ctx["notices"]),
        "usage_question": usage_question(kind, amount, water_gallons if water_gallons is not None else volume,
                                         (ctx["end"] - ctx["start"]).days + 1),
        "if_late": if_late(rules, ctx, charge, pen),
        # a slashed payment date read the other way round ("We read 20/02/2027 as February 20, 2027.")
        "paid_read": ctx["paid_read"],
        # "If you pay later": the next penalty periods after the payment date (or the first ones), each
        # with its first day and what is owed from then, by the site's reading of "per quarter" (issue 34)
        "if_later": None if owing is not None else if_later(rules, ctx, charge),
    }
    if on_property is not None:
        result["property"] = {k: (str(v) if isinstance(v, Decimal) else v) for k, v in on_property.items()}
    if owing is not None:
        result["quarter_total"] = str(charge + pen)
        result["credit"] = str(credit)
        result["credit_carried"] = str(owing["credit"] - credit)
        result["arrears"] = arrears_answer(rules, owing, charge, total, credit, pen)
        result["if_late"] = if_late_with_arrears(rules, ctx, owing, charge, credit, result["if_late"])
    if explain:
        result["explanation"] = _explain(rules, dict(
            ctx, kind=kind, amount=amount, water_gallons=water_gallons, volume=volume, computed=computed,
            minimum=minimum, ctx_minimum=ctx["minimum"], minimum_applied=minimum_applied, charge=charge, pen=pen,
            total=total, annual=annual, if_late=result["if_late"], owing=owing, credit=credit,
            on_property=on_property))
    return result


def if_later(rules: dict, ctx: dict, charge: Decimal, rows: int = 3) -> list[dict]:
    """What this quarter's charge comes to if paid in each of the next penalty periods: each period's first
    day (penalty.next_start, by the readings period-end-business-day, later-penalty-start and
    penalty-quarter), the periods by then, the penalty and the total. After the payment date when there is
    one, else from the first penalty date. With one penalty only (penalty-accrual "once"), one row."""
    due = ctx["due"]
    day = ctx["paid"] or ctx["last_day"]
    if interpretation(rules, "penalty-accrual") == "once":
        if ctx["n"]:
            return []
        rows = 1
    out = []
    for _row in range(rows):
        day = penalty.next_start(rules, due, day)
        n = penalty.periods(rules, due, day)
        pen = ctx["round"](penalty.unrounded(rules, charge, n, due))
        out.append({"from": day.isoformat(), "periods": n, "penalty": str(pen), "total": str(charge + pen)})
    return out


def paid_words(paid: dt.date, periods: int, pen: Decimal, with_arrears: bool) -> str:
    """What paying on `paid` means for this quarter's charge, in one line for beside the total: in
    time (no late penalty) or late, with the penalty the total includes. With earlier bills on the
    bill, it says "this quarter's charge": their penalties are their own lines."""
    words = dict(date=long(paid), penalty=money.dollars(pen))
    if periods and pen:
        return (_("If you pay on {date}, that is late. This quarter's charge then has a late penalty of "
                  "{penalty}, in the total.") if with_arrears else
                _("If you pay on {date}, that is late. The total includes a late penalty of {penalty}.")
                ).format(**words)
    if periods:  # late, but an earlier payment's credit had already paid the charge
        return _("If you pay on {date}, that is after the last day to pay, but earlier payments already "
                 "paid this quarter's charge: no late penalty on it.").format(**words)
    return (_("If you pay on {date}, that is in time: no late penalty on this quarter's charge.") if with_arrears
            else _("If you pay on {date}, that is in time: no late penalty.")).format(**words)


def arrears_answer(rules: dict, owing: dict, charge: Decimal, total: Decimal,
                   credit: Decimal = NO_PENALTY, pen: Decimal = NO_PENALTY) -> dict:
    """A bill's arrears as the estimate page shows them: each earlier bill still owing (what was billed,
    paid and is unpaid, and its penalty, in words), and the bill's lines, each with the provision behind
    it: this quarter's charge, each unpaid amount and its penalty, and the total."""
    lines = [{"label": _("This quarter's charge"), "amount": str(charge), "cite": "rents.B"}]
    if pen:
        lines.append({"label": _("Late penalty on this quarter's charge"), "amount": str(pen), "cite": "rents.F",
                      "interpretation": "penalty-accrual"})
    quarters = []
    for o in owing["quarters"]:
        told = arrears.words(o)
        quarters.append({"quarter": o["quarter"], "period": told["period"], "charge": str(o["charge"]),
                         "paid": str(o["paid"]),
                         "payments": [{"paid_on": when.isoformat(), "amount": str(amount)}
                                      for when, amount in o["payments"]],
                         "unpaid_charge": str(o["unpaid_charge"]), "penalties": str(o["penalties"]),
                         "unpaid_total": str(o["unpaid_total"]), "last_day_to_pay": o["last_day_to_pay"].isoformat(),
                         "text": told["text"]})
        lines.append({"label": _("Unpaid from {period}").format(period=told["period"]),
                      "amount": str(o["unpaid_charge"]), "cite": "rents.F", "interpretation": "payment-order"})
        lines.append({"label": _("Late penalty on it, as of {date}").format(date=long(o["penalties_as_of"])),
                      "amount": str(o["penalties"]), "cite": "rents.F", "interpretation": "penalty-accrual"})
    if credit:
        lines.append({"label": _("Paid already: a credit from earlier payments"), "amount": str(-credit),
                      "cite": "rents.F", "interpretation": "payment-surplus"})
    lines.append({"label": _("Total to pay"), "amount": str(total), "cite": "rents.F"})
    said: set[str] = set()
    for line in lines:  # each line's provision in a resident's words, as the steps name them (explain.everyday)
        line["anchor"] = anchor(line["cite"])
        everyday_words = everyday(rules, line["cite"], said)
        line["law"] = ({"words": everyday_words[0], "heading": everyday_words[1]} if everyday_words else
                       {"words": citation(rules, line["cite"]), "heading": None})
    return {"as_of": owing["as_of"], "quarters": quarters, "unpaid": str(owing["unpaid"]),
            "penalties": str(owing["penalties"]), "credit": str(credit),
            "credit_carried": str(owing["credit"] - credit), "lines": lines,
            "title": _("Your bill, with what is unpaid from earlier quarters"),
            "columns": [_("Line"), _("Amount")]}


def if_late(rules: dict, ctx: dict, charge: Decimal, pen: Decimal) -> dict:
    """The answer to "What if I pay late?", under the total: the last day to pay without a
    penalty (rents.F, moved past a weekend or public holiday as period-end-business-day.yaml
    reads the law), the first penalty in dollars, what each further period adds (the readings
    penalty-accrual and penalty-quarter), and, when this bill has a penalty, the lien (rents.G)."""
    memo = ctx["memo"]
    if "if_late" not in memo:
        memo["if_late"] = _if_late_quarter(rules, ctx)
    known = memo["if_late"]
    due = ctx["due"]
    first_amount = ctx["round"](penalty.unrounded(rules, charge, 1, due))
    words = dict(known["words"], amount=money.dollars(first_amount))
    # the due date, then the last day before a penalty: "Pay by Tuesday, February 16" alone was read as the
    # due date (issue 34: the law's penalty comes after 30 days unpaid, rents.F)
    text = _("Due {due}. Last day before a late penalty: {last}. From {first}: +{rate} ({amount}).").format(
        **words) + " " + \
        known["further"].format(**words)
    out = {"last_day_to_pay": known["last_day_to_pay"], "penalty_from": known["penalty_from"],
           "rate": known["rate"], "first_penalty": str(first_amount), "period_months": known["period_months"],
           "holidays_skipped": [dict(h) for h in known["holidays"]],
           "text": text, "cites": ["rents.F"], "anchors": [anchor("rents.F")]}
    if "moved" in known:
        out["moved"] = known["moved"]
    if pen:
        out["lien"] = _("Unpaid charges are a lien on the property, to the extent set forth in § 452 of the General "
                         "Municipal Law.")
        out["cites"].append("rents.G")
        out["anchors"].append(anchor("rents.G"))
    # the provisions as a resident reads them: "Sewer charges (the law’s “sewer rents”), section F"
    out["law"] = [step["law"] for step in fold_citations(rules, [{"cite": c} for c in out["cites"]], memo)]
    return out


def if_late_with_arrears(rules: dict, ctx: dict, owing: dict, charge: Decimal, credit: Decimal, alone: dict) -> dict:
    """"What if I pay late?" for a bill with earlier bills on it: every amount on the bill counts. The
    days after the bill's day (its as-of day, or the payment date) on which a part of it gains a penalty:
    each unpaid earlier bill's next penalty period, and this quarter's first penalty date; and the total
    owed from each of them, counted as the bill is (arrears.ledger), up to this quarter's own first
    penalty. `alone`: if_late of this quarter's charge alone, whose fields stay."""
    day = owing["day"]
    earlier = owing["earlier"]
    rounded = ctx["round"]
    starts = new_penalty_days(rules, ctx, owing["quarters"], charge - credit, day)
    carried = owing["credit"] - credit
    left_over = (" " + _("A credit of {credit} is left for your next bills.").format(credit=money.dollars(carried))
                 if carried > 0 else "")
    if not starts:  # nothing on the bill is unpaid: no day can add a penalty
        return dict(alone, text=_("Your credit from earlier payments pays this bill: nothing is left to pay, so no "
                                  "late penalty can be added.") + left_over,
                    no_new_penalty_until="", pay_now="0.00", then=[], first_penalty="0.00")
    # every day before the next quarter's bill is due on which a part of this bill gains a penalty
    # (the fourth legal reading: a list that stopped at this quarter's own first penalty left out
    # a later day in the same weeks), and at least the first
    year, q = parse_quarter(ctx["quarter"])
    next_due = due_date(rules, year + q // 4, q % 4 + 1)
    days = sorted(d for d in starts if d < next_due) or [min(starts)]
    bills = [(q, c) for q, c, _paid in earlier]
    payments = [(when, amount, q) for q, _c, paid in earlier for when, amount in paid]

    def total_on(when: dt.date) -> Decimal:
        counted = arrears.ledger(rules, bills, payments, when)
        owed = sum((o["unpaid_total"] for o in counted["quarters"]), NO_PENALTY)
        return owed + charge - credit + rounded(penalty.unrounded(rules, charge - credit,
                                                                  penalty.periods(rules, ctx["due"], when), ctx["due"]))
    now = total_on(day)
    last = days[0] - dt.timedelta(days=1)
    then = [{"from": d.isoformat(), "total": str(total_on(d)), "quarters": starts[d]} for d in days]
    said = [_("Pay {total} by {last}: no further penalty.").format(
        total=money.dollars(now), last=long_with_weekday(last))]
    if not_business_day(rules, last) and interpretation(rules, "later-period-end-business-day") == "calendar-days":
        # a Saturday deadline is not a slip (the fourth legal reading asked): say whose reading it is
        said.append(_("As this site reads the law, a later penalty period is not moved past a Saturday, Sunday or "
                      "public holiday."))
    for d, t in zip(days, then):
        said.append(_("From {date}, a late penalty is added on {periods}: the total is then {total}.").format(
            date=long(d), total=money.dollars(Decimal(t["total"])),
            periods=series([quarter_words(*parse_quarter(q)) for q in starts[d]])))
    out = dict(alone, text=" ".join(said) + left_over, no_new_penalty_until=last.isoformat(), pay_now=str(now),
               then=then)
    if "lien" not in out and any(o["late"] for o in owing["quarters"]):
        out["lien"] = _("Unpaid charges are a lien on the property, to the extent set forth in § 452 of the General "
                         "Municipal Law.")
        out["cites"] = [*out["cites"], "rents.G"]
        out["anchors"] = [*out["anchors"], anchor("rents.G")]
        out["law"] = [step["law"] for step in fold_citations(rules, [{"cite": c} for c in out["cites"]], ctx["memo"])]
    return out


def new_penalty_days(rules: dict, ctx: dict, owing: list[dict], charge_left: Decimal,
                     day: dt.date) -> dict[dt.date, list[str]]:
    """{day: [quarters]}: the next day after `day` on which each unpaid part of a bill gains a penalty:
    each earlier bill with its charge unpaid, and this quarter's charge while some of it is left."""
    starts: dict[dt.date, list[str]] = {}
    for o in owing:
        if o["unpaid_charge"] > 0:
            starts.setdefault(penalty.next_start(rules, o["due"], day), []).append(o["quarter"])
    if charge_left > 0:
        starts.setdefault(penalty.next_start(rules, ctx["due"], day), []).append(ctx["quarter"])
    return starts


def _if_late_quarter(rules: dict, ctx: dict) -> dict:
    """What "What if I pay late?" says the same for every bill of a quarter context (if_late)."""
    due, last, first = ctx["due"], ctx["last_day"], ctx["first_penalty"]
    rate = parameter(rules, "late-penalty-rate", on=due)
    months = parameter(rules, "late-penalty-period-months", on=due)
    holidays = [{"date": d.isoformat(), "holiday": name} for d in _days(ctx["grace_end"], last)
                if (name := public_holidays(rules, d.year).get(d))]
    words = dict(last=long_with_weekday(last), due=long(due),
                 first=_("{month} {day}").format(month=month_name(first.month), day=first.day),
                 rate=money.percent(rate), months=months)
    if interpretation(rules, "penalty-accrual") == "once":
        further = _("No further penalty after that.")
    elif interpretation(rules, "penalty-quarter") == "billing-quarter":
        further = (_("Each later billing quarter: another {rate} of the unpaid total, as this site reads “per "
                     "quarter”.")
                   if interpretation(rules, "penalty-accrual") == "compound" else
                   _("Each later billing quarter: another {rate}, as this site reads “per quarter”."))
    elif interpretation(rules, "penalty-accrual") == "compound":
        further = _("Each further {months} months: another {rate} of the unpaid total, as this site reads “per "
                    "quarter”.")
    else:
        further = _("Each further {months} months: another {rate}, as this site reads “per quarter”.")
    out = {"last_day_to_pay": last.isoformat(), "penalty_from": first.isoformat(), "rate": str(rate),
           "period_months": months, "holidays": holidays, "words": words, "further": further}
    if last != ctx["grace_end"]:
        end = long_with_weekday(ctx["grace_end"])
        # the day it moves to, and why (issue 33: "the last day moves past Washington's Birthday" said neither)
        to = long_with_weekday(last)
        named_days = [_("{day} ({holiday})").format(
            day=long_with_weekday(d),
            holiday=h["holiday"]) for h in holidays for d in [dt.date.fromisoformat(h["date"])]]
        out["moved"] = (ngettext("Day {grace} after the due date is {end}. As this site reads the law, the last day to "
                                 "pay moves to {last}, because {holidays} is a public holiday.",
                                 "Day {grace} after the due date is {end}. As this site reads the law, the last day to "
                                 "pay moves to {last}, because {holidays} are public holidays.", len(holidays)).format(
                            grace=(ctx["grace_end"] - due).days, end=end, last=to, holidays=series(named_days))
                        if holidays else
                        _("Day {grace} after the due date is {end}. As this site reads the law, the last day to pay "
                          "moves to the next business day, {last}.").format(grace=(ctx["grace_end"] - due).days,
                                                                          end=end, last=to))
    return out


def _days(first: dt.date, last: dt.date):
    """Each day from `first` to the day before `last`."""
    day = first
    while day < last:
        yield day
        day += dt.timedelta(days=1)


_NAMES = {"water-gallons": N_("Water use in gallons"), "water-cubic-feet": N_("Water use in cubic feet"),
          "sewage-gallons": N_("Metered sewage in gallons")}
# said at the total of an estimate at the illustrative schedule's invented numbers (`total_note`), in every language
ILLUSTRATIVE_TOTAL = N_("ILLUSTRATIVE: this total uses an invented rate, not one the Town has adopted. It is not what "
                        "you owe: the bill the Town sends you says that.")
# the same with a what-if rate: the share of water billed as sewage is still the example schedule's
ILLUSTRATIVE_SHARE_TOTAL = N_("ILLUSTRATIVE: this total uses your what-if rate and the example schedule's share of "
                              "water billed as sewage, not one the Town has adopted. It is not what you owe: the bill "
                              "the Town sends you says that.")
# the notice of an estimate made with a schedule not adopted, by the schedule's status
# (the example schedule is not named by its title, "Illustrative rate schedule (not adopted)": the sentence said
# "illustrative" twice, the Spanish reviewer spanish7, E1)
_USES = {"illustrative": N_("This estimate uses the example rate schedule, which the Town has not adopted. {label}"),
         "proposed": N_("This estimate uses the proposed schedule “{title}”. {label}")}
_EXAMPLES = {"water-gallons": "12000", "water-cubic-feet": "1600", "sewage-gallons": "9600"}
# each usage is a whole number of its unit (the page's hint says so): how to name a number of it
UNITS = {"water-gallons": N_("{amount} gallons"), "water-cubic-feet": N_("{amount} cubic feet"),
          "sewage-gallons": N_("{amount} gallons")}
# the usage, repeated back in words: the number the bill was worked out from, as the engine read it
# (issue 33: "We used 12,000 gallons" read as "our household used": say what the figure was worked from)
_USED = {"water-gallons": N_("Worked out from {amount} gallons of water."),
         "water-cubic-feet": N_("Worked out from {amount} cubic feet of water ({gallons} gallons)."),
         "sewage-gallons": N_("Worked out from {amount} gallons of sewage, as your sewage meter measured it.")}


#: the same on the Town's paper bill, where the Town speaks to the resident
_YOU_USED = {"water-gallons": N_("You used {amount} gallons of water."),
             "water-cubic-feet": N_("You used {amount} cubic feet of water ({gallons} gallons)."),
             "sewage-gallons": N_("You used {amount} gallons of sewage, from your sewage meter.")}


#: a quarter's usage (in gallons) from which the estimate asks whether the number is right: over a million
#: gallons a day, what a large town's whole sewer system carries, not one bill's. The estimate is still
#: given (the law sets no ceiling), with the question above it (the fifth hostile tester: 99,999,999,999
#: gallons was billed $799,999,999.99 without a word)
LARGE_QUARTER_GALLONS = Decimal(100_000_000)


def usage_question(kind: str, amount: Decimal, gallons: Decimal, days: int) -> str | None:
    """"Is 100,000,000,000 gallons right? …" for a usage of LARGE_QUARTER_GALLONS or more; else None."""
    if gallons < LARGE_QUARTER_GALLONS:
        return None
    return _("Is {amount} right? That is about {per_day} gallons a day through the quarter, more than a whole "
             "town's sewer system carries. Check the number on your bill or meter: the estimate below uses it "
             "as entered.").format(amount=_(UNITS[kind]).format(amount=money.gallons(amount)),
                                   per_day=money.gallons((gallons / days).to_integral_value()))


def usage_words(kind: str, amount: Decimal, water_gallons: Decimal | None = None, on_a_bill: bool = False) -> str:
    """The number a bill was worked out from, in a sentence: "Worked out from 9,350 gallons of water." (the
    estimate repeats back what its visitor entered), or on the Town's bill "You used …"."""
    return _((_YOU_USED if on_a_bill else _USED)[kind]).format(
        amount=money.gallons(amount), gallons=money.gallons(water_gallons) if water_gallons is not None else "")


def with_readings(used: str, meter: str, previous, current) -> str:
    """The usage sentence of a bill worked out from two meter readings, with the readings
    as the engine read them (usage_from_readings has already accepted both)."""
    before, after = (parse_amount(r, _NAMES[meter], "0", None, UNITS[meter]) for r in (previous, current))
    return _("{used} Your latest reading, {current}, minus the one before it, {previous}.").format(
        used=used, current=money.gallons(after), previous=money.gallons(before))


def _explain(rules: dict, v: dict) -> list[dict]:
    """The bill's reasons, step by step, each citing its provision (from compute's values).
    Each step's words are whole sentences, so a translation can order them its own way."""
    memo = v["memo"]
    if "head" not in memo:
        memo["head"] = _head_steps(rules, v)
    ex = Explanation()
    ex.steps = [dict(step, values=dict(step["values"])) for step in memo["head"]]
    vc, fraction, volume, kind = v["vc"], v["fraction"], v["volume"], v["kind"]
    water = v["water_gallons"]
    return _explain_rest(rules, v, ex, vc, fraction, volume, kind, water)


def _head_steps(rules: dict, v: dict) -> list[dict]:
    """The steps the quarter alone decides (its dates, the schedule, what-ifs): the same for every
    bill of one quarter context, so worked out once for it (bill.quarter_context: `memo`)."""
    ex = Explanation()
    sched, vc, fraction = v["sched"], v["vc"], v["fraction"]
    # the bill named as the result's heading names it, not by the quarter it pays for (the outside usability
    # test public9, Rosa: "the bill for January–March 2027" under "bill due January 15, 2027 (water used
    # October–December 2026)" read as two bills)
    named = bill_words(rules, v["year"], v["q"])
    ex.add(_("{bill} is the charge for the quarter from {start} to {end}, billed in advance and due "
             "on {due}{since}.").format(bill=named[:1].upper() + named[1:], start=long(v["start"]),
                                        end=long(v["end"]), due=long(v["due"]),
                                        since=since(rules, "bill-due-dates", v["start"])),
           "rents.F", quarter=quarter_name(v["year"], v["q"]), due_date=v["due"])
    grace = parameter(rules, "late-penalty-grace-days", on=v["due"])
    if v["last_day"] != v["grace_end"]:
        ex.add(_("Day {grace} after the due date is {grace_end}. {skipped} Under NY General Construction Law "
                 "§ 25-a, as we read the law, a payment on the next business day, {last_day}, is on time; a late "
                 "penalty applies from {first_penalty}.").format(
                     grace=grace, grace_end=long(v["grace_end"]), skipped=" ".join(skipped_days(rules, v["grace_end"],
                                                                                          v["last_day"])),
                     last_day=long(v["last_day"]), first_penalty=long(v["first_penalty"])),
               "rents.F", interpretation="period-end-business-day", last_day_to_pay=v["last_day"],
               penalty_from=v["first_penalty"], days_skipped=(v["last_day"] - v["grace_end"]).days)
    else:
        ex.add(_("Unpaid after {last_day} ({grace} days after the due date), it has a late penalty from "
                 "{first_penalty}.").format(last_day=long(v["last_day"]), grace=grace,
                                            first_penalty=long(v["first_penalty"])),
               "rents.F", interpretation="period-end-business-day",
               last_day_to_pay=v["last_day"], penalty_from=v["first_penalty"])
    if interpretation(rules, "billing-in-advance") == "annual-in-four-parts":
        ex.add(_("It is billed in advance. This site reads that as one of four equal parts of the year's charge: the "
                 "usage you enter is a quarter of last year's use, at the rate that applies on {rate_day}, the first day "
                 "of the year.").format(rate_day=long(v["rate_day"])), "rents.H", interpretation="billing-in-advance")
    else:
        ex.add(_("It is billed in advance. This site reads that as: the previous quarter's usage, up to the latest "
                 "meter reading, is billed at the rate that applies on the billed quarter's first day."), "rents.H", interpretation="billing-in-advance")
    schedule_vc, schedule_fraction = Decimal(sched["vc_per_1000_gallons"]), Decimal(sched["sewage_fraction"])
    # an illustrative schedule is never in force: it is the one this site uses (the fifth Spanish review, item 1)
    ex.add((_("Rate schedule in force on {rate_day}: {title}. The rate is {vc} per 1,000 gallons, and {share} of "
              "metered water is billed as sewage. {label}") if sched["status"] != "illustrative" else
            _("Rate schedule this site uses for {rate_day}: {title}. The rate is {vc} per 1,000 gallons, and {share} "
              "of metered water is billed as sewage. {label}")).format(rate_day=long(v["rate_day"]), title=sched["title"],
                                                 vc=money.dollars(schedule_vc), share=money.percent(schedule_fraction),
                                                 label=schedule.label(sched["status"])),
           "rents.D", schedule=sched["id"], status=sched["status"],
           vc_per_1000_gallons=schedule_vc, sewage_fraction=schedule_fraction)
    fiscal = v["fiscal"]
    if "text" in fiscal:
        ex.add(fiscal["text"], "rate-schedules.A", fiscal_year=fiscal["year"], fiscal_year_schedule=None,
               quote=quoted(rules, "fiscal-year-schedule"))
    if "vc_per_1000_gallons" in v["what_if"]:
        ex.add(_("What-if: you set the rate to {vc} per 1,000 gallons instead of the schedule's.").format(
            vc=money.dollars(vc)), "rents.D", vc_per_1000_gallons=vc)
    if "sewage_fraction" in v["what_if"]:
        ex.add(_("What-if: you set the share of water billed as sewage to {share} instead of the schedule's.").format(
            share=money.percent(fraction)), "rents.C.1", sewage_fraction=fraction)
    return ex.steps


def _explain_rest(rules: dict, v: dict, ex: Explanation, vc, fraction, volume, kind, water) -> list[dict]:
    """The steps each bill's own usage decides, after the quarter's (_head_steps)."""
    if kind == "water-cubic-feet":
        ratio = entry(rules, "gallons-per-cubic-foot", v["start"])["value"]
        # the fraction said as a number too, about 7.48 (spanish18: "1,728/231 gallons" read as a sum to do)
        about = (Decimal(ratio["numerator"]) / Decimal(ratio["denominator"])).quantize(Decimal("0.01"))
        ex.add(_("{cubic_feet} cubic feet × {numerator}/{denominator} (about {about}) gallons per cubic foot{since} = "
                 "{water} gallons of water.").format(cubic_feet=money.gallons(v["amount"]),
                                                     numerator=f"{ratio['numerator']:,}", about=about,
                                                     denominator=ratio["denominator"],
                                     since=since(rules, "gallons-per-cubic-foot", v["start"]),
                                     water=money.gallons(water)),
               "rents.C.1", cubic_feet=v["amount"], water_gallons=money.text(water))
    if water is not None:
        ex.add(_("Sewage volume = {water} gallons of water × {fraction} = {volume} gallons (no sewage meter, so a "
                 "fraction of metered water is used).").format(water=money.gallons(water), fraction=fraction,
                                                               volume=money.gallons(volume)),
               "rents.C.1", volume_gallons=money.text(volume))
    else:
        ex.add(_("The property's own sewage meter measured {volume} gallons; that is the volume billed. The law "
                 "bills by such a meter only when it is an approved measuring device, installed in a manner "
                 "approved by the Town Board; without one, a share of metered water use is billed.").format(
            volume=money.gallons(volume)), "rents.C.1", volume_gallons=money.text(volume),
            quote=quoted(rules, "sewage-meter"))
    ex.add(_("Charge = {vc} per 1,000 gallons × {volume} gallons = {charge}.").format(
        vc=money.dollars(vc), volume=money.gallons(volume), charge=money.dollars(v["computed"])),
        "rents.B", interpretation="rounding", charge=v["computed"])
    minimum, min_water = v["minimum"], v["min_water"]
    memo = v["memo"]  # what the quarter alone decides, worked out once for it (bill.quarter_context)
    if "minimum_since" not in memo:
        memo["minimum_since"] = since(rules, "minimum-charge-water-gallons", v["start"])
    words = dict(gallons=money.gallons(min_water), vc=money.dollars(vc), fraction=fraction,
                 minimum=money.dollars(minimum), since=memo["minimum_since"])
    if kind == "sewage-gallons" and minimum != v["ctx_minimum"]:
        how = _("Minimum charge = the charge for {gallons} gallons of metered sewage = {vc} × {gallons} ÷ 1,000 = "
                "{minimum}.").format(**words)
    elif kind == "sewage-gallons":
        how = _("Minimum charge = the charge for {gallons} gallons of water use{since} = {vc} × {gallons} × "
                "{fraction} ÷ 1,000 = {minimum}. This site reads the minimum as the same for a property with a "
                "sewage meter.").format(**words)
    else:
        how = _("Minimum charge = the charge for {gallons} gallons of water use{since} = {vc} × {gallons} × "
                "{fraction} ÷ 1,000 = {minimum}.").format(**words)
    shared = v.get("on_property")
    if shared is not None:  # the reading minimum-per-property: the property's charges, together, against it
        words.update(accounts=shared["accounts"], combined=money.dollars(shared["combined"]),
                     share=money.dollars(shared["share"]), own=money.dollars(v["computed"]))
        # none of the accounts has a charge: the minimum is shared equally (bill.py: the shares), and said so
        outcome = (_("This property has {accounts} sewer accounts, and this site reads the minimum as owed once for "
                     "the property. None of them has a charge this quarter, so the property pays {minimum}, shared "
                     "equally between the accounts (also this site's reading): this account's share is "
                     "{share}.")
                   if v["minimum_applied"] and shared["accounts"] > 1 and not shared["combined"] else
                   ngettext("This property has {accounts} sewer account, and this site reads the minimum as owed once "
                            "for the property. Its charge is {combined}. That is below the minimum, so the "
                            "property pays {minimum}: this account's share is {share}.",
                            "This property has {accounts} sewer accounts, and this site reads the minimum as "
                                "owed once for the property. Their charges together are {combined}. That is below "
                                "the minimum, so the property pays {minimum}, shared in proportion to each "
                                "account's charge: this account's share is {share}.", shared["accounts"])
                   if v["minimum_applied"] else
                   ngettext("This property has {accounts} sewer account, and this site reads the minimum as owed once "
                            "for the property. Its charge is {combined}. That is not below the minimum, so the "
                            "account pays its own charge, {own}.",
                            "This property has {accounts} sewer accounts, and this site reads the minimum as "
                                "owed once for the property. Their charges together are {combined}. That is not "
                                "below the minimum, so each account pays its own charge: this account's is {own}.",
                            shared["accounts"])).format(**words)
        ex.add(f"{how} {outcome}", "minimum-charge", interpretation="minimum-per-property", minimum_charge=minimum,
               property_charges=shared["combined"])
    else:
        outcome = (_("The charge is below it, so the minimum of {minimum} is billed.").format(**words)
                   if v["minimum_applied"] else _("The charge is not below it, so the charge stands."))
        ex.add(f"{how} {outcome}", "minimum-charge",
               interpretation="minimum-with-sewage-meter" if kind == "sewage-gallons" else None, minimum_charge=minimum)
    paid, due, n = v["paid"], v["due"], v["n"]
    if paid:
        days_late = (paid - due).days
        if "late_terms" not in memo:  # the penalty's terms in force on the quarter's due date
            rate = parameter(rules, "late-penalty-rate", on=due)
            memo["late_terms"] = dict(
                grace=parameter(rules, "late-penalty-grace-days", on=due), rate=money.percent(rate),
                months=parameter(rules, "late-penalty-period-months", on=due),
                grace_since=since(rules, "late-penalty-grace-days", due), rate_since=since(rules, "late-penalty-rate", due),
                months_since=since(rules, "late-penalty-period-months", due), first_penalty=long(v["first_penalty"]))
        terms = memo["late_terms"]
        grace, months = terms["grace"], terms["months"]
        words = dict(terms, paid=long(paid), days=days_late, periods=n, penalty=money.dollars(v["pen"]))
        if n == 0 and days_late > grace:
            ex.add(_("Paid on {paid}, {days} days after the due date. That is more than {grace} days{grace_since}, "
                     "but the time to pay ran to the next business day, {last_day}, as the step above says, so "
                     "there is no penalty.").format(last_day=long(v["last_day"]), **words),
                   "rents.F", interpretation="period-end-business-day", days_after_due=days_late)
        elif n == 0:
            ex.add((_("Paid on {paid}, on or before the due date: within {grace} days{grace_since}, so no penalty.")
                    if days_late <= 0 else
                    _("Paid on {paid}, 1 day after the due date: within {grace} days{grace_since}, so no penalty.")
                    if days_late == 1 else
                    _("Paid on {paid}, {days} days after the due date: within {grace} days{grace_since}, so no "
                      "penalty.")).format(**words), "rents.F", days_after_due=days_late)
        elif interpretation(rules, "penalty-accrual") == "once":
            ex.add(_("Paid on {paid}, {days} days after the due date: a {rate}{rate_since} penalty applies from "
                     "{first_penalty}, once, however long the bill then stays unpaid, as this site reads the law. "
                     "Penalty {penalty}.").format(**words),
                   "rents.F", interpretation="penalty-accrual",
                   days_after_due=days_late, penalty_periods=n, penalty=v["pen"])
            ex.add(_("Unpaid charges are a lien on the property, to the extent set forth in § 452 of the General "
                     "Municipal Law."), "rents.G",
                   quote=quoted(rules, "lien"))
        else:
            ex.add(ngettext("Paid on {paid}, {days} days after the due date: a {rate}{rate_since} penalty applies "
                            "from {first_penalty}, and, as this site reads “per quarter”, a further {rate} for each "
                            "further period unpaid. {periods} period: penalty {penalty}.",
                            "Paid on {paid}, {days} days after the due date: a {rate}{rate_since} penalty applies "
                            "from {first_penalty}, and, as this site reads “per quarter”, a further {rate} for each "
                            "further period unpaid. {periods} periods: penalty {penalty}.", n).format(**words),
                   "rents.F", interpretation="penalty-accrual",
                   days_after_due=days_late, penalty_periods=n, penalty=v["pen"])
            if "periods" not in memo:
                memo["periods"] = _periods_step(rules, v, months, grace)
            ex.add(memo["periods"], "rents.F", interpretation="penalty-quarter",
                   penalty_periods_from=[d.isoformat() for d in v["starts"]])
            ex.add(_("Unpaid charges are a lien on the property, to the extent set forth in § 452 of the General "
                     "Municipal Law."), "rents.G",
                   quote=quoted(rules, "lien"))
    late = v["if_late"]
    ex.add(" ".join([_("If you pay late:"), after_colon(late["text"])] + ([late["moved"]] if "moved" in late else [])), "rents.F",
           interpretation="penalty-accrual", last_day_to_pay=late["last_day_to_pay"],
           penalty_from=late["penalty_from"], first_penalty=late["first_penalty"])
    words = dict(charge=money.dollars(v["charge"]), penalty=money.dollars(v["pen"]), total=money.dollars(v["total"]))
    owing = v.get("owing")
    if owing is not None:
        for o in owing["quarters"]:
            said = arrears.words(o)
            ex.add(said["text"], "rents.F", interpretation="payment-order",
                   quarter=o["quarter"], unpaid_charge=o["unpaid_charge"], penalty=o["penalties"],
                   penalties_as_of=o["penalties_as_of"])
        if any(o["late"] for o in owing["quarters"]) and not (v["paid"] and v["n"]):  # (said above when paid late)
            ex.add(_("Unpaid charges are a lien on the property, to the extent set forth in § 452 of the General "
                     "Municipal Law."), "rents.G",
                   quote=quoted(rules, "lien"))
        words.update(charge=money.dollars(v["charge"] + v["pen"]), unpaid=money.dollars(owing["unpaid"]),
                     penalties=money.dollars(owing["penalties"]))
        if v.get("credit"):
            words.update(credit=money.dollars(v["credit"]))
            ex.add(_("Total = {charge} this quarter + {unpaid} unpaid from earlier quarters + {penalties} in late "
                     "penalties on them − {credit} credit from earlier payments = {total}.").format(**words),
                   "rents.F", interpretation="payment-surplus", total=v["total"])
        else:
            ex.add(_("Total = {charge} this quarter + {unpaid} unpaid from earlier quarters + {penalties} in late "
                     "penalties on them = {total}.").format(**words), "rents.F", total=v["total"])
    else:
        ex.add((_("Total = {charge} + {penalty} penalty = {total}.") if v["pen"] else
                _("Total = {total}.")).format(**words), "rents.F", total=v["total"])
    ex.add(_("If every quarter of the year used the same, the year's charges would be {annual}.").format(
        annual=money.dollars(v["annual"])), "rents.H", annual_total=v["annual"])
    return fold_citations(rules, ex.steps, v["memo"])


def skipped_days(rules: dict, first: dt.date, last_day: dt.date) -> list[str]:
    """Why each day from `first` to the day before `last_day` is not a business day, one sentence
    each: its weekday, or the public holiday it is (NY General Construction Law § 24, rules/holidays.yaml)."""
    out, day = [], first
    while day < last_day:
        holiday = public_holidays(rules, day.year).get(day)
        words = dict(weekday=_(WEEKDAY_NAMES[day.weekday()]), date=long(day), holiday=holiday)
        out.append(_("{weekday}, {date}, is {holiday}, a New York public holiday (General Construction Law "
                     "§ 24).").format(**words) if holiday else
                   _("{weekday}, {date}, is not a business day.").format(**words))
        day += dt.timedelta(days=1)
    return out


def _periods_step(rules: dict, v: dict, months: int, grace: int) -> str:
    """When each penalty period began, as the readings penalty-quarter and later-penalty-start say."""
    starts = v["starts"]
    shown = (series([long(d) for d in starts]) if len(starts) <= 6 else
             _("{first} to {last}").format(first=long(starts[0]), last=long(starts[-1])))
    words = dict(months=months, months_since=since(rules, "late-penalty-period-months", v["due"]),
                 count=len(starts), starts=shown, paid=long(v["paid"]), grace=grace,
                 first_penalty=long(v["first_penalty"]),
                 day=long(v["due"] + dt.timedelta(days=grace + 1)))
    if interpretation(rules, "penalty-quarter") == "billing-quarter":
        rule = _("Each further period begins on the first day of a later billing quarter, as we read “per quarter”.")
    elif interpretation(rules, "later-penalty-start") == "day-after-grace":
        rule = _("Each further period begins {months} months{months_since} after the one before, counted from "
                 "{day}, the day after day {grace}, as we read the law.")
    else:
        rule = _("Each further period begins {months} months{months_since} after the one before, counted from "
                 "{first_penalty}, the first penalty date, as we read the law.")
    if interpretation(rules, "later-period-end-business-day") == "next-business-day":
        rule += " " + _("A period that ends on a Saturday, Sunday or public holiday runs to the next business day "
                        "(NY General Construction Law § 25-a, as we read the law).")
    elif len(starts) > 1:
        rule += " " + _("A later period is not moved when it ends on a Saturday, Sunday or public holiday, as we read "
                        "the law; only the first 30 days are.")
    # a sentence, not a record's fields (spanish17 #4, spanish18 #4: «…períodos…: 1 (17 de febrero de 2027)»)
    return ngettext("{rule} By {paid}, {count} penalty period had begun, on {starts}.",
                    "{rule} By {paid}, {count} penalty periods had begun: {starts}.",
                    len(starts)).format(rule=rule.format(**words), **words)


def usage_from_readings(meter: str, previous, current) -> dict:
    """Usage for the quarter from two readings of the same meter."""
    if meter not in USAGE_KINDS:
        raise InputError(_("Say what the meter measures: one of {kinds}.").format(kinds=", ".join(USAGE_KINDS)),
                         "meter")
    if meter == "water-cubic-feet":
        what_before, what_after = (N_("The previous meter reading (in cubic feet)"),
                                   N_("The latest meter reading (in cubic feet)"))
    else:
        what_before, what_after = (N_("The previous meter reading (in gallons)"),
                                   N_("The latest meter reading (in gallons)"))
    found, read = [], {}
    for value, what, field, example in ((previous, what_before, "previous-reading", "120500"),
                                        (current, what_after, "current-reading", "132500")):
        try:  # both readings' problems at once (public10: each "Did you mean 120,500?" took a try of its own)
            if value is None or str(value).strip() == "":
                message = _("{what} is missing. Enter it, like {example}: both readings are needed.")
                raise InputError(message.format(what=in_sentence(message, _(what)), example=example), field)
            read[field] = parse_amount(value, what, example, field, UNITS[meter])
        except InputError as exc:
            found.append(exc)
    _raise_together(found)
    before, after = read["previous-reading"], read["current-reading"]
    if after < before:
        raise InputError(_("The latest reading is lower than the previous one. Check both readings; if the meter "
                           "was replaced or rolled over, enter the quarter's usage instead."), "current-reading")
    return {meter: str(after - before)}


def proposed_alongside(rules: dict, result: dict, usage: dict, paid_on: str | None) -> dict | None:
    """The same bill under a proposed schedule for that quarter, if one is pending."""
    start = dt.date.fromisoformat(result["period_start"])
    prop = schedule.proposed(rules, start)
    if prop is None:
        return None
    return compute(rules, result["quarter"], usage, paid_on,
                   vc_per_1000=prop["vc_per_1000_gallons"], sewage_fraction=prop["sewage_fraction"]) | {
        "schedule": schedule.summary(prop)}
