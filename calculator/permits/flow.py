"""The permit checker: walk the graph in rules/permits.yaml with a person's answers.

The decisions (which question follows which answer, what each answer adds, how
serious it is) live in the YAML. This module only walks the graph from `start`,
collects the reasons and requirements on the way, and combines the severities
by the YAML's `precedence`. Where the YAML makes a choice or an item depend on a
recorded interpretation (rules/interpretations/) or on an earlier answer, it says
so with `when:`; `holds` only tests that condition. Standard library only: it
runs in Pyodide too.
"""
from __future__ import annotations

import re
from decimal import Decimal

from ..core.dates import typed
from ..core.errors import InputError
from ..core.explain import Explanation, law_words
from ..core.i18n import SOURCE, _, lang
from ..core import money
from ..core.law import anchor
from ..core.rules import parameter


# ---- the flow as lookups ----------------------------------------------------------

def _flow(rules: dict) -> dict:
    return rules["permits"]


def _questions(flow: dict) -> dict[str, dict]:
    return {q["id"]: q for q in flow["questions"]}


def _outcomes(flow: dict) -> dict[str, dict]:
    return {o["id"]: o for o in flow["outcomes"]}


def hint(rules: dict | None, q: dict) -> str:
    """A question's hint as the chosen readings word it (`hint_alternatives`: the first whose `when` holds)."""
    for alt in q.get("hint_alternatives", []) if rules is not None else []:
        if holds(rules, alt["when"], {}):
            return alt["hint"]
    return q["hint"]


def most_after(flow: dict) -> dict[str, int]:
    """For each question, the most questions any answers can still ask after it (the flow has no loop:
    `problems` refuses one), so a page can say "up to 4 more questions" where the path branches."""
    qs, memo = _questions(flow), {}

    def longest(node: str) -> int:
        if node not in qs:
            return 0
        if node not in memo:
            memo[node] = 0  # guards a loop that validation has not yet refused
            nexts = {c["next"] for c in qs[node]["choices"]} | \
                {a["next"] for c in qs[node]["choices"] for a in c.get("alternatives", []) if "next" in a}
            memo[node] = max((1 + longest(n) if n in qs else 0) for n in nexts)
        return memo[node]
    return {q: longest(q) for q in qs}


def public_question(q: dict, rules: dict | None = None, most: dict[str, int] | None = None) -> dict:
    """A question as a page shows it: no flow internals; its hint as the chosen readings word it; how many
    questions may follow it at most (`most_after`, worked out here unless given as `most`)."""
    out = {"id": q["id"], "text": q["text"], "hint": hint(rules, q), "cite": q["cite"],
           "choices": [{"value": c["value"], "label": c["label"]} for c in q["choices"]]}
    if rules is not None:
        out["most_after"] = (most or most_after(_flow(rules)))[q["id"]]
    if "reading" in q:  # the hint's words rest on a recorded reading (rules/interpretations/)
        out["reading"] = q["reading"]
    if rules is not None and "provisions" in rules:  # its provision as a reader names it, in her language
        out["law"] = law_words(rules, q["cite"], set())
    return out


def questions(rules: dict) -> list[dict]:
    """Every question, in the file's order."""
    most = most_after(_flow(rules))  # once for the list, not once a question
    return [public_question(q, rules, most) for q in _flow(rules)["questions"]]


# ---- answers ----------------------------------------------------------------------

def parse_answer_words(words) -> list[tuple[str, str]]:
    """Command-line words QUESTION=ANSWER -> [(QUESTION, ANSWER), ...], in the order given."""
    pairs = []
    for word in words or []:
        ident, sep, value = str(word).partition("=")
        if not sep or not ident.strip() or not value.strip():
            raise InputError(_("Answer {answer} is not in the form QUESTION=ANSWER; write it like "
                               "work=new-connection.").format(answer=typed(word)), "answer")
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
            # each question's code with its words (the Spanish reviewer, spanish21: codes alone are English)
            raise InputError(_("Unknown question {question}. The questions are: {questions}.").format(
                question=typed(ident), questions="; ".join(f"{k} ({q['text'].strip()})" for k, q in qs.items())),
                "answer")
        values = [c["value"] for c in q["choices"]]
        normal = value.lower()
        if normal not in values:
            # the question in words too, not by its code alone (the Spanish reviewer, spanish20: «work»)
            raise InputError(_("{value} is not an answer to question {question} ({text}). Answer one of: "
                               "{values}.").format(value=typed(value), question=typed(ident), text=q["text"].strip(),
                                                   values=_codes(q["choices"])), ident)
        if ident in given and given[ident] != normal:
            raise InputError(_("Question {question} was answered twice ({first} and {second}). Give one "
                               "answer.").format(question=typed(ident), first=given[ident], second=normal), ident)
        given[ident] = normal
    return given


