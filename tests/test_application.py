"""The permit application PDF (permits.A): built from rules/application-form.yaml,
read back with pypdf — names, accessible names, values after filling, /Title and
/Lang — and prefilled from the permit checker's answers."""
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

from calculator.permits import application
from kit.documents.application_pdf import build_blank_pdf
from calculator.core.errors import InputError
from calculator.core.rules import load

ROOT = Path(__file__).resolve().parent.parent
RULES = load()
FORM = RULES["application_form"]
FIELDS = {f["name"]: f for f in FORM["fields"]}
QUESTIONS = {q["id"]: q for q in RULES["permits"]["questions"]}
REQUIRED_FLAG, MULTILINE_FLAG = 1 << 1, 1 << 12

CONTRACTOR = [("work", "new-connection"), ("street-opening", "yes"), ("septic-or-cesspool-link", "no"),
              ("flammables-washstand", "no"), ("steam-exhaust", "no"), ("trade-waste", "no"),
              ("manure-or-cesspool-overflow", "no"), ("garbage-grinder", "yes"), ("stormwater", "no"), ("other-water", "no"),
              ("industrial-waste", "no"), ("sewer-pipe", "no")]


@pytest.fixture(scope="module")
def blank(tmp_path_factory):
    path = tmp_path_factory.mktemp("form") / "blank.pdf"
    build_blank_pdf(RULES, path)
    return path


def widgets(path):
    """(name, annotation) for every field widget, in page order and /Annots order."""
    out = []
    for page in PdfReader(str(path)).pages:
        for ref in page.get("/Annots") or []:
            a = ref.get_object()
            if a.get("/Subtype") == "/Widget":
                out.append((a["/T"], a))
    return out


def page_text(path) -> str:
    return re.sub(r"\s+", " ", " ".join(p.extract_text() for p in PdfReader(str(path)).pages))


# ---- the form as data --------------------------------------------------------------

def test_the_form_has_the_fields_the_law_asks_for():
    for name in ("owner-name", "owner-mailing-address", "property-address", "tax-map-number", "contractor-name",
                 "work-description", "kind-of-work", "plans-attached", "street-opening", "highway-approval",
                 "signature", "signature-date"):
        assert name in FIELDS, name
    assert FIELDS["contractor-name"]["cite"] == "permits.A"
    assert FIELDS["highway-approval"]["cite"] == "permits.B"
    assert FIELDS["plans-attached"]["type"] == "yes-no"
    assert FIELDS["signature-date"]["type"] == "date"


def test_every_prefill_names_a_real_question_and_answer():
    for f in FORM["fields"]:
        if "from_answer" in f:
            q = QUESTIONS[f["from_answer"]]
            if f["type"] == "yes-no":  # the answer itself fills it: a question answered yes or no
                assert {"no", "yes"} <= {c["value"] for c in q["choices"]}, f["name"]
    assert FIELDS["kind-of-work"]["from_answer"] == "work"
    assert FIELDS["street-opening"]["from_answer"] == "street-opening"


def test_fields_are_in_section_order():
    order = [s["id"] for s in FORM["sections"]]
    positions = [order.index(f["section"]) for f in FORM["fields"]]
    assert positions == sorted(positions)


def test_the_fee_comes_from_its_parameter_and_is_marked_illustrative():
    fee = application.fee(RULES)
    param = RULES["parameters"]["permit-application-fee"]
    assert fee["amount"] == param["value"] == "150.00"
    assert fee["dollars"] == "$150.00"
    assert param["status"] == "illustrative" and param["cite"] == "permits.A"
    assert fee["note"] and "ILLUSTRATIVE" in fee["note"]


def test_an_adopted_fee_is_not_marked_illustrative():
    import copy
    rules = copy.deepcopy(RULES)
    rules["parameters"]["permit-application-fee"].pop("status")
    rules["parameters"]["permit-application-fee"]["value"] = "175.00"
    fee = application.fee(rules)
    assert fee["note"] is None and fee["dollars"] == "$175.00"


# ---- the blank PDF -----------------------------------------------------------------

# a yes-no field is two check boxes in the PDF, NAME-yes and NAME-no
BOXES = {w: (f, w.rsplit("-", 1)[1] if f["type"] == "yes-no" else None)
         for f in FORM["fields"] for w in application.widget_names(f)}


def test_blank_pdf_has_every_field_in_page_order(blank):
    assert [name for name, _ in widgets(blank)] == list(BOXES)
    assert "plans-attached-yes" in BOXES and "plans-attached-no" in BOXES


def test_every_field_has_its_label_as_accessible_name(blank):
    for name, a in widgets(blank):
        f, word = BOXES[name]
        expected = f["label"] + (" (required)" if f.get("required") else "")
        words = {"yes": "Yes", "no": "No", "na": "Not applicable"}
        assert a["/TU"] == (f"{expected}: {words[word]}" if word else expected)


def test_field_kinds_and_required_flags(blank):
    for name, a in widgets(blank):
        f, _ = BOXES[name]
        flags = int(a.get("/Ff", 0))
        assert a["/FT"] == ("/Btn" if f["type"] == "yes-no" else "/Tx"), name
        assert bool(flags & REQUIRED_FLAG) == bool(f.get("required")), name
        assert bool(flags & MULTILINE_FLAG) == (f["type"] == "multiline"), name


