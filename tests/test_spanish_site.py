"""The Spanish site (/es/): every resident page at the same path as in English, each
in Spanish (<html lang="es">, no English sentence outside what is marked as English),
linked both ways (hreflang and a visible switch), with the same figures."""
import re
from pathlib import Path

import pytest

from english import english_sentences, looks_english, visible_text

RESIDENT_PAGES = ["", "estimate/", "permit/", "permit/application/", "industry/", "rates/", "notices/",
                  "how-we-read-the-law/", "law/"]


@pytest.fixture(scope="module")
def site(built_site):
    return built_site


def page(site: Path, path: str) -> str:
    return (site / path / "index.html").read_text(encoding="utf-8")


def test_the_detector_knows_english_from_spanish():
    assert looks_english("Your bill is due on the 15th of the month.")
    assert looks_english("Check if you need a permit before you dig.")
    assert not looks_english("Su factura vence el 15 de enero de 2027.")
    assert not looks_english("Revise si necesita un permiso antes de excavar.")
    assert not looks_english("Total: $110.40")
    assert english_sentences("Hola. This is the English one. Adiós.") == ["This is the English one."]


@pytest.mark.parametrize("path", RESIDENT_PAGES)
def test_every_resident_page_has_a_spanish_twin(site, path):
    english, spanish = page(site, path), page(site, f"es/{path}")
    assert '<html lang="en"' in english and '<html lang="es"' in spanish
    assert re.search(r'<link rel="alternate " hreflang="es" href="[^"]*"', english)
    assert re.search(r'<link rel="alternate " hreflang="en" href="[^"]*"', spanish)
    # the visible switch, each way, to the same path
    assert re.search(r'<a href="[^"]*es/' + re.escape(path) + r'" hreflang="es" lang="es" data-keep-query>Español</a>',
                     english), path
    assert re.search(r'hreflang="en" lang="en" data-keep-query>English</a>', spanish)


def test_every_spanish_page_is_in_spanish(site):
    """No English sentence in what a Spanish reader sees or hears, on every /es/ page
    (schedules' and notices' pages included), outside what is marked lang="en"."""
    found = {}
    pages = sorted((site / "es").rglob("index.html"))
    assert len(pages) >= len(RESIDENT_PAGES)
    for html in pages:
        english = english_sentences(visible_text(html.read_text(encoding="utf-8")))
        if english:
            found[html.relative_to(site).as_posix()] = english[:5]
    assert not found, "English on Spanish pages:\n" + "\n".join(f"{p}: {s}" for p, s in found.items())


def test_the_clerks_desk_stays_english_only(site):
    assert (site / "clerk" / "index.html").exists()
    assert not (site / "es" / "clerk").exists()
    assert 'hreflang="es"' not in page(site, "clerk/")


def test_spanish_pages_state_the_same_figures(site):
    """Every dollar amount on an English page is on its Spanish twin, and no other."""
    for path in RESIDENT_PAGES:
        def dollars(html):
            return sorted(set(re.findall(r"\$[\d,]+\.\d\d", visible_text(html, skip_english=False))))
        assert dollars(page(site, path)) == dollars(page(site, f"es/{path}")), path


def test_the_spanish_documents_are_spanish(site):
    import pikepdf
    for pdf in ["es/permit/application.pdf", *[p.relative_to(site).as_posix()
                                               for p in (site / "es" / "notices").rglob("*.pdf")]]:
        with pikepdf.open(site / pdf) as doc:
            assert str(doc.Root.Lang) == "es-US", pdf
    with pikepdf.open(site / "permit/application.pdf") as doc:
        assert str(doc.Root.Lang) == "en-US"


def test_the_not_found_page_speaks_spanish_too(site):
    """One 404.html serves the whole site (GitHub Pages): a Spanish reader who follows a
    broken /es/ link is told what to do in Spanish, and led to the Spanish home page."""
    html = (site / "404.html").read_text(encoding="utf-8")
    match = re.search(r'<section lang="es" aria-labelledby="not-found-es">(.*?)</section>', html, re.S)
    assert match, "no Spanish section on 404.html"
    assert "Página no encontrada" in match.group(1) and re.search(r'<a href="[^"]*es/" hreflang="es">', match.group(1))
    assert not english_sentences(visible_text(match.group(1)))
    assert "Go to the <a href=" in html  # and the English reader is told too
    # each language in a block of its own, under a heading that is neither: the script that puts the
    # Spanish first under /es/ is the site's own file (no inline script: the security policy)
    assert "<h1>404</h1>" in html and '<section lang="en" aria-labelledby="not-found-en">' in html
    assert re.search(r'<script type="module" src="/assets/not-found\.js"></script>', html)
    assert (site / "assets" / "not-found.js").is_file()
    # its footer's links are the site's (they were "//clerk/": another host)
    assert 'href="//' not in html


