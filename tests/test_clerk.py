"""The Town Clerk's year: propose a rate schedule, publish the notice, adopt it by majority
vote, tell the users (rents.D, rate-schedules.A-D, minimum-charge). Each test works on a
copy of rules/ in a temporary folder."""
import datetime as dt
import io
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

from calculator.bills import bill
from calculator.core import schedule
from kit.clerk import command as clerk, notices
from kit.documents import pdf
from kit.rules.validate import RULES_DIR, compile_rules

ROOT = Path(__file__).resolve().parent.parent

# A year in the past, so the dates do not depend on when the tests run.
PROPOSE = ["propose", "--retroactive", "--fiscal-year", "2026", "--effective", "2026-01-01", "--om-cost", "856791",
           "--sewage-fraction", "0.80",  # the Town's: the example schedule's invented share is not taken (F3)
           "--user-volume-gallons", "85,000,000", "--proposed-on", "2025-10-01"]
PUBLISHED = "2025-10-15"        # the meeting may be from 2025-10-30 (day 15) to 2025-11-14 (day 30)
MEETING = ["--meeting", "2025-10-30", "--time", "19:30", "--place", "Pawling Town Hall, 160 Charles Colman Blvd"]
SITE = "https://sewer.pawling.example/"   # the site's address, in the copy's mkdocs.yml (unset in the repository's)


@pytest.fixture
def town(tmp_path):
    """A copy of rules/ and a folder for the notices; `town.run(...)` runs a command on them."""
    shutil.copytree(RULES_DIR, tmp_path / "rules")
    (tmp_path / "mkdocs.yml").write_text(f"site_name: copy\nsite_url: {SITE}\n")

    class Town:
        root = tmp_path
        rules = tmp_path / "rules"
        out = tmp_path / "out"
        folder = tmp_path / "rules" / "rate-schedules" / "2026"   # one file per step: proposal, notice, vote

        def run(self, *argv):
            return clerk.main([*argv, "--rules-dir", str(self.rules)])

        def files(self):
            """Every file under the temporary folder, with its bytes."""
            return {p.relative_to(tmp_path): p.read_bytes() for p in sorted(tmp_path.rglob("*")) if p.is_file()}

        def notice(self, *meeting):
            return self.run("notice", "2026", "--published", PUBLISHED, *(meeting or MEETING),
                            "--output-dir", str(self.out))

    return Town()


def refused(town, capsys, *argv) -> str:
    """Run a command that must be refused: exit 2, one line saying why, and not a byte changed."""
    before = town.files()
    code = town.run(*argv)
    captured = capsys.readouterr()
    assert code == 2, captured
    assert captured.err.startswith("error: ") and captured.err.count("\n") == 1, captured.err
    assert town.files() == before, "a refused command changed a file"
    return captured.err


# ---- the whole year -----------------------------------------------------------------------------

def test_the_clerks_year_from_proposal_to_adoption(town, capsys):
    assert town.run(*PROPOSE) == 0
    out = capsys.readouterr().out
    assert "$10.08 per 1,000 gallons" in out                      # 856,791 / 85,000,000 x 1,000
    assert "8,000" in out and "15,000" in out and "30,000" in out  # the table of typical bills
    assert "$64.00" in out and "$64.51" in out                     # 8,000 gallons now and proposed

    err = refused(town, capsys, "notice", "2026", "--published", PUBLISHED, "--meeting", "2025-10-29",
                  "--time", "19:30", "--place", "Town Hall", "--output-dir", str(town.out))
    assert "14 days" in err and "between October 30, 2025 and November 14, 2025" in err
    assert "or publish the notice by October 14, 2025" in err     # every lawful way out

    assert town.notice() == 0
    capsys.readouterr()

    err = refused(town, capsys, "adopt", "2026", "--date", "2025-11-10", "--ayes", "2", "--noes", "2", "--absent", "1")
    assert "majority of all 5 members" in err and "3 are needed" in err
    err = refused(town, capsys, "adopt", "2026", "--date", "2025-10-29", "--ayes", "3", "--noes", "2")
    assert "before the public-comment meeting on October 30, 2025" in err

    assert town.run("adopt", "2026", "--date", "2025-11-10", "--ayes", "3", "--noes", "1", "--absent", "1",
                    "--resolution", "2025-88") == 0
    rules = compile_rules(town.rules)
    new = schedule.in_force(rules, dt.date(2026, 1, 1))
    assert new["id"] == "2026" and new["status"] == "adopted"
    assert new["adoption"] == {"date": "2025-11-10", "ayes": 3, "noes": 1, "absent": 1, "resolution": "2025-88"}
    assert new["notice"]["meeting"] == "2025-10-30" and new["notice"]["time"] == "19:30"
    assert schedule.in_force(rules, dt.date(2025, 12, 31))["id"] == "2025-illustrative"
    assert bill.compute(rules, "2026-Q1", {"water-gallons": "15000"})["charge"] == "120.96"


def test_the_proposed_schedule_file(town, capsys):
    assert town.run(*PROPOSE, "--extraneous-flow-cost", "25000") == 0
    rules = compile_rules(town.rules)
    s = notices.find_schedule(rules, "2026")
    assert {k: v for k, v in s.items() if not k.startswith("_")} == {
        "id": "2026", "title": "Rate schedule for fiscal year 2026", "status": "proposed", "fiscal_year": 2026,
        "title_es": "Tabla de tarifas del año fiscal 2026",  # every language the site speaks (issue 22)
        # Issue 13, finding 2: the extraneous-flow cost is part of the O&M cost, not added again
        # (this test used to expect 10.37 = (856,791 + 25,000) / 85,000,000 x 1,000).
        "effective": "2026-01-01", "vc_per_1000_gallons": "10.08",   # 856,791 / 85,000,000 x 1,000
        "sewage_fraction": "0.80",                                    # the Town's, entered (F3)
        "cite": "rents.D",
        "basis": {"om_cost": "856791.00", "user_volume_gallons": "85000000", "extraneous_flow_cost": "25000.00"},
        "proposed_on": "2025-10-01"}
    # A proposed schedule is never in force: bills still use the old one.
    assert schedule.in_force(rules, dt.date(2026, 1, 1))["id"] == "2025-illustrative"


def test_the_clerk_gives_the_spanish_title_and_a_note_in_both_languages(town, capsys):
    """Issue 22: a schedule's title and note show on the Spanish pages too, in the Clerk's Spanish."""
    assert town.run(*PROPOSE, "--title-es", "Tabla de tarifas 2026 (propuesta)",
                    "--note", "Rates rise because the plant's pumps were replaced.",
                    "--note-es", "Las tarifas suben porque se cambiaron las bombas de la planta.") == 0
    s = compile_rules(town.rules)["schedules"][-1]
    assert (s["title"], s["title_es"]) == ("Rate schedule for fiscal year 2026", "Tabla de tarifas 2026 (propuesta)")
    assert s["note"] == "Rates rise because the plant's pumps were replaced."
    assert s["note_es"] == "Las tarifas suben porque se cambiaron las bombas de la planta."


