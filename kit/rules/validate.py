"""Read rules/ (YAML), check every file against its JSON Schema and the
cross-file rules, and compile it into the one dictionary the engine reads.

CPython only (PyYAML, jsonschema). The engine never imports it: in the browser it
gets the compiled rules packed into its wheel; in a checkout it asks for them
through the "rules" provider (calculator/core/providers.py), which is `load_rules` here.
"""
from __future__ import annotations

import copy
import datetime as _dt
import difflib
import json
import re
from pathlib import Path
from decimal import Decimal as _Decimal

import jsonschema
import yaml

from calculator.core.errors import RulesUnreadable
from calculator.permits import flow
from calculator.core.errors import InputError
from calculator.rates import rate_year, vc
from calculator.core.law import anchor, provision_text

from .wording import value_words

RULES_DIR = Path(__file__).resolve().parents[2] / "rules"


class RuleError(RulesUnreadable):
    """A problem in a rule file, with where it is and what to change."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("\n".join(problems))


# ---- reading YAML with positions -------------------------------------------------

class YamlLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
    """SafeLoader that keeps dates as the strings the Clerk typed (YYYY-MM-DD):
    the schemas check their form, and the compiled rules stay plain JSON. LibYAML's
    parser where PyYAML has it (its wheels do): the same nodes with the same line
    marks, in a fifth of the time (a site build reads the rules several times)."""


YamlLoader.yaml_implicit_resolvers = {
    ch: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for ch, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def _no_such_value(loader, node):
    """A tag that makes bytes, a set, ordered pairs or a date object (`!!binary MC4xNQ==` was read as b'0.15': the
    twenty-fifth hostile tester, #10): the rules take text, numbers, lists and mappings only."""
    raise yaml.constructor.ConstructorError(None, None, f"could not determine a constructor for the tag {node.tag!r}",
                                            node.start_mark)


for _tag in ("binary", "set", "omap", "pairs", "timestamp"):
    YamlLoader.add_constructor(f"tag:yaml.org,2002:{_tag}", _no_such_value)


#: a number YAML reads otherwise than a person does: a leading zero (010 is octal, 8), 0x/0o/0b, 1_000, 1:30
#: (sexagesimal, 90) (the twenty-ninth hostile tester: `value: 010` for the Board's size was read as 8, unsaid)
_NOT_PLAIN_NUMBER = re.compile(r"[-+]?(?:0[0-9_]|0[xXoObB]|.*_|.*:)")


def _plain_number(kind: str):
    base = getattr(yaml.SafeLoader, f"construct_yaml_{kind}")

    def construct(loader, node):
        if _NOT_PLAIN_NUMBER.match(node.value) and not re.fullmatch(r"[-+]?0(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?", node.value):
            raise yaml.constructor.ConstructorError(
                None, None, f"the number {node.value} is written in a form YAML reads as another number "
                f"(a leading zero makes it octal: 010 is read as 8)", node.start_mark)
        return base(loader, node)
    return construct


for _kind in ("int", "float"):
    YamlLoader.add_constructor(f"tag:yaml.org,2002:{_kind}", _plain_number(_kind))


def read_yaml(path: Path):
    """Load one YAML file with dates kept as strings."""
    return yaml.load(Path(path).read_text(encoding="utf-8"), Loader=YamlLoader)


#: characters YAML does not allow in a file (YAML 1.1, 5.1): C0 controls but tab and line ends, DEL, C1
#: controls but NEL, and the surrogates and non-characters a decoder may let through
_NOT_IN_YAML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\x80-\x84\x86-\x9f\ud800-\udfff\ufffe\uffff]")


def _control_character(path: Path, text: str) -> str | None:
    """The first character YAML does not allow, as `file:line:column: what to do`, or None (the fourth
    hostile tester: a NUL byte got "position 95" and a second line)."""
    m = _NOT_IN_YAML.search(text)
    if not m:
        return None
    at = m.start()
    line, column = text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1
    what = ("a NUL character (a zero byte)" if m.group() == "\x00" else
            f"the invisible control character U+{ord(m.group()):04X}")
    return (f"{_shown(path)}:{line}:{column}: there is {what} here, which a YAML file cannot hold (pasted from "
            "another program, perhaps). Delete it, retyping the line if the editor does not show it, and save the "
            "file as UTF-8 text.")


def _unclosed_quote(text: str, before: int):
    """A quoted value opened before line `before` (0-based, where the parser stopped) that runs on to that line
    or past it, as a mark where its quote opens; None when there is none. Only a quote that opens a value counts
    (after "key:", "- " or a flow's "[" "{" ","), not one inside prose; a quoted value that closes lines before
    the parser stopped is a value written over several lines, not the cause."""
    lines = text.splitlines()
    block = None  # the indentation of the key whose block scalar (>- or |) the lines are in: prose, skipped
    for number, line in enumerate(lines[:before + 1]):
        stripped = line.lstrip()
        indent = len(line) - len(stripped)
        if block is not None and (not stripped or indent > block):
            continue
        block = indent if re.search(r'(?:^|:)\s*[|>][-+0-9]*\s*(?:#.*)?$', line) else None
        if stripped.startswith("#"):
            continue
        # the line's value: after "key: " or "- ", or the whole line
        value = re.match(r'\s*(?:-\s+)?(?:[^\s"\'#][^:#]*:\s+)?', line).end()
        if value < len(line) and line[value] in "\"'":
            closed = _closing_line(lines, number, value)
            if closed is None or closed >= before - 1 > number:
                return yaml.error.Mark("", 0, number, value, None, None)
    return None


def _closing_line(lines: list, number: int, at: int):
    """The line on which the quote at (number, at) closes, or None."""
    quote = lines[number][at]
    i, row = at + 1, number
    while row < len(lines):
        line = lines[row]
        while i < len(line):
            c = line[i]
            if c == "\\" and quote == '"':
                i += 2
                continue
            if c == quote:
                if quote == "'" and line[i + 1:i + 2] == "'":
                    i += 2
                    continue
                return row
            i += 1
        row, i = row + 1, 0
    return None


