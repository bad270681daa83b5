"""The law's numbers as data (the site's api/): every file is what its OpenAPI description says,
every value is the one rules/ holds (read here on its own, with PyYAML, not through the kit),
a dated amendment reaches the files and `calculator parameters --on`, the files are the same
bytes each time, and the OWRS files bill what the engine bills, computed by RateParser, the
specification's own reader (R; tests/vendor/RateParser, MIT)."""
import csv
import io
import json
import shutil
import subprocess
from decimal import Decimal
from pathlib import Path

import jsonschema
import pytest
import yaml
from openapi_spec_validator import validate as validate_openapi
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from calculator.cli import run
from kit.api.files import write_api
from kit.rules.validate import RULES_DIR, compile_rules
from test_dated_parameters import AMENDED_TEXT, MINIMUM_2028, RATE_2028, append, edit

BASE = "https://pawling.example/api/"
VENDOR = Path(__file__).parent / "vendor" / "RateParser" / "R"


@pytest.fixture(scope="module")
def api(built_site):
    return built_site / "api"


def registry(api: Path) -> Registry:
    """openapi.json and the rules' schemas beside it, at the addresses a reader fetches them from."""
    resources = [(BASE + "openapi.json", json.loads((api / "openapi.json").read_text(encoding="utf-8")))]
    resources += [(BASE + "schemas/" + p.name, json.loads(p.read_text(encoding="utf-8")))
                  for p in sorted((api / "schemas").glob("*.json"))]
    return Registry().with_resources((uri, Resource.from_contents(doc, default_specification=DRAFT202012)) for uri, doc in resources)


def check(api: Path, data, schema: str) -> None:
    jsonschema.Draft202012Validator({"$ref": BASE + "openapi.json#/components/schemas/" + schema},
                                    registry=registry(api),
                                    format_checker=jsonschema.FormatChecker()).validate(data)


def load(path: Path):
    return json.loads(path.read_text(encoding="utf-8"))


def test_the_description_is_valid_openapi_and_names_every_file(api):
    doc = load(api / "openapi.json")
    validate_openapi(doc, base_uri=(api / "openapi.json").resolve().as_uri())  # an outside checker
    assert doc["openapi"].startswith("3.1")
    ids = doc["paths"]["/parameters/{id}.json"]["get"]["parameters"][0]["schema"]["enum"]
    assert ids == sorted(p.stem for p in (api / "parameters").glob("*.json")) == sorted(
        p.stem for p in (RULES_DIR / "parameters").glob("*.yaml"))
    schedules = doc["paths"]["/owrs/{schedule}.owrs"]["get"]["parameters"][0]["schema"]["enum"]
    assert schedules == sorted(p.stem for p in (api / "owrs").glob("*.owrs"))
    # the rules' own schemas, as they are: one description of each record, not a second copy
    for p in (api / "schemas").glob("*.json"):
        assert p.read_bytes() == (RULES_DIR / "schemas" / p.name).read_bytes()


def test_every_file_validates_against_the_description(api):
    check(api, load(api / "parameters.json"), "ParametersFile")
    for p in sorted((api / "parameters").glob("*.json")):
        check(api, load(p), "ParameterFile")
    check(api, load(api / "rate-schedules.json"), "RateSchedulesFile")
    check(api, load(api / "interpretations.json"), "InterpretationsFile")
    check(api, load(api / "law.json"), "LawFile")
    for p in sorted((api / "law").glob("*.json")):
        check(api, load(p), "ProvisionFile")
    bad = load(api / "parameters.json")
    bad["parameters"][0]["values"][0]["from"] = "15 January"      # the description can refuse
    with pytest.raises(jsonschema.ValidationError):
        check(api, bad, "ParametersFile")


def test_every_file_says_its_build_and_day_and_is_sorted_utf8(api, built_site):
    for p in sorted(api.rglob("*.json")):
        if p.parent.name == "schemas":
            continue
        raw = p.read_bytes()
        data = json.loads(raw.decode("utf-8"))
        assert raw == (json.dumps(data, ensure_ascii=False, sort_keys=True, indent=2) + "\n").encode()
        if p.name != "openapi.json":
            assert len(data["meta"]["engine_build"]) == 12 and data["meta"]["made"][:2] == "20", p
    engine = {p.name for p in (built_site / "engine").iterdir() if p.is_dir() and len(p.name) == 12}
    assert {load(api / "parameters.json")["meta"]["engine_build"]} == engine


