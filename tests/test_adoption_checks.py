"""The Clerk's checks of a vote and of its timing (calculator/rates/adoption.py), at each boundary.

NY Town Law § 63: a resolution needs "the affirmative vote of a majority of all the members of the
town board": three of five, whatever the absences (rate-schedules.C; rules/parameters/
town-board-size.yaml). Ayes, noes and absent together cannot be more members than the board has.
The schedule is adopted only after the public-comment meeting: on the meeting day itself is lawful.
rules/interpretations/late-adoption.yaml ("refuse"): a notice or adoption after the effective date is
refused; on the effective day itself it is not. Each refusal is provoked here and its words checked.
And the window for the public-comment meeting before the vote (rate-schedules.B), where the law's
cases (tests/cases/hearing.yaml) do not reach: no meeting date, and every key of the answer."""
import copy
import datetime as dt

import pytest

from calculator.rates import adoption, hearing
from calculator.core.rules import load

RULES = load()
MEETING = "2027-11-16"


def vote(ayes, noes, absent=None, date="2027-11-20"):
    record = {"date": date, "ayes": ayes, "noes": noes}
    if absent is not None:
        record["absent"] = absent
    return adoption.vote_problem(RULES, record, MEETING)


def test_the_majority_of_all_five_members_is_three():
    assert adoption.majority(RULES) == 3
    assert adoption.majority(RULES, "2027-11-20") == 3


@pytest.mark.parametrize("ayes, noes, absent", [(3, 2, 0), (3, 1, 1), (3, 0, 2), (4, 1, 0), (5, 0, 0), (3, 0, 0)])
def test_three_ayes_or_more_adopt_whatever_the_absences(ayes, noes, absent):
    assert vote(ayes, noes, absent) is None


@pytest.mark.parametrize("ayes, noes, absent", [(2, 0, 3), (2, 1, 2), (2, 2, 1), (0, 5, 0), (2, 0, 0)])
def test_fewer_than_three_ayes_do_not_adopt_even_with_absences(ayes, noes, absent):
    assert vote(ayes, noes, absent) == (
        f"A vote of {ayes} for is not a majority of all 5 members of the Town Board; 3 are needed whatever the "
        "absences (NY Town Law § 63; Rate schedules C). If the vote carried with 3 or more for, correct the number "
        "voting for; if not, the schedule is not adopted, and the Board may vote on it again.")


def test_two_ayes_of_three_present_is_a_majority_present_but_not_of_the_board():
    assert "A vote of 2 for is not a majority of all 5 members" in vote(2, 1, 2)


@pytest.mark.parametrize("ayes, noes, absent, members", [(3, 2, 1, 6), (4, 2, 0, 6), (3, 3, 0, 6), (6, 0, 0, 6),
                                                         (3, 0, 3, 6), (5, 1, 1, 7)])
def test_more_members_than_the_board_has_are_refused(ayes, noes, absent, members):
    assert vote(ayes, noes, absent) == (
        f"{ayes} for, {noes} against and {absent} absent make {members} members, but the Town Board has 5. "
        "Check the numbers voting for, voting against and absent.")


def test_absent_left_out_counts_as_none_absent():
    assert vote(3, 2) is None
    assert vote(3, 3) is not None and "make 6 members" in vote(3, 3)


def test_adoption_on_the_meeting_day_itself_is_lawful_and_the_day_before_is_not():
    assert vote(3, 1, 1, date=MEETING) is None
    assert vote(3, 1, 1, date="2027-11-17") is None
    assert vote(3, 1, 1, date="2027-11-15") == (
        "the adoption date November 15, 2027 is before the public-comment meeting on November 16, 2027; a schedule "
        "can be adopted only after that meeting (Rate schedules C). If the vote was later, correct its date; if not, "
        "the Board may vote on it again on or after November 16, 2027.")


SCHEDULE = {"effective": "2028-01-01", "notice": {"published": "2027-11-01"}, "adoption": {"date": "2027-11-20"}}


