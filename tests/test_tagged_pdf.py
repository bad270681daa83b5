"""kit.documents.tagged_pdf: HTML to PDF/UA-1 with form widgets in the structure tree.

The checks here walk the PDF themselves (they do not reuse the module's
helpers), so a bug in the module cannot hide itself. `pdfua check` is run as
the command-line tool the notes name: exit code 0 means no finding at all.
"""

import io
import json
import subprocess
import sys

import pikepdf
import pytest
from pikepdf import Array, Dictionary, Name, NumberTree
from pypdf import PdfReader, PdfWriter
from pypdf.generic import NameObject

from kit.documents.tagged_pdf import accessible_names, finish_pdf, html_to_pdf

NOTICE_HTML = """<!doctype html>
<html lang="en-US"><head><meta charset="utf-8"><title>Notice of public hearing</title></head>
<body>
<h1>Notice of public hearing</h1>
<p>The Town Board of the Town of Pawling will hold a public hearing on the sewer rents.</p>
<h2>What changes</h2>
<ul><li>The quarterly rent per unit.</li><li>The late-payment penalty.</li></ul>
<h2>Rents</h2>
<table>
  <caption>Quarterly sewer rent</caption>
  <thead><tr><th scope="col">Class</th><th scope="col">Rent</th></tr></thead>
  <tbody>
    <tr><td>Residential</td><td>$120.00</td></tr>
    <tr><td>Commercial</td><td>$240.00</td></tr>
  </tbody>
</table>
<p>Written comments may be sent to the Town Clerk.</p>
</body></html>"""

FORM_HTML = """<!doctype html>
<html lang="en-US"><head><meta charset="utf-8"><title>Sewer permit application</title></head>
<body>
<h1>Sewer permit application</h1>
<form>
  <p><label for="owner">Owner name</label> <input type="text" id="owner" name="owner_name"></p>
  <p><label for="work">Description of work</label>
     <textarea id="work" name="description"></textarea></p>
  <p><input type="checkbox" id="new" name="new_connection" value="yes">
     <label for="new">New connection</label></p>
  <p><input type="checkbox" id="repair" name="repair" value="yes">
     <label for="repair">Repair of an existing lateral</label></p>
  <p><label for="date">Date of application (YYYY-MM-DD)</label>
     <input type="text" id="date" name="application_date" title="Date"></p>
</form>
</body></html>"""

# Titles differ from the HTML <title> on purpose: the caller's title wins.
NOTICE_TITLE = "Town of Pawling: notice of public hearing on sewer rents"
FORM_TITLE = "Town of Pawling sewer permit application"

# The accessible name each field must carry in /TU (the <label> text).
FORM_NAMES = {
    "owner_name": "Owner name",
    "description": "Description of work",
    "new_connection": "New connection",
    "repair": "Repair of an existing lateral",
    "application_date": "Date of application (YYYY-MM-DD)",
}


@pytest.fixture(scope="module")
def notice_pdf():
    return html_to_pdf(NOTICE_HTML, title=NOTICE_TITLE)


@pytest.fixture(scope="module")
def form_pdf():
    return html_to_pdf(FORM_HTML, title=FORM_TITLE)


# ------------------------------------------------------------------ helpers


def pdfua_check(data: bytes, tmp_path, name: str) -> dict:
    """Run `pdfua check --format json` on ``data``; return the report."""
    path = tmp_path / name
    path.write_bytes(data)
    run = subprocess.run(
        [sys.executable, "-m", "pdfua", "check", "--format", "json", str(path)],
        capture_output=True,
        text=True,
    )
    report = json.loads(run.stdout)
    report["returncode"] = run.returncode
    return report


def assert_pdfua_clean(report: dict) -> None:
    # Exit code 0: no finding of any severity (1 info, 2 warning, 3 error).
    assert report["returncode"] == 0, report["findings"]
    assert report["summary"]["errors"] == 0
    assert report["findings"] == []
    # A rule that crashes is reported as skipped, a silent pass. pdfua 0.1.3's
    # empty-heading rule UA-14-001 always crashes on headings whose /K is an
    # array (WeasyPrint's shape), with pikepdf 9 and 10 alike;
    # test_notice_structure checks that instead. Any other skip is a failure.
    assert {s["rule_id"] for s in report["skipped"]} <= {"UA-14-001"}


def kids(node):
    k = node.get("/K")
    if k is None:
        return []
    return list(k) if isinstance(k, Array) else [k]


