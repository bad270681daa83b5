"""Strict validation of rules/: every error names file:line:column and what to change."""
import re
import shutil
import subprocess
import sys
from pathlib import Path
from decimal import Decimal

import pytest

from kit.rules.validate import RuleError, compile_rules

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def rules_copy(tmp_path):
    dst = tmp_path / "rules"
    shutil.copytree(ROOT / "rules", dst)
    return dst


def refused_and_site_kept(rules_dir, tmp_path):
    """The build from `rules_dir` stops with the rules' problems, and the site built before is as it was."""
    from kit.site import build as site
    target = tmp_path / "site"
    target.mkdir()
    (target / "index.html").write_text("the previous site")
    with pytest.raises(RuleError):
        site.build(target, rules_dir=rules_dir)
    assert (target / "index.html").read_text() == "the previous site"


def problems(rules_dir):
    with pytest.raises(RuleError) as err:
        compile_rules(rules_dir)
    return err.value.problems


def test_the_shipped_rules_are_valid():
    rules = compile_rules(ROOT / "rules")
    assert len(rules["provisions"]) >= 60
    for p in rules["parameters"].values():
        assert p["cite"] in {q["id"] for q in rules["provisions"]}


def test_an_unknown_key_is_rejected_with_its_line(rules_copy):
    f = rules_copy / "parameters" / "late-penalty-rate.yaml"
    line = len(f.read_text().splitlines()) + 1  # the key added as the file's last line
    f.write_text(f.read_text() + "valeu: 0.2\n")
    [p] = problems(rules_copy)
    assert f"late-penalty-rate.yaml:{line}:1" in p and "valeu" in p and "keys allowed" in p


def test_a_figure_a_reading_decides_is_a_parameter_that_exists(rules_copy):
    """The third legal reading: the law page showed "3 months" and "fraction of the unpaid charge" as the
    law's. A reading names the figures it decides (`figures:`); a name that is no parameter is refused."""
    f = rules_copy / "interpretations" / "penalty-quarter.yaml"
    assert "figures: [late-penalty-period-months]" in f.read_text()
    f.write_text(f.read_text().replace("figures: [late-penalty-period-months]", "figures: [late-penalty-period-month]"))
    [p] = problems(rules_copy)
    assert "penalty-quarter.yaml:6:" in p and "'late-penalty-period-month' is not in rules/parameters/" in p


def test_a_cite_that_is_not_a_provision_is_rejected(rules_copy):
    f = rules_copy / "parameters" / "late-penalty-rate.yaml"
    f.write_text(f.read_text().replace("cite: rents.F", "cite: rents.Z"))
    [p] = problems(rules_copy)
    assert "late-penalty-rate.yaml:4:7" in p and "rents.Z" in p


def test_a_number_written_as_a_float_is_rejected(rules_copy):
    f = rules_copy / "rate-schedules" / "2025-illustrative.yaml"
    f.write_text(f.read_text().replace('vc_per_1000_gallons: "10.00"', "vc_per_1000_gallons: 10.5"))
    [p] = problems(rules_copy)
    assert "2025-illustrative.yaml:9:" in p and "10.5" in p and "this is a number, 10.5, but this key takes text. Put it in quotes: \"10.5\"." in p


def test_a_schedule_speaks_every_language_of_the_site(rules_copy):
    """A schedule's title and note show on Spanish pages and answers: each needs its Spanish."""
    f = rules_copy / "rate-schedules" / "2025-illustrative.yaml"
    src = f.read_text()
    f.write_text(src.replace("title_es: Tabla de tarifas de ejemplo (no adoptada)\n", ""))
    [p] = problems(rules_copy)
    assert "2025-illustrative.yaml:4:1:" in p and "'title_es' is missing here. Add it" in p
    f.write_text(src.split("note_es:")[0])
    [p] = problems(rules_copy)
    assert "2025-illustrative.yaml:12:" in p and "the note has no Spanish" in p and "note_es:" in p


def test_schedules_that_overlap_are_rejected(rules_copy):
    src = (rules_copy / "rate-schedules" / "2025-illustrative.yaml").read_text()
    (rules_copy / "rate-schedules" / "2026.yaml").write_text(
        src.replace("id: 2025-illustrative", "id: '2026'").replace("effective: 2025-01-01", "effective: 2026-01-01"))
    (rules_copy / "rate-schedules" / "2025-illustrative.yaml").write_text(src.replace(
        "effective: 2025-01-01", "effective: 2025-01-01\nends: 2026-06-30"))
    [p] = problems(rules_copy)
    assert "overlap" in p and "2026-01-01" in p


