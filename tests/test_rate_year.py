"""The Clerk's steps in the engine (calculator/rates/rate_year.py), which the Clerk's desk runs in the
browser: each guard refuses with the message `build.py rates …` prints, and each file a step
makes is byte for byte the file the command writes for the same words on the same rules."""
import json
import shutil
from urllib.parse import parse_qs, urlsplit

import pytest

from calculator.rates import rate_year
from calculator.core.errors import InputError
from calculator.cli import run, run_json
from kit.clerk import command as clerk
from kit.rules.validate import RULES_DIR, compile_rules

from answers import ADOPT, NOTICE, PROPOSE, SITE, USER_NOTICE  # the Clerk's year, one copy (tests/answers.py)

REPO = "https://github.com/town-of-pawling/sewer-kit"


@pytest.fixture
def town(tmp_path):
    shutil.copytree(RULES_DIR, tmp_path / "rules")
    (tmp_path / "mkdocs.yml").write_text(f"site_name: copy\nsite_url: {SITE}\n")

    class Town:
        root = tmp_path
        rules = tmp_path / "rules"
        out = tmp_path / "notices-out"   # the command's default, beside rules/

        def engine(self, argv):
            """The desk's answer: the engine's `rates` command on the rules as they stand."""
            return json.loads(run_json_on(compile_rules(self.rules), ["rates", *argv, "--site-url", SITE,
                                                                      "--repo-url", REPO]))

        def cli(self, argv):
            return clerk.main([*argv, "--rules-dir", str(self.rules)])
    return Town()


def run_json_on(rules, argv):
    """run_json with these rules (the browser's are packed in the wheel)."""
    try:
        return json.dumps({"ok": True, "result": run(argv, rules=rules)}, ensure_ascii=False)
    except Exception as exc:  # noqa: BLE001 - as run_json does
        answer = {"ok": False, "error": str(exc), "field": getattr(exc, "field", None)}
        if getattr(exc, "problems", None):
            answer["problems"] = [{"field": f, "text": t} for f, t in exc.problems]
        return json.dumps(answer, ensure_ascii=False)


def where(town, f):
    path = f["path"]
    return town.root / path


def test_run_json_answers_the_rates_command():
    answer = json.loads(run_json(["rates", "propose", "--fiscal-year", "2028", "--effective", "2028-01-01",
                                  "--om-cost", "856791", "--user-volume-gallons", "70000000",
                                  "--sewage-fraction", "0.80"]))
    assert answer["ok"] and answer["result"]["vc"]["vc_per_1000_gallons"] == "12.24"
    assert answer["result"]["files"][0]["path"] == "rules/rate-schedules/2028/proposal.yaml"


def test_the_whole_year_makes_the_same_files_on_the_desk_and_in_the_terminal(town, capsys):
    for argv in (PROPOSE, NOTICE, ADOPT, USER_NOTICE):
        answer = town.engine(argv)
        assert answer["ok"], answer
        assert town.cli(argv) == 0, capsys.readouterr().err
        printed = capsys.readouterr().out
        result = answer["result"]
        # the desk shows what the CLI prints (the CLI adds a line for the notice to users in Spanish, which the desk
        # asks for in a second question: assets/clerk.js)
        assert printed.startswith("\n".join(result["report"]) + "\n")
        assert result["files"]
        for f in result["files"]:
            assert where(town, f).read_bytes() == f["text"].encode("utf-8"), f["path"]
    assert sorted(p.name for p in (town.rules / "rate-schedules" / "2028").iterdir()) == [
        "notice.yaml", "proposal.yaml", "vote.yaml"]
    assert sorted(p.name for p in town.out.iterdir() if p.name != clerk.WRITTEN) == [
        "hearing-notice-2028.pdf", "hearing-notice-2028.txt",
        "user-notice-2028-es.html", "user-notice-2028-es.pdf", "user-notice-2028-es.txt",
        "user-notice-2028.html", "user-notice-2028.pdf", "user-notice-2028.txt"]
    s = next(s for s in compile_rules(town.rules)["schedules"] if s["id"] == "2028")
    assert s["status"] == "adopted" and s["adoption"]["resolution"] == "2027-41"


def test_what_the_desk_shows_for_each_step(town, capsys):
    propose = town.engine(PROPOSE)["result"]
    assert propose["vc"]["vc_per_1000_gallons"] == "12.24"
    assert propose["effects"]["head"] == ["Water use (gallons)", "Now (2025-illustrative)", "Proposed (2028)", "Change"]
    # no change against the example schedule's invented numbers (clerk11 P2, clerk12): said in the note
    assert propose["effects"]["rows"][0] == ["8,000", "$64.00", "$78.34", "—"]
    assert propose["effects"]["note"].endswith("No change is shown against its invented numbers.")
    town.cli(PROPOSE)
    notice = town.engine(NOTICE)["result"]
    assert notice["window"] | {} == notice["window"] and notice["window"]["earliest"] == "2027-11-16"
    assert notice["window"]["latest"] == "2027-12-01" and notice["window"]["days"] == 15
    town.cli(NOTICE)
    vote = town.engine(ADOPT)["result"]["vote"]
    assert (vote["board_size"], vote["needed"], vote["ayes"]) == (5, 3, 3)


PROJECTED = [*PROPOSE[:5], "--projected-om-cost", "900000", *PROPOSE[7:]]


def test_with_no_past_data_the_proposal_uses_projected_costs_labelled_so(town, capsys):
    """rents.D: "If past date is not available, then the Village Board or its agents shall compute the
    value of VC based on data which are deemed to reasonably represent the projected annual operation
    and maintenance expenditures for the year." The answer, the proposal file and the hearing notice
    say the costs are projected; the file passes the rules check."""
    assert "--om-cost" not in PROJECTED
    answer = town.engine(PROJECTED)["result"]
    assert answer["vc"]["cost_source"] == "projected" and answer["vc"]["om_cost"] is None
    assert answer["vc"]["vc_per_1000_gallons"] == "12.86"        # 900,000 / 70,000,000 x 1,000
    assert any("projected operation and maintenance expenditures" in line for line in answer["report"])
    text = answer["files"][0]["text"]
    assert "# VC = PROJECTED O&M expenditures for the year (past data not available, rents.D)" in text
    assert '  projected_om_cost: "900000.00"\n' in text and "om_cost: \"" not in text.replace("projected_om_cost", "")
    assert town.cli(PROJECTED) == 0, capsys.readouterr().err
    s = next(s for s in compile_rules(town.rules)["schedules"] if s["id"] == "2028")
    assert s["basis"] == {"projected_om_cost": "900000.00", "user_volume_gallons": "70000000",
                          "extraneous_flow_cost": "0.00"}
    notice = town.engine(NOTICE)["result"]
    hearing = next(f["text"] for f in notice["files"] if f["path"].endswith(".txt"))
    assert "past data was not available, so the projected operation and maintenance expenditures" in hearing


