"""The command line as a shell uses it: a reader that goes away, and the repository's ignores."""
import re
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from calculator.cli import READER_GONE

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("argv", [
    ["bill", "--quarter", "2027-Q1", "--water-gallons", "12000", "--json"],
    ["provisions", "--lang", "es"],
])
def test_a_reader_that_goes_away_ends_the_command_quietly(argv):
    """`python -m calculator … --json | head`: the reader closes its end before the answer is
    written; the command ends with the shell's SIGPIPE status and no traceback."""
    proc = subprocess.Popen([sys.executable, "-m", "calculator", *argv], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # the reader is gone before the engine has its answer
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(timeout=60) == READER_GONE, err
    assert err == ""


def test_a_reader_that_reads_the_first_lines_then_goes_away():
    """The shell's own `| head -n 2`, when head is there."""
    if not shutil.which("head"):
        pytest.fail("`head` is missing: the test reads the first lines with it")
    cmd = f"'{sys.executable}' -m calculator provisions --json | head -n 2; echo \"status ${{PIPESTATUS[0]}}\""
    proc = subprocess.run(["bash", "-c", cmd], cwd=ROOT, capture_output=True, text=True, timeout=60)
    lines = proc.stdout.splitlines()
    assert lines[:2] == ["{", '  "command": "provisions",'] and proc.stderr == ""
    assert lines[2] in ("status 0", f"status {READER_GONE}")  # 0 when all of it fitted in the pipe first


def test_the_environment_and_node_modules_are_ignored_as_folders_and_as_symlinks(tmp_path):
    """A worktree may link `.venv` or `node_modules` to another checkout's: git must not offer to commit
    the link any more than the folder."""
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    shutil.copy(ROOT / ".gitignore", repo / ".gitignore")
    (tmp_path / "elsewhere").mkdir()
    (repo / "tests").mkdir()
    for name in (".venv", "node_modules"):
        os.symlink(tmp_path / "elsewhere", repo / name)
        (repo / "tests" / name).mkdir()  # the same name deeper down is someone's own folder
    ignored = subprocess.run(["git", "check-ignore", ".venv", "node_modules", "tests/.venv", "tests/node_modules"],
                             cwd=repo, capture_output=True, text=True)
    assert ignored.stdout.split() == [".venv", "node_modules"]
    for name in (".venv", "node_modules"):
        os.unlink(repo / name)
        (repo / name).mkdir()
        (repo / name / "x").write_text("x")
    folders = subprocess.run(["git", "check-ignore", ".venv/x", "node_modules/x"], cwd=repo,
                             capture_output=True, text=True)
    assert folders.stdout.split() == [".venv/x", "node_modules/x"]


@pytest.mark.parametrize("argv, words", [
    (["--site-url", "pawling.github.io/pawling-sewer"], "'pawling.github.io/pawling-sewer' is not a web address"),
    (["--site-url=https://"], "'https://' is not a web address"),
    (["--site-url"], "'' is not a web address"),
    # the fifth hostile tester: a script in the address went into every page, and the policy allowed it
    (["--site-url", 'http://evil.example/"><script>alert(1)</script>'],
     "'http://evil.example/\"><script>alert(1)</script>' is not a web address"),
    (["--site-url", "https://x.example/a b"], "'https://x.example/a b' is not a web address"),
    (["--site-url", "https://x.example/?q=<b>"], "'https://x.example/?q=<b>' is not a web address"),
])
def test_build_refuses_a_site_url_that_is_not_a_web_address(argv, words):
    """`build.py build --site-url` (the publish workflow's) says what to give, and builds nothing."""
    proc = subprocess.run([sys.executable, "build.py", "build", *argv], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == (f"--site-url {words}. Give the address the site is published at, "
                           "like https://OWNER.github.io/REPO/.\n")


def test_build_py_validate_refuses_an_unknown_option():
    """The hostile tester: `build.py validate --bogus` ran as if it were not there."""
    proc = subprocess.run([sys.executable, "build.py", "validate", "--bogus"], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == "Unrecognized arguments: --bogus. `build.py validate` takes no options.\n"


@pytest.mark.parametrize("argv, says", [
    (["build", "--bogus"], "Unrecognized arguments: --bogus. `build.py build` takes --site-url URL, --install: "
                           "run `python3 build.py build --help` for what they do."),
    (["serve", "--bogus", "80"], "Unrecognized arguments: --bogus 80. `build.py serve` takes --site-url URL, --install, "
                                 "--port N"),
    (["build", "--port", "8001"], "Unrecognized arguments: --port 8001. `build.py build` takes --site-url URL, --install"),
    (["build", "--site"], "Unrecognized arguments: --site. "),  # not a shortened --site-url
    (["install", "--with-test"], "Unrecognized arguments: --with-test. `build.py install` takes --with-tests: "),
    (["messages", "--dry-run"], "Unrecognized arguments: --dry-run. `build.py messages` takes no options."),
    (["readability", "site", "--bogus"], "Unrecognized arguments: --bogus. `build.py readability` takes [SITE]: "),
    # the eighth hostile tester, F6: the second address was dropped without a word, as no other step does
    (["build", "--site-url", "https://x.example/", "--site-url", "https://y.example/"],
     "`--site-url` is given 2 times, so which one is meant is not clear. Give it once."),
    (["serve", "--site-url=https://x.example/", "--site-url", "https://y.example/"], "`--site-url` is given 2 times"),
    (["build", "--install", "--install"], "`--install` is given 2 times"),
])
def test_build_py_refuses_what_its_commands_would_leave_unused(argv, says, monkeypatch, capsys):
    """Every build.py command refuses an option it does not take (rates, bills and mutants parse their
    own; test's go to pytest), naming those it takes, before it does anything (nothing is built or installed)."""
    import build
    monkeypatch.setattr(build.machine, "ensure_venv", lambda: pytest.fail("went on"))
    assert build.main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(says) and len(err.splitlines()) == 1, err


@pytest.mark.parametrize("argv, says", [(["test", "--help"], "usage: python3 build.py test [PYTEST OPTIONS…]"),
                                        (["mutants", "-h"], "usage: python3 build.py mutants [--module NAME]…")])
def test_test_and_mutants_say_their_help_before_doing_anything(argv, says, monkeypatch, capsys):
    """The twelfth hostile tester: `build.py test --help` ran npm ci, installed packages and built the site before
    printing pytest's help; `build.py mutants --help` ended 2, "Unknown option". Each says its own help, exit 0,
    before anything is installed."""
    import build
    monkeypatch.setattr(build.machine, "ensure_venv", lambda: pytest.fail("went on"))
    assert build.main(argv) == 0
    out, err = capsys.readouterr()
    assert out.startswith(says) and err == ""


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs Linux's /dev/full")
@pytest.mark.parametrize("argv", [["--help"], ["bills", "--help"], ["rates", "--help"], ["rates", "propose", "--help"],
                                  ["validate", "--help"], ["readability", "-h"]])
def test_build_py_help_that_cannot_be_written_says_so(argv):
    """The hostile tester: `build.py bills --help > /dev/full` and `build.py rates --help > /dev/full` exited 0,
    the help lost; `build.py --help` was an unknown command. The help is written, or one line and 74."""
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "build.py", *argv], cwd=ROOT, stdout=full, stderr=subprocess.PIPE,
                              text=True, timeout=120)
    assert done.returncode == 74, done.stderr
    assert done.stderr == "error: the output could not be written (No space left on device).\n"
    done = subprocess.run([sys.executable, "build.py", *argv], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert done.stdout.startswith("usage: " if argv != ["--help"] else "The Pawling sewer kit's command line.")


def test_a_rates_step_whose_report_cannot_be_printed_says_its_files_are_written(tmp_path):
    """The fifteenth hostile tester, U3: `rates propose > /dev/full` said only "the output could not be written"
    (exit 74), and its proposal was written."""
    import shutil
    shutil.copytree(ROOT / "rules", tmp_path / "rules")
    argv = ["rates", "propose", "--rules-dir", str(tmp_path / "rules"), "--retroactive", "--fiscal-year", "2026",
            "--effective", "2026-01-01", "--om-cost", "856791", "--sewage-fraction", "0.80",
            "--user-volume-gallons", "85,000,000", "--proposed-on", "2025-10-01"]
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "build.py", *argv], cwd=ROOT, stdout=full, stderr=subprocess.PIPE,
                              text=True, timeout=120)
    assert done.returncode == 74, done.stderr
    assert "The step's files were written whole before its report" in done.stderr
    assert (tmp_path / "rules" / "rate-schedules" / "2026" / "proposal.yaml").is_file()