def test_two_schedules_on_the_same_day_are_rejected(rules_copy):
    src = (rules_copy / "rate-schedules" / "2025-illustrative.yaml").read_text()
    (rules_copy / "rate-schedules" / "2025-b.yaml").write_text(src.replace("id: 2025-illustrative", "id: 2025-b"))
    assert any("both take effect on 2025-01-01" in p for p in problems(rules_copy))


def test_an_adopted_schedule_needs_its_notice_and_vote(rules_copy):
    f = rules_copy / "rate-schedules" / "2025-illustrative.yaml"
    f.write_text(f.read_text().replace("status: illustrative", "status: adopted"))
    ps = problems(rules_copy)
    assert any("'notice' is missing here. Add it (a schedule with this status needs it)" in p for p in ps)
    assert any("'adoption' is missing here. Add it (a schedule with this status needs it)" in p for p in ps)


def test_broken_yaml_names_the_line(rules_copy):
    f = rules_copy / "interpretations" / "rounding.yaml"
    f.write_text("id: rounding\nquestion: [unclosed\n")
    [p] = problems(rules_copy)
    assert "rounding.yaml:" in p and "not valid YAML" in p


def test_a_chosen_reading_must_be_one_of_the_options(rules_copy):
    f = rules_copy / "interpretations" / "penalty-accrual.yaml"
    f.write_text(f.read_text().replace("chosen: simple", "chosen: monthly"))
    [p] = problems(rules_copy)
    assert "penalty-accrual.yaml:5:9" in p and "monthly" in p


def test_a_year_id_without_quotes_is_explained(rules_copy):
    f = rules_copy / "rate-schedules" / "2025-illustrative.yaml"
    f.write_text(f.read_text().replace("id: 2025-illustrative", "id: 2025"))
    ps = problems(rules_copy)
    assert any("2025-illustrative.yaml:4:5" in p and "Put it in quotes" in p for p in ps)


def test_the_validate_command_says_ok_or_exits_non_zero(rules_copy):
    ok = subprocess.run([sys.executable, "-m", "kit.rules.validate"], cwd=ROOT, capture_output=True, text=True)
    assert ok.returncode == 0 and "rules OK" in ok.stdout
    (rules_copy / "parameters" / "late-penalty-rate.yaml").write_text("value: [\n")
    bad = subprocess.run([sys.executable, "-c", "import sys; from kit.rules import validate; "
                          f"validate.RULES_DIR = __import__('pathlib').Path({str(rules_copy)!r}); "
                          "sys.exit(validate.main())"], cwd=ROOT, capture_output=True, text=True)
    assert bad.returncode == 1 and "late-penalty-rate.yaml" in bad.stderr


def test_a_permit_answer_that_leads_nowhere_is_refused_at_its_line(rules_copy):
    f = rules_copy / "permits.yaml"
    text = f.read_text()
    first = text.index("next: ", text.index("questions:"))
    f.write_text(text[:first] + "next: nowhere" + text[text.index("\n", first):])
    line = text[:first].count("\n") + 1
    [p] = problems(rules_copy)
    assert p.startswith(f"rules/permits.yaml:{line}:") or f"permits.yaml:{line}:" in p
    assert "'nowhere' is neither a question nor an outcome. Write one of the questions (work, street-opening" in p
    assert "or of the outcomes (prohibited, needs-approval, permit-required)." in p


def test_a_broken_permit_graph_stops_the_build_and_keeps_the_site(rules_copy, tmp_path):
    f = rules_copy / "permits.yaml"
    text = f.read_text()
    first = text.index("next: ", text.index("questions:"))
    f.write_text(text[:first] + "next: nowhere" + text[text.index("\n", first):])
    refused_and_site_kept(rules_copy, tmp_path)


def test_the_job_summary_says_which_file_and_what_to_change(rules_copy, tmp_path, monkeypatch):
    from kit.rules import validate
    f = rules_copy / "parameters" / "late-penalty-rate.yaml"
    f.write_text(f.read_text().replace("cite: rents.F", "cite: rents.Q"))
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    monkeypatch.setattr(validate, "RULES_DIR", rules_copy)
    assert validate.main() == 1
    text = summary.read_text()
    assert "The site was not published" in text and "stays as it was" in text
    [row] = [line for line in text.splitlines() if "late-penalty-rate.yaml" in line]
    assert "| line 4 |" in row and "rents.Q" in row and "Write the provision's id as law.yaml has it now" in row
    monkeypatch.setattr(validate, "RULES_DIR", ROOT / "rules")
    assert validate.main() == 0
    assert "### The rules are sound" in summary.read_text()