REFUSALS = [  # (steps done first, the refused step, words of the message)
    ([], ["notice", "2028", "--published", "2027-11-01", "--meeting", "2027-11-10", "--time", "19:00",
          "--place", "Town Hall"], "no schedule proposed for “2028”"),
    ([PROPOSE], ["notice", "2028", "--published", "2027-11-01", "--meeting", "2027-11-10", "--time", "19:00",
                 "--place", "Town Hall"], "is 9 days after November 1, 2027"),
    ([PROPOSE], ["notice", "2028", "--published", "2027-11-01", "--meeting", "2027-12-02", "--time", "19:00",
                 "--place", "Town Hall"], "is 31 days after November 1, 2027"),
    # a meeting before the publication is so many days before it, not "-2 days after" (the eleventh hostile tester, N4)
    ([PROPOSE], ["notice", "2028", "--published", "2027-11-03", "--meeting", "2027-11-01", "--time", "19:00",
                 "--place", "Town Hall"], "is 2 days before November 3, 2027"),
    ([PROPOSE], ["notice", "2028", "--published", "2027-11-01", "--meeting", "2027-11-16", "--time", "7",
                 "--place", "Town Hall"], "not a time we can read"),
    ([PROPOSE], ["adopt", "2028", "--date", "2027-11-20", "--recorded-on", "2027-12-31", "--ayes", "3", "--noes", "0"], "No notice has been published"),
    ([PROPOSE, NOTICE], ["adopt", "2028", "--date", "2027-11-20", "--recorded-on", "2027-12-31", "--ayes", "2", "--noes", "1", "--absent", "2"],
     "not a majority of all 5 members"),
    ([PROPOSE, NOTICE], ["adopt", "2028", "--date", "2027-11-10", "--recorded-on", "2027-12-31", "--ayes", "3", "--noes", "0"],
     "before the public-comment meeting"),
    ([PROPOSE, NOTICE], ["adopt", "2028", "--date", "2027-11-20", "--recorded-on", "2027-12-31", "--ayes", "three", "--noes", "0"], "whole number"),
    ([PROPOSE, NOTICE, ADOPT], PROPOSE, "already adopted"),
    ([PROPOSE], ["user-notice", "2028"], "only proposed"),
    ([], [*PROPOSE[:-4], "--user-volume-gallons", "0", "--proposed-on", "2027-10-01"], "more than 0 gallons"),
    ([], [*PROPOSE[:2], "2025", "--effective", "2025-01-01", *PROPOSE[5:-1], "2024-10-01", "--retroactive"],
     "already starts on January 1, 2025"),
    # issue 35, item 12: an effective date already past, and a volume mistyped (1 for 70,000,000 gallons)
    ([], [*PROPOSE[:-1], "2028-01-01"], "is not after the day the schedule is proposed"),
    ([], [*PROPOSE[:-4], "--user-volume-gallons", "1", "--proposed-on", "2027-10-01"],
     "85,679,100 times the rate in force ($10.00)"),
    ([], [*PROPOSE[:-4], "--user-volume-gallons", "70000000000", "--proposed-on", "2027-10-01"],
     "VC comes to $0.01 per 1,000 gallons, 1/1,000 of the rate in force ($10.00)"),
    ([], [*PROPOSE[:7], "--sewage-fraction", "1.5", *PROPOSE[9:]], "Did you mean 1.5%? Write 1.5% (with the % sign) or 0.015."),
    ([], [*PROPOSE[:7], "--sewage-fraction", "150%", *PROPOSE[9:]], "at most 100%"),
    ([], [*PROPOSE, "--projected-om-cost", "900000"], "not both"),
    ([], [*PROPOSE[:5], *PROPOSE[7:]], "only when past data is not available"),
]


@pytest.mark.parametrize("before, argv, says", REFUSALS, ids=[r[2] for r in REFUSALS])
def test_each_guard_refuses_with_the_commands_message(town, capsys, before, argv, says):
    for step in before:
        assert town.cli(step) == 0
    capsys.readouterr()
    answer = town.engine(argv)
    assert not answer["ok"] and says in answer["error"]
    assert town.cli(argv) == 2
    assert capsys.readouterr().err == f"error: {' '.join(answer['error'].split())}\n"


def test_a_notice_without_the_site_s_address_names_the_office_alone_on_the_desk():
    rules = compile_rules(RULES_DIR)
    run(["rates", *PROPOSE], rules=rules)  # (nothing recorded: the engine writes nothing)
    answer = json.loads(run_json_on(dict(rules, schedules=[*rules["schedules"], _proposed_2028()]),
                                    ["rates", *NOTICE]))
    # (issue 34: a desk served from this computer's own address gives none, and the notice names the office alone)
    assert answer["ok"], answer
    assert "names no web address" in " ".join(answer["result"]["report"])


def _proposed_2028():
    return rate_year.assemble({"id": "2028", "title": "Rate schedule for fiscal year 2028", "fiscal_year": 2028,
                               "effective": "2028-01-01", "vc_per_1000_gallons": "12.24", "sewage_fraction": "0.80",
                               "cite": "rents.D"}, files={"proposal": "rules/rate-schedules/2028/proposal.yaml"})


# ---- publishing without git -------------------------------------------------------------------------

def test_a_new_record_is_a_prefilled_new_file_on_github(town):
    f = town.engine(PROPOSE)["result"]["files"][0]
    link = f["github"]
    assert link["kind"] == "new"
    url = urlsplit(link["url"])
    assert url.netloc == "github.com" and url.path == "/town-of-pawling/sewer-kit/new/main/rules/rate-schedules/2028"
    query = parse_qs(url.query, keep_blank_values=True)
    assert query["filename"] == ["proposal.yaml"] and query["value"] == [f["text"]]


def test_notices_get_no_github_link_and_no_repo_means_no_link(town, capsys):
    town.cli(PROPOSE)
    files = town.engine(NOTICE)["result"]["files"]
    assert files[0]["github"]["kind"] == "new" and files[1]["github"] is None   # the notice text is not a rule file
    plain = run(["rates", *PROPOSE], rules=compile_rules(town.rules))
    assert plain["files"][0]["github"] is None


def test_a_replaced_record_links_to_its_edit_page_and_a_long_one_to_upload():
    f = {"path": "rules/rate-schedules/2028/notice.yaml", "text": "x: 1\n", "rules": True, "exists": True}
    assert rate_year.github_links(REPO, f) == {
        "kind": "edit", "url": f"{REPO}/edit/main/rules/rate-schedules/2028/notice.yaml"}
    long = dict(f, exists=False, text="# a very long comment\n" * 500)
    assert rate_year.github_links(REPO + ".git", long) == {
        "kind": "upload", "url": f"{REPO}/upload/main/rules/rate-schedules/2028"}
    assert rate_year.github_links("https://gitlab.com/town/kit", dict(f, exists=False)) is None


def test_re_proposing_drops_the_notice_file(town, capsys):
    town.cli(PROPOSE)
    town.cli(NOTICE)
    again = [*PROPOSE[:-4], "--user-volume-gallons", "80000000", "--proposed-on", "2027-10-20"]
    result = town.engine(again)["result"]
    assert result["removes"] == ["rules/rate-schedules/2028/notice.yaml"] and result["files"][0]["exists"]
    assert result["files"][0]["github"]["kind"] == "edit"
    assert town.cli(again) == 0
    assert not (town.rules / "rate-schedules" / "2028" / "notice.yaml").exists()


# ---- the records' layout is validated -----------------------------------------------------------------

