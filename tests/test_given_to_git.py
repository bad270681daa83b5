"""Issue 35, the privacy promise made structural: in a git checkout the site is built only from files git has
been given as they are (kit/privacy.py: not_given_to_git). The hostile testers kept finding new ways to name a
resident beside an amount in a page dropped into docs/ ("412.50 Janet Okafor", "OKAFOR 412.50", a shutoff list
with no amounts); a page that git does not hold, or a tracked one changed since `git add`, now stops the build
whatever it says, and the preview (`build.py serve`) still shows it on this computer."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kit import privacy
from kit.errors import BuildError

ROOT = Path(__file__).resolve().parent.parent


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), "-c", "user.name=T", "-c", "user.email=t@example.org", *args],
                   check=True, capture_output=True)


@pytest.fixture
def repo(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "rules").mkdir()
    (tmp_path / "docs" / "page.md").write_text("# Rates\n\nThe rate is set each year.\n", encoding="utf-8")
    (tmp_path / "rules" / "law.yaml").write_text("title: x\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text("site_name: x\n", encoding="utf-8")
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "start")
    return tmp_path


def test_a_checkout_as_committed_is_given_to_git(repo):
    assert privacy.not_given_to_git(repo / "docs", repo / "rules", repo / "mkdocs.yml") == []
    privacy.check_given_to_git(repo, repo / "docs", repo / "rules", repo / "mkdocs.yml")  # no refusal


def test_a_new_page_a_changed_page_and_a_changed_setting_stop_the_build_whatever_they_say(repo):
    """The words need not look like account data at all: what git has not been given is not published."""
    (repo / "docs" / "notes").mkdir()
    (repo / "docs" / "notes" / "thanks.md").write_text("We received $412.50 from Janet Okafor.\n", encoding="utf-8")
    (repo / "docs" / "page.md").write_text("# Rates\n\nOKAFOR 412.50\n", encoding="utf-8")
    (repo / "rules" / "law.yaml").write_text("title: x  # janet okafor, 9 dutcher av\n", encoding="utf-8")
    (repo / "mkdocs.yml").write_text("site_name: x\nextra: {note: harmless}\n", encoding="utf-8")
    found = privacy.not_given_to_git(repo / "docs", repo / "rules", repo / "mkdocs.yml")
    assert found == sorted([(repo / "docs" / "notes" / "thanks.md", "new"), (repo / "docs" / "page.md", "changed"),
                            (repo / "rules" / "law.yaml", "changed"), (repo / "mkdocs.yml", "changed")])
    with pytest.raises(BuildError) as refused:
        privacy.check_given_to_git(repo, repo / "docs", repo / "rules", repo / "mkdocs.yml")
    message = str(refused.value)
    assert "docs/notes/thanks.md (not in the repository yet)" in message
    assert "docs/page.md (changed since it was added)" in message and "mkdocs.yml (changed" in message
    assert "git add docs/notes/thanks.md docs/page.md mkdocs.yml rules/law.yaml" in message
    assert "build.py serve" in message and "billing/" in message
    # once given to git (`git add`: the deliberate act the repository then shows), they are built
    git(repo, "add", "-A")
    assert privacy.not_given_to_git(repo / "docs", repo / "rules", repo / "mkdocs.yml") == []


def test_a_file_git_ignores_is_not_given_to_it(repo):
    """An ignored file is still not in the repository: a .gitignore line must not let a page through."""
    (repo / ".gitignore").write_text("docs/private/\n*.md.bak\n", encoding="utf-8")
    git(repo, "add", ".gitignore")
    (repo / "docs" / "private").mkdir()
    (repo / "docs" / "private" / "list.md").write_text("late payers\n", encoding="utf-8")
    (repo / "docs" / "page.md.bak").write_text("x\n", encoding="utf-8")
    assert [why for _, why in privacy.not_given_to_git(repo / "docs")] == ["ignored", "ignored"]


def test_a_deleted_page_and_a_copy_outside_git_are_not_refused(repo, tmp_path_factory):
    (repo / "docs" / "page.md").unlink()  # a page taken out is not published either: nothing to refuse
    assert privacy.not_given_to_git(repo / "docs") == []
    loose = tmp_path_factory.mktemp("no-git")
    (loose / "page.md").write_text("x\n", encoding="utf-8")
    assert privacy.not_given_to_git(loose) == []  # a copy of the rules a test builds from: no repository


def test_the_build_of_a_checkout_refuses_an_untracked_page_before_any_work(tmp_path):
    """The real build, in a fresh clone of this repository with one page added and not given to git: refused,
    with the page named, and the earlier site left as it was."""
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    (clone / "node_modules").symlink_to(ROOT / "node_modules")  # Pyodide, which git ignores
    (clone / "docs" / "late-payers.md").write_text("# Shutoff list\n\n- the Okafor house\n", encoding="utf-8")
    site = clone / "site"
    site.mkdir()
    (site / "index.html").write_text("earlier site", encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", "import sys; from pathlib import Path; from kit.site.build import "
                           "build_or_report; sys.exit(0 if build_or_report(Path('site')) else 1)"],
                          cwd=clone, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "docs/late-payers.md (not in the repository yet)" in done.stderr
    assert "git add docs/late-payers.md" in done.stderr
    assert (site / "index.html").read_text(encoding="utf-8") == "earlier site"


@pytest.mark.parametrize("flag", ["--assume-unchanged", "--skip-worktree"])
def test_a_change_hidden_from_git_status_is_still_a_change(repo, flag):
    """hostile28 #2: a change to a tracked page, hidden by `git update-index --assume-unchanged` or
    `--skip-worktree` (so `git status` and `git diff` say nothing), was published. The bytes are compared."""
    (repo / "docs" / "page.md").write_text("# Rates\n\nAhmed Khan - paid 0 of 412 this year\n", encoding="utf-8")
    git(repo, "update-index", flag, "docs/page.md")
    assert subprocess.run(["git", "-C", str(repo), "status", "--porcelain"], capture_output=True,
                          text=True).stdout == ""
    assert privacy.not_given_to_git(repo / "docs") == [(repo / "docs" / "page.md", "changed")]


def test_a_committed_link_is_refused_for_its_target_is_not_in_the_repository(repo, tmp_path_factory):
    """hostile28 #3: a committed symbolic link published whatever its target outside the repository held, changed
    at will with no commit."""
    outside = tmp_path_factory.mktemp("outside") / "copy.html"
    outside.write_text("<p>the footer</p>\n", encoding="utf-8")
    (repo / "docs" / "footer.html").symlink_to(outside)
    git(repo, "add", "docs/footer.html")
    git(repo, "commit", "-q", "-m", "a link")
    assert privacy.not_given_to_git(repo / "docs") == [(repo / "docs" / "footer.html", "link")]
    with pytest.raises(BuildError) as refused:
        privacy.check_given_to_git(repo, repo / "docs")
    assert "docs/footer.html (a symbolic link, whose target git does not hold: put the file itself there" \
        in str(refused.value)


def test_an_ignored_file_is_told_to_move_not_to_be_added(repo):
    """hostile28 #5: the message said `git add` for a file in an ignored folder, which git refuses."""
    (repo / ".gitignore").write_text("docs/generated/\n", encoding="utf-8")
    git(repo, "add", ".gitignore")
    (repo / "docs" / "generated").mkdir()
    (repo / "docs" / "generated" / "h.md").write_text("x\n", encoding="utf-8")
    with pytest.raises(BuildError) as refused:
        privacy.check_given_to_git(repo, repo / "docs")
    said = str(refused.value)
    assert "docs/generated/h.md (git ignores it (.gitignore): move it out of the folders" in said
    assert "git add" not in said


