"""The permit checker (rules/permits.yaml through calculator/permits/flow.py), tested the
GOV.UK Smart Answers way: each answer's next node, each refused answer, each
outcome's content, the graph's shape, and the law's cases as scenarios."""
import copy
import functools
import itertools
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from calculator.permits import flow
from calculator.cli import run, run_json
from calculator.core.errors import InputError
from calculator.core.rules import load
from checks import each_holds

ROOT = Path(__file__).resolve().parent.parent
RULES = load()
FLOW = RULES["permits"]
PROVISION_IDS = {p["id"] for p in RULES["provisions"]}
OUTCOMES = ("prohibited", "needs-approval", "permit-required")

# How to reach each question with "harmless" answers (the shortest path to it).
BASE = [("work", "new-connection"), ("street-opening", "no"), ("septic-or-cesspool-link", "no"),
        ("flammables-washstand", "no"), ("steam-exhaust", "no"), ("trade-waste", "no"),
        ("manure-or-cesspool-overflow", "no"), ("garbage-grinder", "no"), ("stormwater", "no"), ("other-water", "no"),
        ("industrial-waste", "no"), ("sewer-pipe", "no")]


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
    ("work", "uncover-sewer"): "sewer-pipe",          # issue 17, finding 14: work that is not a connection
    ("work", "septic-system"): "street-opening",      # issue 17, finding 1; issue 34, item 12: its own questions
    ("work", "demolition"): "sewer-pipe",             # the lawyer's minor item: abandoning a house sewer
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
    ("stormwater", "yes"): "other-water",
    ("stormwater", "no"): "other-water",
    ("other-water", "yes"): "industrial-waste",      # the lawyer's item 10: pool, backwash, cooling water
    ("other-water", "no"): "industrial-waste",
    ("industrial-waste", "yes"): "sewer-pipe",   # subject to review, not approval (issue 13, finding 4)
    ("industrial-waste", "no"): "sewer-pipe",
    ("industrial-waste", "business-sewage-only"): "sewer-pipe",   # item 8: a restaurant's or an office's sewage
    ("sewer-pipe", "yes"): "prohibited",         # prohibited-acts.D: no permit for it
    ("sewer-pipe", "no"): "permit-required",
}

# The law's cases, independent of the YAML: the answers that make work prohibited,
# and those that need the Town Board's and/or the Commission's approval.
PROHIBITING = {
    ("septic-or-cesspool-link", "yes"): "prohibited-acts.I",
    ("stormwater", "yes"): "prohibited-acts.I",       # issue 17, finding 2
    ("sewer-pipe", "yes"): "prohibited-acts.D",       # issue 17, finding 14
    ("oil-separator", "no"): "prohibited-acts.G",
    ("steam-exhaust", "yes"): "prohibited-acts.F",
    ("pretreatment", "no"): "prohibited-acts.F",
    ("manure-or-cesspool-overflow", "yes"): "prohibited-acts.E",
}
NEEDING_APPROVAL = {
    ("other-water", "yes"): "domestic-sewage",        # not domestic sewage: the Board's specific approval
    ("pretreatment", "yes"): "prohibited-acts.F",
    ("oil-separator", "yes"): "prohibited-acts.F",    # issue 17, finding 16: act F as well as act G
}
# What every permit requires, by the kind of work (issue 17: a septic system and work that only
# uncovers the sewer are not connections, so the connection's requirements are not theirs).
ALWAYS_CITES = {
    "connection": {"permits", "prohibited-acts.C", "permits.A", "permits.B", "prohibited-acts.D", "house-connections",
                   "permits.D", "permits.C.2", "prohibited-acts.I", "prohibited-acts.J", "rents.C.2"},
    "septic-system": {"permits", "permits.A", "permits.B", "permits.D", "permits.C.2"},
    "uncover-sewer": {"permits.A", "permits.B", "permits.D", "prohibited-acts.J", "permits.C.2"},
    # tearing down: the permit to uncover the connection and cap it, not plans (the sewer-abandonment reading)
    "demolition": {"permits.A", "permits.B", "permits.D", "prohibited-acts.J", "permits.C.2"},
}
CONNECTION_ONLY = {"prohibited-acts.C", "prohibited-acts.D", "house-connections", "prohibited-acts.I", "rents.C.2"}
RIGHTS_CITES = ["permits.C", "permits.C.1", "permits.D"]


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
    assert got["work"] == ["new-connection", "alteration", "repair", "uncover-sewer", "demolition", "septic-system"]
    assert got["industrial-waste"] == ["yes", "business-sewage-only", "no"]
    for ident, values in got.items():
        if ident not in ("work", "industrial-waste"):
            assert values == ["yes", "no"], ident