def test_a_spanish_reader_gets_a_not_found_page_all_in_spanish(site):
    """es/404.html (the Spanish reviewer's A.1: the 404 under /es/ had an English menu, title, footer,
    labels and `lang`): the local server sends it for a missing /es/ address, and on GitHub Pages the
    root's page opens it (assets/not-found.js). Nothing on it is English but the staff desk's link,
    which says it leads to English."""
    html = (site / "es" / "404.html").read_text(encoding="utf-8")
    assert re.search(r'<html lang="es"', html)
    assert re.search(r"<title>Página no encontrada - Alcantarillado de Pawling</title>", html)
    assert "<h1>404</h1>" in html and 'lang="en"' not in html.split("<body", 1)[1].replace('hreflang="en"', "")
    labels = re.findall(r'aria-label="([^"]*)"', html)
    assert "Navegación" in labels and "Cabecera" in labels and "Navigation" not in labels and "Header" not in labels
    assert "Calcular mi factura" in html and "Estimate my bill" not in html
    assert "Pueblo de Pawling, condado de Dutchess" in html and "Town of Pawling, Dutchess" not in html
    assert "not-found.js" not in html  # no script: nothing to move
    assert not english_sentences(visible_text(html)), english_sentences(visible_text(html))
    script = (site / "assets" / "not-found.js").read_text(encoding="utf-8")
    assert 'window.location.replace(new URL("404.html"' in script


def test_no_footer_says_made_with_material_for_mkdocs(site):
    """The generator notice was half English on a Spanish page (the reviewer's A.5): it is left out."""
    for path in ("index.html", "es/index.html", "es/404.html", "404.html", "es/estimate/index.html"):
        html = (site / path).read_text(encoding="utf-8")
        assert "Material for MkDocs" not in html and "Hecho con" not in html and "Made with" not in html, path


def test_the_local_server_answers_a_missing_page_with_the_sites_own_404(tmp_path):
    """`build.py serve` sends 404.html with status 404 for a missing address (as GitHub Pages does),
    not Python's English error page; its other errors are unchanged."""
    import threading
    import urllib.error
    import urllib.request
    from kit.site import build as kit_site
    (tmp_path / "404.html").write_text('<html><body><section lang="es">Página no encontrada</section></body></html>',
                                       encoding="utf-8")
    (tmp_path / "es").mkdir()  # a language's own "not found" page: sent for a missing address under its folder
    (tmp_path / "es" / "404.html").write_text('<html lang="es"><body>Solo en español</body></html>', encoding="utf-8")
    server = kit_site.serve(tmp_path, port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        base = f"http://127.0.0.1:{server.server_address[1]}"
        for path in ("/es/no-such-page/", "/no-such-page/"):
            with pytest.raises(urllib.error.HTTPError) as missing:
                urllib.request.urlopen(base + path, timeout=10)
            assert missing.value.code == 404
            assert missing.value.headers["Content-Type"] == "text/html; charset=utf-8"
            assert ("Solo en español" if path.startswith("/es/") else "Página no encontrada") in missing.value.read().decode("utf-8")
        request = urllib.request.Request(base + "/es/no-such-page/", method="HEAD")
        with pytest.raises(urllib.error.HTTPError) as head:
            urllib.request.urlopen(request, timeout=10)
        assert head.value.code == 404 and head.value.read() == b""
        (tmp_path / "404.html").unlink()  # without the page: Python's own answer, still 404
        with pytest.raises(urllib.error.HTTPError) as plain:
            urllib.request.urlopen(base + "/es/no-such-page/", timeout=10)
        assert plain.value.code == 404
    finally:
        server.shutdown()
        server.server_close()


SCRIPT_STRING = re.compile(r"""(["'`])((?:\\.|(?!\1)[^\\\n])*)\1""")


def english_script_strings(source: str) -> list[tuple[int, str]]:
    """The sentences a script could put on a page that are not asked of the catalogue:
    English-looking string literals outside t("…") and nt("…", "…") (comments left out)."""
    code = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), source, flags=re.S)
    code = re.sub(r"(?m)(^|[^:\\])//.*$", r"\1", code)
    found = []
    for m in SCRIPT_STRING.finditer(code):
        before = re.sub(r"\s+", " ", code[max(0, m.start() - 200):m.start()])  # `return t(` stays two words
        asked = re.search(r"(?<![\w.])n?t\( ?$", before) or re.search(r"(?<![\w.])nt\( ?(\"[^\"]*\") ?, ?$", before)
        words = re.sub(r"\$\{[^}]*\}", " ", m.group(2))
        # (the browser's console is not the page: a message there is for whoever helps the resident)
        console = re.search(r"(?<![\w.])console\.(error|warn|log|info)\( ?$", before)
        if not asked and not console and " " in words.strip() and looks_english(words):  # one token: an id, a selector
            found.append((code[: m.start()].count("\n") + 1, m.group(2)))
    return found


