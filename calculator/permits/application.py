"""The permit application (permits.A) as a fillable PDF: made from
rules/application-form.yaml, prefilled from the permit checker's answers.

The blank form is made by the kit (kit/documents/application_pdf.py: the web page's HTML as a tagged
PDF/UA-1 form with WeasyPrint, CPython).
`fill_pdf` needs only pypdf, which is pure Python, so the same function fills the
form in the browser; it is imported inside the function, so `import calculator`
stays stdlib-only.
"""
from __future__ import annotations

import io
import tempfile
from contextlib import contextmanager
from decimal import Decimal
from pathlib import Path

from ..core import law, money
from . import flow
from ..core.dates import long, read_date, typed
from ..core.errors import InputError
from ..core.files import in_a_repository, project_folder, what_is_at, write_atomic
from ..core.i18n import N_, _, lang, small_first
from ..core.providers import NotProvided, provided
from ..core.rules import parameter

_YES = {"yes", "y", "true", "on", "1", "x", "sí", "si"}
_NO = {"no", "n", "false", "off", "0"}
_NA = {"na", "n/a", "not applicable", "no aplica", "no corresponde"}  # a yes-no field's third box, where it has one


# ---- the form as data -------------------------------------------------------------

def form(rules: dict) -> dict:
    return rules["application_form"]


fee = flow.fee  # (the fee is the checker's too: flow.py has it, so neither module imports the other back)


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
        if field.get("from_outcome"):
            if result["outcome"]:
                out[field["name"]] = outcome_words(result)
            continue
        source = field.get("from_answer")
        na = field.get("not_applicable")
        # the question does not apply to this work, as the answers on the way say (issue 34: the oil-separator
        # and trade-waste questions stayed blank, and a "no" looked like owning up to a violation)
        if na and flow.holds(rules, na["when"], {a: u["value"] for a, u in used.items()}) and source not in used:
            out[field["name"]] = "na"
            continue
        if source is None or source not in used:
            continue
        if field["type"] == "yes-no":
            # only a yes or a no ticks a box: another answer (a business's own sewage, to the
            # industrial-waste question) is the person's to say on the form
            if used[source]["value"] in ("yes", "no"):
                out[field["name"]] = used[source]["value"]
        else:
            out[field["name"]] = used[source]["label"]
    return out


#: the checker's finding, left out where the form's answers differ from the checker's (field_values)
ANSWERS_CHANGED = N_("YOUR ANSWERS CHANGED: on this form, the answer to {questions} differs from your answer to "
                     "the permit checker, so the checker's finding is not printed here. Check the work again with the permit "
                     "checker on the Town's sewer website, with these answers, before you file this form.")


def changed_answers(by_name: dict, prefilled: dict, values: dict) -> list[str]:
    """The labels of the fields the checker's answers filled in (yes or no) that now say otherwise."""
    return [field["label"] for name, field in by_name.items()
            if field.get("from_answer") and field["type"] == "yes-no" and prefilled.get(name) in ("yes", "no")
            and values.get(name) != prefilled[name]]


def outcome_words(result: dict) -> str:
    """What the checker found, for the form's top: a plain warning when the work is not allowed."""
    if result["outcome"] == "prohibited" and result["outcome_detail"].get("by_reading"):
        # not "cannot permit" where only this site's reading says no (the usability test, Tony)
        # the disputed part named, for the Sewer Inspector to decide: the form is offered filled in for it too
        # (the outside usability test public9, Tony: no filled form, so the part could not go to the Inspector)
        items = [v["item"] for v in result["verdicts"] if v.get("outcome") == "prohibited" and "item" in v]
        return _("FOR THE SEWER INSPECTOR TO DECIDE: {items}. As this site reads the law, this is not allowed. "
                 "The law's words are not clear, and the Town has not adopted this reading.").format(
                     items="; ".join(items))
    if result["outcome"] == "prohibited":
        return _("WARNING: NOT ALLOWED. The permit checker found that the work, as described, is not allowed. The "
                 "Sewer Inspector cannot permit it as it stands. Change the plan, then check it again.")
    return _("{title}.").format(title=result["outcome_detail"]["title"])


