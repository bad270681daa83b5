"""HTML to a tagged PDF/UA-1 document whose form fields are in the structure tree.

Used for the permit application form and the public notices (WCAG 2.1 AA and
PDF/UA-1 by April 2028).

WeasyPrint 70 does most of the work with ``pdf_variant="pdf/ua-1"`` and
``pdf_forms=True``: a structure tree (H1.., P, L/LI/Lbl/LBody, Table/TR/TH/TD
with TD /Headers), /MarkInfo, catalog /Lang from ``<html lang>``,
/DisplayDocTitle, XMP ``pdfuaid:part=1`` and dc:title, /Tabs /S, and for every
widget a ``Form`` structure element with an OBJR kid, a /StructParent and a
ParentTree entry, a /TU taken from the field's <label>, and check boxes drawn
as vector paths. :func:`finish_pdf` then uses pikepdf to enforce, not assume,
what PDF/UA-1 needs, because the callers (the Clerk's desk, the site build)
must not depend on which WeasyPrint release happens to be installed:

* /TU follows the HTML accessible-name order (aria-labelledby, aria-label,
  <label>, title, placeholder; a radio group's <legend>). WeasyPrint ignores
  ARIA and only finds labels inside the same <form>.
* every widget is an OBJR under a ``Form`` element with /Pg, its /StructParent
  resolves through the ParentTree to that element, and /ParentTreeNextKey is
  set (WeasyPrint leaves it out);
* every /TH gets a /Scope (WeasyPrint gives only the /TD cells /Headers;
  pdfua's table rule looks at the header cells);
* check boxes never depend on an un-embedded ZapfDingbats font;
* the catalog /Lang, /Info /Title and XMP dc:title are the caller's;
* the same input gives the same bytes (fixed dates, deterministic /ID);
* /Annots holds no broken reference (WeasyPrint 70 writes `None 0 R` for a
  submit button in a <form> with no action);
* a control with the HTML ``required`` attribute has the Required field flag,
  and a check box's on state is named by its ``value`` (``Yes`` without one;
  WeasyPrint 70 flags nothing and names every on state ``on``).
"""

from __future__ import annotations

import io
import os
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator
from datetime import datetime, timezone
from xml.etree.ElementTree import Element

import pikepdf
from pikepdf import Array, Dictionary, Name, NumberTree, String

#: Written as the creation and modification date when SOURCE_DATE_EPOCH is not
#: set: any clock-derived date would make two builds of one notice differ.
FIXED_DATE = datetime(2000, 1, 1, tzinfo=timezone.utc)

# Form controls that become AcroForm fields, and input types that do not
# (or that are buttons, whose name is their own text).
_CONTROL_TAGS = {"input", "textarea", "select"}
_NOT_FIELD_TYPES = {"hidden", "submit", "reset", "button", "image"}
# Field flag bit 17 (value 1 << 16) marks a push button (ISO 32000-1 Table 226).
_PUSHBUTTON_FLAG = 1 << 16


# --------------------------------------------------------------- entry point


def html_to_pdf(
    html: str,
    *,
    title: str,
    lang: str = "en-US",
    base_url: str | None = None,
    stylesheets: Iterable = (),
) -> bytes:
    """Render ``html`` as a tagged PDF/UA-1 document with fillable fields.

    ``title`` becomes the document title (Info and XMP); ``lang`` the catalog
    language, whatever ``<html lang>`` says. ``stylesheets`` are passed to
    WeasyPrint (``weasyprint.CSS`` objects or file names).
    """
    from weasyprint import HTML  # imported here: it loads Pango on import

    _tag_languages()
    _remember_page_references()
    document = HTML(string=html, base_url=base_url)
    names = accessible_names(document.etree_element)
    required, on_states = field_states(document.etree_element)
    rendered = document.write_pdf(
        pdf_variant="pdf/ua-1",
        pdf_forms=True,
        stylesheets=list(stylesheets) or None,
    )
    return finish_pdf(
        rendered, title=title, lang=lang, field_names=names, required=required, on_states=on_states
    )