@pytest.mark.parametrize("question,value", sorted(NEXT), ids=[f"{q}={v}" for q, v in sorted(NEXT)])
def test_each_answer_leads_to_its_next_node(question, value):
    expected = NEXT[(question, value)]
    result = flow.evaluate(RULES, prefix_to(question) + [(question, value)])
    if expected in OUTCOMES:
        assert result["next_question"] is None
        q = next(q for q in FLOW["questions"] if q["id"] == question)
        choice = flow.effective_choice(RULES, next(c for c in q["choices"] if c["value"] == value), {})
        assert choice["next"] == expected
        # the answer's own severity may make the outcome more serious than the node it leads to
        assert result["outcome"] == min([expected, *([choice["severity"]] if "severity" in choice else [])],
                                        key=FLOW["precedence"].index)
    else:
        assert result["outcome"] is None
        assert result["next_question"]["id"] == expected


@pytest.mark.parametrize("question", [q["id"] for q in FLOW["questions"]])
def test_each_question_is_asked_after_its_prefix(question):
    result = flow.evaluate(RULES, prefix_to(question))
    nq = result["next_question"]
    assert nq["id"] == question
    assert nq["text"] and nq["hint"] and nq["cite"] in PROVISION_IDS
    assert set(nq) == {"id", "text", "hint", "choices", "cite", "law", "most_after"} | \
        ({"reading"} if "reading" in nq else set())
    # its provision as a reader names it, as a result's reasons do (explain.law_words; issue 33: the live
    # checker printed the English citation where the page without JavaScript says it in Spanish)
    from calculator.core.explain import law_words
    assert nq["law"] == law_words(RULES, nq["cite"], set()) and nq["law"]["words"]
    assert all(set(c) == {"value", "label"} and c["label"] for c in nq["choices"])


@pytest.mark.parametrize("question", [q["id"] for q in FLOW["questions"]])
def test_each_invalid_answer_is_refused_naming_the_valid_ones(question):
    valid = [c["value"] for q in FLOW["questions"] if q["id"] == question for c in q["choices"]]
    with pytest.raises(InputError) as err:
        flow.evaluate(RULES, [(question, "perhaps")])
    message = str(err.value)
    assert "“perhaps”" in message and question in message
    for v in valid:
        assert v in message
    assert err.value.field == question


def test_an_unknown_question_is_refused_naming_the_questions():
    with pytest.raises(InputError) as err:
        flow.evaluate(RULES, [("basement", "yes")])
    message = str(err.value)
    assert "“basement”" in message
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


def test_every_path_of_the_checker():
    """Every complete path through the questions (evaluated_paths: 20,746 answers worked out once): each reason
    and requirement cites a provision, each path ends in an outcome and every question is reached, the outcome
    follows the law, and each outcome lists the provisions that lead to it. One test, not four (tests/checks.py)."""
    each_holds((every_reason_and_requirement_cites_a_provision_on_every_path,
                every_path_ends_in_an_outcome_and_every_node_is_reached,
                the_outcome_follows_the_law_on_every_path,
                each_outcome_lists_the_provisions_that_lead_to_it))


def every_reason_and_requirement_cites_a_provision_on_every_path():
    for answers, result in evaluated_paths():
        for item in result["reasons"] + result["requirements"] + result["explanation"]:
            assert item["text"] and item["cite"] in PROVISION_IDS, item


# ---- the graph ---------------------------------------------------------------------

@functools.lru_cache(maxsize=1)
def evaluated_paths() -> tuple:
    """(answers, the engine's result) for every complete path, worked out once for the tests that read
    them all (the tests only read the results)."""
    return tuple((answers, flow.evaluate(RULES, answers)) for answers in all_complete_paths())


def all_complete_paths():
    """Every sequence of answers that the flow can take from start to an outcome."""
    questions = {q["id"]: q for q in FLOW["questions"]}

    def walk(node, so_far):
        if node not in questions:
            yield so_far
            return
        for c in questions[node]["choices"]:  # each answer's next node as its alternatives lay it (a septic system's)
            answers = so_far + [(node, c["value"])]
            yield from walk(flow.effective_choice(RULES, c, dict(answers))["next"], answers)

    yield from walk(FLOW["start"], [])


def test_the_graph_has_no_problems():
    assert flow.problems(FLOW, RULES["interpretations"]) == []


def every_path_ends_in_an_outcome_and_every_node_is_reached():
    outcomes, asked, paths = set(), set(), 0
    for answers, result in evaluated_paths():
        paths += 1
        assert result["next_question"] is None
        assert result["outcome"] in OUTCOMES
        assert result["ignored"] == []
        outcomes.add(result["outcome"])
        asked.update(a["id"] for a in result["answers"])
    assert outcomes == set(OUTCOMES)
    assert asked == {q["id"] for q in FLOW["questions"]}
    # the three kinds of connection work through every question (industrial waste has three answers);
    # work that only uncovers the sewer, and tearing down (abandoning a house sewer), through sewer-pipe;
    # a septic system through the road and the garage's drains only (issue 34, item 12): 2 × (1 + 2)
    assert paths == 3 * 2 * 2 * 3 * 2 * 3 * 2 * 2 * 2 * 2 * 3 * 2 + 2 + 2 + 2 * 3


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


