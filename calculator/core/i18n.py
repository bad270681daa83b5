"""The languages the engine answers in: English, the law's own, and Spanish.

One mechanism for every string a person reads (docs/decisions/010-languages.md):

- In the engine's code a sentence is written once, in English, as `_("… {name} …")`
  and filled with `.format(name=…)` after translation; `N_("…")` marks a sentence
  kept in a table and translated where it is used.
- In rules/ the person-facing fields listed in TEXT_FIELDS are translated by
  `localized(rules)`, so the permit flow, the readings and the application form
  need no change to speak another language.
- The translations are gettext catalogues, rules/locale/<lang>/*.po. The kit
  extracts every message from the code, rules/, the page templates and the
  scripts, checks that each has a current translation (a missing, fuzzy or
  obsolete one fails validation, naming the message) and compiles them into a
  JSON dictionary: served beside the engine's wheel, one file a language, and given to
  the engine in the browser (add_catalogue); in a checkout asked of the kit (the
  "messages" provider).

Figures, ids and citations are the same in every language; only words change.
Standard library only: the engine runs unchanged in Pyodide.
"""
from __future__ import annotations

import copy
import json
from contextlib import contextmanager
from pathlib import Path

from .errors import InputError
from .providers import provided

LANGUAGES = ("en", "es")
SOURCE = "en"
_PACKED = Path(__file__).parent.parent / "locale"  # calculator/locale/, beside the rooms

_state = {"lang": SOURCE, "messages": {}}
_catalogues: dict[str, dict] = {}
_localized: dict[tuple[int, str], tuple[dict, dict]] = {}

# rules/ sections a person reads, and in each the keys whose string values are words
# (everything else — ids, cites, numbers, the law's own text and quotes — stays as it is;
# a reading's `text` is a quotation of the law, so it is not translated)
TEXT_FIELDS = {
    "permits": frozenset({"title", "description", "text", "hint", "label", "summary", "says", "item", "note", "headline", "summary_reading"}),
    "interpretations": frozenset({"question", "summary", "why", "title", "label"}),
    "application_form": frozenset({"title", "issuer", "intro", "notice", "label", "text", "illustrative_note",
                                   "heading", "help", "warning", "choices", "if_no"}),
    "holidays": frozenset({"name", "source", "appointed_days"}),
    "contacts": frozenset({"name", "ask_about", "source"}),
    "parameters": frozenset({"description", "source"}),
}


def N_(message: str) -> str:
    """Marks a sentence for the catalogue without translating it here (a table's entry)."""
    return message


def _(message: str) -> str:
    """The sentence in the current language (itself in English)."""
    if _state["lang"] == SOURCE:
        return message
    return _state["messages"].get(message) or message


#: a plural message's key in a catalogue: its English singular and plural, as gettext joins them
PLURAL_KEY = "{singular}\x00{plural}"
#: which of a language's plural forms a count takes (the catalogues' Plural-Forms,
#: kit/messages.PLURAL_FORMS: both languages have two, the first for 1, the second for
#: every other count)
PLURAL_FORM = {"en": lambda n: int(n != 1), "es": lambda n: int(n != 1)}


def ngettext(singular: str, plural: str, n) -> str:
    """The sentence for a count, in the current language: "1 period" but "2 periods",
    "1 período" but "2 períodos". Fill its {n} (and the rest) with .format() after it."""
    form = PLURAL_FORM[_state["lang"]](abs(int(n)))
    if _state["lang"] != SOURCE:
        forms = _state["messages"].get(PLURAL_KEY.format(singular=singular, plural=plural))
        if isinstance(forms, list) and len(forms) > form and forms[form]:
            return forms[form]
    return (singular, plural)[form]


#: the key of a quotation of the law in a compiled catalogue: gettext's context mark before its
#: English (rules/locale/<lang>/law.po: the site's unofficial translation of the law's words,
#: kept apart from the engine's own sentences, which may be the same English)
LAW_CONTEXT = "law\x04"


def law_translation(english: str) -> str | None:
    """The site's unofficial translation of a quotation of the law in the current language
    (rules/locale/<lang>/law.po), or None: in English, or when it has none yet (a quotation
    an amendment changed). The law's English stays the only official text."""
    if _state["lang"] == SOURCE:
        return None
    return _state["messages"].get(LAW_CONTEXT + " ".join(str(english).split())) or None


def in_sentence(message: str, label: str) -> str:
    """A field's label ("The latest meter reading (in gallons)") as a translated message places it: as
    written where the message starts with it, with a small first letter inside a sentence («Falta la
    lectura más reciente del medidor…»: the Spanish reviewer spanish7, E2, found «{what}: falta este dato»)."""
    if message.startswith("{what}") or len(label) < 2 or not (label[0].isupper() and label[1].islower()):
        return label
    return label[0].lower() + label[1:]


#: first words that keep their capital after a colon in Spanish: names, not the start of a sentence
_NAMES_AFTER_COLON = frozenset({"Pueblo", "Junta", "Comisión", "Secretaría", "Inspector", "Ley", "Nueva", "Estados",
                                "Cargos", "Permisos", "Actos", "Tablas", "Artículo", "Cargo", "Definiciones", "Uso",
                                "Mediciones", "Conexiones", "Residuos", "Pawling", "Dutchess"})


def after_colon(text: str) -> str:
    """A sentence that follows a label and a colon («Si paga tarde: vence el 15 de enero…»): in Spanish it
    starts with a small letter, as Spanish writes it (the Spanish reviewer spanish11, item 8: «Si paga tarde:
    Vence…»), unless it starts with a name; in English as written."""
    text = str(text)
    return text if _state["lang"] == SOURCE else small_first(text)