def _tag_languages() -> None:
    """An element in another language than the document's (``<span lang="en">`` on a Spanish
    notice or bill: the law's English) gets /Lang on its structure element, so a screen reader
    reads it in that language (PDF/UA-1 7.2, WCAG 3.1.2). WeasyPrint 70 tags a span (/Span) but
    writes no /Lang below the catalog; this wraps its structure builder, once per process."""
    from weasyprint.pdf import tags
    if getattr(tags._build_box_tree, "with_languages", False):
        return
    import pydyf
    build = tags._build_box_tree

    def with_languages(box, parent, *args):
        element = getattr(box, "element", None)
        lang = None if element is None or box.element_tag in ("html", "body") else element.get("lang")
        for made in build(box, parent, *args):
            if lang and made is not parent and "Lang" not in made:
                made["Lang"] = pydyf.String(lang)
            yield made
    with_languages.with_languages = True
    tags._build_box_tree = with_languages


def _remember_page_references() -> None:
    """WeasyPrint's tagging asks pydyf for the page list (`page_references`) once for each tagged
    element, and pydyf builds the whole list each time: with a document of many pages (the quarterly
    bills) that work grows with the square of the pages. The list is kept until a page is added, so
    the PDF is byte for byte the same, sooner."""
    import pydyf
    if getattr(pydyf.PDF, "_pawling_remembers", False):
        return

    def page_references(self):
        kids = self.pages["Kids"]
        known = self.__dict__.get("_pawling_page_references")
        if known is None or known[0] != len(kids):
            known = (len(kids), tuple(f"{number} 0 R".encode("ascii") for number in kids[::3]))
            self.__dict__["_pawling_page_references"] = known
        return known[1]
    pydyf.PDF.page_references = property(page_references)
    pydyf.PDF._pawling_remembers = True


def finish_pdf(
    data: bytes,
    *,
    title: str,
    lang: str,
    field_names: dict[str, str] | None = None,
    required: Iterable[str] = (),
    on_states: dict[str, str] | None = None,
) -> bytes:
    """Post-process WeasyPrint's PDF/UA-1 output; see the module docstring.

    ``field_names`` maps a field's /T (the HTML ``name``) to its accessible
    name; ``required`` names the fields to flag Required; ``on_states`` maps a
    check box's /T to the name of its on state. Raises ValueError if a field
    still has no /TU afterwards, or if the document has no structure tree (it
    was not rendered as PDF/UA).
    """
    with pikepdf.open(io.BytesIO(data)) as pdf:
        if "/StructTreeRoot" not in pdf.Root:
            raise ValueError("not a tagged PDF: render with pdf_variant='pdf/ua-1'")
        _drop_broken_annotation_refs(pdf)
        _set_document_metadata(pdf, title=title, lang=lang, when=build_date())
        _set_field_names(pdf, field_names or {})
        _set_field_states(pdf, set(required), on_states or {})
        _tag_widgets(pdf)
        _scope_table_headers(pdf)
        _replace_zapf_checkboxes(pdf)
        for page in pdf.pages:
            # PDF/UA-1 7.18.3: tab order follows the structure on pages with
            # annotations; harmless on the others.
            page.obj.Tabs = Name.S
        out = io.BytesIO()
        pdf.save(out, deterministic_id=True)
        return out.getvalue()