def the_outcome_follows_the_law_on_every_path():
    for answers, result in evaluated_paths():
        given = set(answers)
        if ("work", "septic-system") in given:  # act F is about what reaches the public sewer: not a septic system's
            given -= {("oil-separator", "yes")}
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
        work = dict(answers)["work"]
        kind = work if work in ALWAYS_CITES else "connection"
        got = {r["cite"] for r in result["requirements"] if r["question"] is None}
        assert ALWAYS_CITES[kind] <= got, (kind, ALWAYS_CITES[kind] - got)
        if kind != "connection":
            assert not CONNECTION_ONLY & got, (kind, CONNECTION_ONLY & got)
        # the permit holder's rights (issue 17, finding 6) with every outcome that gives a permit
        assert [r["cite"] for r in result["rights"]] == ([] if expected == "prohibited" else RIGHTS_CITES)


# ---- scenarios ---------------------------------------------------------------------

def test_a_contractor_connecting_under_a_town_road_needs_a_permit_and_highway_approval():
    result = flow.evaluate(RULES, answers_with(street_opening="yes"))
    assert result["outcome"] == "permit-required"
    assert result["outcome_detail"]["title"].startswith("You need a permit")
    highway = [r for r in result["requirements"] if r["cite"] == "permits.B" and "highway department" in r["text"]]
    assert len(highway) == 1 and highway[0]["question"] == "street-opening"
    assert any("allows the road or pavement work" in r["text"] for r in result["requirements"] if r["cite"] == "permits.B")
    assert any("bond" in r["text"] for r in result["requirements"] if r["cite"] == "permits.B")
    assert any(r["cite"] == "prohibited-acts.C" and "supervision" in r["text"] for r in result["requirements"])


def test_without_a_street_opening_there_is_no_highway_requirement():
    result = flow.evaluate(RULES, BASE)
    assert result["outcome"] == "permit-required"
    assert not any("highway department" in r["text"] for r in result["requirements"])


def test_an_owner_with_a_footing_drain_or_sump_pump_is_told_it_is_not_allowed():
    # Issue 17, finding 2 (this test said "needs approval" before, issue 13's reading): a footing
    # drain or a sump pump is an "underground drain" or a "channel conveying water", not one of
    # the "soil pipes and other plumbing works" the Inspector may approve (prohibited-acts.I);
    # the Board's general power to approve other connections (domestic-sewage) does not lift it.
    assert RULES["interpretations"]["stormwater-connection"]["chosen"] == "prohibited"
    result = flow.evaluate(RULES, answers_with(stormwater="yes"))
    assert result["outcome"] == "prohibited"
    [ban] = [r for r in result["reasons"] if r["question"] == "stormwater"]
    assert ban["cite"] == "prohibited-acts.I" and ban["reading"] == "stormwater-connection"
    assert "underground drain" in ban["text"] and "not plumbing works" in ban["text"]
    assert not [r for r in result["requirements"] if r["question"] == "stormwater"]
    q = next(q for q in FLOW["questions"] if q["id"] == "stormwater")
    for word in ("roof leader", "yard", "footing drain", "sump pump"):
        assert word in q["text"], word


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


def test_a_garage_with_an_oil_separator_needs_the_inspector_and_the_board():
    # Issue 17, finding 16 (this test said "permit required", act G alone, before): the drain
    # carries gasoline or oil, so act F applies as well as act G (rules/interpretations/garage-drain.yaml).
    result = flow.evaluate(RULES, answers_with(flammables_washstand="yes", oil_separator="yes"))
    assert result["outcome"] == "needs-approval"
    sep = [r for r in result["requirements"] if r["question"] == "oil-separator"]
    assert [r["cite"] for r in sep] == ["prohibited-acts.G", "prohibited-acts.F"]
    assert "Sewer Inspector" in sep[0]["text"] and "Town Board" in sep[1]["text"]
    [why] = [r for r in result["reasons"] if r["question"] == "oil-separator"]
    assert why["cite"] == "prohibited-acts.F" and why["reading"] == "garage-drain"


def test_the_garage_drains_approval_by_the_board_cites_act_f_not_act_g():
    # the Spanish review (item 2): the result's "needs approval" line and its law link named act G,
    # which asks only for the Sewer Inspector's approval; the Board's is act F's, as this site reads it
    result = flow.evaluate(RULES, answers_with(flammables_washstand="yes", oil_separator="yes"))
    [line] = [v for v in result["verdicts"] if v["question"] == "oil-separator"]
    assert line["outcome"] == "needs-approval" and line["cite"] == "prohibited-acts.F"
    assert "this site's reading" in line["text"]
    assert result["outcome_detail"]["cites"] == ["prohibited-acts.F"]


