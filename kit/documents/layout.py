"""The kit's documents as HTML, from the Jinja2 templates in docs/templates/documents/:
the permit application (one template for its web page and its PDF), and the whole HTML
document and print stylesheet that kit/documents/tagged_pdf.py (html_to_pdf) turns into a tagged PDF."""
from __future__ import annotations

from pathlib import Path

from calculator.permits import application
from calculator.core.explain import law_words, quote_words, quoted_english
from calculator.core.i18n import N_
from calculator.core.law import anchor, citation

DOCUMENTS = Path(__file__).resolve().parents[2] / "docs" / "templates" / "documents"
#: The PDFs' stylesheet: US letter, 11pt and up, black on white.
PRINT_CSS = DOCUMENTS / "print.css"
MEDIA = ("web", "pdf")
#: each PDF page's footer after the document's title, in the language being spoken
PAGE_OF = N_("Page {page} of {pages}")


def environment():
    import jinja2
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(DOCUMENTS)), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                             keep_trailing_newline=True)
    env.filters["anchor"] = anchor
    # the law's English name quoted inside a provision named in another language, marked as English
    env.filters["english_quoted"] = lambda words: jinja2.utils.markupsafe.Markup(
        quoted_english(str(jinja2.utils.markupsafe.escape(words))))
    from calculator.core.i18n import lang

    from ..words.language import install_gettext
    install_gettext(env, lang())  # the documents' fixed words, in the language being spoken
    # after a quotation of the law's English in another language: the site's unofficial translation
    env.globals["quote_words"] = lambda english: jinja2.utils.markupsafe.Markup(
        quoted_english(str(jinja2.utils.markupsafe.escape(quote_words(english)))))
    return env


def application_html(rules: dict, medium: str) -> str:
    """The application (rules/application-form.yaml) as HTML: for the web page
    (`medium="web"`: citations link to /law/) or for the PDF (`"pdf"`: citations as text).
    Every field with its label, help and citation, the fee (marked illustrative while it
    is), sections as headings; each control's `name` is its PDF field name."""
    if medium not in MEDIA:
        raise ValueError(f"medium must be one of {', '.join(MEDIA)}, not {medium!r}")
    form = application.form(rules)
    sections = [dict(s, fields=[f for f in form["fields"] if f["section"] == s["id"]]) for s in form["sections"]]
    from calculator.core.i18n import SOURCE, lang
    said: set[str] = set()  # an article named in full once, then shorter ("Permisos, sección A")

    def where(cite: str) -> str:
        """A provision as a reader names it: in English the law's citation; in another language
        its name in that language with its heading (ours), as the answers name it (issue 33:
        "Ley: Permits A (Application for permit)" on the Spanish form)."""
        if lang() == SOURCE:
            return citation(rules, cite)
        words = law_words(rules, cite, said)
        return f"{words['words']} ({words['heading']})" if words["heading"] else words["words"]
    html = environment().get_template("application.html.j2").render(
        medium=medium, form=form, sections=sections, fee=application.fee(rules),
        where=where, english_citations=lang() != SOURCE)
    # the English glossed in a Spanish label marked English, in the page and in the PDF's tags (spanish13, E-1)
    from ..words.language import mark_glossed_english
    return html if lang() == SOURCE else mark_glossed_english(html)


def document_html(body: str, *, title: str, lang: str = "en-US", kind: str = "document",
                  page_numbers: bool = True) -> str:
    """A whole HTML document around `body` (trusted HTML), for html_to_pdf. Without `page_numbers`
    (the quarterly bills: each page is its own letter) no page has the "Page 1 of 5" footer."""
    from markupsafe import Markup
    return environment().get_template("document.html.j2").render(
        body=Markup(body), title=title, lang=lang, kind=kind, page_of=Markup(page_of_css()) if page_numbers else None)


def page_of_css() -> str:
    """The footer's "Page 1 of 5" as a CSS `content` value, in the language being spoken
    (print.css sets where and how it is drawn; the words come from pages.po)."""
    import re

    from calculator.core.i18n import lang

    from ..words.language import page_words
    words = page_words(lang()).get(PAGE_OF) or PAGE_OF
    parts = []
    for part in re.split(r"(\{pages?\})", words):
        if part in ("{page}", "{pages}"):
            parts.append(f"counter({part[1:-1]})")
        elif part:
            parts.append('"' + part.replace("\\", "\\\\").replace('"', '\\"').replace("<", "\\3c ") + '"')
    return " ".join(["string(doc-title)", *parts])