@pytest.mark.parametrize("argv, says", [
    (["bill", "--quarter", "2027-Q1", "--water-gallons", "12000", "--water-gallons", "5000"],
     "`--water-gallons` is given 2 times"),
    (["bill", "--quarter", "2027-Q1", "--quarter", "2027-Q2", "--water-gallons", "12000"], "`--quarter` is given 2 times"),
    (["bill", "--quarter", "2027-Q1", "--water-gallons", "12000", "--paid-on", "2027-03-01", "--paid-on=2027-02-01"],
     "`--paid-on` is given 2 times"),
    (["industry", "--average-workday-gallons", "52000", "--toxic-pollutant", "--no-toxic-pollutant"],
     "`--toxic-pollutant` and `--no-toxic-pollutant` are both given"),
    (["bill", "--quarter", "2027-Q1", "--water-gallons", "12000", "--lang", "es", "--lang", "en"],
     "--lang is given twice"),
    (["bill", "--quarter", "2027-Q1", "--water-gallons", "1\u0662000"], "mixes digits of different kinds"),
])
def test_a_repeated_or_conflicting_option_or_mixed_digits_are_refused(argv, says):
    """Issue 35, item 11: the last of two values never wins silently."""
    from calculator.cli import run
    from calculator.core.errors import InputError
    with pytest.raises(InputError) as refused:
        run(argv)
    assert says in str(refused.value)


