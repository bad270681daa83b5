"""How hard the built pages are to read: the reading grade of the words a person reads on
each page, in the page's own language, leaving out the law's own words (quoted as written).

    python3 build.py readability [SITE]    every built page's grade, in each language

English is measured by the Flesch–Kincaid grade (a school grade: 8 is plain language for
the public). That formula counts English syllables; on a Spanish page it means nothing, so
Spanish is measured by Szigriszt-Pazos' "perspicuity" (the Flesch reading ease refitted to
Spanish, 0-100, higher is easier), read on the INFLESZ scale (Barrio-Cantalejo et al., 2008):
55-65 "normal", 65-80 "fairly easy". See docs/decisions/014-readability.md.

The measurement needs textstat (the tests' packages: `python3 build.py install --with-tests`).
"""
from __future__ import annotations

import html.parser
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# whole subtrees a reader does not read as the page's prose: code, the site's furniture,
# quotations (a blockquote, a <q>, and the law's words, marked class="law-quote", with the site's
# unofficial translation after them, class="law-words": the law's sentences, not the page's), and
# what is not shown (scripts, hidden elements)
LEFT_OUT = {"script", "style", "template", "noscript", "code", "pre", "kbd", "samp", "nav", "header",
            "footer", "blockquote", "q", "svg", "math", "select"}
LAW_QUOTE = "law-quote"
LAW_WORDS = "law-words"
# a block ends a sentence: a heading, a list item, a label or a table cell is not run on
# into the next one
BLOCKS = {"p", "div", "li", "dt", "dd", "h1", "h2", "h3", "h4", "h5", "h6", "td", "th", "caption", "label",
          "legend", "summary", "details", "figcaption", "button", "option", "tr", "table", "ul", "ol", "dl",
          "section", "article", "aside", "form", "fieldset", "br", "hr", "output", "progress"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}

# the grades the pages must meet (tests/test_readability.py); English: at most this FK grade,
# Spanish: at least this Szigriszt-Pazos perspicuity
ENGLISH_RESIDENT_GRADE = 8
ENGLISH_INDUSTRY_GRADE = 10
SPANISH_RESIDENT_EASE = 55   # INFLESZ "normal" and above
SPANISH_INDUSTRY_EASE = 50   # the middle of INFLESZ "somewhat difficult" (40-55): the business reader


class _Prose(html.parser.HTMLParser):
    """Collects the main content's text (mkdocs-material's <article>), block by block."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.lang = ""
        self.blocks: list[str] = []
        self._current: list[str] = []
        self._stack: list[tuple[str, bool]] = []  # (tag, left out from here down)
        self._in_article = 0

    def _left_out(self) -> bool:
        return bool(self._stack) and self._stack[-1][1]

    def _end_block(self):
        text = " ".join("".join(self._current).split())
        self._current = []
        if text:
            self.blocks.append(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "html":
            self.lang = (a.get("lang") or "").split("-")[0]
            return
        if tag == "article" and not self._in_article:
            self._in_article = 1
            self._stack = [(tag, False)]
            return
        if not self._in_article or tag in VOID:
            if self._in_article and tag in BLOCKS and not self._left_out():
                self._end_block()
            return
        lang = (a.get("lang") or "").split("-")[0]
        out = (self._left_out() or tag in LEFT_OUT or "hidden" in a
               or bool({LAW_QUOTE, LAW_WORDS} & set((a.get("class") or "").split()))
               or (lang and lang != self.lang)
               or "language-switch" in (a.get("class") or "").split())
        if tag in BLOCKS and not self._left_out():
            self._end_block()
        self._stack.append((tag, out))

    def handle_endtag(self, tag):
        if not self._in_article or tag in VOID:
            return
        # close up to the matching tag (HTML lets some end tags go unsaid)
        for i in range(len(self._stack) - 1, -1, -1):
            if self._stack[i][0] == tag:
                was_out = self._stack[i][1]
                del self._stack[i:]
                if tag in BLOCKS and not was_out:
                    self._end_block()
                break
        if not self._stack:
            self._end_block()
            self._in_article = 0

    def handle_data(self, data):
        if self._in_article and not self._left_out():
            self._current.append(data)


def prose(page_html: str) -> tuple[str, str]:
    """The page's language and the text a reader reads in its main content, one block a line,
    each ending a sentence (a block with no word in it, like a table cell of figures, is left out)."""
    parser = _Prose()
    parser.feed(page_html)
    parser.close()
    lines = []
    for block in parser.blocks:
        if not re.search(r"[^\W\d_]", block):
            continue
        # a point inside a word or a number ("$10.00", "calendar.ics", "U.S.") ends no sentence
        block = re.sub(r"[.!?](?=\w)", "", block)
        lines.append(block if re.search(r"[.!?:;…]['\"”’)\]]*$", block) else block + ".")
    return parser.lang, "\n".join(lines)


@dataclass(frozen=True)
class Reading:
    page: str      # the page's address in the site, like "es/estimate/"
    lang: str
    score: float   # English: FK grade (lower is easier); Spanish: Szigriszt-Pazos (higher is easier)
    words: int

    @property
    def measure(self) -> str:
        return "Flesch-Kincaid grade" if self.lang == "en" else "Szigriszt-Pazos perspicuity"


def score(text: str, lang: str) -> float:
    """The reading score of plain text in `lang` ("en": FK grade; "es": Szigriszt-Pazos)."""
    try:
        import textstat
    except ImportError:
        raise SystemExit("The readability measure needs textstat: run `python3 build.py install --with-tests`.")
    if lang == "en":
        textstat.set_lang("en_US")
        return textstat.flesch_kincaid_grade(text)
    if lang == "es":
        textstat.set_lang("es")
        try:
            return textstat.szigriszt_pazos(text)
        finally:
            textstat.set_lang("en_US")
    raise ValueError(f"No readability measure for language {lang!r}: add one to kit/tools/readability.py.")


def measure(page_html: str, page: str = "") -> Reading:
    lang, text = prose(page_html)
    return Reading(page, lang, round(score(text, lang), 1), len(text.split()))


def measure_site(site: Path) -> list[Reading]:
    """Every built page (its index.html) but the 404 page and the engine's files."""
    site = Path(site)
    readings = []
    for html_file in sorted(site.rglob("index.html")):
        rel = html_file.parent.relative_to(site).as_posix()
        if rel.split("/")[0] in ("engine", "pyodide", "assets"):
            continue
        page = "" if rel == "." else rel + "/"
        readings.append(measure(html_file.read_text(encoding="utf-8"), page))
    return readings


def main(argv: list[str]) -> int:
    site = Path(argv[0]) if argv else ROOT / "site"
    if not (site / "index.html").exists():
        print(f"No built site at {site}: run `python3 build.py` first.", file=sys.stderr)
        return 1
    print(f"{'page':40} {'words':>6}  score  (en: FK grade, at most {ENGLISH_RESIDENT_GRADE} for residents; "
          f"es: Szigriszt-Pazos, at least {SPANISH_RESIDENT_EASE})")
    for r in measure_site(site):
        print(f"/{r.page:39} {r.words:6}  {r.score:5.1f}  {r.lang}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
