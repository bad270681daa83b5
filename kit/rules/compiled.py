"""The engine's "rules" provider in a checkout: rules/ compiled, kept between processes.

Every run of the command line (`python -m calculator …`, the Clerk's `rates`, the bill run) asks
for the compiled rules. Compiling them reads 73 YAML files and checks each against its JSON
Schema: about 1.5 s, with 0.3 s more to import jsonschema and PyYAML, on each run. Most runs
read rules/ as the last run left it, so the compiled rules are kept by kit/buildcache.py
(`.cache/build/`), named by the bytes of every file under rules/ and the source of the code that
compiles them (kit/ and calculator/). A changed file, a new one or a removed one is a new name,
never a stale answer; rules with a problem are never kept (compile_rules raises, each time,
with every problem). `PAWLING_BUILD_CACHE=0` compiles every time.

The same JSON the browser's engine reads (kit/browser/wheel.py writes it so): the rules are
JSON's types only, so the kept copy is equal to a fresh compile (tests/test_rules_cache.py).
"""
from __future__ import annotations

import json
from pathlib import Path

from .. import buildcache

ROOT = Path(__file__).resolve().parents[2]
RULES_DIR = ROOT / "rules"


def inputs(rules_dir: Path | None = None) -> list:
    """What the compiled rules come from: each file under rules/ (its path and bytes), then the
    source of every module of kit/ and calculator/ (the compiler and what it calls)."""
    parts: list = []
    rules_dir = RULES_DIR if rules_dir is None else rules_dir
    for folder, pattern in ((rules_dir, "*"), (ROOT / "kit", "*.py"), (ROOT / "calculator", "*.py")):
        for path in sorted(p for p in folder.rglob(pattern) if p.is_file() and "__pycache__" not in p.parts):
            parts += [path.relative_to(folder.parent).as_posix(), path.read_bytes()]
    return parts


def load_rules() -> dict:
    """This repository's rules/, compiled (kit.rules.validate.compile_rules), from the cache when
    rules/ and the code are as they were."""
    def compile_now() -> bytes:
        from .validate import compile_rules  # jsonschema and PyYAML: only when compiling
        return json.dumps(compile_rules(RULES_DIR), sort_keys=True, ensure_ascii=False).encode("utf-8")
    return json.loads(buildcache.cached("rules", inputs(RULES_DIR), compile_now))
