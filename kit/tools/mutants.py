"""Mutation testing of the engine: would the tests fail if the law were computed wrongly?

    python3 build.py mutants [--fresh] [--report]

mutmut 3.8.1 (the optional group `mutants` in pyproject.toml; its settings are [tool.mutmut]
there) makes mutants of the engine modules that compute the law (MODULES): each changes one
operator, number, comparison, condition, argument or string. They are made in mutants/ (not
committed). This command then:

1. sets aside the mutants that change only message text, the words of `_("…")` and `N_("…")`:
   they are marked skipped in mutmut's records, so mutmut never runs them;
2. runs mutmut on the rest against the fast tests ([tool.mutmut] pytest_add_cli_args_test_selection),
   with `nice -n 19` and one child process (the machine is shared), in PASSES: first with each
   mutated function's 25 fastest tests, then its survivors with the tests of 0.25 s or less, then
   what still survives with all of them (see "passes" below). A run picks up where the last one
   stopped: mutants already tried keep their result (`--fresh` starts over);
3. reports, per module, the code-changing mutants, those the tests kill, those recorded as
   equivalent in bench/mutants-equivalent.yaml (a change that cannot change any answer, each with
   its reason), and every other survivor as `module:line  original  ->  mutant`. The score is
   killed / (code-changing - equivalent), as issue 24 counts it. It writes bench/mutants.md.

`--module NAME` (repeatable) tries only those modules' mutants; `--survivors` tries the survivors
again (after adding tests); `--no-slow` leaves out the last pass (a survivor is then marked "not
yet run with all" in the report); `--report` only reports from the last run. It is not part of
`build.py test`: it takes too long.
"""
from __future__ import annotations

import ast
import difflib
import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WORK = ROOT / "mutants"
VERDICTS = ROOT / "bench" / "mutants-equivalent.yaml"
REPORT = ROOT / "bench" / "mutants.md"
MODULES = ("money", "penalty", "dates", "hearing", "adoption", "vc", "bill", "industry", "arrears")
# where each lives in calculator/ (its room: docs/decisions/020-rooms.md)
FILES = {"money": "core/money.py", "penalty": "bills/penalty.py", "dates": "core/dates.py",
         "hearing": "rates/hearing.py", "adoption": "rates/adoption.py", "vc": "rates/vc.py",
         "bill": "bills/bill.py", "industry": "industry.py", "arrears": "bills/arrears.py"}
MESSAGE_FUNCTIONS = {"_", "N_", "ngettext"}   # ngettext(singular, plural, n): main uses it in bill.py
# The arguments that are only words a person reads, by the called function's name and position:
# ex.add(text, cite, **figures); InputError(message, field); parse_amount(value, what, example, field, unit);
# parse_date(value, what).
# parse_amount's `what` and `example` go nowhere but into its refusal sentences (their .format()), the same
# as a value written into a message's placeholder here, which is message text: a mutant that changes them
# changes what a refusal says, never a figure, a date, an outcome or the field the page marks (`field` and
# `unit`, which decides whether decimals are refused, stay code). parse_date's `what` likewise names the
# date in its refusal and nothing else. The examples a refusal gives are checked
# by tests of the words (tests/test_cases.py's errors cases, tests/test_words.py), not by this score.
TEXT_ARGUMENTS = {"add": (0,), "InputError": (0,), "parse_amount": (1, 2), "parse_date": (1,)}
# Functions that build only words: every mutant in them changes words, not what the answer decides.
_FOR_SENTENCES = "formats a value for a sentence; every caller puts the result into a message or a document's text"
WORDS_ONLY = {
    ("bill", "_explain"): "builds the bill's explanation: its sentences and the figures they repeat; the bill's "
                          "figures are decided in _bill and quarter_context",
    # main split _explain into these two (the quarter's steps, worked out once per quarter context, and each
    # bill's own): the same code, counted as _explain always was
    ("bill", "_head_steps"): "the first steps of the bill's explanation (_explain), those the quarter alone decides",
    ("bill", "_explain_rest"): "the rest of the bill's explanation (_explain), the steps each bill's usage decides",
    ("arrears", "words"): "one earlier bill in sentences (its text and period's name); its figures are decided in "
                          "arrears.owed",
    ("money", "dollars"): _FOR_SENTENCES, ("money", "percent"): _FOR_SENTENCES, ("money", "gallons"): _FOR_SENTENCES,
    ("dates", "quarter_words"): _FOR_SENTENCES, ("dates", "month_name"): _FOR_SENTENCES,
    ("dates", "month_days"): _FOR_SENTENCES, ("dates", "series"): _FOR_SENTENCES, ("dates", "long"): _FOR_SENTENCES,
}
SKIPPED = 34            # mutmut's exit code for "skipped"
CAUGHT = {1, 3, 24, -24, 36, 152, 255, -9, -11}   # killed, pytest error, timeout, segfault
SURVIVED = {0, 5, 33}   # the tests passed, or no test runs this code