def small_first(text: str) -> str:
    """Spanish text with a small first letter, unless its first word is a name (_NAMES_AFTER_COLON) or not a
    capitalised word ("A(1)", "EE. UU."): after_colon's rule, for text whose language is known to be Spanish."""
    if len(text) < 2:
        return text
    first = text.split(" ", 1)[0].rstrip(".,;:")
    # a word of one letter (the preposition «A lo largo…», the conjunctions «Y», «O»), when a small word follows
    # it: never a section's letter («A(1)», «A. …», «B»), which has no small word after it (spanish15 #7)
    if text[:1] in "AYOEU" and text[1:2] == " " and text[2:3].islower():
        return text[0].lower() + text[1:]
    if not (first[:1].isupper() and first[1:2].islower()) or first in _NAMES_AFTER_COLON:
        return text
    return text[0].lower() + text[1:]


def lang() -> str:
    return _state["lang"]


def messages() -> dict:
    """The catalogue in use ({English message: translation}; empty in the source language)."""
    return _state["messages"]


def catalogue(language: str) -> dict:
    """{English message: translation} for a language: packed beside the engine, or
    compiled now from rules/locale/ by the kit in a checkout."""
    if language == SOURCE:
        return {}
    if language not in _catalogues:
        packed = _PACKED / f"{language}.json"
        if packed.exists():
            _catalogues[language] = json.loads(packed.read_text(encoding="utf-8"))
        else:
            _catalogues[language] = provided("messages")(language)
    return _catalogues[language]


def has_catalogue(language: str) -> bool:
    """Whether this language's catalogue is at hand without the kit: the source language, one
    already read or given (add_catalogue), or one packed beside the engine."""
    return language == SOURCE or language in _catalogues or (_PACKED / f"{language}.json").exists()


def add_catalogue(language: str, text: str) -> None:
    """A language's catalogue, given as the JSON the kit compiles (kit/browser/wheel.py): the site serves
    each language's beside the engine's wheel, and the browser's worker gives the engine the
    one a page asks in, so a visitor downloads only their own language's."""
    _catalogues[language] = json.loads(text)


def check_language(language: str) -> str:
    language = (language or SOURCE).strip().lower()
    if language not in LANGUAGES:
        raise InputError(f"Unknown language {language!r}: use one of {', '.join(LANGUAGES)} "
                         f"(en: English, es: español).", "lang")
    return language


@contextmanager
def speaking(language: str | None, messages: dict | None = None):
    """Answer in a language for the duration of a `with` block (the command line's --lang).
    `messages`: the catalogue to use (default: the language's own, calculator.core.i18n.catalogue)."""
    language = check_language(language)
    before = dict(_state)
    _state.update(lang=language, messages=catalogue(language) if messages is None else messages)
    try:
        yield language
    finally:
        _state.update(before)


def localized(rules: dict) -> dict:
    """The rules with every person-facing field in the current language (a copy; the
    original is not changed). English returns the rules themselves."""
    language = _state["lang"]
    if language == SOURCE:
        return rules
    key = (id(rules), language)
    # the rules object kept with its copy, so a new rules object given the id of one since freed is never handed
    # that one's copy (a test's amended law showed on another test's Spanish page: CI of December 7)
    if key not in _localized or _localized[key][0] is not rules:
        out = dict(rules)
        for section, fields in TEXT_FIELDS.items():
            if section in rules:
                out[section] = _translate_tree(copy.deepcopy(rules[section]), fields)
        if "schedules" in rules:  # a schedule's title and note, as the Clerk wrote them in each language
            out["schedules"] = [_schedule_in(s, language) for s in rules["schedules"]]
        out["_lang"] = language
        _localized.clear()  # one cached copy is enough: the rules rarely change within a run
        _localized[key] = (rules, out)
    return _localized[key][1]


def _schedule_in(s: dict, language: str) -> dict:
    """A rate schedule with its title and note in a language (`title_es`, `note_es`)."""
    words = {k: s[f"{k}_{language}"] for k in ("title", "note") if s.get(f"{k}_{language}")}
    return dict(s, **words) if words else s


def text_items(rules: dict):
    """(section, path, text) for every person-facing string in the rules: what
    `localized` translates and what the kit extracts into the catalogue."""
    for section, fields in TEXT_FIELDS.items():
        for path, text in _walk(rules.get(section), fields, (section,)):
            yield section, path, text


def _walk(tree, fields, path):
    if isinstance(tree, dict):
        for k, v in tree.items():
            if isinstance(v, str) and k in fields:
                yield (*path, k), v
            elif isinstance(v, list) and k in fields and all(isinstance(x, str) for x in v):
                for i, x in enumerate(v):
                    yield (*path, k, i), x
            else:
                yield from _walk(v, fields, (*path, k))
    elif isinstance(tree, list):
        for i, v in enumerate(tree):
            yield from _walk(v, fields, (*path, i))


def _translate_tree(tree, fields):
    if isinstance(tree, dict):
        for k, v in tree.items():
            if isinstance(v, str) and k in fields:
                tree[k] = _(v)
            elif isinstance(v, list) and k in fields and all(isinstance(x, str) for x in v):
                tree[k] = [_(x) for x in v]
            else:
                _translate_tree(v, fields)
    elif isinstance(tree, list):
        for v in tree:
            _translate_tree(v, fields)
    return tree
