"""What the engine asks of the Python it runs in, without importing it.

In the browser the engine has everything it needs: the rules arrive compiled in
the wheel. In a CPython checkout two things need libraries the engine must not
import (PyYAML, jsonschema, WeasyPrint): reading rules/ and drawing the blank
permit application. The kit registers functions for them as entry points
(pyproject.toml, group "pawling_sewer_kit"), so the engine finds them by name and
the imports still flow one way: kit → calculator. See docs/decisions/006-one-way-layers.md.
"""
from __future__ import annotations

GROUP = "pawling_sewer_kit"


class NotProvided(LookupError):
    """Nothing in this Python provides that function (e.g. the kit is not installed)."""


def provided(name: str):
    """The function registered under `name` in the entry-point group, loaded."""
    from importlib.metadata import entry_points
    for ep in entry_points(group=GROUP):
        if ep.name == name:
            return ep.load()
    raise NotProvided(
        f"This Python has no {name!r} provider: the kit's CPython tools are not installed here. "
        f"Run `python3 build.py install` (it sets up .venv/), then use .venv/bin/python.")