def build_date() -> datetime:
    """SOURCE_DATE_EPOCH (reproducible-builds convention) or :data:`FIXED_DATE`."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch:
        return datetime.fromtimestamp(int(epoch), tz=timezone.utc)
    return FIXED_DATE


# ------------------------------------------------------- document metadata


def _set_document_metadata(pdf: pikepdf.Pdf, *, title: str, lang: str, when: datetime) -> None:
    """Catalog flags, Info and XMP that PDF/UA-1 7.1 and clause 5 ask for."""
    root = pdf.Root
    root.Lang = String(lang)
    root.MarkInfo = _merged(root.get("/MarkInfo"), Marked=True)
    root.ViewerPreferences = _merged(root.get("/ViewerPreferences"), DisplayDocTitle=True)

    pdf_date = when.strftime("D:%Y%m%d%H%M%S+00'00'")
    pdf.docinfo.Title = String(title)
    pdf.docinfo.CreationDate = String(pdf_date)
    pdf.docinfo.ModDate = String(pdf_date)

    # set_pikepdf_as_editor=False: otherwise pikepdf stamps "now" into
    # xmp:MetadataDate and the bytes change on every run.
    xmp_date = when.strftime("%Y-%m-%dT%H:%M:%S+00:00")
    with pdf.open_metadata(set_pikepdf_as_editor=False, update_docinfo=False) as meta:
        meta["dc:title"] = title
        meta["dc:language"] = [lang]
        meta["pdfuaid:part"] = "1"
        meta["xmp:CreateDate"] = xmp_date
        meta["xmp:ModifyDate"] = xmp_date
        meta["xmp:MetadataDate"] = xmp_date


def _merged(existing: object, **entries: object) -> Dictionary:
    """``existing`` (a dictionary or nothing) with ``entries`` set."""
    merged = Dictionary(existing) if isinstance(existing, Dictionary) else Dictionary()
    for key, value in entries.items():
        merged[Name("/" + key)] = value
    return merged


# -------------------------------------------------------- accessible names


def accessible_names(root: Element) -> dict[str, str]:
    """Map each form control's ``name`` to its accessible name.

    A simplified HTML-AAM/accname order: aria-labelledby, aria-label, the
    <label for=id> or enclosing <label>, title, placeholder. Controls sharing
    a name (a radio group) are one PDF field: they take their <fieldset>'s
    <legend>. Controls with no name are left out (they cannot be prefilled).
    """
    parents = {child: parent for parent in root.iter() for child in parent}
    by_id = {el.get("id"): el for el in root.iter() if el.get("id")}
    label_for: dict[str, Element] = {}
    for label in root.iter("label"):
        label_for.setdefault(label.get("for") or "", label)

    groups: dict[str, list[Element]] = defaultdict(list)
    for el in root.iter():
        if el.tag in _CONTROL_TAGS and el.get("name") and _is_field(el):
            groups[el.get("name")].append(el)

    names = {}
    for field_name, controls in groups.items():
        if len(controls) == 1:
            name = _control_name(controls[0], parents, by_id, label_for)
        else:
            name = _legend_text(controls[0], parents)
        if name:
            # a tooltip has one language: the English glossed in a Spanish label is left out of it, as a screen
            # reader would say it in Spanish sounds (spanish13, E-1: «(en inglés, “tax map number”)»)
            names[field_name] = re.sub(r"\s*\(en inglés, “[^”]*”\)", "", name)
    return names


def field_states(root: Element) -> tuple[set[str], dict[str, str]]:
    """The names of the required controls, and each check box's on state
    (its ``value``, or ``Yes`` as WeasyPrint and PDF 2.0 name it)."""
    required, on_states = set(), {}
    for el in root.iter():
        name = el.get("name")
        if el.tag not in _CONTROL_TAGS or not name or not _is_field(el):
            continue
        if el.get("required") is not None:
            required.add(name)
        if el.tag == "input" and (el.get("type") or "").lower() == "checkbox":
            on_states[name] = el.get("value") or "Yes"
    return required, on_states


def _is_field(el: Element) -> bool:
    return el.tag != "input" or (el.get("type") or "text").lower() not in _NOT_FIELD_TYPES


def _control_name(el, parents, by_id, label_for) -> str:
    if ids := (el.get("aria-labelledby") or "").split():
        text = " ".join(_text(by_id[i]) for i in ids if i in by_id)
        if text.strip():
            return _squash(text)
    for candidate in (
        el.get("aria-label"),
        _text(label_for[el.get("id")]) if el.get("id") in label_for else None,
        _text(_ancestor(el, parents, "label")),
        el.get("title"),
        el.get("placeholder"),
    ):
        if candidate and candidate.strip():
            return _squash(candidate)
    return ""


def _legend_text(el: Element, parents: dict) -> str:
    fieldset = _ancestor(el, parents, "fieldset")
    legend = fieldset.find("legend") if fieldset is not None else None
    return _text(legend)


def _ancestor(el: Element, parents: dict, tag: str) -> Element | None:
    while (el := parents.get(el)) is not None:
        if el.tag == tag:
            return el
    return None


def _text(el: Element | None) -> str:
    """Visible text of ``el``, leaving out the text of nested controls."""
    if el is None:
        return ""
    parts = [el.text or ""] if el.tag not in ("textarea", "select") else []
    for child in el:
        parts.append(_text(child))
        parts.append(child.tail or "")
    return _squash("".join(parts))


def _squash(text: str) -> str:
    return " ".join(text.split())


# ------------------------------------------------------------ form fields


def _drop_broken_annotation_refs(pdf: pikepdf.Pdf) -> None:
    """Keep only dictionaries in each page's /Annots.

    WeasyPrint 70 appends the reference of a submit button it did not write
    (a <form> with no action) as the tokens ``None 0 R``, which readers and
    pypdf choke on.
    """
    for page in pdf.pages:
        if "/Annots" in page.obj:
            annots = [a for a in page.obj.Annots if isinstance(a, Dictionary)]
            page.obj.Annots = Array(annots)


def _widgets(pdf: pikepdf.Pdf) -> Iterator[tuple[pikepdf.Page, Dictionary]]:
    for page in pdf.pages:
        for annot in page.obj.get("/Annots", Array()):
            if annot.get("/Subtype") == Name.Widget:
                yield page, annot


def field_of(widget: Dictionary) -> Dictionary:
    """The terminal field holding /T: the widget itself, or a radio group."""
    node = widget
    while "/T" not in node and isinstance(node.get("/Parent"), Dictionary):
        node = node.Parent
    return node


def _inherited(widget: Dictionary, key: str):
    """Inheritable field attribute (/FT, /Ff, /TU) looked up the /Parent chain."""
    node = widget
    while node is not None:
        if key in node:
            return node[key]
        node = node.get("/Parent")
    return None


def _set_field_names(pdf: pikepdf.Pdf, names: dict[str, str]) -> None:
    """Give every field a /TU (PDF/UA-1 7.18.1/7.18.4); HTML names win."""
    for _page, widget in _widgets(pdf):
        field = field_of(widget)
        name = names.get(str(field.get("/T", "")))
        if name:
            field.TU = String(name)
        if not str(_inherited(widget, "/TU") or "").strip():
            raise ValueError(f"form field {field.get('/T')!s} has no accessible name")


_REQUIRED_FLAG = 1 << 1  # field flag bit 2 (ISO 32000-1 Table 221)
_MULTILINE_FLAG = 1 << 12
_DA_SIZE = re.compile(rb"(\d+(?:\.\d+)?)(\s+Tf)")


def _set_field_states(pdf: pikepdf.Pdf, required: set[str], on_states: dict[str, str]) -> None:
    """Flag required fields; name each check box's on state as its HTML value."""
    for _page, widget in _widgets(pdf):
        field = field_of(widget)
        name = str(field.get("/T", ""))
        if name in required:
            field.Ff = int(field.get("/Ff", 0)) | _REQUIRED_FLAG
        if name in on_states and _is_checkbox(widget):
            _rename_on_state(widget, field, Name("/" + on_states[name]))
        if int(_inherited(widget, "/Ff") or 0) & _MULTILINE_FLAG and "/DA" in widget:
            # Font size 0 (auto): viewers and pypdf wrap a multiline field's text only then.
            widget.DA = String(_DA_SIZE.sub(rb"0\2", bytes(widget.DA)))
    if "/AcroForm" in pdf.Root and not any(_has_value_without_appearance(w) for _, w in _widgets(pdf)):
        # Every value is drawn (check boxes carry their own states): a viewer told to redraw
        # (NeedAppearances) would draw check boxes from a ZapfDingbats font that is not there.
        pdf.Root.AcroForm.NeedAppearances = False