def test_a_vote_without_a_notice_and_an_unknown_key_are_refused_by_the_rules_check(town, capsys):
    from kit.rules.validate import RuleError
    town.cli(PROPOSE)
    folder = town.rules / "rate-schedules" / "2028"
    (folder / "vote.yaml").write_text('date: "2027-11-20"\nayes: 3\nnoes: 0\n')
    with pytest.raises(RuleError) as err:
        compile_rules(town.rules)
    assert "no notice (notice.yaml)" in str(err.value)
    (folder / "vote.yaml").unlink()
    (folder / "notice.yaml").write_text('published: "2027-11-01"\nmeeting: "2027-11-16"\ntime: "19:00"\n'
                                        'place: "Town Hall"\nroom: "2"\n')
    with pytest.raises(RuleError) as err:
        compile_rules(town.rules)
    assert "rules/rate-schedules/2028/notice.yaml:5:1" in str(err.value) and "'room'" in str(err.value)


def test_the_yaml_writer_reads_back_as_written():
    from kit.rules.validate import YamlLoader
    import yaml
    record = {"id": "2028", "title": 'A "quoted" title: with colon', "fiscal_year": 2028, "cite": "rents.D",
              "basis": {"om_cost": "1.00"}}
    text = rate_year.yaml_text(["a comment"], record, bare=("cite",))
    assert text.startswith("# a comment\n") and yaml.load(text, Loader=YamlLoader) == record


# ---- issue 20: the desk a clerk can finish ------------------------------------------------------------

@pytest.mark.parametrize("typed, understood", [
    ("19:00", "19:00"), ("7:00 pm", "19:00"), ("7 pm", "19:00"), ("7pm", "19:00"), ("7:30 p.m.", "19:30"),
    ("7:30 PM", "19:30"), ("9 am", "09:00"), ("12 pm", "12:00"), ("12:00 am", "00:00"), ("0:15", "00:15"),
])
def test_the_meeting_time_as_a_person_types_it(typed, understood):
    assert rate_year._time(typed) == understood


@pytest.mark.parametrize("typed", ["7", "13 pm", "0 am", "25:00", "7:60", "seven", ""])
def test_a_time_that_cannot_be_read_says_how_to_write_it(typed):
    with pytest.raises(InputError) as err:
        rate_year._time(typed)
    assert err.value.field == "time"
    assert "Write it like 7:00 pm, 7 pm or 19:00" in str(err.value) or "Enter ⟦time⟧" in str(err.value)


def test_money_as_a_person_types_it_makes_the_same_record(town):
    texts = set()
    for typed in ("$912,400", "912,400.00", "912400", "$ 912,400.00"):
        answer = town.engine(["propose", "--fiscal-year", "2028", "--effective", "2028-01-01", "--om-cost", typed,
                              "--user-volume-gallons", "88,000,000", "--proposed-on", "2027-10-01",
                              "--sewage-fraction", "0.80"])
        assert answer["ok"], answer
        assert answer["result"]["vc"]["vc_per_1000_gallons"] == "10.37"   # 912,400 / 88,000,000 x 1,000
        texts.add(answer["result"]["files"][0]["text"])
    assert len(texts) == 1


