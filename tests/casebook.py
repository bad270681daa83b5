"""The YAML test cases (tests/cases/*.yaml): loading them, turning their inputs
into command-line words, and comparing expected outputs with actual ones."""
from __future__ import annotations

import unicodedata
from pathlib import Path

import yaml

CASES_DIR = Path(__file__).parent / "cases"


class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
    """LibYAML's parser where PyYAML has it (its wheels do), as kit/rules/validate.py reads the rules:
    the same data in a fifth of the time (every test process reads all the cases as it collects)."""


# Dates stay strings, as the command line receives them.
_Loader.yaml_implicit_resolvers = {
    ch: [(t, r) for t, r in rs if t != "tag:yaml.org,2002:timestamp"]
    for ch, rs in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def load_cases() -> list[dict]:
    cases = []
    for path in sorted(CASES_DIR.glob("*.yaml")):
        for i, case in enumerate(yaml.load(path.read_text(encoding="utf-8"), Loader=_Loader) or []):
            # the test id in ASCII: pytest writes other characters as \x escapes, and a test named
            # that way cannot be run again by its id (mutmut reruns each test by its id)
            name = unicodedata.normalize("NFKD", case["name"]).encode("ascii", "ignore").decode()
            case["_id"] = f"{path.stem}[{i}] {name}"
            cases.append(case)
    return cases


_WITH_READINGS: dict = {}  # kept alive: the engine caches localized rules by the object's id


def rules_for(case: dict):
    """The compiled rules a case runs on: the engine's own, or, for a case with `readings:`
    ({interpretation id: option}), a copy with those readings chosen (a case of an alternative)."""
    from calculator.core.rules import load
    readings = case.get("readings") or {}
    if not readings:
        return load()
    key = tuple(sorted(readings.items()))
    if key not in _WITH_READINGS:
        _WITH_READINGS[key] = with_readings(readings)
    return _WITH_READINGS[key]


def with_readings(readings: dict, rules: dict | None = None) -> dict:
    """A copy of the rules (default: the engine's own) with these readings chosen
    ({interpretation id: option}), each an option the interpretation offers."""
    import copy

    from calculator.core.rules import load
    rules = copy.deepcopy(load() if rules is None else rules)
    for ident, option in readings.items():
        assert option in rules["interpretations"][ident]["options"], (ident, option)
        rules["interpretations"][ident]["chosen"] = option
    return rules


def amended(rules: dict, name: str, since: str, value) -> dict:
    """A copy of the rules with a second, dated value of a parameter (an amendment in force from `since`)."""
    import copy
    rules = copy.deepcopy(rules)
    p = rules["parameters"][name]
    p["history"] = [{"since": None, "value": p["value"], "quote": p.get("quote")},
                    {"since": since, "value": value, "quote": p.get("quote")}]
    return rules


def explanation_problems(case: dict, result: dict, lang: str = "en") -> list[str]:
    """A case's `explains:` items, each a step of the answer's explanation: with that `cite`, whose
    text has `says` (in English) or `es` (in Spanish), and whose `quote` of the law has `quote`;
    and `never:`, English words no step may say (a contradiction that must not come back)."""
    out = []
    steps = result.get("explanation", [])
    for item in case.get("explains") or []:
        words = item.get("says") if lang == "en" else item.get("es")
        found = [s for s in steps if s["cite"] == item["cite"]
                 and (words is None or words in s["text"])
                 and ("quote" not in item or item["quote"] in s.get("quote", ""))]
        if not found:
            out.append(f"no step citing {item['cite']} says {words!r}" +
                       (f" with the law's words {item['quote']!r}" if "quote" in item else ""))
    if lang == "en":
        for words in case.get("never") or []:
            out += [f"a step says {words!r}: {s['text']}" for s in steps if words in s["text"]]
    return out


def argv_for(case: dict) -> list[str]:
    """A case's input as command-line words; a list repeats its option (`answer: [work=repair, ...]`
    gives `--answer work=repair --answer ...`, as the permit checker takes its answers)."""
    argv = [case["command"]]
    for key, value in (case.get("input") or {}).items():
        if value is True:
            argv.append(f"--{key}")
        elif value is False or value is None:
            continue
        elif isinstance(value, list):
            for item in value:
                argv += [f"--{key}", str(item)]
        else:
            argv += [f"--{key}", str(value)]
    return argv


def mismatches(expected, actual, path="") -> list[str]:
    """Every place where actual differs from expected (expected dicts are subsets; an expected
    list has the actual list's length, each item compared the same way: a list of steps can
    name each step's provision without repeating its words)."""
    if isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(actual):
        out = []
        for i, (e, a) in enumerate(zip(expected, actual)):
            out += mismatches(e, a, f"{path}{i}.")
        return out
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{path or 'result'}: expected an object, got {actual!r}"]
        out = []
        for k, v in expected.items():
            if k not in actual:
                out.append(f"{path}{k}: missing")
            else:
                out += mismatches(v, actual[k], f"{path}{k}.")
        return out
    if expected != actual or type(expected) is not type(actual):
        return [f"{path.rstrip('.')}: expected {expected!r}, got {actual!r}"]
    return []


def listed_mismatches(case: dict, actual: dict) -> list[str]:
    """A case's `includes` (each expected item matches some item of that list in the answer)
    and `excludes` (no item of that list matches it): for lists whose order and length the
    case does not pin, like the permit checker's reasons and requirements."""
    out = []
    for key, items in (case.get("includes") or {}).items():
        for item in items:
            if not any(not mismatches(item, got) for got in actual.get(key, [])):
                out.append(f"{key}: no item matches {item!r}")
    for key, items in (case.get("excludes") or {}).items():
        for item in items:
            if any(not mismatches(item, got) for got in actual.get(key, [])):
                out.append(f"{key}: an item matches {item!r}, which the case excludes")
    return out


def complete_permit_answers(rules: dict, first, rest: str = "no") -> list[tuple[str, str]]:
    """These permit-checker answers, then `rest` (or the first choice) for every
    question the checker still asks: a complete answer set, as the flow decides it."""
    from calculator.permits import flow
    answers = list(first)
    while (nq := flow.evaluate(rules, answers)["next_question"]) is not None:
        values = [c["value"] for c in nq["choices"]]
        answers.append((nq["id"], rest if rest in values else values[0]))
    return answers
