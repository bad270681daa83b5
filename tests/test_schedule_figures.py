"""A schedule's figures against its own record (the eighth hostile tester, F4): in an adopted schedule,
`vc_per_1000_gallons` hand-edited from 10.73 to 12.00 over a basis giving 10.73, or the share changed
from 0.80 to 0.85 after the notice printing 80% ran, passed `build.py validate` and was billed. Validate
now works VC out again with the engine's own VC function and compares the schedule with the figures its
notice recorded, naming the file and line, the arithmetic, and what to do."""
import contextlib
import io
import shutil

import pytest

from kit.clerk import command as clerk
from kit.rules import validate
from kit.rules.validate import RULES_DIR, RuleError, compile_rules


@pytest.fixture(scope="module")
def adopted(tmp_path_factory):
    """A copy of rules/ with fiscal 2027 proposed ($912,400 / 85,000,000 gallons: $10.73), noticed and adopted."""
    root = tmp_path_factory.mktemp("figures")
    shutil.copytree(RULES_DIR, root / "rules")

    def step(*argv):
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            assert clerk.main([*argv, "--rules-dir", str(root / "rules")]) == 0, argv
    step("propose", "--fiscal-year", "2027", "--effective", "2027-01-01", "--om-cost", "912400",
         "--user-volume-gallons", "85000000", "--proposed-on", "2026-10-01", "--sewage-fraction", "0.80")
    step("notice", "2027", "--published", "2026-11-01", "--meeting", "2026-11-16", "--time", "19:00",
         "--place", "Pawling Town Hall", "--output-dir", str(root / "out"))
    step("adopt", "2027", "--date", "2026-11-20", "--recorded-on", "2026-12-01", "--ayes", "3", "--noes", "1",
         "--absent", "1", "--resolution", "2026-88")
    return root / "rules"


@pytest.fixture
def record(adopted):
    """The adopted schedule's proposal.yaml and notice.yaml, put back after each test."""
    folder = adopted / "rate-schedules" / "2027"
    kept = {p: p.read_bytes() for p in folder.iterdir()}
    yield folder
    for p, data in kept.items():
        p.write_bytes(data)


def _line(path, key) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                if line.startswith(f"{key}:"))


def _edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text, text
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_the_steps_record_what_the_notice_printed_and_the_schedule_passes(record):
    notice = (record / "notice.yaml").read_text(encoding="utf-8")
    assert 'vc_per_1000_gallons: "10.73"' in notice and 'sewage_fraction: "0.80"' in notice
    s = next(s for s in compile_rules(record.parent.parent)["schedules"] if s["id"] == "2027")
    assert s["status"] == "adopted" and s["vc_per_1000_gallons"] == "10.73"


def test_a_vc_that_contradicts_its_basis_is_refused_with_the_arithmetic(record):
    proposal = record / "proposal.yaml"
    _edit(proposal, 'vc_per_1000_gallons: "10.73"', 'vc_per_1000_gallons: "12.00"')
    # the notice is made to agree, so only the basis can catch it
    _edit(record / "notice.yaml", 'vc_per_1000_gallons: "10.73"', 'vc_per_1000_gallons: "12.00"')
    with pytest.raises(RuleError) as err:
        compile_rules(record.parent.parent)
    said = [p for p in err.value.problems if p.startswith(f"{proposal}:{_line(proposal, 'vc_per_1000_gallons')}:")]
    assert len(said) == 1, err.value.problems
    assert "VC 12.00 is not what this schedule's own basis gives" in said[0]
    assert "$912,400.00 ÷ 85,000,000 gallons × 1,000 = $10.73" in said[0]
    assert 'Set vc_per_1000_gallons to "10.73"' in said[0] and "noticed and voted on" in said[0]


def test_a_cent_off_the_engines_rounding_is_refused(record):
    # 912400 / 85000000 * 1000 = 10.7341…: 10.74 is what rounding up would give, not the reading's half-up
    proposal = record / "proposal.yaml"
    _edit(proposal, 'vc_per_1000_gallons: "10.73"', 'vc_per_1000_gallons: "10.74"')
    _edit(record / "notice.yaml", 'vc_per_1000_gallons: "10.73"', 'vc_per_1000_gallons: "10.74"')
    with pytest.raises(RuleError) as err:
        compile_rules(record.parent.parent)
    assert any("VC 10.74 is not what" in p for p in err.value.problems), err.value.problems


def test_a_share_changed_after_the_notice_ran_is_refused_with_both_lines(record, monkeypatch, capsys):
    proposal, notice = record / "proposal.yaml", record / "notice.yaml"
    _edit(proposal, 'sewage_fraction: "0.80"', 'sewage_fraction: "0.85"')
    monkeypatch.setattr(validate, "RULES_DIR", record.parent.parent)
    assert validate.main() == 1
    err = capsys.readouterr().err
    assert (f"rules/rate-schedules/2027/proposal.yaml:{_line(proposal, 'sewage_fraction')}:" in err
            and f"rules/rate-schedules/2027/notice.yaml:{_line(notice, 'sewage_fraction')}:" in err), err
    assert "the sewage share 0.85 is not the 0.80 that the published notice printed" in err
    assert 'Set sewage_fraction back to "0.80"' in err and "Traceback" not in err


def test_a_notice_recorded_before_notices_kept_their_figures_is_not_checked_against_them(record):
    notice = record / "notice.yaml"
    notice.write_text("".join(line for line in notice.read_text(encoding="utf-8").splitlines(keepends=True)
                              if not line.startswith(("vc_per_1000_gallons:", "sewage_fraction:"))),
                      encoding="utf-8")
    _edit(record / "proposal.yaml", 'sewage_fraction: "0.80"', 'sewage_fraction: "0.85"')
    compile_rules(record.parent.parent)  # nothing to compare with: no refusal
