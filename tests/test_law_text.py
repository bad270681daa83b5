"""The law as data keeps every word of the received text: nothing dropped, nothing added."""
import re
from pathlib import Path

from calculator.core import law
from calculator.core.rules import load

ROOT = Path(__file__).resolve().parent.parent
REQUIRED_IDS = (
    ["purpose", "system", "domestic-sewage", "house-connections", "industrial-waste", "industrial-waste.A",
     "industrial-waste.B", "industrial-waste.B.1", "industrial-waste.B.2", "measurements", "pretreatment.A",
     "pretreatment.B", "pretreatment.C", "pretreatment.D", "pretreatment.E", "permits", "permits.A", "permits.B",
     "permits.C", "permits.C.1", "permits.C.2", "permits.D", "rents.purpose", "rents.definitions",
     "rents.C.1", "rents.C.2", "minimum-charge"]
    + [f"prohibited-acts.{c}" for c in "ABCDEFGHIJ"]
    + [f"pretreatment.A.{n}" for n in range(1, 6)] + [f"pretreatment.E.{n}" for n in range(1, 5)]
    + [f"rents.{c}" for c in "ABCDEFGH"] + [f"rate-schedules.{c}" for c in "ABCD"]
)


def words(text: str) -> list[str]:
    # Whitespace-normalised; the lone "|" and "---|" of the received copy are the
    # rules of an HTML table (the CU = VC x VU formula), not words of the law.
    return [t for t in text.split() if not re.fullmatch(r"[|\-]+", t)]


def test_the_provisions_reassemble_the_received_text_exactly():
    source = (ROOT / "rules" / "source" / "sewer-use-law.txt").read_text(encoding="utf-8")
    rebuilt = law.full_text(load())
    got, want = words(rebuilt), words(source)
    for i, (a, b) in enumerate(zip(got, want)):
        assert a == b, f"word {i}: {' '.join(got[max(0, i - 8):i + 8])!r} vs {' '.join(want[max(0, i - 8):i + 8])!r}"
    assert len(got) == len(want), f"{len(got)} words rebuilt, {len(want)} in the source"


def test_every_contract_id_exists_in_the_law_s_order():
    ids = [p["id"] for p in load()["provisions"]]
    missing = [i for i in REQUIRED_IDS if i not in ids]
    assert not missing
    assert ids.index("prohibited-acts.A") < ids.index("prohibited-acts.J") < ids.index("rents.A")
    assert ids[0] == "purpose" and ids[-1] == "minimum-charge"


def test_history_notes_are_attached_where_we_documented():
    rules = load()
    notes = {p["id"]: p.get("notes_before", []) + p.get("notes_after", []) for p in rules["provisions"]}
    assert notes["minimum-charge"] == ["[Added 3-4-1992 by L.L. No. 1-1992]"]
    assert notes["rents.definitions.operations-and-maintenance-costs"] == ["[Amended 3-4-1992 by L.L No. 1-1992]"]
    assert rules["law"]["articles"][1]["notes_before"] == ["[Amended 3-4-1992 by L.L. No. 1-1992]"]
    total = sum(len(v) for v in notes.values()) + sum(len(a.get("notes_before", [])) for a in rules["law"]["articles"])
    source = (ROOT / "rules" / "source" / "sewer-use-law.txt").read_text(encoding="utf-8")
    assert total == len(re.findall(r"\[(?:Amended|Added) ", source))


def test_section_numbers_are_left_for_the_clerk():
    assert all(p["section"] is None for p in load()["provisions"])