def field_values(rules: dict, answers=(), fields: dict | None = None, read: dict | None = None) -> dict:
    """The values to write: the checker's prefill, then the fields a person typed
    (which win). Text as str, a yes-no field as "yes", "no", "na" (not applicable, where it has
    that box) or "" (not answered), dates written out in words. A date is read by the estimator's
    reader (dates.read_date: the page's order, month/day/year in English, day/month/year in Spanish);
    how a slashed one was read ("We read 12/6/2026 as December 6, 2026.") goes into `read`, by field."""
    by_name = {f["name"]: f for f in form(rules)["fields"]}
    values = prefill(rules, answers)
    prefilled = dict(values)
    for name, raw in (fields or {}).items():
        field = by_name.get(name)
        if field is None:
            raise InputError(_("Unknown field {field}. The fields are: {fields}.").format(
                field=typed(name), fields=", ".join(by_name)), "field")
        raw = "" if raw is None else str(raw)
        if field["type"] == "yes-no":
            word = raw.strip().lower()
            na = "not_applicable" in field
            if word and word not in _YES | _NO | (_NA if na else set()):
                if na:
                    raise InputError(_("Field {field} is answered yes, no or not applicable; give yes, no or na, "
                                       "not {value}.").format(field=repr(name), value=repr(raw)), name)
                raise InputError(_("Field {field} is answered yes or no; give yes or no, not {value}.").format(
                    field=typed(name), value=typed(raw)), name)
            values[name] = "yes" if word in _YES else "no" if word in _NO else "na" if word in _NA else ""
        elif field["type"] == "date":
            # named by its label, as the form shows it (issue 33: the Spanish error showed 'signature-date')
            # the label as words of the sentence: "The date signed, “31/2/2027”, does not exist", «La fecha de la
            # firma, …» (spanish15 #13: «La fecha de «Fecha de la firma»»)
            what = _("The {date_label}").format(date_label=small_first(field["label"]))
            if raw.strip():
                try:
                    day, note = read_date(raw, what)
                except InputError as exc:
                    # named by its field, so the web form shows it at the box (the usability test, Tony: the
                    # error was only beside the download button)
                    # with the date it asks about, which the web form offers as a button (public11, T5)
                    raise InputError(str(exc), name, getattr(exc, "suggest", None)) from None
                values[name] = long(day)
                if note and read is not None:
                    read[name] = note
            else:
                values[name] = ""
        else:
            values[name] = raw.strip() if field["type"] == "text" else raw.strip("\n")
    # an answer to a checker question changed on the form: the checker's finding printed at the top would be for
    # other answers (the usability test residents30, Tony: "sump pump: No" on page 4 under "FOR THE SEWER INSPECTOR
    # TO DECIDE: Connecting a sump pump" on page 1). It is not printed; the form says why and what to do.
    changed = changed_answers(by_name, prefilled, values)
    if changed:
        for field in by_name.values():
            if field.get("from_outcome") and (values.get(field["name"]) or "") in ("", prefilled.get(field["name"]) or ""):
                values[field["name"]] = _(ANSWERS_CHANGED).format(questions="; ".join(map(typed, changed)))
    return values


def widget_names(field: dict) -> list[str]:
    """The PDF fields of a form field: a yes-no field is two check boxes, NAME-yes and NAME-no, and a
    third, NAME-na (not applicable), where the field has one."""
    if field["type"] != "yes-no":
        return [field["name"]]
    return [f"{field['name']}-{v}" for v in ("yes", "no", *(("na",) if "not_applicable" in field else ()))]


def answered(values: dict) -> list[str]:
    """The fields with an answer in them (a yes-no field's "no" counts: it is an answer)."""
    return [name for name, value in values.items() if value not in ("", None)]


def parse_field_words(words) -> dict:
    """["owner-name=Jane Doe"] -> {"owner-name": "Jane Doe"}."""
    out = {}
    for word in words or []:
        name, sep, value = str(word).partition("=")
        if not sep or not name.strip():
            raise InputError(_("Field {field} is not in the form NAME=VALUE; write it like "
                               "owner-name=\"Jane Doe\".").format(field=typed(word)), "field")
        if name.strip() in out:  # the last would win without a word (the third hostile tester)
            raise InputError(_("Field {field} is given twice. Give it once.").format(field=name.strip()), "field")
        out[name.strip()] = value.replace("\\n", "\n")
    return out


# ---- filling it (pypdf only) ------------------------------------------------------