def timing(published, adopted, reading="refuse"):
    s = copy.deepcopy(SCHEDULE)
    s["notice"]["published"], s["adoption"]["date"] = published, adopted
    return adoption.timing_problem(s, reading)


def test_notice_and_adoption_on_or_before_the_effective_day_are_in_time():
    assert timing("2027-11-01", "2027-11-20") is None
    assert timing("2027-12-15", "2028-01-01") is None            # adopted on the effective day itself
    assert timing("2028-01-01", "2028-01-01") is None            # published and adopted on it


def test_adoption_the_day_after_the_effective_day_is_refused_in_these_words():
    assert timing("2027-12-15", "2028-01-02") == (
        "the schedule is adopted on January 2, 2028, after its effective date January 1, 2028. The law asks for a "
        "schedule before its fiscal year starts (Rate schedules A). Bills are due in advance, so bills due since "
        "January 1, 2028 would be repriced. This site reads the law as refusing a late schedule (the Town has not "
        "adopted this reading). If the vote was earlier, correct its date; if not, "
        "propose the schedule again with an effective date on or after January 2, 2028.")


def test_a_notice_after_the_effective_day_is_refused_first_in_these_words():
    assert timing("2028-01-02", "2028-01-20") == (
        "the schedule is published on January 2, 2028, after its effective date January 1, 2028. The law asks for a "
        "schedule before its fiscal year starts (Rate schedules A). Bills are due in advance, so bills due since "
        "January 1, 2028 would be repriced. This site reads the law as refusing a late schedule (the Town has not "
        "adopted this reading). Publish it in time for the meeting to be held "
        "by January 1, 2028, or propose it again with an effective date on or after the day it can be adopted.")


def test_a_notice_alone_is_checked_before_any_vote():
    assert timing_of({"effective": "2028-01-01", "notice": {"published": "2028-01-02"}}).startswith(
        "the schedule is published on January 2, 2028")
    assert timing_of({"effective": "2028-01-01", "notice": {"published": "2027-12-01"}}) is None
    assert timing_of({"effective": "2028-01-01"}) is None


def timing_of(s):
    return adoption.timing_problem(s, "refuse")


def test_the_other_reading_accepts_a_late_schedule():
    assert timing("2028-01-02", "2028-01-20", reading="first-quarter-after") is None
    assert adoption.timing_problem(SCHEDULE, "first-quarter-after") is None


# ---- the public-comment meeting's window (calculator/rates/hearing.py) ----


def test_a_hearing_without_a_meeting_date_gives_the_window_only():
    for meeting in (None, "", "  "):
        out = hearing.compute(RULES, "2027-03-01", meeting)
        assert (out["earliest"], out["latest"]) == ("2027-03-16", "2027-03-31")
        assert "meeting" not in out and "valid" not in out, meeting
        assert len(out["explanation"]) == 1


def test_the_hearing_window_takes_a_date_or_its_words():
    assert hearing.window(RULES, dt.date(2027, 3, 1)) == {"earliest": "2027-03-16", "latest": "2027-03-31"}
    assert hearing.window(RULES, "2027-03-01") == {"earliest": "2027-03-16", "latest": "2027-03-31"}


def test_a_meeting_in_the_window_says_how_many_days_after_publication():
    out = hearing.compute(RULES, "2027-03-01", "2027-03-20")
    assert {k: v for k, v in out.items() if k != "explanation"} == {
        "command": "hearing", "published": "2027-03-01", "earliest": "2027-03-16", "latest": "2027-03-31",
        "meeting": "2027-03-20", "days_after_publication": 19, "valid": True, "last_day_is_a_business_day": True}
    assert out["explanation"][0]["values"] == {"earliest": "2027-03-16", "latest": "2027-03-31"}
    step = out["explanation"][-1]
    assert (step["values"], step["cite"]) == ({"days_after_publication": 19, "valid": True}, "rate-schedules.B")
