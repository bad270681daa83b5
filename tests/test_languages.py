"""The engine in Spanish (--lang es): the same answer as in English in every figure, id,
date and citation; only the words change, and they are Spanish.

These tests read the Spanish catalogue from the checkout (rules/locale/es/*.po, through
the kit's "messages" provider: kit.words.messages.engine_catalogue)."""
import datetime as dt
import json
import re
from pathlib import Path

import pytest

from calculator import cli
from calculator.bills import bill
from calculator.cli import main, run, run_json
from calculator.core.dates import long, month_days, quarter_words, series
from calculator.core.errors import InputError
from calculator.core.explain import since
from calculator.core.i18n import speaking
from answers import CITED, answers, strings
from casebook import argv_for, explanation_problems, load_cases, rules_for
from kit.words.messages import check_no_formatted_messages

ROOT = Path(__file__).resolve().parent.parent
CASES = load_cases()
# a case that names its language (input `lang: es`) is run in it by tests/test_cases.py; every
# other case is run here in English and in Spanish, and the two answers compared
BOTH = [c for c in CASES if "lang" not in (c.get("input") or {})]
ANSWERS = [c for c in BOTH if "error" not in c]
REFUSALS = [c for c in BOTH if "error" in c]
# commands whose every sentence the engine already says in Spanish (industry: its own module's words)
SPANISH_COMMANDS = {"bill", "vc", "hearing", "quarters"}

# keys whose values are words for a person: they change with the language (a permit
# outcome's title and summary, a question's hint; a permit answer's `question` is its
# words, while a reason's `question` is the question's id and stays)
# (a bill's `if_late`: `moved` and `lien` are sentences, a skipped day's `holiday` its name, in each language)
# (a step's `law`: its `words`, and its `heading` beside words in the reader's language: in Spanish every
# article is named in Spanish, its own heading the law's English beside it; in English only the sewer rents)
WORDS = {"text", "label", "quarter_words", "words", "where", "lang", "error", "title", "summary", "hint", "says",
         "moved", "lien", "holiday", "heading", "total_note", "paid_words",  # (sentences at the total: items 11; 34.7)
         "period", "columns",  # (the arrears table: an earlier quarter's `period` in words, its `columns` headings)
         "water_words", "bill_words", "paid_read", "choice",  # (a quarter's water months in words; how a slashed date was read: issue 34; the menu's bill)
         "quote_words", "quote_note", "system_gallons_below_words",  # (the deciding flow in words: public9, Linda); (in another language only: the site's unofficial translation of a quotation of the law)
         "item", "note"}  # (a permit verdict's thing in the headline, and the reading's note under it: issue 34)
# keys whose values are lists of sentences: the same number of them in every language
SENTENCES = {"notices", "facts_needed"}
WORD = re.compile(r"\b[a-z]{2,}\b")  # a word in lower case: a formula has none


def without_words(answer):
    """An answer with its words taken out: what must be the same in every language
    (figures, ids, dates, citations; an explanation step keeps cite, anchor, values)."""
    if isinstance(answer, dict):
        return {k: (len(v) if k in SENTENCES and isinstance(v, list) else without_words(v))
                for k, v in answer.items() if k not in WORDS and not (k == "question" and "label" in answer)}
    if isinstance(answer, list):
        return [without_words(v) for v in answer]
    return answer


def test_without_words_keeps_what_must_not_change():
    answer = {"total": "96.00", "lang": "es", "quarter_words": "enero–marzo de 2027", "notices": ["a", "b"],
              "explanation": [{"text": "Total = $96.00.", "cite": "rents.F", "values": {"total": "96.00"},
                               "where": "Sewer rents F (Due dates and late penalty)"}]}
    assert without_words(answer) == {"total": "96.00", "notices": 2,
                                     "explanation": [{"cite": "rents.F", "values": {"total": "96.00"}}]}
    assert without_words(answer) != without_words(dict(answer, total="96.01"))


@pytest.mark.parametrize("case", ANSWERS, ids=[c["_id"] for c in ANSWERS])
def test_every_case_in_spanish_has_the_english_figures(case):
    english = run(argv_for(case), rules_for(case))
    spanish = run([*argv_for(case), "--lang", "es"], rules_for(case))
    assert (english["lang"], spanish["lang"]) == ("en", "es")
    assert not explanation_problems(case, spanish, "es")
    assert without_words(spanish) == without_words(english)
    # each step names its provision in the reader's words (issue 33: the Spanish `where` was the English)
    wheres = [(en.get("where"), es.get("where")) for en, es in zip(english.get("explanation", []),
                                                                   spanish.get("explanation", []))]
    assert not [pair for pair in wheres if pair[0] and pair[0] == pair[1]], wheres
    if case["command"] in SPANISH_COMMANDS:
        for en, es in zip(english.get("explanation", []), spanish.get("explanation", [])):
            assert es["text"]
            if WORD.search(en["text"]):  # not a bare formula, like "Total = $96.00."
                assert es["text"] != en["text"], es["text"]


