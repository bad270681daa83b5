"""The permit checker: walk the graph in rules/permits.yaml with a person's answers.

The decisions (which question follows which answer, what each answer adds, how
serious it is) live in the YAML. This module only walks the graph from `start`,
collects the reasons and requirements on the way, and combines the severities
by the YAML's `precedence`. Standard library only: it runs in Pyodide too.
"""
from __future__ import annotations

from .errors import InputError
from .explain import Explanation
from .law import anchor


# ---- the flow as lookups ----------------------------------------------------------

def _flow(rules: dict) -> dict:
    return rules["permits"]


def _questions(flow: dict) -> dict[str, dict]:
    return {q["id"]: q for q in flow["questions"]}


def _outcomes(flow: dict) -> dict[str, dict]:
    return {o["id"]: o for o in flow["outcomes"]}


def public_question(q: dict) -> dict:
    """A question as a page shows it: no flow internals."""
    return {"id": q["id"], "text": q["text"], "hint": q["hint"], "cite": q["cite"],
            "choices": [{"value": c["value"], "label": c["label"]} for c in q["choices"]]}


def questions(rules: dict) -> list[dict]:
    """Every question, in the file's order."""
    return [public_question(q) for q in _flow(rules)["questions"]]


# ---- answers ----------------------------------------------------------------------

def parse_answer_words(words) -> list[tuple[str, str]]:
    """Command-line words QUESTION=ANSWER -> [(QUESTION, ANSWER), ...], in the order given."""
    pairs = []
    for word in words or []:
        ident, sep, value = str(word).partition("=")
        if not sep or not ident.strip() or not value.strip():
            raise InputError(f"Answer {word!r} is not in the form QUESTION=ANSWER; write it like work=new-connection.",
                             "answer")
        pairs.append((ident.strip(), value.strip()))
    return pairs


def check_answers(rules: dict, answers) -> dict[str, str]:
    """Refuse unknown questions, unknown values and conflicting answers; return {question: value}."""
    qs = _questions(_flow(rules))
    pairs = answers.items() if isinstance(answers, dict) else answers
    given: dict[str, str] = {}
    for ident, value in pairs:
        ident, value = str(ident).strip(), str(value).strip()
        q = qs.get(ident)
        if q is None:
            raise InputError(f"Unknown question {ident!r}. The questions are: {', '.join(qs)}.", "answer")
        values = [c["value"] for c in q["choices"]]
        normal = value.lower()
        if normal not in values:
            raise InputError(f"{value!r} is not an answer to question {ident!r}. Answer one of: {', '.join(values)}.",
                             ident)
        if ident in given and given[ident] != normal:
            raise InputError(f"Question {ident!r} was answered twice ({given[ident]} and {normal}). Give one answer.",
                             ident)
        given[ident] = normal
    return given


def _item(item: dict, question: str | None, flow: dict) -> dict:
    out = {"text": item["text"], "cite": item["cite"], "anchor": anchor(item["cite"]), "question": question}
    if "reading" in item:
        out["reading"] = item["reading"]
    if "guide" in item:
        guide = next(g for g in flow["guides"] if g["id"] == item["guide"])
        out["guide"] = {"id": guide["id"], "title": guide["title"], "command": guide["command"], "cite": guide["cite"]}
    return out


# ---- the walk ---------------------------------------------------------------------

def evaluate(rules: dict, answers) -> dict:
    """Walk the flow with these answers (pairs or a dict).

    Returns the outcome (null until every question on the path is answered), the
    reasons and requirements gathered, the next question, the answers used in
    the order asked, the answers ignored (for questions the path does not reach)
    and an explanation."""
    flow = _flow(rules)
    qs, outcomes = _questions(flow), _outcomes(flow)
    given = check_answers(rules, answers)
    ex = Explanation()
    reasons: list[dict] = []
    requirements: list[dict] = []
    severities: list[str] = []
    used: list[dict] = []
    node = flow["start"]
    next_question = None
    while node in qs:
        q = qs[node]
        if node not in given:
            next_question = public_question(q)
            break
        choice = next(c for c in q["choices"] if c["value"] == given[node])
        used.append({"id": node, "value": choice["value"], "question": q["text"], "label": choice["label"]})
        ex.add(f"{q['text']} {choice['label']}.", q["cite"])
        for r in choice.get("reasons", []):
            reasons.append(_item(r, node, flow))
            ex.add(r["text"], r["cite"])
            if "reading" in r:
                ex.steps[-1]["reading"] = r["reading"]
        requirements.extend(_item(r, node, flow) for r in choice.get("requirements", []))
        if "severity" in choice:
            severities.append(choice["severity"])
        node = choice["next"]

    requirements.extend(_item(r, None, flow) for r in flow["always"])
    outcome = None
    if next_question is None:
        reached = severities + [node]
        outcome = min(reached, key=flow["precedence"].index)
        o = outcomes[outcome]
        ex.add(f"Result: {o['title']}. {o['summary']}", o["cites"][0])
    used_ids = {a["id"] for a in used}
    ignored = [{"id": i, "value": v} for i, v in given.items() if i not in used_ids]
    return {
        "command": "permit",
        "outcome": outcome,
        "outcome_detail": ({"id": outcome, "title": outcomes[outcome]["title"],
                            "summary": outcomes[outcome]["summary"], "cites": outcomes[outcome]["cites"]}
                           if outcome else None),
        "reasons": reasons,
        "requirements": requirements,
        "next_question": next_question,
        "answers": used,
        "ignored": ignored,
        "explanation": ex.steps,
    }