def each_outcome_lists_the_provisions_that_lead_to_it():
    # the Spanish review (item 8): the permit page's "three results" named industrial-waste.A under
    # needs-approval, but under the chosen reading (subject-to-review) it never leads there
    for outcome in FLOW["outcomes"]:
        if outcome["id"] == "permit-required":
            continue  # reached by default, by no answer of its own
        leading = {c for _, result in evaluated_paths() if result["outcome"] == outcome["id"]
                   for c in result["outcome_detail"]["cites"]}
        if outcome["id"] == "needs-approval":
            assert set(outcome["cites"]) == leading, (outcome["id"], leading)
        assert "industrial-waste.A" not in outcome["cites"]


def test_the_garage_reading_read_as_act_g_alone_needs_only_the_inspector():
    flipped = copy.deepcopy(RULES)
    flipped["interpretations"]["garage-drain"]["chosen"] = "g-only"
    result = flow.evaluate(flipped, answers_with(flammables_washstand="yes", oil_separator="yes"))
    assert result["outcome"] == "permit-required"
    assert [r["cite"] for r in result["requirements"] if r["question"] == "oil-separator"] == ["prohibited-acts.G"]


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
    assert {"prohibited-acts.F", "prohibited-acts.I", "industrial-waste.A"} <= cites(result["reasons"])
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
    # and said in words, each with its question (spanish15 #2: in Spanish, the codes alone and no message)
    questions = {q["id"]: q["text"] for q in RULES["permits"]["questions"]}
    note = result["ignored_note"]
    assert note.startswith("Not used: ") and questions["oil-separator"] in note and questions["pretreatment"] in note
    assert flow.evaluate(RULES, answers_with())["ignored_note"] is None


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
    assert [s["cite"] for s in reading_steps] == ["prohibited-acts.I"]


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
    source = (ROOT / "calculator" / "permits" / "flow.py").read_text(encoding="utf-8").replace('rules["permits"]', "")
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
    (["--answer", "steam-exhaust=maybe"], ["“maybe”", "yes, no"]),
    (["--answer", "work=landscaping"], ["new-connection, alteration, repair"]),
    (["--answer", "basement=yes"], ["“basement”", "work (What work do you plan?); street-opening ("]),
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
    from calculator.core.explain import with_places
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


@pytest.mark.parametrize("changes", [{}, dict(industrial_waste="yes"), dict(trade_waste="yes", pretreatment="yes"),
                                     dict(work="uncover-sewer")])
def test_requirement_j_is_stated_as_the_ban_it_is(changes):
    # Issue 17, finding 3 (these tests pinned "put nothing into drains but ..." before): J forbids
    # "ashes, cinders, rags or similar waste materials"; it is not a list of what may go in.
    answers = [("work", "uncover-sewer"), ("sewer-pipe", "no")] if changes.get("work") else answers_with(**changes)
    j = [r for r in flow.evaluate(RULES, answers)["requirements"] if r["cite"] == "prohibited-acts.J"]
    assert len(j) == 1
    assert j[0]["text"].startswith("Never put ashes, cinders, rags or similar waste")
    assert "nothing" not in j[0]["text"] and " but " not in j[0]["text"]


def test_requirement_j_is_not_for_a_septic_system():
    # J is about openings "connected directly with any public sewer"
    result = flow.evaluate(RULES, [("work", "septic-system")])
    assert not [r for r in result["requirements"] if r["cite"] == "prohibited-acts.J"]


def test_a_flipped_reading_changes_the_outcome():
    flipped = copy.deepcopy(RULES)
    flipped["interpretations"]["septic-link"]["chosen"] = "inspector-may-approve"
    assert flow.evaluate(flipped, answers_with(septic_or_cesspool_link="yes"))["outcome"] == "permit-required"
    flipped["interpretations"]["stormwater-connection"]["chosen"] = "inspector-and-board"
    assert flow.evaluate(flipped, answers_with(stormwater="yes"))["outcome"] == "needs-approval"


def test_the_checker_refuses_a_when_that_names_no_interpretation():
    broken = copy.deepcopy(FLOW)
    broken["questions"][0]["choices"][0]["alternatives"] = [{"when": {"interpretation": "nothing", "chosen": "x"},
                                                             "next": "permit-required"}]
    assert any("unknown interpretation 'nothing'" in p for _, p in flow.problems(broken, RULES["interpretations"]))


# ---- issue 17: the law, read a third time -------------------------------------------------

def test_a_septic_only_property_needs_plans_and_a_permit_and_act_i_is_not_engaged():
    # Finding 1 (before, such an owner had no answer to question 1 and was told "not allowed"):
    # permits.A covers work "connected with the public sewer or private septic system"; act I only a
    # "house sewer connected with the public sewer".
    result = flow.evaluate(RULES, SEPTIC)
    assert result["outcome"] == "permit-required" and result["next_question"] is None
    assert [r["cite"] for r in result["reasons"]] == ["permits", "permits.A", "prohibited-acts.I"]
    assert "private septic system" in result["reasons"][1]["text"]
    assert "does not bar" in result["reasons"][2]["text"]
    assert "prohibited-acts.A" in cites(result["requirements"])
    assert any("plans" in r["text"] for r in result["requirements"] if r["cite"] == "permits.A")


