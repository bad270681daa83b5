"""A Spanish answer names a provision in Spanish (issue 22): "como permite Cargos de
alcantarillado (en inglés, “sewer rents”), sección D", never "como permite Sewer rents D".
The law's English name may stand only as a quotation: inside “…” (a gloss, the first time an
article is named) or in an element marked lang="en" (a notice's HTML). Its citations (`where`,
`cite`, a step's `law` link, marked lang="en" on the page) are the law's English and are not
read here. Every YAML case and every step of the Clerk's year, in Spanish."""
import re

from answers import CITED, NOT_SENTENCES, answers, clerk_answers, strings
from calculator.core.i18n import speaking
from calculator.core.law import citation
from calculator.core.rules import load

RULES = load()
# every name the law gives a provision: "Sewer rents D", "Industrial waste B(2)", "Minimum charge",
# and each article's heading ("Rate schedules")
NAMES = sorted({citation(RULES, p["id"], heading=False) for p in RULES["provisions"]}
               | {p["heading"] for p in RULES["provisions"] if not p.get("parent")}, key=len, reverse=True)
ENGLISH_NAME = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, NAMES)) + r")(?![\w-])")
# the law's English, quoted: a gloss in curly quotes, a law's words in straight ones (a plain-text
# notice), an element marked as English
QUOTED = re.compile(r"“[^”]*”|\"[^\"\n]*\"|<(\w+)[^>]*\blang=\"en\"[^>]*>.*?</\1>", re.S)
# a step's `law` is a citation, linked beside the step (its words are the law's English when it
# names an article as the law does, and then marked lang="en" on the page)
SKIP = NOT_SENTENCES | {"law"}


def english_names(text: str) -> list[str]:
    """Each English provision name in a text outside a quotation, with a little of the sentence."""
    bare = QUOTED.sub(" ", text)
    return [bare[max(0, m.start() - 50):m.end() + 20].replace("\n", " ") for m in ENGLISH_NAME.finditer(bare)]


def test_the_finder_tells_a_name_in_a_sentence_from_a_quoted_one():
    assert "Sewer rents D" in NAMES and "Rate schedules" in NAMES and "Industrial waste B(2)" in NAMES
    assert english_names("VC se basa en los gastos proyectados, como permite Sewer rents D cuando…")
    assert english_names("(NY Town Law § 63; Rate schedules C). Si la votación")
    assert english_names("el límite de Permits C(1) (Notice of violation) se aplica")
    assert english_names('<dd>La ley (<span lang="en">Sewer rents G</span>) dice</dd> y Minimum charge')
    assert not english_names("como permite Cargos de alcantarillado (en inglés, “sewer rents”), sección D")
    assert not english_names('La ley (<span lang="en">Sewer rents F (Due dates and late penalty)</span>) dice')
    assert not english_names("Tablas de tarifas (en inglés, “Rate schedules”), sección C; Sewer-rents-d.pdf")


def test_spanish_names_come_from_everyday_and_keep_english_as_it_was():
    from calculator.core.explain import named
    with speaking("es"):
        said = set()
        # in Spanish the name alone: the headings on /es/law/ are Spanish too, and ours, not the law's words
        assert named(RULES, "rate-schedules.C", said) == "Tablas de tarifas, sección C"
        assert named(RULES, "rate-schedules.B", said) == "Tablas de tarifas, sección B"
        assert named(RULES, "minimum-charge") == "Cargo mínimo"
        assert named(RULES, "permits.C.1") == "Permisos, sección C(1)"
    assert named(RULES, "rate-schedules.C") == "Rate schedules C" and named(RULES, "rents.D") == "Sewer rents D"


def test_no_spanish_answer_names_a_provision_in_english():
    found, read = [], 0
    runs = [(" ".join(argv[:2]), answer) for _case, argv, answer in answers("es")]
    # the Clerk's steps report in English, as the desk does (spanish20: a report half in each language), led by a
    # line in Spanish that says so; what they make for the public in Spanish is read: its files and their page
    runs += [(" ".join(argv[:3]), {k: answer[k] for k in ("files", "html") if k in answer})
             for argv, answer in clerk_answers("es")]
    for where, answer in runs:
        for key, text in strings(answer, SKIP):
            read += len(text)
            found += [(where, key, hit) for hit in english_names(text)]
    assert read > 100_000 and {w for w, _a in runs} >= {"rates propose --fiscal-year", "rates user-notice 2028"}
    assert not found, "\n".join(map(str, found[:20]))


