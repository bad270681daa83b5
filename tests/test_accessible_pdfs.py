"""Every PDF the kit makes is tagged PDF/UA-1 (WCAG 2.1 AA for documents, ADA Title II):
the blank permit application, the application filled by the engine (pypdf, as in the
browser), the Clerk's notices (notices-out/) and every notice PDF of a built site. Each
passes the outside checker `pdfua check` with no finding; the application's every widget
is a Form element whose /TU is its label; two runs give the same bytes."""
import io
import re
import shutil

import pikepdf
import pytest
from pikepdf import Dictionary, Name
from pypdf import PdfReader

from calculator.permits import application
from calculator.core.rules import load
from kit.clerk import command as clerk
from kit.documents import pdf
from kit.site import build as kit_site
from kit.documents.application_pdf import blank_pdf_bytes, build_blank_pdf
from kit.site.pages import APPLICATION_PDF
from kit.rules.validate import RULES_DIR, compile_rules
from test_tagged_pdf import (assert_pdfua_clean, check_widgets_tagged, kids, marks_content, pdfua_check,
                             struct_elements, unembedded_fonts)

RULES = load()
FORM = RULES["application_form"]
BOXES = {"yes": "Yes", "no": "No", "na": "Not applicable"}  # (a box's name after its question: issue 34 added "na")
#: Each field's accessible name: its visible label, as the web page and the PDF print it.
# each PDF field's accessible name: a yes-no question's two boxes are "<question>: Yes" and ": No"
LABELS = {w: f["label"] + (" (required)" if f.get("required") else "")
          + (f": {BOXES[w.rsplit('-', 1)[1]]}" if f["type"] == "yes-no" else "")
          for f in FORM["fields"] for w in application.widget_names(f)}
CONTRACTOR = [("work", "new-connection"), ("street-opening", "yes"), ("septic-or-cesspool-link", "no"),
              ("flammables-washstand", "no"), ("steam-exhaust", "no"), ("trade-waste", "no"),
              ("manure-or-cesspool-overflow", "no"), ("garbage-grinder", "yes"), ("stormwater", "no"), ("other-water", "no"),
              ("industrial-waste", "no"), ("sewer-pipe", "no")]
TYPED = {"owner-name": "Ana Ortiz & Sons <LLC>", "owner-mailing-address": "12 Main Street\nPawling, NY 12564",
         "contractor-name": "Ridge Plumbing", "plans-attached": "yes", "signature-date": "2027-03-15",
         "work-description": "4-inch house sewer\nunder Charles Colman Blvd"}


@pytest.fixture(scope="module")
def blank(tmp_path_factory):
    return build_blank_pdf(RULES, tmp_path_factory.mktemp("app") / "blank.pdf")


@pytest.fixture(scope="module")
def filled(blank):
    dst = blank.with_name("filled.pdf")
    application.fill_pdf(RULES, CONTRACTOR, TYPED, blank, dst)
    return dst


@pytest.fixture(scope="module")
def clerks_year(tmp_path_factory):
    """A copy of rules/ through a Clerk's year: a 2026 schedule proposed, its notice
    published, adopted, and the notices to users written (to notices-out/ beside it)."""
    root = tmp_path_factory.mktemp("town")
    rules = root / "rules"
    shutil.copytree(RULES_DIR, rules)
    (root / "mkdocs.yml").write_text("site_name: copy\nsite_url: https://sewer.pawling.example/\n")  # notices name it

    def run(*argv):
        assert clerk.main([*argv, "--rules-dir", str(rules)]) == 0, argv

    run("propose", "--retroactive", "--fiscal-year", "2026", "--effective", "2026-01-01", "--om-cost", "856791",
        "--user-volume-gallons", "85,000,000", "--proposed-on", "2025-10-01", "--sewage-fraction", "0.80")
    run("notice", "2026", "--published", "2025-10-15", "--meeting", "2025-10-30", "--time", "19:30",
        "--place", "Pawling Town Hall, 160 Charles Colman Blvd")
    run("adopt", "2026", "--date", "2025-11-10", "--ayes", "3", "--noes", "2", "--resolution", "2025-88")
    run("user-notice", "2026")
    run("user-notice", "2025-illustrative")
    return root


@pytest.fixture(scope="module")
def town_site(clerks_year):
    """The site built from the Clerk's copy of rules/, which has notices to publish."""
    return kit_site.build(clerks_year / "site", rules_dir=clerks_year / "rules")


def form_elements_in_order(data: bytes) -> list[str]:
    """The field name of each Form element, in structure (reading and tab) order."""
    with pikepdf.open(io.BytesIO(data)) as doc:
        names = []
        for element, _ in struct_elements(doc):
            if element.S == Name.Form:
                for kid in kids(element):
                    if isinstance(kid, Dictionary) and kid.get("/Type") == Name.OBJR:
                        names.append(str(kid.Obj.T))
        return names


# ---- the permit application ---------------------------------------------------------------

def test_the_blank_application_passes_pdfua_check(blank, tmp_path):
    assert_pdfua_clean(pdfua_check(blank.read_bytes(), tmp_path, "blank.pdf"))