def test_title_and_language_are_set(blank):
    reader = PdfReader(str(blank))
    root = reader.trailer["/Root"]
    assert reader.metadata.title == FORM["title"]
    assert root["/Lang"] == "en-US"
    assert root["/ViewerPreferences"]["/DisplayDocTitle"] == True  # noqa: E712 (a pypdf BooleanObject)


def test_labels_citations_and_fee_are_printed(blank):
    text = page_text(blank)
    for f in FORM["fields"]:
        assert re.sub(r"\s+", " ", f["label"]) in text, f["name"]
    assert "Law: Permits A (Application for permit)" in text
    assert "Law: Permits B (Disturbing pavements)" in text
    assert "Application fee: $150.00" in text and "ILLUSTRATIVE" in text
    for s in FORM["sections"]:
        assert s["heading"] in text


def test_the_signature_section_is_on_one_page(blank):
    """The usability tester's last page held only "Date signed": the signature section (what the owner
    agrees to, the signature, its date) is never split, so its heading and both fields share a page."""
    reader = PdfReader(str(blank))
    heading = application.form(RULES)["sections"][-1]["heading"]
    pages = {name: i for i, page in enumerate(reader.pages) for ref in page.get("/Annots") or []
             if (name := ref.get_object().get("/T")) in ("signature", "signature-date")}
    on = [i for i, page in enumerate(reader.pages) if heading in page.extract_text()]
    assert len(on) == 1 and pages == {"signature": on[0], "signature-date": on[0]}, (heading, on, pages)


def test_building_leaves_no_temporary_files(tmp_path):
    build_blank_pdf(RULES, tmp_path / "a.pdf")
    assert [p.name for p in tmp_path.iterdir()] == ["a.pdf"]


# ---- filling -----------------------------------------------------------------------

def filled_values(path) -> dict:
    return {name: a.get("/V") for name, a in widgets(path)}


def test_fill_from_a_contractors_answers_and_typed_fields(blank, tmp_path):
    dst = tmp_path / "filled.pdf"
    values = application.fill_pdf(RULES, CONTRACTOR, {
        "owner-name": "Ana Ortiz", "contractor-name": "Ridge Plumbing", "plans-attached": "yes",
        "signature-date": "2027-03-15", "work-description": "4-inch house sewer\nunder Charles Colman Blvd"},
        blank, dst)
    assert values["street-opening"] == "yes" and values["kind-of-work"] == "A new connection to the public sewer"
    v = filled_values(dst)
    assert v["owner-name"] == "Ana Ortiz"
    assert v["contractor-name"] == "Ridge Plumbing"
    assert v["kind-of-work"] == "A new connection to the public sewer"
    assert v["work-description"] == "4-inch house sewer\nunder Charles Colman Blvd"
    assert v["signature-date"] == "March 15, 2027"
    # each yes-no question answered shows its answer's box ticked and the other one empty;
    # one not answered (highway approval, not typed) shows both empty
    assert v["street-opening-yes"] == "/Yes" and v["street-opening-no"] == "/Off"
    assert v["plans-attached-yes"] == "/Yes" and v["garbage-grinder-yes"] == "/Yes"
    assert v["industrial-waste-no"] == "/Yes" and v["industrial-waste-yes"] == "/Off"
    assert v["drain-water-no"] == "/Yes" and v["drain-water-yes"] == "/Off"
    assert v["highway-approval-yes"] == v["highway-approval-no"] == "/Off"
    assert v["trade-waste-treatment-yes"] == v["trade-waste-treatment-no"] == "/Off"  # not asked: trade-waste=no
    for name, a in widgets(dst):
        if BOXES[name][1]:
            assert a["/AS"] == a["/V"], name
    reader = PdfReader(str(dst))
    assert reader.metadata.title == FORM["title"] and reader.trailer["/Root"]["/Lang"] == "en-US"
    # every value is drawn in the file (a ticked box by its own /Yes appearance): a viewer
    # told to redraw would draw the ticks from ZapfDingbats, which poppler shows empty
    assert reader.trailer["/Root"]["/AcroForm"]["/NeedAppearances"] == False  # noqa: E712
    assert all(a["/TU"] for _, a in widgets(dst))


