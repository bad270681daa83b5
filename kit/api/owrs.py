"""A rate schedule in the Open Water Rate Specification (OWRS, California Data Collaborative:
github.com/California-Data-Collaborative/Open-Water-Rate-Specification), the YAML layout rate
tools read: `metadata`, then `rate_structure` by customer class, each a set of fields and
formulas ending in `bill`. See docs/decisions/021-open-data.md for what OWRS cannot say of our law.

The charge is written as the spec's own Tiered form, which RateParser (its R reader) computes
and no formula language is needed for: a fixed charge equal to the minimum (the charge for the
minimum's water use), no price for the water that minimum covers, then the rate times the sewage
fraction for each 1,000 gallons above it. That equals the law's "the charge, but no less than the
minimum" for every use. Usage is in thousands of gallons of metered water (`bill_unit: kgal`;
RateParser reads it from its `usage_ccf` column whatever the unit)."""
from __future__ import annotations

from decimal import Decimal

# the customer classes of the CaDC's files the law's one charge applies to (it has no classes;
# irrigation-only meters serve no sewer user, so that class is left out)
# in the name a rate tool shows, for a rate nobody pays (RateParser reads no status)
NOT_ADOPTED = {"illustrative": " (ILLUSTRATIVE rate, not adopted)", "proposed": " (PROPOSED rate, not adopted)"}
CLASSES = ("RESIDENTIAL_SINGLE", "RESIDENTIAL_MULTI", "COMMERCIAL", "INDUSTRIAL", "INSTITUTIONAL")


def number(value) -> str:
    """A decimal as OWRS files write numbers: plain, no quotes, no needless zeros ("10", "8.5", "0.8")."""
    d = Decimal(str(value))
    text = format(d.normalize(), "f") if d != d.to_integral() else str(int(d))
    return text


def document(rules: dict, s: dict, made: str) -> str:
    """One schedule record of calculator.opendata.schedule_periods, as an .owrs file's text."""
    vc, fraction = Decimal(s["vc_per_1000_gallons"]), Decimal(s["sewage_fraction"])
    kgal = Decimal(s["minimum_charge_water_gallons"]) / 1000
    per_kgal_water = vc * fraction
    status = {"adopted": "ADOPTED by the Town Board.",
              "proposed": "PROPOSED, not adopted: not a rate anyone pays.",
              "illustrative": "ILLUSTRATIVE: invented numbers, not a rate the Town has adopted."}[s["status"]]
    in_force = (f"The site bills by it from {s['from']}" + (f" to {s['to']}." if s["to"] else
                                                             " (no later schedule yet).") if s["from"]
                else "Never billed while it is only proposed.")
    head = [
        f"# Town of Pawling (Dutchess County, NY) sewer rent: rate schedule {s['id']}, {s['title']}.",
        f"# {status} {in_force}",
        f"# Made from the site's rules/ on {made}; the same schedule as JSON: api/rate-schedules.json.",
        "# The law (Sewer rents B, C(1), D; Minimum charge): the charge is the rate VC (the cost per",
        "# unit of sewage volume; the rate schedules on this site state it per 1,000 gallons) times the sewage volume,",
        "# which without a sewage meter is the share (sewage fraction) of the metered water the schedule",
        f"# sets; and no less than the charge for {s['minimum_charge_water_gallons']:,} gallons of water in a calendar quarter.",
        f"# Here: VC {number(vc)} x fraction {number(fraction)} = {number(per_kgal_water)} per 1,000 gallons of water;",
        f"# minimum {number(s['minimum_charge'])} = the charge for {number(kgal)} kgal, so the first {number(kgal)} kgal "
        "are priced 0.",
        "# Not expressible in OWRS, so not in this file: the late penalty (Sewer rents F), the due dates,",
        "# billing a quarter in advance on the last reading, and a property with its own sewage meter",
        "# (billed VC per 1,000 gallons it measures, with a minimum of its own). Rounding is to the cent.",
        "# Usage: thousands of gallons of metered water a quarter (bill_unit: kgal). RateParser reads it",
        "# from its usage_ccf column whatever bill_unit says: put kgal there, not hundreds of cubic feet.",
        "---",
    ]
    body = [
        "metadata:",
        f"  effective_date: {s['effective']}",
        f"  utility_name: Town of Pawling Sewer Districts{'' if s['status'] == 'adopted' else NOT_ADOPTED[s['status']]}",
        f"  rate_status: {s['status']}",
        "  bill_frequency: Quarterly",
        "  bill_unit: kgal",
        "rate_structure:",
    ]
    for cls in CLASSES:
        body += [
            f"  {cls}:",
            f"    sewer_rate_vc: {number(vc)}",
            f"    sewage_fraction: {number(fraction)}",
            f"    minimum_sewer_charge: {number(s['minimum_charge'])}",
            "    sewer_tier_starts:",
            "      - 0",
            f"      - {number(kgal + 1)}",
            "    sewer_tier_prices:",
            "      - 0",
            f"      - {number(per_kgal_water)}",
            "    sewer_charge: Tiered",
            "    bill: minimum_sewer_charge+sewer_charge",
        ]
    return "\n".join(head + body) + "\n"
