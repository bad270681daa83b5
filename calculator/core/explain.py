"""Every answer carries its reasons: a list of steps, each citing a provision."""
from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal

from .dates import long
from .i18n import N_, SOURCE, _, lang, law_translation, messages as catalogue_in_use
from .law import anchor, citation, memo as _provision_memo, parts
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


def quote_words(english: str) -> str | None:
    """What follows a quotation of the law's English in another language: the site's unofficial
    translation, labelled so ("Traducción no oficial de este sitio: «…»"), or, for a quotation
    not yet translated (an amended law), a sentence saying so. None in English, where the
    quotation is the law itself. The one place this sentence is made (the engine's answers,
    the notices, the pages and the documents)."""
    if lang() == SOURCE:
        return None
    words = law_translation(english)
    if words is None:
        return _("This site has no translation of these words of the law yet.")
    # a sentence's full stop goes after the closing quote, once («…del año fiscal».), never inside and
    # again outside (the Spanish reviewer spanish8, #13: «…fiscal.».); the quoted words' own colon or
    # semicolon too, where the passage stops before its list («…limitaciones:».)
    return _("This site's unofficial translation: {words}").format(words=quoted_own(words.rstrip().rstrip(".:;")))


def with_places(rules: dict, answer):
    """Every citation in an answer also said in words, for the person reading it: each
    item with a `cite` (explanation steps, reasons, requirements, questions) gets `where`,
    "Sewer rents F (Due dates and late penalty)", and a list of `cites` gets `where`, the
    list of their words. `cite` and `anchor` stay for links. In another language every quotation
    of the law (`quote`, its English) gets `quote_words` beside it: the site's unofficial
    translation (`quote_words`). Done once, for every command."""
    words: dict[str, str] = {}
    translating = lang() != SOURCE

    def where(ident: str) -> str:
        if ident not in words:
            # in another language, in its words (issue 33: every Spanish answer's `where` was the English)
            # (short, as a label beside each item: the law's English name is said once, in the text's `law`)
            own = everyday(rules, ident, set(ARTICLES)) if lang() != SOURCE and "provisions" in rules else None
            words[ident] = (own[0] if not own[1] else f"{own[0]} ({own[1]})") if own else citation(rules, ident)
        return words[ident]

    def walk(node):
        if isinstance(node, dict):
            for value in node.values():
                walk(value)
            if translating and isinstance(node.get("quote"), str) and node["quote"]:
                node["quote_words"] = quote_words(node["quote"])
                # the quotation itself labelled too, as `provisions` labels its text (the Spanish reviewer
                # spanish24: a `quote` in English with no word saying it is the law's official text)
                node["quote_note"] = _("(the official English text)")
            if isinstance(node.get("cite"), str):
                node["where"] = where(node["cite"])
            elif isinstance(node.get("cites"), list):
                node["where"] = [where(c) for c in node["cites"]]
        elif isinstance(node, list):
            for item in node:
                walk(item)
    walk(answer)
    said_once(answer)
    return answer


#: the parts of an answer a page shows first, before the rest in the answer's order (the estimate:
#: the arrears table and "What if I pay late?" under the total, then the explanation)
_SHOWN_FIRST = ("arrears", "if_late")


def said_once(answer) -> None:
    """The law's English name of an article ("Cargos de alcantarillado (en inglés, “sewer usage
    rent”), sección F") said once in an answer, at the first provision the page shows: every later
    one without it ("Cargos de alcantarillado, sección C(1)"; spanish8 #31: it was on the total's
    "if late" line and on the first step of the explanation, and each part kept its own count)."""
    said: set[str] = set()

    def walk(node):
        if isinstance(node, dict):
            law = node.get("law")
            for item in law if isinstance(law, list) else [law]:
                if isinstance(item, dict) and isinstance(item.get("words"), str):
                    item["words"] = once(item["words"], said)
            for key in sorted(node, key=lambda k: k not in _SHOWN_FIRST):
                if key != "law":
                    walk(node[key])
        elif isinstance(node, list):
            for item in node:
                walk(item)
    walk(answer)