@dataclass
class Mutant:
    key: str             # mutmut's name: calculator.bills.penalty.x_periods__mutmut_12
    module: str
    function: str
    line: int            # in calculator/<module>.py
    before: str
    after: str
    message_only: bool
    exit_code: int | None = None
    why_equivalent: str | None = None

    @property
    def where(self) -> str:
        return f"{self.module}:{self.line}"

    @property
    def mutation(self) -> str:
        return f"{self.before}  ->  {self.after}"


@dataclass
class ModuleScore:
    module: str
    mutants: int = 0
    message: int = 0
    killed: int = 0
    equivalent: int = 0
    survived: list = field(default_factory=list)
    not_checked: int = 0

    @property
    def code(self) -> int:
        return self.mutants - self.message

    @property
    def score(self) -> float | None:
        judged = self.killed + len(self.survived)
        return None if judged == 0 else self.killed / judged


# ---- telling a message-text mutant from one that changes the code ----

def _is_words(node: ast.AST) -> bool:
    """A message: a call of _() or N_(), a masked one, or a choice between messages."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in MESSAGE_FUNCTIONS:
        return True
    if isinstance(node, ast.Constant) and node.value == "…":
        return True
    if isinstance(node, ast.IfExp):
        return _is_words(node.body) and _is_words(node.orelse)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        return _is_words(node.func.value)
    return False


class _MaskMessages(ast.NodeTransformer):
    """Every text a person reads made the same: a message (_() or N_()), the values put into its
    placeholders (its .format()), the text given to an explanation step (ex.add) or to an
    InputError, and the name and example given to parse_amount or parse_date for their refusals
    (TEXT_ARGUMENTS).
    What the answer decides (figures, dates, outcomes, cites, field names) stays."""

    def visit_Call(self, node: ast.Call):
        self.generic_visit(node)
        if _is_words(node):
            return ast.Constant("…")
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
        for i in TEXT_ARGUMENTS.get(name, ()):
            if i < len(node.args):
                node.args[i] = ast.Constant("…")
        return node


def _shape(source: str) -> str:
    tree = ast.parse(source)
    tree.body[0].name = "f"
    return ast.dump(_MaskMessages().visit(tree))


def is_message_only(original: str, mutant: str) -> bool:
    """Whether a mutant changes nothing but the words of a message."""
    return _shape(original) == _shape(mutant)


def changed_lines(original: str, mutant: str) -> tuple[int, str, str]:
    """The first changed line's index in the function, and the lines before and after the change."""
    a, b = original.splitlines(), mutant.splitlines()
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if tag != "equal":
            return i1, " ".join(x.strip() for x in a[i1:i2]), " ".join(x.strip() for x in b[j1:j2])
    return 0, "", ""


def read_mutants(module: str) -> list[Mutant]:
    """The mutants of a module (calculator/<room>/<module>.py, FILES), from mutmut's copy in mutants/, with their results."""
    mutated = WORK / "calculator" / FILES[module]
    meta = json.loads(mutated.with_name(f"{mutated.name}.meta").read_text(encoding="utf-8"))["exit_code_by_key"]
    source = mutated.read_text(encoding="utf-8")
    lines = source.splitlines()
    variants = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef) and "__mutmut_" in node.name:
            variants[node.name] = "\n".join(lines[node.lineno - 1:node.end_lineno])
    original_defs = {node.name: node.lineno for node in ast.parse(
        (ROOT / "calculator" / FILES[module]).read_text(encoding="utf-8")).body if isinstance(node, ast.FunctionDef)}
    out = []
    for key, exit_code in meta.items():
        name = key.rpartition(".")[2]
        function = name.removeprefix("x_").rpartition("__mutmut_")[0]
        original = variants[f"x_{function}__mutmut_orig"]
        mutant = variants[name].replace(name, f"x_{function}__mutmut_orig", 1)
        offset, before, after = (x.replace(f"x_{function}__mutmut_orig", function) if isinstance(x, str) else x
                                 for x in changed_lines(original, mutant))
        words = (module, function) in WORDS_ONLY or is_message_only(original, mutant)
        out.append(Mutant(key, module, function, original_defs[function] + offset, before, after, words, exit_code))
    return out


