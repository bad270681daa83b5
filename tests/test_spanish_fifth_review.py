"""The fifth Spanish review (a county language-access office): wrong meanings and second words
that a reader met on the Spanish site, each checked where it was written."""
import re

from kit.words.messages import po_path, read_catalogue
from calculator.core.rules import load

RULES = load()


def _strings(domain: str) -> list[tuple[str, str]]:
    """(English, Spanish) of every translated message of a catalogue, plural forms joined."""
    join = lambda s: " / ".join(s) if isinstance(s, (tuple, list)) else s  # noqa: E731
    return [(join(m.id), join(m.string)) for m in read_catalogue(po_path("es", domain)) if m.id and m.string]


def _all_spanish() -> list[tuple[str, str, str]]:
    return [(d, en, es) for d in ("engine", "rules", "pages", "scripts", "law") for en, es in _strings(d)]


def test_the_inspection_says_where_the_systems_parts_are():
    # item 4: «la parte de la propiedad donde está/se encuentra» (where what is?)
    vague = re.compile(r"donde (?:está|se encuentra)\.")
    assert not [(d, en) for d, en, es in _all_spanish() if vague.search(es)]
    assert not [(d, en) for d, en, es in _all_spanish() if re.search(r"part of the property where it is\b", en)]
    said = [es for d, en, es in _all_spanish() if "part of the property where its parts are" in en]
    assert len(said) == 2 and all("donde están las piezas del sistema" in es for es in said)


def test_e1_is_named_as_the_50000_gallon_test():
    # item 5: E(1) was «la regla sobre el pretratamiento»; it is the 50,000-gallon (major contributor) test
    assert not [en for d, en, es in _all_spanish() if "regla sobre el pretratamiento" in es]
    [es] = [es for d, en, es in _all_spanish() if "(the measure pretreatment.E.1 uses)" in en]
    assert "50,000 galones" in es and "industria aportante principal" in es


def test_section_j_lists_what_the_law_lists():
    # item 10: the Spanish added «pozo de inspección» and dropped urine
    [item] = [i for i in RULES["permits"]["always"] if i["cite"] == "prohibited-acts.J"]
    for word in ("fixture", "vessel", "receptacle", "inlet", "feces", "urine", "toilet paper", "slops"):
        assert word in item["text"], word
    assert "manhole" not in item["text"] and "drain," not in item["text"]
    [es] = [es for d, en, es in _all_spanish() if en == " ".join(item["text"].split())]
    assert "orina" in es and "heces" in es and "pozo de inspección" not in es


def test_a_date_written_right_that_does_not_exist_is_called_so_in_both_languages():
    # item 7: "2027-02-30 no está escrita como año-mes-día": it is written right; the day does not exist
    import json

    from calculator.cli import run_json
    argv = ["bill", "--quarter", "2027-Q1", "--water-gallons", "12000", "--paid-on", "2027-02-30"]
    english = json.loads(run_json(argv))["error"]
    spanish = json.loads(run_json([*argv, "--lang", "es"]))["error"]
    assert "no such date" in english and "not a date written as" not in english
    assert "esa fecha no existe" in spanish and "año-mes-día" not in spanish
    # a date not written as year-month-day is still told how to write it
    written = json.loads(run_json([*argv[:-1], "15.03.2027", "--lang", "es"]))["error"]
    assert "no es una fecha que podamos leer" in written and "15/3/2027 o 2027-03-15" in written


def test_a_what_if_total_is_not_labelled_the_example_rate():
    # item 9: with a what-if rate the total was labelled «(tarifa de ejemplo)»; it uses the person's rate
    import json
    from pathlib import Path

    from calculator.cli import run_json
    base = ["bill", "--quarter", "2027-Q1", "--water-gallons", "12000", "--lang", "es"]
    plain = json.loads(run_json(base))["result"]
    what_if = json.loads(run_json([*base, "--vc-per-1000", "12.50"]))["result"]
    assert "tarifa inventada" in plain["total_note"]
    assert "tarifa inventada" not in what_if["total_note"] and "su tarifa de simulación" in what_if["total_note"]
    both = json.loads(run_json([*base, "--vc-per-1000", "12.50", "--sewage-fraction", "0.9"]))["result"]
    assert both["total_note"] is None
    script = (Path(__file__).resolve().parent.parent / "docs" / "assets" / "estimate.js").read_text(encoding="utf-8")
    assert 'whatIfRate(r) ? "whatIf" : r.schedule.status' in script and 't("your what-if rate")' in script


