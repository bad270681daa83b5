"""The permit application (permits.A) as a fillable PDF: made from
rules/application-form.yaml, prefilled from the permit checker's answers.

The blank form is made by the kit (kit/application_pdf.py: the web page's HTML as a tagged
PDF/UA-1 form with WeasyPrint, CPython).
`fill_pdf` needs only pypdf, which is pure Python, so the same function fills the
form in the browser; it is imported inside the function, so `import calculator`
stays stdlib-only.
"""
from __future__ import annotations

import io
import tempfile
from decimal import Decimal
from pathlib import Path

from . import flow, law, money
from .dates import long, parse_date
from .errors import InputError
from .files import write_atomic
from .i18n import _
from .providers import NotProvided, provided
from .rules import parameter

_TRUE = {"yes", "y", "true", "on", "1", "x", "sí", "si"}
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
    """How the form prints a citation: "Law: " and the provision in words (law.citation)."""
    return _("Law: {provision}").format(provision=law.citation(rules, cite))


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
            raise InputError(_("Unknown field {field}. The fields are: {fields}.").format(
                field=repr(name), fields=", ".join(by_name)), "field")
        raw = "" if raw is None else str(raw)
        if field["type"] == "checkbox":
            word = raw.strip().lower()
            if word not in _TRUE | _FALSE:
                raise InputError(_("Field {field} is a checkbox; give yes or no, not {value}.").format(
                    field=repr(name), value=repr(raw)), name)
            values[name] = word in _TRUE
        elif field["type"] == "date":
            what = _("The date in field {field}").format(field=repr(name))
            values[name] = long(parse_date(raw, what)) if raw.strip() else ""
        else:
            values[name] = raw.strip() if field["type"] == "text" else raw.strip("\n")
    return values


def parse_field_words(words) -> dict:
    """["owner-name=Jane Doe"] -> {"owner-name": "Jane Doe"}."""
    out = {}
    for word in words or []:
        name, sep, value = str(word).partition("=")
        if not sep or not name.strip():
            raise InputError(_("Field {field} is not in the form NAME=VALUE; write it like owner-name=Jane "
                               "Doe.").format(field=repr(word)), "field")
        out[name.strip()] = value.replace("\\n", "\n")
    return out


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
    # pypdf has drawn each filled text field (wrapping multiline ones) and every check box
    # brings its own on and off appearances: a viewer told to redraw them (NeedAppearances)
    # would draw check boxes from a ZapfDingbats font the tagged PDF must not carry, and
    # poppler (Evince, Okular, pdftoppm) then shows a ticked box empty.
    writer.set_need_appearances_writer(False)
    out = io.BytesIO()
    writer.write(out)
    write_atomic(dst, out.getvalue())
    return values


def write_application(rules: dict, answers, fields: dict | None, output, blank=None) -> dict:
    """For the command line and the browser: fill the blank form (the file `blank`, or one
    drawn now by the kit's "blank-application" provider in CPython) and write it to output."""
    output = Path(output)
    if output.suffix.lower() != ".pdf":
        raise InputError(_("The output file {file} must end in .pdf, like application.pdf.").format(
            file=repr(str(output))), "output")
    if not output.parent.is_dir():
        raise InputError(_("The folder {folder} does not exist; create it or choose another path.").format(
            folder=repr(str(output.parent))), "output")
    checked = flow.evaluate(rules, answers)
    if blank is not None:
        if not Path(blank).is_file():
            raise InputError(_("The blank application {file} does not exist; give the path of "
                               "permit/application.pdf from the built site.").format(file=repr(str(blank))), "blank")
        values = fill_pdf(rules, answers, fields, blank, output)
    else:
        try:
            draw = provided("blank-application")
        except NotProvided as exc:
            raise InputError(_("{problem} Or give --blank with the site's permit/application.pdf.").format(
                problem=exc), "blank") from None
        with tempfile.TemporaryDirectory() as tmp:
            values = fill_pdf(rules, answers, fields, draw(rules, Path(tmp) / "blank.pdf"), output)
    notices = []
    if checked["outcome"] == "prohibited":
        notices.append(_("The checker found that the work, as described, is not allowed; "
                         "the Sewer Inspector cannot permit it as it stands."))
    elif checked["outcome"] is None:
        notices.append(_("The checker's questions are not all answered, so the form is only partly prefilled."))
    if fee(rules)["note"]:
        notices.append(fee(rules)["note"])
    return {"command": "application", "output": str(output), "written": [str(output)], "fields": values,
            "outcome": checked["outcome"], "ignored": checked["ignored"], "notices": notices}
