"""The permit checker (rules/permits.yaml through calculator/flow.py), tested the
GOV.UK Smart Answers way: each answer's next node, each refused answer, each
outcome's content, the graph's shape, and the law's cases as scenarios."""
import copy
import itertools
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from calculator import flow
from calculator.cli import run, run_json
from calculator.errors import InputError
from calculator.rules import load

ROOT = Path(__file__).resolve().parent.parent
RULES = load()
FLOW = RULES["permits"]
PROVISION_IDS = {p["id"] for p in RULES["provisions"]}
OUTCOMES = ("prohibited", "needs-approval", "permit-required")

# How to reach each question with "harmless" answers (the shortest path to it).
BASE = [("work", "new-connection"), ("street-opening", "no"), ("septic-or-cesspool-link", "no"),
        ("flammables-washstand", "no"), ("steam-exhaust", "no"), ("trade-waste", "no"),
        ("manure-or-cesspool-overflow", "no"), ("garbage-grinder", "no"), ("stormwater", "no"),
        ("industrial-waste", "no")]


def prefix_to(question: str) -> list[tuple[str, str]]:
    follow_up_of = {"oil-separator": "flammables-washstand", "pretreatment": "trade-waste"}
    if question in follow_up_of:
        parent = follow_up_of[question]
        i = [q for q, _ in BASE].index(parent)
        return BASE[:i] + [(parent, "yes")]
    return BASE[:[q for q, _ in BASE].index(question)]


# Each question, each answer, and the node it leads to: the flow written out by hand.
NEXT = {
    ("work", "new-connection"): "street-opening",
    ("work", "alteration"): "street-opening",
    ("work", "repair"): "street-opening",
    ("street-opening", "yes"): "septic-or-cesspool-link",
    ("street-opening", "no"): "septic-or-cesspool-link",
    ("septic-or-cesspool-link", "yes"): "flammables-washstand",
    ("septic-or-cesspool-link", "no"): "flammables-washstand",
    ("flammables-washstand", "yes"): "oil-separator",
    ("flammables-washstand", "no"): "steam-exhaust",
    ("oil-separator", "yes"): "steam-exhaust",
    ("oil-separator", "no"): "steam-exhaust",
    ("steam-exhaust", "yes"): "trade-waste",
    ("steam-exhaust", "no"): "trade-waste",
    ("trade-waste", "yes"): "pretreatment",
    ("trade-waste", "no"): "manure-or-cesspool-overflow",
    ("pretreatment", "yes"): "manure-or-cesspool-overflow",
    ("pretreatment", "no"): "manure-or-cesspool-overflow",
    ("manure-or-cesspool-overflow", "yes"): "garbage-grinder",
    ("manure-or-cesspool-overflow", "no"): "garbage-grinder",
    ("garbage-grinder", "yes"): "stormwater",
    ("garbage-grinder", "no"): "stormwater",
    ("stormwater", "yes"): "industrial-waste",
    ("stormwater", "no"): "industrial-waste",
    ("industrial-waste", "yes"): "permit-required",   # subject to review, not approval (issue 13, finding 4)
    ("industrial-waste", "no"): "permit-required",
}

# The law's cases, independent of the YAML: the answers that make work prohibited,
# and those that need the Town Board's and/or the Commission's approval.
PROHIBITING = {
    ("septic-or-cesspool-link", "yes"): "prohibited-acts.I",
    ("oil-separator", "no"): "prohibited-acts.G",
    ("steam-exhaust", "yes"): "prohibited-acts.F",
    ("pretreatment", "no"): "prohibited-acts.F",
    ("manure-or-cesspool-overflow", "yes"): "prohibited-acts.E",
}
NEEDING_APPROVAL = {
    ("pretreatment", "yes"): "prohibited-acts.F",
    ("stormwater", "yes"): "prohibited-acts.I",
}
ALWAYS_CITES = {"permits", "prohibited-acts.C", "permits.A", "permits.B", "prohibited-acts.D", "house-connections",
                "permits.D", "permits.C.2", "prohibited-acts.I", "prohibited-acts.J"}


def answers_with(**changes) -> list[tuple[str, str]]:
    """BASE with some answers changed (underscores for hyphens), follow-ups inserted after their question."""
    changes = {k.replace("_", "-"): v for k, v in changes.items()}
    out = []
    for q, v in BASE:
        out.append((q, changes.pop(q, v)))
        for follow_up, parent in (("oil-separator", "flammables-washstand"), ("pretreatment", "trade-waste")):
            if q == parent and follow_up in changes:
                out.append((follow_up, changes.pop(follow_up)))
    assert not changes, changes
    return out