def struct_elements(pdf):
    """(element, parent) for every structure element, document order."""
    out = []
    stack = [(k, None) for k in reversed(kids(pdf.Root.StructTreeRoot))]
    while stack:
        node, parent = stack.pop()
        if isinstance(node, Dictionary) and node.get("/Type") not in (Name.OBJR, Name.MCR):
            out.append((node, parent))
            stack.extend((k, node) for k in reversed(kids(node)))
    return out


def widgets(pdf):
    for page in pdf.pages:
        for annot in page.obj.get("/Annots", Array()):
            if annot.get("/Subtype") == Name.Widget:
                yield page, annot


def inherited(node, key):
    while node is not None:
        if key in node:
            return node[key]
        node = node.get("/Parent")
    return None


def field_name(widget):
    return str(inherited(widget, "/T"))


def check_widgets_tagged(pdf) -> dict[str, str]:
    """Assert every widget is an OBJR under /Form, reachable via ParentTree.

    Returns field name -> /TU.
    """
    objr_owner = {}
    for element, _ in struct_elements(pdf):
        for kid in kids(element):
            if isinstance(kid, Dictionary) and kid.get("/Type") == Name.OBJR:
                objr_owner[kid.Obj.objgen] = (element, kid)

    struct_root = pdf.Root.StructTreeRoot
    parent_tree = NumberTree(struct_root.ParentTree)
    keys = list(parent_tree.keys())
    assert int(struct_root.ParentTreeNextKey) > max(keys)

    names = {}
    found = list(widgets(pdf))
    assert found, "no widget annotations at all"
    for page, widget in found:
        assert widget.objgen in objr_owner, f"{field_name(widget)} not in the structure tree"
        element, objr = objr_owner[widget.objgen]
        assert element.S == Name.Form
        assert objr.Pg.objgen == page.obj.objgen
        key = int(widget.StructParent)
        assert parent_tree[key].objgen == element.objgen
        tu = str(inherited(widget, "/TU") or "")
        assert tu.strip(), f"{field_name(widget)} has no /TU"
        names[field_name(widget)] = tu
    assert len(objr_owner) >= len(found)
    return names


def reachable_fonts(pdf):
    """Every font dictionary reachable from the trailer (direct or indirect)."""
    seen, fonts = set(), []
    stack = [pdf.trailer]
    while stack:
        obj = stack.pop()
        if isinstance(obj, pikepdf.Stream):
            obj = obj.stream_dict
        if not isinstance(obj, (Dictionary, Array)):
            continue
        if obj.is_indirect:
            if obj.objgen in seen:
                continue
            seen.add(obj.objgen)
        if isinstance(obj, Dictionary):
            if obj.get("/Type") == Name.Font:
                fonts.append(obj)
            children = [v for k, v in obj.items() if k not in ("/Parent", "/P")]
        else:
            children = list(obj)
        stack.extend(c for c in children if isinstance(c, (Dictionary, Array, pikepdf.Stream)))
    return fonts


def unembedded_fonts(pdf) -> list[str]:
    bad = []
    for font in reachable_fonts(pdf):
        subtype = font.get("/Subtype")
        if subtype in (Name.Type3, Name.Type0):  # Type0: its CIDFont is checked
            continue
        descriptor = font.get("/FontDescriptor")
        if not (
            isinstance(descriptor, Dictionary)
            and any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3"))
        ):
            bad.append(str(font.get("/BaseFont")))
    return bad


def fill_with_pypdf(data: bytes) -> bytes:
    """Fill the form the way the browser will (pypdf in Pyodide)."""
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    writer.update_page_form_field_values(
        writer.pages[0],
        {
            "owner_name": "Jane Roe",
            "description": "New lateral to the Route 22 main",
            "application_date": "2025-05-01",
        },
        auto_regenerate=False,
    )
    for annot in writer.pages[0]["/Annots"]:
        annot = annot.get_object()
        if annot.get("/T") == "new_connection":
            on = next(k for k in annot["/AP"]["/N"] if k != "/Off")
            annot[NameObject("/V")] = NameObject(on)
            annot[NameObject("/AS")] = NameObject(on)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


# -------------------------------------------------------------------- tests


def test_pdfua_check_passes_both(notice_pdf, form_pdf, tmp_path):
    assert_pdfua_clean(pdfua_check(notice_pdf, tmp_path, "notice.pdf"))
    assert_pdfua_clean(pdfua_check(form_pdf, tmp_path, "form.pdf"))


def test_document_metadata(form_pdf):
    with pikepdf.open(io.BytesIO(form_pdf)) as pdf:
        assert pdf.Root.MarkInfo.Marked is True
        assert str(pdf.Root.Lang) == "en-US"
        assert pdf.Root.ViewerPreferences.DisplayDocTitle is True
        # The caller's title, not the HTML <title>.
        assert str(pdf.docinfo.Title) == FORM_TITLE
        meta = pdf.open_metadata()
        assert meta["dc:title"] == FORM_TITLE
        assert meta["pdfuaid:part"] == "1"
        assert all(page.obj.Tabs == Name.S for page in pdf.pages)