def _compose(path: Path, text: str):
    control = _control_character(path, text)
    if control:
        raise RuleError([control])
    try:
        loader = YamlLoader(text)  # parsed once: the data is built from the node read for its marks
        try:
            node = loader.get_single_node()
            data = loader.construct_document(node) if node is not None else None
        finally:
            loader.dispose()
    except yaml.YAMLError as exc:
        mark, opened = getattr(exc, "problem_mark", None), getattr(exc, "context_mark", None)
        problem = " ".join((getattr(exc, "problem", None) or str(exc)).split())  # one line
        advice = "Check the indentation and quotes on that line."
        if problem.startswith("the number "):
            advice = "Write it as a plain number, without a leading zero (10, not 010), or in quotes if it is text."
        if "constructor for the tag" in problem:  # the tenth hostile tester, F3: `!!python/…` said nothing to do
            tag = getattr(exc, "problem", "").split("tag", 1)[-1].strip(" '")
            problem = (f"the tag {tag.replace('tag:yaml.org,2002:', '!!')} asks YAML to make a program object, or "
                       "something other than text, a number, a list or a mapping")
            advice = "The rules take no tags (!! or !): remove it and write the value as plain text."
        # a quote never closed is found at the end of the file, past its last line: it is reported where it
        # opened (the seventh hostile tester, F10: ":5:1" for a quote opened on line 3 of a 4-line file)
        if opened is not None and "quoted scalar" in (getattr(exc, "context", None) or ""):
            mark, advice = opened, "The quote that opens here is never closed: add the closing quote on this line."
        else:  # a quote left open runs on to the next quote: the parser stops lines later (the tenth hostile
            # tester, F3: `value: "0.15` on line 3 reported at 5:9); the first line before it with a quote open
            unclosed = _unclosed_quote(text, mark.line if mark is not None else len(text.splitlines()))
            if unclosed is not None:
                mark, advice = unclosed, ("The quote that opens on this line is not closed on it: add the closing "
                                          "quote.")
        last = max(len(text.splitlines()), 1)
        if mark is not None and mark.line + 1 > last:  # never a line past the end
            where = f"{_shown(path)}:{last}"
        else:
            where = f"{_shown(path)}:{mark.line + 1}:{mark.column + 1}" if mark else _shown(path)
        raise RuleError([f"{where}: this is not valid YAML ({problem}). {advice}"])
    if node is None:
        raise RuleError([f"{_shown(path)}:1: this file is empty. Write its entries, or delete the file."])
    shared = _alias(node)
    if shared is not None:  # &anchors and *aliases: no rule file needs one, and a few lines can expand to millions
        raise RuleError([f"{_shown(path)}:{shared.start_mark.line + 1}:{shared.start_mark.column + 1}: this repeats "
                         "another part of the file with an alias (* and &). The rules do not use aliases: write "
                         "the value out in full."])
    twice = _duplicate_keys(node)
    if twice:  # YAML keeps the last of two equal keys without a word: a 50% penalty under a 15% one
        raise RuleError([f"{_shown(path)}:{k.start_mark.line + 1}:{k.start_mark.column + 1}: "
                         + (f"the date {k.value} is given twice" if re.fullmatch(r"\d{4}-\d{2}-\d{2}", k.value) else
                            f"the key {k.value!r} is given twice")
                         + f" in one place (also on line {first.start_mark.line + 1}), so which value is meant is "
                         "not clear. Keep one of them." for k, first in twice])
    return data, node


def _alias(node):
    """The first node met a second time under `node` (an alias repeats its anchor's node), else None."""
    seen, stack = set(), [node]
    while stack:
        n = stack.pop()
        if id(n) in seen:
            return n
        seen.add(id(n))
        if isinstance(n, yaml.MappingNode):
            for k, v in n.value:
                stack += [k, v]
        elif isinstance(n, yaml.SequenceNode):
            stack += n.value
    return None


def _duplicate_keys(node) -> list:
    """Every mapping key given a second time, with its first, anywhere under `node` (YAML nodes)."""
    out, stack = [], [node]
    while stack:
        n = stack.pop()
        if isinstance(n, yaml.MappingNode):
            seen = {}
            for k, v in n.value:
                if isinstance(k, yaml.ScalarNode):
                    if k.value in seen:
                        out.append((k, seen[k.value]))
                    else:
                        seen[k.value] = k
                stack.append(v)
        elif isinstance(n, yaml.SequenceNode):
            stack.extend(n.value)
    return sorted(out, key=lambda pair: pair[0].start_mark.line)


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


#: a JSON Schema type in the words of the person editing a YAML file, with its article
TYPE_WORDS = {"string": "text", "integer": "a whole number", "number": "a number", "boolean": "true or false",
              "array": "a list (each item on its own line, starting with \"- \", or [a, b] on one line)",
              "object": "a group of keys (each `key: value` on its own line, indented under this one)",
              "null": "empty"}


def _given(value) -> str:
    """What a value in the file is, in words, shown when it is short (never a whole group of keys dumped)."""
    if isinstance(value, dict):
        return "a group of keys"
    if isinstance(value, bool):
        return f"{str(value).lower()} (true or false)"
    if value is None:
        return "empty"
    kind = ("a list" if isinstance(value, list) else "a whole number" if isinstance(value, int) else
            "a number" if isinstance(value, float) else "text")
    shown = repr(value) if not isinstance(value, (int, float)) else str(value)
    return f"{kind}, {shown}" if len(shown) <= 60 else kind


def _shown_value(value) -> str:
    """A value as the message quotes it: short ones as written, a group of keys or a long list by its kind."""
    if isinstance(value, dict):
        return "this group of keys"
    if value is None:  # `value: null`, or nothing after the key: not Python's "None" (the twenty-sixth hostile tester)
        return "an empty value"
    shown = repr(value) if not isinstance(value, (int, float)) or isinstance(value, bool) else str(value)
    return shown if len(shown) <= 60 else ("this list" if isinstance(value, list) else "this text")


#: patterns of the schemas, in words: what to write instead
PATTERN_WORDS = {
    "^[0-9]{4}-[0-9]{2}-[0-9]{2}$": "a date written YYYY-MM-DD, like \"2027-01-01\"",
    "^[a-z][a-z0-9-]*$": "an id of small letters, digits and hyphens, starting with a letter, like permit-required",
    "^[a-z0-9-]+$": "an id of small letters, digits and hyphens, like penalty-quarter",
    "^[0-9]+(\\.[0-9]+)?$": "a number in quotes, like \"0.15\" or \"12.50\"",
    "^[0-9]+(\\.[0-9]{1,2})?$": "dollars and cents in quotes, like \"12.50\"",
    "^[0-9]+(\\.[0-9]{1,4})?$": "a number in quotes with at most 4 decimals, like \"12.50\"",
    "^([01][0-9]|2[0-3]):[0-5][0-9]$": "a time of day as HH:MM on a 24-hour clock, like \"19:30\"",
    "^[0-9]+-[0-9]{4}$": "number-year, like 1-1992",
    "^https://": "a web address starting with https://",
}


def _fraction_advice(key, value) -> str | None:
    """A fraction's complaint in its own terms (the fourth hostile tester: 1.80 was "not in the expected form")."""
    if not str(key).endswith("fraction"):
        return None
    try:
        number = _Decimal(str(value).strip())
    except Exception:  # noqa: BLE001 - not a number at all
        return (f"{_shown_value(value)} is not a fraction. Write {key} as a number between 0 and 1 in quotes, "
                f"like \"0.80\" for 80%")
    if number > 1 or number < 0:
        return (f"{key} {value} is {'more than 1' if number > 1 else 'less than 0'}: it is a fraction, between 0 and "
                f"1 (80% is written \"0.80\"). Write it as a number between 0 and 1 in quotes")
    if number == 0:  # every bill would be $0.00 (the twenty-sixth hostile tester, #4), as `rates propose` refuses
        return (f"{key} {value} is 0: every bill would then be $0.00. It is the share of metered water billed as "
                f"sewage, more than 0 and at most 1 (80% is written \"0.80\"). Write the Town's share in quotes")
    return None