def cites(items) -> set[str]:
    return {i["cite"] for i in items}


# ---- each question, each answer --------------------------------------------------

def test_the_table_covers_every_answer_in_the_flow():
    in_yaml = {(q["id"], c["value"]) for q in FLOW["questions"] for c in q["choices"]}
    assert in_yaml == set(NEXT)


def test_the_question_ids_and_values_are_the_contract():
    got = {q["id"]: [c["value"] for c in q["choices"]] for q in FLOW["questions"]}
    assert got["work"] == ["new-connection", "alteration", "repair"]
    for ident, values in got.items():
        if ident != "work":
            assert values == ["yes", "no"], ident


@pytest.mark.parametrize("question,value", sorted(NEXT), ids=[f"{q}={v}" for q, v in sorted(NEXT)])
def test_each_answer_leads_to_its_next_node(question, value):
    expected = NEXT[(question, value)]
    result = flow.evaluate(RULES, prefix_to(question) + [(question, value)])
    if expected in OUTCOMES:
        assert result["next_question"] is None
        assert result["outcome"] == expected
    else:
        assert result["outcome"] is None
        assert result["next_question"]["id"] == expected


@pytest.mark.parametrize("question", [q["id"] for q in FLOW["questions"]])
def test_each_question_is_asked_after_its_prefix(question):
    result = flow.evaluate(RULES, prefix_to(question))
    nq = result["next_question"]
    assert nq["id"] == question
    assert nq["text"] and nq["hint"] and nq["cite"] in PROVISION_IDS
    assert set(nq) == {"id", "text", "hint", "choices", "cite"}
    assert all(set(c) == {"value", "label"} and c["label"] for c in nq["choices"])


@pytest.mark.parametrize("question", [q["id"] for q in FLOW["questions"]])
def test_each_invalid_answer_is_refused_naming_the_valid_ones(question):
    valid = [c["value"] for q in FLOW["questions"] if q["id"] == question for c in q["choices"]]
    with pytest.raises(InputError) as err:
        flow.evaluate(RULES, [(question, "perhaps")])
    message = str(err.value)
    assert "'perhaps'" in message and question in message
    for v in valid:
        assert v in message
    assert err.value.field == question


def test_an_unknown_question_is_refused_naming_the_questions():
    with pytest.raises(InputError) as err:
        flow.evaluate(RULES, [("basement", "yes")])
    message = str(err.value)
    assert "'basement'" in message
    for q in FLOW["questions"]:
        assert q["id"] in message


def test_two_different_answers_to_one_question_are_refused():
    with pytest.raises(InputError, match="answered twice"):
        flow.evaluate(RULES, [("work", "repair"), ("work", "alteration")])


def test_an_answer_not_in_question_equals_answer_form_is_refused():
    with pytest.raises(InputError, match="QUESTION=ANSWER"):
        flow.parse_answer_words(["work"])


def test_answers_are_read_without_regard_to_case_or_spaces():
    result = flow.evaluate(RULES, [(" work ", " Repair "), ("street-opening", "YES")])
    assert [(a["id"], a["value"]) for a in result["answers"]] == [("work", "repair"), ("street-opening", "yes")]


# ---- outcomes ----------------------------------------------------------------------

def test_outcome_ids_and_precedence():
    assert [o["id"] for o in FLOW["outcomes"]] == list(OUTCOMES)
    assert FLOW["precedence"] == ["prohibited", "needs-approval", "permit-required"]


@pytest.mark.parametrize("outcome", OUTCOMES)
def test_each_outcome_has_plain_words_and_cites(outcome):
    o = next(o for o in FLOW["outcomes"] if o["id"] == outcome)
    assert len(o["title"]) > 10 and len(o["summary"]) > 40
    assert o["cites"] and set(o["cites"]) <= PROVISION_IDS


def test_no_answers_asks_the_first_question():
    result = flow.evaluate(RULES, [])
    assert result["outcome"] is None and result["outcome_detail"] is None
    assert result["next_question"]["id"] == "work"
    assert result["answers"] == [] and result["reasons"] == []


def test_every_reason_and_requirement_cites_a_provision_on_every_path():
    for answers in all_complete_paths():
        result = flow.evaluate(RULES, answers)
        for item in result["reasons"] + result["requirements"] + result["explanation"]:
            assert item["text"] and item["cite"] in PROVISION_IDS, item


# ---- the graph ---------------------------------------------------------------------