SEPTIC = [("work", "septic-system"), ("street-opening", "no"), ("flammables-washstand", "no")]


def test_a_septic_system_is_asked_only_what_reaches_it_and_told_only_what_its_answers_engage():
    # Issue 34, item 12: the septic-only result listed the garage oil-separator rule (act G) and the road
    # opening (permits.B), which its answers never engaged. Now it is asked about both, and nothing else.
    asked = [a["id"] for a in flow.evaluate(RULES, SEPTIC)["answers"]]
    assert asked == ["work", "street-opening", "flammables-washstand"]
    plain = cites(flow.evaluate(RULES, SEPTIC)["requirements"])
    assert "prohibited-acts.G" not in plain and "permits.B" in plain  # permits.B: describe all the work (always)
    assert not [r for r in flow.evaluate(RULES, SEPTIC)["requirements"] if "highway department" in r["text"]]
    road = flow.evaluate(RULES, [("work", "septic-system"), ("street-opening", "yes"), ("flammables-washstand", "no")])
    assert road["outcome"] == "permit-required" and road["next_question"] is None
    assert any("highway department" in r["text"] for r in road["requirements"])
    assert not [r for r in road["reasons"] if r["question"] == "street-opening"]  # act C is the sewer connection's
    garage = [("work", "septic-system"), ("street-opening", "no"), ("flammables-washstand", "yes")]
    with_separator = flow.evaluate(RULES, garage + [("oil-separator", "yes")])
    assert with_separator["outcome"] == "permit-required" and with_separator["next_question"] is None
    assert "prohibited-acts.G" in cites(with_separator["requirements"])
    assert flow.evaluate(RULES, garage + [("oil-separator", "no")])["outcome"] == "prohibited"


def test_what_stays_not_allowed_is_said_after_a_no():
    # Issue 34, item 11: after "No" to the sump pump, the result no longer said connecting one is not allowed.
    result = flow.evaluate(RULES, BASE)
    said = {r["cite"]: r["text"] for r in result["requirements"] if r["question"] in
            ("stormwater", "steam-exhaust", "manure-or-cesspool-overflow", "septic-or-cesspool-link")}
    [sump] = [r["text"] for r in result["requirements"] if r["question"] == "stormwater"]
    assert "sump pump" in sump and "As this site reads the law, it is not allowed" in sump  # a reading, said so
    assert "boiler blowoff" in said["prohibited-acts.F"] and "manure pit" in said["prohibited-acts.E"]
    assert all(r["stage"] == "always" for r in result["requirements"] if r["question"] == "stormwater")
    # under the other reading, the line says what that reading allows, not "not allowed"
    flipped = copy.deepcopy(RULES)
    flipped["interpretations"]["stormwater-connection"]["chosen"] = "inspector-and-board"
    [line] = [r for r in flow.evaluate(flipped, BASE)["requirements"] if r["question"] == "stormwater"]
    assert "without the approvals" in line["text"] and "not allowed" not in line["text"]
    # a "yes" is a line of its own (the verdict), not also this one
    yes = flow.evaluate(RULES, answers_with(stormwater="yes"))
    assert not [r for r in yes["requirements"] if r["question"] == "stormwater"]


def test_a_house_sewer_joined_to_a_septic_tank_while_on_the_public_sewer_stays_prohibited():
    result = flow.evaluate(RULES, answers_with(work="alteration", septic_or_cesspool_link="yes"))
    assert result["outcome"] == "prohibited"
    q = next(q for q in FLOW["questions"] if q["id"] == "septic-or-cesspool-link")
    assert "connected to the public sewer" in q["text"] and "private septic system" in q["hint"]


def test_the_checker_opens_for_every_premises_in_the_town():
    assert "Sewer Districts" not in FLOW["description"]
    assert "septic system" in FLOW["description"]


def test_a_utility_contractor_opening_a_manhole_needs_the_inspectors_signed_permit():
    # Finding 14: prohibited-acts.B, "except under permit signed by the Sewer Inspector".
    result = flow.evaluate(RULES, [("work", "uncover-sewer"), ("sewer-pipe", "no")])
    assert result["outcome"] == "permit-required"
    assert [r["cite"] for r in result["reasons"]] == ["prohibited-acts.B"]
    assert any(r["cite"] == "prohibited-acts.B" and "signed by the Inspector" in r["text"]
               for r in result["requirements"])
    assert {"permits.B", "prohibited-acts.A"} <= cites(r for r in result["requirements"] if r["question"] == "work")