def drawn_lines(annotation):
    """(width in points, the box's inner width) of each line a text field's appearance draws, by the
    widths of the glyphs it draws (the embedded font's /W), as a viewer lays them out."""
    stream = annotation["/AP"]["/N"].get_object()
    data = stream.get_data()
    size = float(re.search(rb"/\w+ ([\d.]+) Tf", data).group(1))
    font = next(iter(stream["/Resources"]["/Font"].values())).get_object()
    spec, widths, i = font["/DescendantFonts"][0].get_object()["/W"], {}, 0
    while i < len(spec):
        if isinstance(spec[i + 1], list):
            widths.update({int(spec[i]) + k: float(w) for k, w in enumerate(spec[i + 1])})
            i += 2
        else:
            widths.update({c: float(spec[i + 2]) for c in range(int(spec[i]), int(spec[i + 1]) + 1)})
            i += 3
    x1, _, x2, _ = (float(v) for v in annotation["/Rect"])
    clip = float(re.search(rb"([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+) re\s+W", data).group(3))
    lines = []
    for hexed in re.findall(rb"<([0-9a-fA-F]+)> Tj", data):
        cids = [int(hexed[j:j + 4], 16) for j in range(0, len(hexed), 4)]
        lines.append(sum(widths.get(c, 0) for c in cids) * size / 1000)
    return lines, clip, size


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_long_answer_is_wrapped_inside_its_box(blank, tmp_path, lang):
    """public12, T1: the filled form's multiline boxes ran each line past the box at 12 pt ("yard drain or"
    printed as "yard dr"; "crossing" as "crossin"): pypdf measured a word by its characters' codes, not by
    the glyphs the form's font draws. Every line drawn fits inside the box's clip."""
    dst = tmp_path / "filled.pdf"
    answers = [("work", "new-connection"), ("street-opening", "yes"), ("septic-or-cesspool-link", "no"),
               ("flammables-washstand", "no"), ("steam-exhaust", "no"), ("trade-waste", "no"),
               ("manure-or-cesspool-overflow", "no"), ("garbage-grinder", "no"), ("stormwater", "yes")]
    description = ("NEW HOUSE SEWER FROM THE FOUNDATION WALL TO THE STREET MAIN, CROSSING THE TOWN ROAD; "
                   "SUMP PUMP DISCHARGE TO THE YARD, NOT TO THE SEWER. WORK BY RIDGE PLUMBING AND EXCAVATING.")
    # the checker's words for a sump pump, as the tester's download carried them
    result = ("FOR THE SEWER INSPECTOR TO DECIDE: Connecting a sump pump, roof leader, yard drain or footing drain "
              "to the sewer. As this site reads the law, this is not allowed. The law's words are not clear.")
    from calculator.core.i18n import speaking
    with speaking(lang):
        rules = localized_rules()
        if lang == "es":
            blank = build_blank_pdf(rules, tmp_path / "blank-es.pdf", "es-US")
        application.fill_pdf(rules, answers, {"work-description": description, "checker-result": result}, blank, dst)
    checked = 0
    for name, a in widgets(dst):
        if a.get("/FT") == "/Tx" and int(a.get("/Ff", 0)) & MULTILINE_FLAG and a.get("/V"):
            lines, clip, size = drawn_lines(a)
            assert len(lines) >= 2, (name, lines)  # long enough to wrap: the test tests the wrapping
            assert max(lines) <= clip, (name, size, [round(w, 1) for w in lines], clip)
            checked += 1
    assert checked >= 2  # the checker's result and the description


def test_a_typed_field_wins_over_the_prefill(blank, tmp_path):
    dst = tmp_path / "f.pdf"
    application.fill_pdf(RULES, CONTRACTOR, {"street-opening": "no"}, blank, dst)
    assert filled_values(dst)["street-opening-yes"] == "/Off"
    assert filled_values(dst)["street-opening-no"] == "/Yes"


def test_an_answer_the_checker_did_not_use_prefills_nothing(blank, tmp_path):
    dst = tmp_path / "f.pdf"
    answers = [("flammables-washstand", "no"), ("oil-separator", "yes")]
    values = application.fill_pdf(RULES, answers, {}, blank, dst)
    assert "oil-separator" not in values
    assert filled_values(dst)["oil-separator-yes"] == filled_values(dst)["oil-separator-no"] == "/Off"


def test_an_answer_no_ticks_the_no_box_so_it_differs_from_not_answered(blank, tmp_path):
    # Issue 19, item 8: an unticked "No" looked the same as "not answered"
    dst = tmp_path / "f.pdf"
    answers = [(q, "no" if q == "garbage-grinder" else v) for q, v in CONTRACTOR]
    values = application.fill_pdf(RULES, answers, {}, blank, dst)
    assert values["garbage-grinder"] == "no"
    assert filled_values(dst)["garbage-grinder-no"] == "/Yes"
    assert filled_values(dst)["garbage-grinder-yes"] == "/Off"
    assert "garbage-grinder" in application.answered(values)
    assert "highway-approval" not in application.answered(values)


@pytest.mark.parametrize("fields,words", [
    ({"favourite-colour": "blue"}, ["“favourite-colour”", "owner-name", "signature-date"]),
    ({"plans-attached": "maybe"}, ["“plans-attached”", "yes or no"]),
    ({"signature-date": "15.03.2027"}, ["“15.03.2027”", "not a date we can read", "2027-03-15"]),
    ({"signature-date": "2/30/2027"}, ["“2/30/2027”", "not a real date"]),
])
def test_bad_fields_are_refused_and_nothing_is_written(blank, tmp_path, fields, words):
    dst = tmp_path / "f.pdf"
    dst.write_bytes(b"old")
    with pytest.raises(InputError) as err:
        application.fill_pdf(RULES, [], fields, blank, dst)
    for w in words:
        assert w in str(err.value)
    assert dst.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["f.pdf"]