@pytest.mark.parametrize("given, says", [
    (["--note", "Rates rise."], "Enter --note-es too: the Spanish pages show the note in Spanish"),
    (["--note-es", "Las tarifas suben."], "Enter --note too: the English pages show the note in English"),
    (["--note", "Rates rise.", "--note-es", "  "], "Enter --note-es"),
])
def test_a_note_in_one_language_only_is_refused(town, capsys, given, says):
    assert says in refused(town, capsys, *PROPOSE, *given)


@pytest.mark.parametrize("note, note_es", [
    ("Lowered after Luis Ortega of 22 Quaker Hill Road asked; he owes $388.10.", "Bajó tras bombas nuevas."),
    ("Lowered after Luis Ortega asked; he still owes $388.", "Tras la queja de Luis Ortega, que debe 388 dólares."),
    ("Lowered after new pumps.", "Tras la queja de Luis Ortega, que debe 388 dólares."),
])
def test_a_note_naming_a_resident_and_a_debt_is_refused_before_anything_is_written(town, capsys, note, note_es):
    """hostile14 P4: the note is published as it is; the step refuses it, rather than the build later."""
    said = refused(town, capsys, *PROPOSE, "--note", note, "--note-es", note_es)
    assert "looks like account data" in said and ("--note " in said if "Ortega" in note else "--note-es " in said), said


@pytest.mark.parametrize("option, words", [
    ("--note", "acct 10442 bal 1204.33"),                                    # hostile15 P1
    ("--note", "Mr. Whitfield on Route 22 has paid nothing since March"),
    ("--note", "Shut-off list: Whitfield (Rt 22), Ortega (Oak St)"),
    ("--note", "ref " + __import__("base64").b64encode(b"Luis Ortega, 14 Oak Street, owes 388.10").decode()),  # P2
    ("--note", "Refund of 45.20 sent to Mrs. Janet Okafor"),                 # hostile25 #6
    ("--note", "Thanks to Janet Okafor, who paid 412.50."),                  # hostile26 #2
    ("--note", "$412.50 is the balance of Okafor, Janet."), ("--note", "OKAFOR JANET USD 412.50"),
    ("--note", "The Okafor family owes $412.50"), ("--note", "Janet Okafor lives on Dutcher Avenue and paid 412.50"),
    ("--note", "Contact janet.okafor@gmail.com"),                           # hostile26 #3: a person's own mailbox
])
def test_account_data_in_any_form_is_refused_before_anything_is_written(town, capsys, option, words):
    said = refused(town, capsys, *PROPOSE, "--note", words, "--note-es", "Bajó tras bombas nuevas.")
    assert "looks like account data" in said and "--note " in said, said


def test_a_clerk_name_holding_an_account_is_refused_and_the_town_hall_is_not(town, capsys):
    assert town.run(*PROPOSE) == 0
    said = refused(town, capsys, "notice", "2026", "--published", PUBLISHED, *MEETING, "--output-dir", str(town.out),
                   "--clerk-name", "Jane Doe (acct 10442 bal 1204.33)")
    assert "--clerk-name" in said and "is not a name to print" in said, said  # its form refuses it first
    assert town.notice() == 0  # "Pawling Town Hall, 160 Charles Colman Blvd" is the Town's place, not a resident's


@pytest.mark.parametrize("typed", ["2027-41, thanks to Janet Okafor for her $412.50", "Okafor 412.50",
                                   "see https://x.example/?name=Okafor", "passed unanimously"])
def test_a_resolution_is_a_number_not_words(town, capsys, typed):
    """The twenty-seventh hostile tester published a name and an amount through --resolution (to the notices,
    the feed, the open data and the engine): it is printed as typed, so it takes only a resolution's number."""
    assert town.run(*PROPOSE) == 0
    assert town.notice() == 0
    capsys.readouterr()
    said = refused(town, capsys, "adopt", "2026", "--date", "2025-11-10", "--ayes", "3", "--noes", "1", "--absent",
                   "1", "--resolution", typed)
    assert "--resolution" in said and "is not a resolution's number" in said and "like 2027-41" in said, said


@pytest.mark.parametrize("typed", ["2025-88", "88", "Res. No. 88 of 2025", "Resolución núm. 88 de 2025", "R-2025-88"])
def test_a_resolution_written_as_towns_number_them_is_taken(town, capsys, typed):
    assert town.run(*PROPOSE) == 0 and town.notice() == 0
    assert town.run("adopt", "2026", "--date", "2025-11-10", "--ayes", "3", "--noes", "1", "--absent", "1",
                    "--resolution", typed) == 0
    assert schedule.in_force(compile_rules(town.rules), dt.date(2026, 1, 1))["adoption"]["resolution"] == typed


@pytest.mark.parametrize("typed", ["Janet Okafor 412.50", "jane.doe@gmail.com", "Jane Doe, 9 Dutcher Ave",
                                   "Jane Doe who signs for the Town Board today"])
def test_a_clerk_name_is_a_name(town, capsys, typed):
    assert town.run(*PROPOSE) == 0
    capsys.readouterr()
    said = refused(town, capsys, "notice", "2026", "--published", PUBLISHED, *MEETING, "--output-dir", str(town.out),
                   "--clerk-name", typed)
    assert "--clerk-name" in said and "is not a name to print" in said and "like Jane Doe" in said, said


def test_an_unknown_option_names_the_steps_own_help(town, capsys):
    """The seventeenth hostile tester, F3: `rates propose … --bogus 1` pointed to `rates --help`, the steps' list."""
    said = refused(town, capsys, *PROPOSE, "--bogus", "1")
    assert "Unrecognized arguments: --bogus 1. Run `python build.py rates propose --help`" in said, said


def test_a_cost_that_rounds_the_rate_to_nothing_says_so(town, capsys):
    """The sixteenth hostile tester, U4: `--om-cost 1` was told it "must be more than 0"."""
    argv = list(PROPOSE)
    argv[argv.index("--om-cost") + 1] = "1"
    said = refused(town, capsys, *argv)
    assert "which rounds to nothing" in said and "--om-cost is far too small" in said and "more than 0" not in said


@pytest.mark.parametrize("given", [".85", "0.85", "85%", "85 %"])
def test_a_fraction_can_be_given(town, capsys, given):
    argv = list(PROPOSE)
    argv[argv.index("--sewage-fraction") + 1] = given
    assert town.run(*argv) == 0
    assert compile_rules(town.rules)["schedules"][-1]["sewage_fraction"] == "0.85"


def test_proposing_again_replaces_the_proposal_and_drops_its_notice(town, capsys):
    assert town.run(*PROPOSE) == 0 and town.notice() == 0
    assert town.run(*PROPOSE[:-4], "--user-volume-gallons", "80000000", "--proposed-on", "2025-10-20") == 0
    assert "publish and record a new notice" in capsys.readouterr().out
    s = notices.find_schedule(compile_rules(town.rules), "2026")
    assert s["vc_per_1000_gallons"] == "10.71" and "notice" not in s


