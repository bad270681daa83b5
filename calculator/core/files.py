"""The one way the project writes a file: whole or not at all."""
from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

from .i18n import N_, _

#: the project's folders the website is made from and published from: a command never writes a
#: person's file there (a filled application holds names and addresses; site/ holds the blank form)
PROJECT_FOLDERS = ("site", "docs", "rules")


#: why a file cannot be read or written, in words of the language spoken (errno: words)
_WHY = {errno.EACCES: N_("permission denied"), errno.EPERM: N_("permission denied"),
        errno.ENOSPC: N_("the disk is full"), errno.EROFS: N_("the disk is read-only")}


def reason_of(exc: OSError) -> str:
    """Why a file could not be read or written: "permission denied", "the disk is full", else as the system
    says it, in small letters."""
    if exc.errno in _WHY:
        return _(_WHY[exc.errno])
    reason = exc.strerror or type(exc).__name__
    return reason[:1].lower() + reason[1:]


def project_root() -> Path | None:
    """The checkout this engine runs from; None where it runs from a wheel (the browser)."""
    root = Path(__file__).resolve().parents[2]
    return root if (root / "rules" / "law.yaml").is_file() and (root / "build.py").is_file() else None


def project_folder(path) -> str | None:
    """The project folder (site, docs or rules) that `path` is in, or None."""
    root = project_root()
    if root is None:
        return None
    where = Path(path).resolve()
    for name in PROJECT_FOLDERS:
        if where.is_relative_to((root / name).resolve()):
            return name
    return None


def _git_here(folder: Path) -> bool:
    """Whether `folder` is a git work tree's top: a .git folder with its HEAD, or a .git file naming one
    ("gitdir: …", a worktree or submodule). An empty .git folder is not a repository (the twenty-sixth hostile
    tester, #10: `mkdir x/.git` made x refused as "the git repository x")."""
    marker = folder / ".git"
    if marker.is_dir():
        return (marker / "HEAD").exists()
    if marker.is_file():
        try:
            return marker.read_text(encoding="utf-8", errors="replace").startswith("gitdir:")
        except OSError:
            return True  # (unreadable: taken for one, the careful way)
    return os.path.lexists(marker)  # a link to somewhere: taken for one


def in_a_repository(path) -> tuple[str, str] | None:
    """Where a file written at `path` would be one `git add` from being published (the seventh hostile
    tester: `bills --out calculator` wrote arrears.csv into the project): ("project", its folder) when
    `path` is in this project but its billing/ folder (which git ignores), ("repository", its folder) when
    it is inside another git work tree; else None."""
    where = Path(os.path.abspath(path)).resolve()
    root = project_root()
    if root is not None and where.is_relative_to(root.resolve()):
        for parent in (where, *where.parents):  # a repository made inside billing/ (hostile25, #1)
            if parent == root.resolve():
                break
            if _git_here(parent):
                return "repository", str(parent)
        return None if where.is_relative_to((root / "billing").resolve()) else ("project", str(root))
    for parent in (where, *where.parents):
        if _git_here(parent):
            return "repository", str(parent)
    return None


def write_atomic(path, data: bytes) -> Path:
    """Write beside the target under a unique temporary name, fsync, then os.replace:
    a reader sees the old file or the new one, never half of one. A file that existed
    keeps its permissions; a new one is readable by all (a web server must read it)."""
    return write_all_atomic({path: data})[0]


def write_all_atomic(files: dict) -> list[Path]:
    """Several files ({path: bytes}) written as write_atomic writes one, and together: every one is written
    whole under its temporary name first, and only then are they put in place, so a failure (a full disk,
    a folder that cannot be written) leaves every target as it was, not some old and some new (the bill
    run's four files are read together)."""
    made: list[tuple[str, Path]] = []
    folders: list[Path] = []  # the folders made here, removed again when nothing could be written (hostile16, U2)
    try:
        for path, data in files.items():
            path = Path(path)
            missing = [p for p in [path.parent, *path.parent.parents] if not p.exists()]
            path.parent.mkdir(parents=True, exist_ok=True)
            folders += missing
            mode = path.stat().st_mode & 0o777 if path.exists() else 0o644
            try:
                fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
            except OSError as exc:  # named by the folder, not by the temporary name no one asked for
                raise OSError(exc.errno, exc.strerror, str(path.parent)) from None
            made.append((tmp, path))
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(data)
                    f.flush()
                    os.fsync(f.fileno())
                os.chmod(tmp, mode)
            except OSError as exc:  # a full disk, say: named by the file it was to be
                raise OSError(exc.errno, exc.strerror, str(path)) from None
        for tmp, path in made:
            os.replace(tmp, path)
    except BaseException:
        for tmp, _path in made:
            if os.path.exists(tmp):
                os.unlink(tmp)
        for folder in sorted(set(folders), key=lambda p: len(p.parts), reverse=True):  # deepest first, if empty
            try:
                folder.rmdir()
            except OSError:
                pass
        raise
    return [path for _tmp, path in made]


#: the list a command leaves beside the files it wrote into a folder (the bill run's, the sample's): each
#: file's SHA-256 and name, as `sha256sum` writes them (`sha256sum -c` checks them). A file is replaced only
#: when it is still what the command wrote (the fifth hostile tester: a summary.csv with the run's header
#: and a person's own rows, and a sample accounts.csv with a real account added, were replaced silently)
WRITTEN = "written.sha256"


def written_list(files: dict) -> bytes:
    """WRITTEN's text for {name: bytes}."""
    import hashlib
    return "".join(f"{hashlib.sha256(data).hexdigest()}  {name}\n" for name, data in sorted(files.items())).encode()


def as_written(path) -> bool | None:
    """Whether the file at `path` is byte for byte what WRITTEN beside it lists; None when there is no WRITTEN
    there (a folder written before it was kept: the caller decides by the older signs)."""
    import hashlib
    path = Path(path)
    listing = path.parent / WRITTEN
    if not listing.is_file():
        return None
    try:
        listed = dict(reversed(line.split("  ", 1)) for line in listing.read_text(encoding="utf-8").splitlines()
                      if "  " in line)
        if path.is_symlink() or not path.is_file() or path.name not in listed:
            return False
        return hashlib.sha256(path.read_bytes()).hexdigest() == listed[path.name]
    except (OSError, UnicodeDecodeError, ValueError):
        return False


def _kind(path) -> str:
    """What is at `path` in a person's words: a file, a folder, a device (/dev/full), …"""
    import os
    import stat
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return _("a link that leads nowhere")
    if stat.S_ISREG(mode):
        return _("a file")
    if stat.S_ISDIR(mode):
        return _("a folder")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return _("a device, not a file")
    if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
        return _("a pipe, not a file")
    return _("neither a file nor a folder")


def what_is_at(path) -> str:
    """What is at `path` in words, a link with where it leads: "a file", "a folder", "a link to /dev/full, a
    device". The one wording of what is at a path for every command that reads or writes one where it wanted
    another kind (the bill runs' `--out`, the application's `--output` and `--blank`: the eighth hostile tester,
    F9, was told a link to /dev/full was "a folder")."""
    import os
    if os.path.islink(path):
        return _("a link to {target}, {kind}").format(target=os.path.realpath(path), kind=_kind(path))
    return _kind(path)