def test_a_file_read_again_gives_its_own_problems_and_a_fresh_copy_of_its_data(tmp_path):
    """A process that compiles again re-reads only the files whose text changed (kit/rules/validate.py:
    _read_checked): the same bad text in another folder is reported at that folder's path, a
    file changed back is valid again, and what one compile hands out is not another's."""
    first, second = tmp_path / "a" / "rules", tmp_path / "b" / "rules"
    shutil.copytree(ROOT / "rules", first)
    shutil.copytree(ROOT / "rules", second)
    rules = compile_rules(first)
    rules["parameters"].clear()
    assert compile_rules(second)["parameters"], "a compile was handed data another compile changed"
    for folder in (first, second):
        f = folder / "parameters" / "late-penalty-rate.yaml"
        good = f.read_text()
        f.write_text(good + "valeu: 0.2\n")
        [p] = problems(folder)
        assert p.startswith(str(f)) and "late-penalty-rate.yaml:6:1" in p and "valeu" in p, p
        f.write_text(good)
        assert compile_rules(folder)["parameters"]


@pytest.mark.parametrize("file, key, second", [
    ("parameters/late-penalty-rate.yaml", "value", 'value: "0.50"\n'),
    ("rate-schedules/2025-illustrative.yaml", "vc_per_1000_gallons", 'vc_per_1000_gallons: "99.00"\n'),
    ("interpretations/penalty-accrual.yaml", "chosen", "chosen: once\n"),
])
def test_a_key_given_twice_is_refused_with_both_lines(rules_copy, file, key, second):
    """Issue 35, item 10: YAML keeps the last of two equal keys without a word (a 50% penalty under a
    15% one); the rules refuse it, naming the file, the line of each, and what to do."""
    f = rules_copy / file
    text = f.read_text(encoding="utf-8")
    first_line = next(i for i, line in enumerate(text.splitlines(), 1) if line.startswith(f"{key}:"))
    f.write_text(text + second, encoding="utf-8")
    [p] = problems(rules_copy)
    last_line = len(text.splitlines()) + 1
    assert f"{Path(file).name}:{last_line}:1: the key '{key}' is given twice" in p
    assert f"(also on line {first_line})" in p and "Keep one of them." in p


@pytest.mark.parametrize("change, says", [
    (lambda f: f.write_text(f.read_text() + 'note: "open\n'), "this is not valid YAML"),
    (lambda f: f.write_bytes(f.read_bytes() + b"note: caf\xe9\n"), "late-penalty-rate.yaml:6: this file is not UTF-8"),
    (lambda f: f.write_text(""), "late-penalty-rate.yaml:1: this file is empty"),
    (lambda f: f.write_text(f.read_text() + "note: !!python/object/apply:os.system ['echo hi']\n"),
     "this is not valid YAML"),
    (lambda f: f.write_text(f.read_text() + "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{n}: &{n} [{', '.join([f'*{p}'] * 9)}]\n" for p, n in zip("abcdefgh", "bcdefghi"))),
     "late-penalty-rate.yaml:6:4: this repeats another part of the file with an alias"),
], ids=["unterminated quote", "not UTF-8", "empty", "python tag", "alias bomb"])
def test_a_broken_rule_file_is_refused_with_its_place_not_a_traceback(rules_copy, change, says):
    """Issue 35, item 13: each of these is a message naming the file and line, never a traceback or
    (the alias bomb: 9^9 items from nine lines) a machine out of memory."""
    change(rules_copy / "parameters" / "late-penalty-rate.yaml")
    [p] = problems(rules_copy)
    assert says in p
    # the catalogues' check (`build.py validate` runs it too) reads the same files: no traceback there either,
    # and the file's sentences are not called stale, which `build.py messages` would drop with their Spanish
    # (the second hostile tester)
    from kit.words import messages
    found = messages.problems(rules_copy)
    assert not [m for m in found if "is not used any more" in m]
    assert messages.unreadable_rules(rules_copy) == [rules_copy / "parameters" / "late-penalty-rate.yaml"]