def test_proposing_again_in_a_rules_folder_of_another_name_keeps_the_new_proposal(town, capsys):
    """H16: with --rules-dir naming a folder not called rules/, proposing again removed the proposal just
    written (and its notice), leaving the year's folder empty; the messages named rules/ (H29)."""
    other = town.root / "rc"
    town.rules.rename(other)
    town.rules, town.folder = other, other / "rate-schedules" / "2026"
    assert town.run(*PROPOSE) == 0 and town.notice() == 0
    assert ": rc/rate-schedules/2026/proposal.yaml." in capsys.readouterr().out
    assert town.run(*PROPOSE[:-4], "--user-volume-gallons", "80000000", "--proposed-on", "2025-10-20") == 0
    out = capsys.readouterr().out
    assert sorted(p.name for p in town.folder.iterdir()) == ["proposal.yaml"]
    assert out.splitlines()[0].endswith(": rc/rate-schedules/2026/proposal.yaml.")
    assert f"Removed {other}/rate-schedules/2026/notice.yaml." in out and "rules/rate-schedules" not in out
    s = notices.find_schedule(compile_rules(other), "2026")
    assert s["vc_per_1000_gallons"] == "10.71" and "notice" not in s
    assert town.run(*PROPOSE[:-4], "--user-volume-gallons", "81000000", "--proposed-on", "2025-10-21") == 0
    assert sorted(p.name for p in town.folder.iterdir()) == ["proposal.yaml"]


# ---- refusals ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("change, says", [
    (["--om-cost", "lots"], "must be a number"),
    (["--om-cost", "-5"], "cannot be negative"),
    (["--om-cost", "0"], "must be more than 0"),
    (["--om-cost", "856791.123"], "dollars and cents"),
    (["--user-volume-gallons", "0"], "more than 0 gallons"),
    (["--user-volume-gallons", "many"], "must be a number"),
    (["--extraneous-flow-cost", "x"], "must be a number"),
    # the estimator's forms and questions (the eighth hostile tester, F10: 85 was refused here, read as 85% there)
    (["--sewage-fraction", "1.5"], "--sewage-fraction, 1.5, is not clear. Did you mean 1.5%? Write 1.5% (with the % sign) "
                                   "or 0.015."),
    (["--sewage-fraction", "85"], "Did you mean 85%? Write 85% (with the % sign) or 0.85."),
    (["--sewage-fraction", "150%"], "more than 0% and at most 100%"),
    (["--sewage-fraction", "0"], "more than 0"),
    (["--fiscal-year", "26"], "four digits"),
    (["--effective", "2026-02-30"], "is not a date"),
    (["--effective", "2062-01-01"], "is not in fiscal year 2026"),
    (["--effective", "2025-06-01"], "is not in fiscal year 2026: a schedule for 2026 starts on a day of that year, "
                                    "like January 1, 2026"),
    (["--effective", "2025-01-01", "--fiscal-year", "2025", "--proposed-on", "2024-10-01"],
     "already starts on January 1, 2025"),
    (["--proposed-on", "2026-01-01"], "is not after the day the schedule is proposed, January 1, 2026"),
    (["--proposed-on", "2026-03-01"], "to record a proposal made in an earlier year"),
])
def test_propose_with_bad_numbers_is_refused(town, capsys, change, says):
    argv = list(PROPOSE)
    for option, value in zip(change[::2], change[1::2]):
        if option in argv:
            argv[argv.index(option) + 1] = value
        else:
            argv += [option, value]
    assert says in refused(town, capsys, *argv)


def test_adoption_without_a_notice_is_refused(town, capsys):
    assert town.run(*PROPOSE) == 0
    err = refused(town, capsys, "adopt", "2026", "--date", "2025-11-10", "--ayes", "5", "--noes", "0")
    assert "No notice has been published" in err and "the `notice` step" in err
    assert "by December 17, 2025, so the meeting can be held by January 1, 2026" in err   # the last lawful day


def test_a_vote_with_more_members_than_the_board_is_refused(town, capsys):
    assert town.run(*PROPOSE) == 0 and town.notice() == 0
    err = refused(town, capsys, "adopt", "2026", "--date", "2025-11-10", "--ayes", "3", "--noes", "2", "--absent", "1")
    assert "the Town Board has 5" in err


def test_a_vote_dated_after_today_is_refused_until_it_is_recorded_on_its_day(town, capsys):
    """The second hostile tester: a vote dated in the future was recorded as held. It is refused against
    today (--recorded-on, default today's date), and taken once the day of recording is after it."""
    import datetime as dt
    assert town.run(*PROPOSE) == 0 and town.notice() == 0
    err = refused(town, capsys, "adopt", "2026", "--date", "2025-11-10", "--ayes", "3", "--noes", "1",
                  "--recorded-on", "2025-11-09")
    assert "--date November 10, 2025 is after today, November 9, 2025" in err and "--recorded-on" in err
    soon = (dt.date.today() + dt.timedelta(days=3)).isoformat()
    assert "is after today" in refused(town, capsys, "adopt", "2026", "--date", soon, "--ayes", "3", "--noes", "1")
    assert town.run("adopt", "2026", "--date", "2025-11-10", "--ayes", "3", "--noes", "1",
                    "--recorded-on", "2025-11-10") == 0


def test_a_vote_count_must_be_a_whole_number(town, capsys):
    assert town.run(*PROPOSE) == 0 and town.notice() == 0
    assert "whole number" in refused(town, capsys, "adopt", "2026", "--date", "2025-11-10", "--ayes", "three", "--noes", "0")


def test_an_adopted_schedule_is_not_noticed_again_nor_re_proposed(town, capsys):
    assert town.run(*PROPOSE) == 0 and town.notice() == 0
    assert town.run("adopt", "2026", "--date", "2025-11-10", "--ayes", "3", "--noes", "2") == 0
    assert "is adopted, not proposed" in refused(town, capsys, "notice", "2026", "--published", PUBLISHED, *MEETING)
    assert "already adopted" in refused(town, capsys, *PROPOSE)
    assert "not proposed" in refused(town, capsys, "adopt", "2026", "--date", "2025-11-11", "--ayes", "5", "--noes", "0")


def test_an_illustrative_schedule_is_not_noticed(town, capsys):
    assert "is illustrative, not proposed" in refused(
        town, capsys, "notice", "2025-illustrative", "--published", PUBLISHED, *MEETING)


def test_notice_refuses_bad_time_and_unknown_schedule(town, capsys):
    assert town.run(*PROPOSE) == 0
    assert "Write it like 7:00 pm, 7 pm or 19:00" in refused(
        town, capsys, "notice", "2026", "--published", PUBLISHED, "--meeting", "2025-10-30", "--time", "7",
        "--place", "Town Hall")
    assert "no schedule proposed for “2027”" in refused(town, capsys, "notice", "2027", "--published", PUBLISHED,
                                                        *MEETING)
    early = refused(town, capsys, "notice", "2026", "--published", "2025-09-01", "--meeting", "2025-09-20",
                    "--time", "19:00", "--place", "Town Hall")
    assert "before the schedule was proposed" in early
    # where the proposal's date is changed (the usability test: the fix is in the proposal, not the notice)
    assert "enter that day as --proposed-on in the `propose` step and propose it again" in early


def test_broken_rules_are_reported_and_nothing_is_written(town, capsys):
    law = town.rules / "parameters" / "town-board-size.yaml"
    law.write_text(law.read_text().replace("value: 5", "value: five"))
    err = refused(town, capsys, *PROPOSE)
    assert "rules have problems" in err and "town-board-size.yaml" in err