def _codes(choices: list) -> str:
    """An answer's codes as a person types them, each with its meaning in the reader's language where the
    code's English words are not (spanish7 B4: "new-connection (una conexión nueva al alcantarillado
    público); alteration (…)"): the answer's label without its own asides, and none where it only repeats
    the code ("no")."""
    if lang() == SOURCE:
        return ", ".join(c["value"] for c in choices)
    said = []
    for c in choices:
        label = re.sub(r" \([^()]*\)", "", c["label"])
        label = label[:1].lower() + label[1:] if label[1:2].islower() else label
        said.append(c["value"] if label.lower() == c["value"] else f"{c['value']} ({label})")
    return "; ".join(said)


# ---- conditions (`when:`) ---------------------------------------------------------

def holds(rules: dict, when: dict | None, answers: dict[str, str]) -> bool:
    """Whether a `when:` condition holds: an interpretation's chosen option, an answer
    given on the way, or all/any/not of such conditions. No condition always holds."""
    if when is None:
        return True
    if "all" in when:
        return all(holds(rules, w, answers) for w in when["all"])
    if "any" in when:
        return any(holds(rules, w, answers) for w in when["any"])
    if "not" in when:
        return not holds(rules, when["not"], answers)
    if "interpretation" in when:
        return rules["interpretations"][when["interpretation"]]["chosen"] in _listed(when["chosen"])
    return answers.get(when["answer"]) in _listed(when["is"])


def _listed(value) -> list[str]:
    return value if isinstance(value, list) else [value]


def effective_choice(rules: dict, choice: dict, answers: dict[str, str]) -> dict:
    """A choice with its first alternative whose `when` holds laid over it."""
    for alt in choice.get("alternatives", []):
        if holds(rules, alt["when"], answers):
            return {**choice, **{k: v for k, v in alt.items() if k != "when"}}
    return choice


def _item(item: dict, question: str | None, flow: dict) -> dict:
    out = {"text": item["text"], "cite": item["cite"], "anchor": anchor(item["cite"]), "question": question}
    if "stage" in item:
        out["stage"] = item["stage"]
    if "reading" in item:
        out["reading"] = item["reading"]
    if "guide" in item:
        guide = next(g for g in flow["guides"] if g["id"] == item["guide"])
        out["guide"] = {"id": guide["id"], "title": guide["title"], "command": guide["command"], "cite": guide["cite"]}
    return out


def _verdict(flow: dict, outcomes: dict, question: str, choice: dict, reading: str | None = None) -> dict:
    """A choice's line of the result: its words, and what the law says of it. A severity the
    choice sets, or an outcome it leads to, says it; short of those, the choice's own `says`
    (or the least serious outcome's). `reading`: the interpretation the choice's reasons rest on,
    if any; the line then says it is this site's reading (the Spanish reviewer, 33e: the sump-pump
    and pool lines were the site's readings, unlabelled, while the garage line said so)."""
    v = choice["verdict"]
    least = flow["precedence"][-1]
    status = choice.get("severity") or (choice["next"] if choice["next"] in outcomes else least)
    says = v["says"] if status == least and "says" in v else outcomes[status]["says"]
    text = _("{verdict} (this site's reading)").format(verdict=v["text"]) if reading else v["text"]
    line = {"question": question, "value": choice["value"], "text": text, "says": says,
            "outcome": status, "cite": v["cite"], "anchor": anchor(v["cite"])}
    if reading:
        line["reading"] = reading
    for key in ("item", "note"):  # the headline's words, and the readings behind it (issue 34)
        if key in v:
            line[key] = v[key]
    return line