def _has_value_without_appearance(widget: Dictionary) -> bool:
    value = _inherited(widget, "/V")
    return "/AP" not in widget and value is not None and str(value) not in ("", "/Off")


def _rename_on_state(widget: Dictionary, field: Dictionary, on: Name) -> None:
    for kind in widget.get("/AP", Dictionary()).values():
        if isinstance(kind, Dictionary):
            for state in [k for k in kind.keys() if k != "/Off" and k != str(on)]:
                kind[on] = kind[state]
                del kind[state]
    for holder, key in ((widget, "/AS"), (field, "/V")):
        if key in holder and holder[key] != Name.Off:
            holder[key] = on


# ------------------------------------------------------- structure tree


def _struct_kids(node: Dictionary) -> list:
    kids = node.get("/K")
    if kids is None:
        return []
    return list(kids) if isinstance(kids, Array) else [kids]


def _struct_elements(struct_root: Dictionary) -> Iterator[Dictionary]:
    """Every structure element, depth first (MCIDs and OBJRs left out)."""
    stack = list(reversed(_struct_kids(struct_root)))
    while stack:
        node = stack.pop()
        if isinstance(node, Dictionary) and node.get("/Type") not in (Name.OBJR, Name.MCR):
            yield node
            stack.extend(reversed(_struct_kids(node)))