def once(words: str, said: set[str]) -> str:
    """A provision in a reader's words (`everyday`), with the law's English name of its article only
    the first time: `words` without it when `said` (the articles already named in full on the page
    or in the answer) holds the article; `said` is updated."""
    for article, law in LAW_WORDS.items():
        full = _("{name} (the law’s “{law}”)").format(name=_(ARTICLES[article]), law=law)
        if words.startswith(full):
            if article in said:
                return _(ARTICLES[article]) + words[len(full):]
            said.add(article)
    return words


# the articles whose name in the law a resident does not use ("sewer rents"): said in everyday
# words, with the law's own name quoted the first time
_EVERYDAY = frozenset({"rents"})
# each article of the law in a reader's words (issue 22): in English only the sewer rents are
# renamed (the others are named as the law names them); in another language every article is
# named in that language, the law's English name quoted the first time, never the English alone
ARTICLES = {
    "purpose": N_("Purpose"),
    "system": N_("The sewer system"),
    "domestic-sewage": N_("Domestic sewage only"),
    "house-connections": N_("House connections"),
    "industrial-waste": N_("Industrial waste"),
    "prohibited-acts": N_("Prohibited acts"),
    "measurements": N_("Measurements, tests and analyses"),
    "pretreatment": N_("Pretreatment and industrial facilities"),
    "permits": N_("Permits"),
    "rents.purpose": N_("Purpose of the sewer rents"),
    "rents.definitions": N_("Definitions"),
    "rents": N_("Sewer charges"),
    "rate-schedules": N_("Rate schedules"),
    "minimum-charge": N_("Minimum charge"),
}


#: the law's own words for an article a reader names otherwise (everyday), as the text writes them
LAW_WORDS = {"rents": "sewer usage rent"}


def everyday(rules: dict, ident: str, said: set[str]):
    """A provision in a reader's words, when the law's own name is not theirs: ("Sewer charges
    (the law’s “sewer rents”), section F", its heading) the first time `said` has not seen its
    article, ("Sewer charges, section B", its heading) after that (`said` is updated). In
    English only the sewer-rents article is renamed; in Spanish every article is named in
    Spanish ("Tablas de tarifas (en inglés, “rate schedules”), sección C"; an article
    itself: "Cargo mínimo (en inglés, “minimum charge”)", with no heading). None when the
    law's name is the reader's (its citation says it as it is)."""
    article, label, heading = parts(rules, ident)
    english = lang() == SOURCE
    if article not in (_EVERYDAY if english else ARTICLES) or not (label or not english):
        return None
    # The law's own word for what an article names, quoted beside the reader's name in English only:
    # the headings are ours (rules/law.yaml), and the law never says "sewer rents" (the fourth legal
    # reading): its word is "sewer usage rent" (rents.C.1). In another language the headings are
    # in that language too (the rules catalogue), so the name alone links to its place on /law/.
    # (Spanish too: a reader who opens the English text finds "sewer usage rent" there, not "Sewer charges":
    # spanish7 C7, «Cargos de alcantarillado (en inglés, “sewer usage rent”), sección C(1)»)
    # Spanish: the name alone («Cargos de alcantarillado, sección F»): the gloss «(en inglés, “sewer usage rent”)» sat
    # in nested parentheses on sections that do not use the phrase (spanish13 C-2, spanish14 C-1)
    law_name = LAW_WORDS.get(article) if english else None
    if article in said or law_name is None:
        words = _("{name}, section {label}") if label else "{name}"
    else:
        words = _("{name} (the law’s “{law}”), section {label}") if label else _("{name} (the law’s “{law}”)")
    said.add(article)
    # the heading is ours, not the law's (rules/law.yaml): in the reader's language (the rules catalogue)
    return words.format(name=_(ARTICLES[article]), law=law_name, label=label), _(heading) if label else None


