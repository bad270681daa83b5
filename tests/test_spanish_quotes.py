"""In a Spanish answer a quotation says which language it is in (issue 22), so a page can mark
the law's English as English: the law's English is set in “…” (engine-client.js `quotedIn` and
explain.quoted_english put it in an element with lang="en"), a quotation of Spanish words (a
schedule's title, a line of the answer, a gloss) in «…», the RAE's first-level quotes, and no
quotation stands in straight quotes, which say neither. Every Spanish answer string of every
YAML case and of every step of the Clerk's year (tests/answers.py) is read:
- every “…” quotes the law's English: its words are in the law (a provision's heading or text);
- every «…» quotes Spanish: its words are not the law's English and do not read as English;
- no "…" quotes words;
- in an answer's HTML every “…” holds an element marked lang="en"."""
import re

from answers import NOT_SENTENCES, answers, clerk_answers, strings
from calculator.core.rules import load
from english import looks_english

RULES = load()


def _plain(text: str) -> str:
    return " ".join(text.split()).lower()


# the law's English, as one text to look a quotation up in: each provision's heading and text
LAW = _plain(" ".join(f"{p['heading']}. {p.get('text') or ''}" for p in RULES["provisions"]))
# English names the site gives beside their Spanish, introduced the one way the law's English is,
# «(en inglés, “…”)» (spanish8 #14), that are not the law's words: another law's name
OTHER_ENGLISH = {"clean water act", "ny town law", "federal water pollution control act", "general construction law"}
TAG = re.compile(r"<[^>]+>")
# an element start tag in an answer's HTML (an answer that is a page's or a notice's HTML)
HTML = re.compile(r"<[a-z][a-z0-9]*(\s[^>]*)?>")
ENGLISH_QUOTE = re.compile(r"“([^”]*)”")
OWN_QUOTE = re.compile(r"«([^»]*)»")
STRAIGHT_QUOTE = re.compile(r"\"([^\"\n]*[^\W\d_][^\"\n]*)\"")
UNMARKED = re.compile(r"“(?!<(\w+)[^>]*\blang=\"en\")")


def quotation_problems(text: str) -> list[str]:
    """What is wrong with the quotations of one Spanish answer string, each with its words."""
    problems = []
    if HTML.search(text):
        problems += [f"“ not marked lang=\"en\": {text[m.start():m.start() + 60]!r}" for m in UNMARKED.finditer(text)]
        text = TAG.sub("", text)
    for m in ENGLISH_QUOTE.finditer(text):
        words = _plain(m.group(1)).rstrip("…").strip()
        if not words or (words not in LAW and words not in OTHER_ENGLISH):
            problems.append(f"“{m.group(1)}” is set as the law's English but is not the law's words")
    for m in OWN_QUOTE.finditer(text):
        words = _plain(m.group(1))
        if words in LAW or looks_english(m.group(1)):
            problems.append(f"«{m.group(1)}» is the law's English: quote it “…”")
    problems += [f"\"{m.group(1)}\" in straight quotes: “…” for the law's English, «…» for Spanish"
                 for m in STRAIGHT_QUOTE.finditer(text)]
    return problems


def _records(answer):
    """An answer without the Clerk's record files it shows (rules/ YAML, kept as the Clerk typed)."""
    if isinstance(answer, dict):
        return {k: _records(v) for k, v in answer.items()
                if not (isinstance(v, dict) and str(v.get("path") or v.get("file") or "").endswith(".yaml"))}
    if isinstance(answer, list):
        return [_records(v) for v in answer if not (isinstance(v, dict) and str(v.get("path") or v.get("file") or "").endswith(".yaml"))]
    return answer


def test_the_reader_tells_each_kind_of_quotation():
    assert not quotation_problems("cómo interpretamos “Industries shall install”, es decir, «las industrias instalarán»")
    assert quotation_problems('cómo interpretamos "Industries shall install"')
    assert quotation_problems("cómo interpretamos «Industries shall install»")
    assert quotation_problems("es decir, “las industrias instalarán”")
    assert quotation_problems("la tabla “Tabla de tarifas de ejemplo”")
    assert not quotation_problems("la tabla «Tabla de tarifas de ejemplo»")
    assert not quotation_problems('<p>La ley dice: “<span lang="en" class="law-quote">Nonpayment shall be subject</span>”</p>')
    assert quotation_problems("<p>La ley dice: “Nonpayment shall be subject”</p>")
    assert not quotation_problems('<section class="user-notice" lang="es">la tabla «Tabla 2028»</section>')


def test_every_quotation_in_a_spanish_answer_says_its_language():
    found = set()
    read = 0
    for _case, argv, answer in [*answers("es"), *((None, argv, a) for argv, a in clerk_answers("es"))]:
        # what the person typed, repeated back in an error, is quoted in Spanish quotes («ten», calculator.core.
        # dates.typed: the Spanish reviewer spanish7, C1) as typed: it may be English or no words at all, and it
        # is the person's own words, not the law's English; it is never in “…”, which is the law's
        typed = {f"«{a.partition('=')[2] or a}» is the law's English: quote it “…”"
                 for a in argv if not a.startswith("--") or "=" in a}
        for key, text in strings(_records(answer), NOT_SENTENCES):
            read += "“" in text or "«" in text
            found.update(f"{' '.join(argv[:2])} [{key}]: {p}" for p in quotation_problems(text) if p not in typed)
    assert read > 100  # the answers quote: the walk read them
    assert not found, "\n".join(sorted(found)[:40])