def test_a_change_that_would_break_the_build_is_refused(town, capsys):
    """The last check before writing: the rules as they would be must compile. Here another
    schedule in force already starts on 2026-01-01, so adopting 2026 would make two."""
    assert town.run(*PROPOSE) == 0 and town.notice() == 0
    other = (town.rules / "rate-schedules" / "2025-illustrative.yaml").read_text()
    (town.rules / "rate-schedules" / "2026-other.yaml").write_text(
        other.replace("id: 2025-illustrative", "id: 2026-other").replace("effective: 2025-01-01", "effective: 2026-01-01"))
    err = refused(town, capsys, "adopt", "2026", "--date", "2025-11-10", "--ayes", "3", "--noes", "2")
    assert "would break the rules" in err and "both take effect on 2026-01-01" in err


def test_bad_options_are_one_line(town, capsys):
    assert "--user-volume-gallons" in refused(town, capsys, "propose", "--fiscal-year", "2026", "--effective",
                                              "2026-01-01")
    # the cost: the past year's (--om-cost), or, only when past data is not available, the projected one (rents.D)
    err = refused(town, capsys, "propose", "--fiscal-year", "2026", "--effective", "2026-01-01",
                  "--user-volume-gallons", "85000000")
    assert "--om-cost" in err and "--projected-om-cost" in err
    assert "invalid choice" in refused(town, capsys, "publish", "2026")


# ---- what the notices say ---------------------------------------------------------------------------

def test_the_newspaper_notice_says_what_the_law_asks(town, capsys):
    assert town.run(*PROPOSE) == 0 and town.notice() == 0
    text = (town.out / "hearing-notice-2026.txt").read_text(encoding="utf-8")
    rules = compile_rules(town.rules)
    assert text == notices.hearing_notice_text(rules, "2026", SITE)
    proposed_minimum = bill.compute(rules, "2026-Q1", {"water-gallons": "8000"},
                                    vc_per_1000="10.08", sewage_fraction="0.80")["minimum_charge"]
    current_minimum = bill.compute(rules, "2026-Q1", {"water-gallons": "8000"})["minimum_charge"]
    # the schedule in force is only illustrative: the newspaper is given the proposal's figures alone, never
    # invented ones, nor their label (issue 34, item 3)
    for expected in ("Town Board of the Town of Pawling", "Thursday, October 30, 2025", "7:30 p.m.",
                     "Pawling Town Hall, 160 Charles Colman Blvd", "Rate per 1,000 gallons of sewage: $10.08.",
                     f"gallons of water use: ${proposed_minimum}.", "to take effect on January 1, 2026:",
                     "the official newspaper of the Town of Pawling", "office of the Town Clerk",
                     "on the Town's sewer website at https://sewer.pawling.example/rates/2026/.",
                     "All interested persons", "Wednesday, October 15, 2025"):
        assert expected in text, expected
    assert "ILLUSTRATIVE" not in text and "$10.00" not in text and "now" not in text.split("Dated")[0].lower().split()
    assert proposed_minimum == "64.51" and current_minimum == "64.00"


def test_the_newspaper_can_be_named(town, capsys):
    assert town.run(*PROPOSE) == 0
    assert town.notice(*MEETING, "--newspaper", "Poughkeepsie Journal") == 0
    # "published in the Poughkeepsie Journal": the usability test found "published in Poughkeepsie Journal"
    assert "published in the Poughkeepsie Journal with" in (town.out / "hearing-notice-2026.txt").read_text()
    assert notices.find_schedule(compile_rules(town.rules), "2026")["notice"]["newspaper"] == "Poughkeepsie Journal"


@pytest.mark.parametrize("typed, printed", [("Poughkeepsie Journal", "the Poughkeepsie Journal"),
                                            ("The Poughkeepsie Journal", "The Poughkeepsie Journal"),
                                            ("the  Putnam County News", "the Putnam County News"),
                                            ("Theater Weekly", "the Theater Weekly"),
                                            ("", "the official newspaper of the Town of Pawling")])
def test_a_newspaper_is_named_with_the_article_once(typed, printed):
    from calculator.rates.notices import newspaper_words
    assert newspaper_words(typed) == printed


@pytest.mark.parametrize("typed, printed", [("Resolution 2026-112", "2026-112"), ("resolution no. 41", "41"),
                                            ("Res. #7", "7"), ("2026-112", "2026-112"),
                                            ("Resolutions book 4", "Resolutions book 4"), ("Resolution", "Resolution")])
def test_a_resolution_is_named_without_repeating_the_word(typed, printed):
    """The usability test: "Resolution 2026-112" typed, every page read "(resolution Resolution 2026-112)"."""
    from calculator.rates.notices import resolution_words
    assert resolution_words(typed) == printed


def test_a_new_notice_replaces_the_old_and_keeps_the_proposal(town, capsys):
    assert town.run(*PROPOSE) == 0 and town.notice() == 0
    proposal = (town.folder / "proposal.yaml").read_bytes()
    assert town.notice("--meeting", "2025-11-14", "--time", "18:00", "--place", "Pawling Library") == 0
    text = (town.folder / "notice.yaml").read_text()
    assert "Pawling Library" in text and "Town Hall" not in text and text.startswith("# The notice of the public-comment")
    assert (town.folder / "proposal.yaml").read_bytes() == proposal
    assert sorted(p.name for p in town.folder.iterdir()) == ["notice.yaml", "proposal.yaml"]


def test_each_step_adds_its_own_file(town, capsys):
    """One file per step, so each step can be committed as a new file (GitHub's new-file page)."""
    assert town.run(*PROPOSE) == 0
    assert sorted(p.name for p in town.folder.iterdir()) == ["proposal.yaml"]
    assert "status" not in (town.folder / "proposal.yaml").read_text()  # proposed until a vote is recorded
    assert town.notice() == 0
    assert town.run("adopt", "2026", "--date", "2025-11-10", "--ayes", "3", "--noes", "2") == 0
    assert sorted(p.name for p in town.folder.iterdir()) == ["notice.yaml", "proposal.yaml", "vote.yaml"]
    assert (town.folder / "vote.yaml").read_text().endswith('date: "2025-11-10"\nayes: 3\nnoes: 2\n')
    assert not (town.rules / "rate-schedules" / "2026.yaml").exists()


def test_a_notice_without_the_site_s_address_names_only_the_clerk_s_office(town, capsys):
    """A newspaper reader cannot follow "/rates/" nor a computer's own address (issue 34): without site_url
    the notice names the Town Clerk's office alone, and the command says so."""
    assert town.run(*PROPOSE) == 0
    (town.root / "mkdocs.yml").write_text("site_name: copy\n")
    assert town.run("notice", "2026", "--published", PUBLISHED, *MEETING, "--output-dir", str(town.out)) == 0
    out = capsys.readouterr().out
    assert "The notice names no web address" in out
    # the notice is named where it was written (the sixteenth hostile tester, U3: "notices-out/…", not --output-dir)
    assert f"The newspaper notice: {town.out}/hearing-notice-2026.txt." in out and "notices-out/" not in out
    text = (town.out / "hearing-notice-2026.txt").read_text(encoding="utf-8")
    assert "may be read at the office of the Town Clerk during regular business hours." in text
    assert "http" not in text and "website" not in text


