"""Every switch works: each interpretation in rules/interpretations/, set to each of
its options in a copy of the compiled rules, changes the figures or the outcome (not
only the wording) of at least one answer from a fixed set of probes: bills, late
penalties, VC, the industry test, the permit checker, the hearing window, and the Clerk's check of
adopted schedules. A reading that changes nothing is a defect: the test names it."""
import copy

import pytest

from calculator import industry
from calculator.bills import bill, billing
from calculator.permits import flow
from calculator.rates import hearing, vc
from calculator.core.errors import InputError
from calculator.core.rules import load
from kit.rules.validate import schedule_problems

RULES = load()

# The permit checker: the harmless path, and each answer that matters changed on it.
BASE = [("work", "new-connection"), ("street-opening", "no"), ("septic-or-cesspool-link", "no"),
        ("flammables-washstand", "no"), ("steam-exhaust", "no"), ("trade-waste", "no"),
        ("manure-or-cesspool-overflow", "no"), ("garbage-grinder", "no"), ("stormwater", "no"), ("other-water", "no"),
        ("industrial-waste", "no"), ("sewer-pipe", "no")]


def _changed(**changes):
    out = []
    for q, v in BASE:
        key = q.replace("-", "_")
        out.append((q, changes.get(key, v)))
        if q == "trade-waste" and "pretreatment" in changes:
            out.append(("pretreatment", changes["pretreatment"]))
        if q == "flammables-washstand" and "oil_separator" in changes:
            out.append(("oil-separator", changes["oil_separator"]))
    return out


PERMIT_SCENARIOS = [BASE, _changed(work="repair"), _changed(work="alteration"), _changed(septic_or_cesspool_link="yes"),
                    _changed(trade_waste="yes", pretreatment="yes"), _changed(trade_waste="yes", pretreatment="no"),
                    _changed(stormwater="yes"), _changed(industrial_waste="yes"),
                    _changed(industrial_waste="business-sewage-only"), _changed(other_water="yes"),
                    _changed(work="demolition"),
                    _changed(flammables_washstand="yes", oil_separator="yes")]


def _schedule(rules, **s):
    """The rules with one more schedule in force (a probe's situation, not the Town's)."""
    out = copy.deepcopy(rules)
    out["schedules"] = sorted(out["schedules"] + [dict({"title": "probe", "cite": "rents.D", "sewage_fraction": "0.80",
                                                          "_file": "probe.yaml"}, **s)], key=lambda x: x["effective"])
    return out


MID_YEAR = dict(id="2027-probe", status="adopted", effective="2027-04-01", vc_per_1000_gallons="12.00",
                notice={"published": "2027-02-01", "meeting": "2027-02-20", "time": "19:00", "place": "Town Hall"},
                adoption={"date": "2027-03-01", "ayes": 3, "noes": 0})
LATE = dict(MID_YEAR, id="2027-late", effective="2027-01-01",
            notice={"published": "2027-03-01", "meeting": "2027-03-16", "time": "19:00", "place": "Town Hall"},
            adoption={"date": "2027-03-16", "ayes": 3, "noes": 0})


class _Answers(dict):
    """Probe answers by name; a refused input is an answer too (refused, rather than figures)."""

    def __setitem__(self, name, compute):
        try:
            value = compute()
        except InputError as exc:
            value = {"refused": str(exc)}
        super().__setitem__(name, value)