def test_breaking_or_cutting_a_public_sewer_pipe_is_prohibited_on_every_kind_of_public_sewer_work():
    # Finding 14: prohibited-acts.D makes no exception for breaking, cutting or removing the pipe.
    for answers in ([("work", "uncover-sewer"), ("sewer-pipe", "yes")],
                    answers_with(sewer_pipe="yes"), answers_with(work="repair", sewer_pipe="yes")):
        result = flow.evaluate(RULES, answers)
        assert result["outcome"] == "prohibited"
        assert [r["cite"] for r in result["reasons"] if r["question"] == "sewer-pipe"] == ["prohibited-acts.D"]


def test_opening_a_highway_for_a_connection_is_said_to_need_the_inspectors_permit_and_supervision():
    result = flow.evaluate(RULES, answers_with(street_opening="yes"))
    [c] = [r for r in result["reasons"] if r["question"] == "street-opening"]
    assert c["cite"] == "prohibited-acts.C" and "supervision" in c["text"]


def test_a_connected_property_is_told_the_board_may_require_a_water_meter():
    for answers, shown in ((BASE, True), ([("work", "septic-system")], False)):
        meter = [r for r in flow.evaluate(RULES, answers)["requirements"] if r["cite"] == "rents.C.2"]
        assert bool(meter) is shown
        if meter:
            assert "water meter" in meter[0]["text"] and "may make the owner" in meter[0]["text"]


def test_the_rights_take_the_correction_time_from_its_parameter():
    # Finding 6: permits.C.1's "not exceeding 30 days" comes from violation-correction-maximum-days.
    from kit.rules.wording import parameter_words
    raw = (ROOT / "rules" / "permits.yaml").read_text(encoding="utf-8")
    assert "{violation-correction-maximum-days}" in raw and "30 days" not in raw
    [c1] = [r for r in FLOW["rights"] if r["cite"] == "permits.C.1"]
    words = parameter_words(RULES["parameters"]["violation-correction-maximum-days"])
    assert words == "30 days" and f"of at most {words}." in c1["text"]
    [c] = [r for r in FLOW["rights"] if r["cite"] == "permits.C"]
    assert "in writing" in c["text"] and "charges proved" in c["text"]
    [d] = [r for r in FLOW["rights"] if r["cite"] == "permits.D"]
    assert "may inspect only the sewer system" in d["text"]
    assert [o["id"] for o in FLOW["outcomes"] if o.get("rights")] == ["needs-approval", "permit-required"]


def test_hints_that_define_words_the_law_leaves_undefined_say_they_are_this_sites_reading():
    # Finding 16: "...or business operations" is not in the law. No reading is the Town's (item 8).
    for ident in ("industrial-waste", "trade-waste"):
        q = next(q for q in FLOW["questions"] if q["id"] == ident)
        assert "The law does not define" in q["hint"] and "This site reads it" in q["hint"]
        assert "the Town has not adopted this reading" in q["hint"].replace("The Town", "the Town")


def test_the_meaning_of_industrial_waste_is_a_recorded_reading_that_leaves_out_offices():
    """Item 8: the hint's meaning of industrial waste is a reading on /how-we-read-the-law/, and it
    does not sweep in a restaurant's, a shop's or an office's sewage ("business operations")."""
    q = next(q for q in FLOW["questions"] if q["id"] == "industrial-waste")
    assert q["reading"] == "industrial-waste-meaning" and "business operations" not in q["hint"]
    assert "restaurant, a shop or an office is not industrial waste" in q["hint"]
    reading = RULES["interpretations"]["industrial-waste-meaning"]
    assert reading["reads"] == "industrial-waste" and reading["chosen"] == "process-waste"
    assert set(reading["options"]) == {"process-waste", "any-business"}
    asked = flow.evaluate(RULES, BASE[:[q for q, _ in BASE].index("industrial-waste")])["next_question"]
    assert asked["id"] == "industrial-waste" and asked["reading"] == "industrial-waste-meaning"
    assert asked["hint"] == q["hint"]
    # the other reading words the question its way: a restaurant, a shop or an office answers yes
    flipped = copy.deepcopy(RULES)
    flipped["interpretations"]["industrial-waste-meaning"]["chosen"] = "any-business"
    asked = flow.evaluate(flipped, BASE[:[q for q, _ in BASE].index("industrial-waste")])["next_question"]
    assert "A restaurant, a shop or an office discharges industrial waste." in asked["hint"]
    # and the answer for a business's own sewage leads, under it, to the Sewer Inspector's limits
    office = BASE[:-2] + [("industrial-waste", "business-sewage-only"), ("sewer-pipe", "no")]
    assert "industrial-waste.A" not in cites(flow.evaluate(RULES, office)["requirements"])
    assert "industrial-waste.A" in cites(flow.evaluate(flipped, office)["requirements"])