def _headlines(outcome: dict, verdicts: list[dict]) -> list[dict]:
    """The result's headline, one for each answer that leads to the outcome and names its `item`
    ("Connecting a sump pump … to the sewer is not allowed"), where the outcome words one: the
    thing that fails, in plain words, and not only the provision's heading (issue 34: the
    contractor read "Septic tanks, cesspools and privy vaults" when his sump pump was the reason).
    One resting on a reading says so in its words, and carries the reading and its `note` (the
    site's reading and the other one) for the page to show right under it."""
    out = []
    for v in verdicts:
        if "headline" not in outcome or v["outcome"] != outcome["id"] or "item" not in v:
            continue
        text = _("{item} {predicate}").format(item=v["item"], predicate=outcome["headline"])
        line = {"text": _("{verdict} (this site's reading)").format(verdict=text) if "reading" in v else text,
                "question": v["question"], "cite": v["cite"], "anchor": v["anchor"]}
        if "reading" in v:
            line["reading"] = v["reading"]
            line["note"] = v.get("note") or _("This is this site's reading of the law. The Town has not adopted it.")
        out.append(line)
    return out


def fee(rules: dict) -> dict:
    """The application fee, with its status (illustrative until the Clerk enters the real one): the form's
    (rules/application-form.yaml), which the checker's result states too (application.fee is this one)."""
    f = rules["application_form"]["fee"]
    p = rules["parameters"][f["parameter"]]
    amount = Decimal(parameter(rules, f["parameter"]))
    status = p.get("status", "adopted")
    return {"label": f["label"], "amount": money.text(amount), "dollars": money.dollars(amount),
            "status": status, "note": f["illustrative_note"] if status == "illustrative" else None,
            "text": f["text"], "cite": f["cite"], "parameter": f["parameter"]}


def _fee(rules: dict) -> dict | None:
    """The application fee as the form states it (rules/application-form.yaml), marked illustrative while it is."""
    if "application_form" not in rules:
        return None
    return fee(rules)


def _staged(flow: dict, requirements: list[dict]) -> list[dict]:
    """The requirements under the flow's `stages` headings, in their order: only stages with some."""
    return [{"id": st["id"], "title": st["title"], "requirements": [r for r in requirements if r.get("stage") == st["id"]]}
            for st in flow["stages"] if any(r.get("stage") == st["id"] for r in requirements)]


# ---- the walk ---------------------------------------------------------------------