def _advice(err) -> str:
    """A schema's complaint in the words of the person editing the file (the third hostile tester:
    "is not valid under any of the given schemas", "Additional properties are not allowed"; the fourth:
    a Python dict dumped, "should be a object", a fraction of 1.80 "not in the expected form")."""
    key = err.absolute_path[-1] if err.absolute_path else None
    if err.validator == "additionalProperties":
        allowed = sorted(err.schema.get("properties", {}))
        extra = sorted(set(err.instance) - set(allowed)) if isinstance(err.instance, dict) else []
        keys = ", ".join(repr(k) for k in extra) or "this key"
        meant = [m for k in extra for m in difflib.get_close_matches(str(k), allowed, n=1, cutoff=0.6)]
        return (f"{keys} is not a key this file takes" + (f" (did you mean {', '.join(map(repr, meant))}?)"
                                                           if meant else "")
                + f". Remove or rename it; the keys allowed here are: {', '.join(allowed)}")
    if err.validator == "required":
        missing = err.message.split("'")[1] if err.message.count("'") >= 2 else err.message
        return f"{missing!r} is missing here. Add it"  + (
            " (a schedule with this status needs it)" if err.schema.get("if") is not None or "then" in str(
                err.schema_path) else "") + "."
    if err.validator == "dependentRequired":  # "'value' is a dependency of 'quote'"
        needs = [k for k, wants in err.validator_value.items() if k in err.instance
                 for k2 in wants if k2 not in err.instance]
        given = next((k for k, wants in err.validator_value.items() if k in err.instance
                      and any(w not in err.instance for w in wants)), None)
        return (f"{given!r} is here without {', '.join(repr(w) for w in err.validator_value.get(given, []) if w not in err.instance)}: "
                f"they go together. Add it, or remove {given!r}") if given else err.message
    if err.validator in ("pattern", "format"):
        fraction = _fraction_advice(key, err.instance)
        if fraction:
            return fraction
        want = PATTERN_WORDS.get(err.validator_value) if err.validator == "pattern" else None
        if want:
            return f"{_shown_value(err.instance)} is not in the form this key takes. Write {want}"
        if isinstance(err.instance, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", err.instance.strip()):
            # written right, but no such day (the seventeenth hostile tester, F5: "2025-02-30")
            try:
                _dt.date.fromisoformat(err.instance.strip())
            except ValueError:
                return (f"{_shown_value(err.instance)} is written correctly, but there is no such date. Check the day "
                        "and the month")
        return f"{_shown_value(err.instance)} is not in the expected form. Write it like the other files do (dates as YYYY-MM-DD in quotes, amounts as \"12.50\")"
    if err.validator == "type":
        wants = [err.validator_value] if isinstance(err.validator_value, str) else list(err.validator_value)
        want = " or ".join(TYPE_WORDS.get(w, w) for w in wants)
        hint = (f" Put it in quotes: \"{err.instance}\"." if "string" in wants and isinstance(err.instance, (int, float))
                and not isinstance(err.instance, bool) else " Put it in quotes." if "string" in wants else "")
        return f"this is {_given(err.instance)}, but this key takes {want}.{hint}"
    if err.validator == "enum":
        return f"{_shown_value(err.instance)} is not allowed here; use one of: {', '.join(map(str, err.validator_value))}"
    if err.validator in ("anyOf", "oneOf"):
        if isinstance(err.instance, dict) and all("required" in b for b in err.validator_value):
            ways = [" with ".join(repr(k) for k in b["required"]) for b in err.validator_value]
            return f"this needs {', or '.join(ways)}. Add {'one of them' if len(ways) > 1 else 'it'}."
        # a fraction's own problem said as it is (the thirtieth hostile tester: {numerator: 1, denominator: 0} got
        # only "not in any form this key takes")
        if isinstance(err.instance, dict) and set(err.instance) == {"numerator", "denominator"}:
            bad = [k for k in ("numerator", "denominator") if isinstance(err.instance[k], bool)
                   or not isinstance(err.instance[k], int) or (k == "denominator" and err.instance[k] < 1)]
            if bad:
                return ("a fraction's numerator and denominator are whole numbers, the denominator 1 or more "
                        f"(like {{numerator: 3, denominator: 20}} for 15%); {bad[0]} is {_shown_value(err.instance[bad[0]])}")
        return (f"{_shown_value(err.instance)} is not in any form this key takes. Write it like the other files do: a number "
                f"in quotes (\"0.15\", \"12.50\"), a whole number (30), a list (like [\"01-15\", \"04-15\"]), or a "
                f"fraction ({{numerator: 3, denominator: 20}})")
    if err.validator == "minLength":
        return "this is empty or too short. Write it out in full"
    if err.validator in ("minItems", "maxItems"):
        count = len(err.instance) if isinstance(err.instance, list) else 0
        return (f"this list has {count} item{'s' if count != 1 else ''}; it takes "
                f"{'at least' if err.validator == 'minItems' else 'at most'} {err.validator_value}")
    if err.validator in ("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"):
        words = {"minimum": "at least", "exclusiveMinimum": "more than", "maximum": "at most",
                 "exclusiveMaximum": "less than"}[err.validator]
        return f"{_shown_value(err.instance)} is out of range: write a number {words} {err.validator_value}"
    return err.message


def _schema_errors(data, schema: dict, node=None, path: Path | None = None) -> list[tuple[list, bool, str]]:
    """What the schema finds wrong in `data`: where (a path of keys), whether it is the key
    itself that is wrong, and what to change."""
    validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())
    found = []
    for err in sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path))):
        at = list(err.absolute_path)
        if err.validator == "additionalProperties" and isinstance(err.instance, dict):
            extra = [k for k in err.instance if k not in err.schema.get("properties", {})]
            at += extra[:1]  # point at the unknown key itself
        if err.validator == "uniqueItems" and isinstance(err.instance, list):
            found.append((at, False, _twice_in_list(err.instance, at, node)))
            continue
        found.append((at, err.validator == "additionalProperties", _advice(err)))
    # a group with a key it does not take, and so without one it needs: the missing key is said once, with
    # the unknown key (the fourth hostile tester got a third line, "'value' is a dependency of 'quote'")
    unknown = {tuple(at[:-1]) for at, at_key, _advice_ in found if at_key}
    return [(at, at_key, advice) for at, at_key, advice in found
            if not (not at_key and tuple(at) in unknown and "is here without" in advice)]


def _twice_in_list(items: list, at: list, node) -> str:
    """A list with an item given twice, naming both places (the fourth hostile tester: "['prohibited',
    'needs-approval', 'prohibited'] has non-unique elements")."""
    first: dict = {}
    for i, item in enumerate(items):
        key = json.dumps(item, sort_keys=True, default=str)
        if key in first:
            places = [_locate(node, [*at, j]) if node is not None else (0, 0) for j in (first[key], i)]
            where = " and ".join(f"line {line}, column {col}" for line, col in places)
            return (f"{_shown_value(item)} is listed twice in this list, at {where}. Each item may be listed "
                    f"once: remove one, or write in its place the one that is missing")
        first[key] = i
    return "an item is listed twice in this list. List each once"


# One file read and checked against its schema, by the file's text and the schema's: the
# data, the YAML nodes (for the line and column of a problem) and what the schema found. A
# process that compiles the rules again (each of the Clerk's commands, twice; a site build,
# several times) re-reads only the files whose text changed. At most READ_KEPT of them are
# kept; the data is handed out as a copy, since compiling fills parts of it in.
_read: dict[tuple[str, str], tuple] = {}
READ_KEPT = 256