@pytest.mark.parametrize("argv, says", [
    (["bill", "--quarter", "0000-Q1", "--water-gallons", "1"], "Quarter “0000-Q1” is too far from today"),
    (["bill", "--quarter", "2027-Q1", "--water-gallons", "1", "--paid-on", "9999-12-31"],
     "“9999-12-31”, is too far from today"),
    (["industry", "--average-workday-gallons", "1000", "--year", "0"], "The year 0 is out of range"),
    (["hearing", "--published", "9999-12-31"], "“9999-12-31”, is too far from today"),
    (["quarters", "--today", "0001-01-01"], "“0001-01-01”, is too far from today"),
    (["rates", "status", "--today", "9999-12-31"], "“9999-12-31” is too far from today"),
])
def test_a_date_or_year_far_out_of_range_gets_a_message_not_could_not_answer(argv, says):
    """Issue 35, items 13 and 14: no ValueError or OverflowError behind "could not answer"."""
    from calculator.cli import run
    from calculator.core.errors import InputError
    with pytest.raises(InputError) as refused:
        run(argv)
    assert says in str(refused.value)


def test_the_clerk_s_step_messages_name_the_option_on_the_command_line(capsys):
    from calculator.cli import main
    assert main(["rates", "status", "--today", "9999-12-31"]) == 2
    err = capsys.readouterr().err
    assert "--today “9999-12-31”" in err and "⟦" not in err


def test_an_answer_that_cannot_be_written_says_so_and_never_prints_half_a_json():
    """Issue 35, item 13: stdout on /dev/full or closed: a one-line message and exit 74; an ASCII or
    Latin-1 terminal: the whole answer as JSON, with \\u escapes, that reads back to the same figures."""
    import json
    import os
    argv = [sys.executable, "-m", "calculator", "bill", "--quarter", "2027-Q1", "--water-gallons", "12000"]
    root = Path(__file__).resolve().parent.parent
    with open("/dev/full", "w") as full:
        done = subprocess.run(argv, cwd=root, stdout=full, stderr=subprocess.PIPE, text=True)
    assert done.returncode == 74 and "could not be written (No space left on device)" in done.stderr
    assert "Traceback" not in done.stderr
    done = subprocess.run(argv, cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          pass_fds=(), preexec_fn=lambda: os.close(1))
    assert done.returncode == 74 and "standard output is closed" in done.stderr and "Traceback" not in done.stderr
    for encoding in ("ascii", "latin-1"):
        done = subprocess.run([*argv, "--lang", "es"], cwd=root, capture_output=True,
                              env=dict(os.environ, PYTHONIOENCODING=encoding))
        assert done.returncode == 0, done.stderr
        answer = json.loads(done.stdout.decode(encoding))
        assert (answer["total"], answer["quarter_words"]) == ("96.00", "enero–marzo de 2027")
        # the Spanish help too, with escapes for the letters the terminal has not (hostile12, F20: an error instead)
        helped = subprocess.run([sys.executable, "-m", "calculator", "bill", "--help", "--lang", "es"], cwd=root,
                                capture_output=True, env=dict(os.environ, PYTHONIOENCODING=encoding))
        assert helped.returncode == 0 and helped.stderr == b"", helped.stderr
        text = helped.stdout.decode(encoding)
        assert text.startswith("uso: calculator bill") and "opciones:" in text and "Error" not in text