def all_complete_paths():
    """Every sequence of answers that the flow can take from start to an outcome."""
    questions = {q["id"]: q for q in FLOW["questions"]}

    def walk(node, so_far):
        if node not in questions:
            yield so_far
            return
        for c in questions[node]["choices"]:
            yield from walk(c["next"], so_far + [(node, c["value"])])

    yield from walk(FLOW["start"], [])


def test_the_graph_has_no_problems():
    assert flow.problems(FLOW, RULES["interpretations"]) == []


def test_every_path_ends_in_an_outcome_and_every_node_is_reached():
    outcomes, asked, paths = set(), set(), 0
    for answers in all_complete_paths():
        paths += 1
        result = flow.evaluate(RULES, answers)
        assert result["next_question"] is None
        assert result["outcome"] in OUTCOMES
        assert result["ignored"] == []
        outcomes.add(result["outcome"])
        asked.update(a["id"] for a in result["answers"])
    assert outcomes == set(OUTCOMES)
    assert asked == {q["id"] for q in FLOW["questions"]}
    assert paths == 3 * 2 * 2 * 3 * 2 * 3 * 2 * 2 * 2 * 2


def test_no_cycles_and_follow_ups_only_after_yes():
    questions = {q["id"]: q for q in FLOW["questions"]}
    # Topological order exists: repeatedly remove questions no other question points at.
    edges = {q: {c["next"] for c in questions[q]["choices"] if c["next"] in questions} for q in questions}
    remaining = dict(edges)
    while remaining:
        roots = [q for q in remaining if not any(q in t for t in remaining.values())]
        assert roots, f"cycle among {sorted(remaining)}"
        for r in roots:
            del remaining[r]
    for follow_up, parent in (("oil-separator", "flammables-washstand"), ("pretreatment", "trade-waste")):
        pointing = [(q, c["value"]) for q in questions for c in questions[q]["choices"] if c["next"] == follow_up]
        assert pointing == [(parent, "yes")]


def test_the_graph_checker_can_find_faults():
    broken = copy.deepcopy(FLOW)
    broken["questions"][0]["choices"][0]["next"] = "nowhere"
    assert (["questions", 0, "choices", 0, "next"], ) == tuple(w for w, p in flow.problems(broken) if "nowhere" in p)
    looped = copy.deepcopy(FLOW)
    looped["questions"][-1]["choices"][0]["next"] = "work"
    assert any("loop" in p for _, p in flow.problems(looped))
    orphan = copy.deepcopy(FLOW)
    orphan["questions"].append({"id": "orphan", "text": "?", "hint": "", "cite": "permits",
                                "choices": [{"value": "yes", "label": "Yes", "next": "permit-required"}]})
    assert any("orphan" in p for _, p in flow.problems(orphan))
    unreached = copy.deepcopy(FLOW)
    unreached["outcomes"].append(dict(unreached["outcomes"][0], id="never"))
    unreached["precedence"].append("never")
    assert [p for _, p in flow.problems(unreached)] == [
        "outcome 'never' cannot be reached from any answer; point an answer at it or remove it."]


def test_the_outcome_follows_the_law_on_every_path():
    for answers in all_complete_paths():
        result = flow.evaluate(RULES, answers)
        given = set(answers)
        if given & set(PROHIBITING):
            expected = "prohibited"
        elif given & set(NEEDING_APPROVAL):
            expected = "needs-approval"
        else:
            expected = "permit-required"
        assert result["outcome"] == expected, answers
        reason_cites = cites(result["reasons"])
        for answer in given & (set(PROHIBITING) | set(NEEDING_APPROVAL)):
            assert {**PROHIBITING, **NEEDING_APPROVAL}[answer] in reason_cites, (answer, reason_cites)
        assert ALWAYS_CITES <= cites(result["requirements"])


# ---- scenarios ---------------------------------------------------------------------

def test_a_contractor_connecting_under_a_town_road_needs_a_permit_and_highway_approval():
    result = flow.evaluate(RULES, answers_with(street_opening="yes"))
    assert result["outcome"] == "permit-required"
    assert result["outcome_detail"]["title"].startswith("You need a permit")
    highway = [r for r in result["requirements"] if r["cite"] == "permits.B" and "highway department" in r["text"]]
    assert len(highway) == 1 and highway[0]["question"] == "street-opening"
    assert any("expressly" in r["text"] for r in result["requirements"] if r["cite"] == "permits.B")
    assert any("bond" in r["text"] for r in result["requirements"] if r["cite"] == "permits.B")
    assert any(r["cite"] == "prohibited-acts.C" and "supervision" in r["text"] for r in result["requirements"])