def _objr_parents(struct_root: Dictionary) -> dict[tuple[int, int], tuple[Dictionary, Dictionary]]:
    """Annotation objgen -> (structure element, OBJR dictionary) referencing it."""
    found = {}
    for element in _struct_elements(struct_root):
        for kid in _struct_kids(element):
            if isinstance(kid, Dictionary) and kid.get("/Type") == Name.OBJR:
                found[kid.Obj.objgen] = (element, kid)
    return found


def _tag_widgets(pdf: pikepdf.Pdf) -> None:
    """Make each widget an OBJR kid of a Form element, reachable both ways.

    PDF/UA-1 7.18.4 wants widgets nested in a Form element, and 7.18.1 that
    the annotation finds its element again through /StructParent and the
    ParentTree. WeasyPrint 70 does this, next to the field's label in reading
    order; a widget it missed is appended to the document element.
    """
    struct_root = pdf.Root.StructTreeRoot
    if "/ParentTree" not in struct_root:
        struct_root.ParentTree = pdf.make_indirect(Dictionary(Nums=Array()))
    parent_tree = NumberTree(struct_root.ParentTree)
    next_key = max(parent_tree.keys(), default=-1) + 1
    tagged = _objr_parents(struct_root)

    for page, widget in _widgets(pdf):
        if widget.objgen in tagged:
            element, objr = tagged[widget.objgen]
            if "/Pg" not in objr:
                objr.Pg = page.obj
        else:
            element = _new_form_element(pdf, struct_root, page, widget)
        key = widget.get("/StructParent")
        if key is None or not _same(parent_tree.get(int(key)), element):
            widget.StructParent = next_key
            parent_tree[next_key] = element
            next_key += 1
    struct_root.ParentTreeNextKey = next_key


def _new_form_element(pdf, struct_root, page, widget) -> Dictionary:
    document = _struct_kids(struct_root)[0]
    element = pdf.make_indirect(
        Dictionary(
            Type=Name.StructElem,
            S=Name.Form,
            P=document,
            Pg=page.obj,
            K=Array([Dictionary(Type=Name.OBJR, Obj=widget, Pg=page.obj)]),
        )
    )
    if not isinstance(document.get("/K"), Array):
        document.K = Array(_struct_kids(document))
    document.K.append(element)
    return element


def _same(a, b) -> bool:
    return a is not None and b is not None and a.objgen == b.objgen != (0, 0)


def _scope_table_headers(pdf: pikepdf.Pdf) -> None:
    """Give each /TH a /Scope (PDF/UA-1 7.5: header cells are determinable).

    A header cell in a row made only of header cells heads its column; any
    other header cell heads its row.
    """
    for row in _struct_elements(pdf.Root.StructTreeRoot):
        if row.get("/S") != Name.TR:
            continue
        cells = [c for c in _struct_kids(row) if isinstance(c, Dictionary)]
        all_headers = all(c.get("/S") == Name.TH for c in cells)
        for cell in cells:
            if cell.get("/S") == Name.TH and not _has_scope(cell):
                _table_attributes(cell).Scope = Name.Column if all_headers else Name.Row


def _has_scope(cell: Dictionary) -> bool:
    attrs = cell.get("/A")
    attrs = list(attrs) if isinstance(attrs, Array) else [attrs]
    return any(isinstance(a, Dictionary) and "/Scope" in a for a in attrs)


def _table_attributes(cell: Dictionary) -> Dictionary:
    """The cell's /O /Table attribute dictionary, created if missing."""
    attrs = cell.get("/A")
    for a in list(attrs) if isinstance(attrs, Array) else [attrs]:
        if isinstance(a, Dictionary) and a.get("/O") == Name.Table:
            return a
    table = Dictionary(O=Name.Table)
    if attrs is None:
        cell.A = table
    else:
        cell.A = Array([*(attrs if isinstance(attrs, Array) else [attrs]), table])
    return table


# --------------------------------------------------------------- check boxes