def test_every_problem_is_found_at_once_each_in_terms_of_its_field(town, capsys):
    argv = ["propose", "--fiscal-year", "28", "--effective", "2028-02-30", "--om-cost", "lots",
            "--user-volume-gallons", "-5", "--sewage-fraction", "2"]
    answer = town.engine(argv)
    assert [p["field"] for p in answer["problems"]] == [
        "fiscal-year", "effective", "om-cost", "user-volume-gallons", "sewage-fraction"]
    assert all("⟦" in p["text"] for p in answer["problems"])          # the field, for each interface to name
    assert town.cli(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1                                         # one line on the command line
    for option in ("--fiscal-year", "--effective", "--om-cost", "--user-volume-gallons", "--sewage-fraction"):
        assert option in err
    assert "⟦" not in err and "⟦" not in answer["error"]


def test_a_meeting_after_the_effective_date_is_refused_with_every_way_out(town, capsys):
    """Issue 17, item 7: `adopt` refuses any day after the effective date, so a notice whose meeting
    is after it could never lead to an adoption: refused in the CLI and on the desk, saying why."""
    town.cli(PROPOSE)
    argv = ["notice", "2028", "--published", "2027-12-20", "--meeting", "2028-01-05", "--time", "19:00",
            "--place", "Town Hall"]
    answer = town.engine(argv)
    assert answer["problems"] == [{"field": "meeting", "text": (
        "The meeting on January 5, 2028 is after January 1, 2028, the day the new rates take effect, and the Board "
        "can adopt them only after the meeting and, as this site reads Rate schedules A (the Town has not adopted "
        "this reading), no later than that day: "
        "propose the schedule again with a first day on or after January 5, 2028 (⟦step:propose⟧).")}]
    assert town.cli(argv) == 2
    assert "the `propose` step" in capsys.readouterr().err
    # a window that reaches past the effective date is cut at it: the lawful days are offered
    answer = town.engine(["notice", "2028", "--published", "2027-12-10", "--meeting", "2028-01-06",
                          "--time", "19:00", "--place", "Town Hall"])
    assert "hold it between December 25, 2027 and January 1, 2028" in answer["error"]
    # under the other reading of late adoption, such a meeting is lawful
    rules = compile_rules(town.rules)
    rules["interpretations"]["late-adoption"]["chosen"] = "first-quarter-after"
    assert run(["rates", *argv, "--site-url", SITE], rules=rules)["window"]["meeting"] == "2028-01-05"


def test_the_steps_see_the_records_prepared_on_the_desk(town, tmp_path, capsys):
    """The desk keeps its work in the browser: each step is checked against the records made
    before it (--prepared), with no commit in between, and makes the files the CLI makes."""
    prepared = tmp_path / "prepared"
    for argv in (PROPOSE, NOTICE, ADOPT, USER_NOTICE):
        answer = run(["rates", *argv, "--site-url", SITE, "--prepared", str(prepared)],
                     rules=compile_rules(RULES_DIR))
        assert town.cli(argv) == 0, capsys.readouterr().err
        capsys.readouterr()
        for f in answer["files"]:
            assert (town.root / f["path"]).read_bytes() == f["text"].encode("utf-8"), f["path"]
            if f["rules"]:
                assert f["exists"] is False                    # nothing of it is published yet
                (prepared / f["path"].split("/", 2)[2]).parent.mkdir(parents=True, exist_ok=True)
                (prepared / f["path"].split("/", 2)[2]).write_text(f["text"], encoding="utf-8")
    year = next(y for y in run(["rates", "status", "--today", "2027-10-01", "--prepared", str(prepared)],
                               rules=compile_rules(RULES_DIR))["years"] if y["fiscal_year"] == 2028)
    assert year["stage"] == "adopted" and year["prepared"] == ["notice", "proposal", "vote"]
    # once committed (here: the CLI's copy), the same records are published, not prepared
    year = next(y for y in run(["rates", "status", "--today", "2027-10-01", "--prepared", str(prepared)],
                               rules=compile_rules(town.rules))["years"] if y["fiscal_year"] == 2028)
    assert year["stage"] == "adopted" and year["prepared"] == []


def test_a_file_that_is_not_a_record_is_refused_saying_which_line(tmp_path):
    (tmp_path / "2028").mkdir()
    (tmp_path / "2028" / "proposal.yaml").write_text("id: \"2028\"\n- a list\n")
    answer = json.loads(run_json(["rates", "status", "--prepared", str(tmp_path)]))
    assert not answer["ok"] and "proposal.yaml is not a record the desk made (line 2)" in answer["error"]
    (tmp_path / "2028" / "proposal.yaml").write_text("id: \"2028\"\n")
    answer = json.loads(run_json(["rates", "status", "--prepared", str(tmp_path)]))
    assert "it has no effective" in answer["error"]


def test_where_each_year_stands_with_the_law_s_deadlines(town, capsys):
    status = town.engine(["status", "--today", "2027-10-01"])["result"]
    years = {y["fiscal_year"]: y for y in status["years"]}
    assert list(years) == [2025, 2026, 2027, 2028]
    assert years[2025]["stage"] == "illustrative" and years[2026]["stage"] == "no-schedule"
    assert years[2027]["started"] and years[2027]["deadlines"] == []
    assert years[2028]["deadlines"] == [
        {"what": "Publish the notice of the meeting by", "date": "2027-12-17", "days_left": 77},
        {"what": "Hold the meeting for comments by", "date": "2028-01-01", "days_left": 92},
        {"what": "Adopt the schedule by", "date": "2028-01-01", "days_left": 92}]
    assert status["without_schedule"] == [2026, 2027, 2028]     # rate-schedules.A; the illustrative one is 2025's
    # the Clerk's second usability test: a year under way with no schedule of its own says what its bills use,
    # and whether a schedule for it could still bill a quarter of it (on October 1, published at the earliest on
    # October 2, heard 15 days later: billed from January 1, next year's)
    assert years[2027]["uses"] == {"id": "2025-illustrative", "title": "Illustrative rate schedule (not adopted)",
                                   "status": "illustrative"}
    assert years[2027]["may_propose"] is False and years[2028]["may_propose"] is True and years[2028]["uses"] is None
    assert "2027: no-schedule; its bills use 2025-illustrative (illustrative); too late in the year for a schedule " \
           "of its own" in status["report"]
    spring = {y["fiscal_year"]: y for y in town.engine(["status", "--today", "2027-03-01"])["result"]["years"]}
    assert spring[2027]["may_propose"] is True and spring[2027]["uses"]["id"] == "2025-illustrative"
    autumn = {y["fiscal_year"]: y for y in town.engine(["status", "--today", "2027-09-15"])["result"]["years"]}
    assert autumn[2027]["may_propose"] is True    # published September 16, heard October 1: billed from October 1
    autumn = {y["fiscal_year"]: y for y in town.engine(["status", "--today", "2027-09-16"])["result"]["years"]}
    assert autumn[2027]["may_propose"] is False
    for argv in (PROPOSE, NOTICE, ADOPT):
        town.cli(argv)
    years = {y["fiscal_year"]: y for y in town.engine(["status", "--today", "2027-10-01"])["result"]["years"]}
    assert years[2028]["stage"] == "adopted" and years[2028]["deadlines"] == []
    assert 2028 not in town.engine(["status", "--today", "2027-10-01"])["result"]["without_schedule"]


def test_the_command_line_takes_the_site_s_address_as_an_option(town, capsys):
    town.cli(PROPOSE)
    (town.root / "mkdocs.yml").write_text("site_name: copy\n")
    assert town.cli(NOTICE) == 0
    assert "http" not in (town.out / "hearing-notice-2028.txt").read_text()
    assert town.cli([*NOTICE, "--site-url", "town.example"]) == 2
    assert "is not a web address" in capsys.readouterr().err
    assert town.cli([*NOTICE, "--site-url", "https://town.example/sewer/"]) == 0
    assert "https://town.example/sewer/rates/2028/" in (town.out / "hearing-notice-2028.txt").read_text()


def test_for_cli_names_each_field_by_its_option():
    assert rate_year.for_cli("Check ⟦effective⟧ and ⟦fiscal-year⟧ (⟦step:notice⟧).") == \
        "Check --effective and --fiscal-year (the `notice` step)."


def test_a_bill_in_a_fiscal_year_whose_schedule_is_only_proposed_says_so(town, capsys):
    """rate-schedules.A: "Prior to the start of each fiscal year ... a rate schedule for the upcoming
    fiscal year". A bill for 2028 names the proposed 2028 schedule and the one it uses until the
    vote; once adopted, the 2028 bill has its own schedule and says nothing of a missing one."""
    bill_2028 = ["bill", "--quarter", "2028-Q1", "--water-gallons", "12000"]
    before = run(bill_2028, rules=compile_rules(town.rules))
    assert before["fiscal_year"] == dict(before["fiscal_year"], year=2028, schedule=None, proposed=None)
    assert "No rate schedule is on record for fiscal year 2028." in before["fiscal_year"]["text"]
    for argv in (PROPOSE, NOTICE):
        assert town.cli(argv) == 0, capsys.readouterr().err
    proposed = run(bill_2028, rules=compile_rules(town.rules))
    assert (proposed["fiscal_year"]["proposed"], proposed["schedule"]["id"]) == ("2028", "2025-illustrative")
    assert proposed["fiscal_year"]["text"].startswith("The rate schedule for fiscal year 2028, “Rate schedule for "
                                                      "fiscal year 2028”, is only proposed.")
    assert town.cli(ADOPT) == 0, capsys.readouterr().err
    adopted = run(bill_2028, rules=compile_rules(town.rules))
    assert adopted["fiscal_year"] == {"year": 2028, "schedule": "2028", "proposed": None}
    assert adopted["schedule"]["id"] == "2028"
    assert not [s for s in adopted["explanation"] if s["cite"] == "rate-schedules.A"]


def test_the_desk_packs_a_steps_records_as_one_zip_for_a_site_without_a_repository(tmp_path):
    """Issue 34, item 1: with no repo_url the Clerk cannot commit; the desk's `rates pack` gives one zip of
    exactly the records not yet published, at their paths in the repository, with the keeper's steps; the
    same bytes each time; and says so when nothing is waiting."""
    import zipfile
    prepared = tmp_path / "prepared"
    with pytest.raises(InputError, match="Nothing is waiting to be published for 2028"):
        run(["rates", "pack", "2028", "--prepared", str(prepared), "--out", str(tmp_path / "none.zip")])
    for argv in (PROPOSE, NOTICE):
        answer = run(["rates", *argv, "--site-url", SITE, "--prepared", str(prepared)], rules=compile_rules(RULES_DIR))
        for f in answer["files"]:
            if f["rules"]:
                (prepared / f["path"].split("/", 2)[2]).parent.mkdir(parents=True, exist_ok=True)
                (prepared / f["path"].split("/", 2)[2]).write_text(f["text"], encoding="utf-8")
    one, two = tmp_path / "one.zip", tmp_path / "two.zip"
    answer = run(["rates", "pack", "2028", "--prepared", str(prepared), "--out", str(one)])
    run(["rates", "pack", "2028", "--prepared", str(prepared), "--out", str(two)])
    assert answer["written"] == [str(one)] and one.read_bytes() == two.read_bytes()
    with zipfile.ZipFile(one) as z:
        # the steps go to a folder the repository ignores: unzipped at the top of the repository, nothing
        # lands beside mkdocs.yml (the usability test: PUBLISHING.txt was left in the repository's root)
        assert z.namelist() == ["rules/rate-schedules/2028/proposal.yaml", "rules/rate-schedules/2028/notice.yaml",
                                "notices-out/PUBLISHING-2028.txt"]
        assert z.read("rules/rate-schedules/2028/notice.yaml") == (prepared / "2028" / "notice.yaml").read_bytes()
        steps = z.read("notices-out/PUBLISHING-2028.txt").decode()
    assert "python3 build.py validate" in steps and "show the 2028 schedule as proposed" in steps
    # proposed, not adopted: the bill run cannot bill the year yet, and the steps say so (clerk12)
    assert "The bill run can bill the year's quarters once the Board's vote is recorded and published too." in steps
    assert "and the bill run can bill the year's quarters" not in steps
    assert "notices-out/" in (RULES_DIR.parent / ".gitignore").read_text().splitlines()
    # both ways to publish: by GitHub's workflow, and by building the site on the keeper's own computer
    assert "Built by GitHub" in steps and "push the commit to the" in steps
    assert "Built on this computer" in steps and "python3 build.py build --site-url ADDRESS" in steps
    # the Clerk's second usability test: which files to commit, with their paths, and the two ways to set the
    # address ranked (mkdocs.yml once; --site-url for one build)
    assert ("     git add rules/rate-schedules/2028/proposal.yaml rules/rate-schedules/2028/notice.yaml\n"
            '     git commit -m "Rate schedule 2028: the Town Clerk\'s records"\n') in steps
    assert "Set it once, in mkdocs.yml" in steps and "sets it for one build only" in " ".join(steps.split())
    assert "copy that folder to the web server" in " ".join(steps.split())


def test_a_proposal_without_a_share_while_the_example_schedule_is_in_force_is_refused():
    """The usability test: with "share billed" left blank, the proposal silently took 0.80 from the example
    schedule in force, whose figures are invented. Then (the eighth hostile tester, F3) it only warned once, and
    the notice and the vote carried the invented 80% into an adopted schedule. Now it is refused: the Town's
    share is needed, on the command line and at the desk (which names the box); with it, nothing is said."""
    argv = ["rates", "propose", "--fiscal-year", "2028", "--effective", "2028-01-01", "--om-cost", "856791",
            "--user-volume-gallons", "70000000", "--proposed-on", "2027-10-01"]
    with pytest.raises(InputError) as refused:
        run(argv)
    assert [p[0] for p in refused.value.problems] == ["sewage-fraction"]
    assert refused.value.problems[0][1] == (  # (Linda: no figure to copy; who decides it, in plain words)
        "Enter ⟦sewage-fraction⟧: the share of metered water the Town bills as sewage. The law does not state it, "
        "and this site does not know the Town's (the only schedule it has before January 1, 2028 is its example, "
        "with an invented share). Ask the Town Supervisor's office for the figure the Town uses; do not copy an "
        "example. Enter it as a percent "
        "or a fraction: 9 gallons in 10 is 90% or 0.90.")
    page = json.loads(run_json(argv))
    assert not page["ok"] and page["problems"][0]["field"] == "sewage-fraction"
    assert page["problems"][0]["text"].startswith("Enter ⟦sewage-fraction⟧: the share of metered water the Town")
    given = run([*argv, "--sewage-fraction", "85%"])
    assert given["sewage_fraction_from"] is None and given["sewage_fraction"] == "0.85"
    assert "Sewage fraction: 85% of metered water use." in given["report"]


# ---- the usability test of issue 34: the Clerk's words ----------------------------------------------------

def test_with_last_year_s_cost_and_the_budget_both_rates_are_shown_and_the_site_s_reading_named():
    """The law points both ways (rents.D: the past year's cost; rate-schedules.A: the budget). With both costs
    given, the desk and the command show the rate from each, side by side, and say that using last year's cost
    is this site's reading, not the law, and that the Town must choose ($912,400 and $948,000 for 96,000,000
    gallons: $9.50 and $9.88, the usability test's figures)."""
    argv = ["rates", "propose", "--fiscal-year", "2028", "--effective", "2028-01-01", "--om-cost", "$912,400",
            "--user-volume-gallons", "96,000,000", "--budgeted-om-cost", "948000", "--sewage-fraction", "0.85",
            "--proposed-on", "2027-10-01"]
    answer = run(argv, rules=compile_rules(RULES_DIR))
    assert answer["vc"]["vc_by_basis"] == {"past-year": "9.50", "budgeted": "9.88", "chosen": "past-year"}
    assert answer["vc"]["vc_per_1000_gallons"] == "9.50"
    said = answer["basis_choice"]
    assert "$9.50 per 1,000 gallons from last year's cost (rents.D); $9.88 from this year's budget" in said
    assert "This site's reading uses last year's cost" in said and "not the law's words" in said
    assert "The Town must choose" in said and any("The Town must choose" in line for line in answer["report"])
    # the Clerk's second usability test: the notice had run before she proposed, and "ask the Town Attorney before
    # the notice is published" came too late; the advice fits a notice not yet run and one already run
    assert said.endswith("ask the Town Attorney: before the notice is published if it has not run yet, or, if it "
                         "has already run, whether it stands.")
    # the desk shows the two rates in a table, then these words alone: the rates are not said twice
    assert said.endswith(answer["basis_reading"]) and "$9.88" not in answer["basis_reading"]
    # one cost only: nothing to choose between
    alone = run(argv[:-6] + argv[-4:], rules=compile_rules(RULES_DIR))
    assert alone["vc"]["vc_by_basis"] is None and alone["basis_choice"] is None and alone["basis_reading"] is None


def test_once_the_notice_date_is_known_the_two_rates_advice_is_said_in_its_tense():
    """The Clerk's second usability test: the notice had run on November 14, and the desk still said "ask the
    Town Attorney before the notice is published". The notice step knows the date: a notice already run is
    said in the past tense (confirm which rate it used); one still to run, before it runs. One rate: nothing."""
    import datetime as dt

    from calculator.rates.rate_year import basis_after_notice
    rules = compile_rules(RULES_DIR)
    s = {"vc_per_1000_gallons": "9.50", "basis": {"om_cost": "912400.00", "user_volume_gallons": "96000000",
                                                   "extraneous_flow_cost": "0.00", "budgeted_om_cost": "948000.00"}}
    ran = basis_after_notice(rules, s, dt.date(2026, 11, 14), dt.date(2026, 12, 6))
    assert ran == ("The two readings of the law give two rates ($9.50 and $9.88 per 1,000 gallons); the proposal "
                   "uses $9.50. The notice ran on November 14, 2026: confirm with the Town Attorney which rate the "
                   "published notice used, and that it stands, before the Board votes.")
    coming = basis_after_notice(rules, s, dt.date(2026, 12, 20), dt.date(2026, 12, 6))
    assert coming.endswith("Before the notice runs on December 20, 2026, ask the Town Attorney which rate it should print.")
    assert basis_after_notice(rules, {**s, "basis": {k: v for k, v in s["basis"].items() if k != "budgeted_om_cost"}},
                              dt.date(2026, 11, 14), dt.date(2026, 12, 6)) is None


def test_the_site_shows_the_newspaper_notice_as_it_ran_with_no_address_added_later():
    """The usability test: the notice made on a desk with no public address ran without a web address, and the
    site built later printed one into "the notice as published". The record keeps the address the notice
    printed (none: ""), and the notice is made from it, whatever the build's address."""
    from calculator.rates import notices
    from kit.site.pages import _site_note
    rules = compile_rules(RULES_DIR)
    for printed, website in ((None, ""), (SITE, SITE)):
        answer = run(["rates", *PROPOSE], rules=rules)
        proposal = rate_year.read_record(answer["files"][0]["text"], "proposal.yaml", ())
        with_proposal = dict(rules, schedules=[*rules["schedules"], rate_year.assemble(
            proposal, files={"proposal": "rules/rate-schedules/2028/proposal.yaml"})])
        made = run(["rates", *NOTICE, *(["--site-url", printed] if printed else [])], rules=with_proposal)
        record = rate_year.read_record(made["files"][0]["text"], "notice.yaml", ())
        assert record["website"] == website
        ran = made["files"][1]["text"]
        s = rate_year.assemble(proposal, record, files={"proposal": "p", "notice": "n"})
        later = dict(rules, schedules=[*rules["schedules"], s])
        # built later with another address: the notice is word for word what ran
        assert notices.hearing_notice_text(later, "2028", "https://other.example/") == ran
        assert "other.example" not in ran
        note = _site_note(s, "https://other.example/")
        assert note.startswith("Added by this site, not part of the notice as it ran in the newspaper")
        assert "https://other.example/rates/2028/" in note
        assert _site_note(s, website or None) is None  # the same address, or none: nothing to add
    assert "sewer website" not in notices.hearing_notice_text(
        dict(rules, schedules=[*rules["schedules"], rate_year.assemble(proposal, dict(record, website=""))]),
        "2028", SITE)


def test_the_notice_to_users_says_the_rate_plainly_and_the_law_s_formula_below(town, capsys):
    """The usability test: the notice for residents read like a legal memo ("CU = VC x VU", "40 CFR 35.929").
    Its main text is plain (the rate, the minimum, a typical bill, when it starts); the formula and the citations
    follow under their own heading. A resolution typed as "Resolution 2027-41" is not named twice."""
    from calculator.rates import notices
    rules = compile_rules(RULES_DIR)
    for argv in (PROPOSE, NOTICE):
        answer = run(["rates", *argv, "--site-url", SITE, "--prepared", str(town.root / "p")], rules=rules)
        for f in answer["files"]:
            if f["rules"]:
                (town.root / "p" / f["path"].split("/", 2)[2]).parent.mkdir(parents=True, exist_ok=True)
                (town.root / "p" / f["path"].split("/", 2)[2]).write_text(f["text"], encoding="utf-8")
    vote = [a if a != ADOPT[-1] else "Resolution 2027-41" for a in ADOPT] if "--resolution" in ADOPT else [
        *ADOPT, "--resolution", "Resolution 2027-41"]
    answer = run(["rates", *vote, "--prepared", str(town.root / "p")], rules=rules)
    record = rate_year.read_record(answer["files"][0]["text"], "vote.yaml", ())
    (town.root / "p" / "2028" / "vote.yaml").write_text(answer["files"][0]["text"], encoding="utf-8")
    text = run(["rates", *USER_NOTICE, "--site-url", SITE, "--prepared", str(town.root / "p")],
               rules=rules)["files"][0]["text"]
    main, law = text.split("THE LAW'S FORMULA AND CITATIONS")
    assert "- Rate: $12.24 for each 1,000 gallons of sewage." in main
    assert "- Minimum charge: $78.34 each quarter, the charge for 8,000 gallons of water use." in main
    assert "- A typical bill: a property that uses 15,000 gallons of water in a quarter pays $146.88" in main
    assert "- When it starts: from January 1, 2028." in main
    assert "- Late payment: as the Town applies the law, a bill still unpaid" in main
    plain = [line for line in main.splitlines() if line.startswith("- ")]
    assert len(plain) == 7
    for legal in ("CU = VC", "40 CFR", "VC", "Sewer rents"):
        assert not any(legal in line for line in plain), legal
        assert legal in law, legal
    assert record["resolution"] == "Resolution 2027-41"
    assert "(resolution 2027-41)" in text and "resolution Resolution" not in text


def test_the_site_keeper_s_steps_say_where_the_address_comes_from_and_match_validate_s_output(tmp_path):
    """The usability test: Dev was asked for "the site's public address" nobody gave him, and used
    http://127.0.0.1:8803/; the steps said validate "must end 'rules OK'" where its output begins "rules OK:"."""
    import zipfile
    prepared = tmp_path / "prepared"
    answer = run(["rates", *PROPOSE, "--prepared", str(prepared)], rules=compile_rules(RULES_DIR))
    (prepared / "2028").mkdir(parents=True)
    (prepared / "2028" / "proposal.yaml").write_text(answer["files"][0]["text"], encoding="utf-8")
    run(["rates", "pack", "2028", "--prepared", str(prepared), "--out", str(tmp_path / "y.zip")])
    with zipfile.ZipFile(tmp_path / "y.zip") as z:
        steps = " ".join(z.read("notices-out/PUBLISHING-2028.txt").decode().split())
    assert 'It must print a line that begins "rules OK:"' in steps and 'end "rules OK"' not in steps
    assert "Setting it is your part, not the Clerk's (her desk only says it is not set): ask the Town for it, and do not guess it." in steps
    assert "If there is none yet, leave it unset" in steps
    assert "The build refuses this computer's own address (localhost, 127.0.0.1)" in steps


@pytest.mark.parametrize("url", ["http://127.0.0.1:8803/", "http://localhost:8000/", "https://sewer.localhost/"])
def test_the_build_refuses_this_computer_s_own_address_except_for_the_preview(url):
    """The usability test: a build with --site-url http://127.0.0.1:8803/ printed it into the public hearing
    notice. `build` refuses it naming the setting and what to do; `serve`'s preview takes it."""
    from kit.errors import BuildError
    from kit.site.build import check_site_url
    with pytest.raises(BuildError) as refused:
        check_site_url(url, "site_url in mkdocs.yml")
    said = str(refused.value)
    assert said.startswith(f"site_url in mkdocs.yml {url!r} is this computer's own address")
    assert "leave site_url out of mkdocs.yml" in said and "python3 build.py serve" in said
    check_site_url(url, "--site-url", preview=True)
    check_site_url("https://sewer.pawling.example/", "--site-url")


def desk_steps(prepared, *steps):
    """The Clerk's steps as the desk takes them, each step's records kept in `prepared` for the next (as the
    browser keeps them); the last step's answer."""
    for argv in steps:
        answer = run(["rates", *argv, "--site-url", SITE, "--prepared", str(prepared)], rules=compile_rules(RULES_DIR))
        for f in answer["files"]:
            if f["rules"]:
                (prepared / f["path"].split("/", 2)[2]).parent.mkdir(parents=True, exist_ok=True)
                (prepared / f["path"].split("/", 2)[2]).write_text(f["text"], encoding="utf-8")
    return answer


def test_the_bill_runs_menu_offers_a_year_adopted_on_the_desk_ahead(tmp_path):
    """The Clerk's usability test (clerk10): in December 2026 she adopted 2028 on the desk; the bill run's menu
    stopped at 2027-Q4, so its first quarter could not be chosen. The menu reaches the last adopted year; a
    year only proposed does not extend it."""
    prepared = tmp_path / "prepared"
    before = run(["quarters", "--today", "2026-12-06"])
    assert before["quarters"][-1]["quarter"] == "2027-Q4"
    for argv in (PROPOSE, NOTICE, ADOPT):
        desk_steps(prepared, argv)
        offered = [q["quarter"] for q in run(["quarters", "--today", "2026-12-06", "--prepared", str(prepared)])["quarters"]]
        assert ("2028-Q1" in offered) == (argv is ADOPT), (argv[0], offered[-1])
    assert offered[-1] == "2028-Q4"


def test_the_newspaper_notice_puts_the_minimum_on_each_property_and_labels_the_division_as_the_towns_reading(
        tmp_path):
    """clerk11 (N1, N2): the notice said each *user's* charge is at least the minimum, citing paragraph B (the law
    puts it on each property, in its own paragraph), and printed the division of the cost by the volume as the
    law's. The law's words are quoted and the division is named the Town's reading."""
    prepared = tmp_path / "prepared"
    answer = desk_steps(prepared, PROPOSE, NOTICE)
    text = next(f["text"] for f in answer["files"] if not f["rules"])
    flat = " ".join(text.split())
    assert "Each property connected to the sewer pays at least the minimum charge each quarter" in flat
    assert "and not less than the minimum charge" not in flat
    # the law quoted whole, with who sets the rate (clerk13: "The law sets the rate"), and the division named the
    # Town's computation, with no citation that would make it the law's
    assert ("says the rate “shall be established annually by the Town Board based on the operation and "
            "maintenance expenses incurred during the past fiscal year”") in flat
    assert "How the Town computed the proposed rate: the operation and maintenance cost of" in flat
    how = next(line for line in text.splitlines() if "How the Town computed" in line)
    assert "paragraph D" not in how and "Sewer rents D" not in how
    assert "How the rate was set" not in flat and "The law sets the rate" not in flat
    # the Town's legal notice carries no site's disclaimer (clerk12, high), and never calls the division the law's
    assert "the Town has not adopted this reading" not in flat and "how this notice reads the law" not in flat
    assert "the law divides" not in flat.lower()


def test_a_vote_recorded_on_a_day_after_this_computers_date_is_pointed_out(tmp_path):
    """clerk11, V1: a vote after today is refused with a way out for a computer whose date is wrong (the day it is
    recorded); taking that way out was silent, 351 days ahead. It is said each time, in the answer and the report."""
    import datetime as dt
    prepared = tmp_path / "prepared"
    answer = desk_steps(prepared, PROPOSE, NOTICE, ADOPT)
    recorded = dt.date.fromisoformat(ADOPT[ADOPT.index("--recorded-on") + 1])
    ahead = recorded > dt.date.today()
    assert ("recorded_ahead" in answer) == ahead
    if ahead:
        assert answer["report"][0] == answer["recorded_ahead"]
        assert "but this computer's date is" in answer["recorded_ahead"]


@pytest.mark.parametrize("address", ["http://127.0.0.1:8104/", "http://localhost:8000/", "https://[::1]/"])
def test_a_notice_never_names_this_computers_own_address(tmp_path, address):
    """The eleventh hostile tester (F7): `rates notice … --site-url http://127.0.0.1:8104/` printed that address in
    the newspaper notice, and the build published it. It is refused, saying what to give instead."""
    prepared = tmp_path / "prepared"
    desk_steps(prepared, PROPOSE)
    with pytest.raises(InputError) as err:
        run(["rates", *NOTICE, "--site-url", address, "--prepared", str(prepared)], rules=compile_rules(RULES_DIR))
    assert "this computer's own address" in str(err.value)


def test_the_users_volume_may_be_given_as_metered_water_times_the_share(town, capsys):
    """clerk11 (P1): the desk asked only for the "billable sewage volume"; a Clerk whose figure is the users' metered
    water entered it there, and VC came out $9.60 for $11.30 (15% low). The water may be given instead: the sewage
    volume is it times the share, to the nearest gallon, shown, recorded beside the water, and checked by validate."""
    water = [*PROPOSE[:7], "--sewage-fraction", "85%", "--user-water-gallons", "95000000", *PROPOSE[11:]]
    answer = town.engine(water)
    assert answer["ok"], answer
    answer = answer["result"]
    assert answer["user_volume_words"] == ("Users' volume: 95,000,000 gallons of metered water × 85% billed as sewage "
                                           "= 80,750,000 gallons of sewage.")
    assert answer["sewage_percent"] == "85%"
    # $856,791 ÷ 80,750,000 gallons × 1,000 = $10.61; the water itself would have given $9.02
    assert answer["vc"]["vc_per_1000_gallons"] == "10.61"
    assert town.cli(water) == 0
    proposal = (town.rules / "rate-schedules" / "2028" / "proposal.yaml").read_text()
    assert 'user_volume_gallons: "80750000"' in proposal and 'user_water_gallons: "95000000"' in proposal
    compile_rules(town.rules)
    (town.rules / "rate-schedules" / "2028" / "proposal.yaml").write_text(
        proposal.replace('user_water_gallons: "95000000"', 'user_water_gallons: "99000000"'))
    with pytest.raises(Exception) as broken:
        compile_rules(town.rules)
    assert "is not the metered water 99000000 gallons times the sewage share 0.85" in str(broken.value)


@pytest.mark.parametrize("argv, says", [
    ([*PROPOSE[:9], "--user-water-gallons", "95000000", *PROPOSE[9:]], "Enter one of them, not both"),
    ([*PROPOSE[:9], *PROPOSE[11:]], "the users' billable sewage volume for the year"),
    ([*PROPOSE[:7], "--user-water-gallons", "95000000", *PROPOSE[11:]], "with --user-water-gallons, the sewage volume"),
])
def test_the_volume_as_water_or_sewage_one_of_them_and_the_share_with_water(town, capsys, argv, says):
    answer = town.engine(argv)
    assert not answer["ok"] and says in answer["error"], answer["error"]
    assert town.cli(argv) == 2
    assert says in " ".join(capsys.readouterr().err.split())


def test_the_clerk_may_sign_the_newspaper_notice_with_her_name(town, capsys):
    """clerk11 (N3): the newspaper notice was signed "Town Clerk" with no name. The notice step takes the Clerk's name,
    records it in notice.yaml and signs with it; left out, the title alone; a name with markup is refused."""
    assert town.cli(PROPOSE) == 0
    assert town.cli([*NOTICE, "--clerk-name", "  Jane   Doe "]) == 0
    text = (town.out / "hearing-notice-2028.txt").read_text()
    assert "\nJane Doe, Town Clerk\nPublished: Monday, November 1, 2027\n" in text
    assert 'clerk_name: "Jane Doe"' in (town.rules / "rate-schedules" / "2028" / "notice.yaml").read_text()
    compile_rules(town.rules)
    capsys.readouterr()
    answer = town.engine([*NOTICE, "--clerk-name", "<script>x</script>"])
    assert not answer["ok"] and "is not a name to print" in answer["error"]
    unsigned = town.engine(NOTICE)["result"]
    text = next(f["text"] for f in unsigned["files"] if f["path"].endswith(".txt"))
    assert "\nTown Clerk\nPublished:" in text and "Jane Doe" not in text


def test_a_quarter_of_a_year_only_proposed_is_refused_saying_to_record_the_vote(town, capsys):
    """clerk12 (M7, M8): the bill run said "No rate schedule is on record for fiscal year 2028 … Adopt one on the
    Clerk's desk" for a year proposed and noticed, as if nothing had been done. It says the schedule is proposed,
    not adopted, and to record the Board's vote; with the vote recorded, the quarter bills."""
    from calculator.bills import billing
    accounts = ("accounts.csv", "account,parcel,service_address,mailing_name,mailing_address,language,meter\n"
                "A1,1-1-1,1 Example Lane,Ann Example,PO Box 1,en,water-gallons\n")
    reads = ("reads.csv", "account,usage\nA1,12000\n")
    assert town.cli(PROPOSE) == 0 and town.cli(NOTICE) == 0
    with pytest.raises(InputError) as refused:
        billing.run(compile_rules(town.rules), "2028-Q1", accounts, reads, first_quarter=True)
    assert "The rate schedule for fiscal year 2028 is proposed, not adopted" in str(refused.value)
    assert "record it (step 3 on the Clerk's desk" in str(refused.value)
    assert town.cli(ADOPT) == 0
    assert billing.run(compile_rules(town.rules), "2028-Q1", accounts, reads, first_quarter=True)["register"]


@pytest.mark.parametrize("option,value", [("--place", "Town Hall\x01"), ("--clerk-name", "Jane\x1b[31m Doe"),
                                          ("--newspaper", "The Journal\u202e")])
def test_a_notice_refuses_characters_that_cannot_be_printed(town, option, value):
    """The twelfth hostile tester: `--place $'Town Hall\\x01'` was recorded and validated, then the build died in the feed
    writer; an escape sequence went raw into the newspaper notice."""
    assert town.cli(PROPOSE) == 0
    answer = town.engine([*NOTICE, option, value] if option != "--place" else [*NOTICE[:-1], value])
    assert not answer["ok"] and "holds a character that cannot be printed" in answer["error"], answer


def test_the_engine_and_the_desk_refuse_a_first_day_already_past_unless_it_is_confirmed():
    """The twentieth hostile tester, #4: the desk and `python -m calculator rates propose` took fiscal year 2025
    effective July 1, 2025 (proposed June 1, 2025) on December 7, 2026 with no word, repricing bills already sent;
    `build.py rates` refused it. The engine refuses it for both, naming the box to tick (the desk) or the option
    (the command line), and takes it when confirmed."""
    import datetime as dt
    import json
    from calculator.cli import run_json
    past = dt.date.today() - dt.timedelta(days=200)
    argv = ["rates", "propose", f"--fiscal-year={past.year}", f"--effective={past.isoformat()}", "--om-cost=856791",
            "--user-volume-gallons=70000000", "--sewage-fraction=0.8",
            f"--proposed-on={(past - dt.timedelta(days=30)).isoformat()}"]
    refused = json.loads(run_json(argv))
    assert refused["ok"] is False
    problem = next(p for p in refused["problems"] if p["field"] == "effective")
    assert "is already past" in problem["text"] and "⟦retroactive⟧" in problem["text"], problem
    taken = json.loads(run_json([*argv, "--retroactive"]))
    assert taken["ok"] is True or all("already past" not in p["text"] for p in taken.get("problems", [])), taken


def test_a_name_typed_with_the_title_is_signed_with_the_title_once(town):
    """The usability test usability23, M2: the hint's example "Jane Doe, Town Clerk" printed "Jane Doe, Town Clerk,
    Town Clerk" under the newspaper notice: the title the notice adds is not typed twice."""
    assert town.cli(PROPOSE) == 0
    for name in ("Jane Doe, Town Clerk", "Jane Doe"):
        answer = town.engine([*NOTICE, "--clerk-name", name])
        assert answer["ok"], answer
        text = next(f["text"] for f in answer["result"]["files"] if f["path"].endswith(".txt"))
        assert "Jane Doe, Town Clerk" in text and "Town Clerk, Town Clerk" not in text, text[-300:]


def test_the_keeper_s_steps_for_a_vote_dated_ahead_say_it_shows_as_adopted_only_from_its_day(tmp_path):
    """The usability test usability23, M1: the zip's steps said the rates page "must show 2028 as adopted" for a
    vote dated weeks ahead, which the build publishes only once its day has come: a keeper who built at once
    would think it failed. They say when it shows as adopted, and to build again then."""
    import zipfile
    prepared = tmp_path / "prepared"
    for argv in (PROPOSE, NOTICE, ADOPT):
        answer = run(["rates", *argv, "--site-url", SITE, "--prepared", str(prepared)], rules=compile_rules(RULES_DIR))
        for f in answer["files"]:
            if f["rules"]:
                (prepared / f["path"].split("/", 2)[2]).parent.mkdir(parents=True, exist_ok=True)
                (prepared / f["path"].split("/", 2)[2]).write_text(f["text"], encoding="utf-8")
    run(["rates", "pack", "2028", "--prepared", str(prepared), "--out", str(tmp_path / "v.zip")])
    with zipfile.ZipFile(tmp_path / "v.zip") as z:
        steps = " ".join(z.read("notices-out/PUBLISHING-2028.txt").decode().split())
    import datetime as dt
    if dt.date.today() < dt.date(2027, 11, 20):  # ADOPT's vote, ahead of today until then
        assert "show the 2028 schedule as proposed until November 20, 2027, the day of the Board's vote" in steps
        # (Linda's keeper: such a build stops, so the steps say to keep the vote aside until its day)
        assert ("A build before November 20, 2027 stops, because the vote is dated after it: until November 20, 2027, "
                "leave rules/rate-schedules/2028/vote.yaml out of the commit and keep it aside; on or after that day, "
                "add it, commit it and build the site again") in steps and "schedule as adopted." not in steps
        # said at step 3, before the commit it is about (the Clerk's re-test: the keeper had committed it by step 5)
        first = steps.index("First: the vote is dated November 20, 2027. Until that day, leave "
                            "rules/rate-schedules/2028/vote.yaml out of the git add line below")
        assert steps.index("3. Commit exactly these files") < first < steps.index("git add rules/")
    else:
        assert "First: the vote is dated" not in steps
        assert "show the 2028 schedule as adopted." in steps and "build the site again" not in steps


def test_a_likely_typing_mistake_names_the_boxes_the_clerk_filled():
    """The twentieth hostile tester, #6: `--sewage-fraction 0.0001 --user-water-gallons 70000000` was told to check
    --om-cost and --user-volume-gallons, which were not given, and not the share, the mistake."""
    with pytest.raises(InputError) as refused:
        run(["rates", "propose", "--fiscal-year", "2027", "--effective", "2027-01-01", "--sewage-fraction", "0.0001",
             "--om-cost", "856791", "--user-water-gallons", "70000000"])
    said = str(refused.value)
    assert "likely typing mistake" in said and "--user-water-gallons (" in said and "--sewage-fraction (" in said
    assert "user-volume-gallons" not in said
