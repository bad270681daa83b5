"""The site in each of its languages: the page templates' and documents' gettext, the
scripts' words, and where each language's pages live (English at the root, Spanish
under /es/, at the same paths). The catalogues are rules/locale/<lang>/*.po (kit/words/messages.py)."""
from __future__ import annotations

import functools
import re
from pathlib import Path

from calculator.core.i18n import LANGUAGES, SOURCE

from .messages import translations
from ..rules.validate import RULES_DIR

#: each language's name in itself, for the language switch
NAMES = {"en": "English", "es": "Español"}
#: the PDFs' /Lang for each language (US English and US Spanish)
PDF_TAGS = {"en": "en-US", "es": "es-US"}
#: pages that exist only in English: the Clerk's desk is a tool of the Town's office
ENGLISH_ONLY = ("clerk.md.j2", "clerk/bills.md.j2", "clerk/publish.md.j2")


def folder(lang: str) -> str:
    """Where a language's pages are, from the site's root: "" or "es/"."""
    return "" if lang == SOURCE else f"{lang}/"


def site_root(lang: str) -> str:
    """The way from a language's page tree up to the site's root: "" or "../"."""
    return "" if lang == SOURCE else "../"


_building = {"rules_dir": RULES_DIR}


@functools.lru_cache(maxsize=None)
def _words(lang: str, domains: tuple[str, ...], rules_dir: Path) -> dict:
    return {} if lang == SOURCE else translations(lang, domains, rules_dir)


def page_words(lang: str, rules_dir: Path | None = None) -> dict:
    """The page templates' and the kit's words (pages.po), {English: translation}."""
    return _words(lang, ("pages",), Path(rules_dir or _building["rules_dir"]))


def script_words(lang: str, rules_dir: Path | None = None) -> dict:
    """The pages' scripts' words (scripts.po), for the JSON table words.js reads."""
    return _words(lang, ("scripts",), Path(rules_dir or _building["rules_dir"]))


def rules_folder() -> Path:
    """The rules/ folder being built from."""
    return _building["rules_dir"]


def building(rules_dir: Path | None = None) -> None:
    """A build starts: read the catalogues afresh, from this rules/ folder's locale/."""
    _words.cache_clear()
    _building["rules_dir"] = Path(rules_dir or RULES_DIR)


def install_gettext(env, lang: str, rules_dir: Path | None = None) -> None:
    """Give a Jinja environment `{% trans %}` and `_()` in a language (newstyle: a message's
    %(name)s are filled after translation, and a translation keeps them)."""
    words = page_words(lang, rules_dir)
    if "jinja2.ext.InternationalizationExtension" not in env.extensions:
        env.add_extension("jinja2.ext.i18n")
    env.policies["ext.i18n.trimmed"] = True

    def gettext(message: str) -> str:
        return words.get(message) or message

    def ngettext(singular: str, plural: str, n: int) -> str:
        from calculator.core.i18n import PLURAL_FORM, PLURAL_KEY
        form = PLURAL_FORM[lang](abs(int(n)))
        forms = words.get(PLURAL_KEY.format(singular=singular, plural=plural))
        return forms[form] if isinstance(forms, list) and len(forms) > form else (singular, plural)[form]
    env.install_gettext_callables(gettext, ngettext, newstyle=True)


__all__ = ["LANGUAGES", "NAMES", "PDF_TAGS", "folder", "site_root", "page_words", "script_words",
           "install_gettext", "building"]


_GLOSSED = re.compile(r'(\(en inglés, “)([^“”<>]+)(”\))')
_NO_MARKUP = {"script", "style", "title", "textarea", "option"}


def mark_glossed_english(html: str) -> str:
    """An English name glossed in a Spanish sentence, «Pueblo de Pawling (en inglés, “Town of Pawling”)»: the
    English words are marked lang="en", so a screen reader says them in English (WCAG 3.1.2; the Spanish
    reviewer spanish10, F3). Text only: never inside a tag, an attribute, or an element that holds no markup."""
    parts = re.split(r'(<[^>]*>)', html)
    inside = None
    for i, part in enumerate(parts):
        if part.startswith("<"):
            tag = re.match(r'</?\s*([a-zA-Z0-9]+)', part)
            name = tag.group(1).lower() if tag else None
            if name in _NO_MARKUP:
                inside = None if part.startswith("</") else name
            continue
        if inside is None and "(en inglés, “" in part:
            parts[i] = _GLOSSED.sub(r'\1<span lang="en">\2</span>\3', part)
    return "".join(parts)