def test_the_walk_reads_the_answers_words_and_leaves_their_citations():
    answer = {"text": "como permite Sewer rents D", "where": "Sewer rents D (Computation of VC)",
              "files": [{"path": "x.txt", "text": "(Minimum charge)"}], "law": {"words": "Minimum charge"}}
    assert [k for k, _t in strings(answer, SKIP)] == ["text", "text"]
    assert [k for k, _t in strings(answer, CITED)] == ["text", "path", "text", "words"]


def test_the_law_s_english_name_is_marked_inside_html_that_is_already_escaped():
    from markupsafe import Markup

    from calculator.core.explain import quoted_english
    said = "Tablas de tarifas (en inglés, “rate schedules”), sección C"
    for html in (said, Markup(said)):  # a Markup would escape the span it is given
        assert quoted_english(html) == 'Tablas de tarifas (en inglés, “<span lang="en">rate schedules</span>”), sección C'
    assert quoted_english(said, "") == said  # an English page marks nothing


def test_the_table_of_contents_marks_the_english_a_heading_quotes():
    from kit.site.theme_hooks import mark_english_contents
    html = ('<a href="#q" class="md-nav__link">\n <span class="md-ellipsis">\n ¿se compara con “the flow” (el caudal)?\n'
            ' </span></a><h2 id="q">¿se compara con “<span lang="en" class="law-quote">the flow</span>” (el caudal)?</h2>')
    assert '<span class="md-ellipsis">\n ¿se compara con “<span lang="en">the flow</span>” (el caudal)?' in \
        mark_english_contents(html)


def test_no_page_shows_markup_as_text_and_the_spanish_contents_mark_quoted_english(built_site):
    pages = sorted(built_site.rglob("*.html"))
    assert not [p for p in pages if "&lt;span" in p.read_text(encoding="utf-8")]
    html = (built_site / "es" / "how-we-read-the-law" / "index.html").read_text(encoding="utf-8")
    # (the 5% test's heading quoted the law's English until spanish7 B2 said it in Spanish; «por trimestre» keeps it)
    entry = re.search(r'href="#penalty-quarter" class="md-nav__link">\s*<span class="md-ellipsis">(.*?)</span>\s*</a>',
                      html, re.S).group(1)
    assert '“<span lang="en">per quarter</span>”' in entry


def test_the_law_s_word_an_english_name_quotes_is_in_the_law():
    """The fourth legal reading: "Sewer charges (the law's “sewer rents”)" quoted words the law never
    uses (the headings are ours). Each word quoted as the law's is in the law's text."""
    from calculator.core.explain import LAW_WORDS
    from calculator.core.law import provision_text
    text = " ".join(provision_text(p) for p in RULES["provisions"])
    assert LAW_WORDS and all(word in text for word in LAW_WORDS.values())
    assert "sewer rents" not in text.lower()


def test_the_clerks_steps_asked_in_spanish_say_their_report_is_english_and_make_spanish_notices():
    steps = clerk_answers("es")
    answered = [(argv, a) for argv, a in steps if a.get("report")]
    assert {argv[1] for argv, _a in answered} >= {"propose", "notice", "adopt", "user-notice", "status"}
    for argv, answer in answered:
        assert answer["lang"] == "en" and answer["report"][0].startswith("Los pasos de la Secretaría del Pueblo "
                                                                          "informan en inglés"), argv
        assert not any("de diciembre de" in line for line in answer["report"][1:]), argv  # no Spanish date inside
    notices = [f["text"] for _argv, a in answered for f in a.get("files", []) if f["path"].startswith("notices-out/")]
    assert notices and all(re.search(r"PUEBLO DE PAWLING|DE EJEMPLO|lang=\"es\"", text) for text in notices)