def raw_rules(kind: str) -> dict:
    """rules/<kind>/*.yaml read with plain PyYAML, dates as YAML gives them."""
    return {p.stem: yaml.safe_load(p.read_text(encoding="utf-8")) for p in sorted((RULES_DIR / kind).glob("*.yaml"))}


def test_every_value_is_the_value_in_rules(api):
    raw = raw_rules("parameters")
    params = {p["id"]: p for p in load(api / "parameters.json")["parameters"]}
    assert set(params) == set(raw)
    for name, r in raw.items():
        p = params[name]
        assert (p["description"], p["unit"], p["cite"]) == (r["description"], r["unit"], r["cite"])
        assert p["provision"]["law_url"] == "law/#" + r["cite"].lower().replace(".", "-")
        expected = ([(None, r["value"], r["quote"])] if "value" in r else []) + [
            (str(day), v["value"], v["quote"]) for day, v in (r.get("values") or {}).items()]
        assert [(v["from"], v["value"], v["quote"]) for v in p["values"]] == expected
        assert p["values"][-1]["to"] is None
        assert load(api / "parameters" / f"{name}.json")["parameter"] == p
    schedules = {s["id"]: s for s in load(api / "rate-schedules.json")["rate_schedules"]}
    for r in raw_rules("rate-schedules").values():
        s = schedules[r["id"]]
        assert Decimal(s["vc_per_1000_gallons"]) == Decimal(str(r["vc_per_1000_gallons"]))
        assert Decimal(s["sewage_fraction"]) == Decimal(str(r["sewage_fraction"]))
        assert (s["status"], s["effective"]) == (r["status"], str(r["effective"]))
        # the minimum: the rate times the fraction times the minimum's gallons, as the law's formula says
        gallons = raw["minimum-charge-water-gallons"]["value"]
        assert Decimal(s["minimum_charge"]) == (Decimal(str(r["vc_per_1000_gallons"])) * gallons *
                                                Decimal(str(r["sewage_fraction"])) / 1000).quantize(Decimal("0.01"))
    readings = {i["id"]: i for i in load(api / "interpretations.json")["interpretations"]}
    for name, r in raw_rules("interpretations").items():
        i = readings[name]
        assert (i["quote"], i["chosen"], i["provision"]["id"]) == (r["text"], r["chosen"], r["reads"])
        assert [o["id"] for o in i["options"]] == list(r["options"])
        assert [o["id"] for o in i["options"] if o["chosen"]] == [r["chosen"]]
    law = yaml.safe_load((RULES_DIR / "law.yaml").read_text(encoding="utf-8"))
    ids = []

    def walk(provisions):
        for p in provisions:
            ids.append(p["id"])
            walk(p.get("children", []))
    for article in law["articles"]:
        walk(article["provisions"])
    assert [p["id"] for p in load(api / "law.json")["provisions"]] == ids
    assert sorted(p.stem for p in (api / "law").glob("*.json")) == sorted(ids)
    for p in load(api / "law.json")["provisions"]:
        assert load(api / "law" / f"{p['id']}.json")["provision"] == p


@pytest.fixture
def amended_rules(tmp_path):
    rules_dir = tmp_path / "rules"
    shutil.copytree(RULES_DIR, rules_dir)
    edit(rules_dir, AMENDED_TEXT)
    append(rules_dir / "parameters" / "late-penalty-rate.yaml", RATE_2028)
    append(rules_dir / "parameters" / "minimum-charge-water-gallons.yaml", MINIMUM_2028)
    return rules_dir


def test_a_dated_amendment_reaches_the_files_and_the_command_line(amended_rules, tmp_path):
    rules = compile_rules(amended_rules)
    api = write_api(rules, tmp_path / "docs", "0123456789ab", "2027-06-01", None, amended_rules)
    rate = load(api / "parameters" / "late-penalty-rate.json")["parameter"]
    assert [(v["from"], v["to"], v["value"]) for v in rate["values"]] == [
        (None, "2027-12-31", "0.15"), ("2028-01-01", None, "0.10")]
    assert rate["values"][1]["local_law"] == "1-2027"
    check(api, {"meta": load(api / "parameters.json")["meta"], "parameter": rate}, "ParameterFile")
    for day, value, minimum in (("2027-12-31", "0.15", 8000), ("2028-01-01", "0.10", 10000)):
        answer = {p["id"]: p for p in run(["parameters", "--on", day], rules=rules)["parameters"]}
        assert answer["late-penalty-rate"]["value"] == value
        assert answer["minimum-charge-water-gallons"]["value"] == minimum
        assert answer["late-penalty-rate"]["provision"]["id"] == "rents.F"
    # the schedule billed across the amendment gives both minimums, from the days they apply, each with its OWRS
    # file (the twelfth hostile tester, F14: api/rate-schedules.json and the OWRS file kept $64.00)
    schedules = load(api / "rate-schedules.json")
    check(api, schedules, "RateSchedulesFile")
    s = next(s for s in schedules["rate_schedules"] if s["id"] == "2025-illustrative")
    assert [(m["from"], m["minimum_charge"], m["minimum_charge_water_gallons"]) for m in s["minimum_charges"]] == [
        ("2025-01-01", "64.00", 8000), ("2028-01-01", "80.00", 10000)]
    before, after = ((api.parent / m["owrs_url"]).read_text(encoding="utf-8") for m in s["minimum_charges"])
    assert "minimum_sewer_charge: 64" in before and "to 2027-12-31." in before
    assert "minimum_sewer_charge: 80" in after and "effective_date: 2028-01-01" in after


