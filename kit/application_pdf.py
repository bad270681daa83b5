"""The permit application's blank, fillable PDF, drawn from rules/application-form.yaml
with reportlab (CPython only). The engine fills it (calculator.application.fill_pdf)
here and in the browser; registered as the engine's "blank-application" provider."""
from __future__ import annotations

import io
from pathlib import Path

from calculator.application import citation, fee, form
from calculator.files import write_atomic

# ---- the blank form (reportlab) ---------------------------------------------------

PAGE_MARGIN = 54          # points: 3/4 inch
TEXT_HEIGHT = 20
MULTILINE_HEIGHT = 56
CHECKBOX_SIZE = 14
DATE_WIDTH = 200


def build_blank_pdf(rules: dict, path) -> Path:
    """An accessible fillable PDF of the application: every field has a visible
    label and an accessible name (/TU), fields are made in page order (so tab
    order follows the page), the law's citations are printed, the fee is marked
    illustrative while it is, and the document has a /Title and /Lang."""
    from reportlab.lib.colors import Color, black, white
    from reportlab.lib.pagesizes import letter
    from reportlab.lib.utils import simpleSplit
    from reportlab.pdfgen.canvas import Canvas

    f = form(rules)
    width, height = letter
    left, right = PAGE_MARGIN, width - PAGE_MARGIN
    usable = right - left
    grey = Color(0.25, 0.25, 0.25)   # 10:1 contrast on white

    def draw(tmp: str) -> None:
        c = Canvas(tmp, pagesize=letter, lang="en-US", invariant=1)
        c.setTitle(f["title"])
        c.setSubject(f["issuer"])
        c.setAuthor("Town of Pawling sewer self-service kit")
        c.setViewerPreference("DisplayDocTitle", "true")
        state = {"y": height - PAGE_MARGIN, "page": 1}

        def footer():
            c.setFont("Helvetica", 8)
            c.setFillColor(grey)
            c.drawString(left, PAGE_MARGIN / 2, f"{f['title']} — page {state['page']}")
            c.setFillColor(black)

        def new_page():
            footer()
            c.showPage()
            state["page"] += 1
            state["y"] = height - PAGE_MARGIN

        def lines(text, font, size, w=usable):
            return simpleSplit(text, font, size, w)

        def room(h):
            if state["y"] - h < PAGE_MARGIN:
                new_page()

        def paragraph(text, font="Helvetica", size=10, indent=0, colour=black, after=4):
            ls = lines(text, font, size, usable - indent)
            lead = size * 1.25
            room(lead * len(ls))
            c.setFont(font, size)
            c.setFillColor(colour)
            for line in ls:
                state["y"] -= lead
                c.drawString(left + indent, state["y"] + size * 0.25, line)
            c.setFillColor(black)
            state["y"] -= after

        def block_height(parts, w):
            return sum(len(lines(t, fn, s, w)) * s * 1.25 for t, fn, s in parts)

        # Heading, purpose, notice and fee.
        paragraph(f["title"], "Helvetica-Bold", 16, after=2)
        paragraph(f["issuer"], "Helvetica", 10, after=8)
        paragraph(f["intro"], after=2)
        paragraph(citation(rules, f["cite"]), "Helvetica", 8, colour=grey, after=6)
        paragraph(f["notice"], "Helvetica-Oblique", 8.5, colour=grey, after=8)
        fe = fee(rules)
        paragraph(f"{fe['label']}: {fe['dollars']}", "Helvetica-Bold", 11, after=1)
        if fe["note"]:
            paragraph(fe["note"], "Helvetica-Bold", 9, after=1)
        paragraph(fe["text"], "Helvetica", 9, after=1)
        paragraph(citation(rules, fe["cite"]), "Helvetica", 8, colour=grey, after=8)

        def field_parts(field):
            label = field["label"] + (" (required)" if field.get("required") else "")
            indent = CHECKBOX_SIZE + 8 if field["type"] == "checkbox" else 0
            parts = [(label, "Helvetica-Bold", 10), (field["help"], "Helvetica", 8.5),
                     (citation(rules, field["cite"]), "Helvetica", 8)]
            widget_h = {"text": TEXT_HEIGHT, "date": TEXT_HEIGHT, "multiline": MULTILINE_HEIGHT, "checkbox": 0}
            return label, indent, block_height(parts, usable - indent) + widget_h[field["type"]] + 14

        def section_height(sec):
            parts = [(sec["heading"], "Helvetica-Bold", 12)]
            for note in sec.get("notes", []):
                parts += [(note["text"], "Helvetica", 8.5), (citation(rules, note["cite"]), "Helvetica", 8)]
            return block_height(parts, usable) + 9 + 4 * len(sec.get("notes", []))

        sections = {s["id"]: s for s in f["sections"]}
        current = None
        for field in f["fields"]:
            if field["section"] != current:
                current = field["section"]
                sec = sections[current]
                # Keep a heading, its notes and its first field together on one page.
                room(section_height(sec) + field_parts(field)[2] + 6)
                state["y"] -= 6
                paragraph(sec["heading"], "Helvetica-Bold", 12, after=3)
                for note in sec.get("notes", []):
                    paragraph(note["text"], "Helvetica", 8.5, after=0)
                    paragraph(citation(rules, note["cite"]), "Helvetica", 8, colour=grey, after=4)
            kind = field["type"]
            label, indent, needed = field_parts(field)
            widget_h = {"text": TEXT_HEIGHT, "date": TEXT_HEIGHT, "multiline": MULTILINE_HEIGHT, "checkbox": 0}[kind]
            room(needed)
            top = state["y"]
            paragraph(label, "Helvetica-Bold", 10, indent=indent, after=0)
            paragraph(field["help"], "Helvetica", 8.5, indent=indent, colour=grey, after=0)
            paragraph(citation(rules, field["cite"]), "Helvetica", 8, indent=indent, colour=grey, after=3)
            common = dict(name=field["name"], tooltip=label, borderColor=black, fillColor=white,
                          textColor=black, borderWidth=1, forceBorder=True)
            if kind == "checkbox":
                c.acroForm.checkbox(x=left, y=top - CHECKBOX_SIZE - 1, size=CHECKBOX_SIZE,
                                    buttonStyle="check", fieldFlags="", **common)
                state["y"] = min(state["y"], top - CHECKBOX_SIZE - 2)
            else:
                w = DATE_WIDTH if kind == "date" else usable
                state["y"] -= widget_h
                c.acroForm.textfield(x=left, y=state["y"], width=w, height=widget_h,
                                     fieldFlags=" ".join(filter(None, [
                                         "multiline" if kind == "multiline" else "",
                                         "required" if field.get("required") else ""])),
                                     maxlen=0, fontName="Helvetica", fontSize=0 if kind == "multiline" else 10,
                                     **common)
            state["y"] -= 10
        footer()
        c.showPage()
        c.save()

    buf = io.BytesIO()
    draw(buf)
    return write_atomic(path, buf.getvalue())


