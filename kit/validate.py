"""Read rules/ (YAML), check every file against its JSON Schema and the
cross-file rules, and compile it into the one dictionary the engine reads.

CPython only (PyYAML, jsonschema). The engine never imports it: in the browser it
gets the compiled rules packed into its wheel; in a checkout it asks for them
through the "rules" provider (calculator/providers.py), which is `load_rules` here.
"""
from __future__ import annotations

import datetime as _dt
import json
from pathlib import Path

import jsonschema
import yaml

from calculator import adoption, hearing
from calculator.law import anchor

RULES_DIR = Path(__file__).resolve().parent.parent / "rules"


class RuleError(Exception):
    """A problem in a rule file, with where it is and what to change."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("\n".join(problems))


# ---- reading YAML with positions -------------------------------------------------

class YamlLoader(yaml.SafeLoader):
    """SafeLoader that keeps dates as the strings the Clerk typed (YYYY-MM-DD):
    the schemas check their form, and the compiled rules stay plain JSON."""


YamlLoader.yaml_implicit_resolvers = {
    ch: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for ch, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def read_yaml(path: Path):
    """Load one YAML file with dates kept as strings."""
    return yaml.load(Path(path).read_text(encoding="utf-8"), Loader=YamlLoader)


def _compose(path: Path):
    text = path.read_text(encoding="utf-8")
    try:
        node = yaml.compose(text, Loader=YamlLoader)
        data = yaml.load(text, Loader=YamlLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else str(path)
        problem = getattr(exc, "problem", None) or str(exc)
        raise RuleError([f"{where}: this is not valid YAML ({problem}). Check the indentation and quotes on that line."])
    return data, node


def _locate(node, path, at_key=False) -> tuple[int, int]:
    """Line and column (1-based) of the YAML node at a JSON-Schema error path
    (of the key itself rather than its value, with at_key)."""
    best = node
    for i, key in enumerate(path):
        if node is None:
            break
        if isinstance(node, yaml.MappingNode):
            nxt = None
            for k, v in node.value:
                if k.value == str(key):
                    nxt = v
                    best = k
                    break
            node = nxt
            if at_key and i == len(path) - 1:
                break
        elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and key < len(node.value):
            node = node.value[key]
        else:
            node = None
        if node is not None:
            best = node
    mark = best.start_mark
    return mark.line + 1, mark.column + 1


def _where(path: Path, node, at, at_key=False) -> str:
    line, col = _locate(node, list(at), at_key)
    try:
        shown = path.relative_to(RULES_DIR.parent)
    except ValueError:
        shown = path
    return f"{shown}:{line}:{col}"


def _schema(name: str, rules_dir: Path) -> dict:
    return json.loads((rules_dir / "schemas" / f"{name}.schema.json").read_text(encoding="utf-8"))


def _advice(err) -> str:
    if err.validator == "additionalProperties":
        allowed = sorted(err.schema.get("properties", {}))
        return f"{err.message}. Remove or rename it; the keys allowed here are: {', '.join(allowed)}"
    if err.validator == "required":
        return f"{err.message}. Add it."
    if err.validator in ("pattern", "format"):
        return f"{err.instance!r} is not in the expected form. Write it like the other files do (dates as YYYY-MM-DD in quotes, amounts as \"12.50\")"
    if err.validator == "type":
        want = err.validator_value if isinstance(err.validator_value, str) else " or ".join(err.validator_value)
        hint = " Put it in quotes." if want == "string" else ""
        return f"{err.instance!r} should be a {want}.{hint}"
    if err.validator == "enum":
        return f"{err.instance!r} is not allowed here; use one of: {', '.join(map(str, err.validator_value))}"
    return err.message


def _check(path: Path, data, node, schema: dict, problems: list[str]) -> None:
    validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())
    for err in sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path))):
        at = list(err.absolute_path)
        if err.validator == "additionalProperties" and isinstance(err.instance, dict):
            extra = [k for k in err.instance if k not in err.schema.get("properties", {})]
            at += extra[:1]  # point at the unknown key itself
        problems.append(f"{_where(path, node, at, at_key=err.validator == 'additionalProperties')}: {_advice(err)}")


# ---- the law ----------------------------------------------------------------------

def _flatten(provisions, article, parent, out, depth=0):
    for p in provisions:
        children = p.get("children", [])
        item = {k: v for k, v in p.items() if k != "children"}
        item.update(article=article, parent=parent, depth=depth,
                    children=[c["id"] for c in children])
        out.append(item)
        _flatten(children, article, p["id"], out, depth + 1)


# ---- compile ----------------------------------------------------------------------

def compile_rules(rules_dir: Path | str = RULES_DIR) -> dict:
    """Validate every rule file and return the compiled rules, or raise RuleError
    listing every problem found (file:line:column and what to change)."""
    rules_dir = Path(rules_dir)
    problems: list[str] = []
    nodes: dict[Path, object] = {}

    def load(path: Path, kind: str):
        try:
            data, node = _compose(path)
        except RuleError as exc:
            problems.extend(exc.problems)
            return None
        nodes[path] = node
        before = len(problems)
        _check(path, data, node, _schema(kind, rules_dir), problems)
        return data if len(problems) == before else None

    law_path = rules_dir / "law.yaml"
    law = load(law_path, "law")
    provisions: list[dict] = []
    if law:
        for art in law["articles"]:
            _flatten(art["provisions"], art["id"], None, provisions)
    ids = {p["id"] for p in provisions}
    seen: set[str] = set()
    for p in provisions:
        if p["id"] in seen:
            problems.append(f"{law_path}: the provision id {p['id']!r} is used twice; each id must be unique.")
        seen.add(p["id"])
    anchors = {}
    for p in provisions:
        a = anchor(p["id"])
        if a in anchors:
            problems.append(f"{law_path}: provisions {anchors[a]!r} and {p['id']!r} share the anchor #{a}; rename one.")
        anchors[a] = p["id"]

    def cite_ok(path, data, key_path, value):
        if ids and value not in ids:
            problems.append(f"{_where(path, nodes[path], key_path)}: cite {value!r} is not a provision id in rules/law.yaml. "
                            f"Use one of its ids, such as 'rents.F' or 'minimum-charge'.")

    parameters = {}
    for path in sorted((rules_dir / "parameters").glob("*.yaml")):
        data = load(path, "parameter")
        if data is None:
            continue
        cite_ok(path, data, ["cite"], data["cite"])
        parameters[path.stem] = dict(data, name=path.stem)

    interpretations = {}
    for path in sorted((rules_dir / "interpretations").glob("*.yaml")):
        data = load(path, "interpretation")
        if data is None:
            continue
        cite_ok(path, data, ["reads"], data["reads"])
        if data["id"] != path.stem:
            problems.append(f"{_where(path, nodes[path], ['id'])}: id {data['id']!r} must match the file name {path.stem!r}.")
        if data["chosen"] not in data["options"]:
            problems.append(f"{_where(path, nodes[path], ['chosen'])}: chosen {data['chosen']!r} is not one of the options "
                            f"({', '.join(data['options'])}). Pick one of them.")
        interpretations[data["id"]] = data

    schedules = []
    for path in sorted((rules_dir / "rate-schedules").glob("*.yaml")):
        data = load(path, "rate-schedule")
        if data is None:
            continue
        cite_ok(path, data, ["cite"], data["cite"])
        if data["id"] != path.stem:
            problems.append(f"{_where(path, nodes[path], ['id'])}: id {data['id']!r} must match the file name {path.stem!r}.")
        for key in ("effective", "ends"):
            if key in data:
                try:
                    _dt.date.fromisoformat(data[key])
                except ValueError:
                    problems.append(f"{_where(path, nodes[path], [key])}: {data[key]!r} is not a real date; write it as YYYY-MM-DD.")
        data["_file"] = str(path.relative_to(rules_dir.parent)) if rules_dir.parent in path.parents else str(path)
        schedules.append(data)
    schedules.sort(key=lambda s: s["effective"])
    problems.extend(schedule_problems(schedules, parameters, rules_dir, interpretations))

    extra = {}
    for name, kind in (("permits", "permits"), ("application-form", "application-form"), ("holidays", "holidays")):
        path = rules_dir / f"{name}.yaml"
        if path.exists() and (rules_dir / "schemas" / f"{kind}.schema.json").exists():
            data = load(path, kind)
            if data is not None:
                for key_path, value in _cites(data):
                    cite_ok(path, data, key_path, value)
                extra[name.replace("-", "_")] = data
    if "permits" in extra and not problems:
        from calculator import flow
        problems.extend(f"{rules_dir / 'permits.yaml'}: {p}" for p in flow.problems(extra["permits"], interpretations))

    if problems:
        raise RuleError(problems)
    return {
        "law": {k: v for k, v in law.items() if k != "articles"} | {
            "articles": [{k: v for k, v in a.items() if k != "provisions"} |
                         {"provisions": [p["id"] for p in a["provisions"]]} for a in law["articles"]]},
        "provisions": provisions,
        "parameters": parameters,
        "interpretations": interpretations,
        "schedules": schedules,
        **extra,
    }


def _cites(data, path=()):
    """Every `cite`/`cites` value in a nested structure, with its path."""
    if isinstance(data, dict):
        for k, v in data.items():
            if k == "cite" and isinstance(v, str):
                yield [*path, k], v
            elif k == "cites" and isinstance(v, list):
                for i, c in enumerate(v):
                    yield [*path, k, i], c
            else:
                yield from _cites(v, (*path, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _cites(v, (*path, i))


def schedule_problems(schedules: list[dict], parameters: dict, rules_dir: Path,
                      interpretations: dict | None = None) -> list[str]:
    """Schedules in force (adopted or illustrative) must not overlap or leave gaps,
    and an adopted one must carry a lawful notice and vote; under the late-adoption
    reading "refuse", published and adopted no later than its effective date."""
    out = []
    late = (interpretations or {}).get("late-adoption", {}).get("chosen", "refuse")
    in_force = [s for s in schedules if s["status"] != "proposed"]
    for a, b in zip(in_force, in_force[1:]):
        if a["effective"] == b["effective"]:
            out.append(f"{b['_file']}: schedules {a['id']!r} and {b['id']!r} both take effect on {a['effective']}; "
                       f"change one effective date or mark one as proposed.")
        elif "ends" in a and a["ends"] >= b["effective"]:
            out.append(f"{a['_file']}: schedule {a['id']!r} ends {a['ends']}, after {b['id']!r} takes effect on "
                       f"{b['effective']}; the two overlap. Set 'ends' before {b['effective']}.")
        elif "ends" in a:
            gap_start = _dt.date.fromisoformat(a["ends"]) + _dt.timedelta(days=1)
            if gap_start.isoformat() < b["effective"]:
                out.append(f"{a['_file']}: no schedule is in force from {gap_start} to the day before {b['effective']}; "
                           f"remove 'ends' from {a['id']!r} or make the next schedule take effect on {gap_start}.")
    for s in schedules:
        if s["status"] == "adopted" and "notice" in s and "adoption" in s:
            rules = {"parameters": parameters}
            n = s["notice"]
            window = hearing.window(rules, n["published"])
            if not (window["earliest"] <= n["meeting"] <= window["latest"]):
                out.append(f"{s['_file']}: the meeting on {n['meeting']} is outside the lawful window "
                           f"{window['earliest']} to {window['latest']} for a notice published {n['published']} "
                           f"(rate-schedules.B). This schedule cannot be adopted on that notice.")
            problem = adoption.vote_problem(rules, s["adoption"], n["meeting"])
            if problem:
                out.append(f"{s['_file']}: {problem}")
            problem = adoption.timing_problem(s, late)
            if problem:
                out.append(f"{s['_file']}: {problem}")
    return out


def load_rules() -> dict:
    """The "rules" provider the engine asks for in a checkout: this repository's rules/, compiled."""
    return compile_rules(RULES_DIR)


def main(argv=None) -> int:
    import sys
    try:
        rules = compile_rules(RULES_DIR)
    except RuleError as exc:
        print("The rules have problems; nothing was built:", file=sys.stderr)
        for p in exc.problems:
            print("  " + p, file=sys.stderr)
        return 1
    print(f"rules OK: {len(rules['provisions'])} provisions, {len(rules['parameters'])} parameters, "
          f"{len(rules['interpretations'])} interpretations, {len(rules['schedules'])} rate schedules")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