def fill_pdf(rules: dict, answers, fields: dict | None, src, dst, read: dict | None = None) -> dict:
    """Fill the blank application at src from the checker's answers and the typed
    fields, and write it to dst. Returns the values written (a yes-no field as "yes", "no" or "");
    how a slashed date was read goes into `read` (field_values)."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import NameObject

    values = field_values(rules, answers, fields, read)
    reader = PdfReader(str(src))
    writer = PdfWriter(clone_from=reader)
    present = set(writer.get_fields() or {})
    missing = [w for f in form(rules)["fields"] for w in widget_names(f) if w not in present]
    if missing:
        raise ValueError(f"The blank form {src} lacks the fields {', '.join(missing)}; "
                         f"rebuild it from rules/application-form.yaml.")
    # each yes-no field's boxes: NAME-yes ticked for "yes", NAME-no for "no", NAME-na for "na", none for ""
    ticks = {w: values[f["name"]] == w.rsplit("-", 1)[1] for f in form(rules)["fields"]
             if f["type"] == "yes-no" and f["name"] in values for w in widget_names(f)}
    for page in writer.pages:
        texts, boxes = {}, {}
        for ref in page.get("/Annots") or []:
            annot = ref.get_object()
            name = annot.get("/T")
            if name in ticks:
                boxes[name] = (annot, ticks[name])
            elif name in values:
                texts[name] = values[name]
        if texts:
            with _words_measured_as_drawn():
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


@contextmanager
def _words_measured_as_drawn():
    """pypdf (7.1) wraps a multiline field's words by the widths of their characters' codes, but a
    composite font's widths are by glyph: the form's Liberation Sans measured "FOR THE SEWER INSPECTOR…"
    about 8% narrower than it is drawn, and each filled line ran past the box ("yard drain or" was cut to
    "yard dr"; the usability tester public12, T1). While a form is filled, each word is measured by the
    glyphs it is drawn with, as pypdf already measures a one-line field."""
    try:  # pypdf's own module: another version lays out as it does
        from pypdf.generic._appearance_stream import TEXT_SPACE_TO_GLYPH_SPACE_FACTOR as UNITS
        from pypdf.generic._appearance_stream import TextStreamAppearance, WidthWordGlyphs
    except ImportError:
        yield
        return

    scale = TextStreamAppearance._scale_text

    def measured(self, font, font_size, leading_factor, field_width, field_height, paragraphs, *rest, **named):
        paragraphs = [[WidthWordGlyphs(width=font.get_text_width(w.glyphs) / UNITS, word=w.word, glyphs=w.glyphs)
                       for w in paragraph] for paragraph in paragraphs]
        return scale(self, font, font_size, leading_factor, field_width, field_height, paragraphs, *rest, **named)

    TextStreamAppearance._scale_text = measured
    try:
        yield
    finally:
        TextStreamAppearance._scale_text = scale


def values_only(rules: dict, answers, fields: dict | None) -> dict:
    """What the form would be filled with, without writing it: for the web form, which the
    checker's answers fill in before the person types the rest (pypdf is not needed)."""
    checked = flow.evaluate(rules, answers)
    read: dict = {}
    values = field_values(rules, answers, fields, read)
    return {"command": "application", "fields": values, "answered": answered(values), "read": read,
            "outcome": checked["outcome"], "plans": checked["plans"], "ignored": checked["ignored"],
            "ignored_note": checked["ignored_note"]}


