"""The permit application's blank, fillable PDF: the same HTML as its web page
(docs/templates/documents/application.html.j2, from rules/application-form.yaml),
made a tagged PDF/UA-1 document by kit/tagged_pdf (CPython only). The engine fills it
(calculator.permits.application.fill_pdf) here and in the browser; registered as the engine's
"blank-application" provider."""
from __future__ import annotations

import functools
import os
from importlib.metadata import version
from pathlib import Path

from calculator.permits.application import form
from calculator.core.files import write_atomic

from .layout import PRINT_CSS, application_html, document_html
from .. import buildcache
from . import tagged_pdf
from .tagged_pdf import html_to_pdf


def blank_pdf_bytes(rules: dict, lang: str = "en-US") -> bytes:
    """The blank application as PDF bytes: every field a Form element named by its label
    (/TU), in page order (which is the tab order), required fields flagged, the law's
    citations printed, the fee marked illustrative while it is; /Title and /Lang set."""
    title = form(rules)["title"]
    html = document_html(application_html(rules, "pdf"), title=title, lang=lang, kind="application")
    return _rendered(html, title, lang, PRINT_CSS.read_text(encoding="utf-8"), os.environ.get("SOURCE_DATE_EPOCH", ""))


# A test worker builds the site many times from the same rules: each language's PDF
# (3 s of WeasyPrint) is made once for each page and style sheet it is made from.
# Between processes, kit/buildcache.py keeps it on disk, named by all it is made from: the page,
# the style sheet, the title and language, the date it is stamped with (SOURCE_DATE_EPOCH), the
# code that tags it and the versions of WeasyPrint, pydyf and pikepdf.
@functools.lru_cache(maxsize=8)
def _rendered(html: str, title: str, lang: str, css: str, epoch: str) -> bytes:
    parts = [html, title, lang, css, epoch,
             *(version(lib) for lib in ("weasyprint", "pydyf", "pikepdf")), buildcache.source_of(tagged_pdf)]
    return buildcache.cached("application-pdf", parts, lambda: html_to_pdf(
        html, title=title, lang=lang, base_url=str(PRINT_CSS.parent), stylesheets=[str(PRINT_CSS)]))


def build_blank_pdf(rules: dict, path, lang: str = "en-US") -> Path:
    """Write the blank application to `path`, atomically (`lang`: its /Lang, the language
    `rules` are localized in, calculator.core.i18n)."""
    return write_atomic(path, blank_pdf_bytes(rules, lang))
