"""A slip in a parameter file once a schedule is adopted (the seventh hostile tester, F1): the adopted
schedule's checks (its notice's window and its vote) read parameters, and ended on the broken one with
`KeyError: 'town-board-size'`, in `build.py validate`, in the build and in `rates status`. Each parameter
file is broken in turn, in a copy of rules/ holding an adopted schedule: the answer is the file's own
file:line message, as without an adopted schedule, and never a traceback nor raw exception text."""
import contextlib
import io
import shutil

import pytest

import calculator.core.rules as engine_rules
from calculator import cli
from kit.clerk import command as clerk
from kit.rules import compiled, validate
from kit.rules.validate import RULES_DIR, RuleError, compile_rules

PARAMETERS = sorted(p.name for p in (RULES_DIR / "parameters").glob("*.yaml"))


@pytest.fixture(scope="module")
def adopted(tmp_path_factory):
    """A copy of rules/ with fiscal 2027 proposed, noticed and adopted, as the tester did."""
    root = tmp_path_factory.mktemp("adopted")
    shutil.copytree(RULES_DIR, root / "rules")

    def step(*argv):
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            assert clerk.main([*argv, "--rules-dir", str(root / "rules")]) == 0, argv
    step("propose", "--fiscal-year", "2027", "--effective", "2027-01-01", "--om-cost", "856791",
         "--user-volume-gallons", "70000000", "--proposed-on", "2026-10-01", "--sewage-fraction", "0.80")
    step("notice", "2027", "--published", "2026-11-01", "--meeting", "2026-11-16", "--time", "19:00",
         "--place", "Pawling Town Hall", "--output-dir", str(root / "out"))
    step("adopt", "2027", "--date", "2026-11-20", "--recorded-on", "2026-12-01", "--ayes", "3", "--noes", "1",
         "--absent", "1", "--resolution", "2026-88")
    rules = root / "rules"
    assert [s["status"] for s in compile_rules(rules)["schedules"]][-1] == "adopted"
    return rules


@pytest.fixture
def restore(adopted):
    kept = {name: (adopted / "parameters" / name).read_bytes() for name in PARAMETERS}
    yield adopted
    for name, data in kept.items():
        (adopted / "parameters" / name).write_bytes(data)


def slipped(text: str, slip: str) -> tuple[str, int]:
    """The file with the slip made, and the line the message must name."""
    lines = text.splitlines()
    if slip == "twice":  # a second `value:` at the end: the message names the repeat
        return text + "value: 7\n", len(lines) + 1
    at = next(i for i, line in enumerate(lines) if line.startswith("value:"))
    return "\n".join([*lines[:at], "value: five", *lines[at + 1:]]) + "\n", at + 1


NAMED = ["town-board-size.yaml", "hearing-minimum-days.yaml", "hearing-maximum-days.yaml"]  # the ones the tester hit


@pytest.mark.parametrize("name, slip", [*((name, "twice") for name in PARAMETERS), *((name, "five") for name in NAMED)])
def test_a_broken_parameter_is_reported_at_its_line_with_an_adopted_schedule(restore, name, slip):
    path = restore / "parameters" / name
    text, line = slipped(path.read_text(encoding="utf-8"), slip)
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RuleError) as err:
        compile_rules(restore)
    assert any(p.startswith(f"{path}:{line}:") for p in err.value.problems), err.value.problems


@pytest.mark.parametrize("name", NAMED)
def test_validate_and_rates_status_give_the_file_and_line_not_a_traceback(restore, name, monkeypatch, capsys):
    path = restore / "parameters" / name
    text, line = slipped(path.read_text(encoding="utf-8"), "twice")
    path.write_text(text, encoding="utf-8")
    monkeypatch.setattr(validate, "RULES_DIR", restore)
    assert validate.main() == 1
    err = capsys.readouterr().err
    assert f"parameters/{name}:{line}:1: the key 'value' is given twice" in err and "Traceback" not in err
    # the engine's command line reads the same rules: its refusal names the file, not "KeyError"
    monkeypatch.setenv("PAWLING_BUILD_CACHE", "0")
    monkeypatch.setattr(compiled, "RULES_DIR", restore)
    monkeypatch.setattr(engine_rules, "_cache", None)
    status = cli.main(["rates", "status", "--today", "2026-12-06"])
    err = capsys.readouterr().err
    assert status != 0 and f"{name}:{line}:1" in err and "KeyError" not in err and "could not answer" not in err, err
