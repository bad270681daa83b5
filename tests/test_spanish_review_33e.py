"""The Spanish reviewer's findings (33e): meanings lost in translation, readings stated as the law,
second words and loose Spanish, each checked where a reader meets it."""
import json
import re

from calculator import industry
from calculator.cli import main
from calculator.core.i18n import speaking
from calculator.core.rules import load

RULES = load()


def _cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_sampling_exceptions_scope_is_labelled_as_the_sites_reading():
    # item 4: «La ley pone una excepción: nada de esto vale…» stated the reading's scope as the law
    for language, law_part, reading in (
            ("en", "The law makes an exception for what the business's own negligence causes",
             "(This site's reading: it covers each of them.)"),
            ("es", "La ley pone una excepción para lo que cause la propia negligencia del negocio",
             "(La interpretación de este sitio: cubre cada una de ellas)")):
        with speaking(language):
            steps, _ = industry.rights(RULES)
        [text] = [s["text"] for s in steps if s.get("provision") == "pretreatment.A.5" or "negligen" in s["text"]]
        assert law_part in text and reading in text
        assert "none of this holds" not in text and "nada de esto vale" not in text
        # the reading comes after the law's part, never before it
        assert text.index(law_part) < text.index(reading)
