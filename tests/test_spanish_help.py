"""The command line's --help in Spanish (issue 33): `python -m calculator [COMMAND] --help --lang es` says
everything in Spanish, argparse's own words too; without --lang it stays English, word for word."""
import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from calculator import cli
from calculator.core.i18n import catalogue

ROOT = Path(__file__).resolve().parent.parent


def _commands(parser=None, words=()):
    """Every command and step the calculator takes, as the words that name it: (), ("bill",), ("rates", "propose")…"""
    parser = parser or cli.parser()
    yield words
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _commands(sub, (*words, name))


COMMANDS = list(_commands())


def _english_texts(words):
    """The English texts a command's --help shows: its description, each option's help, each command's line."""
    parser = cli.parser()._command_parser(list(words))
    texts = [parser.description] if parser.description else []
    for action in parser._actions:
        if action.help and action.help != argparse.SUPPRESS:
            texts.append(action.help)
        if isinstance(action, argparse._SubParsersAction):
            texts += [a.help for a in action._choices_actions]
    return texts


#: a value's name as a word of its own (`schedule`, not the one in rate-schedules.B)
NAMED = r"(?<![\w.-]){}(?![\w.-])"


def _metavars(words):
    parser = cli.parser()._command_parser(list(words))
    return [a.metavar for a in parser._actions if isinstance(a.metavar, str)]


def _help(argv, monkeypatch, capsys) -> str:
    monkeypatch.setenv("COLUMNS", "10000")  # one line for each text: none is cut where a line wraps
    assert cli.main(argv) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return out


def test_every_command_and_step_is_covered():
    assert {(), ("bill",), ("rates",), ("rates", "propose"), ("rates", "pack"), ("bills",)} <= set(COMMANDS)
    assert len(COMMANDS) == 18


@pytest.mark.parametrize("words", COMMANDS, ids=lambda w: " ".join(w) or "calculator")
def test_the_help_in_spanish_has_no_english_text_left(words, monkeypatch, capsys):
    spanish = _help([*words, "--help", "--lang", "es"], monkeypatch, capsys)
    english = _help([*words, "--help"], monkeypatch, capsys)
    es = catalogue("es")
    assert spanish.startswith("uso: calculator") and "\nopciones:\n" in spanish
    assert "muestra esta ayuda y termina" in spanish
    assert english.startswith("usage: calculator") and "\noptions:\n" in english
    assert "show this help message and exit" in english
    for word in ("usage:", "options:", "positional arguments", "show this help message and exit"):
        assert word not in spanish
    texts = _english_texts(words)
    assert texts  # every help has some text of its own
    for key in texts:
        text = key.replace("%%", "%")  # as argparse prints it
        assert text in english  # the English help says each text as it is written, so the next line can fail
        assert text not in spanish, f"English left in the Spanish help of {' '.join(words)}: {text!r}"
        assert es[key].replace("%%", "%") in spanish
    for name in _metavars(words):  # QUESTION=ANSWER, a step's `schedule`: as a word of its own
        assert re.search(NAMED.format(re.escape(name)), english)
        assert not re.search(NAMED.format(re.escape(name)), spanish), name
        assert re.search(NAMED.format(re.escape(es[name])), spanish)


def test_an_options_value_is_named_in_spanish():
    """--quarter QUARTER names the value by the option in English capitals; in Spanish, VALOR."""
    cmd = [sys.executable, "-m", "calculator", "bill", "--help", "--lang", "es"]
    spanish = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=60,
                             env={**os.environ, "COLUMNS": "200"}).stdout
    assert "--quarter VALOR " in spanish and "QUARTER " not in spanish.replace("TRIMESTRE", "")
    assert "--earlier-bill TRIMESTRE:CARGO" in spanish
    # a date as a Spanish reader writes it, or as the command line writes it (spanish22: the help said only the one)
    assert "una fecha como 15/3/2027 o 2027-03-15" in spanish and "YYYY" not in spanish


