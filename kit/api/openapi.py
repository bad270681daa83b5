"""The OpenAPI 3.1 description of the site's api/ files. The records the rules hold are described by
rules/schemas/ itself (published beside it, in api/schemas/, and referred to, never copied here);
what this adds is the shape of the files around them: dates in force, provisions' addresses, the meta."""
from __future__ import annotations

RULE_SCHEMAS = ("parameter.schema.json", "rate-schedule.schema.json", "interpretation.schema.json",
                "law.schema.json")

DAY = {"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$", "format": "date"}
DAY_OR_NULL = {"oneOf": [DAY, {"type": "null"}]}
TEXT = {"type": "string"}
TEXT_OR_NULL = {"type": ["string", "null"]}
DECIMAL = {"type": "string", "pattern": "^[0-9]+(\\.[0-9]+)?$", "description": "a decimal number, written as text so "
           "no digit is lost"}


def ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def obj(required: dict, optional: dict | None = None, description: str | None = None) -> dict:
    out = {"type": "object", "additionalProperties": False, "required": sorted(required),
           "properties": {**required, **(optional or {})}}
    if description:
        out["description"] = description
    return out


def file_of(key: str, item: dict) -> dict:
    return obj({"meta": ref("Meta"), key: item})


def schemas() -> dict:
    value = {"$ref": "schemas/parameter.schema.json#/$defs/value"}
    return {
        "Meta": obj({"engine_build": TEXT, "made": DAY, "description_url": TEXT, "schema_url": TEXT, "licence": obj(
            {"id": TEXT, "url": TEXT, "note": TEXT}), "site_url": TEXT_OR_NULL, "links": TEXT},
            description="What every file says of itself: the engine build it was made with and the day, where "
                        "it is described, its licence, and the site's address when one is set."),
        "ProvisionRef": obj({"id": TEXT, "name": TEXT, "heading": TEXT, "law_url": TEXT},
                            description="A provision of the law: its id, its name in words, its heading (the "
                                        "site's: the received text has none) and its place on the law page."),
        "DatedValue": obj({"from": DAY_OR_NULL, "to": DAY_OR_NULL, "value": value, "quote": TEXT_OR_NULL},
                          {"local_law": TEXT, "source": TEXT},
                          description="One value with the days it is in force, both included. `from` null: since "
                                      "the law began (its date is not in the received text); `to` null: still in "
                                      "force. `quote`: the law's words that state it."),
        "Parameter": obj({"id": TEXT, "description": TEXT, "unit": TEXT, "cite": TEXT, "provision": ref("ProvisionRef"),
                          "values": {"type": "array", "minItems": 1, "items": ref("DatedValue")}, "url": TEXT,
                          "record": {"$ref": "schemas/parameter.schema.json",
                                     "description": "The parameter's file in rules/parameters/, as written"}},
                         {"interpretation": TEXT, "status": {"$ref": "schemas/parameter.schema.json#/properties/status"},
                          "source": TEXT},
                         description="A number the law states, or one the site needs to apply it. `record` is its "
                                     "file in rules/parameters/ as written; `interpretation` names the reading when "
                                     "the figure is the site's reading of the law's words; `source`, where a figure "
                                     "not in the law's words comes from (another law, a definition); `status`: "
                                     "`to-confirm`, the Town has yet to confirm it; `illustrative`, an invented "
                                     "figure until the Town gives its own."),
        "ParametersFile": file_of("parameters", {"type": "array", "items": ref("Parameter")}),
        "ParameterFile": file_of("parameter", ref("Parameter")),
        "RateSchedule": obj(
            {"id": TEXT, "title": TEXT, "status": {"enum": ["illustrative", "proposed", "adopted"]},
             "fiscal_year": {"type": "integer", "description": "The fiscal year the schedule was made for "
                                                                "(Rate schedules A: one a year)"}, "effective": DAY, "from": DAY_OR_NULL, "to": DAY_OR_NULL,
             "in_force": {"type": "boolean", "description": "Adopted by the Town Board: a rate in force by law. "
                          "False for an illustrative schedule (invented numbers the site's estimates use until the "
                          "Town's own are entered) and for a proposed one."},
             "vc_per_1000_gallons": DECIMAL, "sewage_fraction": DECIMAL, "provision": ref("ProvisionRef"),
             "minimum_charge": DECIMAL, "minimum_charge_water_gallons": {"type": "integer"},
             "minimum_charges": {"type": "array", "minItems": 1, "items": ref("MinimumCharge"),
                                 "description": "The minimum charge by the days it applies while this schedule is "
                                                "billed: more than one when the law's minimum is amended from a day "
                                                "within the schedule (from the first quarter that starts on or after it)"},
             "page_url": TEXT, "owrs_url": TEXT,
             "record": {"$ref": "schemas/rate-schedule.schema.json",
                        "description": "The schedule as rules/ holds it (its file, or its Clerk's records joined)"}},
            {"notice": {"$ref": "schemas/rate-schedule.schema.json#/properties/notice"},
             "adoption": {"$ref": "schemas/rate-schedule.schema.json#/properties/adoption"},
             "proposed_on": {"$ref": "schemas/rate-schedule.schema.json#/properties/proposed_on"}},
            description="A rate schedule: the rate per 1,000 gallons of sewage (VC) and the share of metered "
                        "water billed as sewage. `from`/`to`: the first and last day the site bills by it (`to` "
                        "null: no later schedule yet, so the site goes on using it, even past its `fiscal_year`); "
                        "null for a proposed one. Only an adopted schedule is `in_force`. `minimum_charge`: the least a quarter's charge can be, the charge for "
                        "`minimum_charge_water_gallons` of water, on the schedule's first day (`minimum_charges`: each one it is billed with). An illustrative schedule has invented numbers, not a rate the Town "
                        "adopted."),
        "MinimumCharge": obj({"from": DAY, "minimum_charge": DECIMAL, "minimum_charge_water_gallons": {"type": "integer"},
                              "owrs_url": TEXT},
                             description="A quarter's minimum charge from a day on, under one schedule, and the OWRS "
                                         "file for those days."),
        "RateSchedulesFile": file_of("rate_schedules", {"type": "array", "items": ref("RateSchedule")}),
        "Option": {"type": "object", "additionalProperties": False, "required": ["id", "chosen", "summary"],
                   "properties": {"id": TEXT, "chosen": {"type": "boolean"}, "summary": TEXT, "why": TEXT}},
        "Interpretation": obj({"id": TEXT, "question": TEXT, "provision": ref("ProvisionRef"), "quote": TEXT,
                               "chosen": TEXT, "options": {"type": "array", "items": ref("Option")},
                               "record": {"$ref": "schemas/interpretation.schema.json"}},
                              description="A passage whose meaning is unclear: the site's reading (`chosen`) and "
                                          "the others. A reading is the site's, not the law."),
        "InterpretationsFile": file_of("interpretations", {"type": "array", "items": ref("Interpretation")}),
        "Provision": obj({"id": TEXT, "heading": TEXT, "section": TEXT_OR_NULL, "article": TEXT,
                          "parent": TEXT_OR_NULL, "label": TEXT_OR_NULL, "text": TEXT,
                          "notes": {"type": "array", "items": {"$ref": "schemas/law.schema.json#/$defs/notes/items"}},
                          "law_url": TEXT, "name": TEXT, "url": TEXT},
                         description="One provision of the law, its own words as received (not its children's)."),
        "ProvisionFile": file_of("provision", ref("Provision")),
        "LawFile": obj({"meta": ref("Meta"), "provisions": {"type": "array", "items": ref("Provision")},
                        "law": {"$ref": "schemas/law.schema.json"}}),
    }