def test_a_us_date_is_read_month_first_as_the_hint_says():
    """The outside test public-personas2: Tony's 12/6/2026 was refused as "could be two dates" on an English form."""
    assert application.field_values(RULES, [], {"signature-date": "12/6/2026"})["signature-date"] == "December 6, 2026"


ESTIMATOR_HINT = {"en": "Write it as month/day/year or year-month-day: like 3/15/2027 or 2027-03-15 for March 15, 2027.",
                  "es": "Escríbala como día/mes/año o año-mes-día: por ejemplo, 15/3/2027 o 2027-03-15 para el 15 de marzo"
                        " de 2027."}


@pytest.mark.parametrize("lang, typed, read, said", [
    ("en", "2/3/2027", "February 3, 2027", "We read “2/3/2027” as February 3, 2027."),
    ("en", "12/6/2026", "December 6, 2026", "We read “12/6/2026” as December 6, 2026."),
    ("es", "2/3/2027", "2 de marzo de 2027", "Entendimos «2/3/2027» como el 2 de marzo de 2027."),
    ("en", "2027-02-03", "February 3, 2027", None),
])
def test_the_signature_date_is_read_as_the_estimator_reads_it_and_said_back(lang, typed, read, said, tmp_path, blank):
    """The usability test, Tony: the form's date reader and hint are the estimator's (dates.read_date), the page's
    order first (month/day/year in English, day/month/year in Spanish), and a slashed date is said back, by the
    web form (values_only: `read`) and the command line (its notices)."""
    from calculator.core.i18n import speaking
    from kit.documents.layout import application_html
    with speaking(lang):
        rules = localized_rules()
        got = application.values_only(rules, [], {"signature-date": typed})
        assert got["fields"]["signature-date"] == read
        assert got["read"] == ({"signature-date": said} if said else {})
        wrote = application.write_application(rules, [], {"signature-date": typed}, tmp_path / "a.pdf", blank)
        assert (said in wrote["notices"]) if said else not any("2027" in n for n in wrote["notices"])
        html = application_html(rules, "web")
    hint = re.search(r'<p class="hint" id="field-signature-date-hint">(.*?)</p>', html, re.S).group(1)
    assert ESTIMATOR_HINT[lang] in " ".join(hint.split()), hint
    box = re.search(r'<input [^>]*id="field-signature-date"[^>]*>', html).group(0)
    assert 'aria-describedby="field-signature-date-hint field-signature-date-error field-signature-date-read"' in box
    assert 'id="field-signature-date-error"' in html and 'id="field-signature-date-read"' in html


@pytest.mark.parametrize("value", ["2/30/2027", "15.03.2027", "12/6/26"])
def test_a_bad_signature_date_names_its_field_so_the_form_says_it_at_the_box(value):
    with pytest.raises(InputError) as err:
        application.values_only(RULES, [], {"signature-date": value})
    assert err.value.field == "signature-date" and f"“{value}”" in str(err.value)


def localized_rules():
    from calculator.core.i18n import localized
    return localized(RULES)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_sewer_inspectors_part_is_lines_to_write_on_not_fields(lang, tmp_path):
    """The usability test, Tony: no place for the Inspector's approval, signature, permit number or the
    road-opening bond. The block is lines (no widget the applicant's answers could fill), after the signature,
    says the applicant does not write there, and quotes the law's "under permit signed by ... the Sewer
    Inspector" word for word."""
    from calculator.core.i18n import speaking
    office = FORM["office_use"]
    assert "under permit signed by" in office["quote"]
    law_text = next(p["text"] for p in RULES["provisions"] if p["id"] == office["cite"])
    assert " ".join(office["quote"].split()) == " ".join(law_text.split())
    labels = [line["label"] for line in office["lines"]]
    for word in ("Permit granted", "Permit number", "signature", "Date", "Fee received", "Bond received"):
        assert any(word in label for label in labels), word
    with speaking(lang):
        rules = localized_rules()
        path = build_blank_pdf(rules, tmp_path / "blank.pdf", lang)
        shown = rules["application_form"]["office_use"]
    reader = PdfReader(str(path))
    last = reader.pages[-1].extract_text()
    text = " ".join(last.split())
    for words in (shown["heading"], shown["warning"], *(line["label"] for line in shown["lines"])):
        assert " ".join(words.split()) in text, words
    assert "under permit signed by and under the supervision of the Sewer Inspector" in text
    assert not reader.pages[-1].get("/Annots"), "no field the applicant could fill on the Inspector's page"
    assert set(reader.get_fields()) == {w for f in FORM["fields"] for w in application.widget_names(f)}
    # the Inspector's part is the form's end, after the applicant's signature and its date
    whole = " ".join(" ".join(page.extract_text() for page in reader.pages).split())
    signature = " ".join(rules["application_form"]["sections"][-1]["heading"].split())
    assert whole.index(signature) < whole.index(" ".join(shown["heading"].split()))


def test_a_bad_checker_answer_is_refused(blank, tmp_path):
    with pytest.raises(InputError, match="yes, no"):
        application.fill_pdf(RULES, [("street-opening", "sometimes")], {}, blank, tmp_path / "f.pdf")