def test_without_a_street_opening_there_is_no_highway_requirement():
    result = flow.evaluate(RULES, BASE)
    assert result["outcome"] == "permit-required"
    assert not any("highway department" in r["text"] for r in result["requirements"])


def test_an_owner_with_a_sump_pump_needs_approval():
    # Issue 13, finding 1: prohibited-acts.I makes the connection unlawful unless the Sewer Inspector
    # has inspected and approved it; the Board's or Commission's approval is needed as well.
    result = flow.evaluate(RULES, answers_with(stormwater="yes"))
    assert result["outcome"] == "needs-approval"
    assert [r["cite"] for r in result["reasons"] if r["question"] == "stormwater"] == ["prohibited-acts.I",
                                                                                      "domestic-sewage"]
    [unlawful] = [r for r in result["reasons"] if r["cite"] == "prohibited-acts.I"]
    assert "unless the Sewer Inspector has inspected and approved" in unlawful["text"]
    assert "no such ban" not in str(RULES["interpretations"]["stormwater-connection"])
    assert any(r["cite"] == "prohibited-acts.I" and "inspect and approve" in r["text"]
               for r in result["requirements"] if r["question"] == "stormwater")
    assert "Town Board" in result["outcome_detail"]["title"]


@pytest.mark.parametrize("answer,cite", sorted(PROHIBITING.items()), ids=[f"{q}={v}" for q, v in sorted(PROHIBITING)])
def test_each_prohibited_act_the_questions_cover_is_prohibited(answer, cite):
    q, v = answer
    changes = {q: v}
    if q == "oil-separator":
        changes["flammables-washstand"] = "yes"
    if q == "pretreatment":
        changes["trade-waste"] = "yes"
    result = flow.evaluate(RULES, answers_with(**changes))
    assert result["outcome"] == "prohibited"
    assert [r["cite"] for r in result["reasons"] if r["question"] == q] == [cite]


def test_a_garage_with_an_oil_separator_needs_the_inspectors_approval_of_it():
    result = flow.evaluate(RULES, answers_with(flammables_washstand="yes", oil_separator="yes"))
    assert result["outcome"] == "permit-required"
    sep = [r for r in result["requirements"] if r["question"] == "oil-separator"]
    assert [r["cite"] for r in sep] == ["prohibited-acts.G"] and "Sewer Inspector" in sep[0]["text"]


def test_treated_trade_waste_needs_approval():
    result = flow.evaluate(RULES, answers_with(trade_waste="yes", pretreatment="yes"))
    assert result["outcome"] == "needs-approval"
    assert cites(r for r in result["requirements"] if r["question"] == "pretreatment") == {"prohibited-acts.F",
                                                                                            "measurements"}


def test_industrial_waste_is_subject_to_review_and_points_to_the_industry_guide():
    # Issue 13, finding 4: "subject to review" (industrial-waste.A), and facilities only where the
    # Board and/or the Commission "has deemed necessary" (pretreatment.A): no approval required up front.
    result = flow.evaluate(RULES, answers_with(industrial_waste="yes"))
    assert result["outcome"] == "permit-required"
    mine = [r for r in result["requirements"] if r["question"] == "industrial-waste"]
    for r in mine:
        if r["cite"] in ("pretreatment.A", "pretreatment.A.1", "pretreatment.A.2", "pretreatment.A.3"):
            assert "deem" in r["text"], r
        if r["cite"] == "pretreatment.A.4":
            assert "Where the Town Board" in r["text"]
    [review] = [r for r in result["reasons"] if r["cite"] == "industrial-waste.A"]
    assert "subject to review" in review["text"]
    assert {"industrial-waste.B", "pretreatment.A", "pretreatment.A.1", "pretreatment.A.2", "pretreatment.A.3",
            "pretreatment.A.4", "pretreatment.E", "pretreatment.B", "pretreatment.C", "pretreatment.D"} <= cites(mine)
    guided = [r for r in mine if "guide" in r]
    assert [g["guide"]["command"] for g in guided] == ["industry"]
    assert guided[0]["cite"] == "pretreatment.E"


def test_a_garbage_grinder_is_allowed_with_the_unground_garbage_warning():
    result = flow.evaluate(RULES, answers_with(garbage_grinder="yes"))
    assert result["outcome"] == "permit-required"
    grinder = [r for r in result["requirements"] if r["question"] == "garbage-grinder"]
    assert [r["cite"] for r in grinder] == ["prohibited-acts.H"] and "unground" in grinder[0]["text"]