def document(build_id: str, made: str, site_url: str | None, parameter_ids: list[str],
             schedule_ids: list[str], provision_ids: list[str]) -> dict:
    def get(summary: str, schema: str, params: list | None = None, media: str = "application/json") -> dict:
        op = {"summary": summary, "responses": {"200": {"description": summary, "content": {
            media: {"schema": ref(schema)} if media == "application/json" else {"schema": {"type": "string"}}}}}}
        if params:
            op["parameters"] = params
        return {"get": op}

    def path_id(name: str, ids: list[str], what: str) -> list:
        return [{"name": name, "in": "path", "required": True, "description": what,
                 "schema": {"type": "string", "enum": sorted(ids)}}]

    return {
        "openapi": "3.1.0",
        "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
        "info": {"title": "Town of Pawling sewer-use law: the law's numbers as data", "version": build_id,
                 "description": "Static files made from the site's rules/ by its build on " + made + ". Every value "
                                "carries the days it is in force and the provision it comes from. The site's own "
                                "readings of unclear passages are marked as readings, never as the law.",
                 "license": {"name": "CC0-1.0", "identifier": "CC0-1.0"}},
        "servers": [{"url": "./", "description": "this folder: api/ on the site"}] + (
            [{"url": site_url.rstrip("/") + "/api/"}] if site_url else []),
        "paths": {
            "/parameters.json": get("Every number the law states, with each value's dates and provision",
                                    "ParametersFile"),
            "/parameters/{id}.json": get("One number the law states", "ParameterFile",
                                         path_id("id", parameter_ids, "the parameter's id")),
            "/rate-schedules.json": get("Every rate schedule, with the days each is in force", "RateSchedulesFile"),
            "/owrs/{schedule}.owrs": get("One rate schedule in the Open Water Rate Specification: YAML text, which "
                                         "GitHub Pages serves as application/octet-stream",
                                         "RateSchedule", path_id("schedule", schedule_ids, "the schedule's id"),
                                         media="application/octet-stream"),
            "/interpretations.json": get("How the site reads the law's unclear passages", "InterpretationsFile"),
            "/law.json": get("The law's provisions, as received", "LawFile"),
            "/law/{id}.json": get("One provision of the law, as received", "ProvisionFile",
                                  path_id("id", provision_ids, "the provision's id")),
        },
        "components": {"schemas": schemas()},
    }