def _read_checked(path: Path, schema_text: str):
    """The data of one rule file, its YAML nodes and its schema problems (as _schema_errors);
    raises RuleError if it is not YAML."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        line = path.read_bytes()[:exc.start].count(b"\n") + 1
        raise RuleError([f"{_shown(path)}:{line}: this file is not UTF-8 text (byte {exc.object[exc.start]:#04x}). "
                         "Save it as UTF-8, and write accented letters as they are (é, ñ)."]) from None
    found = _read.get((text, schema_text))
    if found is None:
        data, node = _compose(path, text)
        found = (data, node, _schema_errors(data, json.loads(schema_text), node))
        if len(_read) >= READ_KEPT:
            _read.pop(next(iter(_read)))
        _read[(text, schema_text)] = found
    data, node, errors = found
    return copy.deepcopy(data), node, errors


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
        # a file or its schema missing is said by name, not as "the output could not be written" (the eleventh
        # hostile tester, F10: exit 74 for a missing rules/law.yaml)
        schema = rules_dir / "schemas" / f"{kind}.schema.json"
        for needed in (path, schema):
            if not needed.is_file():
                said = _missing(needed, rules_dir, "The rules cannot be checked without it.")
                if said not in problems:  # a schema is said once, not once a file it checks
                    problems.append(said)
                return None
        try:
            data, node, errors = _read_checked(path, schema.read_text(encoding="utf-8"))
        except RuleError as exc:
            problems.extend(exc.problems)
            return None
        nodes[path] = node
        if kind == "permits":
            errors = [(at, at_key, _permits_advice(data, at, advice)) for at, at_key, advice in errors]
        if kind == "interpretation":
            errors = [(at, at_key, _chosen_advice(data, at, advice)) for at, at_key, advice in errors]
        problems.extend(f"{_where(path, node, at, at_key=at_key)}: {advice}" for at, at_key, advice in errors)
        return None if errors else data

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
        if ids and value not in ids:  # the fourth hostile tester renamed a provision: "use … 'minimum-charge'"
            meant = difflib.get_close_matches(str(value), sorted(ids), n=1, cutoff=0.6)
            problems.append(f"{_where(path, nodes[path], key_path)}: this cites the provision {value!r}, which "
                            f"rules/law.yaml does not have (renamed or removed there?). Write the provision's id "
                            f"as law.yaml has it now" + (f" (perhaps {meant[0]!r})" if meant else "")
                            + ", or give the provision back its old id in law.yaml.")

    texts = _provision_texts(provisions)
    received = _received_text(rules_dir, law)
    parameters = {}
    for path in sorted((rules_dir / "parameters").glob("*.yaml")):
        data = load(path, "parameter")
        if data is None:
            continue
        cite_ok(path, data, ["cite"], data["cite"])
        history = _history(path, data, nodes[path], problems)
        if history is None:
            continue
        if data["cite"] in texts:
            problems.extend(_quote_problems(path, nodes[path], data["cite"], history, texts[data["cite"]], received,
                                            data.get("unit", ""), data.get("description", "")))
        latest = history[-1]
        parameters[path.stem] = {k: v for k, v in data.items() if k != "values"} | {
            "name": path.stem, "value": latest["value"], "quote": latest["quote"]}
        if "values" in data:  # dated: the engine reads the value in force on a day (calculator.core.rules.entry)
            parameters[path.stem]["history"] = history
    if law:
        problems.extend(_enactment_problems(law_path, nodes.get(law_path), law, texts, received))

    interpretations = {}
    for path in sorted((rules_dir / "interpretations").glob("*.yaml")):
        data = load(path, "interpretation")
        if data is None:
            continue
        cite_ok(path, data, ["reads"], data["reads"])
        if data["reads"] in texts and not quoted_in(data["text"], texts[data["reads"]]):
            problems.append(f"{_where(path, nodes[path], ['text'])}: this is not in the text of {data['reads']} in "
                            f"rules/law.yaml. Copy the words the reading is about from that provision "
                            f"(parts may be joined with ...).")
        data = _fill_placeholders(path, data, nodes[path], parameters, problems,
                                  {f.stem for f in (rules_dir / "parameters").glob("*.yaml")})
        if data["id"] != path.stem:
            problems.append(f"{_where(path, nodes[path], ['id'])}: id {data['id']!r} must match the file name {path.stem!r}.")
        if data["chosen"] not in data["options"]:
            problems.append(f"{_where(path, nodes[path], ['chosen'])}: chosen {data['chosen']!r} is not one of the options "
                            f"({', '.join(data['options'])}). Pick one of them.")
        interpretations[data["id"]] = data
    files = {f.stem for f in (rules_dir / "parameters").glob("*.yaml")}  # (a file with problems of its own too)
    for reading in interpretations.values():  # the figures a reading decides are parameters that exist
        path = rules_dir / "interpretations" / f"{reading['id']}.yaml"
        for at, name in enumerate(reading.get("figures", [])):
            if name not in files:
                problems.append(f"{_where(path, nodes.get(path), ['figures', at])}: {name!r} is not in "
                                f"rules/parameters/. Name a parameter by its file name without .yaml, or remove it "
                                f"from `figures:`.")

    schedules = []
    data_records: dict[int, tuple] = {}  # each schedule's record file and its notice's, for file:line
    folder = rules_dir / "rate-schedules"
    for path in sorted([*folder.glob("*.yaml"), *(p for p in folder.iterdir() if p.is_dir())] if folder.is_dir() else []):
        data = (_schedule_folder(path, rules_dir, load, problems, nodes) if path.is_dir()
                else load(path, "rate-schedule"))
        if data is None:
            continue
        record = path / rate_year.RECORDS["propose"] if path.is_dir() else path
        cite_ok(record, data, ["cite"], data["cite"])
        if data["id"] != path.stem and not path.is_dir():
            problems.append(f"{_where(path, nodes[path], ['id'])}: id {data['id']!r} must match the file name {path.stem!r}.")
        if "fiscal_year" in data and law and data["fiscal_year"] < _first_year(law):
            problems.append(f"{_where(record, nodes[record], ['fiscal_year'])}: fiscal year {data['fiscal_year']} is before "
                            f"the law's earliest enactment on record ({_first_year(law)}, rules/law.yaml). "
                            f"Enter the fiscal year as four digits, like 2027.")
        if "note" in data and "note_es" not in data:  # every word a resident reads is in each language
            problems.append(f"{_where(record, nodes[record], ['note'])}: the note has no Spanish. Add `note_es:` "
                            f"with the same note in Spanish, as the Spanish pages and answers show it.")
        for key in ("effective", "ends"):
            if key in data:
                try:
                    _dt.date.fromisoformat(data[key])
                except ValueError:
                    problems.append(f"{_where(record, nodes[record], [key])}: {data[key]!r} is not a real date; write it as YYYY-MM-DD.")
        if not path.is_dir():
            data["_file"] = _relative(path, rules_dir)
        data_records[id(data)] = (record, path / rate_year.RECORDS["notice"] if path.is_dir() else None)
        if any(s["id"] == data["id"] for s in schedules):
            problems.append(f"{_relative(path, rules_dir)}: schedule {data['id']!r} is also kept in "
                            f"{next(s['_file'] for s in schedules if s['id'] == data['id'])}; keep one of them "
                            f"(one file, or one folder with a file per step).")
            continue
        schedules.append(data)
    schedules.sort(key=lambda s: s["effective"])
    # a parameter file with a problem of its own is reported above and left out of `parameters`: the checks that
    # compute with the parameters (an adopted schedule's notice and vote) wait until every file loads, rather
    # than end on the missing one (the seventh hostile tester: KeyError: 'town-board-size')
    broken = files - parameters.keys()
    problems.extend(schedule_problems(schedules, None if broken else parameters, rules_dir, interpretations))
    if READINGS_FOR_VC <= interpretations.keys():  # (a reading with a problem of its own is reported above)
        vc_rules = {"parameters": parameters, "interpretations": interpretations, "provisions": provisions}
        for s in schedules:
            record, notice = data_records[id(s)]
            problems.extend(_figure_problems(s, record, notice, nodes, vc_rules))

    extra = {}
    for name, kind in (("permits", "permits"), ("application-form", "application-form"), ("holidays", "holidays"),
                       ("contacts", "contacts")):
        path = rules_dir / f"{name}.yaml"
        if not path.exists():  # the tenth hostile tester (F1): without holidays.yaml the build ended in KeyError
            problems.append(_missing(path, rules_dir, f"The site needs it ({_NEEDED_FOR[name]})."))
            continue
        if (rules_dir / "schemas" / f"{kind}.schema.json").exists():
            data = load(path, kind)
            if data is not None:
                for key_path, value in _cites(data):
                    cite_ok(path, data, key_path, value)
                if name == "permits":  # its prose may name a number of the law: {violation-correction-maximum-days}
                    data = _fill_placeholders(path, data, nodes[path], parameters, problems,
                                              {f.stem for f in (rules_dir / "parameters").glob("*.yaml")}, ("id",))
                if name == "contacts":  # each office as the law names it: its words are in the cited provision
                    problems.extend(_contact_problems(path, nodes[path], data, texts))
                if name == "permits":  # the checker's graph: a dangling `next` would break the site
                    problems.extend(f"{_where(path, nodes[path], at)}: {what}"
                                    for at, what in _flow_problems(data, interpretations))
                extra[name.replace("-", "_")] = data

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


def _missing(path: Path, rules_dir: Path, why: str) -> str:
    """A rules file that is not there, said by name with why it is needed and how to put it back."""
    shown = _relative(path, rules_dir)
    return f"{shown} is missing. {why} Put it back (git checkout -- {shown}) or restore it from a copy."


_NEEDED_FOR = {"permits": "the permit checker's questions", "application-form": "the permit application's fields",
               "holidays": "the public holidays that move a due date", "contacts": "the offices a page sends you to"}
READINGS_FOR_VC = {"vc-cost-basis", "extraneous-flow", "rounding"}


#: flow.problems' answers by the graph and readings they were asked of: walking every path of the permit
#: checker's graph is most of a compile's time (0.25 s of 0.3), and the Clerk's steps, the tests and the build
#: compile rules whose permits.yaml is the same again and again
_FLOW_PROBLEMS: dict[str, list] = {}


def _flow_problems(data: dict, interpretations: dict) -> list:
    import hashlib
    import json
    key = hashlib.sha256(json.dumps([data, interpretations], sort_keys=True, default=str).encode()).hexdigest()
    if key not in _FLOW_PROBLEMS:
        if len(_FLOW_PROBLEMS) > 32:
            _FLOW_PROBLEMS.clear()
        _FLOW_PROBLEMS[key] = flow.problems(data, interpretations)
    return list(_FLOW_PROBLEMS[key])


def _figure_problems(s: dict, record: Path, notice: Path | None, nodes: dict, rules: dict) -> list[str]:
    """A schedule's VC against its own recorded basis, worked out again by the engine's VC function
    (calculator/rates/vc.py), and its VC and sewage share against the figures its published notice printed:
    a hand-edited 12.00 over a basis giving 10.73, or a share changed after the notice ran, was adopted and
    billed without a word (the eighth hostile tester, F4). A schedule without a basis (the example schedule)
    or a notice recorded before notices kept their figures is not checked against what it lacks."""
    out = []
    adopted = s["status"] == "adopted"
    fix = ("put back the figure the Board noticed and voted on; a different rate needs a new schedule, with its "
           "own proposal, notice and vote (`build.py rates propose`)" if adopted else
           "propose the schedule again with the right figures (`build.py rates propose`): it works VC out itself")
    basis = s.get("basis")
    if basis and "vc_per_1000_gallons" in s:
        try:
            result = vc.compute(rules, basis.get("om_cost"), basis["user_volume_gallons"],
                                basis.get("extraneous_flow_cost"), basis.get("budgeted_om_cost"),
                                basis.get("projected_om_cost"))
        except InputError as exc:
            out.append(f"{_where(record, nodes[record], ['basis'])}: this basis does not give a VC: {exc} "
                       f"Check the basis, or {fix}.")
        else:
            given = _Decimal(s["vc_per_1000_gallons"])
            # either cost's rate stands (vc_by_basis): the vc-cost-basis reading may have changed since
            allowed = {_Decimal(result["vc_per_1000_gallons"])} | {
                _Decimal(v) for k, v in (result["vc_by_basis"] or {}).items() if k != "chosen"}
            if given not in allowed:
                arithmetic = next(step["text"] for step in result["explanation"] if step["text"].startswith("VC ="))
                out.append(f"{_where(record, nodes[record], ['vc_per_1000_gallons'])}: VC "
                           f"{s['vc_per_1000_gallons']} is not what this schedule's own basis gives: {arithmetic} "
                           f"(rounded as rules/interpretations/rounding.yaml says). Set vc_per_1000_gallons to "
                           f"\"{result['vc_per_1000_gallons']}\" if the basis is right; if the basis is wrong, {fix}.")
    if basis and "user_water_gallons" in basis and "sewage_fraction" in s:
        # the water figure entered and the sewage volume worked out from it (clerk11, P1) agree, with the share
        try:
            from calculator.rates.rate_year import whole_gallons
            differ = whole_gallons(_Decimal(basis["user_water_gallons"]) * _Decimal(s["sewage_fraction"])) != \
                _Decimal(basis["user_volume_gallons"])
        except (ArithmeticError, TypeError):  # not numbers: the schema's check says so
            differ = False
        if differ:
            out.append(f"{_where(record, nodes[record], ['basis', 'user_volume_gallons'])}: the users' volume "
                       f"{basis['user_volume_gallons']} gallons is not the metered water {basis['user_water_gallons']} "
                       f"gallons times the sewage share {s['sewage_fraction']}, to the nearest gallon. Put back the figures, or {fix}.")
    printed = s.get("notice") or {}
    if notice is not None and notice in nodes:
        for key, words in (("vc_per_1000_gallons", "VC"), ("sewage_fraction", "sewage share")):
            if key in printed and key in s and _Decimal(printed[key]) != _Decimal(s[key]):
                out.append(f"{_where(record, nodes[record], [key])}: the {words} {s[key]} is not the "
                           f"{printed[key]} that the published notice printed "
                           f"({_where(notice, nodes[notice], [key])}); the schedule "
                           f"{'adopted' if adopted else 'to be adopted'} must be the one noticed (rate-schedules.B, "
                           f"C). Set {key} back to \"{printed[key]}\"; "
                           + ("a different figure needs a new schedule, with its own proposal, notice and vote."
                              if adopted else "or, for the new figure, propose the schedule again, then publish "
                              "and record a new notice."))
    return out


def _chosen_advice(data, at: list, advice: str) -> str:
    """An empty `chosen:` in a reading: the options to choose from, not "Put it in quotes" (quoting nothing
    does not help: the hostile tester, H31)."""
    if at != ["chosen"] or not isinstance(data, dict) or data.get("chosen") not in (None, ""):
        return advice
    options = list(data.get("options") or {}) if isinstance(data.get("options"), dict) else []
    return ("'chosen' is empty. Write the option the Town has chosen" +
            (f", one of: {', '.join(options)}" if options else ", one of the keys under 'options'") + ".")


def _permits_advice(data, at: list, advice: str) -> str:
    """A schema's complaint about permits.yaml's `next` or `precedence`, with the values they take (the
    fourth hostile tester: `next: 5` was told only to put it in quotes)."""
    if not at or at[-1] not in ("next", "precedence", "start") or not isinstance(data, dict):
        return advice
    questions = [q.get("id") for q in data.get("questions", []) if isinstance(q, dict) and isinstance(q.get("id"), str)]
    outcomes = [o.get("id") for o in data.get("outcomes", []) if isinstance(o, dict) and isinstance(o.get("id"), str)]
    if at[-1] == "next":  # a number, a list or words with capitals: what it takes says more than "put it in quotes"
        value = data
        for key in at:
            try:
                value = value[key]
            except (KeyError, IndexError, TypeError):
                value = None
                break
        return (f"next {_shown_value(value)} is not a question or an outcome. `next` names the question to ask next, "
                f"or the outcome: write one of the questions ({', '.join(questions)}) or of the outcomes "
                f"({', '.join(outcomes)}).")
    if at[-1] == "start":
        return f"{advice.rstrip('.')}. `start` names the first question: one of {', '.join(questions)}."
    return (f"{advice.rstrip('.')}. `precedence` lists every outcome once, most serious first: "
            f"{', '.join(outcomes)}.")


def _contact_problems(path: Path, node, data: dict, texts: dict[str, str]) -> list[str]:
    """rules/contacts.yaml: ids used once; each `quote` is words of the provision it cites; a
    detail (address, phone, email, hours) is there only with a published source to show for it."""
    out, seen = [], set()
    for i, c in enumerate(data["contacts"]):
        if c["id"] in seen:
            out.append(f"{_where(path, node, ['contacts', i, 'id'])}: the contact id {c['id']!r} is used twice; "
                       f"give each office its own id.")
        seen.add(c["id"])
        if c["cite"] in texts and not quoted_in(c["quote"], texts[c["cite"]]):
            out.append(f"{_where(path, node, ['contacts', i, 'quote'])}: this is not in the text of {c['cite']} in "
                       f"rules/law.yaml. Copy the words that name the office from that provision.")
        if any(k in c for k in ("address", "phone", "email", "hours")) and "source_url" not in c:
            out.append(f"{_where(path, node, ['contacts', i, 'id'])}: a published detail needs `source_url`, the "
                       f"Town's page or document that gives it. Add it, or leave the detail out.")
    return out


def _relative(path: Path, rules_dir: Path) -> str:
    return str(path.relative_to(rules_dir.parent)) if rules_dir.parent in path.parents else str(path)


def _schedule_folder(folder: Path, rules_dir: Path, load, problems: list[str], nodes: dict) -> dict | None:
    """A schedule kept as one file per step (rate-schedules/<id>/): proposal.yaml, then
    notice.yaml and vote.yaml as the Clerk records them; put together by the engine."""
    paths = {step: folder / name for step, name in rate_year.RECORDS.items()}
    shown = _relative(folder, rules_dir)
    unknown = sorted(p.name for p in folder.iterdir() if p.name not in rate_year.RECORDS.values())
    if unknown:
        problems.append(f"{shown}/{unknown[0]}: a schedule's folder holds only {', '.join(rate_year.RECORDS.values())}. "
                        f"Move or remove this file.")
    if not paths["propose"].exists():
        problems.append(f"{shown}/: there is no {rate_year.RECORDS['propose']} in this folder; a schedule starts with "
                        f"its proposal (the Clerk's `propose` step). Add it, or remove the folder.")
        return None
    if paths["adopt"].exists() and not paths["notice"].exists():
        problems.append(f"{shown}/{rate_year.RECORDS['adopt']}: a vote is recorded but no notice "
                        f"({rate_year.RECORDS['notice']}); a schedule is adopted only after its notice and meeting "
                        f"(rate-schedules.B, C). Add the notice, or remove the vote.")
        return None
    kinds = {"propose": "rate-schedule-proposal", "notice": "rate-schedule-notice", "adopt": "rate-schedule-vote"}
    records = {step: load(path, kinds[step]) if path.exists() else None for step, path in paths.items()}
    if any(records[step] is None and paths[step].exists() for step in paths):
        return None
    if records["propose"]["id"] != folder.name:
        problems.append(f"{_where(paths['propose'], nodes[paths['propose']], ['id'])}: id "
                        f"{records['propose']['id']!r} must match the folder name {folder.name!r}.")
    files = {k: _relative(paths[step], rules_dir) for k, step in (("proposal", "propose"), ("notice", "notice"),
                                                                  ("vote", "adopt")) if paths[step].exists()}
    return rate_year.assemble(records["propose"], records["notice"], records["adopt"], files)


# ---- one source of truth: quotes, dated values, placeholders, enactments -------------

ELLIPSIS = re.compile(r"\s*(?:\.\.\.|…)\s*")
PLACEHOLDER = re.compile(r"\{([^{}\s]*)\}")
NOT_FILLED = ("id", "reads", "text", "chosen")  # ids, and `text`, which quotes the law word for word


def _words(text: str) -> str:
    """Whitespace-normalised, for comparing a quote with the law's text."""
    return " ".join(str(text).split())


