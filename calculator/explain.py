"""Every answer carries its reasons: a list of steps, each citing a provision."""
from __future__ import annotations

from decimal import Decimal

from .law import anchor


class Explanation:
    def __init__(self) -> None:
        self.steps: list[dict] = []

    def add(self, text: str, cite: str, interpretation: str | None = None, **values) -> None:
        step = {"text": text, "cite": cite, "anchor": anchor(cite),
                "values": {k: _plain(v) for k, v in values.items()}}
        if interpretation:
            step["interpretation"] = interpretation
        self.steps.append(step)


def _plain(v):
    if isinstance(v, Decimal):
        return str(v)
    if hasattr(v, "isoformat"):
        return v.isoformat()
    return v
