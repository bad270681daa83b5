"""The law's text as provisions, reassembled in the law's order."""
from __future__ import annotations

import datetime as dt

from .dates import series
from .i18n import _


# id(provisions list) -> (that list, its length, {id: provision}, {what was worked out from them}): an
# answer cites a dozen provisions, and each citation looked them up in a dict made afresh (most of a
# bill's explaining time). The list is kept with its index, so its id is never reused for another list;
# a list that has grown or shrunk since is indexed again. The last dict keeps each provision's `parts`
# and `citation`, which read only the provisions (the permit checker's walk of every path spent half
# its time putting the same citations into words again).
_indexes: dict[int, tuple[list, int, dict, dict]] = {}


def _indexed(rules: dict) -> tuple[list, int, dict, dict]:
    provisions = rules["provisions"]
    known = _indexes.get(id(provisions))
    if known is None or known[0] is not provisions or known[1] != len(provisions):
        if len(_indexes) > 64:
            _indexes.clear()
        known = _indexes[id(provisions)] = (provisions, len(provisions), {p["id"]: p for p in provisions}, {})
    return known


def by_id(rules: dict) -> dict:
    """The law's provisions by id."""
    return _indexed(rules)[2]


def memo(rules: dict) -> dict:
    """A dict kept with these provisions (and dropped with them) for what is worked out from them
    alone, keyed by what else it depends on (calculator/core/explain.py: law_words)."""
    return _indexed(rules)[3]


def anchor(provision_id: str) -> str:
    """The HTML anchor of a provision on /law/: its id lower-cased, dots as hyphens."""
    return provision_id.lower().replace(".", "-")


def citation(rules: dict, ident: str, heading: bool = True) -> str:
    """A provision as a reader of the law names it, in words: "Sewer rents F (Due dates
    and late penalty)", "Industrial waste B(2) (Requiring pretreatment)", "Minimum charge";
    with its § once the Town's section numbers are known. The one place citations are
    put into words (pages, notices, the application, the engine's explanations).
    `heading=False`: without the provision's own heading ("Sewer rents F"), for a name in a sentence."""
    if "provisions" not in rules:
        # a partial rules dict: the schedule checks run on the parameters alone, while the
        # rules are still being compiled ("rate-schedules.C" -> "Rate schedules C")
        article, _, rest = ident.partition(".")
        return f"{article.replace('-', ' ').capitalize()} {rest.replace('.', '')}".strip()
    _list, _length, provisions, memo = _indexed(rules)
    key = ("citation", ident, heading)
    if key in memo:
        return memo[key]
    p = own = provisions[ident]
    labels = []
    while p.get("parent"):
        labels.append(p.get("label", "").strip().rstrip("."))
        p = provisions[p["parent"]]
    section = f"§ {p['section']} " if p.get("section") else ""
    if not labels:
        said = f"{section}{p['heading']}"
    else:
        name = f"{section}{p['heading']} {''.join(reversed(labels))}"
        said = f"{name} ({own['heading']})" if heading else name
    memo[key] = said
    return said


def parts(rules: dict, ident: str) -> tuple[str, str, str]:
    """A provision's article (the id at the top of its tree), its label within it ("F", "C(1)";
    "" for the article itself) and its own heading: ("rents", "F", "Due dates and late penalty")."""
    _list, _length, provisions, memo = _indexed(rules)
    key = ("parts", ident)
    if key in memo:
        return memo[key]
    p = own = provisions[ident]
    labels = []
    while p.get("parent"):
        labels.append(p.get("label", "").strip().rstrip("."))
        p = provisions[p["parent"]]
    said = memo[key] = (p["id"], "".join(reversed(labels)), own["heading"])
    return said


def words(rules: dict, ident: str, first: str, last: str) -> str:
    """The law's own words in a provision, from `first` to `last` inclusive, as rules/law.yaml
    holds them: an answer quotes the law from the law, never from a copy. A KeyError when the
    provision no longer has those words (the tests run every quoting answer)."""
    text = by_id(rules)[ident].get("text", "")
    start = text.find(first)
    end = text.find(last, max(start, 0))
    if start < 0 or end < 0:
        raise KeyError(f"{ident} no longer says {first!r} … {last!r}: change the quoting answer with the law")
    return text[start:end + len(last)]


