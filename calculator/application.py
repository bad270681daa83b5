"""The permit application (permits.A) as a fillable PDF: made from
rules/application-form.yaml, prefilled from the permit checker's answers.

`build_blank_pdf` needs reportlab (CPython, at build time). `fill_pdf` needs only
pypdf, which is pure Python, so the same function fills the form in the browser.
Both are imported inside the functions: `import calculator` stays stdlib-only.
"""
from __future__ import annotations

import os
import tempfile
from decimal import Decimal
from pathlib import Path

from . import flow, money
from .dates import long, parse_date
from .errors import InputError
from .rules import parameter

_TRUE = {"yes", "y", "true", "on", "1", "x"}
_FALSE = {"no", "n", "false", "off", "0", ""}


# ---- the form as data -------------------------------------------------------------

def form(rules: dict) -> dict:
    return rules["application_form"]


def fee(rules: dict) -> dict:
    """The application fee, with its status (illustrative until the Clerk enters the real one)."""
    f = form(rules)["fee"]
    p = rules["parameters"][f["parameter"]]
    amount = Decimal(parameter(rules, f["parameter"]))
    status = p.get("status", "adopted")
    return {"label": f["label"], "amount": money.text(amount), "dollars": money.dollars(amount),
            "status": status, "note": f["illustrative_note"] if status == "illustrative" else None,
            "text": f["text"], "cite": f["cite"], "parameter": f["parameter"]}


def citation(rules: dict, cite: str) -> str:
    """How a citation is printed: the provision's id and heading, and its section once known."""
    for p in rules["provisions"]:
        if p["id"] == cite:
            section = f"§ {p['section']}, " if p.get("section") else ""
            return f"Law: {section}{cite} ({p['heading']})"
    return f"Law: {cite}"


def prefill(rules: dict, answers) -> dict:
    """Field values that the checker's answers give. Only answers the checker used
    count: one for a question its flow did not reach prefills nothing."""
    result = flow.evaluate(rules, answers)
    used = {a["id"]: a for a in result["answers"]}
    out: dict = {}
    for field in form(rules)["fields"]:
        source = field.get("from_answer")
        if source is None or source not in used:
            continue
        if field["type"] == "checkbox":
            out[field["name"]] = used[source]["value"] == field["checked_if"]
        else:
            out[field["name"]] = used[source]["label"]
    return out


def field_values(rules: dict, answers=(), fields: dict | None = None) -> dict:
    """The values to write: the checker's prefill, then the fields a person typed
    (which win). Text as str, checkboxes as bool, dates written out in words."""
    by_name = {f["name"]: f for f in form(rules)["fields"]}
    values = prefill(rules, answers)
    for name, raw in (fields or {}).items():
        field = by_name.get(name)
        if field is None:
            raise InputError(f"Unknown field {name!r}. The fields are: {', '.join(by_name)}.", "field")
        raw = "" if raw is None else str(raw)
        if field["type"] == "checkbox":
            word = raw.strip().lower()
            if word not in _TRUE | _FALSE:
                raise InputError(f"Field {name!r} is a checkbox; give yes or no, not {raw!r}.", name)
            values[name] = word in _TRUE
        elif field["type"] == "date":
            values[name] = long(parse_date(raw, f"The date in field {name!r}")) if raw.strip() else ""
        else:
            values[name] = raw.strip() if field["type"] == "text" else raw.strip("\n")
    return values


def parse_field_words(words) -> dict:
    """["owner-name=Jane Doe"] -> {"owner-name": "Jane Doe"}."""
    out = {}
    for word in words or []:
        name, sep, value = str(word).partition("=")
        if not sep or not name.strip():
            raise InputError(f"Field {word!r} is not in the form NAME=VALUE; write it like owner-name=Jane Doe.", "field")
        out[name.strip()] = value.replace("\\n", "\n")
    return out


# ---- writing files ----------------------------------------------------------------

def _atomic(dst: Path, write) -> None:
    """Write through a temporary file beside dst, then move it into place."""
    dst = Path(dst)
    fd, tmp = tempfile.mkstemp(prefix=f".{dst.name}.", suffix=".tmp", dir=dst.parent)
    os.close(fd)
    try:
        write(tmp)
        os.replace(tmp, dst)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


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

    _atomic(Path(path), draw)
    return Path(path)


# ---- filling it (pypdf only) ------------------------------------------------------

def fill_pdf(rules: dict, answers, fields: dict | None, src, dst) -> dict:
    """Fill the blank application at src from the checker's answers and the typed
    fields, and write it to dst. Returns the values written (checkboxes as bool)."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import NameObject

    values = field_values(rules, answers, fields)
    reader = PdfReader(str(src))
    writer = PdfWriter(clone_from=reader)
    present = set(writer.get_fields() or {})
    missing = [f["name"] for f in form(rules)["fields"] if f["name"] not in present]
    if missing:
        raise ValueError(f"The blank form {src} lacks the fields {', '.join(missing)}; "
                         f"rebuild it from rules/application-form.yaml.")
    kinds = {f["name"]: f["type"] for f in form(rules)["fields"]}
    for page in writer.pages:
        texts, boxes = {}, {}
        for ref in page.get("/Annots") or []:
            annot = ref.get_object()
            name = annot.get("/T")
            if name not in values:
                continue
            if kinds[name] == "checkbox":
                boxes[name] = (annot, values[name])
            else:
                texts[name] = values[name]
        if texts:
            writer.update_page_form_field_values(page, texts, auto_regenerate=False)
        for name, (annot, on) in boxes.items():
            states = [k for k in annot["/AP"]["/N"].keys() if k != "/Off"]
            state = NameObject(states[0] if on and states else "/Off")
            annot[NameObject("/V")] = state
            annot[NameObject("/AS")] = state
    writer.set_need_appearances_writer(True)

    def write(tmp: str) -> None:
        with open(tmp, "wb") as out:
            writer.write(out)

    _atomic(Path(dst), write)
    return values


def write_application(rules: dict, answers, fields: dict | None, output) -> dict:
    """For the command line: build the blank form, fill it, write it to output."""
    output = Path(output)
    if output.suffix.lower() != ".pdf":
        raise InputError(f"The output file {str(output)!r} must end in .pdf, like application.pdf.", "output")
    if not output.parent.is_dir():
        raise InputError(f"The folder {str(output.parent)!r} does not exist; create it or choose another path.",
                         "output")
    checked = flow.evaluate(rules, answers)
    with tempfile.TemporaryDirectory() as tmp:
        blank = build_blank_pdf(rules, Path(tmp) / "blank.pdf")
        values = fill_pdf(rules, answers, fields, blank, output)
    notices = []
    if checked["outcome"] == "prohibited":
        notices.append("The checker found that the work, as described, is not allowed; "
                       "the Sewer Inspector cannot permit it as it stands.")
    elif checked["outcome"] is None:
        notices.append("The checker's questions are not all answered, so the form is only partly prefilled.")
    if fee(rules)["note"]:
        notices.append(fee(rules)["note"])
    return {"command": "application", "output": str(output), "fields": values,
            "outcome": checked["outcome"], "ignored": checked["ignored"], "notices": notices}
