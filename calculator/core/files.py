"""The one way the project writes a file: whole or not at all."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomic(path, data: bytes) -> Path:
    """Write beside the target under a unique temporary name, fsync, then os.replace:
    a reader sees the old file or the new one, never half of one. A file that existed
    keeps its permissions; a new one is readable by all (a web server must read it)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = path.stat().st_mode & 0o777 if path.exists() else 0o644
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path