# ---- the graph's own soundness (validation reports it at its place in permits.yaml) ----

def problems(flow: dict) -> list[tuple[list, str]]:
    """What is wrong with the graph, each as (where in permits.yaml, what to change):
    dangling or unknown nodes, unreachable questions and outcomes, cycles, unknown
    readings or guides. Empty when sound."""
    out: list[tuple[list, str]] = []
    qs, outcomes = _questions(flow), _outcomes(flow)
    index = {q["id"]: i for i, q in enumerate(flow["questions"])}
    if len(qs) != len(flow["questions"]):
        out.append((["questions"], "two questions share an id; give each question its own id."))
    if set(qs) & set(outcomes):
        out.append((["outcomes"], f"ids used by both a question and an outcome: {sorted(set(qs) & set(outcomes))}; "
                                  f"rename one of each pair."))
    if flow["start"] not in qs:
        out.append((["start"], f"start {flow['start']!r} is not a question; use one of: {', '.join(qs)}."))
    if set(flow["precedence"]) != set(outcomes) or len(flow["precedence"]) != len(outcomes):
        out.append((["precedence"], f"precedence must list every outcome exactly once: {', '.join(outcomes)}."))
    readings = {r["id"]: r for r in flow.get("readings", [])}
    guides = {g["id"] for g in flow["guides"]}
    for i, r in enumerate(flow.get("readings", [])):
        if r["chosen"] not in r["options"]:
            out.append((["readings", i, "chosen"], f"reading {r['id']!r}: chosen {r['chosen']!r} is not one of its "
                                                   f"options ({', '.join(r['options'])}); pick one of them."))

    def check_items(where: list, items: list) -> None:
        for k, item in enumerate(items):
            if item.get("reading") and item["reading"] not in readings:
                out.append(([*where, k, "reading"], f"unknown reading {item['reading']!r}; use one of: "
                                                    f"{', '.join(readings)}."))
            if item.get("guide") and item["guide"] not in guides:
                out.append(([*where, k, "guide"], f"unknown guide {item['guide']!r}; use one of: {', '.join(guides)}."))

    check_items(["always"], flow["always"])
    for qi, q in enumerate(flow["questions"]):
        values = [c["value"] for c in q["choices"]]
        if len(set(values)) != len(values):
            out.append((["questions", qi, "choices"], f"question {q['id']!r}: two answers share a value; "
                                                      f"give each its own."))
        for ci, c in enumerate(q["choices"]):
            if c["next"] not in qs and c["next"] not in outcomes:
                out.append((["questions", qi, "choices", ci, "next"],
                            f"question {q['id']!r}, answer {c['value']!r}: next {c['next']!r} is neither a question "
                            f"nor an outcome. Use a question id or one of the outcomes: {', '.join(outcomes)}."))
            for key in ("reasons", "requirements"):
                check_items(["questions", qi, "choices", ci, key], c.get(key, []))

    # Depth-first from start: every question and outcome reachable, no node revisited on one path.
    reached: set[str] = set()
    seen_cycles: set[tuple] = set()

    def visit(node: str, path: tuple[str, ...]) -> None:
        if node in path:
            loop = path[path.index(node):] + (node,)
            if frozenset(loop) not in seen_cycles:
                seen_cycles.add(frozenset(loop))
                out.append((["questions", index[path[-1]]], f"these questions go round in a loop: "
                                                            f"{' -> '.join(loop)}. Point one of them onward."))
            return
        if node in reached and node not in qs:
            return
        reached.add(node)
        if node in qs:
            for c in qs[node]["choices"]:
                if "severity" in c:  # an answer can decide the outcome without leading to it
                    reached.add(c["severity"])
                visit(c["next"], path + (node,))

    if flow["start"] in qs:
        visit(flow["start"], ())
    for ident in qs:
        if ident not in reached:
            out.append((["questions", index[ident], "id"], f"question {ident!r} cannot be reached from "
                                                           f"{flow['start']!r}; point an answer at it or remove it."))
    for oi, o in enumerate(flow["outcomes"]):
        if o["id"] not in reached and flow["start"] in qs:
            out.append((["outcomes", oi, "id"], f"outcome {o['id']!r} cannot be reached from any answer; "
                                                f"point an answer at it or remove it."))
    return out