#: Every passage of the law an answer or a page quotes, by name: (provision, first words, last
#: words) for a part of its text, (provision, WHOLE) for all of it, (provision, FIRST_SENTENCE)
#: for its first sentence. The engine and the pages quote through `quoted`, never a copy, so this
#: table is also what the translations' census (`census`) lists: each passage has the site's
#: unofficial translation beside it in another language (rules/locale/<lang>/law.po).
WHOLE = "whole"
FIRST_SENTENCE = "first sentence"
QUOTED = {
    # calculator/bills/bill.py: a schedule not adopted before its fiscal year
    "fiscal-year-schedule": ("rate-schedules.A", "Prior to the start of each fiscal year",
                             "for the upcoming fiscal year."),
    # calculator/bills/bill.py: a sewage meter's reading billed
    "sewage-meter": ("rents.C.1", "purchase an approved measuring device",
                     "based upon the metered usage of the sewage system."),
    # calculator/bills/bill.py: unpaid charges are a lien
    "lien": ("rents.G", "Operations and maintenance charges shall", "Municipal Law."),
    # calculator/rates/notices.py: the annual notice's lien (the provision's whole text, its title too)
    # the sentence, without the subsection's heading before it (clerk11, U2: "… to constitute lien. Operations …")
    "lien-provision": ("rents.G", "Operations and maintenance charges shall", "General Municipal Law."),
    # calculator/rates/vc.py: VC from projected costs
    "projected-costs": ("rents.D", "If past date is not available", "expenditures for the year."),
    # calculator/industry.py and the industry page: federal standards, whatever the test says
    "federal-standards": ("pretreatment.E", FIRST_SENTENCE),
    # calculator/industry.py and the industry page
    "flow-limits": ("industrial-waste.A", WHOLE),
    "violation-costs": ("pretreatment.C", WHOLE),
    "sampling-exception": ("pretreatment.A.5", "except as such may be caused", "as required above."),
    "refuse-waste": ("industrial-waste.B.1", WHOLE),
    # the industry page
    "measurements": ("measurements", WHOLE),
    "significant-impact": ("pretreatment.E.4", "singly or in combination", "contributing industries"),
}


def quoted(rules: dict, name: str) -> str:
    """A passage of the law the engine or a page quotes (QUOTED), word for word as rules/law.yaml
    holds it, on one line. A KeyError when the law no longer says it (`words`)."""
    ident, *where = QUOTED[name]
    if where == [WHOLE]:
        return " ".join(by_id(rules)[ident]["text"].split())
    if where == [FIRST_SENTENCE]:
        return " ".join(first_sentence(rules, ident).split())
    return words(rules, ident, *where)


def census(rules: dict) -> dict[str, list[str]]:
    """Every quotation of the law an answer, a page, a notice or a document can show, on one line,
    with where it is kept: the passages the engine and the pages quote (QUOTED), each parameter's
    quote (every value it has had: an answer quotes the one in force), each reading's quoted text
    (rules/interpretations/), the application form's quotations and every provision's own words
    (`law_page_words`: /law/ shows each, translated in another language). The translations' catalogue
    of the law's words (rules/locale/<lang>/law.po) is made from it (kit/words/messages.py)."""
    found: dict[str, list[str]] = {}

    def add(text, where: str) -> None:
        if isinstance(text, str) and text.strip():
            found.setdefault(" ".join(text.split()), []).append(where)
    for name in QUOTED:
        try:
            add(quoted(rules, name), f"calculator/core/law.py#{name}")
        except KeyError:  # the law no longer says it: the quoting answer's own tests name it
            pass
    for name, p in (rules.get("parameters") or {}).items():
        for e in p.get("history") or [p]:
            add(e.get("quote"), f"rules/parameters/{name}.yaml")
    readings = rules.get("interpretations") or {}
    for ident, reading in (readings.items() if isinstance(readings, dict) else ((r["id"], r) for r in readings)):
        add(reading.get("text"), f"rules/interpretations/{ident}.yaml")
    for section in (rules.get("application_form") or {}).get("sections", []):
        for note in section.get("notes", []):
            add(note.get("quote"), "rules/application-form.yaml")
    add(((rules.get("application_form") or {}).get("office_use") or {}).get("quote"), "rules/application-form.yaml")
    # every provision's own words as /law/ shows them, which in another language has the site's
    # translation under each (issue 33): its history notes, its defined term, its text, its formula's meanings
    for article in (rules.get("law") or {}).get("articles", []):
        for note in article.get("notes_before", []):
            add(note, f"rules/law.yaml#{article['id']}")
    for p in rules.get("provisions") or []:
        for text in law_page_words(p):
            add(text, f"rules/law.yaml#{p['id']}")
    return found