def test_the_engine_s_code_is_held_to_the_same_rule(repo):
    """hostile28 #1: a string in an untracked module of the engine, or added to a tracked module, went into the
    engine wheel the browser downloads. The build checks calculator/ and kit/ too (kit/site/build.py); Python's
    own __pycache__ is not a file of the repository's."""
    engine = repo / "calculator"
    (engine / "__pycache__").mkdir(parents=True)
    (engine / "bill.py").write_text("RATE = 1\n", encoding="utf-8")
    git(repo, "add", str(engine / "bill.py"))
    (engine / "__pycache__" / "bill.cpython-311.pyc").write_bytes(b"\0")
    assert privacy.not_given_to_git(engine) == []
    (engine / "owed_note.py").write_text('NOTE = "Luis Ortega still owes $388.10"\n', encoding="utf-8")
    (engine / "bill.py").write_text('RATE = 1\n_NOTE = "Maria Gonzalez owes 464.20"\n', encoding="utf-8")
    assert privacy.not_given_to_git(engine) == [(engine / "bill.py", "changed"), (engine / "owed_note.py", "new")]


def test_another_index_named_in_the_environment_is_not_trusted(repo, tmp_path_factory, monkeypatch):
    """hostile29 #7: GIT_INDEX_FILE named a copy of the index with the change added; the build trusted it."""
    other = tmp_path_factory.mktemp("index") / "index"
    other.write_bytes((repo / ".git" / "index").read_bytes())
    (repo / "docs" / "page.md").write_text("# Rates\n\nchanged\n", encoding="utf-8")
    subprocess.run(["git", "-C", str(repo), "add", "docs/page.md"], check=True, env={**os.environ,
                                                                                     "GIT_INDEX_FILE": str(other)})
    monkeypatch.setenv("GIT_INDEX_FILE", str(other))
    assert privacy.not_given_to_git(repo / "docs") == [(repo / "docs" / "page.md", "changed")]


def test_a_clean_filter_and_a_submodule_are_refused_by_name(repo):
    """hostile29 #1 and #16: a clean filter let the index hold other bytes than the page (a line it strips was
    published with `git status` clean); a submodule was called a link, with advice that fit a file."""
    (repo / ".git" / "info").mkdir(exist_ok=True)
    (repo / ".git" / "info" / "attributes").write_text("docs/page.md filter=strip\n", encoding="utf-8")
    git(repo, "config", "filter.strip.clean", "cat")
    git(repo, "config", "filter.strip.smudge", "cat")
    git(repo, "update-index", "--add", "--cacheinfo", "160000," + "1" * 40 + ",docs/sub")
    found = privacy.not_given_to_git(repo / "docs")
    assert (repo / "docs" / "page.md", "filtered") in found and (repo / "docs" / "sub", "submodule") in found
    with pytest.raises(BuildError) as refused:
        privacy.check_given_to_git(repo, repo / "docs")
    said = str(refused.value)
    assert "docs/page.md (a git filter (.gitattributes or .git/info/attributes) changes it on the way in" in said
    assert "docs/sub (a git submodule, whose files this repository does not hold" in said