def _outcome(answers: dict) -> dict:
    from calculator.permits import flow
    answers = dict(answers)
    while True:
        result = flow.evaluate(RULES, answers)
        if result["next_question"] is None:
            return result
        answers[result["next_question"]["id"]] = "no"


def test_tearing_down_is_not_told_to_file_plans():
    # item 3: the demolition answer said «preséntela con sus planos», against this site's reading
    # (sewer-abandonment: a permit to uncover the connection, not plans)
    from pathlib import Path
    assert RULES["interpretations"]["sewer-abandonment"]["chosen"] == "permit-to-uncover"
    assert _outcome({"work": "demolition"})["plans"] is False
    assert _outcome({"work": "uncover-sewer"})["plans"] is False
    assert _outcome({"work": "new-connection"})["plans"] is True
    assets = Path(__file__).resolve().parent.parent / "docs" / "assets"
    permit, application = ((assets / name).read_text(encoding="utf-8") for name in ("permit.js", "application.js"))
    assert "r.plans ?" in permit and "answer.result.plans" in permit and "answer.result.plans" in application
    spanish = dict(_strings("scripts"))
    assert "planos" not in spanish["Fill in the application and file it at the Sewer Inspector's office, before any "
                                   "work starts."]


def test_the_example_table_is_never_called_in_force():
    # item 1: the invented (illustrative) table was «vigente» / «en vigor»; it is «la tabla que usa este sitio»
    import json

    from calculator.cli import run_json
    assert [s["status"] for s in RULES["schedules"]] == ["illustrative"]
    for argv in (["bill", "--quarter", "2027-Q1", "--water-gallons", "12000"],
                 ["bill", "--quarter", "2025-Q2", "--water-gallons", "12000", "--paid-on", "2025-06-01"]):
        spanish = json.dumps(json.loads(run_json([*argv, "--lang", "es"])), ensure_ascii=False)
        english = json.dumps(json.loads(run_json(argv)))
        assert "vigente" not in spanish and "en vigor" not in spanish
        assert "in force" not in english
        assert "usa este sitio" in spanish and "this site uses" in english
    # the pages' words about the table this site uses
    pages = dict(_strings("pages"))
    assert pages["The schedule this site uses"] == "La tabla que usa este sitio"
    assert "vigente" not in pages["The sewer rate, proposed rates and public comment meetings."]


def test_one_word_for_the_example_table():
    # consistency: «de ejemplo», not «ilustrativa» or «no adoptada»
    import yaml
    from pathlib import Path
    loser = re.compile(r"(?i)\bilustrativ[oa]s?\b")
    assert not [(d, en) for d, en, es in _all_spanish() if d != "law" and loser.search(es)]
    # «no adoptada» only where the English says "not adopted" (the Spanish reviewer, 33e)
    assert not [(d, en) for d, en, es in _all_spanish()
                if d != "law" and re.search(r"(?i)\bno adoptad[oa]s?\b", es) and "not adopted" not in en]
    schedule = yaml.safe_load((Path(__file__).resolve().parent.parent / "rules" / "rate-schedules" /
                               "2025-illustrative.yaml").read_text(encoding="utf-8"))
    assert schedule["title_es"] == "Tabla de tarifas de ejemplo (no adoptada)"


def test_the_glossary_refuses_the_second_words():
    from kit.words.messages import avoided_in
    assert avoided_in("$10.00 por 1,000 galones") and not avoided_in("$10.00 por cada 1,000 galones")
    assert avoided_in("la tabla ilustrativa")  # («no adoptada» says "not adopted": the Spanish reviewer, 33e)
    assert not avoided_in("la tabla de ejemplo")


def test_the_yearly_notice_of_the_example_table_does_not_call_it_in_force():
    from calculator.core import i18n
    from calculator.rates.notices import user_notice
    english = user_notice(RULES, "2025-illustrative", None)["text"]
    assert "in force" not in english and "which this site uses from" in english
    with i18n.speaking("es"):
        spanish = user_notice(RULES, "2025-illustrative", None)["text"]
    assert "vigente" not in spanish and "en vigor" not in spanish and "que este sitio usa desde" in spanish
