"""The YAML test cases (tests/cases/*.yaml): loading them, turning their inputs
into command-line words, and comparing expected outputs with actual ones."""
from __future__ import annotations

from pathlib import Path

import yaml

CASES_DIR = Path(__file__).parent / "cases"


class _Loader(yaml.SafeLoader):
    pass


# Dates stay strings, as the command line receives them.
_Loader.yaml_implicit_resolvers = {
    ch: [(t, r) for t, r in rs if t != "tag:yaml.org,2002:timestamp"]
    for ch, rs in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def load_cases() -> list[dict]:
    cases = []
    for path in sorted(CASES_DIR.glob("*.yaml")):
        for i, case in enumerate(yaml.load(path.read_text(encoding="utf-8"), Loader=_Loader) or []):
            case["_id"] = f"{path.stem}[{i}] {case['name']}"
            cases.append(case)
    return cases


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
    from calculator import flow
    answers = list(first)
    while (nq := flow.evaluate(rules, answers)["next_question"]) is not None:
        values = [c["value"] for c in nq["choices"]]
        answers.append((nq["id"], rest if rest in values else values[0]))
    return answers