def test_most_after_bounds_every_walk_and_is_reached():
    """`most_after` (what "Question 3 of up to 14" rests on): on 300 random walks through the checker
    (the engine's own evaluate, one answer at a time), no question is followed by more questions than it
    says, and for the first question some walk asks exactly that many after it."""
    import random
    rules = load()
    most = flow.most_after(rules["permits"])
    assert set(most) == {q["id"] for q in rules["permits"]["questions"]}
    longest_first = 0
    rng = random.Random(7)
    for _ in range(300):
        answers = []
        while (q := flow.evaluate(rules, answers)["next_question"]) is not None:
            answers.append((q["id"], rng.choice(q["choices"])["value"]))
            assert q["most_after"] == most[q["id"]]
        for i, (qid, _value) in enumerate(answers):
            assert len(answers) - i - 1 <= most[qid], (answers, qid)
        longest_first = max(longest_first, len(answers) - 1)
    assert longest_first == most[rules["permits"]["start"]]


# ---- issue 34 (the contractor): the headline names what fails; the fee and the inspections in the result ----

# (a second answers_with was defined here: it shadowed the one above, with its follow-up questions, so the
# prohibited-act tests above ran without their answer and failed)


def test_the_not_allowed_headline_names_the_sump_pump_and_says_it_is_this_sites_reading():
    d = flow.evaluate(RULES, answers_with(stormwater="yes"))["outcome_detail"]
    assert d["id"] == "prohibited" and d["cites"] == ["prohibited-acts.I"]
    [head] = d["headlines"]
    assert head["text"] == ("Connecting a sump pump, roof leader, yard drain or footing drain to the sewer is not "
                            "allowed (this site's reading)")
    assert (head["reading"], head["cite"]) == ("stormwater-connection", "prohibited-acts.I")
    # the reading and the other one, right under the headline, never the law's own word
    assert head["note"].startswith("This site reads prohibited act I as a ban on these drains")
    assert "The Town has not adopted this reading. Another reading:" in head["note"]
    assert "specifically approve" in head["note"]
    # the provision's heading names the drains the act bans, not only septic tanks
    assert head["law"]["words"] == "Prohibited acts I (Septic tanks, cesspools, privy vaults and drains)"


def test_a_ban_that_rests_on_a_reading_is_said_to_be_one_in_the_whole_result():
    # the usability test (Tony): under a headline that said "this site's reading", the summary said
    # "The law forbids … The Sewer Inspector cannot permit the work"; the whole result now says it is a reading
    d = flow.evaluate(RULES, answers_with(stormwater="yes"))["outcome_detail"]
    assert d["by_reading"] is True
    assert d["summary"].startswith("This result is this site's reading of the law.")
    assert "The law forbids" not in d["summary"] and "cannot permit" not in d["summary"]
    assert "Ask the Sewer Inspector before you do that part of the work." in d["summary"]
    assert d["headlines"][0]["note"].endswith("Ask the Sewer Inspector before you connect it.")
    # a ban in the law's own words keeps them, alone or beside a reading
    for changes in ({"sewer_pipe": "yes"}, {"sewer_pipe": "yes", "stormwater": "yes"}):
        d = flow.evaluate(RULES, answers_with(**changes))["outcome_detail"]
        assert d["by_reading"] is False and d["summary"].startswith("The law forbids at least one thing")
    # the reason that gives the ban labels the reading too
    result = flow.evaluate(RULES, answers_with(stormwater="yes"))
    [ban] = [r for r in result["reasons"] if r["question"] == "stormwater"]
    assert "As this site reads the law, the Sewer Inspector may approve only" in ban["text"]


def test_the_law_text_behind_both_readings_is_quoted_as_the_note_says():
    law = (ROOT / "rules" / "source" / "sewer-use-law.txt").read_text(encoding="utf-8")
    flat = " ".join(law.split())
    assert ("except such soil pipes and other plumbing works as shall have been duly inspected and approved by the "
            "Sewer Inspector") in flat
    assert "unless specifically approved by the Town Board and/or the Pawling Joint Sewer Commission" in flat


def test_two_failing_things_give_two_headlines_in_the_order_asked():
    d = flow.evaluate(RULES, answers_with(steam_exhaust="yes", stormwater="yes"))["outcome_detail"]
    assert [h["question"] for h in d["headlines"]] == ["steam-exhaust", "stormwater"]
    assert d["headlines"][0]["text"] == "Connecting steam engine exhaust or boiler blowoff to the sewer is not allowed"
    assert "reading" not in d["headlines"][0]


def test_under_the_other_reading_the_sump_pump_needs_approval_and_no_headline_says_not_allowed():
    rules = copy.deepcopy(RULES)
    rules["interpretations"]["stormwater-connection"]["chosen"] = "inspector-and-board"
    d = flow.evaluate(rules, answers_with(stormwater="yes"))["outcome_detail"]
    assert d["id"] == "needs-approval" and d["headlines"] == []
    assert d["fee"]["dollars"] == "$150.00"