def test_the_pdfs_exist_with_a_title_and_a_language(town, capsys):
    assert town.run(*PROPOSE) == 0 and town.notice() == 0
    assert town.run("adopt", "2026", "--date", "2025-11-10", "--ayes", "3", "--noes", "2") == 0
    assert town.run("user-notice", "2026", "--output-dir", str(town.out)) == 0
    for name in ("hearing-notice-2026.pdf", "user-notice-2026.pdf", "user-notice-2026-es.pdf"):
        data = (town.out / name).read_bytes()
        assert data.startswith(b"%PDF-"), name
        reader = PdfReader(io.BytesIO(data))  # the catalog may sit in a compressed object stream
        root = reader.trailer["/Root"]
        assert root["/Lang"] == ("es-US" if "-es" in name else "en-US"), name
        assert reader.metadata.title and "2026" in reader.metadata.title, name
        # the Spanish notice (issue 34, M3: bills go out in Spanish too), titled in Spanish
        assert ("Aviso anual" in reader.metadata.title) is ("-es" in name), name
        assert root["/ViewerPreferences"]["/DisplayDocTitle"] == True, name  # noqa: E712 (pypdf BooleanObject)
    # written atomically: no temporary files left beside them
    assert sorted(p.name for p in town.out.iterdir() if p.name != clerk.WRITTEN) == [
        "hearing-notice-2026.pdf", "hearing-notice-2026.txt",
        "user-notice-2026-es.html", "user-notice-2026-es.pdf", "user-notice-2026-es.txt",
        "user-notice-2026.html", "user-notice-2026.pdf", "user-notice-2026.txt"]


def test_the_users_notice_for_an_adopted_schedule(town, capsys):
    argv = list(PROPOSE)
    argv[argv.index("--sewage-fraction") + 1] = "0.9"
    assert town.run(*argv) == 0 and town.notice() == 0
    assert town.run("adopt", "2026", "--date", "2025-11-10", "--ayes", "4", "--noes", "1",
                    "--resolution", "2025-88") == 0
    assert town.run("user-notice", "2026", "--output-dir", str(town.out)) == 0
    text = (town.out / "user-notice-2026.txt").read_text(encoding="utf-8")
    html = (town.out / "user-notice-2026.html").read_text(encoding="utf-8")
    minimum = bill.compute(compile_rules(town.rules), "2026-Q1", {"water-gallons": "8000"})["minimum_charge"]
    assert minimum == "72.58"                                 # 10.08 x 8,000 x 0.9 / 1,000
    for doc in (text, html):
        for expected in ("$10.08 per 1,000 gallons", "90%", f"${minimum} each quarter",
                         "January 15, April 15, July 15 and October 15", "unpaid 30 days", "15%",
                         "further 3 months", "Sewer rents B (Determination of charge)",
                         "Sewer rents D (Computation of VC)", "40 CFR 35.929", "November 10, 2025", "2025-88"):
            assert expected in doc, expected
        assert "ILLUSTRATIVE" not in doc
    assert "pays for operation and maintenance: 100%." in text
    assert "pays for operation and maintenance</dt>\n    <dd>100%." in html


def test_the_users_notice_html_is_an_escaped_fragment(town, capsys):
    rules = compile_rules(town.rules)
    rules["schedules"][0]["title"] = "Rates <2025> & after"
    html = notices.user_notice(rules, "2025-illustrative", SITE)["html"]
    assert html.lstrip().startswith("<section") and "<html" not in html and "<h2 " in html
    assert "Rates &lt;2025&gt; &amp; after" in html and "<2025>" not in html


def test_the_users_notice_for_the_illustrative_schedule_says_so_loudly(town, capsys):
    assert town.run("user-notice", "2025-illustrative", "--output-dir", str(town.out)) == 0
    assert "do not send" in capsys.readouterr().out
    text = (town.out / "user-notice-2025-illustrative.txt").read_text()
    html = (town.out / "user-notice-2025-illustrative.html").read_text()
    assert text.startswith("*** ILLUSTRATIVE") and "<strong>ILLUSTRATIVE" in html
    assert "$10.00 per 1,000 gallons" in text and "$64.00 each quarter" in text


def test_there_is_no_users_notice_for_a_proposed_schedule(town, capsys):
    assert town.run(*PROPOSE) == 0
    assert "only proposed" in refused(town, capsys, "user-notice", "2026", "--output-dir", str(town.out))


def test_write_pdf(tmp_path):
    path = pdf.write_pdf("HEADING\n\nA paragraph with <angle> & ampersand.\n- a list item", "A title", tmp_path / "x.pdf")
    assert path.read_bytes().startswith(b"%PDF-") and PdfReader(str(path)).metadata.title == "A title"
    assert pdf.pdf_bytes("X\n\nY", "T") == pdf.pdf_bytes("X\n\nY", "T")   # reproducible


# ---- the command line ---------------------------------------------------------------------------------