def test_a_stale_blank_form_is_refused(tmp_path):
    import copy
    rules = copy.deepcopy(RULES)
    rules["application_form"]["fields"] = [f for f in FORM["fields"] if f["name"] != "tax-map-number"]
    stale = build_blank_pdf(rules, tmp_path / "stale.pdf")
    with pytest.raises(ValueError, match="tax-map-number"):
        application.fill_pdf(RULES, [], {}, stale, tmp_path / "f.pdf")


# ---- what runs where ---------------------------------------------------------------

def run_python(code: str):
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_importing_the_engine_loads_no_pdf_library():
    proc = run_python("import sys, calculator, calculator.cli, calculator.permits.flow, calculator.permits.application\n"
                      "print(sorted(m for m in sys.modules if m.split('.')[0] in ('weasyprint', 'pikepdf', 'pypdf')))")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


def test_filling_works_without_the_kits_pdf_libraries(blank, tmp_path):
    dst = tmp_path / "f.pdf"
    proc = run_python(
        "import sys\nsys.modules['weasyprint'] = sys.modules['pikepdf'] = None  # as in the browser: pypdf only\n"
        "from calculator.permits import application\nfrom calculator.core.rules import load\n"
        f"application.fill_pdf(load(), [('work', 'repair')], {{'owner-name': 'Lee'}}, {str(blank)!r}, {str(dst)!r})\n")
    assert proc.returncode == 0, proc.stderr
    v = filled_values(dst)
    assert v["owner-name"] == "Lee" and v["kind-of-work"] == "A repair to an existing house sewer or its connection to the public sewer"


# ---- the command line --------------------------------------------------------------

