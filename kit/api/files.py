"""Writes the site's api/ folder: one JSON file a kind of record, one a parameter, an OWRS file a
rate schedule, the rules' JSON Schemas as they are, and openapi.json describing them all.

Every file is UTF-8 JSON with sorted keys and a final newline, made from rules/ and the build's
date and engine id alone, so two builds of one commit are byte-identical."""
from __future__ import annotations

import datetime as dt

import json
import shutil
from pathlib import Path

from calculator import opendata

from ..rules.validate import RULES_DIR, read_yaml
from . import openapi, owrs

LICENCE = {"id": "CC0-1.0", "url": "https://creativecommons.org/publicdomain/zero/1.0/",
           "note": "The law's text is public: the words of a law belong to no one. These files are dedicated to "
                   "the public domain (CC0 1.0): use them without asking."}


def dumps(data) -> bytes:
    return (json.dumps(data, ensure_ascii=False, sort_keys=True, indent=2) + "\n").encode("utf-8")


def meta(build_id: str, made: str, site_url: str | None, described: str) -> dict:
    """What every file says of itself: the engine build and the day it was made, where it is
    described, its licence, and the site's address when the site has one set."""
    return {"engine_build": build_id, "made": made, "description_url": "api/openapi.json",
            "schema_url": described, "licence": LICENCE, "site_url": site_url,
            "links": "Every *_url is a path from the site's root (the folder that holds api/)."}


def parameter_records(rules: dict, rules_dir: Path) -> list[dict]:
    """Each parameter with its file as written (`record`, described by rules/schemas/parameter.schema.json)."""
    out = []
    for p in opendata.parameters(rules):
        p["record"] = read_yaml(rules_dir / "parameters" / f"{p['id']}.yaml")
        p["url"] = f"api/parameters/{p['id']}.json"
        out.append(p)
    return out


def write_api(rules: dict, docs: Path, build_id: str, made: str, site_url: str | None = None,
              rules_dir: Path | None = None) -> Path:
    """Write docs/api/ (the build's staging copy of docs/). Returns the folder."""
    rules_dir = Path(rules_dir or RULES_DIR)
    api = docs / "api"
    if api.exists():
        shutil.rmtree(api)
    (api / "parameters").mkdir(parents=True)

    def head(kind: str) -> dict:
        return meta(build_id, made, site_url, f"api/openapi.json#/components/schemas/{kind}")

    params = parameter_records(rules, rules_dir)
    (api / "parameters.json").write_bytes(dumps({"meta": head("ParametersFile"), "parameters": params}))
    for p in params:
        (api / "parameters" / f"{p['id']}.json").write_bytes(dumps({"meta": head("ParameterFile"), "parameter": p}))
    schedules = opendata.schedule_periods(rules)
    (api / "owrs").mkdir()
    for s in schedules:
        s["page_url"] = f"rates/{s['id']}/"
        s["owrs_url"] = f"api/owrs/{s['id']}.owrs"
        # one OWRS file for each minimum charge the schedule is billed with (a dated amendment of the minimum
        # within it: the twelfth hostile tester, F14), each with the days it applies
        periods = s["minimum_charges"]
        for i, m in enumerate(periods):
            name = s["id"] if i == 0 else f"{s['id']}-from-{m['from']}"
            m["owrs_url"] = f"api/owrs/{name}.owrs"
            later = periods[i + 1]["from"] if i + 1 < len(periods) else None
            part = {**s, "minimum_charge": m["minimum_charge"],
                    "minimum_charge_water_gallons": m["minimum_charge_water_gallons"]}
            if i > 0:
                part["effective"] = part["from"] = m["from"]
            if later:
                part["to"] = (dt.date.fromisoformat(later) - dt.timedelta(days=1)).isoformat()
            (api / "owrs" / f"{name}.owrs").write_bytes(owrs.document(rules, part, made).encode("utf-8"))
    (api / "rate-schedules.json").write_bytes(dumps({"meta": head("RateSchedulesFile"), "rate_schedules": schedules}))
    (api / "interpretations.json").write_bytes(dumps({"meta": head("InterpretationsFile"),
                                                      "interpretations": opendata.interpretations(rules)}))
    provisions = opendata.provisions(rules)
    for p in provisions:
        p["url"] = f"api/law/{p['id']}.json"
    (api / "law.json").write_bytes(dumps({"meta": head("LawFile"), "provisions": provisions,
                                          "law": read_yaml(rules_dir / "law.yaml")}))
    (api / "law").mkdir()
    for p in provisions:  # one a provision, as /law/ links them
        (api / "law" / f"{p['id']}.json").write_bytes(dumps({"meta": head("ProvisionFile"), "provision": p}))
    (api / "schemas").mkdir()
    for name in openapi.RULE_SCHEMAS:  # as they are: the one description of each rule file
        shutil.copyfile(rules_dir / "schemas" / name, api / "schemas" / name)
    (api / "openapi.json").write_bytes(dumps(openapi.document(build_id, made, site_url, [p["id"] for p in params],
                                                              [s["id"] for s in schedules],
                                                              [p["id"] for p in provisions])))
    return api