@pytest.mark.parametrize("case", REFUSALS, ids=[c["_id"] for c in REFUSALS])
def test_every_refusal_in_spanish_points_at_the_same_box(case):
    with pytest.raises(InputError) as english:
        run(argv_for(case))
    with pytest.raises(InputError) as spanish:
        run([*argv_for(case), "--lang", "es"])
    assert spanish.value.field == english.value.field
    if case["command"] in SPANISH_COMMANDS:
        assert str(spanish.value) != str(english.value), str(spanish.value)
    out = json.loads(run_json([*argv_for(case), "--lang", "es"]))
    # with the value the question asks about, which the page offers to use with one tap (issue 34)
    # (the page's message names no command-line option: "(⟦paid-on⟧)" is left out, as run_json does)
    want = {"ok": False, "error": re.sub(r" ?\(⟦[a-z-]+⟧\)", "", str(spanish.value)), "field": spanish.value.field}
    if spanish.value.suggest is not None:
        want["suggest"] = spanish.value.suggest
        assert spanish.value.suggest == english.value.suggest and spanish.value.suggest in str(spanish.value)
    assert out == want


LATE_AND_SMALL = ["bill", "--quarter", "2027-Q1", "--water-gallons", "1000", "--paid-on", "2027-06-20"]


def dollars(text: str) -> list[str]:
    return re.findall(r"\$[\d,]+\.\d\d", text)


def test_a_spanish_bill_explains_itself_in_spanish():
    english = run(LATE_AND_SMALL)
    spanish = run([*LATE_AND_SMALL, "--lang", "es"])
    assert spanish["minimum_applied"] and spanish["penalty"] != "0.00"  # the sample has both
    assert spanish["quarter_words"] == "enero–marzo de 2027"
    steps = spanish["explanation"]
    assert len(steps) == len(english["explanation"])
    for en, es in zip(english["explanation"], steps):
        assert es["text"] != en["text"]
        assert dollars(es["text"]) == dollars(en["text"])
        assert (es["cite"], es["values"]) == (en["cite"], en["values"])
    text = " ".join(s["text"] for s in steps)
    assert "vence el 15 de enero de 2027" in text
    assert "del 1 de enero de 2027 al 31 de marzo de 2027" in text
    assert "Pago el 20 de junio de 2027" in text
    assert "recargo" in text and "cargo mínimo" in text and "galones" in text
    assert "January" not in text and " penalty" not in text
    minimum = next(s["text"] for s in steps if s["cite"] == "minimum-charge")
    assert minimum.endswith("así que se factura el mínimo de $64.00.")
    assert steps[-2]["text"] == "Total = $64.00 + $19.20 de recargo = $83.20."
    assert spanish["schedule"]["label"].startswith("DE EJEMPLO")
    assert spanish["notices"][0].startswith("Esta estimación usa la tabla de tarifas de ejemplo")


def test_english_stays_english_after_spanish():
    run([*LATE_AND_SMALL, "--lang", "es"])
    english = run(LATE_AND_SMALL)
    assert english["explanation"][0]["text"].startswith(
        "The bill due January 15, 2027 (water used October–December 2026) is the charge")
    assert english["explanation"][-2]["text"] == "Total = $64.00 + $19.20 penalty = $83.20."


def test_spanish_dates_and_words():
    with speaking("es"):
        assert long(dt.date(2027, 1, 15)) == "15 de enero de 2027"
        assert quarter_words(2027, 4) == "octubre–diciembre de 2027"
        assert month_days(["01-15", "04-15", "07-15"]) == "15 de enero, 15 de abril y 15 de julio"
        assert series(["a", "b"]) == "a y b"
        amended = {"parameters": {"p": {"history": [{"since": None, "value": 1}, {"since": "1992-03-04", "value": 2}]}}}
        assert since(amended, "p", "2000-01-01") == " (desde el 4 de marzo de 1992)"
        assert since(amended, "p", "1990-01-01") == " (hasta el 3 de marzo de 1992)"
    assert since(amended, "p", "2000-01-01") == " (since March 4, 1992)"


def test_other_commands_in_spanish():
    vc = run(["vc", "--om-cost", "856791", "--user-volume-gallons", "85000000", "--extraneous-flow-cost", "25000",
              "--lang", "es"])
    assert vc["vc_per_1000_gallons"] == "10.08"
    assert vc["explanation"][-2]["text"] == ("VC = $856,791.00 ÷ 85,000,000 galones × 1,000 = $10.0798…, redondeado "
                                             "al centavo: $10.08 por cada 1,000 galones.")
    hearing = run(["hearing", "--published", "2027-11-02", "--meeting", "2027-12-30", "--lang", "es"])
    assert hearing["valid"] is False
    assert hearing["explanation"][0]["text"].startswith("Aviso publicado el 2 de noviembre de 2027: la reunión para comentarios del público debe celebrarse entre")
    assert hearing["explanation"][1]["text"].endswith("fuera del plazo; elija una fecha dentro de él.")