def evaluate(rules: dict, answers) -> dict:
    """Walk the flow with these answers (pairs or a dict).

    Returns the outcome (null until every question on the path is answered), one
    verdict line for each answer that engages the law, the reasons and requirements
    gathered (the requirements also under the flow's `stages`), the provisions the
    outcome rests on among those the answers engaged, the permit holder's rights (for an outcome
    that shows them), the next question, the answers used in
    the order asked, the answers ignored (for questions the path does not reach)
    and an explanation."""
    flow = _flow(rules)
    qs, outcomes = _questions(flow), _outcomes(flow)
    given = check_answers(rules, answers)
    ex = Explanation()
    reasons: list[dict] = []
    requirements: list[dict] = []
    verdicts: list[dict] = []
    severities: list[str] = []
    used: list[dict] = []
    node = flow["start"]
    next_question = None
    while node in qs:
        q = qs[node]
        if node not in given:
            next_question = public_question(q, rules)
            break
        so_far = {a["id"]: a["value"] for a in used} | {node: given[node]}
        choice = effective_choice(rules, next(c for c in q["choices"] if c["value"] == given[node]), so_far)
        used.append({"id": node, "value": choice["value"], "question": q["text"], "label": choice["label"]})
        ex.add(_("{question} {answer}.").format(question=q["text"], answer=choice["label"]), q["cite"])
        if "verdict" in choice:
            readings = [r["reading"] for r in choice.get("reasons", []) if "reading" in r and holds(rules, r.get("when"), so_far)]
            verdicts.append(_verdict(flow, outcomes, node, choice, readings[0] if readings else None))
        for r in choice.get("reasons", []):
            if not holds(rules, r.get("when"), so_far):
                continue
            reasons.append(_item(r, node, flow))
            ex.add(r["text"], r["cite"])
            if "reading" in r:
                ex.steps[-1]["reading"] = r["reading"]
        requirements.extend(_item(r, node, flow) for r in choice.get("requirements", [])
                            if holds(rules, r.get("when"), so_far))
        if "severity" in choice:
            severities.append(choice["severity"])
        node = choice["next"]

    on_path = {a["id"]: a["value"] for a in used}
    always = [r for r in flow["always"] if holds(rules, r.get("when"), on_path)]
    requirements.extend(_item(r, None, flow) for r in always)
    # whether the result asks for plans: the page says to file the application "with your plans" only
    # then (the fifth Spanish review, item 3: tearing down needs a permit, not plans, as this site reads it)
    plans = any(r.get("plans") for r in always)
    outcome = None
    cites: list[str] = []
    rights: list[dict] = []
    headlines: list[dict] = []
    inspections: list[dict] = []
    fee = None
    summary, by_reading, title = None, False, None
    if next_question is None:
        reached = severities + [node]
        outcome = min(reached, key=flow["precedence"].index)
        o = outcomes[outcome]
        # the provisions of the answers that lead to this outcome; the outcome's own when none does
        cites = list(dict.fromkeys(v["cite"] for v in verdicts if v["outcome"] == outcome)) or list(o["cites"])
        # an outcome every answer behind it reaches only by this site's reading says so, and not
        # "the law forbids" (the usability test, Tony: the sump pump's headline said "this site's reading",
        # its next sentence that the law forbids it and no permit could be had)
        leading = [v for v in verdicts if v["outcome"] == outcome]
        by_reading = bool(leading) and all("reading" in v for v in leading)
        summary = o["summary_reading"] if by_reading and "summary_reading" in o else o["summary"]
        # the title where a `titles` entry's condition holds (a road opened: the highway department too)
        title = next((t["title"] for t in o.get("titles", []) if holds(rules, t["when"], on_path)), o["title"])
        ex.add(_("Result: {title}. {summary}").format(title=title, summary=summary), cites[0])
        headlines = _headlines(o, verdicts)
        if o.get("rights"):
            rights = [_item(r, None, flow) for r in flow.get("rights", []) if holds(rules, r.get("when"), on_path)]
            # work that can get a permit: its fee and inspections, in the result itself (issue 34)
            inspections = [_item(r, None, flow) for r in flow.get("inspections", []) if holds(rules, r.get("when"), on_path)]
            if any(r.get("fee") for r in always):
                fee = _fee(rules)
                if fee is not None:
                    fee = {**fee, "anchor": anchor(fee["cite"])}
    used_ids = {a["id"] for a in used}
    ignored = [{"id": i, "value": v} for i, v in given.items() if i not in used_ids]
    # said in words too, with each question's own (spanish15 #2: the list of codes alone, with no message, in Spanish)
    ignored_note = (_("Not used: {answers}. The answers before them lead to other questions, or a question before "
                      "them has no answer yet.").format(answers="; ".join(
                          f"{qs[i]['text']} ({typed(i)})" if i in qs else typed(i) for i in (a["id"] for a in ignored)))
                    if ignored else None)
    stages = _staged(flow, requirements)
    # each provision the result links to, in the reader's words (explain.law_words), the articles
    # named in full the first time the result names them, in the order the page shows them
    said: set[str] = set()
    cites_law = [law_words(rules, c, said) for c in cites]
    for item in [*headlines, *verdicts, *(r for st in stages for r in st["requirements"]), *requirements, *reasons,
                 *inspections, *rights, *([fee] if fee else [])]:
        if "law" not in item:
            item["law"] = law_words(rules, item["cite"], said)
    return {
        "command": "permit",
        "outcome": outcome,
        "outcome_detail": ({"id": outcome, "title": title,
                            "summary": summary, "by_reading": by_reading, "cites": cites, "law": cites_law,
                            "headlines": headlines, "fee": fee, "inspections": inspections}
                           if outcome else None),
        "verdicts": verdicts,
        "reasons": reasons,
        "requirements": requirements,
        "plans": plans,
        "stages": stages,
        "rights": rights,
        "next_question": next_question,
        "answers": used,
        "ignored": ignored,
        "ignored_note": ignored_note,
        "explanation": ex.steps,
    }


# ---- the graph's own soundness (validation reports it at its place in permits.yaml) ----