def test_the_filled_application_passes_pdfua_check(filled, tmp_path):
    assert_pdfua_clean(pdfua_check(filled.read_bytes(), tmp_path, "filled.pdf"))
    with pikepdf.open(filled) as doc:
        assert unembedded_fonts(doc) == []


@pytest.mark.parametrize("which", ["blank", "filled"])
def test_every_widget_is_a_form_element_named_by_its_label(which, request):
    data = request.getfixturevalue(which).read_bytes()
    with pikepdf.open(io.BytesIO(data)) as doc:
        assert check_widgets_tagged(doc) == LABELS
        assert doc.Root.MarkInfo.Marked is True and str(doc.Root.Lang) == "en-US"
        assert doc.open_metadata()["pdfuaid:part"] == "1"
        assert str(doc.docinfo.Title) == FORM["title"] and doc.Root.ViewerPreferences.DisplayDocTitle
        assert all(page.obj.Tabs == Name.S for page in doc.pages)
    # the structure's order is the tab order: the form's own order
    assert form_elements_in_order(data) == list(LABELS)


def test_the_filled_application_has_the_values(filled):
    fields = PdfReader(str(filled)).get_fields()
    assert fields["owner-name"]["/V"] == "Ana Ortiz & Sons <LLC>"
    assert fields["kind-of-work"]["/V"] == "A new connection to the public sewer"
    assert fields["signature-date"]["/V"] == "March 15, 2027"
    assert fields["street-opening-yes"]["/V"] == "/Yes" and fields["street-opening-no"]["/V"] == "/Off"
    assert fields["garbage-grinder-yes"]["/V"] == "/Yes" and fields["drain-water-no"]["/V"] == "/Yes"
    assert fields["highway-approval-yes"]["/V"] == fields["highway-approval-no"]["/V"] == "/Off"  # not answered


def test_every_filled_value_is_drawn_without_the_viewer(filled):
    """No NeedAppearances: poppler would redraw the ticks from a ZapfDingbats font and show
    the boxes empty. pypdf draws the text (wrapping multiline fields, whose size is auto)."""
    with pikepdf.open(filled) as doc:
        assert doc.Root.AcroForm.NeedAppearances is False
        for page in doc.pages:
            for widget in page.obj.get("/Annots", []):  # the Sewer Inspector's page has none (lines, no fields)
                value = widget.get("/V")
                if widget.FT == Name.Btn:
                    # off draws nothing: the box itself is page content
                    assert widget.AS == value and (value == Name.Off or value in widget.AP.N), widget.T
                elif value not in (None, ""):
                    assert "/N" in widget.AP, widget.T
                if int(widget.get("/Ff", 0)) & (1 << 12):
                    assert " 0 Tf" in str(widget.DA), widget.T


def test_the_application_has_its_sections_as_headings(blank):
    with pikepdf.open(blank) as doc:
        elements = struct_elements(doc)
        headings = [e for e, _ in elements if e.S in (Name.H1, Name.H2)]
        # each section, then the Sewer Inspector's part (office use)
        assert [str(e.S) for e in headings] == ["/H1"] + ["/H2"] * (len(FORM["sections"]) + 1)
        assert all(marks_content(e) for e in headings)
        assert {"/P", "/Form", "/Sect"} <= {str(e.S) for e, _ in elements}


def test_the_application_is_letter_size_with_text_of_11pt_or_more(blank):
    reader = PdfReader(str(blank))
    for page in reader.pages:
        assert (round(float(page.mediabox.width)), round(float(page.mediabox.height))) == (612, 792)
    sizes = set()
    for page in reader.pages:
        page.extract_text(visitor_text=lambda text, cm, tm, font, size: sizes.add(round(size * tm[0] * cm[0], 1))
                          if text.strip() else None)
    assert min(sizes) >= 11, sorted(sizes)  # the page footer too