def test_a_bad_input_in_spanish_says_so_in_spanish():
    with pytest.raises(InputError) as err:
        run(["bill", "--quarter", "2027-Q1", "--water-gallons", "-5", "--lang", "es"])
    assert str(err.value) == ("El consumo de agua en galones no puede ser un número negativo. Escriba un número "
                              "igual o mayor que 0, por ejemplo 12000.")
    assert err.value.field == "water-gallons"
    with pytest.raises(InputError) as err:
        run(["bill", "--water-gallons", "5", "--lang", "es"])  # argparse's own complaint
    # (not "run … --help": the options are named here)
    assert str(err.value).startswith("Falta esta opción obligatoria: --quarter. Las opciones de `python -m "
                                     "calculator bill` son: --quarter, --water-gallons, --water-cubic-feet,")


def test_the_command_line_in_spanish(capsys):
    assert main(["bill", "--quarter", "2027-Q1", "--water-gallons", "-5", "--lang", "es"]) == 2
    out = capsys.readouterr()
    assert out.out == "" and "no puede ser un número negativo" in out.err and len(out.err.splitlines()) == 1
    assert main(["bill", "--quarter", "2027-Q1", "--water-gallons", "1000", "--lang", "es"]) == 0
    first = json.loads(capsys.readouterr().out)["explanation"][0]["text"]
    assert first.startswith("La factura que vence el 15 de enero de 2027 (agua usada en octubre–diciembre de 2026) es el cargo")


def test_an_unknown_language_is_a_clear_error(capsys):
    with pytest.raises(InputError) as err:
        run(["bill", "--quarter", "2027-Q1", "--water-gallons", "1000", "--lang", "xx"])
    assert "'xx'" in str(err.value) and "en" in str(err.value) and "es" in str(err.value)
    assert err.value.field == "lang"
    out = json.loads(run_json(["bill", "--quarter", "2027-Q1", "--water-gallons", "1000", "--lang", "xx"]))
    assert out == {"ok": False, "error": str(err.value), "field": "lang"}
    assert main(["bill", "--quarter", "2027-Q1", "--water-gallons", "1000", "--lang", "xx"]) == 2
    assert "'xx'" in capsys.readouterr().err


def test_a_defect_is_reported_in_the_language_asked(monkeypatch, capsys):
    def broken(*args, **kwargs):
        raise RuntimeError("boom")
    monkeypatch.setattr(bill, "compute", broken)
    argv = ["bill", "--quarter", "2027-Q1", "--water-gallons", "1000"]
    spanish = json.loads(run_json([*argv, "--lang", "es"]))
    assert spanish["ok"] is False and spanish["defect"] is True
    assert spanish["error"].startswith("La calculadora no pudo responder esto (RuntimeError: boom).")
    english = json.loads(run_json(argv))
    assert english["error"] == cli.FAILED.format(detail="RuntimeError: boom")
    assert main([*argv, "--lang=es"]) == 2
    assert capsys.readouterr().err.startswith("Error: La calculadora no pudo responder esto (RuntimeError: boom).")


def test_every_engine_message_is_a_plain_string(tmp_path):
    assert check_no_formatted_messages(sorted((ROOT / "calculator").rglob("*.py"))) == []
    bad = tmp_path / "bad.py"
    bad.write_text('from calculator.core.i18n import N_, _\nx = 3\nprint(_(f"{x} gallons"))\nprint(_("a" + str(x)))\n'
                   'WHAT = N_("Water use")\nprint(_(WHAT), _("{x} gallons").format(x=x))\nY = N_(WHAT)\n',
                   encoding="utf-8")
    found = check_no_formatted_messages([bad])
    assert sorted(line.split(":")[1] for line in found) == ["3", "4", "7"], found


def test_no_spanish_answer_has_an_english_sentence():
    """Every YAML case (answers and refusals) and every permit question, in Spanish: no
    sentence the tests' detector reads as English, outside the law's own words."""
    from english import english_sentences
    found = []
    for _case, argv, answer in [*answers("es", CASES), (None, ["permit", "--list-questions", "--lang", "es"],
                                                         json.loads(run_json(["permit", "--list-questions", "--lang", "es"])))]:
        for key, text in strings(answer, CITED):
            for sentence in english_sentences(text):
                found.append((" ".join(argv[:2]), key, sentence))
    assert not found, "\n".join(map(str, found[:20]))
    assert english_sentences(json.loads(run_json(argv_for(CASES[0])))["result"]["explanation"][0]["text"])  # it can fail
