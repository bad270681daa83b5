"""Whose readings these are (issue after an independent lawyer's reading, item 8): no reading of
the law has been adopted by the Town, so no page, answer, notice, document or message says a
reading is the Town's. A reading is this site's until the Town adopts one.

Checked in the words as written (the engine, the kit, rules/, the page templates and scripts, every
catalogue's English and Spanish) and in the built site, English and Spanish pages alike."""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# the ways a sentence has said a reading is the Town's, in English and in Spanish
TOWNS = re.compile("|".join([
    r"Town's\s+reading", r"Town's\s+interpretation", r"readings\s+(?:of\s+the\s+law\s+)?are\s+the\s+Town's",
    r"(?:as|the)\s+Town\s+reads", r"Town\s+reads\s+(?:it|the|them|this|rate)", r"Town\s+Clerk\s+can\s+change\s+a\s+reading",
    r"interpretaci[oó]n(?:es)?\s+del\s+Pueblo", r"lectura(?:s)?\s+del\s+Pueblo", r"el\s+Pueblo\s+(?:l[oa]s?\s+)?(?:lee|interpreta)",
    r"son\s+del\s+Pueblo",
]), re.IGNORECASE)

SOURCES = [*ROOT.glob("calculator/*.py"), *ROOT.glob("kit/**/*.py"), *ROOT.glob("rules/**/*.yaml"),
           *ROOT.glob("rules/locale/es/*.po"), *ROOT.glob("docs/templates/**/*.j2"), *ROOT.glob("docs/assets/*.js"),
           *ROOT.glob("docs/*.md")]


def _live(text: str, suffix: str) -> str:
    """The text without a catalogue's comments (`#| msgid` keeps an old English for a fuzzy entry)."""
    if suffix == ".po":
        return "\n".join(line for line in text.splitlines() if not line.startswith("#"))
    return text


def _found(text: str) -> list[str]:
    flat = re.sub(r'"\s*\n\s*"', "", text)  # a catalogue's lines joined
    flat = re.sub(r"\s+", " ", flat)
    return sorted({m.group(0) for m in TOWNS.finditer(flat)})


def test_the_pattern_finds_what_was_said_before():
    for said in ("These readings are the Town's, not the law's own words.", "The Town's reading: roof leaders",
                 "(as the Town reads Rate schedules B)", "The Town reads it as waste water",
                 "La interpretación del Pueblo: los bajantes", "según como el Pueblo lee Rate schedules B", "el Pueblo los interpreta como las aguas residuales",
                 "The Town Clerk can change a reading"):
        assert _found(said), said
    assert not _found("This site's reading (the Town has not adopted it): roof leaders")
    assert not _found("La interpretación de este sitio (el Pueblo no la ha adoptado)")


@pytest.mark.parametrize("path", SOURCES, ids=[str(p.relative_to(ROOT)) for p in SOURCES])
def test_no_source_says_a_reading_is_the_towns(path):
    assert not _found(_live(path.read_text(encoding="utf-8"), path.suffix)), path


def test_no_built_page_or_document_says_a_reading_is_the_towns(built_site):
    site = Path(built_site)
    said = {}
    for path in site.rglob("*"):
        if path.suffix not in (".html", ".txt", ".js", ".xml", ".json", ".ics") or not path.is_file():
            continue
        if path.name.startswith("pyodide") or "pyodide" in path.parts:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        text = re.sub(r"<[^>]+>", "", text).replace("&#39;", "'").replace("&rsquo;", "'").replace("\u2019", "'")
        found = _found(text)
        if found:
            said[str(path.relative_to(site))] = found
    assert not said


def test_the_how_we_read_page_says_whose_readings_they_are(built_site):
    page = (Path(built_site) / "how-we-read-the-law" / "index.html").read_text(encoding="utf-8")
    assert "These readings are this site" in page.replace("&#39;", "'").replace("\u2019", "'")
    assert "The Town has not adopted any of them" in page
    es = (Path(built_site) / "es" / "how-we-read-the-law" / "index.html").read_text(encoding="utf-8")
    assert "El Pueblo no ha adoptado ninguna" in es