def probes(rules):
    """Each probe's answer, by name."""
    out = _Answers()
    for quarter, usage, paid in [("2027-Q1", {"water-gallons": "12000"}, None),
                                 ("2027-Q1", {"water-gallons": "12000"}, "2027-02-14"),   # day 30, a Sunday
                                 ("2027-Q1", {"water-gallons": "12000"}, "2027-02-15"),   # the Monday after
                                 ("2027-Q1", {"water-gallons": "12000"}, "2027-05-16"),   # three months after day 31
                                 ("2027-Q1", {"water-gallons": "12000"}, "2027-09-30"),   # three periods late
                                 ("2027-Q1", {"sewage-gallons": "5000"}, None)]:          # under the minimum
        out[f"bill {quarter} {usage} paid {paid}"] = lambda: bill.compute(rules, quarter, usage, paid)
    # a half cent: 10.50 x 8,010 / 1,000 = 84.105 (gallons are whole, so the rate has odd cents)
    out["bill half a cent"] = lambda: bill.compute(rules, "2027-Q1", {"sewage-gallons": "8010"}, vc_per_1000="10.50")
    for name, extra in [("mid-year schedule", MID_YEAR), ("schedule adopted late", LATE)]:
        with_it = _schedule(rules, **extra)
        for quarter in ("2027-Q1", "2027-Q2", "2027-Q3"):
            out[f"bill {quarter}, {name}"] = lambda: bill.compute(with_it, quarter, {"water-gallons": "12000"})
        out[f"schedule check, {name}"] = lambda: schedule_problems(
            list(with_it["schedules"]), with_it["parameters"], None, with_it["interpretations"])
    out["vc"] = lambda: vc.compute(rules, "856791", "85000000", "25000")
    out["vc budgeted"] = lambda: vc.compute(rules, "856791", "85000000", None, budgeted_om_cost="900000")
    for args in [dict(average_workday_gallons="1000", year=2027),
                 dict(average_workday_gallons="30001", system_gallons_per_day="600000", toxic_pollutant=False,
                      significant_impact=False, year=2027),
                 dict(average_workday_gallons="30001", average_daily_gallons="20000", system_gallons_per_day="600000",
                      toxic_pollutant=False, significant_impact=False, year=2027)]:
        out[f"industry {args}"] = lambda: industry.compute(rules, **args)
    for answers in PERMIT_SCENARIOS:
        out[f"permit {answers}"] = lambda: flow.evaluate(rules, answers)
    # day 30 after publication is Sunday, October 31, 2027; the meeting on the Monday after
    out["hearing day 31 after a Sunday"] = lambda: hearing.compute(rules, "2027-10-01", "2027-11-01")
    # the bill run: 60.00 paid late on a 100.00 bill, penalties counted into a second period
    out["bill run, a part payment after the last day"] = lambda: billing.run(
        rules, "2025-Q4", ("accounts.csv", "account,parcel,service_address,mailing_name,mailing_address,language,meter\n"
                                           "A1,1-1-1,1 Example Lane,Ann Example,PO Box 1,en,water-gallons\n"),
        ("reads.csv", "account,usage\nA1,12000\n"),
        ("payments.csv", "account,quarter,amount,paid_on\nA1,2025-Q3,60.00,2025-09-01\n"),
        [("register.csv", "account,quarter,charge\nA1,2025-Q3,100.00\n")], "2025-11-14")["arrears"]
    head = "account,parcel,service_address,mailing_name,mailing_address,language,meter\n"
    # two accounts on one property, each under the minimum (minimum-per-property)
    out["bill run, two accounts on one property"] = lambda: billing.run(
        rules, "2025-Q4", ("accounts.csv", head + "A1,7-7-7,7 Lane,Ann,PO 1,en,water-gallons\n"
                                                  "A2,7-7-7,7 Lane Up,Bo,PO 2,en,water-gallons\n"),
        ("reads.csv", "account,usage\nA1,3000\nA2,3000\n"))["register"]
    # the whole Q2 bill paid, Q1's arrears included, named as the Q2 payment (payment-surplus)
    out["bill run, a payment beyond the bill it names"] = lambda: billing.run(
        rules, "2025-Q3", ("accounts.csv", head + "A1,1-1-1,1 Lane,Ann,PO 1,en,water-gallons\n"),
        ("reads.csv", "account,usage\nA1,12000\n"),
        ("payments.csv", "account,quarter,amount,paid_on\nA1,2025-Q2,206.40,2025-04-30\n"),
        [("q1.csv", "account,quarter,charge\nA1,2025-Q1,96.00\n"),
         ("q2.csv", "account,quarter,charge,arrears,arrears_quarters\nA1,2025-Q2,96.00,96.00,2025-Q1\n")])["register"]
    return out


WORDING = {"explanation", "notices", "text", "title", "summary", "label", "question", "hint", "anchor",
           "outcome_detail", "reading", "guide", "facts_needed"}


def substance(value):
    """An answer without its words: the figures, dates, outcomes and which provisions apply."""
    if isinstance(value, dict):
        return {k: substance(v) for k, v in value.items() if k not in WORDING}
    if isinstance(value, list):
        return [substance(v) for v in value]
    return value


BASELINE = {k: substance(v) for k, v in probes(RULES).items()}
SWITCHES = [(i["id"], option) for i in RULES["interpretations"].values() for option in i["options"]
            if option != i["chosen"]]


def test_every_interpretation_has_another_option_and_every_option_a_why():
    assert {i for i, _ in SWITCHES} == set(RULES["interpretations"])
    for i in RULES["interpretations"].values():
        for key, option in i["options"].items():
            assert option.get("why"), f"{i['id']}: option {key!r} has no why"


@pytest.mark.parametrize("ident, option", SWITCHES, ids=[f"{i}={o}" for i, o in SWITCHES])
def test_flipping_the_interpretation_changes_an_answer(ident, option):
    flipped = copy.deepcopy(RULES)
    flipped["interpretations"][ident]["chosen"] = option
    changed = [name for name, answer in probes(flipped).items() if substance(answer) != BASELINE[name]]
    assert changed, f"interpretation {ident!r} set to {option!r} changes no answer's figures or outcome"