def _provision_texts(provisions: list[dict]) -> dict[str, str]:
    """Each provision's words with those of the provisions under it, whitespace-normalised."""
    by_id = {p["id"]: p for p in provisions}

    def words(p):
        return " ".join([provision_text(p), *(words(by_id[c]) for c in p["children"])])
    return {p["id"]: _words(words(p)) for p in provisions}


def _received_text(rules_dir: Path, law) -> str:
    """The text as received (rules/source/), whitespace-normalised: what earlier values are quoted from."""
    path = rules_dir / law["source"] if law else None
    return _words(path.read_text(encoding="utf-8")) if path and path.exists() else ""


def quoted_in(quote: str, text: str) -> bool:
    """Whether every part of a quote ("a ... b": parts cut at the ellipses) appears in the text, in order."""
    at = 0
    for part in (x for x in ELLIPSIS.split(_words(quote)) if x):
        found = text.find(part, at)
        if found < 0:
            return False
        at = found + len(part)
    return True


def _history(path: Path, data: dict, node, problems: list[str]) -> list[dict] | None:
    """A parameter's values, oldest first: the undated `value` (in force from the start), then
    each of `values` by the date it took effect. Dates must be real, unique and in order."""
    history = []
    if "value" in data:
        history.append({"since": None, "value": data["value"], "quote": data["quote"], "at": ["quote"]})
    dated = _mapping(node, "values")
    before = len(problems)
    previous = None
    for key_node, _ in (dated.value if dated is not None else []):
        day = key_node.value
        where = f"{_shown(path)}:{key_node.start_mark.line + 1}:{key_node.start_mark.column + 1}"
        try:
            _dt.date.fromisoformat(day)
        except ValueError:
            problems.append(f"{where}: {day!r} is not a real date; write the day the value took effect as YYYY-MM-DD.")
            continue
        if previous is not None and day < previous:
            problems.append(f"{where}: the date {day} is listed after {previous}; list the values oldest first.")
        previous = max(previous or day, day)
    if len(problems) > before:
        return None
    for day, v in sorted((data.get("values") or {}).items()):
        entry = {"since": day, "value": v["value"], "quote": v["quote"], "at": ["values", day, "quote"]}
        entry.update({k: v[k] for k in ("local_law", "source") if k in v})
        history.append(entry)
    return history