# ---- the verdicts: equivalent mutants, each with its reason ----

def load_verdicts(path: Path = VERDICTS) -> list[dict]:
    """bench/mutants-equivalent.yaml: a list of {module, function, before, after, why}. A verdict
    names the change, not mutmut's number for it, so it survives renumbering."""
    import yaml
    if not path.exists():
        return []
    entries = yaml.safe_load(path.read_text(encoding="utf-8")) or []
    for e in entries:
        missing = {"module", "function", "before", "after", "why"} - set(e)
        if missing:
            raise SystemExit(f"{path.relative_to(ROOT)}: a verdict lacks {', '.join(sorted(missing))}: {e}")
    return entries


def apply_verdicts(mutants: list[Mutant], verdicts: list[dict]) -> list[dict]:
    """Mark the equivalent mutants; return the verdicts that match no mutant (stale ones)."""
    by_change = {(v["module"], v["function"], v["before"].strip(), v["after"].strip()): v for v in verdicts}
    used = set()
    for m in mutants:
        v = by_change.get((m.module, m.function, m.before, m.after))
        if v is not None:
            m.why_equivalent = v["why"]
            used.add(id(v))
    return [v for v in verdicts if id(v) not in used]


def scores(mutants: list[Mutant]) -> dict[str, ModuleScore]:
    out = {m: ModuleScore(m) for m in MODULES}
    for m in mutants:
        s = out[m.module]
        s.mutants += 1
        if m.message_only:
            s.message += 1
        elif m.exit_code in CAUGHT:
            s.killed += 1
        elif m.exit_code is None or m.exit_code == SKIPPED:
            s.not_checked += 1
        elif m.why_equivalent:
            s.equivalent += 1
        else:
            s.survived.append(m)
    return out


def report(mutants: list[Mutant], stale: list[dict], seconds: float | None = None) -> str:
    table = scores(mutants)
    total = ModuleScore("all")
    lines = ["# Mutation testing of the engine", "",
             "Made by `python3 build.py mutants` (kit/tools/mutants.py): mutmut 3.8.1 on calculator/"
             f"{{{','.join(MODULES)}}}.py against the fast tests. Message-text mutants are set aside. "
             "Score = killed / (code-changing - equivalent); the equivalent mutants and why are in "
             "bench/mutants-equivalent.yaml.", ""]
    if seconds is not None:
        lines += [f"Run time of the last run: {seconds / 60:.1f} minutes (nice 19, one child process).", ""]
    lines += ["| module | mutants | message text | code-changing | killed | equivalent | survived | not checked | score |",
              "|---|---|---|---|---|---|---|---|---|"]
    for s in [*table.values(), total]:
        if s is total:
            for t in table.values():
                total.mutants += t.mutants
                total.message += t.message
                total.killed += t.killed
                total.equivalent += t.equivalent
                total.survived += t.survived
                total.not_checked += t.not_checked
        score = "-" if s.score is None else f"{100 * s.score:.1f}%"
        lines.append(f"| {s.module} | {s.mutants} | {s.message} | {s.code} | {s.killed} | {s.equivalent} | "
                     f"{len(s.survived)} | {s.not_checked} | {score} |")
    lines += ["", "## Survivors not explained", ""]
    survivors = sorted(total.survived, key=lambda m: (m.module, m.line))
    passed = json.loads(PASSED.read_text(encoding="utf-8")) if PASSED.exists() else {}

    def mark(m: Mutant) -> str:
        number = passed.get(m.key, len(PASSES))
        return "" if number >= len(PASSES) else f" (survived {PASSES[number - 1][0]}; not yet run with all)"
    lines += [f"- `{m.where}` ({m.function}, {m.key.rpartition('.')[2]}): `{m.mutation}`{mark(m)}"
              for m in survivors] or ["None."]
    if stale:
        lines += ["", "## Verdicts that match no mutant (the code changed: look at them again)", ""]
        lines += [f"- {v['module']}.{v['function']}: `{v['before']}  ->  {v['after']}`" for v in stale]
    return "\n".join(lines) + "\n"


