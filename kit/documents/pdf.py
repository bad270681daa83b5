"""A notice as a tagged PDF/UA-1 document (kit/tagged_pdf; CPython only): its text made
semantic HTML — the first paragraph the heading, blank lines between paragraphs, lines
starting "- " a list — or its own HTML (the notice to users), in the kit's print style."""
from __future__ import annotations

import re
from html import escape
from pathlib import Path

from calculator.core.files import write_atomic

from .layout import PRINT_CSS, document_html
from .tagged_pdf import html_to_pdf


def text_to_html(text: str) -> str:
    """A notice's text as HTML: its first block an <h1>, each other block a <p> (its lines
    kept as lines: a signature block, an address), lines starting "- " a <ul>. All escaped."""
    out = []
    blocks = [b for b in re.split(r"\n\s*\n", text.strip()) if b.strip()]
    for i, block in enumerate(blocks):
        lines = [line.strip() for line in block.splitlines() if line.strip()]
        if i == 0:
            out.append(f"<h1>{'<br>'.join(escape(line) for line in lines)}</h1>")
            continue
        para: list[str] = []
        items: list[str] = []
        for line in lines + [None]:
            if line is not None and line.startswith("- "):
                if para:
                    out.append(f"<p>{'<br>'.join(para)}</p>")
                    para = []
                items.append(f"<li>{escape(line[2:].strip())}</li>")
                continue
            if items:
                out.append(f"<ul>{''.join(items)}</ul>")
                items = []
            if line is not None:
                para.append(escape(line))
        if para:
            out.append(f"<p>{'<br>'.join(para)}</p>")
    return "\n".join(out)


def pdf_bytes(text: str, title: str, lang: str = "en-US") -> bytes:
    """A notice's text (see text_to_html) as a tagged PDF/UA-1 document with this /Title and
    /Lang; byte-for-byte reproducible (SOURCE_DATE_EPOCH or a fixed date)."""
    return _render(text_to_html(text), title, lang)


def html_pdf_bytes(fragment: str, title: str, lang: str = "en-US") -> bytes:
    """A notice's own HTML fragment (already escaped, as kit.clerk.notices renders it) as a tagged
    PDF, under an <h1> of its title. Links keep their text; the PDF leaves out their target
    (a site-relative address means nothing on paper)."""
    body = f"<h1>{escape(title)}</h1>\n" + re.sub(r"<a\b[^>]*>(.*?)</a>", r"\1", fragment, flags=re.S)
    return _render(body, title, lang)


def _render(body: str, title: str, lang: str) -> bytes:
    html = document_html(f'<div class="notice">\n{body}\n</div>', title=title, lang=lang, kind="notice")
    return html_to_pdf(html, title=title, lang=lang, base_url=str(PRINT_CSS.parent), stylesheets=[str(PRINT_CSS)])


def write_pdf(text: str, title: str, path, lang: str = "en-US") -> Path:
    """Write a notice's text as a PDF (see pdf_bytes), atomically."""
    return write_atomic(path, pdf_bytes(text, title, lang))


def write_html_pdf(fragment: str, title: str, path, lang: str = "en-US") -> Path:
    """Write a notice's HTML fragment as a PDF (see html_pdf_bytes), atomically."""
    return write_atomic(path, html_pdf_bytes(fragment, title, lang))
