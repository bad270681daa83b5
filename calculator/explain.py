"""Every answer carries its reasons: a list of steps, each citing a provision."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from .dates import long
from .i18n import _
from .law import anchor, citation, parts
from .rules import entry, history


class Explanation:
    def __init__(self) -> None:
        self.steps: list[dict] = []

    def add(self, text: str, cite: str, interpretation: str | None = None, quote: str | None = None,
            **values) -> None:
        """A step: its words, the provision it cites, the reading that decided it (if one did),
        and the law's own words it quotes (`quote`: English in every language, shown after the text)."""
        step = {"text": text, "cite": cite, "anchor": anchor(cite),
                "values": {k: _plain(v) for k, v in values.items()}}
        if interpretation:
            step["interpretation"] = interpretation
        if quote:
            step["quote"] = quote
        self.steps.append(step)


def _plain(v):
    if isinstance(v, Decimal):
        return str(v)
    if hasattr(v, "isoformat"):
        return v.isoformat()
    return v


def since(rules: dict, name: str, on=None) -> str:
    """Which value of an amended parameter a step used: " (since March 4, 1992)", or
    " (until December 31, 2027)" for the original one; "" for a parameter with one value."""
    values = history(rules, name)
    if len(values) < 2:
        return ""
    e = entry(rules, name, on)
    if e["since"] is not None:
        return " " + _("(since {date})").format(date=long(dt.date.fromisoformat(e["since"])))
    nxt = values[values.index(e) + 1]["since"]
    return " " + _("(until {date})").format(date=long(dt.date.fromisoformat(nxt) - dt.timedelta(days=1)))


def with_places(rules: dict, answer):
    """Every citation in an answer also said in words, for the person reading it: each
    item with a `cite` (explanation steps, reasons, requirements, questions) gets `where`,
    "Sewer rents F (Due dates and late penalty)", and a list of `cites` gets `where`, the
    list of their words. `cite` and `anchor` stay for links. Done once, for every command."""
    words: dict[str, str] = {}

    def where(ident: str) -> str:
        if ident not in words:
            words[ident] = citation(rules, ident)
        return words[ident]

    def walk(node):
        if isinstance(node, dict):
            for value in node.values():
                walk(value)
            if isinstance(node.get("cite"), str):
                node["where"] = where(node["cite"])
            elif isinstance(node.get("cites"), list):
                node["where"] = [where(c) for c in node["cites"]]
        elif isinstance(node, list):
            for item in node:
                walk(item)
    walk(answer)
    return answer


# the articles whose name in the law a resident does not use ("sewer rents"): said in everyday
# words, with the law's own name quoted the first time
_EVERYDAY = frozenset({"rents"})


def everyday(rules: dict, ident: str, said: set[str]):
    """A provision of an article whose name in the law a resident does not use, in everyday
    words: ("Sewer charges (the law’s “sewer rents”), section F", its heading) the first time
    `said` has not seen its article, ("Sewer charges, section B", its heading) after that
    (`said` is updated). None for any other provision (its citation says it as it is)."""
    article, label, heading = parts(rules, ident)
    if article not in _EVERYDAY or not label:
        return None
    words = (_("Sewer charges, section {label}") if article in said else
             _("Sewer charges (the law’s “sewer rents”), section {label}"))
    said.add(article)
    return words.format(label=label), heading


def fold_citations(rules: dict, steps: list[dict], memo: dict | None = None) -> list[dict]:
    """Each step's provision as a list of steps names it, in words a resident uses (issue 19,
    item 10): the first step citing the rents article says "Sewer charges (the law’s “sewer
    rents”), section F" once; later ones "Sewer charges, section B"; a step citing the same
    provision as the step before it says nothing more (`law` is None). `cite`, `anchor` and
    `where` stay on every step, so each provision is still cited and linked.
    `memo`: a dict kept for steps in one language (a bill's quarter context), where the words
    for a list of citations already folded are taken again."""
    if memo is not None:
        key = ("fold", *(step["cite"] for step in steps))
        if key not in memo:
            memo[key] = [step["law"] for step in fold_citations(rules, [{"cite": c} for c in key[1:]])]
        for step, law in zip(steps, memo[key]):
            step["law"] = dict(law) if law is not None else None
        return steps
    said_article: set[str] = set()
    before = None
    for step in steps:
        if step["cite"] == before:
            step["law"] = None
        elif (said := everyday(rules, step["cite"], said_article)) is not None:
            step["law"] = {"words": said[0], "heading": said[1]}
        else:
            step["law"] = {"words": citation(rules, step["cite"]), "heading": None}
        before = step["cite"]
    return steps
