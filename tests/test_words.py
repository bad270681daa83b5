"""What a person reads in an answer: where in the law, and which quarter, in words.
Links and the command line keep the ids (`cite`, `anchor`, `2027-Q1`)."""
from calculator.cli import run
from calculator.core.dates import quarter_words
from calculator.core.law import citation
from calculator.core.rules import load

RULES = load()


def cited(node):
    if isinstance(node, dict):
        if "cite" in node and isinstance(node["cite"], str):
            yield node
        for v in node.values():
            yield from cited(v)
    elif isinstance(node, list):
        for v in node:
            yield from cited(v)


def test_every_cited_item_of_every_answer_says_where_in_words():
    answers = [run(["bill", "--quarter", "2027-Q1", "--water-gallons", "12000", "--paid-on", "2027-06-01"]),
               run(["industry", "--average-workday-gallons", "52000", "--system-gallons-per-day", "600000",
                    "--year", "2027"]),
               run(["permit", "--answer", "work=new-connection", "--answer", "street-opening=yes"]),
               run(["permit", "--list-questions"])]
    for answer in answers:
        items = list(cited(answer))
        assert items, answer["command"]
        for item in items:
            assert item["where"] == citation(RULES, item["cite"])
    assert answers[0]["explanation"][0]["where"] == "Sewer rents F (Due dates and late penalty)"


def test_a_permit_outcome_says_its_provisions_in_words():
    answer = run(["permit", "--answer", "work=repair"])
    while answer["next_question"]:
        q = answer["next_question"]
        value = "no" if any(c["value"] == "no" for c in q["choices"]) else q["choices"][0]["value"]
        words = [f"{a['id']}={a['value']}" for a in answer["answers"]] + [f"{q['id']}={value}"]
        answer = run(["permit", *sum((["--answer", w] for w in words), [])])
    detail = answer["outcome_detail"]
    assert detail["where"] == [citation(RULES, c) for c in detail["cites"]]


def test_a_quarter_in_words_and_its_id_for_links():
    assert quarter_words(2027, 1) == "January–March 2027"
    assert quarter_words(2027, 4) == "October–December 2027"
    bill = run(["bill", "--quarter", "2027-Q1", "--water-gallons", "12000"])
    assert (bill["quarter"], bill["quarter_words"]) == ("2027-Q1", "January–March 2027")
    # the bill named as the heading names it (the outside usability test public9): one label for one bill
    assert bill["explanation"][0]["text"].startswith(
        "The bill due January 15, 2027 (water used October–December 2026) is the charge for the quarter from "
        "January 1, 2027")
    offered = run(["quarters", "--today", "2026-11-30"])["quarters"]
    assert all(q["words"] == quarter_words(int(q["quarter"][:4]), int(q["quarter"][-1])) for q in offered)
