"""Finding English where a Spanish reader should find Spanish: a sentence is English when
several of its words are English function words that Spanish does not have ("the",
"your", "with", "is"…). Law text, quotations and records kept in English are marked
lang="en" on the pages and are not counted; figures, ids and citations have no such words."""
from __future__ import annotations

import re
from html.parser import HTMLParser

ENGLISH = frozenset("""
the and of to is are was were be been you your yours we our us it its this that these those
with for from by on at as an or if when what which who how why will would can could should must
has have had do does did not no yes than then there their they them he she his her
""".split()) - {"no"}  # "no" is Spanish too
WORD = re.compile(r"[A-Za-zÁÉÍÓÚÜÑáéíóúüñ']+")


def english_words(sentence: str) -> list[str]:
    return [w for w in WORD.findall(sentence) if w.lower() in ENGLISH]


def looks_english(sentence: str) -> bool:
    """Two or more English function words, making up a fifth or more of the words."""
    words = WORD.findall(sentence)
    found = english_words(sentence)
    return len(found) >= 2 and len(found) >= 0.2 * len(words)


def english_sentences(text: str) -> list[str]:
    """The sentences of a text that look English."""
    parts = re.split(r"(?<=[.!?:;])\s+|\n+", text)
    return [p.strip() for p in parts if p.strip() and looks_english(p)]


class VisibleText(HTMLParser):
    """The text a person sees (or hears) on a page, without what is marked lang="en"
    (the law's text, quotations), scripts, styles and hidden theme parts; attribute text
    a screen reader reads (aria-label, alt, title, placeholder) included."""
    SKIP = {"script", "style", "template", "noscript"}
    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
    SPOKEN = ("aria-label", "alt", "title", "placeholder")

    def __init__(self, skip_english: bool = True, skip_code: bool = False):
        super().__init__(convert_charrefs=True)
        self.skip_english = skip_english
        self.skip = self.SKIP | ({"code", "kbd"} if skip_code else set())
        self.stack: list[tuple[str, bool]] = []  # (tag, skipped)
        self.parts: list[str] = []

    def english(self, attrs: dict) -> bool:
        return self.skip_english and (attrs.get("lang") or "").startswith("en")

    def skipping(self) -> bool:
        return any(skip for _, skip in self.stack)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        skip = tag in self.skip or self.english(a) or "hidden" in a
        if not (skip or self.skipping()):
            self.parts.extend(a[k] for k in self.SPOKEN if a.get(k))
        if tag not in self.VOID:
            self.stack.append((tag, skip))

    def handle_startendtag(self, tag, attrs):
        a = dict(attrs)
        if not self.skipping() and not self.english(a):
            self.parts.extend(a[k] for k in self.SPOKEN if a.get(k))

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data):
        if not self.skipping() and data.strip():
            self.parts.append(data)

    def text(self) -> str:
        return "\n".join(self.parts)


def visible_text(html: str, skip_english: bool = True, skip_code: bool = False) -> str:
    """What a person sees or hears on a page; without what is marked English (a page in
    another language), or all of it (`skip_english=False`, for an English page); without
    ids and file names set as code (`skip_code`, for a spelling check)."""
    parser = VisibleText(skip_english, skip_code)
    parser.feed(html)
    return parser.text()