@pytest.mark.parametrize("file, old, new, says", [
    ("parameters/late-penalty-rate.yaml", 'value: "0.15"', 'value: "0.50"',
     "late-penalty-rate.yaml:3:8: the value 0.50 is 50%, but its quote says 15%"),
    ("parameters/minimum-charge-water-gallons.yaml", "value: 8000", "value: 80000",
     "the value 80000 is not a number its quote states (8000)"),
    ("parameters/sampler-interval-minutes.yaml", "value: 15", "value: 51",
     "the value 51 is not a number its quote states (15)"),   # "fifteen-minute intervals", in words
    ("parameters/late-penalty-rate.yaml", 'value: "0.15"', 'value: "-0.15"', "late-penalty-rate.yaml:3:8"),
    # the third hostile tester: each passed, and the engine billed 1500%, never answered, or published it
    ("parameters/late-penalty-rate.yaml", 'value: "0.15"', 'value: "15"',
     "the value 15 is a fraction, so it means 1500%; a fraction is more than 0 and less than 1 (15% is written 0.15)"),
    ("parameters/late-penalty-period-months.yaml", "value: 3", "value: 0", "the value 0 is not more than 0"),
    ("parameters/late-penalty-period-months.yaml", "value: 3", "value: 1",
     "the value 1 is not the 3 months of the quarter its quote says"),
    ("parameters/bill-due-dates.yaml", '"10-15"]', '"10-16"]', "the days are not the one its quote names (day 15"),
    ("parameters/bill-due-dates.yaml", '"10-15"]', '"12-31"]', "the months are not the ones its quote names"),
    ("parameters/bill-due-dates.yaml", '["01-15", "04-15"', '["04-15", "01-15"', "in the order of the year"),
    ("parameters/bill-due-dates.yaml", '"04-15", "07-15", ', '"04-15", ', "the months are not the ones its quote"),
    ("parameters/bill-due-dates.yaml", '"01-15"', '"02-30"', "'02-30' is not a day of the year"),
    ("parameters/hearing-minimum-days.yaml", "value: 15", "value: 30",
     "the value 30 is not the bound its quote gives (no fewer than 15)"),
    ("parameters/hearing-maximum-days.yaml", "value: 30", "value: 15",
     "the value 15 is not the bound its quote gives (not longer than 30)"),
])
def test_a_value_that_is_not_the_number_its_quote_states_is_refused(rules_copy, file, old, new, says):
    """The second hostile tester: "0.50" under "a penalty of 15% per quarter" passed, and the site showed a
    50% penalty. The value must be a number its quote states (in digits, words or a percent)."""
    f = rules_copy / file
    f.write_text(f.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    found = problems(rules_copy)
    assert any(says in p for p in found), found


@pytest.mark.parametrize("vc, says", [
    ("856791000.00", "vc_per_1000_gallons 856791000.00 is more than $1,000.00 per 1,000 gallons"),
    ("0.00", "vc_per_1000_gallons 0.00 is not more than $0.00"),
])
def test_a_rate_no_town_could_charge_is_refused(rules_copy, vc, says):
    """The second hostile tester: a VC of $856,791,000.00 per 1,000 gallons (a volume of 1 gallon) passed."""
    f = rules_copy / "rate-schedules" / "2025-illustrative.yaml"
    f.write_text(f.read_text(encoding="utf-8").replace('vc_per_1000_gallons: "10.00"', f'vc_per_1000_gallons: "{vc}"'),
                 encoding="utf-8")
    found = problems(rules_copy)
    assert any(says in p for p in found), found


def test_a_schemas_complaints_are_said_in_the_editors_words(rules_copy):
    """The third hostile tester: "is not valid under any of the given schemas" and "Additional properties
    are not allowed ('extra' was unexpected)" say nothing to the Clerk editing a file."""
    path = rules_copy / "parameters" / "late-penalty-rate.yaml"
    path.write_text(path.read_text().replace('value: "0.15"', 'value: "abc"') + "extra: 1\n")
    with pytest.raises(RuleError) as err:
        compile_rules(rules_copy)
    text = "\n".join(err.value.problems)
    assert "'abc' is not in any form this key takes" in text and "'extra' is not a key this file takes" in text
    for jargon in ("given schemas", "Additional properties", "was unexpected", "is a required property"):
        assert jargon not in text


# ---- the fourth hostile tester: each message names the place and says what to write, in plain words ----

def test_a_mistyped_key_names_the_key_and_the_keys_allowed_never_the_file_as_a_dict(rules_copy):
    f = rules_copy / "parameters" / "minimum-charge-water-gallons.yaml"
    f.write_text(f.read_text().replace("value: 8000", "minimun: 8000"))
    shown = "rules/parameters/minimum-charge-water-gallons.yaml"
    assert [p[p.index(shown):] for p in problems(rules_copy)] == [
        f"{shown}:3:1: 'minimun' is not a key this file takes. Remove or rename it; the keys allowed here are: cite, "
        "description, quote, source, status, unit, value, values",
        f"{shown}:1:1: this needs 'value' with 'quote', or 'values'. Add one of them."]
    f = rules_copy / "interpretations" / "penalty-quarter.yaml"
    f.write_text(f.read_text().replace("chosen:", "chosn:"))
    assert any("penalty-quarter.yaml:5:1: 'chosn' is not a key this file takes (did you mean 'chosen'?)." in p
               for p in problems(rules_copy))


def test_a_value_of_the_wrong_kind_is_said_in_plain_words(rules_copy):
    """Not "[1] should be a object"."""
    f = rules_copy / "parameters" / "late-penalty-rate.yaml"
    f.write_text(f.read_text().replace('value: "0.15"', 'value: "0.15"\nvalues: [1]'))
    [p] = problems(rules_copy)
    assert p.endswith("late-penalty-rate.yaml:4:9: this is a list, [1], but this key takes a group of keys (each "
                      "`key: value` on its own line, indented under this one).")


def test_a_provision_renamed_in_the_law_names_each_file_that_cites_the_old_id(rules_copy):
    """Not "Use one of its ids, such as 'rents.F' or 'minimum-charge'", the id just removed."""
    f = rules_copy / "law.yaml"
    f.write_text(f.read_text().replace("id: minimum-charge\n", "id: minimum-charges\n"))
    found = problems(rules_copy)
    says = ("this cites the provision 'minimum-charge', which rules/law.yaml does not have (renamed or removed "
            "there?). Write the provision's id as law.yaml has it now (perhaps 'minimum-charges'), or give the "
            "provision back its old id in law.yaml.")
    assert any(p.endswith(f"parameters/minimum-charge-water-gallons.yaml:4:7: {says}") for p in found), found
    assert any(p.endswith(f"interpretations/minimum-per-property.yaml:5:8: {says}") for p in found), found
    assert all(p.endswith(says) for p in found)


@pytest.mark.parametrize("value, shown", [("5", "5"), ("[a]", "['a']"), ("Street Opening", "'Street Opening'")])
def test_next_given_a_bad_value_says_the_values_it_takes(rules_copy, value, shown):
    f = rules_copy / "permits.yaml"
    text = f.read_text()
    first = text.index("next: ", text.index("questions:"))
    f.write_text(text[:first] + f"next: {value}" + text[text.index("\n", first):])
    [p] = problems(rules_copy)
    assert f"permits.yaml:{text[:first].count(chr(10)) + 1}:" in p
    assert p.split(": ", 1)[1] == (
        f"next {shown} is not a question or an outcome. `next` names the question to ask next, or the outcome: write "
        "one of the questions (work, street-opening, septic-or-cesspool-link, flammables-washstand, oil-separator, "
        "steam-exhaust, trade-waste, pretreatment, manure-or-cesspool-overflow, garbage-grinder, stormwater, "
        "other-water, industrial-waste, sewer-pipe) or of the outcomes (prohibited, needs-approval, permit-required).")


def test_an_outcome_listed_twice_in_precedence_names_both_places(rules_copy):
    """Not "['prohibited', 'needs-approval', 'prohibited'] has non-unique elements"."""
    f = rules_copy / "permits.yaml"
    old = "precedence: [prohibited, needs-approval, permit-required]"
    line = f.read_text().split(old)[0].count("\n") + 1
    f.write_text(f.read_text().replace(old, "precedence: [prohibited, needs-approval, prohibited]"))
    [p] = problems(rules_copy)
    assert p.endswith(f"permits.yaml:{line}:13: 'prohibited' is listed twice in this list, at line {line}, column 14 "
                      f"and line {line}, column 42. Each item may be listed once: remove one, or write in its place "
                      "the one that is missing. `precedence` lists every outcome once, most serious first: "
                      "prohibited, needs-approval, permit-required.")


@pytest.mark.parametrize("character, named", [("\x00", "a NUL character (a zero byte)"),
                                              ("\x07", "the invisible control character U+0007")])
def test_a_control_character_in_a_rule_file_gets_its_line_and_column(rules_copy, character, named):
    """Not "unacceptable character #x0000 … position 95", on two lines."""
    f = rules_copy / "parameters" / "late-penalty-rate.yaml"
    f.write_text(f.read_text().replace("unit: fraction", f"unit: frac{character}tion"))
    [p] = problems(rules_copy)
    assert "\n" not in p and p.endswith(
        f"late-penalty-rate.yaml:2:11: there is {named} here, which a YAML file cannot hold (pasted from another "
        "program, perhaps). Delete it, retyping the line if the editor does not show it, and save the file as UTF-8 "
        "text.")


@pytest.mark.parametrize("value, says", [
    ("1.80", "sewage_fraction 1.80 is more than 1: it is a fraction, between 0 and 1 (80% is written \"0.80\"). "
             "Write it as a number between 0 and 1 in quotes"),
    ("80%", "'80%' is not a fraction. Write sewage_fraction as a number between 0 and 1 in quotes, like \"0.80\" "
            "for 80%"),
    # hostile26 #4: a share of 0 passed and billed everyone $0.00
    ("0", "sewage_fraction 0 is 0: every bill would then be $0.00. It is the share of metered water billed as sewage, "
          "more than 0 and at most 1 (80% is written \"0.80\"). Write the Town's share in quotes"),
    ("0.000", "sewage_fraction 0.000 is 0: every bill would then be $0.00."),
])
def test_a_sewage_fraction_out_of_range_says_it_is_between_0_and_1(rules_copy, value, says):
    """Not "'1.80' is not in the expected form"."""
    f = rules_copy / "rate-schedules" / "2025-illustrative.yaml"
    f.write_text(f.read_text().replace('sewage_fraction: "0.80"', f'sewage_fraction: "{value}"'))
    [p] = problems(rules_copy)
    assert f"2025-illustrative.yaml:10:18: {says}" in p, p


@pytest.mark.parametrize("words, value", [("forty-five", 45), ("forty five", 45), ("thirty-one", 31),
                                          ("ninety-nine", 99)])
def test_an_amendment_writing_a_compound_number_in_words_is_read_as_that_number(rules_copy, words, value):
    """The fifth hostile tester: rents.F amended to "after nonpayment for forty-five days", with value 45
    and the matching quote, was refused: "the value 45 is not a number its quote states (5, 40)"."""
    law = rules_copy / "law.yaml"
    law.write_text(law.read_text(encoding="utf-8").replace("after nonpayment for 30\n        days.",
                                                           f"after nonpayment for {words}\n        days."),
                   encoding="utf-8")
    for quoting in (*rules_copy.glob("parameters/*.yaml"), *rules_copy.glob("interpretations/*.yaml")):
        quoting.write_text(quoting.read_text(encoding="utf-8").replace("nonpayment for 30 days",
                                                                       f"nonpayment for {words} days"),
                           encoding="utf-8")
    grace = rules_copy / "parameters" / "late-penalty-grace-days.yaml"
    grace.write_text(grace.read_text(encoding="utf-8").replace("value: 30", f"value: {value}"), encoding="utf-8")
    assert compile_rules(rules_copy)["parameters"]["late-penalty-grace-days"]["value"] == value
    grace.write_text(grace.read_text(encoding="utf-8").replace(f"value: {value}", "value: 5"), encoding="utf-8")
    assert any(f"the value 5 is not a number its quote states ({value})" in p for p in problems(rules_copy))


@pytest.mark.parametrize("quote, numbers", [
    ("after nonpayment for forty-five days", {45}), ("forty five days", {45}), ("twenty-one members", {21}),
    ("one hundred gallons", {100}), ("one hundred and twenty days", {120}), ("one hundred twenty-five", {125}),
    ("two thousand five hundred gallons", {2500}), ("fifteen-minute intervals", {15}),
    ("within thirty (30) days", {30}), ("five or six days", {5, 6}), ("sixty days, then ninety", {60, 90}),
])
def test_numbers_in_words_are_read_whole(quote, numbers):
    from kit.rules.validate import _quoted_numbers
    assert _quoted_numbers(quote)[0] == {Decimal(n) for n in numbers}


def test_validate_says_what_it_found_not_that_nothing_was_built(rules_copy, monkeypatch, capsys):
    """The fifth hostile tester: `build.py validate` said "The rules have problems; nothing was built:",
    though validate builds nothing."""
    from kit.rules import validate
    (rules_copy / "parameters" / "late-penalty-rate.yaml").write_text("")
    monkeypatch.setattr(validate, "RULES_DIR", rules_copy)
    assert validate.main([]) == 1
    err = capsys.readouterr().err
    assert err.startswith("The rules have 1 problem. Fix each (file:line: what to change), then run "
                          "`python3 build.py validate` again:\n") and "nothing was built" not in err, err


def test_an_empty_chosen_reading_lists_the_options(rules_copy):
    """H31: an empty `chosen:` was told "Put it in quotes", which does not help; it is told the options."""
    path = rules_copy / "interpretations" / "late-adoption.yaml"
    path.write_text(path.read_text().replace("chosen: refuse\n", "chosen:\n"))
    ps = problems(rules_copy)
    assert any("late-adoption.yaml:7:8: 'chosen' is empty. Write the option the Town has chosen, one of: refuse, "
               "first-quarter-after." in p for p in ps), ps
    assert not any("quotes" in p for p in ps), ps


@pytest.mark.parametrize("edit, line", [
    (lambda lines: [*lines[:2], 'value: "0.20', "cite: rents.F"], 3),  # the tester's: a quote opened on line 3
    (lambda lines: [*lines, "note: 'open"], None),  # a single quote opened on the last line
])
def test_an_unclosed_quote_is_reported_where_it_opens_never_past_the_end(rules_copy, edit, line):
    """The seventh hostile tester (F10): `value: "0.20` on line 3 was reported at ":5:1" of a 4-line file (where
    the YAML reader found the end of the stream). The line given is where the quote opens."""
    f = rules_copy / "parameters" / "late-penalty-rate.yaml"
    lines = edit(f.read_text(encoding="utf-8").splitlines())
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    line = line or len(lines)
    [p] = problems(rules_copy)
    column = lines[line - 1].index(lines[line - 1].split(": ", 1)[1]) + 1
    assert p.startswith(f"{f}:{line}:{column}: this is not valid YAML") and "is never closed" in p, p


@pytest.mark.parametrize("name", ["holidays", "contacts", "permits", "application-form"])
def test_a_missing_rules_file_is_refused_by_name_and_the_site_is_kept(rules_copy, tmp_path, name):
    """The tenth hostile tester (F1): without rules/holidays.yaml, validation passed and the build ended in a
    KeyError traceback. Each file the site needs is refused by name, with how to put it back."""
    (rules_copy / f"{name}.yaml").unlink()
    said = problems(rules_copy)
    assert any(p.startswith(f"rules/{name}.yaml is missing.") and "git checkout -- rules/" in p for p in said), said
    # `build.py messages` leaves the catalogues alone: the file's sentences would look unused and be dropped
    from kit.words import messages
    assert messages.unreadable_rules(rules_copy) == [rules_copy / f"{name}.yaml"]
    refused_and_site_kept(rules_copy, tmp_path)


def test_a_quote_left_open_is_reported_on_its_own_line_and_a_tag_says_what_to_do(rules_copy):
    """The tenth hostile tester (F3): `value: "0.15` on line 3 was reported at 5:9, where the parser met the next
    quote, and a `!!python` tag's message said nothing to do. A value written over several lines in quotes, as
    the law's text is, is not taken for a quote left open."""
    f = rules_copy / "parameters" / "late-penalty-rate.yaml"
    good = f.read_text(encoding="utf-8")
    lines = good.splitlines()
    number = next(i for i, line in enumerate(lines) if line.startswith("value:"))
    lines[number] = 'value: "0.15'
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    [p] = problems(rules_copy)
    assert f"parameters/late-penalty-rate.yaml:{number + 1}:8: this is not valid YAML" in p, p
    assert "The quote that opens on this line is not closed on it" in p
    f.write_text(good + "note: !!python/object/apply:os.system ['echo hi']\n", encoding="utf-8")
    [p] = problems(rules_copy)
    assert "the tag !!python/object/apply:os.system" in p and "The rules take no tags" in p
    # hostile26 #8: `value: null` was "None is not in any form …" (Python's word)
    lines[number] = "value: null"
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    [p] = problems(rules_copy)
    assert "an empty value is not in any form this key takes" in p and "None" not in p, p
    # hostile25 #10: `!!binary` was read as bytes and shown as b'0.15'; a set or a date object neither
    for value in ("!!binary MC4xNQ==", "!!set {a, b}", "!!timestamp 2027-01-01", "!!omap [a: 1]"):
        lines[number] = f"value: {value}"
        f.write_text("\n".join(lines) + "\n", encoding="utf-8")
        [p] = problems(rules_copy)
        assert f"parameters/late-penalty-rate.yaml:{number + 1}:8: this is not valid YAML (the tag {value.split()[0]} " \
            in p and "The rules take no tags" in p and "b'" not in p, p
    # a quoted value over several lines, then a problem far below it: the problem's own line
    from kit.rules.validate import _unclosed_quote
    text = "a: 'one\n  two'\nb: 1\nc: 2\nd: [\n"
    assert _unclosed_quote(text, 4) is None
    assert _unclosed_quote("a: 1\nb: \"open\nc: 2\nd: \"x\"\n", 3).line == 1
    # prose in a block scalar that opens a quote is not a value
    assert _unclosed_quote("why: >-\n  It says: \"these\n  words\" here.\nb: 1\n", 3) is None


@pytest.mark.parametrize("name", ["law.yaml", "schemas/parameter.schema.json"])
def test_a_missing_law_or_schema_is_said_by_name_once(rules_copy, name):
    """The eleventh hostile tester (F10): without rules/law.yaml or a schema, validate and the build ended with
    "the output could not be written" (exit 74), the message for a full output, naming no file."""
    (rules_copy / name).unlink()
    said = problems(rules_copy)
    assert said.count(f"rules/{name} is missing. The rules cannot be checked without it. Put it back "
                      f"(git checkout -- rules/{name}) or restore it from a copy.") == 1, said


def test_a_leading_zero_and_a_day_that_does_not_exist_are_named_for_what_they_are(tmp_path):
    """The seventeenth hostile tester, F4 and F5: `value: 030` was reported as "the value 24", and "2025-02-30" as
    "not in the expected form", though it is written as dates are."""
    import shutil
    from kit.rules.validate import RULES_DIR as _RULES, RuleError as _RuleError, compile_rules as _compile
    copy = tmp_path / "rules"
    shutil.copytree(_RULES, copy)
    grace = copy / "parameters" / "late-penalty-grace-days.yaml"
    grace.write_text(grace.read_text(encoding="utf-8").replace("\nvalue: 30\n", "\nvalue: 030\n"), encoding="utf-8")
    schedule = copy / "rate-schedules" / "2025-illustrative.yaml"
    schedule.write_text(schedule.read_text(encoding="utf-8").replace("\neffective: 2025-01-01", '\neffective: "2025-02-30"'),
                        encoding="utf-8")
    with pytest.raises(_RuleError) as refused:
        _compile(copy)
    said = "\n".join(refused.value.problems)
    # (hostile29 #12: a number with a leading zero is refused as it is read, before any other check)
    assert "late-penalty-grace-days.yaml" in said and "the number 030 is written in a form YAML reads as another " \
        "number (a leading zero makes it octal: 010 is read as 8)" in said and "(10, not 010)" in said, said
    grace.write_text(grace.read_text(encoding="utf-8").replace("\nvalue: 030\n", "\nvalue: 30\n"), encoding="utf-8")
    with pytest.raises(_RuleError) as refused:
        _compile(copy)
    said = "\n".join(refused.value.problems)
    assert "'2025-02-30' is written correctly, but there is no such date" in said, said


@pytest.mark.parametrize("written", ["010", "0x0A", "1_0", "1:30"])
def test_a_number_yaml_would_read_as_another_is_refused_at_its_place(rules_copy, written):
    """hostile29 #12: `value: 010` for the Town Board's size was read as 8 (YAML's octal) and validate said nothing:
    the vote then needed 5 ayes, not 6. A number in a form YAML reads as another is refused, saying how to write it."""
    path = rules_copy / "parameters" / "town-board-size.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(re.sub(r"(?m)^value: .*$", f"value: {written}", text), encoding="utf-8")
    [p] = problems(rules_copy)
    assert f"town-board-size.yaml:3:8: this is not valid YAML (the number {written} is written in a form YAML reads " \
           f"as another number" in p and "without a leading zero (10, not 010)" in p, p


@pytest.mark.parametrize("fraction, says", [("{numerator: 1, denominator: 0}", "denominator is 0"),
                                            ("{numerator: 1.5, denominator: 20}", "numerator is 1.5")])
def test_a_fraction_s_own_problem_is_said(rules_copy, fraction, says):
    """The thirtieth hostile tester: a fraction with denominator 0 got only "not in any form this key takes"."""
    path = rules_copy / "parameters" / "late-penalty-rate.yaml"
    path.write_text(path.read_text().replace('value: "0.15"', f"value: {fraction}"))
    with pytest.raises(RuleError) as err:
        compile_rules(rules_copy)
    text = "\n".join(err.value.problems)
    assert "the denominator 1 or more" in text and says in text, text