def test_the_command_line_gives_the_rate_in_force_with_its_provision():
    answer = run(["parameters", "--on", "2027-03-01"])
    s = answer["rate_schedule"]
    assert (s["id"], s["from"], s["to"], s["provision"]["id"]) == ("2025-illustrative", "2025-01-01", None, "rents.D")
    # used in 2027, but invented (not in force by law) and made for 2025: the record says both
    assert s["in_force"] is False and s["status"] == "illustrative" and s["fiscal_year"] == 2025
    assert run(["parameters", "--on", "2024-12-31"])["rate_schedule"] is None  # before the first schedule
    with pytest.raises(Exception, match="not a date we can read"):
        run(["parameters", "--on", "March 1"])


def test_the_command_line_in_spanish_names_units_and_provisions_in_spanish():
    """`parameters --lang es` (and its --json, the same answer): each unit and each provision's name
    and heading as the Spanish pages say them (the fourth Spanish review: they were English); the
    ids, values and the law's own English quotation stay."""
    from calculator.opendata import UNITS
    english = {p["id"]: p for p in run(["parameters", "--on", "2027-03-01"])["parameters"]}
    for argv in (["parameters", "--on", "2027-03-01", "--lang", "es"],
                 ["parameters", "--on", "2027-03-01", "--lang", "es", "--json"]):
        answer = run(argv)
        for p in answer["parameters"]:
            en = english[p["id"]]
            assert en["unit"] in UNITS, f"{p['id']}: its unit {en['unit']!r} has no words in calculator/opendata.UNITS"
            assert p["unit"] != en["unit"] or p["unit"] in ("grados Celsius", "grados Fahrenheit"), p["id"]
            assert p["provision"]["name"] != en["provision"]["name"], p["id"]
            assert p["provision"]["heading"] != en["provision"]["heading"], p["id"]
            assert p["provision"]["id"] == en["provision"]["id"] and p["value"] == en["value"]
            assert p["quote"] == en["quote"]
        units = {p["id"]: p["unit"] for p in answer["parameters"]}
        assert units["late-penalty-grace-days"] == "días" and units["bill-due-dates"] == "cada año"
        c1 = next(p for p in answer["parameters"] if p["id"] == "gallons-per-cubic-foot")["provision"]
        assert c1["name"] == "Cargos de alcantarillado, sección C(1)"  # as the Spanish pages name it
        assert c1["heading"] == "Medidores de aguas residuales y consumo de agua"
        assert answer["rate_schedule"]["provision"]["name"] == "Cargos de alcantarillado, sección D"
    # the provisions command too: each name and heading in Spanish, the law's English text marked as such
    spanish = run(["provisions", "--lang", "es"])["provisions"]
    assert next(p for p in spanish if p["id"] == "system")["heading"] == "El sistema de alcantarillado"
    assert all(p["text_lang"] == "en" for p in spanish)
    assert all("text_lang" not in p for p in run(["provisions"])["provisions"])


def test_the_files_are_the_same_bytes_each_time(tmp_path):
    rules = compile_rules()
    one = write_api(rules, tmp_path / "a", "0123456789ab", "2027-06-01")
    two = write_api(compile_rules(), tmp_path / "b", "0123456789ab", "2027-06-01")
    files = sorted(p.relative_to(one) for p in one.rglob("*") if p.is_file())
    assert files and files == sorted(p.relative_to(two) for p in two.rglob("*") if p.is_file())
    assert all((one / f).read_bytes() == (two / f).read_bytes() for f in files)


# ---- OWRS: the files read by the specification's own reader ----