def cli(*args):
    return subprocess.run([sys.executable, "-m", "calculator", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_cli_writes_the_prefilled_application(tmp_path):
    out = tmp_path / "application.pdf"
    proc = cli("application", "--answer", "work=alteration", "--answer", "street-opening=yes",
               "--field", "owner-name=Sam Lee", "--field", "highway-approval=yes", "--output", str(out))
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["output"] == str(out)
    assert result["fields"] == {"kind-of-work": "Alterations or additions to sewer or drainage work connected to the public sewer",
                                "street-opening": "yes", "owner-name": "Sam Lee", "highway-approval": "yes"}
    assert result["answered"] == ["kind-of-work", "street-opening", "owner-name", "highway-approval"]
    v = filled_values(out)
    assert v["owner-name"] == "Sam Lee" and v["highway-approval-yes"] == "/Yes" and v["street-opening-yes"] == "/Yes"
    assert [p.name for p in tmp_path.iterdir()] == ["application.pdf"]


def test_cli_without_output_gives_the_values_the_web_form_is_filled_with(tmp_path):
    # Issue 19, item 8: /permit/application/ is filled in from the checker's answers (no PDF yet)
    proc = subprocess.run([sys.executable, "-m", "calculator", "application", "--answer", "work=repair",
                           "--answer", "street-opening=no", "--lang", "es"], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["fields"]["street-opening"] == "no" and "street-opening" in result["answered"]
    assert result["fields"]["kind-of-work"].startswith("Una reparación")
    assert "output" not in result


@pytest.mark.parametrize("args,words", [
    (["--field", "owner=Sam", "--output", "x.pdf"], ["“owner”", "owner-name"]),
    (["--answer", "work=rebuild", "--output", "x.pdf"], ["new-connection, alteration, repair"]),
    (["--output", "application.txt"], [".pdf"]),
    (["--output", "no-such-folder/application.pdf"], ["does not exist"]),
])
def test_cli_application_refuses_bad_input_with_one_line_and_exit_2(tmp_path, args, words):
    proc = subprocess.run([sys.executable, "-m", "calculator", "application", *args], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr
    for w in words:
        assert w in lines[0]
    assert list(tmp_path.iterdir()) == []


def test_cli_never_writes_over_a_file_without_force(tmp_path):
    """The hostile tester: `application --output FILE.pdf` wrote over any PDF at FILE. It is refused
    (exit 2, one line saying what to do, the file as it was) unless --force is given, and then replaced
    whole (written atomically, so no stray temporary file is left)."""
    out = tmp_path / "application.pdf"
    out.write_bytes(b"%PDF-1.7 someone's own file\n")
    argv = ["application", "--answer", "work=repair", "--field", "owner-name=Sam Lee", "--output", str(out)]
    proc = cli(*argv)
    assert proc.returncode == 2 and proc.stdout == "", proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr
    assert "already exists" in proc.stderr and "--force" in proc.stderr
    assert out.read_bytes() == b"%PDF-1.7 someone's own file\n"
    proc = cli(*argv, "--lang", "es")
    assert proc.returncode == 2 and "ya existe" in proc.stderr and "--force" in proc.stderr, proc.stderr
    proc = cli(*argv, "--force")
    assert proc.returncode == 0, proc.stderr
    assert filled_values(out)["owner-name"] == "Sam Lee"
    assert [p.name for p in tmp_path.iterdir()] == ["application.pdf"]
    proc = cli("application", "--answer", "work=repair", "--force")  # --force alone replaces nothing
    assert proc.returncode == 2 and "--output" in proc.stderr, proc.stderr


@pytest.mark.parametrize("where", ["kit/app.pdf", "application.pdf", "OTHER/app.pdf"])
def test_cli_never_writes_inside_the_project_or_another_git_repository(where, tmp_path):
    """The twelfth hostile tester (F11): `application --output kit/app.pdf` wrote a filled form with an owner's name
    into the project, and once `git add`ed the build passed. Anywhere in the project (but its git-ignored billing/)
    or in another git work tree is refused, one line, nothing written; a folder outside is written."""
    other = tmp_path / "OTHER"
    other.mkdir()
    subprocess.run(["git", "init", "-q", str(other)], check=True)
    target = Path(where.replace("OTHER", str(other))) if where.startswith("OTHER") else ROOT / where
    proc = cli("application", "--answer", "work=repair", "--field", "owner-name=Maria Gonzalez", "--output", str(target))
    assert proc.returncode == 2 and proc.stdout == "" and "Traceback" not in proc.stderr, proc.stderr
    assert "inside the git repository" in proc.stderr and "Documents" in proc.stderr
    assert not target.exists() and not list(target.parent.glob(f".{target.name}.*.tmp"))
    outside = tmp_path / "mine" / "app.pdf"
    outside.parent.mkdir()
    proc = cli("application", "--answer", "work=repair", "--output", str(outside))
    assert proc.returncode == 0 and outside.read_bytes().startswith(b"%PDF"), proc.stderr


@pytest.mark.parametrize("where", ["site/permit/application.pdf", "docs/assets/application.pdf",
                                   "rules/application.pdf", "LINK/application.pdf"])
def test_cli_never_writes_into_the_sites_own_folders_even_with_force(where, tmp_path):
    """Not over the site's own blank form, nor anywhere in site/, docs/ or rules/ (also through a link to
    one): the website is made from them, and a filled application holds a person's name and address."""
    (tmp_path / "LINK").symlink_to(ROOT / "docs")
    folder = "docs" if where.startswith("LINK") else where.split("/")[0]
    where = where.replace("LINK", str(tmp_path / "LINK"))
    target = ROOT / where
    before = target.read_bytes() if target.is_file() else None
    for force in ([], ["--force"]):
        proc = cli("application", "--answer", "work=repair", "--output", where, *force)
        assert proc.returncode == 2 and proc.stdout == "", proc.stderr
        assert f"project's {folder}/ folder" in proc.stderr and "Traceback" not in proc.stderr
        assert (target.read_bytes() if target.is_file() else None) == before
        if target.parent.is_dir():
            assert not list(target.parent.glob(f".{target.name}.*.tmp"))


def test_a_notes_quotation_is_the_laws_own_words():
    """A note that quotes the law (issue 19: the quotation is set apart, so this site's reading
    beside it is short and plain) quotes its provision word for word."""
    provisions = {p["id"]: " ".join(p.get("text", "").split()) for p in RULES["provisions"]}
    quoted = [n for s in FORM["sections"] for n in s.get("notes", []) if "quote" in n]
    assert quoted
    for n in quoted:
        assert " ".join(n["quote"].split()) in provisions[n["cite"]], n["quote"]
        assert "This site's reading (the Town has not adopted it)" in n["text"]


def test_another_answer_than_yes_or_no_ticks_no_box():
    # the industrial-waste question's answer for a business's own sewage is neither box's
    office = [(q, "business-sewage-only" if q == "industrial-waste" else v) for q, v in CONTRACTOR]
    assert "industrial-waste" not in application.prefill(RULES, office)


def test_the_form_says_at_its_top_what_the_checker_found():
    """The lawyer's minor item: an application filled for work the checker found not allowed says
    so first, in the form itself (the first field of its first section), not only in the answer."""
    assert FORM["sections"][0]["id"] == "checker" and FORM["fields"][0]["name"] == "checker-result"
    sump = [(q, "yes" if q == "stormwater" else v) for q, v in CONTRACTOR]
    warning = application.prefill(RULES, sump)["checker-result"]
    # the sump pump is not allowed only as this site reads the law: the warning says so, and not "cannot
    # permit" (the usability test, Tony); a broken sewer pipe is the law's own words
    assert "cannot permit" not in warning
    # the disputed part named, for the Sewer Inspector to decide (the outside usability test public9: the
    # form is offered filled in for it, so the part can go to the Inspector)
    assert warning == ("FOR THE SEWER INSPECTOR TO DECIDE: Connecting a sump pump, roof leader, yard drain or "
                       "footing drain to the sewer. As this site reads the law, this is not allowed. The law's words "
                       "are not clear, and the Town has not adopted this reading.")
    pipe = [(q, "yes" if q == "sewer-pipe" else v) for q, v in CONTRACTOR]
    firm = application.prefill(RULES, pipe)["checker-result"]
    assert firm.startswith("WARNING: NOT ALLOWED.") and "cannot permit it as it stands" in firm
    assert application.prefill(RULES, CONTRACTOR)["checker-result"] == (
        "You need a permit from the Sewer Inspector, and the highway department's approval first.")
    assert "checker-result" not in application.prefill(RULES, CONTRACTOR[:3])   # not all answered: nothing said


def test_the_filled_pdf_for_prohibited_work_carries_the_warning(blank, tmp_path):
    sump = [(q, "yes" if q == "stormwater" else v) for q, v in CONTRACTOR]
    dst = tmp_path / "filled.pdf"
    application.fill_pdf(RULES, sump, {}, blank, dst)
    from pypdf import PdfReader
    fields = PdfReader(str(dst)).get_fields()
    # the sump pump, not allowed only as this site reads the law, goes to the Sewer Inspector on the form
    assert str(fields["checker-result"]["/V"]).startswith(
        "FOR THE SEWER INSPECTOR TO DECIDE: Connecting a sump pump, roof leader, yard drain or footing drain")
    pipe = [(q, "yes" if q == "sewer-pipe" else v) for q, v in CONTRACTOR]
    application.fill_pdf(RULES, pipe, {}, blank, dst)
    assert str(PdfReader(str(dst)).get_fields()["checker-result"]["/V"]).startswith("WARNING: NOT ALLOWED.")


# ---- not applicable, and the connection branch (issue 34, Tony) --------------------------

def answer_conditions(when: dict) -> list[dict]:
    """Each {answer, is} in a condition, through its all/any/not."""
    if "answer" in when:
        return [when]
    return [c for key in ("all", "any") for w in when.get(key, []) for c in answer_conditions(w)] + (
        answer_conditions(when["not"]) if "not" in when else [])


def test_a_question_that_may_not_apply_has_a_not_applicable_box_named_by_a_real_answer():
    na = {f["name"] for f in FORM["fields"] if "not_applicable" in f}
    assert {"oil-separator", "trade-waste-treatment", "highway-approval"} <= na
    for f in FORM["fields"]:
        if "not_applicable" in f:
            assert f["type"] == "yes-no", f["name"]
            for when in answer_conditions(f["not_applicable"]["when"]):
                values = {c["value"] for c in QUESTIONS[when["answer"]]["choices"]}
                assert set([when["is"]] if isinstance(when["is"], str) else when["is"]) <= values, f["name"]
            assert application.widget_names(f)[-1] == f"{f['name']}-na"


def test_no_garage_drains_and_no_trade_waste_tick_not_applicable():
    values = application.field_values(RULES, CONTRACTOR)
    assert values["oil-separator"] == "na"           # flammables-washstand=no: no such drains
    assert values["trade-waste-treatment"] == "na"   # trade-waste=no
    assert "highway-approval" not in values          # the road is opened: the approval is the applicant's to state


def test_work_on_a_septic_system_ticks_not_applicable_for_what_a_connection_carries():
    """public14 #9: a septic-only application printed the public sewer's questions blank."""
    septic = application.field_values(RULES, [("work", "septic-system")])
    discharges = [f["name"] for f in FORM["fields"] if f["section"] == "discharges"]
    assert discharges and all(septic[name] == "na" for name in discharges), septic
    connection = application.field_values(RULES, CONTRACTOR)
    assert {name for name in discharges if connection.get(name) == "na"} == {"oil-separator", "trade-waste-treatment"}


def test_garage_drains_with_a_separator_tick_yes_not_not_applicable():
    answers = [(a, v) for a, v in CONTRACTOR if a != "flammables-washstand"]
    answers.insert(3, ("flammables-washstand", "yes"))
    answers.insert(4, ("oil-separator", "yes"))
    assert application.field_values(RULES, answers)["oil-separator"] == "yes"


def test_not_applicable_is_typed_only_where_the_field_has_that_box():
    assert application.field_values(RULES, (), {"oil-separator": "N/A"})["oil-separator"] == "na"
    with pytest.raises(InputError, match="yes or no; give yes or no, not “na”"):
        application.field_values(RULES, (), {"plans-attached": "na"})
    with pytest.raises(InputError, match="yes, no or not applicable"):
        application.field_values(RULES, (), {"oil-separator": "maybe"})


def test_the_form_asks_where_the_inspector_placed_the_connection_branch():
    f = FIELDS["connection-branch"]
    assert f["cite"] == "prohibited-acts.D" and f["type"] == "text"
    source = (ROOT / "rules" / "source" / "sewer-use-law.txt").read_text(encoding="utf-8")
    assert "connection branches will be designated by the\nSewer Inspector" in source


def test_the_filled_pdf_ticks_the_not_applicable_box(blank, tmp_path):
    out = tmp_path / "filled.pdf"
    application.fill_pdf(RULES, CONTRACTOR, {"connection-branch": "Front of the lot"}, blank, out)
    ticked = {name for name, a in widgets(out) if a.get("/V") not in (None, "/Off")}
    assert {"oil-separator-na", "trade-waste-treatment-na"} <= ticked
    assert not {"oil-separator-yes", "oil-separator-no"} & ticked
    assert filled_values(out)["connection-branch"] == "Front of the lot"


def test_a_link_to_a_device_as_output_is_called_a_device_as_the_bill_runs_call_it(tmp_path, capsys):
    """The eighth hostile tester, F9: `--output` naming a link to /dev/full was called "a folder". It is said
    in the bill runs' one wording (files.what_is_at: "a link to /dev/full, a device, not a file"), with and
    without --force, and nothing is written; a real folder is still called a folder."""
    from calculator.cli import main
    from kit.billrun import command as bill_run
    link = tmp_path / "full.pdf"
    link.symlink_to("/dev/full")
    argv = ["application", "--answer", "work=new-connection", "--field", "owner-name=Z", "--output", str(link)]
    for force in ([], ["--force"]):
        assert main([*argv, *force]) == 2
        err = capsys.readouterr().err
        assert f"“{link}” is not a file: it is a link to /dev/full, a device, not a file. Give the name of a file " \
               "to write, like application.pdf." in err, err
        assert "folder" not in err
    assert bill_run.main(["--quarter", "2025-Q4", "--accounts", "a.csv", "--reads", "r.csv", "--out", str(link)]) != 0
    assert "it is a link to /dev/full, a device, not a file." in capsys.readouterr().err  # the same words
    (tmp_path / "dir.pdf").mkdir()
    assert main([*argv[:-1], str(tmp_path / "dir.pdf")]) == 2
    assert "is a folder. Give the name of a file" in capsys.readouterr().err
    assert main(["--lang", "es", *argv]) == 2
    err = capsys.readouterr().err
    assert "no es un archivo: es un enlace a /dev/full, un dispositivo, no un archivo." in err, err


@pytest.mark.parametrize("typed,words", [("15/3/2027", "15 de marzo de 2027"), ("2027-03-15", "15 de marzo de 2027"),
                                         ("15 de marzo de 2027", "15 de marzo de 2027"),
                                         ("5/4/2027", "5 de abril de 2027")])
def test_the_spanish_signature_date_is_read_day_month_year_as_the_bill_form_is(typed, words):
    """The Spanish reviewer spanish8, #11: the bill form reads and suggests día/mes/año (15/3/2027); the
    signature date said only año-mes-día. Both now read the page's order, and its hint says so."""
    from calculator.core.i18n import speaking
    with speaking("es"):
        values = application.field_values(RULES, [], {"signature-date": typed})
    assert values["signature-date"] == words
    # the hint is the estimator's, which the form prints after the field's help (the usability test, Tony)
    from kit.documents.layout import application_html
    for lang, order, example in (("es", "día/mes/año", "15/3/2027"), ("en", "month/day/year", "3/15/2027")):
        with speaking(lang):
            html = application_html(localized_rules(), "pdf")
        hint = re.search(r'id="field-signature-date-hint">(.*?)</p>', html, re.S).group(1)
        assert order in hint and example in hint, hint
    assert application.field_values(RULES, [], {"signature-date": "3/15/2027"})["signature-date"] == "March 15, 2027"


def test_an_answer_changed_on_the_form_leaves_out_the_checker_s_finding_and_says_why():
    """The usability test residents30 (Tony): "sump pump: No" typed on the form, under a printed "FOR THE SEWER
    INSPECTOR TO DECIDE: Connecting a sump pump" from the checker's "yes". The finding is for the checker's
    answers: where the form's differ, it is left out, the form says which question and what to do."""
    from casebook import complete_permit_answers
    from calculator.core.i18n import speaking
    answers = complete_permit_answers(RULES, [("work", "new-connection"), ("street-opening", "yes"),
                                              ("stormwater", "yes")])
    as_checked = application.field_values(RULES, answers)
    assert as_checked["drain-water"] == "yes" and as_checked["checker-result"].startswith("FOR THE SEWER INSPECTOR")
    # the same answer typed again, or the finding's own text sent back (as the web form does): unchanged
    again = application.field_values(RULES, answers, {"drain-water": "yes",
                                                      "checker-result": as_checked["checker-result"]})
    assert again["checker-result"] == as_checked["checker-result"]
    changed = application.field_values(RULES, answers, {"drain-water": "no",
                                                        "checker-result": as_checked["checker-result"]})
    label = next(f["label"] for f in application.form(RULES)["fields"] if f["name"] == "drain-water")
    assert changed["checker-result"].startswith("YOUR ANSWERS CHANGED") and f"“{label}”" in changed["checker-result"]
    assert "FOR THE SEWER INSPECTOR" not in changed["checker-result"] and changed["drain-water"] == "no"
    # a finding the person wrote over is theirs
    own = application.field_values(RULES, answers, {"drain-water": "no", "checker-result": "Discussed with the Inspector."})
    assert own["checker-result"] == "Discussed with the Inspector."
    # a field the checker did not fill (left blank by it) changes nothing
    assert application.field_values(RULES, answers, {"highway-approval": "yes"})["checker-result"] == \
        as_checked["checker-result"]
    with speaking("es"):
        spanish = application.field_values(RULES, answers, {"drain-water": "no"})["checker-result"]
    assert spanish.startswith("SUS RESPUESTAS CAMBIARON") and "«" in spanish
