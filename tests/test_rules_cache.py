"""The compiled rules kept between runs of the command line (kit/rules/compiled.py): the kept copy
is a fresh compile's equal, a changed rules/ is compiled anew, and rules with a problem are
refused every time, never kept."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kit import buildcache
from kit.rules import compiled
from kit.rules.validate import RULES_DIR, RuleError, compile_rules

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def own_rules(tmp_path, monkeypatch):
    """A copy of rules/ and an empty cache of this test's own."""
    rules = tmp_path / "rules"
    shutil.copytree(RULES_DIR, rules)
    monkeypatch.setattr(compiled, "RULES_DIR", rules)
    monkeypatch.setattr(buildcache, "CACHE", tmp_path / "cache")
    monkeypatch.setenv("PAWLING_BUILD_CACHE", "1")
    return rules


def kept() -> list:
    return [p for p in buildcache.CACHE.glob("rules-*") if p.suffix != ".lock"]


def test_the_kept_rules_are_a_fresh_compile_s_equal(own_rules):
    fresh = compile_rules(own_rules)
    first = compiled.load_rules()  # compiled and kept
    assert len(kept()) == 1
    again = compiled.load_rules()  # from the cache
    assert first == fresh and again == fresh


def test_a_changed_rule_is_compiled_anew_and_a_bad_one_is_refused_every_time(own_rules):
    penalty = own_rules / "parameters" / "late-penalty-rate.yaml"
    described = compiled.load_rules()["parameters"]["late-penalty-rate"]["description"]
    penalty.write_text(penalty.read_text().replace(f"description: {described}", "description: A new description"))
    assert compiled.load_rules()["parameters"]["late-penalty-rate"]["description"] == "A new description"
    # (a new value with the old quote is refused: the value and the law's words change together)
    penalty.write_text(penalty.read_text().replace('value: "0.15"', 'value: "0.20"'))
    with pytest.raises(RuleError, match="but its quote says 15%"):
        compiled.load_rules()
    penalty.write_text(penalty.read_text().replace('value: "0.20"', 'value: "0.15"'))
    # a duplicate key (issue 35, item 10): refused, and refused again: nothing of it was kept
    penalty.write_text(penalty.read_text() + 'value: "0.50"\n')
    for _ in range(2):
        with pytest.raises(RuleError, match="late-penalty-rate.yaml"):
            compiled.load_rules()
    # a file added or removed is a change too
    before = len(kept())
    penalty.write_text(penalty.read_text().replace('value: "0.50"\n', ""))
    (own_rules / "notes.txt").write_text("a note")
    compiled.load_rules()
    assert len(kept()) == before + 1


def test_a_change_to_the_compiler_s_code_is_a_new_name():
    parts = compiled.inputs()
    names = parts[0::2]
    assert any(n.startswith("rules/parameters/") for n in names)
    assert "kit/rules/validate.py" in names and "calculator/core/rules.py" in names
    assert buildcache.key(parts) != buildcache.key([*parts[:-1], parts[-1] + b"\n"])


def test_the_command_line_reads_the_kept_rules_without_the_schema_checker():
    """The engine's provider in this checkout is the kept copy (pyproject.toml's entry point): a second
    run imports neither jsonschema nor PyYAML, and answers as a fresh compile would."""
    code = ("import sys, json; from calculator.core import rules; r = rules.load(); "
            "print(json.dumps({'slow': sorted(m for m in ('jsonschema', 'yaml') if m in sys.modules), "
            "'penalty': r['parameters']['late-penalty-rate']['value']}))")
    env = dict(os.environ, PAWLING_BUILD_CACHE="1")
    for _ in range(2):
        proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
    answer = json.loads(proc.stdout)
    assert answer == {"slow": [], "penalty": compile_rules(RULES_DIR)["parameters"]["late-penalty-rate"]["value"]}
