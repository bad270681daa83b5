"""An amended law builds (issue 35, item 19): a Town's webmaster changes one of the law's numbers,
with its text, in a copy of rules/, and the whole site builds from it. The fictional bill-run
sample the site publishes (/billing-sample/) is made by that build from those rules, so it shows
the amended figures, and no build refuses it as personal data."""
from __future__ import annotations

import csv
import io
import shutil
from decimal import Decimal

import pytest

from calculator.bills import billing
from kit.site import build as kit_site
from kit.billrun.sample import DOCS_FOLDER, FIRST, SECOND
from kit.rules.validate import RULES_DIR, compile_rules

PENALTY = "parameters/late-penalty-rate.yaml"
QUOTING_PENALTY = ("law.yaml", "parameters/late-penalty-grace-days.yaml", "parameters/late-penalty-period-months.yaml",
                   "interpretations/penalty-accrual.yaml", "interpretations/period-end-business-day.yaml",
                   "interpretations/payment-order.yaml")
MINIMUM = "parameters/minimum-charge-water-gallons.yaml"
SCHEDULE = "rate-schedules/2025-illustrative.yaml"

#: each amendment as a webmaster would make it: the number and the law's words together
AMENDMENTS = {
    "penalty 15% to 20%": [(PENALTY, 'value: "0.15"', 'value: "0.20"'), (PENALTY, "penalty of 15%", "penalty of 20%"),
                           *((name, "penalty of 15%", "penalty of 20%") for name in QUOTING_PENALTY)],
    "due on the twentieth": [
        ("parameters/bill-due-dates.yaml", '["01-15", "04-15", "07-15", "10-15"]', '["01-20", "04-20", "07-20", "10-20"]'),
        ("parameters/bill-due-dates.yaml", "due on the fifteenth day of January", "due on the twentieth day of January"),
        ("law.yaml", "due on the fifteenth day of January", "due on the twentieth day of January")],
    "minimum of 10,000 gallons": [(MINIMUM, "value: 8000", "value: 10000"),
                                  (MINIMUM, "usage of 8,000 gallons", "usage of 10,000 gallons"),
                                  ("law.yaml", "usage of 8,000 gallons", "usage of 10,000 gallons"),
                                  ("interpretations/minimum-with-sewage-meter.yaml", "usage of 8,000 gallons",
                                   "usage of 10,000 gallons")],
    "sewage fraction 0.75": [(SCHEDULE, 'sewage_fraction: "0.80"', 'sewage_fraction: "0.75"')],
    "illustrative rate $12.00": [(SCHEDULE, 'vc_per_1000_gallons: "10.00"', 'vc_per_1000_gallons: "12.00"')],
}


def rows(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text)))


def run_second_quarter(rules, files: dict[str, str]) -> list[dict]:
    """The Clerk's run for SECOND from the published sample, as the README and the desk do it."""
    out = billing.run(rules, SECOND, ("accounts.csv", files["accounts.csv"]),
                      (f"reads-{SECOND}.csv", files[f"reads-{SECOND}.csv"]),
                      payments=("payments.csv", files["payments.csv"]),
                      earlier=[(f"register-{FIRST}.csv", files[f"register-{FIRST}.csv"])])
    return rows(out["files"]["register.csv"])


@pytest.fixture(scope="module")
def shipped_register():
    """The sample's earlier register billed by the rules as shipped."""
    from kit.billrun.sample import DOCS_COUNT, sample_files
    files = sample_files(DOCS_COUNT, rules=compile_rules(RULES_DIR))
    return rows(files[f"register-{FIRST}.csv"]), run_second_quarter(compile_rules(RULES_DIR), files)


#: the amendments built together, so the suite builds twice, not five times: the penalty's on its
#: own (it shows in the next quarter's run, compared with the shipped rules' run of the same files,
#: which a moved due date or another rate would change); the others in one copy of the rules, each
#: checked on that build's register (the minimum charge then has the amended rate, share and gallons)
BUILDS = {"penalty": ["penalty 15% to 20%"],
          "rate, share, minimum and due date": ["due on the twentieth", "minimum of 10,000 gallons",
                                                "sewage fraction 0.75", "illustrative rate $12.00"]}


def test_every_amendment_is_built():
    assert sorted(a for group in BUILDS.values() for a in group) == sorted(AMENDMENTS)


@pytest.mark.parametrize("build", sorted(BUILDS))
def test_an_amended_law_builds_and_its_sample_shows_the_amended_figures(build, tmp_path, shipped_register):
    rules_dir = tmp_path / "rules"
    shutil.copytree(RULES_DIR, rules_dir)
    for amendment in BUILDS[build]:
        for name, old, new in AMENDMENTS[amendment]:
            path = rules_dir / name
            text = path.read_text(encoding="utf-8")
            assert old in text, (name, old)
            path.write_text(text.replace(old, new), encoding="utf-8")
    built = kit_site.build(tmp_path / "site", rules_dir=rules_dir)  # refuses (BuildError) if it cannot
    files = {p.name: p.read_text(encoding="utf-8") for p in (built / DOCS_FOLDER).iterdir()}
    register = rows(files[f"register-{FIRST}.csv"])
    before, before_second = shipped_register
    assert [r["account"] for r in register] == [r["account"] for r in before]
    amended = set(BUILDS[build])
    if "penalty 15% to 20%" in amended:
        # the penalty shows in the next quarter's run, on what was left unpaid of the first
        after = {r["account"]: r for r in run_second_quarter(compile_rules(rules_dir), files)}
        penalised = [r for r in before_second if Decimal(r["penalties"]) > 0]
        assert penalised
        for old in penalised:  # each period's penalty is rounded to the cent on its own
            new = Decimal(after[old["account"]]["penalties"])
            assert abs(new - Decimal(old["penalties"]) * 20 / 15) <= Decimal("0.02"), old["account"]
        # the penalty shows only in the next run: this quarter's bills are the same
        assert [r["total"] for r in register] == [r["total"] for r in before]
        return
    assert {r["due_date"] for r in before} == {"2025-07-15"}
    assert {r["due_date"] for r in register} == {"2025-07-20"}
    assert {r["last_day_to_pay"] for r in before} == {"2025-08-14"}
    assert {r["last_day_to_pay"] for r in register} == {"2025-08-19"}  # 30 days after July 20
    assert {r["vc_per_1000_gallons"] for r in before} == {"10.00"}
    assert {r["vc_per_1000_gallons"] for r in register} == {"12.00"}
    water = [r for r in register if r["meter"] == "water-gallons"]
    assert water and all(Decimal(r["sewage_gallons"]) == Decimal(r["water_gallons"]) * Decimal("0.75") for r in water)
    assert {r["minimum_charge"] for r in before} == {"64.00"}      # 10.00 x 8,000 x 0.8 / 1,000
    assert {r["minimum_charge"] for r in register} == {"90.00"}    # 12.00 x 10,000 x 0.75 / 1,000
    assert any(r["minimum_applied"] == "yes" for r in register)