def test_widgets_are_form_elements_with_names(form_pdf):
    with pikepdf.open(io.BytesIO(form_pdf)) as pdf:
        assert check_widgets_tagged(pdf) == FORM_NAMES


def test_notice_structure(notice_pdf):
    with pikepdf.open(io.BytesIO(notice_pdf)) as pdf:
        elements = struct_elements(pdf)
        tags = {str(e.S) for e, _ in elements}
        assert {"/H1", "/H2", "/L", "/LI", "/Table", "/TR", "/TH", "/TD"} <= tags
        for element, parent in elements:
            if element.S in (Name.H1, Name.H2):
                # pdfua's empty-heading rule does not run here (see report):
                # check that each heading marks some page content.
                assert marks_content(element), element.S
            if element.S == Name.LI:
                assert parent.S == Name.L
            if element.S == Name.TH:
                attrs = element.A if isinstance(element.A, Array) else [element.A]
                assert any("/Scope" in a for a in attrs)


def marks_content(element) -> bool:
    for kid in kids(element):
        if isinstance(kid, int) or (isinstance(kid, Dictionary) and kid.get("/Type") == Name.MCR):
            return True
        if isinstance(kid, Dictionary) and marks_content(kid):
            return True
    return False


def test_fonts_embedded(notice_pdf, form_pdf):
    for data in (notice_pdf, form_pdf, fill_with_pypdf(form_pdf)):
        with pikepdf.open(io.BytesIO(data)) as pdf:
            assert reachable_fonts(pdf)
            assert unembedded_fonts(pdf) == []


def test_reproducible(notice_pdf, form_pdf, monkeypatch):
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    assert html_to_pdf(NOTICE_HTML, title=NOTICE_TITLE) == notice_pdf
    assert html_to_pdf(FORM_HTML, title=FORM_TITLE) == form_pdf