def test_work_that_can_get_a_permit_shows_the_fee_and_the_inspections_in_the_result():
    d = flow.evaluate(RULES, answers_with(street_opening="yes"))["outcome_detail"]
    assert d["id"] == "permit-required" and d["headlines"] == []
    assert (d["fee"]["dollars"], d["fee"]["status"], d["fee"]["cite"]) == ("$150.00", "illustrative", "permits.A")
    assert d["fee"]["note"].startswith("ILLUSTRATIVE")
    assert [i["cite"] for i in d["inspections"]] == ["prohibited-acts.C", "prohibited-acts.I", "permits.A", "permits.D"]
    assert d["inspections"][0]["text"].startswith("The Sewer Inspector supervises the connection")


def test_an_oil_separator_adds_its_approval_to_the_inspections():
    answers = prefix_to("oil-separator") + [("oil-separator", "yes")] + BASE[4:]
    d = flow.evaluate(RULES, answers)["outcome_detail"]
    assert "prohibited-acts.G" in [i["cite"] for i in d["inspections"]]


def test_not_allowed_work_shows_neither_fee_nor_inspections():
    d = flow.evaluate(RULES, answers_with(stormwater="yes"))["outcome_detail"]
    assert d["fee"] is None and d["inspections"] == []


def test_an_answer_that_can_be_not_allowed_must_name_its_thing_for_the_headline():
    broken = copy.deepcopy(FLOW)
    stormwater = next(q for q in broken["questions"] if q["id"] == "stormwater")
    del stormwater["choices"][0]["verdict"]["item"]
    [(where, what)] = [(w, p) for w, p in flow.problems(broken, RULES["interpretations"]) if "`item`" in p]
    assert where == ["questions", [q["id"] for q in broken["questions"]].index("stormwater"), "choices", 0, "verdict"]
    assert "give the verdict an `item`" in what


def _texts_citing(node, cite, found):
    # every text in the rules data that cites `cite`, with what it is marked by
    if isinstance(node, dict):
        if node.get("cite") == cite:
            for key in ("text", "help", "note"):
                if isinstance(node.get(key), str):
                    found.append(node)
        for v in node.values():
            _texts_citing(v, cite, found)
    elif isinstance(node, list):
        for v in node:
            _texts_citing(v, cite, found)
    return found


def test_no_sentence_resting_on_act_i_states_a_ban_as_the_law_without_its_exception():
    # the outside usability test (public9): "The law bars joining … to any underground drain" (the
    # application form) and "The law does not allow it" (the septic tank) left out act I's exception
    # for plumbing the Sewer Inspector approves, and gave this site's reading as the law
    import yaml
    ban = re.compile(r"\b[Tt]he law (bars|does not allow|forbids|prohibits)|\bnot allowed\b")
    checked = 0
    for name in ("permits.yaml", "application-form.yaml"):
        data = yaml.safe_load((ROOT / "rules" / name).read_text(encoding="utf-8"))
        for node in _texts_citing(data, "prohibited-acts.I", []):
            text = " ".join(str(node.get(k, "")) for k in ("text", "help", "note"))
            if ban.search(text):
                checked += 1
                assert "site reads" in text or "site's reading" in text, text
                if "law" in ban.search(text).group(0):
                    assert "inspected and approved" in text, text
    assert checked >= 2
    # the form's own help, which the web form and the PDF both print
    form = yaml.safe_load((ROOT / "rules" / "application-form.yaml").read_text(encoding="utf-8"))
    [drains] = [f for f in form["fields"] if f["name"] == "drain-water"]
    assert "except soil pipes and other plumbing the Sewer Inspector has inspected and approved" in drains["help"]
    assert "As this site reads the law, these drains are not such plumbing" in drains["help"]
    d = flow.evaluate(RULES, answers_with(septic_or_cesspool_link="no"))
    always = [r["text"] for r in d["requirements"] if r.get("question") == "septic-or-cesspool-link"]
    assert always and all("does not allow" not in t for t in always)
    assert any("As this site reads the law, a tank, cesspool or privy vault is not such plumbing." in t for t in always)


def test_a_road_opened_puts_the_highway_departments_approval_in_the_headline_and_the_pdf_line():
    # the outside usability test (public9, Tony): the headline named only the Sewer Inspector although
    # permits.B asks the highway department's approval first
    from calculator.permits import application
    road = flow.evaluate(RULES, answers_with(street_opening="yes"))
    assert road["outcome"] == "permit-required"
    title = "You need a permit from the Sewer Inspector, and the highway department's approval first"
    assert road["outcome_detail"]["title"] == title
    assert application.outcome_words(road) == title + "."
    assert any(s.startswith("Result: " + title + ".") for s in (x["text"] for x in road["explanation"]))
    dry = flow.evaluate(RULES, answers_with(street_opening="no"))
    assert dry["outcome_detail"]["title"] == "You need a permit from the Sewer Inspector"