USES_KGAL = ["0", "1", "5", "7.999", "8", "8.001", "8.5", "9.35", "12", "12.345", "40", "120.001", "1000"]


def rateparser(owrs: Path, rows: list[tuple[str, str]]) -> list[Decimal]:
    """Bills RateParser computes for (customer class, thousands of gallons) rows, in their order."""
    data = io.StringIO()
    w = csv.writer(data)
    w.writerow(["row", "cust_class", "usage_ccf"])
    w.writerows((i, c, u) for i, (c, u) in enumerate(rows))
    script = (
        "suppressPackageStartupMessages({library(dplyr); library(yaml)})\n"
        f"for (f in list.files('{VENDOR}', full.names=TRUE)) source(f)\n"
        "a <- commandArgs(TRUE)\n"
        "df <- read.csv(file('stdin'), colClasses=c('integer', 'character', 'numeric'))\n"
        "r <- as.data.frame(ungroup(suppressWarnings(calculate_bill(df, read_owrs_file(a[1])))))\n"
        "write.csv(r[order(r$row), c('row', 'bill')], stdout(), row.names=FALSE)\n")
    out = subprocess.run(["Rscript", "-e", script, str(owrs)], input=data.getvalue(), capture_output=True,
                         text=True, check=True, timeout=120)
    return [Decimal(r["bill"]) for r in csv.DictReader(io.StringIO(out.stdout))]


def test_rateparser_bills_each_owrs_file_as_the_engine_does(api):
    schedules = load(api / "rate-schedules.json")["rate_schedules"]
    assert schedules
    for s in schedules:
        owrs = api / "owrs" / f"{s['id']}.owrs"
        text = owrs.read_text(encoding="utf-8")
        doc = yaml.safe_load(text.split("\n---\n", 1)[1])
        # the layout of the specification's examples: metadata, then rate_structure by the CaDC's classes
        assert set(doc) == {"metadata", "rate_structure"}
        assert {"effective_date", "utility_name", "bill_frequency"} <= set(doc["metadata"])
        assert set(doc["rate_structure"]) <= {"RESIDENTIAL_SINGLE", "RESIDENTIAL_MULTI", "COMMERCIAL", "INDUSTRIAL",
                                               "INSTITUTIONAL", "IRRIGATION"}
        rows = [(c, u) for c in doc["rate_structure"] for u in USES_KGAL]
        bills = rateparser(owrs, rows)
        quarter = f"{s['effective'][:4]}-Q{(int(s['effective'][5:7]) - 1) // 3 + 1}"
        for (cls, use), billed in zip(rows, bills, strict=True):
            gallons = str(int(Decimal(use) * 1000))  # whole gallons, as a meter counts
            engine = run(["bill", "--quarter", quarter, "--water-gallons", gallons,
                          "--vc-per-1000", s["vc_per_1000_gallons"], "--sewage-fraction", s["sewage_fraction"]])
            assert billed.quantize(Decimal("0.01")) == Decimal(engine["charge"]), (s["id"], cls, use)


def test_a_day_before_a_parameters_first_recorded_value_is_said_not_silent(tmp_path):
    """The fourth hostile tester: a parameter whose values all begin on a date reported its first value
    'in force' on an earlier day, with no word. The answer says there is none recorded for that day."""
    rules_dir = tmp_path / "rules"
    shutil.copytree(RULES_DIR, rules_dir)
    edit(rules_dir, [c for c in AMENDED_TEXT if "8,000" not in c[1]])
    path = rules_dir / "parameters" / "late-penalty-rate.yaml"
    text = path.read_text(encoding="utf-8")
    text = text.replace('value: "0.15"\n', "").replace(
        'quote: "Nonpayment shall be subject to a penalty of 15% per quarter after nonpayment for 30 days."\n', "")
    path.write_text(text + 'values:\n  "2020-01-01":\n    value: "0.10"\n    quote: "Nonpayment shall be subject '
                    'to a penalty of 10% per quarter after nonpayment for 30 days."\n    local_law: 1-2019\n',
                    encoding="utf-8")
    rules = compile_rules(rules_dir)
    before = {p["id"]: p for p in run(["parameters", "--on", "2019-12-31"], rules=rules)["parameters"]}
    after = {p["id"]: p for p in run(["parameters", "--on", "2020-01-01"], rules=rules)["parameters"]}
    assert "No value is recorded for 2019-12-31" in before["late-penalty-rate"]["note"]
    assert "note" not in after["late-penalty-rate"] and after["late-penalty-rate"]["value"] == "0.10"