@pytest.mark.parametrize("argv", [
    ["--lang", "es", "--help"], ["--help", "--lang", "es"], ["--lang=es", "--help"], ["--lang=es", "-h"],
    ["--lang", "es", "bill", "--help"], ["bill", "--help", "--lang=es"], ["rates", "propose", "-h", "--lang", "es"],
])
def test_the_language_is_asked_for_before_or_after_help(argv):
    """`--lang es` before or after `--help`, or `--lang=es`: the same Spanish help, from the shell."""
    done = subprocess.run([sys.executable, "-m", "calculator", *argv], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.startswith("uso: calculator") and "opciones:" in done.stdout
    assert "usage:" not in done.stdout and "show this help" not in done.stdout


def test_the_english_help_is_unchanged():
    """Without --lang (or with --lang en) the help is argparse's English, the option's value in capitals."""
    for argv in (["bill", "--help"], ["bill", "--help", "--lang", "en"]):
        done = subprocess.run([sys.executable, "-m", "calculator", *argv], cwd=ROOT, capture_output=True, text=True,
                              timeout=60, env={**os.environ, "COLUMNS": "200"})
        assert done.returncode == 0
        assert done.stdout.startswith("usage: calculator bill [-h] --quarter QUARTER")
        assert "--paid-on PAID_ON" in done.stdout and "payment date, to see a late penalty: like 2027-02-20" in done.stdout
        assert "options:\n  -h, --help" in done.stdout and "show this help message and exit" in done.stdout


READINGS = sorted(p.stem for p in (ROOT / "rules" / "interpretations").glob("*.yaml"))


@pytest.mark.parametrize("words", COMMANDS, ids=lambda w: " ".join(w) or "calculator")
def test_the_spanish_help_cites_the_law_in_words(words):
    """The Spanish reviewer spanish8, #26-#28: the Spanish help cited «(rents.D)», «(rate-schedules.A-C)», «(E(3))»
    and «la interpretación vc-cost-basis «budgeted»», where the website says «(Cargos de alcantarillado, sección
    D)»; its examples said owner-name=Jane Doe and <year>, and «llenada» where the web says «completada»."""
    es = catalogue("es")
    texts = " ".join(es[key] for key in _english_texts(words))
    assert not re.findall(r"[a-z]+(?:-[a-z]+)*\.[A-Z]", texts), texts          # rents.D, rate-schedules.A-C
    assert not re.findall(r"\([A-Z]\(\d+\)", texts), texts                      # (E(3)): a bare label
    assert not [r for r in READINGS if re.search(NAMED.format(re.escape(r)), texts)], texts
    for english in ("Jane Doe", "<year>", "average-day", "budgeted", "llena"):
        assert english not in texts, english
    assert len(READINGS) > 20 and "vc-cost-basis" in READINGS


def test_the_spanish_help_names_the_places_as_the_website_does(monkeypatch, capsys):
    vc = _help(["vc", "--help", "--lang", "es"], monkeypatch, capsys)
    assert "(Cargos de alcantarillado, sección D)" in vc and "(Tablas de tarifas, sección A)" in vc
    status = _help(["rates", "--help", "--lang", "es"], monkeypatch, capsys)
    assert "Tablas de tarifas, secciones A a C)" in status
    application = _help(["application", "--help", "--lang", "es"], monkeypatch, capsys)
    assert 'owner-name="María Pérez"' in application and "completada con las respuestas" in _help(
        ["--help", "--lang", "es"], monkeypatch, capsys)
    assert "<año>/proposal.yaml" in _help(["bills", "--help", "--lang", "es"], monkeypatch, capsys)


@pytest.mark.parametrize("words", COMMANDS, ids=lambda w: " ".join(w) or "calculator")
def test_the_help_has_no_developer_words_nor_the_projects_paths(words, monkeypatch, capsys):
    # the Spanish reviewer spanish9, #17: «se mantiene por claridad», «(rules/permits.yaml)», «CPython con el kit»
    spanish = _help([*words, "--help", "--lang", "es"], monkeypatch, capsys)
    english = _help([*words, "--help"], monkeypatch, capsys)
    for text, jargon in ((spanish, ("rules/", "CPython", "por claridad", " kit")),
                         (english, ("rules/", "CPython", "for clarity", " kit"))):
        assert not [word for word in jargon if word in text], (words, text)
    if words in (("permit",), ("application",), ("industry",)):
        assert "mostrar la respuesta como JSON (ya es así por defecto)" in spanish


def test_the_payment_date_help_says_the_forms_the_command_takes(monkeypatch, capsys):
    # the Spanish reviewer spanish9, #18: the help said only AAAA-MM-DD, but --paid-on reads dates as the
    # website does (calculator.core.dates.read_date), day first in Spanish, month first in English
    spanish = _help(["bill", "--help", "--lang", "es"], monkeypatch, capsys)
    english = _help(["bill", "--help"], monkeypatch, capsys)
    assert "por ejemplo 20/2/2027 (día/mes/año) o 2027-02-20" in spanish
    assert "like 2027-02-20, or 2/20/2027 (month/day/year" in english
    for lang, typed in (("es", "20/2/2027"), ("en", "2/20/2027"), ("es", "2027-02-20")):
        assert cli.main(["bill", "--quarter", "2027-Q1", "--water-gallons", "9000", "--paid-on", typed,
                         "--lang", lang]) == 0
        assert '"paid_on": "2027-02-20"' in capsys.readouterr().out