def problems(flow: dict, interpretations: dict | None = None) -> list[tuple[list, str]]:
    """What is wrong with the graph, each as (where in permits.yaml, what to change):
    dangling or unknown nodes, unreachable questions and outcomes, loops, unknown
    guides; with the interpretations, also unknown interpretations or options named in
    `reading` and `when`. Empty when sound."""
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
    guides = {g["id"] for g in flow["guides"]}
    stages = [st["id"] for st in flow.get("stages", [])]

    def check_when(when, where: list) -> None:
        if when is None:
            return
        for key in ("all", "any"):
            for k, w in enumerate(when.get(key, [])):
                check_when(w, [*where, key, k])
        if "not" in when:
            check_when(when["not"], [*where, "not"])
        if "answer" in when:
            q = qs.get(when["answer"])
            if q is None:
                out.append(([*where, "answer"], f"`when` names the unknown question {when['answer']!r}; "
                                                f"use one of: {', '.join(qs)}."))
            else:
                values = [c["value"] for c in q["choices"]]
                for v in _listed(when["is"]):
                    if v not in values:
                        out.append(([*where, "is"], f"{v!r} is not an answer to {when['answer']!r}; "
                                                    f"use one of: {', '.join(values)}."))
        if "interpretation" in when and interpretations is not None:
            i = interpretations.get(when["interpretation"])
            if i is None:
                out.append(([*where, "interpretation"], f"unknown interpretation {when['interpretation']!r}; "
                                                        f"use a file name from rules/interpretations/."))
            else:
                for v in _listed(when["chosen"]):
                    if v not in i["options"]:
                        out.append(([*where, "chosen"], f"{v!r} is not an option of interpretation {i['id']!r}; "
                                                        f"use one of: {', '.join(i['options'])}."))

    def check_item(item: dict, where: list, requirement: bool = False) -> None:
        if requirement and item.get("stage") not in stages:
            out.append(([*where, "stage"] if "stage" in item else where,
                        f"a requirement needs a stage, one of: {', '.join(stages)}."))
        if not requirement and "stage" in item:
            out.append(([*where, "stage"], "only a requirement has a stage; remove it."))
        if item.get("reading") and interpretations is not None and item["reading"] not in interpretations:
            out.append(([*where, "reading"], f"unknown interpretation {item['reading']!r} in reading; "
                                             f"use a file name from rules/interpretations/."))
        if item.get("guide") and item["guide"] not in guides:
            out.append(([*where, "guide"], f"unknown guide {item['guide']!r}; use one of: {', '.join(guides)}."))
        check_when(item.get("when"), [*where, "when"])

    for key in ("always", "rights", "inspections"):
        for k, item in enumerate(flow.get(key, [])):
            check_item(item, [key, k], requirement=key == "always")
    headlined = {o["id"] for o in flow["outcomes"] if "headline" in o}
    for qi, q in enumerate(flow["questions"]):
        if q.get("reading") and interpretations is not None and q["reading"] not in interpretations:
            out.append((["questions", qi, "reading"], f"unknown interpretation {q['reading']!r} in reading; "
                                                      f"use a file name from rules/interpretations/."))
        for ai, alt in enumerate(q.get("hint_alternatives", [])):
            check_when(alt["when"], ["questions", qi, "hint_alternatives", ai, "when"])
        values = [c["value"] for c in q["choices"]]
        if len(set(values)) != len(values):
            out.append((["questions", qi, "choices"], f"question {q['id']!r}: two answers share a value; "
                                                      f"give each its own."))
        for ci, c in enumerate(q["choices"]):
            here = ["questions", qi, "choices", ci]
            variants = [(c, here), *((a, [*here, "alternatives", ai]) for ai, a in enumerate(c.get("alternatives", [])))]
            for variant, where in variants:
                check_when(variant.get("when"), [*where, "when"])
                # an answer that can lead to an outcome with a headline names its thing for it
                verdict = variant.get("verdict") or c.get("verdict")
                leads = {variant.get("severity"), variant.get("next")} & headlined
                if leads and verdict is not None and "item" not in verdict:
                    out.append(([*where, "verdict"] if "verdict" in variant else [*here, "verdict"],
                                f"question {q['id']!r}, answer {c['value']!r}: the outcome {sorted(leads)[0]!r} "
                                f"names the thing that fails in its headline; give the verdict an `item`, like "
                                f"\"Connecting a sump pump to the sewer\"."))
                if "next" in variant and variant["next"] not in qs and variant["next"] not in outcomes:
                    out.append(([*where, "next"],
                                f"question {q['id']!r}, answer {c['value']!r}: next {variant['next']!r} is neither a "
                                f"question nor an outcome. Write one of the questions ({', '.join(qs)}) or of the "
                                f"outcomes ({', '.join(outcomes)})."))
                for key in ("reasons", "requirements"):
                    for k, item in enumerate(variant.get(key, [])):
                        check_item(item, [*where, key, k], requirement=key == "requirements")

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
                for variant in (c, *c.get("alternatives", [])):
                    if "severity" in variant:  # an answer can decide the outcome without leading to it
                        reached.add(variant["severity"])
                for nxt in sorted({c["next"], *(a["next"] for a in c.get("alternatives", []) if "next" in a)}):
                    visit(nxt, path + (node,))

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