#: the scripts of the Clerk's desk (its pages are English only): no Spanish page loads them
CLERKS_SCRIPTS = {"clerk.js", "bill-run.js"}


def test_every_sentence_a_script_can_show_on_a_spanish_page_is_translated(site):
    """A script's words reach a Spanish page only through t()/nt() and scripts.po (the Clerk's
    desk, English only, is left out): no English sentence hard-coded in a script."""
    for html in (site / "es").rglob("*.html"):
        loaded = re.findall(r'<script[^>]*src="[^"]*/([\w-]+\.js)', html.read_text(encoding="utf-8"))
        assert not CLERKS_SCRIPTS & set(loaded), html
    assets = Path(__file__).resolve().parent.parent / "docs" / "assets"
    found = {p.name: english_script_strings(p.read_text(encoding="utf-8"))
             for p in sorted(assets.glob("*.js")) if p.name not in CLERKS_SCRIPTS}
    assert not {k: v for k, v in found.items() if v}, found
    assert english_script_strings('// The meeting is near.\nx.textContent = "The meeting is today.";\n'
                                  'y = t("The meeting is today."); z = nt("{n} day is left", "{n} days are left", 2);'
                                  'console.error(`The meeting could not be read: ${e}`);'
                                  ) == [(2, "The meeting is today.")]


#: a section written another way than the law's own "C(1)": "C.1", "E.2" (an id like rents.C.1 is not text)
OTHER_SECTION_STYLE = re.compile(r"(?<![\w.\-/#])[A-Z]\.\d")


def test_every_page_writes_a_section_as_the_law_does(site):
    """One style for a provision's place, the law's own, in both languages: "C(1)", never "C.1" or "E.1"
    (the fourth Spanish review found both on one page). Ids (rents.C.1) and addresses are not text."""
    found = {}
    for html in sorted(site.rglob("*.html")):
        text = visible_text(html.read_text(encoding="utf-8"), skip_english=False, skip_code=True)
        hits = [text[max(0, m.start() - 30):m.end() + 10] for m in OTHER_SECTION_STYLE.finditer(text)]
        if hits:
            found[html.relative_to(site).as_posix()] = hits[:3]
    assert not found, found
    assert OTHER_SECTION_STYLE.search("la sección C.1 de Permisos") and not OTHER_SECTION_STYLE.search("rents.C.1")


#: the page and tool for industries (/industry/) has one Spanish name (rules/glossary.yaml: industry guide)
INDUSTRY_GUIDE = "Guía para industrias"


def test_the_industry_guide_has_one_spanish_name(site):
    """In the menu, its title, the links to it and the sentences that name it: «Guía para industrias»,
    never one of the other names the glossary lists to avoid."""
    import yaml
    glossary = yaml.safe_load((Path(__file__).resolve().parent.parent / "rules" / "glossary.yaml").read_text())
    term = next(t for t in glossary["terms"] if t["en"] == "industry guide")
    assert term["es"].lower() == INDUSTRY_GUIDE.lower() and len(term["avoid"]) >= 3
    industry = page(site, "es/industry/")
    assert f"<title>{INDUSTRY_GUIDE} - " in industry and re.search(rf"<h1[^>]*>{INDUSTRY_GUIDE}</h1>", industry)
    for html in sorted((site / "es").rglob("*.html")):
        text = visible_text(html.read_text(encoding="utf-8")).lower()
        assert not [w for w in term["avoid"] if w.lower() in text], html
        # the menu names it so on every page
        assert INDUSTRY_GUIDE in html.read_text(encoding="utf-8") or "md-nav" not in html.read_text(encoding="utf-8"), html