def law_page_words(p: dict) -> list[str]:
    """The pieces of a provision's own words that /law/ shows, in order (the label and the heading
    aside): each is one entry of the translations' catalogue of the law's words."""
    formula = p.get("formula") or {}
    return [w for w in (*p.get("notes_before", []), p.get("term"), p.get("text"),
                        *(m["meaning"] for m in formula.get("where", [])), *p.get("notes_after", []))
            if isinstance(w, str) and w.strip()]


def provision_text(p: dict) -> str:
    """A provision's own words (not its children's), as received."""
    parts = []
    if p.get("label"):
        parts.append(p["label"])
    if p.get("term"):
        parts.append(p["term"])
    if p.get("text"):
        parts.append(p["text"])
    f = p.get("formula")
    if f:
        parts.append(f["expression"])
        parts.append("where:")
        parts.extend(f"{w['symbol']} = {w['meaning']}" for w in f["where"])
    return " ".join(parts)


def first_sentence(rules: dict, ident: str) -> str:
    """A provision's first sentence, word for word (to quote what it says before its details)."""
    text = next(p["text"] for p in rules["provisions"] if p["id"] == ident)
    end = text.find(". ")
    return text if end < 0 else text[: end + 1]


def provisions(rules: dict) -> list[dict]:
    return [{"id": p["id"], "heading": p["heading"], "section": p.get("section"),
             "article": p["article"], "parent": p["parent"],
             "text": provision_text(p),
             "notes": p.get("notes_before", []) + p.get("notes_after", [])} for p in rules["provisions"]]


def full_text(rules: dict) -> str:
    """The whole law, words in order, history notes where they stand in the source."""
    out = []
    by_article = {a["id"]: a for a in rules["law"]["articles"]}
    started = set()
    for p in rules["provisions"]:
        art = p["article"]
        if art not in started:
            started.add(art)
            out.extend(by_article[art].get("notes_before", []))
        out.extend(p.get("notes_before", []))
        out.append(provision_text(p))
        out.extend(p.get("notes_after", []))  # only leaves carry closing notes in our text
    return " ".join(x for x in out if x)


def enactments(rules: dict) -> list[dict]:
    """The local laws that enacted and amended this law (rules/law.yaml `enactments`), oldest first."""
    return sorted(rules["law"].get("enactments", []), key=lambda e: e["date"])


def local_law_name(number: str) -> str:
    """"1-1992" as a notice writes it: "Local Law No. 1 of 1992" (in Spanish, "la Ley Local
    n.º 1 de 1992": the name in the reader's language, the number and year as the Town's)."""
    no, year = number.split("-")
    return _("Local Law No. {number} of {year}").format(number=no, year=year)


def history_words(rules: dict) -> str:
    """The law's enactments in words, for a notice: "Local Law No. 2 of 1989, as amended by
    Local Law No. 1 of 1992", or "as amended by Local Law No. 1 of 1992" when only the
    amendment is on record; "" when none is."""
    laws = enactments(rules)
    enacted = ", ".join(local_law_name(e["local_law"]) for e in laws if e["action"] == "enacted")
    amended = [local_law_name(e["local_law"]) for e in laws if e["action"] == "amended"]
    if not amended:
        return enacted
    if enacted:
        return _("{enacted}, as amended by {amended}").format(enacted=enacted, amended=series(amended))
    return _("as amended by {amended}").format(amended=series(amended))


def first_year(rules: dict) -> int:
    """The year of the earliest enactment on record: no earlier year has this law's dates."""
    laws = enactments(rules)
    return int(laws[0]["date"][:4]) if laws else dt.MINYEAR


def latest_enactment_date(rules: dict) -> str | None:
    laws = enactments(rules)
    return laws[-1]["date"] if laws else None
