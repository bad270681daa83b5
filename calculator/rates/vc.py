"""The rate VC: the year's O&M cost per 1,000 gallons of users' sewage (rents.D, rents.E,
rate-schedules.A). Which cost, and whether extraneous flow is inside it, are recorded
readings: rules/interpretations/vc-cost-basis.yaml and extraneous-flow.yaml."""
from __future__ import annotations

from decimal import Decimal

from ..core import money
from ..bills.bill import parse_amount
from ..core.errors import InputError
from ..core.explain import Explanation, named
from ..core.i18n import N_, _
from ..core.law import quoted
from ..core.rules import interpretation


def _given(value) -> bool:
    return value is not None and str(value).strip() != ""


def compute(rules: dict, om_cost, user_volume_gallons, extraneous_flow_cost=None, budgeted_om_cost=None,
            projected_om_cost=None) -> dict:
    """VC from the past fiscal year's O&M cost; or, when past data is not available, from the
    projected O&M expenditures for the year (rents.D's fallback: `projected_om_cost`, never both)."""
    past_given, projected_given = _given(om_cost), _given(projected_om_cost)
    if past_given and projected_given:
        raise InputError(_("Enter the O&M cost of the past fiscal year, or, only when past data is not available, "
                           "the projected O&M cost of the year ({law}); not both.").format(law=named(rules, "rents.D")),
                         "projected-om-cost")
    if not (past_given or projected_given):
        raise InputError(_("Enter the O&M cost of the past fiscal year, like 856791. When past data is not "
                           "available, enter the projected O&M cost of the year instead ({law}).").format(
                               law=named(rules, "rents.D")), "om-cost")
    om = parse_amount(om_cost, N_("The O&M cost"), "856791", "om-cost", dollars=True) if past_given else None
    projected = (parse_amount(projected_om_cost, N_("The projected O&M cost"), "856791", "projected-om-cost",
                               dollars=True)
                 if projected_given else None)
    # whole gallons: "85.000" is asked about, never read as 85 (a VC of $10,079,894.12: the second hostile tester)
    volume = parse_amount(user_volume_gallons, N_("The users' billable volume in gallons"), "85000000", None,
                          N_("{amount} gallons"))
    if volume == 0:
        raise InputError(_("The users' billable volume must be more than 0 gallons, like 85000000."))
    extra = Decimal(0)
    if _given(extraneous_flow_cost):
        extra = parse_amount(extraneous_flow_cost, N_("The cost of treating extraneous flow"), "25000", dollars=True)
    budget = None
    if _given(budgeted_om_cost):
        budget = parse_amount(budgeted_om_cost, N_("The budgeted O&M cost"), "900000", dollars=True)
    basis = interpretation(rules, "vc-cost-basis")
    ex = Explanation()
    if om is not None:
        ex.add(_("Operation and maintenance cost of the past fiscal year: {cost}.").format(cost=money.dollars(om)),
               "rents.D", om_cost=om)
        known = om
    else:
        ex.add(_("Past data is not available, so VC is computed from data that represent the projected operation "
                 "and maintenance expenditures for the year: {cost}, projected, not incurred. The law gives this "
                 "computation to the Village Board or its agents.").format(cost=money.dollars(projected)),
               "rents.D", projected_om_cost=projected,
               quote=quoted(rules, "projected-costs"))
        known = projected
    if basis == "budgeted":
        if budget is None:
            raise InputError(_("VC is based on the budgeted expenses (rules/interpretations/vc-cost-basis.yaml): "
                               "enter the budgeted O&M cost of the coming year, like 900000."), "budgeted-om-cost")
        cost = budget
        ex.add(_("The schedule is based on the budgeted expenses of the coming year: {budget}.").format(
            budget=money.dollars(budget)), "rate-schedules.A", interpretation="vc-cost-basis", budgeted_om_cost=budget)
    elif om is None:
        cost = known
        ex.add(_("VC is based on the projected expenses, as {law} allows when past data is not available; the "
                 "budget of {budget} for the coming year is shown, not used.").format(
                     budget=money.dollars(budget), law=named(rules, "rents.D"))
               if budget is not None else
               _("VC is based on the projected expenses, as {law} allows when past data is not available.").format(
                   law=named(rules, "rents.D")),
               "rate-schedules.A", interpretation="vc-cost-basis", budgeted_om_cost=budget)
    else:
        cost = known
        ex.add(_("VC is based on the past fiscal year's expenses; the budget of {budget} for the coming year is shown, "
                 "not used.").format(budget=money.dollars(budget)) if budget is not None else
               _("VC is based on the past fiscal year's expenses."), "rate-schedules.A", interpretation="vc-cost-basis",
               budgeted_om_cost=budget)
    if extra:
        if interpretation(rules, "extraneous-flow") == "part-of-om":
            if extra > cost:
                raise InputError(_("The cost of treating extraneous flow ({extra}) is part of the O&M cost, so it cannot be more "
                                   "than it ({cost}). Check both amounts.").format(
                                       extra=money.dollars(extra), cost=money.dollars(cost)), "extraneous-flow-cost")
            ex.add(_("Of that cost, {extra} is for treating measured extraneous flow. It is already in the O&M cost "
                     "and is not added again: dividing the whole cost by the users' volume makes users bear it in "
                     "proportion to their volume.").format(extra=money.dollars(extra)),
                   "rents.E", interpretation="extraneous-flow", extraneous_flow_cost=extra)
        else:
            ex.add(_("Cost of treating measured extraneous flow, added to the O&M cost and borne by users in "
                     "proportion to their volume: {extra}.").format(extra=money.dollars(extra)),
                   "rents.E", interpretation="extraneous-flow", extraneous_flow_cost=extra)
            cost = cost + extra
    vc = money.round_line(cost / volume * 1000, rules)
    # the law reads both ways (rents.D: the past year's cost; rate-schedules.A: the budget): with both costs given,
    # the rate from each, so the Town sees what its choice means (the usability test, issue 34); the reading
    # chosen (vc-cost-basis) sets VC, the other is shown only
    by_basis = None
    if budget is not None:
        added = extra if extra and interpretation(rules, "extraneous-flow") != "part-of-om" else Decimal(0)
        by_basis = {"past-year" if om is not None else "projected": money.text(money.round_line((known + added) / volume * 1000, rules)),
                    "budgeted": money.text(money.round_line((budget + added) / volume * 1000, rules)),
                    "chosen": "budgeted" if basis == "budgeted" else "past-year" if om is not None else "projected"}
    exact = cost / volume * 1000
    if exact == vc:
        ex.add(_("VC = {cost} ÷ {volume} gallons × 1,000 = {vc} per 1,000 gallons.").format(
            cost=money.dollars(cost), volume=money.gallons(volume), vc=money.dollars(vc)),
            "rents.D", interpretation="rounding", vc_per_1000_gallons=vc)
    else:  # the division and its rounding shown (clerk12, 8: $11.2991 became $11.30, and the minimum moved 1¢)
        ex.add(_("VC = {cost} ÷ {volume} gallons × 1,000 = {exact}…, rounded to the cent: {vc} per 1,000 "
                 "gallons.").format(cost=money.dollars(cost), volume=money.gallons(volume), vc=money.dollars(vc),
                                    exact="$" + format(exact.quantize(Decimal("0.0001"), rounding="ROUND_DOWN"), ",f")),
               "rents.D", interpretation="rounding", vc_per_1000_gallons=vc)
    ex.add(_("Each user then pays CU = VC × VU for its own volume."), "rents.B")
    return {
        "command": "vc",
        "om_cost": money.text(om) if om is not None else None,
        "projected_om_cost": money.text(projected) if projected is not None else None,
        "cost_source": "past-year" if om is not None else "projected",
        "extraneous_flow_cost": money.text(extra),
        "budgeted_om_cost": money.text(budget) if budget is not None else None,
        "cost_basis": basis,
        "total_cost": money.text(cost),
        "user_volume_gallons": str(volume),
        "vc_per_1000_gallons": money.text(vc),
        "vc_by_basis": by_basis,
        "explanation": ex.steps,
    }