def test_a_missing_reading_and_a_blank_that_is_not_a_pdf_get_plain_messages(tmp_path):
    """Issue 35, item 14: not "You entered None.", not "could not answer (PdfStreamError …)"."""
    from calculator.cli import run
    from calculator.core.errors import InputError
    with pytest.raises(InputError) as refused:
        run(["bill", "--quarter", "2027-Q1", "--meter", "water-gallons", "--current-reading", "100"])
    assert "The previous meter reading (in gallons) is missing" in str(refused.value)
    assert "None" not in str(refused.value) and refused.value.field == "previous-reading"
    (tmp_path / "blank.pdf").write_text("not a pdf\n")
    with pytest.raises(InputError) as refused:
        run(["application", "--answer", "work=repair", "--blank", str(tmp_path / "blank.pdf"),
             "--output", str(tmp_path / "out.pdf")])
    assert "is not a PDF" in str(refused.value) and not (tmp_path / "out.pdf").exists()
    # a device or a folder is said to be one, not to be missing (the thirtieth hostile tester, F5: /dev/zero)
    for blank, kind in [("/dev/zero", "is a device, not a file."), (str(tmp_path), "is a folder.")]:
        with pytest.raises(InputError) as refused:
            run(["application", "--answer", "work=repair", "--blank", blank, "--output", str(tmp_path / "out.pdf")])
        assert kind in str(refused.value) and "does not exist" not in str(refused.value), refused.value
        assert refused.value.field == "blank" and not (tmp_path / "out.pdf").exists()


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs Linux's /dev/full")
@pytest.mark.parametrize("argv", [["validate"], ["bills", "--sample", "SAMPLE", "--count", "10"]])
def test_build_py_to_a_full_disk_says_so_without_a_traceback(argv, tmp_path):
    """The second hostile tester: `build.py validate > /dev/full` and `build.py bills --sample D > /dev/full`
    ended in a traceback. They end with one line on stderr and exit 74 (EX_IOERR); the sample, whose
    files are whole by then, says so and where, and exits 3 (the hostile tester: 74 read as a failure)."""
    import subprocess
    import sys as _sys
    argv = [str(tmp_path / "s") if a == "SAMPLE" else a for a in argv]
    with open("/dev/full", "w") as full:
        done = subprocess.run([_sys.executable, str(ROOT / "build.py"), *argv], cwd=ROOT, stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=300)
    assert "Traceback" not in done.stderr
    if argv[0] == "validate":
        assert done.returncode == 74, done.stderr
        assert "the output could not be written (No space left on device)" in done.stderr
    else:
        assert done.returncode == 3, done.stderr
        assert done.stderr == (f"error: the sample is complete: its files are written whole in {tmp_path / 's'} "
                               "(accounts.csv, reads-2025-Q3.csv, reads-2025-Q4.csv, payments.csv, register-2025-Q3.csv). "
                               "Only its report could not be printed (No space left on device).\n")
        assert len(list((tmp_path / "s").iterdir())) == 6  # and written.sha256, the list of what it wrote


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs Linux's /dev/full")
@pytest.mark.parametrize("argv", [["--help"], [], ["bill", "--help"], ["rates", "propose", "--help"],
                                  ["bill", "-h", "--lang", "es"]])
