"""What a build makes the same way from the same inputs, kept on disk between processes.

Two steps of a build take most of a first build's time and depend on nothing that changes
from one build to the next: the trimmed standard library (stripping about 180 modules of
Pyodide's, 3-4 s) and the blank permit application in each language (WeasyPrint, 1 s each).
Each process keeps them in memory already (kit/browser/stdlib.py, kit/documents/application_pdf.py); this keeps
them in `.cache/build/` (not committed) so that the next `build.py build`, and each test that
builds in a process of its own, starts from them too.

An entry's name is the SHA-256 of everything its bytes come from: the inputs, the source of
the code that makes them, the versions of the libraries it uses and of Python. A changed input
is a new name, never a stale entry. `PAWLING_BUILD_CACHE=0` builds without it (the test that
two builds give the same bytes runs one build so). A cache that cannot be written (a read-only
checkout) is skipped, never an error; an entry is written whole or not at all. Processes that
build at once (the test workers, each building its site as it starts) make an entry once: the
first makes it under a lock on its name, the others wait for it and read it."""
from __future__ import annotations

import contextlib
import hashlib
import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

from calculator.core.files import write_atomic

ROOT = Path(__file__).resolve().parent.parent
# PAWLING_BUILD_CACHE_DIR: another folder (a copy of the project, as a test makes, shares the
# checkout's entries)
CACHE = Path(os.environ.get("PAWLING_BUILD_CACHE_DIR") or ROOT / ".cache" / "build")


def enabled() -> bool:
    return os.environ.get("PAWLING_BUILD_CACHE", "1") != "0"


def key(parts: Iterable) -> str:
    """The SHA-256 of the parts (str or bytes), each with its length, so no two lists of parts
    run together into the same bytes; and of this Python's version."""
    digest = hashlib.sha256()
    for part in (sys.version, *parts):
        data = part if isinstance(part, bytes) else str(part).encode("utf-8")
        digest.update(len(data).to_bytes(8, "big"))
        digest.update(data)
    return digest.hexdigest()


def source_of(*modules) -> bytes:
    """The source files of these modules, as one input of a key."""
    return b"\0".join(Path(m.__file__).read_bytes() for m in modules)


def cached(kind: str, parts: Iterable, make: Callable[[], bytes]) -> bytes:
    """The bytes `make()` gives for these parts: from the cache when it has them, else made and kept."""
    if not enabled():
        return make()
    path = CACHE / f"{kind}-{key(parts)}"
    try:
        return path.read_bytes()
    except OSError:
        pass
    with _making(path):
        try:  # another process may have made it while this one waited
            return path.read_bytes()
        except OSError:
            pass
        data = make()
        try:
            write_atomic(path, data)
        except OSError:
            pass  # no room or no right to write: the build goes on without keeping it
        return data


@contextlib.contextmanager
def _making(path: Path):
    """An exclusive lock on `path`'s name while it is made (none where locks cannot be had:
    no fcntl, or no right to write the cache)."""
    try:
        import fcntl
        path.parent.mkdir(parents=True, exist_ok=True)
        lock = open(path.with_name(path.name + ".lock"), "a")
    except (ImportError, OSError):
        yield
        return
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


class Memo:
    """Answers kept by name in one JSON file of the cache, for a reading that many texts go through (the privacy
    guard's, the messages' extraction): `get` gives a kept answer or None, `put` keeps one, `keep` writes what was
    put, merged with what another process kept meanwhile (written whole, or not at all). `parts` name the code
    that answers (its source): a changed reader is a new file, never a stale answer. Off when the cache is."""

    def __init__(self, kind: str, parts: Iterable):
        self.path = CACHE / f"{kind}-{key(parts)}.json" if enabled() else None
        self.read: dict | None = None
        self.new: dict = {}

    def get(self, name: str):
        if self.path is None:
            return None
        if self.read is None:
            try:
                import json
                self.read = json.loads(self.path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                self.read = {}
        return self.read.get(name)

    def put(self, name: str, value) -> None:
        if self.path is not None:
            self.get(name)
            self.read[name] = self.new[name] = value

    def keep(self) -> None:
        if self.path is None or not self.new:
            return
        import json
        try:
            kept = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            kept = {}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(self.path, json.dumps({**kept, **self.new}).encode("utf-8"))
            self.new.clear()
        except OSError:
            pass  # a cache that cannot be written is skipped, never an error