# ---- running mutmut ----

def _mutmut(*args: str) -> list[str]:
    exe = Path(sys.executable).with_name("mutmut")
    return ["nice", "-n", "19", str(exe), *args] if shutil.which("nice") else [str(exe), *args]


def generate() -> None:
    """Make (or bring up to date) the mutants in mutants/, without testing any."""
    code = ("from mutmut.__main__ import copy_src_dir, copy_also_copy_files, setup_source_paths, "
            "store_lines_covered_by_tests, create_mutants, set_mutant_under_test\n"
            "import os\nset_mutant_under_test('mutant_generation')\nos.makedirs('mutants', exist_ok=True)\n"
            "copy_src_dir(); copy_also_copy_files(); setup_source_paths(); store_lines_covered_by_tests(); "
            "create_mutants(1)\n")
    subprocess.run(["nice", "-n", "19", sys.executable, "-c", code], cwd=ROOT, check=True)


def skip_message_mutants() -> int:
    """Mark message-text mutants skipped in mutmut's records, so `mutmut run` leaves them."""
    count = 0
    for module in MODULES:
        meta_path = WORK / "calculator" / f"{FILES[module]}.meta"
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        for m in read_mutants(module):
            if m.message_only and meta["exit_code_by_key"].get(m.key) is None:
                meta["exit_code_by_key"][m.key] = SKIPPED
                count += 1
        tmp = meta_path.with_suffix(".meta.tmp")
        tmp.write_text(json.dumps(meta, indent=4), encoding="utf-8")
        os.replace(tmp, meta_path)
    return count


# ---- passes: the fastest tests first, every test only for the survivors ----
# mutmut runs, for each mutant, every test that ran the mutated function (its stats, made once
# in mutants/mutmut-stats.json). For the functions that every bill runs through (bill._bill,
# penalty.last_day_to_pay, dates.due_date...) that is 300-430 tests, 18 s of test time on an idle
# core, most of it in tests/test_rules_validation.py and test_dated_parameters.py, which check the
# kit's validation and reach the engine only on the way. A mutant the tests kill fails its first
# wrong test (pytest -x), but a survivor, and a killed mutant whose killing test comes late, runs
# them all. So each mutant is tried in PASSES, each with more of its function's tests, and only
# the survivors of one go on to the next. A mutant counts as surviving only after the last pass
# (all of its tests): the score is the same as with one pass, only sooner. The pass each survivor
# has come through is kept in PASSED; the report marks a survivor not yet run with all its tests.
STATS = WORK / "mutmut-stats.json"
NARROWED = WORK / "narrowed-tests.json"   # the tests a pass set aside, until they are put back
PASSED = WORK / "passes.json"             # a survivor's mutmut name -> the number of passes it survived
PASSES = (("the 25 fastest tests of its function", dict(keep=25)),
          ("its function's tests of 0.25 s or less", dict(under=0.25)),
          ("all of its function's tests", None))


def _write_json(path: Path, data) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data), encoding="utf-8")
    os.replace(tmp, path)


def ensure_stats() -> None:
    """mutmut's record of which tests run which function and how long each takes, made afresh
    by running every fast test once. (mutmut 3.8.1 can add the tests that are new since its last
    record, but that left here only the new tests' functions in the record, and every mutant then
    ran only them: so the whole record is made again, a minute or two, once a run.)"""
    for path in (STATS, NARROWED):
        path.unlink(missing_ok=True)
    code = ("from mutmut.__main__ import collect_or_load_stats\n"
            "from mutmut.workers.isolation import get_mutant_runner\n"
            "collect_or_load_stats(get_mutant_runner(1))\n")
    subprocess.run(["nice", "-n", "19", sys.executable, "-c", code], cwd=ROOT, check=True)