def named(rules: dict, ident: str, said: set[str] | None = None) -> str:
    """A provision named inside an answer's sentence: in English as the law names it, without
    its heading ("Sewer rents D", "Industrial waste B(2)"); in another language in the reader's
    words (`everyday`; `said`: the articles the text has already named in full, default none),
    so a Spanish sentence never carries the law's English name unquoted ("como permite Cargos
    de alcantarillado (en inglés, “sewer rents”), sección D"). Every engine sentence that
    names a provision names it this way."""
    if lang() == SOURCE or "provisions" not in rules:  # (no provisions: the schedule checks, while compiling)
        return citation(rules, ident, heading=False)
    # (no `said`: a name alone, short, as before; the law's English name is said once where a text keeps `said`)
    own = everyday(rules, ident, set(ARTICLES) if said is None else said)
    return own[0] if own else citation(rules, ident, heading=False)


def quoted_english(html: str, marked: str = ' lang="en"') -> str:
    """A provision named in another language, as HTML (already escaped), with the law's English
    name it quotes marked as English: "… (en inglés, “<span lang="en">sewer rents</span>”) …"
    (`marked`: the attribute; "" on a page in English, which marks nothing)."""
    # (str(): a markupsafe.Markup would escape the span it is given)
    return _QUOTED_NAME.sub(rf"“<span{marked}>\1</span>”", str(html)) if marked else html


_QUOTED_NAME = re.compile("“([^”]+)”")


def quoted_own(words: str) -> str:
    """A quotation of words in the reader's language (a schedule's title, a word of the answer's
    own): “…” in English, «…» in Spanish (the RAE's first-level quotes). In an answer in another
    language “…” is kept for the law's English alone, so a page marks every “…” as English
    (`quoted_english`, engine-client.js `quotedIn`) and nothing else."""
    return f"“{words}”" if lang() == SOURCE else f"«{words}»"


def quoted_law(words: str) -> str:
    """A quotation of the law's English in plain text: "…" in English as before, “…” in another
    language (the mark `quoted_english` and the pages look for)."""
    return f'"{words}"' if lang() == SOURCE else f"“{words}”"


def fold_citations(rules: dict, steps: list[dict], memo: dict | None = None) -> list[dict]:
    """Each step's provision as a list of steps names it, in words a resident uses (issue 19,
    item 10): the first step citing the rents article says "Sewer charges (the law’s “sewer
    rents”), section F" once; later ones "Sewer charges, section B"; a step citing the same
    provision as the step before it says nothing more (`law` is None). In Spanish every article
    is named so (`everyday`), an article itself by its Spanish name with the law's heading
    beside it. `cite`, `anchor` and `where` stay on every step, so each provision is still
    cited and linked.
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
        step["law"] = None if step["cite"] == before else law_words(rules, step["cite"], said_article)
        before = step["cite"]
    return steps


def law_words(rules: dict, ident: str, said: set[str]) -> dict:
    """A provision as a link to it says it ({"words", "heading"}, engine-client.js `lawLinkIn`):
    in a reader's words where the law's name is not theirs (`everyday`; `said`: the articles
    already named in full, updated), else the law's citation with its heading in it
    (`heading` None). Worked out once for a provision, the articles already said and the catalogue
    in use (kept with the provisions' index, calculator/core/law.py): a permit result names about 47
    provisions, and the checker's walk of every path spent a third of its time naming them again."""
    memo = _provision_memo(rules)
    messages = catalogue_in_use()
    key = ("law_words", lang(), ident, frozenset(said))
    known = memo.get(key)
    if known is None or known[0] is not messages:  # (the catalogue itself kept: a new one is never taken for it)
        before = set(said)
        words = _law_words(rules, ident, said)
        known = memo[key] = (messages, words, frozenset(said - before))
    said.update(known[2])
    return dict(known[1])


def _law_words(rules: dict, ident: str, said: set[str]) -> dict:
    label = parts(rules, ident)[1]
    if label and (own := everyday(rules, ident, said)):
        return {"words": own[0], "heading": own[1]}
    if not label and lang() != SOURCE and ident in ARTICLES:
        # an article itself, in another language: its name in that language, the law's beside it
        # ("Cargo mínimo" (Minimum charge)), as a section is named with its heading
        name, heading = _(ARTICLES[ident]), _(parts(rules, ident)[2])
        # ("Cargo mínimo (Cargo mínimo)" said its name twice, once the headings were in Spanish too)
        return {"words": name, "heading": None if heading == name else heading}
    return {"words": citation(rules, ident), "heading": None}