def _replace_zapf_checkboxes(pdf: pikepdf.Pdf) -> None:
    """Draw check boxes as vector paths if they rely on un-embedded ZapfDingbats.

    PDF/UA-1 7.21.4.1 requires every font used to be embedded, appearance
    streams included. WeasyPrint 70 already draws the tick as a path; other
    producers (or a viewer regenerating from /DA with /NeedAppearances) use
    the standard-14 ZapfDingbats, which is never embedded.
    """
    zapf = _unembedded_zapf_names(pdf)
    if not zapf:
        return
    for _page, widget in _widgets(pdf):
        if _is_checkbox(widget) and _uses_font(widget, zapf):
            _draw_vector_checkbox(pdf, widget)
    dr_fonts = pdf.Root.AcroForm.get("/DR", Dictionary()).get("/Font", Dictionary())
    for name in zapf:
        if name in dr_fonts:
            del dr_fonts[name]


def _unembedded_zapf_names(pdf: pikepdf.Pdf) -> set[str]:
    """Resource names (/ZaDb ...) of un-embedded ZapfDingbats fonts in use."""
    dicts = []
    if "/AcroForm" in pdf.Root:
        dicts.append(pdf.Root.AcroForm.get("/DR", Dictionary()).get("/Font", Dictionary()))
    for _page, widget in _widgets(pdf):
        for stream in _appearance_streams(widget):
            dicts.append(stream.get("/Resources", Dictionary()).get("/Font", Dictionary()))
    return {
        str(key)
        for fonts in dicts
        for key, font in fonts.items()
        if "ZapfDingbats" in str(font.get("/BaseFont", "")) and not is_embedded(font)
    }


def is_embedded(font: Dictionary) -> bool:
    """True for a Type3 font or one whose descriptor carries a font file."""
    if font.get("/Subtype") == Name.Type3:
        return True
    if font.get("/Subtype") == Name.Type0:
        return all(is_embedded(d) for d in font.get("/DescendantFonts", Array()))
    descriptor = font.get("/FontDescriptor")
    return isinstance(descriptor, Dictionary) and any(
        k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")
    )


def _is_checkbox(widget: Dictionary) -> bool:
    flags = int(_inherited(widget, "/Ff") or 0)
    return _inherited(widget, "/FT") == Name.Btn and not flags & _PUSHBUTTON_FLAG


def _appearance_streams(widget: Dictionary) -> Iterator[pikepdf.Stream]:
    # /AP /N, /D, /R are each a stream, or a dictionary of streams by state.
    for kind in widget.get("/AP", Dictionary()).values():
        states = kind.values() if isinstance(kind, Dictionary) else [kind]
        yield from (s for s in states if isinstance(s, pikepdf.Stream))


def _uses_font(widget: Dictionary, names: set[str]) -> bool:
    da = str(widget.get("/DA", ""))
    if any(f"{n} " in da for n in names):
        return True
    return any(
        n in s.get("/Resources", Dictionary()).get("/Font", Dictionary())
        for s in _appearance_streams(widget)
        for n in names
    )


def _draw_vector_checkbox(pdf: pikepdf.Pdf, widget: Dictionary) -> None:
    """Replace /AP with a drawn tick (on) and an empty box (Off); drop the font."""
    x1, y1, x2, y2 = (float(v) for v in widget.Rect)
    w, h = abs(x2 - x1), abs(y2 - y1)
    normal = widget.get("/AP", Dictionary()).get("/N")
    on_states = [k for k in normal.keys() if k != "/Off"] if isinstance(normal, Dictionary) else []
    on_states = on_states or ["/Yes"]
    tick = (  # the same tick shape WeasyPrint draws
        f"q 0 g 0 {h / 2:.3f} m {w / 2:.3f} 0 l {w:.3f} {h:.3f} l "
        f"{w / 2 - w / 14:.3f} {h / 3:.3f} l h f Q"
    ).encode()
    frame = f"q 0 G 0.5 w 0.25 0.25 {w - 0.5:.3f} {h - 0.5:.3f} re S Q\n".encode()
    states = {name: _form_xobject(pdf, frame + tick, w, h) for name in on_states}
    states["/Off"] = _form_xobject(pdf, frame, w, h)
    widget.AP = Dictionary(N=Dictionary(states))
    for key in ("/DA", "/D"):
        if key in widget:
            del widget[key]
    if "/MK" in widget and "/CA" in widget.MK:
        del widget.MK["/CA"]  # /CA names a ZapfDingbats glyph


def _form_xobject(pdf: pikepdf.Pdf, content: bytes, w: float, h: float) -> pikepdf.Stream:
    return pikepdf.Stream(
        pdf, content, Type=Name.XObject, Subtype=Name.Form, BBox=Array([0, 0, w, h])
    )