def narrow_tests(keep: int | None = None, under: float | None = None) -> None:
    """Cut each function's tests to its `keep` fastest, or to those of `under` seconds or less
    (at least its fastest one), keeping the rest aside in NARROWED."""
    widen_tests()
    stats = json.loads(STATS.read_text(encoding="utf-8"))
    duration = stats["duration_by_test"]
    aside = {}
    for function, tests in stats["tests_by_mangled_function_name"].items():
        ordered = sorted(tests, key=lambda t: (duration.get(t, 0.0), t))
        cut = keep if keep is not None else max(1, sum(duration.get(t, 0.0) <= under for t in ordered))
        stats["tests_by_mangled_function_name"][function] = ordered[:cut]
        if ordered[cut:]:
            aside[function] = ordered[cut:]
    _write_json(NARROWED, aside)
    _write_json(STATS, stats)


def widen_tests() -> None:
    """Put back the tests narrow_tests set aside (also after an interrupted run)."""
    if not NARROWED.exists():
        return
    aside = json.loads(NARROWED.read_text(encoding="utf-8"))
    stats = json.loads(STATS.read_text(encoding="utf-8"))
    tests = stats["tests_by_mangled_function_name"]
    for function, more in aside.items():
        tests[function] = sorted(set(tests.get(function, [])) | set(more))
    _write_json(STATS, stats)
    NARROWED.unlink()


def ensure_mutmut() -> None:
    from importlib.util import find_spec
    if find_spec("mutmut") is None:
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                        "-e", ".[mutants]"], cwd=ROOT, check=True)


def main(argv: list[str]) -> int:
    modules, flags, i = [], set(), 0
    while i < len(argv):
        if argv[i] == "--module" and i + 1 < len(argv) and argv[i + 1] in MODULES:
            modules.append(argv[i + 1])
            i += 2
        elif argv[i] in ("--fresh", "--report", "--survivors", "--no-slow"):
            flags.add(argv[i])
            i += 1
        else:
            print(f"Unknown option {argv[i]!r}. Use: python3 build.py mutants [--module {'|'.join(MODULES)}]… "
                  "[--survivors] [--no-slow] [--fresh] [--report]", file=sys.stderr)
            return 2
    seconds = None
    if "--report" not in flags:
        ensure_mutmut()
        if "--fresh" in flags and WORK.exists():
            shutil.rmtree(WORK)
        start = time.monotonic()
        generate()
        print(f"{skip_message_mutants()} message-text mutants set aside", flush=True)
        # the code-changing mutants not tried yet, of the modules asked for (all by default);
        # those already tried keep their result, so an interrupted run goes on where it stopped
        # (--survivors: and the survivors again, after tests were added)
        verdicts = load_verdicts()
        todo = []
        for module in modules or MODULES:
            found = read_mutants(module)
            apply_verdicts(found, verdicts)
            todo += [m.key for m in found if not m.message_only and (
                m.exit_code is None or ("--survivors" in flags and m.exit_code in SURVIVED and not m.why_equivalent))]
        print(f"{len(todo)} mutants to try", flush=True)
        if todo:
            ensure_stats()
            passed = json.loads(PASSED.read_text(encoding="utf-8")) if PASSED.exists() else {}
            for number, (tests, narrowing) in enumerate(PASSES, 1):
                if number == len(PASSES) and "--no-slow" in flags:
                    break
                print(f"pass {number} of {len(PASSES)}: {len(todo)} mutants, each with {tests}", flush=True)
                if narrowing is not None:
                    narrow_tests(**narrowing)
                try:
                    subprocess.run(_mutmut("run", "--max-children", "1", *todo), cwd=ROOT)
                finally:
                    widen_tests()
                tried = set(todo)
                found = [m for module in modules or MODULES for m in read_mutants(module) if m.key in tried]
                for m in found:
                    passed.pop(m.key, None)
                todo = [m.key for m in found if m.exit_code in SURVIVED]
                passed.update({key: number for key in todo})
                _write_json(PASSED, passed)
                if not todo:
                    break
        seconds = time.monotonic() - start
    if not WORK.exists():
        print("No mutants yet: run `python3 build.py mutants` first.", file=sys.stderr)
        return 1
    mutants = [m for module in MODULES for m in read_mutants(module)]
    stale = apply_verdicts(mutants, load_verdicts())
    text = report(mutants, stale, seconds)
    REPORT.write_text(text, encoding="utf-8")
    print(text)
    return 0