def write_application(rules: dict, answers, fields: dict | None, output, blank=None, force: bool = False) -> dict:
    """For the command line and the browser: fill the blank form (the file `blank`, or one
    drawn now by the kit's "blank-application" provider in CPython) and write it to output.
    A file already at output is replaced only with `force` (the hostile tester: `--output` wrote over
    the site's own blank form), and never one in the project's site/, docs/ or rules/."""
    output = Path(output)
    if output.suffix.lower() != ".pdf":
        raise InputError(_("The output file {file} must end in .pdf, like application.pdf.").format(
            file=typed(str(output))), "output")
    folder = project_folder(output)
    if folder is not None:
        raise InputError(_("{file} is in the project's {folder}/ folder, which the website is made from: a filled "
                           "application is never written there, even with `--force`. Choose a folder outside the "
                           "project, like your Documents folder.").format(file=typed(str(output)), folder=folder),
                         "output")
    # anywhere else in the project, or in another git work tree, it is one `git add` from a repository that is
    # pushed (the twelfth hostile tester, F11: kit/app.pdf with an owner's name was committed and built)
    where = in_a_repository(output)
    if where is not None:
        raise InputError(_("{file} is inside the git repository {repository}: a filled application holds a person's "
                           "name and address, and is never written where `git add` would take it. Choose a folder "
                           "outside it, like your Documents folder.").format(
                               file=typed(str(output)), repository=typed(where[1])), "output")
    if not output.parent.is_dir():
        raise InputError(_("The folder {folder} does not exist; create it or choose another path.").format(
            folder=typed(str(output.parent))), "output")
    if output.is_dir():
        raise InputError(_("{file} is a folder. Give the name of a file to write, like application.pdf.").format(
            file=typed(str(output))), "output")
    if output.exists() and not output.is_file():  # a device or a pipe, or a link to one: said as the bill runs say it
        raise InputError(_("{file} is not a file: it is {kind}. Give the name of a file to write, like "
                           "application.pdf.").format(file=typed(str(output)), kind=what_is_at(output)), "output")
    if output.exists() and not force:
        raise InputError(_("The file {file} already exists, and nothing was written over it. Choose another name, "
                           "or add `--force` to replace that file.").format(file=typed(str(output))), "output")
    checked = flow.evaluate(rules, answers)
    read: dict = {}
    if blank is not None:
        if Path(blank).exists() and not Path(blank).is_file():  # (the thirtieth hostile tester, F5: /dev/zero
            # was said not to exist)
            raise InputError(_("The blank application {file} is {kind}. Give the path of the file "
                               "permit/application.pdf from the built site.").format(
                                   file=typed(str(blank)), kind=what_is_at(blank)),
                             "blank")
        if not Path(blank).is_file():
            raise InputError(_("The blank application {file} does not exist; give the path of "
                               "permit/application.pdf from the built site.").format(file=typed(str(blank))), "blank")
        with open(blank, "rb") as f:
            is_pdf = f.read(5) == b"%PDF-"
        if not is_pdf:
            raise InputError(_("The blank application {file} is not a PDF; give the path of permit/application.pdf "
                               "from the built site.").format(file=typed(str(blank))), "blank")
        values = fill_pdf(rules, answers, fields, blank, output, read)
    else:
        try:
            draw = provided("blank-application")
        except NotProvided as exc:
            raise InputError(_("{problem} Or give `--blank` with the site's permit/application.pdf.").format(
                problem=exc), "blank") from None
        with tempfile.TemporaryDirectory() as tmp:
            # drawn in the answer's language, and tagged so (spanish17: a Spanish form tagged en-US was read
            # aloud in an English voice)
            values = fill_pdf(rules, answers, fields, draw(rules, Path(tmp) / "blank.pdf", f"{lang()}-US"), output,
                              read)
    # a slashed date said back in words, so a reader who meant the other order sees it
    notices = list(read.values())
    changed = changed_answers({f["name"]: f for f in form(rules)["fields"]}, prefill(rules, answers), values)
    if changed:
        notices.append(_("On the form, the answer to {questions} differs from your answer to the permit checker, so "
                         "the checker's finding is left out. Check the work again with the permit checker.").format(
            questions="; ".join(map(typed, changed))))
    elif checked["outcome"] == "prohibited" and checked["outcome_detail"].get("by_reading"):
        notices.append(_("The checker found that the work, as described, is not allowed, as this site reads the law; "
                         "ask the Sewer Inspector before you do that part of the work."))
    elif checked["outcome"] == "prohibited":
        notices.append(_("The checker found that the work, as described, is not allowed; "
                         "the Sewer Inspector cannot permit it as it stands."))
    elif checked["outcome"] is None:
        notices.append(_("The checker's questions are not all answered, so the form is only partly prefilled."))
    if fee(rules)["note"]:
        notices.append(fee(rules)["note"])
    return {"command": "application", "output": str(output), "written": [str(output)], "fields": values,
            "answered": answered(values), "read": read,
            "outcome": checked["outcome"], "plans": checked["plans"], "ignored": checked["ignored"],
            "ignored_note": checked["ignored_note"], "notices": notices}