def test_the_estimators_readings_have_the_same_words_in_its_messages(site):
    """The estimator's box is «Lectura más reciente», and so is every message about it (it was «lectura
    actual» in the messages)."""
    from kit.words.language import page_words
    words = page_words("es")
    assert words["Latest reading"] == "Lectura más reciente"
    from calculator.cli import run_json
    import json
    out = json.loads(run_json(["bill", "--quarter", "2027-Q1", "--meter", "water-gallons", "--previous-reading", "2000",
                               "--current-reading", "1000", "--lang", "es"]))
    assert out["field"] == "current-reading" and out["error"].startswith("La lectura más reciente es menor")
    out = json.loads(run_json(["bill", "--quarter", "2027-Q1", "--meter", "water-gallons", "--previous-reading", "2000",
                               "--lang", "es"]))
    assert out["error"].startswith("Falta la lectura más reciente del medidor")
    assert "lectura actual" not in page(site, "es/estimate/").lower()


def test_no_page_leaves_a_check_to_the_browsers_own_words(site):
    """A browser's own bubble ("Please fill out this field.", "Please enter a valid value.") is in the
    browser's language, not the page's (the Spanish reviewer's A.2): every form is `novalidate` and checked
    by the site's own script, and a required question outside a form says so with aria-required."""
    for path in sorted(site.rglob("*.html")):
        html = path.read_text(encoding="utf-8")
        for form in re.findall(r"<form\b[^>]*>", html):
            assert "novalidate" in form, (path, form)
        controls = re.findall(r"<(?:input|textarea|select)\b[^>]*>", html)
        assert not [c for c in controls if re.search(r"\s(required|pattern|min|max|minlength|maxlength)(=|\s|>)", c)
                    and "clerk" not in str(path)], path


def test_the_payment_date_box_says_how_to_write_a_date_in_the_pages_language(site):
    """A date box (type="date") shows mm/dd/yyyy on an English browser, on the Spanish page too (the
    reviewer's A.3): the box is text, and its hint says the orders the engine reads in the page's language:
    month/day/year in English, day/month/year in Spanish, or year-month-day (issue 34)."""
    for path, hint in (("estimate/index.html", "Write it as month/day/year or year-month-day: like 3/15/2027 or "
                                               "2027-03-15 for March 15, 2027."),
                       ("es/estimate/index.html", "Escríbala como día/mes/año o año-mes-día: por ejemplo, 15/3/2027 o "
                                                  "2027-03-15")):
        html = (site / path).read_text(encoding="utf-8")
        assert 'type="date"' not in html, path
        assert re.search(r'<input type="text" id="paid-on"[^>]*aria-describedby="paid-on-hint', html), path
        assert hint in re.search(r'<p class="hint" id="paid-on-hint">(.*?)</p>', html, re.S).group(1), path
    from calculator.core.dates import parse_date
    assert str(parse_date("2027-03-15", "x")) == "2027-03-15"


def test_the_data_pages_example_program_speaks_the_pages_language(site):
    """/es/data/: the example program's comments and what it prints were English (the reviewer's A.4).
    They are Spanish; the files' keys stay as the files write them (they are data)."""
    html = (site / "es" / "data" / "index.html").read_text(encoding="utf-8")
    program = re.search(r'<pre lang="en" class="data-example"><code>import json.*?</code></pre>', html, re.S).group(0)
    for english in ("per 1,000 gallons", "Not adopted by the Town", "Made for fiscal year", "no schedule is recorded"):
        assert english not in program, english
    assert '"<span lang="es">por cada 1,000 galones;</span>"' in program  # Spanish, marked so in the code
    assert '# <span lang="es">el día que busca' in program
    assert 's["vc_per_1000_gallons"]' in program.replace("&quot;", '"')  # the keys are the files'
    english_page = (site / "data" / "index.html").read_text(encoding="utf-8")
    assert '<pre lang="en" class="data-example"><code>import json' in english_page and '<span lang=' not in english_page.split('import json')[1].split('</pre>')[0]