def test_help_that_cannot_be_written_says_so(argv):
    """The hostile tester: `python -m calculator --help > /dev/full` exited 0, the help lost (argparse drops a
    failed write). It ends as an answer that cannot be written does: one line on stderr, exit 74."""
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "calculator", *argv], cwd=ROOT, stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == 74, done.stderr
    assert done.stderr == "error: the help could not be written (No space left on device).\n"
    done = subprocess.run([sys.executable, "-m", "calculator", *argv], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    # (in Spanish with --lang es: issue 33)
    usage = "uso: calculator" if "es" in argv else "usage: calculator"
    assert done.returncode == 0 and done.stdout.startswith(usage) and done.stderr == ""


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs Linux's /dev/full")
def test_a_written_application_whose_answer_cannot_be_printed_says_it_is_complete(tmp_path):
    """The answer of a command that wrote a file (application --output) lost to a full disk: the file is
    whole, so it says where and exits 3, in the language asked for, not 74 "Nothing else was changed"."""
    out = tmp_path / "a.pdf"
    for lang, says in (("en", "The files are written and complete: "), ("es", "Los archivos están escritos")):
        with open("/dev/full", "w") as full:
            done = subprocess.run([sys.executable, "-m", "calculator", "application", "--answer", "work=repair",
                                   "--output", str(out), "--force", "--lang", lang], cwd=ROOT, stdout=full,
                                  stderr=subprocess.PIPE, text=True, timeout=120)
        assert done.returncode == 3 and says in done.stderr and str(out) in done.stderr, done.stderr
        assert len(done.stderr.splitlines()) == 1 and out.read_bytes().startswith(b"%PDF-")


@pytest.mark.parametrize("argv, says", [
    # the third hostile tester: a shortened option slipped past "given twice", and the last one won
    (["bill", "--quarter", "2025-Q1", "--water-gal", "12000", "--water-gallons", "5000"], "Unrecognized arguments: --water-gal"),
    (["bill", "--quarter", "2025-Q1", "--quar", "2025-Q2", "--water-gallons", "5000"], "Unrecognized arguments: --quar"),
    # a field given twice kept the last without a word
    (["application", "--answer", "work=new-connection", "--field", "owner-name=Jane", "--field", "owner-name=Bob"],
     "Field owner-name is given twice"),
    # Python reads an ISO week and a date without dashes as dates too; the message asks for year-month-day
    (["bill", "--quarter", "2025-Q1", "--water-gallons", "12000", "--paid-on", "2025-W05-1"], "“2025-W05-1”, is not a date"),
    (["bill", "--quarter", "2025-Q1", "--water-gallons", "12000", "--paid-on", "20250201"], "“20250201”, is not a date"),
])
def test_what_the_third_hostile_tester_slipped_through_is_refused(tmp_path, argv, says):
    proc = subprocess.run([sys.executable, "-m", "calculator", *argv, *(["--output", str(tmp_path / "a.pdf")]
                           if argv[0] == "application" else [])], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and says in proc.stderr, proc.stderr
    assert not (tmp_path / "a.pdf").exists()


def test_the_clerks_command_names_a_step_by_its_command_not_a_placeholder():
    proc = subprocess.run([sys.executable, "build.py", "rates", "user-notice", "1999"], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 2 and "the `propose` step" in proc.stderr and "⟦" not in proc.stderr, proc.stderr


def test_the_bill_run_takes_no_shortened_option(tmp_path):
    proc = subprocess.run([sys.executable, "build.py", "bills", "--quarter", "2025-Q4", "--as-o", "2025-12-01"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "--as-o" in proc.stderr, proc.stderr


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_page_is_not_told_an_option_name_and_the_command_line_is(lang):
    """Issues 33 and 35: "The payment date (paid-on) …" on the estimate page named a command-line option
    a resident never sees. The page's answer names none; the command line says --paid-on."""
    import json as _json
    from calculator.cli import main, run_json
    cases = [["bill", "--quarter", "2027-Q1", "--water-gallons", "12000", "--paid-on", "2027-13-01"],
             ["bill", "--quarter", "2027-Q1", "--water-gallons", "12000", "--check", "abc"],
             ["bill", "--quarter", "2027-Q1", "--water-gallons", "12000", "--earlier-bill", "2026-Q4:96.00",
              "--as-of", "someday"],
             ["hearing", "--published", "2027-02-30"]]
    for argv in cases:
        answer = _json.loads(run_json([*argv, "--lang", lang]))
        assert answer["ok"] is False and answer["error"], argv
        assert "⟦" not in answer["error"] and not re.search(r"\((paid-on|check|as-of|published)\)", answer["error"])
    import contextlib, io
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main([*cases[0], "--lang", lang]) == 2
    assert "(--paid-on)" in err.getvalue() and "⟦" not in err.getvalue()


@pytest.mark.parametrize("argv", [["validate"], ["--help"], ["bills", "--help"]])
def test_build_py_with_its_output_closed_says_so_without_a_traceback(argv):
    """The fourth hostile tester: `build.py >&-` ended in AttributeError ('NoneType' … 'flush')."""
    done = subprocess.run(f"{sys.executable} build.py {' '.join(argv)} >&-", shell=True, cwd=ROOT,
                          stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == 74 and "standard output is closed" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_reader_that_goes_away_during_the_printable_bills_ends_the_run_with_141(tmp_path):
    """The fourth hostile tester: `python -m calculator bills --printable … | head` exited 0. The answer
    (about 130 KB for 30 accounts) is more than a pipe holds; the system took what fitted, and Python's
    text layer dropped the rest without a word. The command now ends as every other does when its reader
    goes away: 141, nothing on stderr, the files written whole."""
    from kit.billrun import sample
    sample.write(tmp_path / "in", 30)
    into = tmp_path / "in"
    out = tmp_path / "out"
    proc = subprocess.Popen([sys.executable, "-m", "calculator", "bills", "--quarter", sample.SECOND,
                             "--accounts", str(into / "accounts.csv"), "--reads", str(into / f"reads-{sample.SECOND}.csv"),
                             "--payments", str(into / "payments.csv"), "--earlier", str(into / f"register-{sample.FIRST}.csv"),
                             "--out", str(out), "--printable", "--site-url", "https://example.org/"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert os.read(proc.stdout.fileno(), 10) == b'{\n  "comma'  # `| head -c 10`, then the reader goes away
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(timeout=300) == READER_GONE, err
    assert err == ""
    assert sorted(p.name for p in out.iterdir()) == ["arrears.csv", "refused.csv", "register.csv", "summary.csv",
                                                     "written.sha256"]


@pytest.mark.parametrize("argv", [["--help"], [], ["bill", "--help"], ["rates", "propose", "--help"]])
def test_the_engine_s_help_with_its_output_closed_says_so_and_ends_74(argv):
    """The fourth hostile tester: `python -m calculator --help >&-` put the help on stderr and exited 0.
    It says in one line that the help cannot be shown and exits 74, as `build.py --help >&-` does."""
    done = subprocess.run(f"{sys.executable} -m calculator {' '.join(argv)} >&-", shell=True, cwd=ROOT,
                          stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == 74, done.stderr
    assert done.stderr == ("error: standard output is closed, so the help cannot be shown. Nothing was done. Run it "
                           "again with its output going to the terminal, a file or /dev/null.\n")


@pytest.mark.parametrize("lang, says", [
    ("en", "cannot be used: permission denied. Nothing was changed. Choose a file or folder you may use, or ask "
           "whoever manages this computer for access."),
    ("es", "no se puede usar: permiso denegado. No se cambió nada."),
])
def test_a_folder_the_command_may_not_write_into_gets_one_line(tmp_path, capsys, monkeypatch, lang, says):
    """The fourth hostile tester: `application --output` into a folder without permission ended "could not
    answer this (PermissionError: …)", naming a temporary file. One line names the folder; exit 2. (Made so by
    the test: the tests may run as root, whom permissions do not stop.)"""
    from calculator.cli import main
    from calculator.core import files

    real = files.tempfile.mkstemp

    def denied(*args, **kwargs):  # only in the folder --output names (the blank form is drawn elsewhere first)
        if Path(kwargs.get("dir", "")) != tmp_path:
            return real(*args, **kwargs)
        raise PermissionError(13, "Permission denied", str(tmp_path / ".a.pdf.x1y2.tmp"))
    monkeypatch.setattr(files.tempfile, "mkstemp", denied)
    assert main(["application", "--answer", "work=repair", "--output", str(tmp_path / "a.pdf"), "--lang", lang]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{'Error' if lang == 'es' else 'error'}: {tmp_path} {says}") and len(err.splitlines()) == 1, err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("argv, names", [
    (["bill"], "Las opciones de `python -m calculator bill` son: --quarter, --water-gallons"),
    (["rates", "propose"], "Las opciones de `python -m calculator rates propose` son: --site-url"),
    (["rates"], "Error: Falta el paso. Después de `python -m calculator rates`, escriba uno "
                "de estos comandos: propose, notice"),
    (["no-such-command"], "No existe el comando «no-such-command» (elija uno de estos: «bill»"),
    (["bill", "--quarter", "2027-Q1", "--water-gallons", "1", "--bogus", "2"], "--quarter, --water-gallons"),
])
def test_a_spanish_error_says_what_to_do_in_spanish_not_in_the_english_help(argv, names):
    """An error in Spanish does not send its reader to --help: it names the options, or the commands,
    itself (the fourth Spanish review)."""
    proc = subprocess.run([sys.executable, "-m", "calculator", *argv, "--lang", "es"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stdout == ""
    assert names in proc.stderr and "--help" not in proc.stderr, proc.stderr
    assert "--json" not in proc.stderr.split("son:")[-1]  # the options that change the answer, not the format
    for english in ("the following", "Run ", "choose from", "the command", "the step"):
        assert english not in proc.stderr, proc.stderr


def test_an_english_error_names_the_whole_command_whose_help_to_read():
    """`rates propose` is one command: its help is `rates propose --help` (it said `propose --help`)."""
    proc = subprocess.run([sys.executable, "-m", "calculator", "rates", "propose"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "Run `python -m calculator rates propose --help` for the options." in proc.stderr


@pytest.mark.parametrize("lang, says", [
    ("en", "The calculator cannot answer: its rules cannot be read (rules/parameters/late-penalty-rate.yaml:1: this "
           "file is empty. Write its entries, or delete the file.). This is not about what you entered. Whoever keeps "
           "this site must fix that rules file"),
    ("es", "La calculadora no puede responder: no se pueden leer sus reglas (rules/parameters/late-penalty-rate.yaml:1:"),
])
def test_rules_that_cannot_be_read_are_named_for_the_site_s_keeper_in_the_language_asked(lang, says, monkeypatch,
                                                                                          capsys):
    """The fifth hostile tester: an empty rules/parameters/late-penalty-rate.yaml made every bill answer
    "could not answer this (RuleError: …). … Try other values, or tell the Town Clerk", in English under
    --lang es. The rules are at fault: the message names the file and who must fix it."""
    import json
    from calculator import cli
    from calculator.core import i18n, rules
    from kit.rules import validate
    from kit.words import messages

    def broken():
        raise validate.RuleError(["rules/parameters/late-penalty-rate.yaml:1: this file is empty. Write its "
                                  "entries, or delete the file."])
    monkeypatch.setattr(rules, "_cache", None)
    monkeypatch.setattr(rules, "_PACKED", Path("/nonexistent"))
    monkeypatch.setattr(rules, "provided", lambda name: broken)
    # the catalogue is compiled with the rules broken too: its sentences are still there
    monkeypatch.setattr(validate, "load_rules", broken)
    monkeypatch.setattr(i18n, "_catalogues", {})
    monkeypatch.setattr(i18n, "_PACKED", Path("/nonexistent"))
    monkeypatch.setattr(i18n, "provided", lambda name: messages.engine_catalogue)
    assert cli.main(["--lang", lang, "bill", "--quarter", "2025-Q1", "--water-gallons", "12000"]) == 2
    err = capsys.readouterr().err
    assert says in err and "RuleError" not in err and "Try other values" not in err, err
    page = json.loads(cli.run_json(["--lang", lang, "bill", "--quarter", "2025-Q1", "--water-gallons", "12000"]))
    assert says in page["error"]


@pytest.mark.parametrize("argv, shown", [
    (["bill", "--quarter", "2025-Q1", "--water-gallons", "\x1b]0;PWN\a\x1b[31m12"], "\\x1b]0;PWN\\x07\\x1b[31m12"),
    (["bill", "--quarter", "2025-Q1", "--water-gallons", "1", "--paid-on", "\x1b[31m2025"], "\\x1b[31m2025"),
    (["vc", "--om-cost", "\x1b[31m1", "--user-volume-gallons", "1"], "\\x1b[31m1"),
    (["industry", "--average-workday-gallons", "\x1b[31m1"], "\\x1b[31m1"),
    (["bill", "--quarter", "2025-Q1", "--water-gallons", "1", "--\x1b[31mbogus"], "--\\x1b[31mbogus"),
    (["bill", "--quarter", "2025-Q1", "--water-gallons", "1\u202e2"], "1\\u202e2"),
])
def test_what_was_typed_is_echoed_with_its_control_characters_escaped(argv, shown, capsys):
    """The fifth hostile tester: escape sequences typed into --water-gallons, --paid-on, vc --om-cost,
    industry --average-workday-gallons or an unknown option were printed raw (retitling the terminal,
    recolouring it), while --quarter was shown escaped."""
    from calculator.cli import main
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\u202e" not in err and shown in err, err


def test_build_py_serve_at_a_busy_port_says_so_and_offers_another():
    """The fifth hostile tester: with port 8000 busy, `build.py serve` said "the output could not be written
    (Address already in use)" and ended 74, with no way to choose another port. It says the port is in use,
    before building, and offers --port."""
    import re
    import socket
    root = Path(__file__).resolve().parent.parent
    with socket.socket() as busy, socket.socket() as next_one:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        try:  # the next port busy too: the port offered is one that is free (the twelfth hostile tester)
            next_one.bind(("127.0.0.1", port + 1))
            next_one.listen()
        except OSError:
            pass  # taken already by another program: busy either way
        done = subprocess.run([sys.executable, str(root / "build.py"), "serve", "--port", str(port)], cwd=root,
                              capture_output=True, text=True, timeout=300)
    assert done.returncode == 1, done.stderr
    offered = re.fullmatch(rf"Port {port} is in use by another program, so the site cannot be served there\. Serve it "
                           r"at another port: `python3 build\.py serve --port (\d+)`\.\n", done.stderr)
    assert offered and int(offered.group(1)) > port + 1, done.stderr
    assert "Building" not in done.stdout
    bad = subprocess.run([sys.executable, str(root / "build.py"), "serve", "--port", "http"], cwd=root,
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "--port 'http' is not a port: give a whole number from 1 to 65535" in bad.stderr


@pytest.mark.parametrize("argv, says", [
    (["bill", "--quart", "2025-Q1", "--water-gallons", "12000"], "error: Unrecognized arguments: --quart. "),
    (["bill", "--quart=2025-Q1", "--water-gallons", "12000"], "error: Unrecognized arguments: --quart. "),
    (["bill", "--water-gallons", "12000"], "error: This required option is missing: --quarter. "),
])
def test_an_unknown_option_is_named_before_the_required_one_it_was_meant_to_be(argv, says, capsys):
    """The fifth hostile tester: `bill --quart 2025-Q1` said "The following arguments are required:
    --quarter", not naming the --quart typed (`--water-g` is named in the same situation)."""
    from calculator.cli import main
    assert main(argv) == 2
    assert capsys.readouterr().err.startswith(says)


@pytest.mark.parametrize("lang, words", [
    ("en", ["flow per average workday",
            "waste has no toxic pollutant", "has no significant impact", "leave this test undecided"]),
    ("es", ["por día laborable promedio", "no tienen un contaminante tóxico", "no tiene un impacto importante"]),
])
def test_the_industry_help_describes_every_option_in_plain_words(lang, words):
    """The eighth hostile tester, F11: `industry --help` had no words for --average-workday-gallons, and
    --no-toxic-pollutant read "no: not the waste has a toxic pollutant…"."""
    proc = subprocess.run([sys.executable, "-m", "calculator", "industry", "--help", "--lang", lang], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, env={**os.environ, "COLUMNS": "200"})
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    for said in words:
        assert said in out, (said, out)
    assert "no: not" not in out and "no: ningún" not in out
    # the option's words follow it (argparse puts them on the next line after a long option)
    assert re.search(r"--average-workday-gallons [A-Z_]+\n +\S", out), out


def test_the_calculator_in_a_python_without_the_kit_says_to_install_it():
    """The eleventh hostile tester (F11): in a fresh clone the calculator said "The calculator could not answer this
    (NotProvided: …) … Try other values". It says the one command that sets it up, and no "other values"."""
    import shutil
    import subprocess
    from pathlib import Path
    python = shutil.which("python3", path="/usr/bin")
    if python is None:
        pytest.fail("this test needs the system's /usr/bin/python3, which the README's machine has")
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run([python, "-I", "-c", "import sys; sys.path.insert(0, sys.argv[1]); "
                           "from calculator.cli import main; sys.exit(main(sys.argv[2:]))", str(root),
                           "bill", "--quarter", "2025-Q4", "--water-gallons", "12000"],
                          capture_output=True, text=True, cwd="/", timeout=60)
    assert done.returncode == 2, done
    assert "python3 build.py install" in done.stderr and "Try other values" not in done.stderr, done.stderr


def test_an_invisible_character_is_shown_in_what_you_entered():
    """The twelfth hostile tester: /estimate/?water-gallons=12%07000 was refused saying "You entered “12000”", which
    looks right. The echo shows each invisible character by its code; the words a person sees are as typed."""
    from calculator.cli import run
    from calculator.core.errors import InputError
    for typed, shown in (("12\x07000", "“12\\x07000”"), ("12\u200b000", "“12\\u200b000”")):
        with pytest.raises(InputError) as refused:
            run(["bill", "--quarter", "2025-Q4", "--water-gallons", typed])
        assert shown in str(refused.value), str(refused.value)
    with pytest.raises(InputError) as refused:
        run(["bill", "--quarter", "2025-Q4", "--water-gallons", "doce mil"])
    assert "“doce mil”" in str(refused.value)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_what_if_on_a_bill_s_values_names_its_option_not_a_placeholder(lang, capsys):
    """The twentieth hostile tester, #5: "a what-if figure (⟦vc-per-1000⟧)": an option with digits in its name was
    left as the page's placeholder on the command line, in both languages."""
    from calculator.cli import main
    code = main(["bill", "--quarter", "2025-Q4", "--sewage-gallons", "10076", "--earlier-bill", "2025-Q3:208.43",
                 "--earlier-payment", "2025-Q3:10.00:2025-07-25", "--as-of", "2025-10-15", "--check", "eb638a582144",
                 "--vc-per-1000", "1.00", "--lang", lang])
    err = capsys.readouterr().err
    assert code == 2 and "(--vc-per-1000)" in err and "⟦" not in err and "(--check)" in err, err


@pytest.mark.parametrize("argv", [["penalty", "--help"], ["bogus", "-h"]])
def test_help_for_a_command_there_is_not_names_the_commands_not_a_traceback(argv):
    """hostile29 #11: `python -m calculator penalty --help` ended in argparse's traceback (exit 1); without --help
    it said "There is no command" (exit 2). With --help too, the same one line."""
    done = subprocess.run([sys.executable, "-m", "calculator", *argv], capture_output=True, text=True, timeout=60,
                          cwd=Path(__file__).resolve().parent.parent)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith(f"error: There is no command '{argv[0]}' (choose from 'bill'"), done.stderr
