"""A notice's text as a PDF (reportlab; CPython only)."""
from __future__ import annotations

import io
import re
from pathlib import Path

from calculator.files import write_atomic


def pdf_bytes(text: str, title: str, lang: str = "en-US") -> bytes:
    """A plain PDF of a text: its first paragraph as the heading, blank lines between paragraphs,
    lines starting "- " as a list. /Title and /Lang set; byte-for-byte reproducible."""
    from reportlab.lib.pagesizes import LETTER
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.lib.units import inch
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer
    from xml.sax.saxutils import escape

    styles = getSampleStyleSheet()
    out = io.BytesIO()
    doc = SimpleDocTemplate(out, pagesize=LETTER, title=title, author="Town of Pawling", subject=title,
                            creator="Pawling sewer kit (kit/pdf.py)", lang=lang,
                            displayDocTitle=True, invariant=True,
                            leftMargin=inch, rightMargin=inch, topMargin=inch, bottomMargin=inch)
    story = []
    blocks = [b for b in re.split(r"\n\s*\n", text.strip()) if b.strip()]
    for i, block in enumerate(blocks):
        lines = block.splitlines()
        if i == 0:
            story.append(Paragraph("<br/>".join(escape(line) for line in lines), styles["Heading2"]))
            continue
        para: list[str] = []  # lines of one paragraph: kept as lines (a signature block, an address)
        for line in lines:
            if line.startswith("- "):
                if para:
                    story.append(Paragraph("<br/>".join(para), styles["BodyText"]))
                    para = []
                story.append(Paragraph(escape(line[2:]), styles["BodyText"], bulletText="•"))
            else:
                para.append(escape(line.strip()))
        if para:
            story.append(Paragraph("<br/>".join(para), styles["BodyText"]))
        story.append(Spacer(1, 4))
    doc.build(story)
    return out.getvalue()


def write_pdf(text: str, title: str, path) -> Path:
    """Write a text as a PDF (see pdf_bytes), atomically."""
    return write_atomic(path, pdf_bytes(text, title))