# --------------------------------------------------------------- joining


def join_tagged(parts: list[bytes]) -> bytes:
    """Join finished tagged PDFs (from :func:`html_to_pdf`, same title and language) into one,
    keeping one structure tree: the pages of each later part follow the first part's, their
    top ``Document`` element's kids move under the first part's ``Document``, their ParentTree
    entries, page /StructParents and annotation /StructParent are renumbered past the first
    part's /ParentTreeNextKey, and their bookmarks follow the first part's. The catalog (/Lang,
    /MarkInfo, metadata, viewer preferences) is the first part's. Used to lay out the quarterly
    bills in several processes and deliver one document."""
    if len(parts) == 1:
        return parts[0]
    with pikepdf.open(io.BytesIO(parts[0])) as pdf:
        tree = pdf.Root.StructTreeRoot
        document = _top_element(tree)
        entries = _parent_tree_entries(tree)
        next_key = int(tree.get("/ParentTreeNextKey", max(entries, default=-1) + 1))
        opened = []
        for data in parts[1:]:
            other = pikepdf.open(io.BytesIO(data))
            opened.append(other)
            other_tree = other.Root.StructTreeRoot
            offset = next_key
            for page in other.pages:
                if "/StructParents" in page.obj:
                    page.obj.StructParents = int(page.obj.StructParents) + offset
                for annot in page.obj.get("/Annots", Array()):
                    if "/StructParent" in annot:
                        annot.StructParent = int(annot.StructParent) + offset
            other_entries = _parent_tree_entries(other_tree)
            # the pages first, so that the copied structure elements' /Pg point at these copies
            # (qpdf keeps one map of copied objects per source document)
            pdf.pages.extend(other.pages)
            for kid in _top_element(other_tree).K:
                copied = _copy(pdf, kid)
                copied.P = document
                document.K.append(copied)
            for key, value in other_entries.items():
                entries[key + offset] = _copy(pdf, value)
            next_key = offset + int(other_tree.get("/ParentTreeNextKey", max(other_entries, default=-1) + 1))
            if "/Outlines" in other.Root and "/First" in other.Root.Outlines:
                _append_outlines(pdf, other)
        tree.ParentTree = pdf.make_indirect(Dictionary(Nums=Array(
            [item for key in sorted(entries) for item in (key, entries[key])])))
        tree.ParentTreeNextKey = next_key
        out = io.BytesIO()
        pdf.save(out, deterministic_id=True)
        for other in opened:
            other.close()
        return out.getvalue()


def _copy(pdf: pikepdf.Pdf, obj):
    """A foreign object copied into pdf, direct arrays and dictionaries item by item."""
    if isinstance(obj, (Array, Dictionary)) and not obj.is_indirect:
        if isinstance(obj, Array):
            return Array([_copy(pdf, item) for item in obj])
        return Dictionary({key: _copy(pdf, value) for key, value in obj.items()})
    return pdf.copy_foreign(obj) if isinstance(obj, pikepdf.Object) and obj.is_indirect else obj


def _top_element(tree: Dictionary) -> Dictionary:
    kids = tree.K
    if isinstance(kids, Array):
        if len(kids) != 1:
            raise ValueError("a tagged PDF to join has more than one top structure element")
        kids = kids[0]
    if not isinstance(kids.get("/K"), Array):
        kids.K = Array([kids.K]) if "/K" in kids else Array()
    return kids


def _parent_tree_entries(tree: Dictionary) -> dict:
    return {int(key): value for key, value in NumberTree(tree.ParentTree).items()} if "/ParentTree" in tree else {}


def _append_outlines(pdf: pikepdf.Pdf, other: pikepdf.Pdf) -> None:
    if "/Outlines" not in pdf.Root or "/First" not in pdf.Root.Outlines:
        pdf.Root.Outlines = pdf.copy_foreign(other.Root.Outlines)
        return
    outlines = pdf.Root.Outlines
    item = other.Root.Outlines.First
    while True:
        copied = pdf.copy_foreign(item)
        copied.Parent = outlines
        copied.Prev = outlines.Last
        if "/Next" in copied:
            del copied.Next
        outlines.Last.Next = copied
        outlines.Last = copied
        outlines.Count = int(outlines.get("/Count", 0)) + 1 + max(int(copied.get("/Count", 0)), 0)
        if "/Next" not in item:
            break
        item = item.Next
