"""The mutation-testing command's own judgement (kit/tools/mutants.py), without running mutmut: which
mutants change only words, where a mutant is, and how recorded verdicts match mutants."""
from kit.tools.mutants import Mutant, apply_verdicts, changed_lines, is_message_only, load_verdicts, report

ORIGINAL = '''def x_f__mutmut_orig(rules, due, n):
    if n <= 0:
        raise InputError(_("Enter {what}, like {example}.").format(what=_(WHAT), example="12"), "field")
    ex.add(_("Paid on {paid}.").format(paid=long(due)), "rents.F", periods=n)
    return charge * rate * n
'''


def mutate(old, new):
    assert old in ORIGINAL
    return ORIGINAL.replace(old, new, 1)


def test_a_change_to_a_messages_words_or_to_the_values_it_states_is_message_text():
    for old, new in [('"Enter {what}, like {example}."', '"XXEnter {what}, like {example}.XX"'),
                     ('"Paid on {paid}."', '"PAID ON {PAID}."'),
                     ("what=_(WHAT), ", ""),
                     ('example="12"', 'example="XX12XX"'),
                     ("paid=long(due)", "paid=long(None)")]:
        assert is_message_only(ORIGINAL, mutate(old, new)), (old, new)


def test_a_change_to_what_the_answer_decides_is_not_message_text():
    for old, new in [("n <= 0", "n < 0"),
                     ("rate * n", "rate / n"),
                     ('"field"', '"XXfieldXX"'),          # the field the page marks
                     ('"rents.F"', '"XXrents.FXX"'),      # the cite
                     ("periods=n", "periods=None"),       # a figure of the step
                     ("raise InputError", "raise ValueError")]:
        assert not is_message_only(ORIGINAL, mutate(old, new)), (old, new)


def test_the_changed_line_is_found_and_shown_before_and_after():
    line, before, after = changed_lines(ORIGINAL, mutate("rate * n", "rate / n"))
    assert (line, before, after) == (4, "return charge * rate * n", "return charge * rate / n")


def mutant(before, after, exit_code=0, function="periods"):
    return Mutant("calculator.bills.penalty.x_periods__mutmut_1", "penalty", function, 37, before, after, False, exit_code)


def test_a_verdict_matches_its_change_by_module_function_and_text_not_by_number():
    m = [mutant("n = months // step", "n = months / step"), mutant("n += 1", "n = 1")]
    stale = apply_verdicts(m, [{"module": "penalty", "function": "periods", "before": "n = months // step",
                                "after": "n = months / step", "why": "the loops correct the first guess"},
                               {"module": "penalty", "function": "unrounded", "before": "a", "after": "b",
                                "why": "gone"}])
    assert m[0].why_equivalent == "the loops correct the first guess" and m[1].why_equivalent is None
    assert [v["function"] for v in stale] == ["unrounded"]


def test_the_report_scores_killed_over_code_changing_less_equivalent_and_names_each_survivor():
    m = [mutant("a", "b", 1), mutant("c", "d", 1), mutant("e", "f", 1), mutant("g", "h", 0), mutant("i", "j", 0)]
    m[4].why_equivalent = "cannot change an answer"
    text = report(m, [])
    assert "| penalty | 5 | 0 | 5 | 3 | 1 | 1 | 0 | 75.0% |" in text
    assert "- `penalty:37` (periods, x_periods__mutmut_1): `g  ->  h`" in text


def test_every_recorded_verdict_has_its_reason():
    for v in load_verdicts():
        assert v["why"].strip() and v["module"] and v["function"], v


def test_parse_amounts_name_and_example_are_message_text_but_its_field_and_unit_are_not():
    original = ('def x_f__mutmut_orig(raw):\n'
                '    return parse_amount(raw, N_("The O&M cost"), "856791", "om-cost", UNIT)\n')
    for old, new, words in [('"856791"', '"XX856791XX"', True), ('"856791"', "None", True),
                            ('N_("The O&M cost")', "None", True),
                            ('"om-cost"', '"XXom-costXX"', False), ("UNIT", "None", False),
                            ('"856791", ', "", False),      # the field slides into the example's place
                            ("raw,", "None,", False)]:
        assert is_message_only(original, original.replace(old, new, 1)) is words, (old, new)


def test_a_pass_narrows_each_functions_tests_to_its_fastest_and_puts_them_back(tmp_path, monkeypatch):
    import json
    import kit.tools.mutants as k
    monkeypatch.setattr(k, "STATS", tmp_path / "mutmut-stats.json")
    monkeypatch.setattr(k, "NARROWED", tmp_path / "narrowed-tests.json")
    stats = {"tests_by_mangled_function_name": {"f": ["slow", "fast", "mid"], "g": ["slow"]},
             "duration_by_test": {"slow": 2.0, "fast": 0.001, "mid": 0.2}}
    k.STATS.write_text(json.dumps(stats))
    k.narrow_tests(keep=2)
    assert json.loads(k.STATS.read_text())["tests_by_mangled_function_name"] == {"f": ["fast", "mid"], "g": ["slow"]}
    k.narrow_tests(under=0.1)      # at least the fastest one, even when it is slower
    assert json.loads(k.STATS.read_text())["tests_by_mangled_function_name"] == {"f": ["fast"], "g": ["slow"]}
    k.widen_tests()
    assert not k.NARROWED.exists()
    assert json.loads(k.STATS.read_text())["tests_by_mangled_function_name"] == {"f": ["fast", "mid", "slow"], "g": ["slow"]}


def test_a_plural_message_and_the_count_choosing_its_form_are_message_text():
    # the count only picks the singular or plural words; the figure itself is decided elsewhere
    original = 'def x_f__mutmut_orig(n):\n    k = n - 1\n    return ngettext("{n} period", "{n} periods", n).format(n=n)\n'
    assert is_message_only(original, original.replace('"{n} periods"', '"XX{n} periodsXX"'))
    assert is_message_only(original, original.replace('"{n} periods", n)', '"{n} periods", None)'))
    assert not is_message_only(original, original.replace("n - 1", "n + 1"))