_NUMBER_WORDS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen".split())}
_TENS_WORDS = {w: 10 * (i + 2) for i, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split())}
_SCALE_WORDS = {"hundred": 100, "thousand": 1000}
_NUMBER = re.compile(r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(\s*(?:%|percent\b))?|\b([a-z]+)\b", re.I)
#: a number in words: number words joined by spaces or hyphens (and "and" between them: "one hundred and
#: twenty"), read whole by _in_words
_WORDS_RUN = re.compile(r"\b[a-z]+(?:(?:\s+|\s*-\s*)(?:and\s+)?[a-z]+)*\b", re.I)


def _in_words(words: list[str]) -> list[int]:
    """The numbers a run of number words states: ["forty", "five"] is [45], ["one", "hundred", "twenty"]
    [120], ["two", "thousand"] [2000]; words that do not go on one number start the next ("five forty"
    is [5, 40]). The fifth hostile tester: "forty-five days" was read as 40 and 5, and a value of 45
    under it refused."""
    out, total, current, last = [], 0, 0, None  # last: the kind of the word before ("unit", "tens", "scale")
    for w in words:
        if w in _SCALE_WORDS:
            if last is None:
                continue
            scale = _SCALE_WORDS[w]
            if scale == 100 and current % 100 == 0 and current:
                current *= 100
            elif scale == 100:
                current = (current or 1) * 100
            else:
                total, current = total + (current or 1) * 1000, 0
            last = "scale"
            continue
        value, kind = (_TENS_WORDS[w], "tens") if w in _TENS_WORDS else (_NUMBER_WORDS[w], "unit")
        # a word that cannot go on the number so far starts a new one: a unit after a unit ("five six"), tens
        # after a unit or tens ("five forty"), a unit after a teen or ten ("twelve three")
        joins = last is None or last == "scale" and current % 100 == 0 or \
            last == "tens" and kind == "unit" and value < 10 and current % 10 == 0
        if not joins:
            out.append(total + current)
            total, current = 0, 0
        current += value
        last = kind
    if last is not None:
        out.append(total + current)
    return out


def _quoted_numbers(quote: str) -> tuple[set, set]:
    """The numbers a quote states (in digits, or in words: "forty-five", "one hundred and twenty"), and
    those it states as percents."""
    numbers, percents = set(), set()
    for m in _NUMBER.finditer(quote):
        if m.group(1):
            n = _Decimal(m.group(1).replace(",", ""))
            (percents if m.group(2) else numbers).add(n)
    for m in _WORDS_RUN.finditer(quote):
        words = re.findall(r"[a-z]+", m.group(0).lower())
        run: list[str] = []
        for w in words + [""]:  # the number words of the run, each stretch of them read whole
            if w in _NUMBER_WORDS or w in _TENS_WORDS or (w in _SCALE_WORDS and run) or (w == "and" and run):
                run.append(w)
                continue
            while run and run[-1] == "and":
                run.pop()
            numbers.update(_Decimal(n) for n in _in_words([x for x in run if x != "and"]))
            run = []
    return numbers, percents


_MONTHS = ("january february march april may june july august september october november "
           "december").split()
_ORDINALS = {w: i + 1 for i, w in enumerate(
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth "
    "fifteenth sixteenth seventeenth eighteenth nineteenth twentieth".split())} | {"thirtieth": 30}
#: units that count something: never zero or less (the third hostile tester: a penalty period of 0 months
#: passed, and the engine never answered)
_COUNTS = ("days", "months", "hours", "minutes", "members", "gallons")


def month_days_problem(value, quote: str) -> str | None:
    """A list of days of the year ("01-15", …): each a real day, in the order of the year, and, where the
    quote names the months and the day ("the fifteenth day of January, April, July and October"), those
    (the third hostile tester: "02-30", "12-31", a list in another order, three of four, all passed)."""
    import datetime as dt
    days = []
    for v in value if isinstance(value, list) else [value]:
        try:
            days.append(dt.date.fromisoformat(f"2024-{v}"))
        except (TypeError, ValueError):
            return f"{v!r} is not a day of the year; write it as MM-DD in quotes, like \"01-15\""
    if days != sorted(set(days)):
        return "the days are not each once and in the order of the year"
    words = re.findall(r"[a-z]+", quote.lower())
    months = [i + 1 for i, m in enumerate(_MONTHS) if m in words]
    if months and [d.month for d in days] != months:
        said = ", ".join(_MONTHS[m - 1].capitalize() for m in months)
        return f"the months are not the ones its quote names ({said}), each once and in order"
    ordinal = [_ORDINALS[w] for w in words if w in _ORDINALS]
    if ordinal and any(d.day != ordinal[0] for d in days):
        return f"the days are not the one its quote names (day {ordinal[0]} of the month)"
    return None


def value_quote_problem(value, quote: str, unit: str = "", description: str = "") -> str | None:
    """A number that is not the one its quote states (the second hostile tester: value "0.50" under
    "a penalty of 15%" passed, and the site showed a 50% penalty). A quote that states no number (the
    board's size) cannot be checked; a fraction is checked against the quote's percents; a count is
    more than zero; "per quarter" is 3 months; a list of days against the months and day the quote names."""
    if unit == "month-day list":
        return month_days_problem(value, quote)
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        return None
    try:
        n = _Decimal(str(value))
    except ArithmeticError:
        return None
    numbers, percents = _quoted_numbers(quote)
    if unit.startswith(_COUNTS) and n <= 0:
        return f"the value {value} is not more than 0, and it counts {unit.split()[0]}"
    if unit.startswith("fraction") and not 0 < n < 1:  # "15" under "15%" is 1500% (the third hostile tester)
        said = (", ".join(f"{p.normalize():f}%" for p in sorted(percents)) + " is written "
                + ", ".join(f"{(p / 100).normalize():f}" for p in sorted(percents))) if percents else "write it so"
        return f"the value {value} is a fraction, so it means {(n * 100).normalize():f}%; a fraction is more than 0 " \
               f"and less than 1 ({said})"
    if unit == "months" and not numbers and re.search(r"\bquarter\b", quote, re.I) and n != 3:
        return f"the value {value} is not the 3 months of the quarter its quote says"
    # a quote that gives a range ("no fewer than 15 but not longer than 30 days"): the fewest is its lower
    # bound, the most its upper (the third hostile tester: a minimum of 30 passed, since 30 is in the quote)
    low = re.search(r"\b(?:no fewer than|not fewer than|not less than|no less than|at least)\s+(\d+)", quote, re.I)
    high = re.search(r"\b(?:not longer than|no longer than|not more than|no more than|not exceeding|at most)\s+(\d+)",
                     quote, re.I)
    bound = {"fewest": low, "least": low, "most": high, "longest": high}.get(description.split(" ")[0].lower())
    if low and high and bound is not None and n != _Decimal(bound.group(1)):
        return f"the value {value} is not the bound its quote gives ({bound.group(0)})"
    if percents and 0 < n < 1:
        if n * 100 in percents:
            return None
        said = ", ".join(f"{p.normalize():f}%" for p in sorted(percents))
        return f"the value {value} is {(n * 100).normalize():f}%, but its quote says {said}"
    if not numbers or n in numbers or n in percents:
        return None
    said = ", ".join(f"{x.normalize():f}" for x in sorted(numbers))
    if isinstance(value, int) and not isinstance(value, bool) and value > 7 and _Decimal(oct(value)[2:]) in numbers:
        # YAML reads 030 as octal, 24 (the seventeenth hostile tester, F4): the leading zero named
        return (f"the value {value} is not a number its quote states ({said}): written with a leading zero "
                f"({'0' + oct(value)[2:]}), YAML reads it as an octal number. Write {oct(value)[2:]}")
    return f"the value {value} is not a number its quote states ({said})"


def _quote_problems(path: Path, node, cite: str, history: list[dict], text: str, received: str,
                    unit: str = "", description: str = "") -> list[str]:
    """The value as the law stands must be quoted from its provision's text in rules/law.yaml;
    an earlier value from that text or from the text as received (rules/source/). The value must be
    a number its quote states, when the quote states one."""
    out = []
    for i, e in enumerate(history):
        at = e.pop("at")
        latest = i == len(history) - 1
        # a dated amendment's value is checked as a number its quote states; "per quarter" as 3 months only
        # for the law as enacted (an amendment test keeps the words and changes the period)
        wrong = value_quote_problem(e["value"], e["quote"], unit if not e.get("since") or unit != "months" else "",
                                    description)
        if wrong:
            out.append(f"{_where(path, node, at[:-1] + ['value'])}: {wrong}. Change the value, or the quote and the "
                       f"provision's text together with it (an amendment changes the law's words too).")
        if quoted_in(e["quote"], text) or (not latest and quoted_in(e["quote"], received)):
            continue
        where = _where(path, node, at)
        if latest:
            out.append(f"{where}: this quote is not in the text of {cite} in rules/law.yaml. Copy the words from "
                       f"that provision (parts may be joined with ...), or change the provision's text and the value "
                       f"together.")
        else:
            out.append(f"{where}: this quote of an earlier value is neither in the text of {cite} in rules/law.yaml "
                       f"nor in the text as received (rules/source/). Copy the words it was taken from.")
    return out


def _mapping(node, key: str):
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            if k.value == key:
                return v if isinstance(v, yaml.MappingNode) else None
    return None


def _shown(path: Path) -> str:
    try:
        return str(path.relative_to(RULES_DIR.parent))
    except ValueError:
        return str(path)


def _fill_placeholders(path: Path, data: dict, node, parameters: dict, problems: list[str], files: set,
                       kept: tuple = NOT_FILLED) -> dict:
    """Prose in the rules names a number of the law by its parameter, `{late-penalty-rate}`,
    instead of repeating it; fill each from the parameter as the law stands (kit/rules/wording.py).
    The values of the keys in `kept` stay as written (ids; a reading's quotation of the law)."""
    source = path.read_text(encoding="utf-8")
    for scalar, key in _scalars(node):
        if key in kept:
            continue
        raw = source[scalar.start_mark.index:scalar.end_mark.index]
        for m in PLACEHOLDER.finditer(raw):
            if m.group(1) not in files:  # (a file that failed its own checks is reported there)
                index = scalar.start_mark.index + m.start()
                line = source.count("\n", 0, index) + 1
                column = index - (source.rfind("\n", 0, index) + 1) + 1
                like = (difflib.get_close_matches(m.group(1), files, 1) or sorted(files))[0]
                problems.append(f"{_shown(path)}:{line}:{column}: {m.group(0)} is not a parameter in rules/parameters/. "
                                f"Name one of its files without .yaml, like {{{like}}}.")

    def fill(value, key=None):
        if isinstance(value, dict):
            return {k: fill(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [fill(v, key) for v in value]
        if isinstance(value, str) and key not in kept:
            return PLACEHOLDER.sub(lambda m: _words_of(parameters, m), value)
        return value
    return fill(data)


def _words_of(parameters: dict, m) -> str:
    p = parameters.get(m.group(1))
    return value_words(p["value"], p["unit"]) if p else m.group(0)


def _scalars(node, key=None):
    """Every scalar node with the mapping key it is the value of."""
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            yield from _scalars(v, k.value)
    elif isinstance(node, yaml.SequenceNode):
        for v in node.value:
            yield from _scalars(v, key)
    elif isinstance(node, yaml.ScalarNode):
        yield node, key


def _first_year(law: dict) -> int:
    days = [e["date"] for e in law.get("enactments", [])]
    return int(min(days)[:4]) if days else _dt.MINYEAR


NOTE_DAY = re.compile(r"\b(\d{1,2})-(\d{1,2})-(\d{4})\b")


def _enactment_problems(path: Path, node, law: dict, texts: dict, received: str) -> list[str]:
    """Each enactment is recorded by a history note in the text: its `source` must be words of
    the law (notes included), naming its local law and its date."""
    notes = []

    def collect(item):
        notes.extend(item.get("notes_before", []) + item.get("notes_after", []))
        for child in item.get("provisions", []) + item.get("children", []):
            collect(child)
    for article in law["articles"]:
        collect(article)
    text = _words(" ".join(notes)) + " " + " ".join(texts.values())
    out = []
    for i, e in enumerate(law.get("enactments", [])):
        where = _where(path, node, ["enactments", i, "source"])
        if not quoted_in(e["source"], text):
            out.append(f"{where}: this is not in the law's text or its history notes (rules/law.yaml). Copy the "
                       f"note that records local law {e['local_law']}, like \"[Amended 3-4-1992 by L.L. No. 1-1992]\".")
            continue
        if e["local_law"] not in e["source"]:
            out.append(f"{where}: the note does not name local law {e['local_law']}. Check `local_law` or the note.")
        m = NOTE_DAY.search(e["source"])
        if m and f"{m.group(3)}-{int(m.group(1)):02d}-{int(m.group(2)):02d}" != e["date"]:
            out.append(f"{_where(path, node, ['enactments', i, 'date'])}: the note says {m.group(0)}, so the date is "
                       f"{m.group(3)}-{int(m.group(1)):02d}-{int(m.group(2)):02d}, not {e['date']}.")
    return out


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


def schedule_problems(schedules: list[dict], parameters: dict | None, rules_dir: Path | None = None,
                      interpretations: dict | None = None) -> list[str]:
    """Overlaps, gaps, and adopted schedules without a lawful notice and vote: the engine's
    guard (calculator.rates.rate_year), the same one the Clerk's steps apply. `parameters` None:
    a parameter file did not load, and the checks that compute with the parameters are left out."""
    return rate_year.schedule_problems(schedules, parameters, interpretations)


def load_rules() -> dict:
    """The "rules" provider the engine asks for in a checkout: this repository's rules/, compiled."""
    return compile_rules(RULES_DIR)


def summary_markdown(problems: list[str] | None, rules: dict | None = None) -> str:
    """What a person who changed rules/ on GitHub reads in the job summary: either that the
    rules are sound, or each problem as the file, the place in it and what to change."""
    if not problems:
        return (f"### The rules are sound\n\n{len(rules['provisions'])} provisions, {len(rules['parameters'])} "
                f"parameters, {len(rules['interpretations'])} readings and {len(rules['schedules'])} rate "
                f"schedules passed every check.\n")
    rows = []
    for p in problems:
        where, _, what = p.partition(": ")
        file, _, place = where.partition(":")
        line = place.split(":")[0] if place else ""
        rows.append(f"| `{file}` | {('line ' + line) if line else ''} | {what.replace('|', '&#124;')} |")
    return ("### The site was not published: the rules need changing\n\n"
            "The published site stays as it was. Open each file on GitHub, change what the table says, "
            "and commit; the site is published once every check passes.\n\n"
            "| file | where | what to change |\n|---|---|---|\n" + "\n".join(rows) + "\n")


def main(argv=None, more_checks=None) -> int:
    """Check rules/; print what to change. In a GitHub workflow the same words go to the
    job summary ($GITHUB_STEP_SUMMARY), for a Clerk who changed a file on GitHub's pages.
    `more_checks`: a function returning more problems (kit/words/messages.py: the translations)."""
    import os
    import sys
    problems, rules = None, None
    try:
        rules = compile_rules(RULES_DIR)
    except RuleError as exc:
        problems = exc.problems
    more = more_checks() if more_checks else []
    if more:
        problems = (problems or []) + more
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if summary:
        with open(summary, "a", encoding="utf-8") as out:
            out.write(summary_markdown(problems, rules))
    if problems:
        # (the fifth hostile tester: validate said "nothing was built", though it builds nothing)
        print(f"The rules have {len(problems)} problem{'s' if len(problems) > 1 else ''}. Fix each (file:line: "
              "what to change), then run `python3 build.py validate` again:", file=sys.stderr)
        for p in problems:
            print("  " + p, file=sys.stderr)
        return 1
    print(f"rules OK: {len(rules['provisions'])} provisions, {len(rules['parameters'])} parameters, "
          f"{len(rules['interpretations'])} interpretations, {len(rules['schedules'])} rate schedules")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