def test_the_industry_guide_says_each_duty_as_a_duty(site):
    """The Spanish reviewer spanish8, #18: «Entonces construye…», «Mide el caudal…» read as descriptions of
    what a business does, not as what the law asks of it. Each duty is said with «debe»."""
    text = visible_text(page(site, "es/industry/"))
    for duty in ("Un negocio que descarga aguas residuales industriales debe mantener la cantidad", "debe pagarle al Pueblo",
                 "deben medirse y analizarse", "El negocio debe construirlas y mantenerlas",
                 "Debe construirse según planos", "Debe medir el caudal todo el tiempo",
                 "Debe tomar una muestra", "Debe registrar el pH"):
        assert duty in text, duty
    for description in ("El negocio las construye", "Todo negocio mantiene", "Mide el caudal todo el tiempo",
                        "Toma una muestra", "Registra el pH", "Se construye según planos"):
        assert description not in text, description
    english = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page(site, "industry/")))  # (visible_text keeps no English)
    assert "The business must build and maintain them" in english and "It must measure the rate" in english


def test_every_spanish_table_of_contents_has_one_name(site):
    """The Spanish reviewer spanish8, #23: «Índice de la página» (our toggle) beside the theme's «Tabla de
    contenidos» for one table of contents; a screen reader announced both."""
    names = set()
    for html in sorted((site / "es").rglob("index.html")):
        source = html.read_text(encoding="utf-8")
        assert "Índice de la página" not in source, html
        names |= set(re.findall(r'id="__toc"[^>]*aria-label="([^"]+)"', source))
        names |= set(re.findall(r'<nav class="md-nav md-nav--secondary" aria-label="([^"]+)"', source))
    assert names == {"En esta página"}, names  # not the calque «Tabla de contenidos» (spanish13, C-3)


@pytest.mark.parametrize("path,said,not_said", [
    # the Spanish reviewer spanish8: #19, #20, #21, #12
    ("", "¿Su negocio es una industria aportante principal?", "¿Es un negocio una industria"),
    ("how-we-read-the-law/", "La desventaja es que la tabla entraría en vigor en una fecha distinta de la publicada",
     "El costo es una fecha"),
    ("how-we-read-the-law/", "incluido el caudal extraño", "caudal ajeno"),
    # the Spanish reviewer spanish9: #7, #16, #3, #2, #11, #12, #9, #14, #15
    ("", "Estas son estimaciones.", "cálculos estimados"),
    ("industry/", "Sin ese número no podremos decir si el negocio pasa del", "La verificación no podrá decidir"),
    ("how-we-read-the-law/", "caudal extraño (agua de lluvia o subterránea que entra en el alcantarillado)",
     "de O&M"),
    ("law/", "(cada año)", "(mes y día))"),  # spanish17 #6: "(fechas del año: mes y día)" was jargon
    ("law/", "parte del cargo no pagado", "fracción del cargo"),
    ("permit/application/", "marque «No corresponde»", "marque No corresponde"),
    ("estimate/", "cargo mínimo es de", "por trimestre (cargo mínimo)"),
    ("how-we-read-the-law/", "todavía no se sabe cuánta agua se usará", "no puede conocer el consumo"),
    ("permit/application/", "Lugar del ramal de conexión que indicó el Inspector de Alcantarillado",
     "Dónde ha ubicado el Inspector"),
])
def test_the_reviewers_plainer_spanish_is_on_the_page(site, path, said, not_said):
    text = re.sub(r"\s+", " ", visible_text(page(site, f"es/{path}")))
    assert said in text and not_said not in text


def test_every_english_name_glossed_in_a_spanish_sentence_is_marked_english(site):
    """spanish10, F3: «Pueblo de Pawling (en inglés, “Town of Pawling”)» was read by a screen reader in Spanish
    sounds. Every such gloss in a page's text is lang="en"; in an attribute or the title it stays plain text."""
    import re
    seen = 0
    for path in sorted((site / "es").rglob("*.html")):
        html = path.read_text(encoding="utf-8")
        body = html.split("<body", 1)[1]
        text = re.sub(r"<(script|style|title|textarea|option)\b.*?</\1>", "", body, flags=re.S)
        text = re.sub(r'(<[a-z][^>]*>)', lambda t: re.sub(r'="[^"]*"', lambda v: '="en"' if v.group(0) == '="en"'
                                                         else '=""', t.group(1)), text)  # attribute values
        for m in re.finditer(r"\(en inglés, “(.*?)”\)", text):
            seen += 1
            assert m.group(1).startswith("<span") and 'lang="en"' in m.group(1).split(">", 1)[0], (path, m.group(0))
        assert '<span lang="en">' not in (re.search(r"<title>(.*?)</title>", html, re.S) or [""])[0]
    assert seen >= 5
    assert '(en inglés, “<span lang="en">Town of Pawling</span>”)' in page(site, "es/permit/")