def test_the_application_is_the_same_bytes_twice(monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1746057600")
    assert blank_pdf_bytes(RULES) == blank_pdf_bytes(RULES)


# ---- the notices ---------------------------------------------------------------------------

def test_the_clerks_notices_pass_pdfua_check(clerks_year, tmp_path):
    pdfs = sorted((clerks_year / "notices-out").glob("*.pdf"))
    # the notice to users in Spanish too, for the bills that go out in Spanish (issue 34, M3): checked as well
    assert [p.name for p in pdfs] == ["hearing-notice-2026.pdf", "user-notice-2025-illustrative-es.pdf",
                                      "user-notice-2025-illustrative.pdf", "user-notice-2026-es.pdf",
                                      "user-notice-2026.pdf"]
    for path in pdfs:
        assert_pdfua_clean(pdfua_check(path.read_bytes(), tmp_path, path.name))
        with pikepdf.open(path) as doc:
            assert unembedded_fonts(doc) == []
            tags = [str(e.S) for e, _ in struct_elements(doc)]
            assert tags.count("/H1") == 1 and {"/L", "/LI", "/P"} <= set(tags), path.name


def test_every_notice_of_a_built_site_passes_pdfua_check(town_site, tmp_path):
    pdfs = sorted((town_site / "notices").glob("*/*.pdf"))
    assert [p.name for p in pdfs] == ["2026-hearing.pdf", "2026-rates.pdf"]
    spanish = sorted((town_site / "es" / "notices").glob("*/*.pdf"))  # the same, in Spanish
    assert [p.name for p in spanish] == ["2026-hearing.pdf", "2026-rates.pdf"]
    for path in [*pdfs, town_site / APPLICATION_PDF, *spanish, town_site / "es" / APPLICATION_PDF]:
        assert_pdfua_clean(pdfua_check(path.read_bytes(), tmp_path, path.name))


def test_the_site_and_the_clerk_give_the_notices_their_titles(clerks_year, town_site):
    out = clerks_year / "notices-out"
    assert PdfReader(str(out / "hearing-notice-2026.pdf")).metadata.title.startswith("Notice of public hearing")
    assert PdfReader(str(town_site / "notices/2026-hearing/2026-hearing.pdf")).metadata.title == (
        "Proposed sewer rate schedule 2026: public comment meeting")
    assert PdfReader(str(town_site / "notices/2026-rates/2026-rates.pdf")).metadata.title.startswith(
        "Sewer rate schedule 2026 adopted")


def test_a_notice_text_becomes_a_heading_paragraphs_and_a_list():
    html = pdf.text_to_html("TOWN OF PAWLING\nNOTICE\n\nA <b>bold</b> & plain line.\nSecond line.\n"
                            "- one item\n- two & three\nAfter the list.\n\nBy order\nTown Clerk")
    assert html == ("<h1>TOWN OF PAWLING<br>NOTICE</h1>\n"
                    "<p>A &lt;b&gt;bold&lt;/b&gt; &amp; plain line.<br>Second line.</p>\n"
                    "<ul><li>one item</li><li>two &amp; three</li></ul>\n"
                    "<p>After the list.</p>\n"
                    "<p>By order<br>Town Clerk</p>")


def test_a_notice_pdf_is_tagged_and_the_same_bytes_twice(tmp_path):
    text = "NOTICE\n\nA paragraph with <angle> & ampersand.\n- a list item\n- another"
    data = pdf.pdf_bytes(text, "A title")
    assert data == pdf.pdf_bytes(text, "A title")
    assert_pdfua_clean(pdfua_check(data, tmp_path, "notice.pdf"))
    with pikepdf.open(io.BytesIO(data)) as doc:
        assert str(doc.docinfo.Title) == "A title"
        assert [str(e.S) for e, _ in struct_elements(doc) if e.S in (Name.H1, Name.L, Name.LI)] == [
            "/H1", "/L", "/LI", "/LI"]
    assert "A paragraph with <angle> & ampersand." in PdfReader(io.BytesIO(data)).pages[0].extract_text()


def test_the_clerks_notices_are_the_same_bytes_twice(clerks_year, tmp_path):
    rules = compile_rules(clerks_year / "rules")
    from kit.clerk.notices import hearing_notice_text, user_notice
    title = "Notice"
    assert pdf.pdf_bytes(hearing_notice_text(rules, "2026", "https://sewer.pawling.example/"), title) == pdf.pdf_bytes(
        hearing_notice_text(rules, "2026", "https://sewer.pawling.example/"), title)
    html = user_notice(rules, "2026", "https://sewer.pawling.example/")["html"]
    assert pdf.html_pdf_bytes(html, title) == pdf.html_pdf_bytes(html, title)


def test_the_web_page_and_the_pdf_are_one_template():
    """The same controls, names, labels and help in the same order; only the citations
    differ (links to /law/ on the web, text in the PDF)."""
    from kit.documents.layout import application_html
    web, paper = application_html(RULES, "web"), application_html(RULES, "pdf")
    # the same questions in the same order: on the web a yes-no is a pair of radio buttons
    # (one name), in the PDF a pair of check boxes (NAME-yes, NAME-no)
    control = re.compile(r'<(?:input|textarea)[^>]*name="([^"]+)"(?: value="(yes|no|na)")?')
    assert [n if not v else f"{n}-{v}" for n, v in control.findall(web)] == [n for n, _ in control.findall(paper)] \
        == list(LABELS)
    strip = re.compile(r'<a href="[^"]*">|</a>|<span class="cite">|</span>|<input [^>]*>')  # controls: compared above
    # a required control: aria-required on the web (the page names the empty ones itself, in its language),
    # the PDF's own Required flag on paper
    web = web.replace(' aria-required="true"', " required")
    # the web page's own: the line above the form, and where a date's error and how it was read are said
    web = re.sub(r'<p class="(?:field-error|hint date-read)" id="field-[a-z-]+-(?:error|read)"[^>]*></p>\n', "", web)
    # and a yes-no question's note for No, shown while No is chosen (public11, T4)
    web = re.sub(r'<p class="field-note" id="field-[a-z-]+-if-no"[^>]*>[^<]*</p>\n', "", web)
    web_text = strip.sub("", re.sub(r'<p class="form-other-ways">.*?</p>\n', "", web))
    assert web_text == strip.sub("", paper)