def test_source_date_epoch(monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1746057600")  # 2025-05-01T00:00:00Z
    data = html_to_pdf(NOTICE_HTML, title="Notice")
    with pikepdf.open(io.BytesIO(data)) as pdf:
        assert str(pdf.docinfo.CreationDate).startswith("D:20250501000000")
        assert pdf.open_metadata()["xmp:ModifyDate"].startswith("2025-05-01T00:00:00")
    assert html_to_pdf(NOTICE_HTML, title="Notice") == data


def test_pypdf_fill_keeps_pdfua(form_pdf, tmp_path):
    filled = fill_with_pypdf(form_pdf)
    assert_pdfua_clean(pdfua_check(filled, tmp_path, "filled.pdf"))
    with pikepdf.open(io.BytesIO(filled)) as pdf:
        assert check_widgets_tagged(pdf) == FORM_NAMES
        values = {field_name(w): w.get("/V") for _, w in widgets(pdf)}
        assert str(values["owner_name"]) == "Jane Roe"
        assert values["new_connection"] != Name.Off
        assert values["repair"] == Name.Off


def test_aria_label_and_title_become_tu():
    # No <html lang>: WeasyPrint writes an empty /Lang; the lang argument fixes it.
    html = """<html><body><form>
      <input type="text" name="parcel" aria-label="Tax parcel number">
      <input type="text" name="phone" title="Daytime telephone">
      <label>Email <input type="text" name="email"></label>
    </form></body></html>"""
    data = html_to_pdf(html, title="Fields", lang="en-US")
    with pikepdf.open(io.BytesIO(data)) as pdf:
        assert str(pdf.Root.Lang) == "en-US"
        assert check_widgets_tagged(pdf) == {
            "parcel": "Tax parcel number",
            "phone": "Daytime telephone",
            "email": "Email",
        }


def test_accessible_name_order():
    from weasyprint import HTML

    root = HTML(
        string="""<html><body>
      <span id="a">Account</span><span id="b">number</span>
      <input name="acct" aria-labelledby="a b" aria-label="ignored">
      <label for="x">Label wins</label><input id="x" name="x" title="over title">
      <input name="p" placeholder="Placeholder only">
      <fieldset><legend>Service class</legend>
        <input type="radio" name="cls" value="r"><input type="radio" name="cls" value="c">
      </fieldset>
      <input type="submit" name="go" value="Send">
    </body></html>"""
    ).etree_element
    assert accessible_names(root) == {
        "acct": "Account number",
        "x": "Label wins",
        "p": "Placeholder only",
        "cls": "Service class",
    }


def test_untagged_widgets_are_tagged_again(form_pdf):
    """A widget with no Form element (older WeasyPrint, #2726) gets one."""
    with pikepdf.open(io.BytesIO(form_pdf)) as pdf:
        for element, parent in struct_elements(pdf):
            if element.S == Name.Form:
                parent.K = Array([k for k in kids(parent) if k.objgen != element.objgen])
        for _, widget in widgets(pdf):
            del widget["/StructParent"]
        out = io.BytesIO()
        pdf.save(out)
    with pikepdf.open(out) as stripped:
        with pytest.raises(AssertionError):
            check_widgets_tagged(stripped)
    fixed = finish_pdf(out.getvalue(), title=FORM_TITLE, lang="en-US")
    with pikepdf.open(io.BytesIO(fixed)) as pdf:
        assert check_widgets_tagged(pdf) == FORM_NAMES


def test_zapfdingbats_checkbox_is_redrawn(form_pdf, tmp_path):
    """A check box drawn with un-embedded ZapfDingbats gets vector appearances."""
    with pikepdf.open(io.BytesIO(form_pdf)) as pdf:
        zadb = pdf.make_indirect(
            Dictionary(Type=Name.Font, Subtype=Name.Type1, BaseFont=Name.ZapfDingbats)
        )
        pdf.Root.AcroForm.DR.Font.ZaDb = zadb
        for _, widget in widgets(pdf):
            if widget.get("/FT") == Name.Btn:
                stream = pikepdf.Stream(pdf, b"q BT /ZaDb 8 Tf 1 1 Td (4) Tj ET Q")
                stream.Resources = Dictionary(Font=Dictionary(ZaDb=zadb))
                stream.BBox = Array([0, 0, 8, 8])
                widget.AP = Dictionary(N=Dictionary(yes=stream))
                widget.DA = pikepdf.String("/ZaDb 0 Tf 0 g")
        assert "ZapfDingbats" in str(unembedded_fonts(pdf))
        out = io.BytesIO()
        pdf.save(out)
    fixed = finish_pdf(out.getvalue(), title=FORM_TITLE, lang="en-US")
    with pikepdf.open(io.BytesIO(fixed)) as pdf:
        assert unembedded_fonts(pdf) == []
        for _, widget in widgets(pdf):
            if widget.get("/FT") == Name.Btn:
                assert set(widget.AP.N.keys()) == {"/yes", "/Off"}
                assert "/DA" not in widget
    assert_pdfua_clean(pdfua_check(fixed, tmp_path, "zapf.pdf"))


def test_submit_button_without_action_leaves_no_broken_reference(tmp_path):
    """WeasyPrint 70 writes `None 0 R` into /Annots for such a button."""
    html = """<html lang="en-US"><body><form>
      <label for="n">Name</label><input id="n" name="n"><input type="submit" value="Send">
    </form></body></html>"""
    data = html_to_pdf(html, title="Submit")
    with pikepdf.open(io.BytesIO(data)) as pdf:
        assert all(isinstance(a, Dictionary) for a in pdf.pages[0].obj.Annots)
        assert check_widgets_tagged(pdf) == {"n": "Name"}
    assert list(PdfReader(io.BytesIO(data)).get_fields()) == ["n"]
    assert_pdfua_clean(pdfua_check(data, tmp_path, "submit.pdf"))


def test_required_controls_are_flagged_and_a_checkbox_is_on_by_its_value():
    """HTML `required` sets the Required flag; the on state is the value, or Yes."""
    html = """<html lang="en-US"><body><form>
      <label for="n">Name</label><input id="n" name="n" required>
      <label for="d">Details</label><textarea id="d" name="d" required></textarea>
      <label for="o">Optional</label><input id="o" name="o">
      <input type="checkbox" id="a" name="a"><label for="a">Agreed</label>
      <input type="checkbox" id="b" name="b" value="ticked" checked><label for="b">Ticked</label>
    </form></body></html>"""
    with pikepdf.open(io.BytesIO(html_to_pdf(html, title="Flags"))) as pdf:
        by_name = {field_name(w): w for _, w in widgets(pdf)}
        flags = {name: int(w.get("/Ff", 0)) for name, w in by_name.items()}
        assert flags["n"] & 2 and flags["d"] & 2 and not flags["o"] & 2
        assert flags["d"] & (1 << 12)  # still multiline
        assert set(by_name["a"].AP.N.keys()) == {"/Yes"} and by_name["a"].AS == Name.Off
        assert set(by_name["b"].AP.N.keys()) == {"/ticked"}
        assert by_name["b"].AS == by_name["b"].V == Name("/ticked")
