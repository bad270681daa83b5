"""The rate VC: the year's O&M cost per 1,000 gallons of users' sewage (rents.D, rents.E)."""
from __future__ import annotations

from decimal import Decimal

from . import money
from .bill import parse_amount
from .errors import InputError
from .explain import Explanation


def compute(rules: dict, om_cost, user_volume_gallons, extraneous_flow_cost=None) -> dict:
    om = parse_amount(om_cost, "The O&M cost", "856791")
    volume = parse_amount(user_volume_gallons, "The users' billable volume in gallons", "85000000")
    if volume == 0:
        raise InputError("The users' billable volume must be more than 0 gallons, like 85000000.")
    extra = Decimal(0)
    if extraneous_flow_cost is not None and str(extraneous_flow_cost).strip() != "":
        extra = parse_amount(extraneous_flow_cost, "The cost of treating extraneous flow", "25000")
    ex = Explanation()
    ex.add(f"Operation and maintenance cost of the past fiscal year: {money.dollars(om)}.", "rents.D", om_cost=om)
    if extra:
        ex.add(f"Cost of treating measured extraneous flow, borne by users in proportion to their volume: "
               f"{money.dollars(extra)}.", "rents.E", extraneous_flow_cost=extra)
    total = om + extra
    vc = money.round_line(total / volume * 1000, rules)
    ex.add(f"VC = {money.dollars(total)} ÷ {money.gallons(volume)} gallons × 1,000 = {money.dollars(vc)} per 1,000 gallons.",
           "rents.D", interpretation="rounding", vc_per_1000_gallons=vc)
    ex.add("Each user then pays CU = VC × VU for its own volume.", "rents.B")
    return {
        "command": "vc",
        "om_cost": money.text(om),
        "extraneous_flow_cost": money.text(extra),
        "total_cost": money.text(total),
        "user_volume_gallons": str(volume),
        "vc_per_1000_gallons": money.text(vc),
        "explanation": ex.steps,
    }
