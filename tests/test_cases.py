"""The law's cases (tests/cases/*.yaml), run through the engine in CPython."""
import subprocess
import sys
from pathlib import Path

import pytest

from calculator.cli import main, run
from calculator.core.errors import InputError
from calculator.core.rules import load
from casebook import argv_for, explanation_problems, listed_mismatches, load_cases, mismatches, rules_for

ROOT = Path(__file__).resolve().parent.parent
CASES = load_cases()
ANSWERS = [c for c in CASES if "error" not in c]
REFUSALS = [c for c in CASES if "error" in c]


def test_there_are_enough_cases():
    assert len(ANSWERS) >= 40, len(ANSWERS)
    assert len(REFUSALS) >= 10, len(REFUSALS)


@pytest.mark.parametrize("case", ANSWERS, ids=[c["_id"] for c in ANSWERS])
def test_case(case):
    rules = rules_for(case)
    result = run(argv_for(case), rules)
    assert not mismatches(case["output"], result), mismatches(case["output"], result)
    assert not listed_mismatches(case, result), listed_mismatches(case, result)
    for step in result.get("explanation", []):
        assert step["text"] and step["cite"], step
    assert not explanation_problems(case, result)


def test_a_case_can_fail_on_its_explanation():
    case = {"cite": "rents.G", "explains": [
        {"cite": "rents.G", "says": "a lien", "quote": "§ 452 of the General Municipal Law"}], "never": ["within"]}
    good = {"explanation": [{"cite": "rents.G", "text": "Unpaid charges are a lien.",
                             "quote": "to the extent set forth in § 452 of the General Municipal Law."}]}
    assert not explanation_problems(case, good)
    assert explanation_problems(case, {"explanation": [dict(good["explanation"][0], cite="rents.F")]})
    assert explanation_problems(case, {"explanation": [dict(good["explanation"][0], quote="")]})
    assert explanation_problems(case, {"explanation": [dict(good["explanation"][0], text="Paid within 30 days, a lien.")]})


QUOTING = [c for c in CASES if "quote" in c]


def _words(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("case", QUOTING, ids=[c["_id"] for c in QUOTING])
def test_a_case_s_quotation_is_the_law_s_own_words(case):
    """A case that quotes the provision it rests on quotes it word for word: the quotation is
    in the text of its `cite` (the provision and the provisions under it)."""
    provisions = load()["provisions"]
    under = [p for p in provisions if p["id"] == case["cite"] or p["id"].startswith(case["cite"] + ".")]
    assert under, f"{case['_id']}: no provision {case['cite']!r}"
    assert _words(case["quote"]) in _words(" ".join(p.get("text", "") for p in under)), case["quote"]


def test_a_mismatch_in_a_list_of_steps_is_found():
    steps = [{"cite": "pretreatment.A.5", "text": "…"}, {"cite": "permits.D", "text": "…"}]
    assert not mismatches([{"cite": "pretreatment.A.5"}, {"cite": "permits.D"}], steps)
    assert mismatches([{"cite": "permits.D"}, {"cite": "pretreatment.A.5"}], steps)
    assert mismatches([{"cite": "pretreatment.A.5"}], steps)       # a step left out is a difference


@pytest.mark.parametrize("case", REFUSALS, ids=[c["_id"] for c in REFUSALS])
def test_bad_input_is_refused_in_process(case):
    with pytest.raises(InputError) as err:
        run(argv_for(case), rules_for(case))
    assert case["error"].lower() in str(err.value).lower()
    # the box the page marks for correction (InputError.field), where the case names it
    assert err.value.field == case.get("field", err.value.field), (err.value.field, case.get("field"))


def refused_on_the_command_line(code: int, out: str, err: str, case: dict) -> None:
    assert code == 2, (code, out, err)
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    assert case["error"].lower() in lines[0].lower()


@pytest.mark.parametrize("case", REFUSALS, ids=[c["_id"] for c in REFUSALS])
def test_bad_input_through_the_command_line(case, capsys):
    """Every refusal through the command line's own entry (calculator.cli.main, what
    `python -m calculator` runs): exit status 2, one line on standard error, nothing on standard output."""
    code = main([*argv_for(case), "--json"])
    out, err = capsys.readouterr()
    refused_on_the_command_line(code, out, err, case)


#: one refusal of each command in a process of its own, as a terminal runs it (the others in
#: process above: a Python started for each of 65 cases took 38 s of the suite's time)
FIRST_OF_EACH_COMMAND = list({c["command"]: c for c in reversed(REFUSALS)}.values())


@pytest.mark.parametrize("case", FIRST_OF_EACH_COMMAND, ids=[c["_id"] for c in FIRST_OF_EACH_COMMAND])
def test_bad_input_through_python_m_calculator(case):
    proc = subprocess.run([sys.executable, "-m", "calculator", *argv_for(case), "--json"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    refused_on_the_command_line(proc.returncode, proc.stdout, proc.stderr, case)


def test_the_permit_cases_quote_the_law():
    assert len([c for c in CASES if c["command"] == "permit" and "quote" in c]) >= 10


def test_the_includes_check_can_fail():
    answer = {"reasons": [{"cite": "permits.A", "text": "x"}]}
    assert listed_mismatches({"includes": {"reasons": [{"cite": "permits.B"}]}}, answer)
    assert listed_mismatches({"excludes": {"reasons": [{"cite": "permits.A"}]}}, answer)
    assert not listed_mismatches({"includes": {"reasons": [{"cite": "permits.A"}]},
                                  "excludes": {"reasons": [{"cite": "permits.B"}]}}, answer)
