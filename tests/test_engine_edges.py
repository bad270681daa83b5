"""Small cases of the engine's arithmetic and input handling that the law's cases do not reach:
each was found by mutation testing (python3 build.py mutants) as a change no test noticed."""
import datetime as dt

from calculator import hearing
from calculator.rules import load

RULES = load()


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
        "meeting": "2027-03-20", "days_after_publication": 19, "valid": True}
    assert out["explanation"][0]["values"] == {"earliest": "2027-03-16", "latest": "2027-03-31"}
    step = out["explanation"][-1]
    assert (step["values"], step["cite"]) == ({"days_after_publication": 19, "valid": True}, "rate-schedules.B")