def test_the_command_line(tmp_path):
    shutil.copytree(RULES_DIR, tmp_path / "rules")
    ok = subprocess.run([sys.executable, "-m", "kit.clerk.command", "--help"], cwd=ROOT, capture_output=True, text=True)
    assert ok.returncode == 0 and "propose" in ok.stdout
    argv = [("-1" if PROPOSE[i - 1] == "--om-cost" else w) for i, w in enumerate(PROPOSE)]
    bad = subprocess.run([sys.executable, "-m", "kit.clerk.command", *argv,
                          "--rules-dir", str(tmp_path / "rules")], cwd=ROOT, capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "cannot be negative" in bad.stderr
    assert not (tmp_path / "rules" / "rate-schedules" / "2026").exists()


# ---- issue 13: the legal review -------------------------------------------------------------------

def test_the_extraneous_flow_cost_is_shown_as_part_of_om_in_propose_and_the_notice(town, capsys):
    assert town.run(*PROPOSE, "--extraneous-flow-cost", "25000") == 0
    out = capsys.readouterr().out
    assert "$10.08 per 1,000 gallons" in out and "not added again" in out
    assert town.notice() == 0
    text = (town.out / "hearing-notice-2026.txt").read_text(encoding="utf-8")
    assert "$856,791.00 (of which $25,000.00 was for treating extraneous flow" in text
    assert "plus $25,000.00" not in text


LATE = ["propose", "--fiscal-year", "2027", "--effective", "2027-01-01", "--om-cost", "856791",
        "--user-volume-gallons", "85000000", "--proposed-on", "2026-12-01", "--sewage-fraction", "0.80"]


def test_a_notice_published_after_the_effective_date_is_refused(town, capsys):
    # Finding 7: proposed effective 2027-01-01, published March 1 -> bills due January 15 would be repriced.
    assert town.run(*LATE) == 0
    capsys.readouterr()
    err = refused(town, capsys, "notice", "2027", "--published", "2027-03-01", "--meeting", "2027-03-16",
                  "--time", "19:00", "--place", "Town Hall", "--output-dir", str(town.out))
    assert "March 1, 2027 is after January 1, 2027, the day the new rates take effect" in err
    assert "Publish it by December 17, 2026" in err and "on or after March 16, 2027" in err   # both ways out


def test_an_adoption_after_the_effective_date_is_refused(town, capsys):
    assert town.run(*LATE) == 0
    assert town.run("notice", "2027", "--published", "2026-12-05", "--meeting", "2026-12-20", "--time", "19:00",
                    "--place", "Town Hall", "--output-dir", str(town.out)) == 0
    capsys.readouterr()
    err = refused(town, capsys, "adopt", "2027", "--date", "2027-01-05", "--recorded-on", "2027-12-31", "--ayes", "3", "--noes", "0")
    assert "adopted on January 5, 2027, after its effective date January 1, 2027" in err
    assert town.run("adopt", "2027", "--date", "2026-12-28", "--recorded-on", "2027-12-31", "--ayes", "3", "--noes", "0") == 0


def test_the_rules_check_refuses_an_adopted_schedule_recorded_after_its_effective_date(town):
    text = town.rules / "rate-schedules" / "2027.yaml"   # the single-file form stays valid
    text.write_text("""id: "2027"
title: late
title_es: tarde
status: adopted
effective: "2027-01-01"
vc_per_1000_gallons: "12.00"
sewage_fraction: "0.80"
cite: rents.D
notice: {published: "2027-03-01", meeting: "2027-03-16", time: "19:00", place: "Town Hall"}
adoption: {date: "2027-03-16", ayes: 3, noes: 0}
""")
    from kit.rules.validate import RuleError
    with pytest.raises(RuleError) as err:
        compile_rules(town.rules)
    assert "published on March 1, 2027, after its effective date January 1, 2027" in str(err.value)
    # Under the other reading it is accepted and applies from the first quarter after adoption.
    reading = town.rules / "interpretations" / "late-adoption.yaml"
    reading.write_text(reading.read_text().replace("chosen: refuse", "chosen: first-quarter-after"))
    rules = compile_rules(town.rules)
    assert bill.compute(rules, "2027-Q1", {"water-gallons": "12000"})["schedule"]["id"] == "2025-illustrative"
    assert bill.compute(rules, "2027-Q2", {"water-gallons": "12000"})["schedule"]["id"] == "2027"


def test_the_notice_names_the_joint_sewer_commission_when_designated(town, capsys):
    # Finding 10: rate-schedules.B lets the Commission hear the comments "if so designated by the Town Board".
    assert town.run(*PROPOSE) == 0
    assert town.notice(*MEETING, "--body", "joint-sewer-commission") == 0
    text = (town.out / "hearing-notice-2026.txt").read_text(encoding="utf-8")
    assert "PLEASE TAKE NOTICE that the Pawling Joint Sewer Commission, as designated by the Town Board" in text
    assert "By order of the Pawling Joint Sewer Commission" in text
    assert notices.find_schedule(compile_rules(town.rules), "2026")["notice"]["body"] == "joint-sewer-commission"
    assert town.notice() == 0   # the default is the Town Board
    assert "PLEASE TAKE NOTICE that the Town Board of the Town of Pawling" in (town.out / "hearing-notice-2026.txt").read_text()
    assert "invalid choice" in refused(town, capsys, "notice", "2026", "--published", PUBLISHED, *MEETING,
                                       "--body", "village-board")


def test_status_says_where_each_year_stands_and_writes_nothing(town, capsys):
    before = town.files()
    assert town.run("status", "--today", "2025-10-01") == 0
    out = capsys.readouterr().out
    assert "2026: no-schedule; Publish the notice of the meeting by 2025-12-17 (77 days)" in out
    assert "Fiscal years with no schedule of their own (Rate schedules, section A): 2026." in out
    # a deadline passed is said so, not "(-3 days)" (the fifteenth hostile tester, U5)
    assert town.run("status", "--today", "2025-12-20") == 0
    out = capsys.readouterr().out
    assert "Publish the notice of the meeting by 2025-12-17 (passed 3 days ago; the steps can still be taken, later)" \
        in out, out
    assert "(-" not in out
    assert town.files() == before
    assert town.run(*PROPOSE) == 0 and town.notice() == 0
    capsys.readouterr()
    assert town.run("status", "--today", "2025-10-20") == 0
    # the meeting set, by its day (clerk12, 14), and after it is held no "hold the meeting" (clerk13, L-4)
    assert ("2026: notice; The meeting for comments is on 2025-10-30 (10 days); Adopt the schedule by 2026-01-01 "
            "(73 days)") in capsys.readouterr().out
    assert town.run("status", "--today", "2025-11-02") == 0
    out = capsys.readouterr().out
    assert "2026: notice; Adopt the schedule by 2026-01-01 (60 days)" in out and "meeting" not in out.split("\n")[1]


def test_an_option_given_twice_is_refused(town, capsys):
    """H10: the last of two --published (or --ayes) was taken without a word; `bills` refuses it, and so
    do the Clerk's steps."""
    assert town.run(*PROPOSE) == 0
    err = refused(town, capsys, "notice", "2026", "--published", "2025-10-14", "--published", PUBLISHED, *MEETING,
                  "--output-dir", str(town.out))
    assert "`--published` is given 2 times" in err and "Give it once" in err
    assert town.notice() == 0
    err = refused(town, capsys, "adopt", "2026", "--date", "2025-11-10", "--ayes", "3", "--ayes=5", "--noes", "0",
                  "--recorded-on", "2025-11-10")
    assert "`--ayes` is given 2 times" in err
    err = refused(town, capsys, *PROPOSE, "--om-cost", "900000")
    assert "`--om-cost` is given 2 times" in err


def test_a_vote_that_leaves_members_unaccounted_for_is_refused(town, capsys):
    """H12: 3 for, 0 against and 0 absent (3 of the Board's 5) was taken while 6 was refused. With --absent
    given, the three numbers make the whole Board; without it, the others are absent or not voting."""
    assert town.run(*PROPOSE) == 0 and town.notice() == 0
    err = refused(town, capsys, "adopt", "2026", "--date", "2025-11-10", "--ayes", "3", "--noes", "0",
                  "--absent", "0")
    assert "make 3 members, but the Town Board has 5" in err and "leave --absent out" in err
    assert town.run("adopt", "2026", "--date", "2025-11-10", "--ayes", "3", "--noes", "0", "--absent", "2") == 0


def test_a_schedule_whose_first_day_is_past_needs_retroactive(town, capsys):
    """H13: fiscal year 2026, proposed on 2025-10-01 and recorded after January 1, 2026, reprices the bills
    already sent: refused unless --retroactive says it is a proposal made back then."""
    argv = [w for w in PROPOSE if w != "--retroactive"]
    err = refused(town, capsys, *argv)
    assert "--effective January 1, 2026 is already past" in err and "confirm it with --retroactive" in err
    assert "would reprice them" in err
    assert town.run(*argv, "--retroactive") == 0


def test_a_year_before_the_first_schedule_can_be_recorded_after_the_fact(town, capsys):
    """The twelfth hostile tester (F18): recording 2024 with --retroactive, a year before every schedule the rules
    had, was refused with the estimator's words ("Choose a later quarter"). It is proposed; the effects table has
    no "Now" to compare with, and says so."""
    argv = ["propose", "--retroactive", "--fiscal-year", "2024", "--effective", "2024-01-01", "--om-cost", "856791",
            "--user-volume-gallons", "70000000", "--sewage-fraction", "0.8", "--proposed-on", "2023-11-01"]
    assert town.run(*argv) == 0
    said = capsys.readouterr().out
    assert "Choose a later quarter" not in said
    assert "Now (no schedule)" in said and "No rate schedule is in force before this one" in said
    assert "$146.88" in said  # 15,000 gallons × 0.8 × $12.24 per 1,000
    assert (town.rules / "rate-schedules" / "2024" / "proposal.yaml").is_file()


def test_a_step_that_cannot_write_one_file_writes_none(town, capsys, monkeypatch):
    """The fifteenth hostile tester, D1: on a full disk the newspaper notice's text was replaced and its PDF and
    record were not, so the notice and the record named different meetings. Every file of a step, or none."""
    import errno
    import os
    assert town.run(*PROPOSE) == 0 and town.notice() == 0
    capsys.readouterr()
    before = town.files()
    real = os.fsync

    def full(fd):
        if os.readlink(f"/proc/self/fd/{fd}").endswith(".tmp") and ".pdf." in os.readlink(f"/proc/self/fd/{fd}"):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(fd)
    monkeypatch.setattr(os, "fsync", full)
    later = [*MEETING[:1], "2025-11-06", *MEETING[2:]]
    assert town.notice(*later) == 2
    err = capsys.readouterr().err
    assert "No space left on device" in err and "Nothing was written" in err, err
    assert town.files() == before


def test_a_notice_edited_by_hand_is_not_written_over_without_force(town, capsys):
    """H17: `rates notice` wrote over the newspaper notice (text and PDF) the Clerk had edited. The kit keeps
    the hash of what it wrote; a notice changed since is refused, unless --force."""
    assert town.run(*PROPOSE) == 0 and town.notice() == 0
    assert town.notice() == 0                                     # as the kit wrote it: written again
    text = town.out / "hearing-notice-2026.txt"
    text.write_text(text.read_text() + "Edited by the Clerk.\n")
    err = refused(town, capsys, "notice", "2026", "--published", PUBLISHED, *MEETING, "--output-dir", str(town.out))
    assert f"{text} has changed since the kit wrote it" in err and "--force" in err
    assert "Edited by the Clerk." in text.read_text()
    assert town.run("notice", "2026", "--published", PUBLISHED, *MEETING, "--output-dir", str(town.out),
                    "--force") == 0
    assert "Edited by the Clerk." not in text.read_text()
    assert town.notice() == 0


def test_a_fiscal_year_out_of_range_says_the_years_taken(town, capsys):
    """H26: "'9999' is not a year"; it is one, outside the range the site works on."""
    argv = [("9999" if PROPOSE[i - 1] == "--fiscal-year" else w) for i, w in enumerate(PROPOSE)]
    err = refused(town, capsys, *argv)
    assert "--fiscal-year 9999 is outside the years this site works on. Enter a year from 1992 to 2200" in err
    assert "not a year" not in err


def test_the_clerk_s_messages_name_provisions_in_words(town, capsys):
    """H25: "(rate-schedules.B)" in `notice`'s refusals and "(rate-schedules.A)" in `status`: provisions are
    named as the law names them, not by id."""
    assert town.run(*PROPOSE) == 0
    err = refused(town, capsys, "notice", "2026", "--published", PUBLISHED, "--meeting", "2025-10-29",
                  "--time", "19:30", "--place", "Town Hall", "--output-dir", str(town.out))
    assert "(Rate schedules, section B)" in err and "rate-schedules." not in err
    assert town.run("status", "--today", "2025-10-02") == 0
    out = capsys.readouterr().out
    assert "(Rate schedules, section A)" in out and "rate-schedules." not in out


def test_provisions_in_words():
    from calculator.rates.rate_year import provision_words
    assert provision_words("(rate-schedules.B, C; rents.D) rate-schedules.A-D rules/rate-schedules/2026/x") == \
        "(Rate schedules, sections B and C; Sewer charges, section D) Rate schedules, sections A to D " \
        "rules/rate-schedules/2026/x"


def test_a_vote_recorded_as_of_a_day_after_today_is_pointed_out(town, capsys):
    """H12: --recorded-on is for a computer whose date is wrong; a vote recorded as of a later day than the
    computer's is said so, with the file to remove if the date is right."""
    later = (dt.date.today() + dt.timedelta(days=24)).isoformat()
    assert town.run(*PROPOSE) == 0 and town.notice() == 0
    capsys.readouterr()
    assert town.run("adopt", "2026", "--date", "2025-11-10", "--ayes", "3", "--noes", "2", "--recorded-on", later) == 0
    out = capsys.readouterr().out
    assert "Note: recorded as of" in out and "after this computer's date" in out
    assert str(town.folder / "vote.yaml") in out


@pytest.mark.parametrize("encoding", ["latin-1", "ascii"])
def test_the_clerks_commands_print_in_any_terminal_encoding(tmp_path, encoding):
    """The twelfth hostile tester: `PYTHONIOENCODING=latin-1 build.py rates propose … --note 'Tarifa ñ € 😀'` wrote
    the proposal, then ended in a UnicodeEncodeError traceback (the report's dashes). What the terminal cannot show
    is written as \\u2014 and the like; the command ends 0 with its files written."""
    import os
    import shutil
    import subprocess
    import sys
    shutil.copytree(RULES_DIR, tmp_path / "rules")
    (tmp_path / "mkdocs.yml").write_text("site_name: copy\n")
    done = subprocess.run([sys.executable, str(RULES_DIR.parent / "build.py"), "rates", "propose", "--rules-dir",
                           str(tmp_path / "rules"), "--fiscal-year", "2027", "--effective", "2027-01-01", "--om-cost",
                           "856791", "--user-volume-gallons", "70000000", "--sewage-fraction", "0.8",
                           "--note", "Tarifa ñ € 😀", "--note-es", "Nota ñ € 😀"],
                          capture_output=True, env=dict(os.environ, PYTHONIOENCODING=encoding), timeout=120)
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr[-400:]
    assert b"\\u2014" in done.stdout and (tmp_path / "rules" / "rate-schedules" / "2027" / "proposal.yaml").is_file()


def test_a_meeting_on_a_public_holiday_or_a_weekend_is_pointed_out(town, capsys):
    """clerk12 (11): Christmas Day and New Year's Day were offered in the meeting window without a word. The law does
    not forbid them, so the notice is recorded, with a line to check the date; a working day has no such line."""
    assert town.run(*PROPOSE) == 0
    capsys.readouterr()
    assert town.notice("--meeting", "2025-11-11", "--time", "19:30", "--place", "Town Hall") == 0
    out = capsys.readouterr().out
    assert "Check the meeting date: November 11, 2025 is Veterans' Day, a New York public holiday" in out
    assert town.notice("--meeting", "2025-11-01", "--time", "19:30", "--place", "Town Hall") == 0
    assert "Check the meeting date: November 1, 2025 is a Saturday" in capsys.readouterr().out
    assert town.notice() == 0                                                 # Thursday, October 30
    assert "Check the meeting date" not in capsys.readouterr().out


@pytest.mark.parametrize("note, note_es, step_takes_it", [
    ("Questions: clerk@pawling.example", "Preguntas: clerk@pawling.example", True),   # hostile25 #7: an office's
    ("Questions: jane.okafor@gmail.com", "Preguntas: jane.okafor@gmail.com", False),  # a person's own (hostile26 #3)
    ("Questions: (845) 555-0142", "Preguntas: (845) 555-0142", True),
    ("Ask jane.okafor@gmail.com or luis.ortega@gmail.com", "Pregunte a jane.okafor@gmail.com", False),
    ("Refund of 45.20 sent to Mrs. Janet Okafor", "Bajó tras bombas nuevas.", False),  # hostile25 #6
])
def test_the_step_and_the_build_read_a_note_alike(town, capsys, tmp_path, note, note_es, step_takes_it):
    """hostile25 #7: a note with an e-mail address was taken by the step, then the build refused the site, naming
    api/rate-schedules.json (where the note and its Spanish are one record beside the rates), not the proposal.
    What the step takes, the build's guard publishes; what the guard would refuse, the step refuses first."""
    import yaml
    from kit import privacy
    from kit.api.files import write_api
    from kit.rules.validate import compile_rules
    argv = [*PROPOSE, "--note", note, "--note-es", note_es]
    if not step_takes_it:
        assert "looks like account data" in refused(town, capsys, *argv)
        assert town.run(*PROPOSE, "--note", "Bombs.", "--note-es", "Bombas.") == 0  # then the note put in by hand
        data = yaml.safe_load((town.folder / "proposal.yaml").read_text())
        data.update(note=note, note_es=note_es)
        (town.folder / "proposal.yaml").write_text(yaml.safe_dump(data, allow_unicode=True))
    else:
        assert town.run(*argv) == 0
    api = write_api(compile_rules(town.rules), tmp_path / "docs", "test", "2026-12-07", rules_dir=town.rules)
    published = api / "rate-schedules.json"
    assert note in published.read_text(encoding="utf-8")
    assert bool(privacy.account_records(published.read_text(encoding="utf-8"), blocks=True)) is not step_takes_it


@pytest.mark.parametrize("option, words", [("--note", "Account S10001 is exempt from this rate."),
                                           ("--note", "Acct. No. 10442 pays the old rate."),
                                           ("--note-es", "La cuenta S10001 está exenta.")])
def test_an_account_named_by_its_number_alone_is_refused_quoting_it(town, capsys, option, words):
    """hostile29 #9, #10: an account number with no name beside it was published in a note and a meeting place."""
    args = [*PROPOSE, "--note", "Costs rose after the plant was repaired.", "--note-es", "Los costos subieron."]
    args[args.index(option) + 1] = words
    said = refused(town, capsys, *args)
    assert f"{option} looks like account data" in said and "(it read '" in said, said


def test_a_place_naming_an_account_is_refused(town, capsys):
    assert town.run(*PROPOSE) == 0
    capsys.readouterr()
    said = refused(town, capsys, "notice", "2026", "--published", PUBLISHED, "--meeting", "2025-10-30", "--time",
                   "19:30", "--place", "the home of Luis Ortega (acct S10001)", "--output-dir", str(town.out))
    assert "--place looks like account data" in said and "acct S10001" in said, said


def test_a_wrong_vote_says_how_to_record_it_again_and_that_works(town, capsys):
    """hostile29 #17: adopting again to correct a count said only "only a proposed schedule can be adopted"."""
    assert town.run(*PROPOSE) == 0 and town.notice() == 0
    vote = ["adopt", "2026", "--date", "2025-11-10", "--ayes", "3", "--noes", "1", "--absent", "1", "--resolution"]
    assert town.run(*vote, "2025-88") == 0
    capsys.readouterr()
    said = refused(town, capsys, *vote, "2025-89")
    assert "If the vote recorded is wrong" in said and "delete its record, rules/rate-schedules/2026/vote.yaml" in said
    (town.folder / "vote.yaml").unlink()
    assert town.run(*vote, "2025-89") == 0
    assert schedule.in_force(compile_rules(town.rules), dt.date(2026, 1, 1))["adoption"]["resolution"] == "2025-89"


def test_a_place_that_is_account_data_only_with_the_notice_is_named_by_what_was_typed():
    """hostile30 #16: --place "The Ortega residence" was refused quoting the file's own first line ("# The notice of
    the public-comment meeting …"), so the Clerk could not tell which of her words to change."""
    import argparse
    from calculator.core.errors import InputError
    from calculator.rates import rate_year
    args = argparse.Namespace(**{f.replace("-", "_"): None for f in rate_year.TYPED})
    args.place = "The Ortega residence"
    text = ("# The notice of the public-comment meeting on rate schedule 2027\nplace: The Ortega residence\n"
            "time: '19:00'\n")
    with pytest.raises(InputError) as refused_:
        rate_year.no_account_data(args, [{"path": "rules/rate-schedules/2027/notice.yaml", "text": text}])
    said = str(refused_.value)
    assert said.startswith("⟦place⟧ ('The Ortega residence'), with the rest of rules/rate-schedules/2027/notice.yaml")
    assert refused_.value.field == "place" and "# The notice" not in said
    # what the file holds besides her words is still named as the file's
    args.place = "Town Hall"
    with pytest.raises(InputError) as refused_:
        rate_year.no_account_data(args, [{"path": "notice.yaml", "text": text.replace("The Ortega residence",
                                                                                      "Town Hall") + "x: Luis Ortega owes $388.10\n"}])
    assert str(refused_.value).startswith("notice.yaml would hold what looks like account data")


@pytest.mark.parametrize("typed, meant", [("0.80%", "80%"), ("0.5%", "50%"), ("1%", "100%")])
def test_a_share_of_one_percent_or_less_is_asked_about_not_taken(town, capsys, typed, meant):
    """The thirtieth hostile tester (F3): `--sewage-fraction 0.80%` was taken as 0.8% of water use, and the
    proposal's rate came to a hundredth of the one meant. It is asked about, as a plain 80 is."""
    argv = list(PROPOSE)
    argv[argv.index("--sewage-fraction") + 1] = typed
    said = refused(town, capsys, *argv)
    assert f"Did you mean {meant}?" in said and typed in said


def test_a_proposal_dated_after_today_says_so(town, capsys):
    """The thirtieth hostile tester (F4): a proposal dated next March was recorded without a word, and `rates
    status` counted the year's deadlines from it. It is recorded as asked (a proposal prepared ahead), and said."""
    tomorrow = dt.date.today() + dt.timedelta(days=1)
    argv = list(PROPOSE)
    argv[argv.index("--proposed-on") + 1] = tomorrow.isoformat()
    argv.remove("--retroactive")
    argv[argv.index("--fiscal-year") + 1] = str(tomorrow.year + 1)
    argv[argv.index("--effective") + 1] = f"{tomorrow.year + 1}-01-01"
    assert town.run(*argv) == 0
    said = capsys.readouterr().out
    assert f"which is after today ({dt.date.today():%B} {dt.date.today().day}, {dt.date.today().year})" in said, said
    assert "propose again, giving that day as the day it was proposed" in said
    assert town.run(*PROPOSE) == 0 and "after today" not in capsys.readouterr().out  # a day before today: no word