def test_every_problem_is_reported_and_the_most_serious_decides():
    result = flow.evaluate(RULES, answers_with(steam_exhaust="yes", stormwater="yes", industrial_waste="yes"))
    assert result["outcome"] == "prohibited"
    assert {"prohibited-acts.F", "domestic-sewage", "industrial-waste.A"} <= cites(result["reasons"])
    assert result["explanation"][-1]["text"].startswith("Result: The work, as described, is not allowed")


@pytest.mark.parametrize("work,cite", [("new-connection", "permits.A"), ("alteration", "permits.A"),
                                       ("repair", "prohibited-acts.B")])
def test_each_kind_of_work_needs_a_permit_for_its_own_reason(work, cite):
    result = flow.evaluate(RULES, answers_with(work=work))
    assert result["outcome"] == "permit-required"
    assert [r["cite"] for r in result["reasons"] if r["question"] == "work"] == [cite]


def test_an_answer_the_flow_does_not_reach_is_ignored_and_listed():
    result = flow.evaluate(RULES, answers_with() + [("oil-separator", "no"), ("pretreatment", "no")])
    assert result["outcome"] == "permit-required"
    assert result["ignored"] == [{"id": "oil-separator", "value": "no"}, {"id": "pretreatment", "value": "no"}]
    assert "oil-separator" not in [a["id"] for a in result["answers"]]


def test_answers_are_reported_in_the_order_asked():
    shuffled = list(reversed(BASE))
    result = flow.evaluate(RULES, shuffled)
    assert [a["id"] for a in result["answers"]] == [q for q, _ in BASE]
    first = result["answers"][0]
    assert first == {"id": "work", "value": "new-connection", "question": "What work do you plan?",
                     "label": "A new connection to the public sewer"}


def test_the_explanation_steps_follow_the_answers_and_cite():
    result = flow.evaluate(RULES, answers_with(stormwater="yes"))
    texts = [s["text"] for s in result["explanation"]]
    assert texts[0] == "What work do you plan? A new connection to the public sewer."
    reading_steps = [s for s in result["explanation"] if s.get("reading") == "stormwater-connection"]
    assert [s["cite"] for s in reading_steps] == ["prohibited-acts.I", "domestic-sewage"]


def test_the_result_is_plain_json():
    result = flow.evaluate(RULES, answers_with(industrial_waste="yes"))
    assert json.loads(json.dumps(result)) == result


# ---- readings and the division between data and code ------------------------------

def _words(s: str) -> str:
    return re.sub(r"\s+", " ", s).strip()


def _named(data, key):
    """Every value of `key` anywhere in the flow."""
    if isinstance(data, dict):
        for k, v in data.items():
            if k == key and isinstance(v, str):
                yield v
            else:
                yield from _named(v, key)
    elif isinstance(data, list):
        for v in data:
            yield from _named(v, key)


READINGS = sorted(set(_named(FLOW, "reading")))


@pytest.mark.parametrize("ident", READINGS)
def test_each_reading_is_an_interpretation_that_quotes_the_law_it_reads(ident):
    reading = RULES["interpretations"][ident]
    provision = next(p for p in RULES["provisions"] if p["id"] == reading["reads"])
    assert _words(reading["text"]) in _words(provision["text"])
    assert reading["chosen"] in reading["options"]


def test_every_reading_the_flow_names_is_one_it_acts_on():
    # a `reading:` label without a `when:` that reads the interpretation would be a switch wired to nothing
    assert set(READINGS) == set(_named(FLOW, "interpretation"))
    assert "readings" not in FLOW


def test_the_engine_holds_no_decisions_of_the_flow():
    # rules["permits"] is where the compiled flow lives, not the provision "permits".
    source = (ROOT / "calculator" / "flow.py").read_text(encoding="utf-8").replace('rules["permits"]', "")
    for q in FLOW["questions"]:
        assert f'"{q["id"]}"' not in source, q["id"]
    for ident in list(OUTCOMES) + sorted(PROVISION_IDS):
        assert f'"{ident}"' not in source, ident
    assert "Sewer Inspector" not in source and "Town Board" not in source


# ---- the command line --------------------------------------------------------------

