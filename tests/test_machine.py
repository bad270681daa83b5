"""What `build.py install` asks apt for (kit/tools/machine.py: apt_install): a package only some
distributions offer (Debian's chromium-headless-shell, the tests' Chromium) is installed where
apt has it and left out elsewhere, never a reason to stop."""
import pytest

from kit.tools import machine


@pytest.fixture
def apt(monkeypatch):
    """A root machine with apt; `offered` is what its package lists have. Returns the commands run."""
    ran = []
    monkeypatch.setattr(machine.os, "geteuid", lambda: 0)
    monkeypatch.setattr(machine.shutil, "which", lambda name: f"/usr/bin/{name}")
    monkeypatch.setattr(machine, "run", lambda argv, **kw: ran.append(argv))
    offered = set()
    monkeypatch.setattr(machine, "apt_offers", lambda p: p in offered)
    return ran, offered


def test_an_optional_package_apt_offers_is_installed_with_the_needed_ones(apt):
    ran, offered = apt
    offered.add("chromium-headless-shell")
    machine.apt_install(["shellcheck"], "why", ["chromium-headless-shell"])
    assert ran[-1][-2:] == ["shellcheck", "chromium-headless-shell"]


def test_an_optional_package_apt_does_not_offer_is_left_out_and_nothing_stops(apt):
    ran, _ = apt
    machine.apt_install(["shellcheck"], "why", ["chromium-headless-shell"])
    assert ran[-1][-1] == "shellcheck" and "chromium-headless-shell" not in ran[-1]
    ran.clear()
    machine.apt_install([], "why", ["chromium-headless-shell"])
    assert ran == []  # not even `apt-get update`


def test_only_an_optional_package_missing_and_offered_still_installs_it(apt):
    ran, offered = apt
    offered.add("chromium-headless-shell")
    machine.apt_install([], "why", ["chromium-headless-shell"])
    assert ran[0][:2] == ["apt-get", "update"] and ran[-1][-1] == "chromium-headless-shell"


def test_without_root_a_needed_package_stops_with_the_command_but_an_optional_one_does_not(monkeypatch):
    monkeypatch.setattr(machine.os, "geteuid", lambda: 1000)
    monkeypatch.setattr(machine, "run", lambda argv, **kw: pytest.fail(f"ran {argv}"))
    monkeypatch.setattr(machine, "apt_offers", lambda p: True)
    machine.apt_install([], "why", ["chromium-headless-shell"])
    with pytest.raises(SystemExit, match="sudo apt-get install shellcheck"):
        machine.apt_install(["shellcheck"], "why", ["chromium-headless-shell"])


def test_the_tests_prefer_the_headless_shell(monkeypatch):
    monkeypatch.setattr(machine.shutil, "which", lambda name: f"/usr/bin/{name}")
    assert machine.find_test_chromium() == "/usr/bin/chromium-headless-shell"
    monkeypatch.setattr(machine.shutil, "which", lambda name: None if "headless" in name else f"/usr/bin/{name}")
    assert machine.find_test_chromium() == "/usr/bin/chromium"


def test_pip_and_npm_run_together_and_a_failure_of_either_stops_the_install(tmp_path):
    import subprocess
    import sys

    def waits_for_the_other(me, other):
        """Leaves its mark, then ends well only once the other's mark is there (so only if the
        two run at the same time; one after the other, the first gives up after 30 s)."""
        return [sys.executable, "-c", f"""
import pathlib, sys, time
d = pathlib.Path({str(tmp_path)!r})
(d / {me!r}).touch()
for _ in range(300):
    if (d / {other!r}).exists():
        sys.exit(0)
    time.sleep(0.1)
sys.exit(1)
"""]
    machine.run_together(waits_for_the_other("a", "b"), (waits_for_the_other("b", "a"), None))
    ok, fail = [sys.executable, "-c", "pass"], [sys.executable, "-c", "raise SystemExit(3)"]
    for pair in ((fail, (ok, None)), (ok, (fail, None))):
        with pytest.raises(subprocess.CalledProcessError) as raised:
            machine.run_together(*pair)
        assert raised.value.returncode == 3


def test_a_clone_without_node_modules_is_told_the_one_install_command_not_a_traceback(tmp_path, monkeypatch, capsys):
    """Issue 35, item 15: `python3 build.py` before the install names what is missing (Pyodide from
    npm) and the command that installs it, and builds nothing; commands that build no site need no
    Pyodide."""
    import build
    assert machine.missing(tmp_path) == ["Pyodide, the browser's Python (from npm, into node_modules/)"]
    assert machine.missing(tmp_path, site=False) == []
    assert machine.missing() == []  # this checkout is installed
    monkeypatch.setattr(machine, "ensure_venv", lambda: None)
    monkeypatch.setattr(machine, "ROOT", tmp_path)
    monkeypatch.setattr(machine.missing, "__defaults__", (tmp_path, True))
    assert build.main(["build"]) == 1
    said = capsys.readouterr().err
    assert said.startswith("Pyodide, the browser's Python") and "`python3 build.py install`" in said
    assert "Traceback" not in said and not (tmp_path / "site").exists()


@pytest.mark.parametrize("uv_there, uv_code, by_pip", [(False, None, True), (True, 0, False), (True, 1, True)])
def test_the_packages_are_installed_by_uv_and_by_pip_where_uv_cannot(tmp_path, monkeypatch, uv_there, uv_code, by_pip):
    """uv installs the packages in seconds where pip takes most of a minute; where uv cannot be had
    (pip could not install it) or fails, pip installs them, and the install goes on."""
    import types
    python = tmp_path / "bin" / "python"
    python.parent.mkdir()
    if uv_there:
        (python.parent / "uv").touch()
    monkeypatch.setattr(machine.sys, "executable", str(python))
    called, piped = [], []
    monkeypatch.setattr(machine.subprocess, "run", lambda cmd, **kw: called.append(cmd) or types.SimpleNamespace(
        returncode=uv_code if cmd[0].endswith("uv") else 1))
    monkeypatch.setattr(machine, "run", lambda cmd, **kw: piped.append(cmd))
    machine.install_python_packages(".[test]")
    assert any(c[0].endswith("uv") for c in called) == uv_there
    assert bool(piped) == by_pip
    if by_pip:
        assert piped[0][1:] == ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-e", ".[test]"]