def cli(*args):
    return subprocess.run([sys.executable, "-m", "calculator", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


def test_cli_permit_gives_the_outcome_as_json():
    argv = ["permit", *itertools.chain.from_iterable(("--answer", f"{q}={v}") for q, v in
                                                     answers_with(street_opening="yes")), "--json"]
    proc = cli(*argv)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["outcome"] == "permit-required" and out["next_question"] is None
    assert {"outcome", "reasons", "requirements", "next_question", "answers", "explanation", "ignored"} <= set(out)


def test_cli_permit_lists_the_questions():
    proc = cli("permit", "--list-questions", "--json")
    assert proc.returncode == 0, proc.stderr
    ids = [q["id"] for q in json.loads(proc.stdout)["questions"]]
    assert ids == [q["id"] for q in FLOW["questions"]]


@pytest.mark.parametrize("args,words", [
    (["--answer", "steam-exhaust=maybe"], ["'maybe'", "yes, no"]),
    (["--answer", "work=demolition"], ["new-connection, alteration, repair"]),
    (["--answer", "basement=yes"], ["'basement'", "work, street-opening"]),
    (["--answer", "work"], ["QUESTION=ANSWER"]),
])
def test_cli_permit_refuses_bad_answers_with_one_line_and_exit_2(args, words):
    proc = cli("permit", *args, "--json")
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr
    for w in words:
        assert w in lines[0]


def test_run_json_for_the_browser():
    ok = json.loads(run_json(["permit", "--answer", "work=repair"]))
    assert ok["ok"] and ok["result"]["next_question"]["id"] == "street-opening"
    bad = json.loads(run_json(["permit", "--answer", "work=maybe"]))
    assert not bad["ok"] and bad["field"] == "work" and "repair" in bad["error"]


def test_run_permit_in_process_matches_the_engine():
    # the command adds only each citation in words (`where`), as it does for every command
    from calculator.explain import with_places
    assert run(["permit", "--answer", "stormwater=yes"]) == with_places(RULES, flow.evaluate(RULES, [("stormwater", "yes")])) | {"lang": "en"}


# ---- issue 13: the legal review --------------------------------------------------------

def test_the_trade_waste_question_quotes_the_law():
    # Finding 11: "acid germicides", not "acids, germicides"; and any sediment trap at all.
    q = next(q for q in FLOW["questions"] if q["id"] == "trade-waste")
    assert "acid germicides" in q["text"] and "acids, germicides" not in q["text"]
    assert q["text"].startswith("Will any sediment trap be connected")
    for item in (r for c in q["choices"] + next(x for x in FLOW["questions"] if x["id"] == "pretreatment")["choices"]
                 for alt in [c, *c.get("alternatives", [])] for r in alt.get("reasons", [])):
        assert "acids, germicides" not in item["text"]


J_HOUSEHOLD = "Put nothing into drains but human waste"


@pytest.mark.parametrize("changes", [dict(industrial_waste="yes"), dict(trade_waste="yes", pretreatment="yes")])
def test_a_trade_or_industrial_discharger_is_not_told_to_put_in_nothing_but_household_waste(changes):
    # Finding 12: the J requirement is conditional on the discharge the same result allows.
    result = flow.evaluate(RULES, answers_with(**changes))
    j = [r for r in result["requirements"] if r["cite"] == "prohibited-acts.J"]
    assert len(j) == 1 and not j[0]["text"].startswith(J_HOUSEHOLD)
    assert j[0]["text"].startswith("Apart from the treated or industrial waste")


def test_a_household_is_told_to_put_in_nothing_but_household_waste():
    j = [r for r in flow.evaluate(RULES, BASE)["requirements"] if r["cite"] == "prohibited-acts.J"]
    assert len(j) == 1 and j[0]["text"].startswith(J_HOUSEHOLD)


def test_a_flipped_reading_changes_the_outcome():
    flipped = copy.deepcopy(RULES)
    flipped["interpretations"]["septic-link"]["chosen"] = "inspector-may-approve"
    assert flow.evaluate(flipped, answers_with(septic_or_cesspool_link="yes"))["outcome"] == "permit-required"
    flipped["interpretations"]["stormwater-connection"]["chosen"] = "prohibited"
    assert flow.evaluate(flipped, answers_with(stormwater="yes"))["outcome"] == "prohibited"


def test_the_checker_refuses_a_when_that_names_no_interpretation():
    broken = copy.deepcopy(FLOW)
    broken["questions"][0]["choices"][0]["alternatives"] = [{"when": {"interpretation": "nothing", "chosen": "x"},
                                                             "next": "permit-required"}]
    assert any("unknown interpretation 'nothing'" in p for _, p in flow.problems(broken, RULES["interpretations"]))
