"""A number typed by a person: read as written, or refused with a question.

The site writes numbers the United States way in both its languages ("9,350 gallons",
"$9.50"), and so does this reader: a comma groups thousands, a point marks decimals.
Many Spanish speakers write it the other way round ("9.350" for nine thousand three
hundred fifty, "9,50" for nine and a half), so a number is never silently read one way
when its writer may have meant the other (issue 19):

- A whole quantity (gallons, cubic feet, meter readings) has no decimals. "9350.5" is
  refused; "9.350" cannot be 9.35 gallons, so the answer asks "Did you mean 9,350
  gallons (nine thousand three hundred fifty)?", in English and in Spanish alike: in
  words too, since "9,350" is written the way the person did not.
- A decimal amount (a rate, a share, a cost) read in Spanish is ambiguous when a single
  point or comma is followed by exactly three digits ("9.350": 9.35 or 9,350?): the
  answer asks which. In English the point is a decimal point and the comma groups
  thousands, as the English pages write them, so "9.350" is 9.35 and "9,350" is 9350.
- In either language, a number that can only be read the other way ("9,50",
  "1.250.000") is asked about, never reinterpreted.
"""
from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from ..core.errors import InputError
from ..core.dates import typed
from ..core.i18n import _, in_sentence, lang

LARGEST = Decimal(10) ** 12  # no meter reads a trillion gallons; beyond it Decimal would lose cents

# the two ways of writing a number: (thousands separator, decimal mark)
_POINT = re.compile(r"(?P<int>\d{1,3}(?:,\d{3})+|\d*)(?:\.(?P<frac>\d+))?")   # 9,350.5 (the site's way)
_COMMA = re.compile(r"(?P<int>\d{1,3}(?:\.\d{3})+|\d*)(?:,(?P<frac>\d+))?")   # 9.350,5
# thousands grouped by spaces ("9 350", also the no-break spaces a phone or a word processor puts there): a
# common way of writing it in Spanish, asked about as "9.350" is, never refused bare (the Spanish reviewer
# spanish8, #32)
_SPACED = re.compile(r"\d{1,3}(?:[ \u00a0\u202f]\d{3})+")


def _read(text: str, pattern: re.Pattern, group: str) -> tuple[Decimal | None, bool]:
    """The number as this way of writing reads it (None if it cannot), and whether it has decimals."""
    m = pattern.fullmatch(text)
    if not m or not (m["int"] or m["frac"]):
        return None, False
    whole = m["int"].replace(group, "") or "0"
    try:
        return Decimal(f"{whole}.{m['frac']}" if m["frac"] else whole), m["frac"] is not None
    except InvalidOperation:
        return None, False


def _tidy(amount: Decimal) -> Decimal:
    """Without trailing zeros, but with cents kept when they were typed (9.50, 9.35, 9350)."""
    if amount == amount.to_integral_value():
        return amount.quantize(Decimal(1))
    places = max(-amount.normalize().as_tuple().exponent, min(2, -amount.as_tuple().exponent))
    return amount.quantize(Decimal(1).scaleb(-places))


def plain(amount: Decimal) -> str:
    """As a person would type it back: 9350, 9.35."""
    return f"{_tidy(amount):f}"


def grouped(amount: Decimal) -> str:
    """As the site writes it: 9,350 or 9.35."""
    return f"{_tidy(amount):,f}"


def _scripts(text: str) -> set[str]:
    """The scripts of a text's digits: DIGIT ONE is "", ARABIC-INDIC DIGIT ONE is "ARABIC-INDIC"."""
    import unicodedata
    return {unicodedata.name(c, "?").rpartition("DIGIT")[0].strip() for c in text if c.isdigit()}


_EN_ONES = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
            "sixteen seventeen eighteen nineteen").split()
_EN_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
_ES_ONES = ("cero uno dos tres cuatro cinco seis siete ocho nueve diez once doce trece catorce quince dieciséis "
            "diecisiete dieciocho diecinueve veinte veintiuno veintidós veintitrés veinticuatro veinticinco "
            "veintiséis veintisiete veintiocho veintinueve").split()
_ES_TENS = "_ _ _ treinta cuarenta cincuenta sesenta setenta ochenta noventa".split()
_ES_HUNDREDS = ("_ ciento doscientos trescientos cuatrocientos quinientos seiscientos setecientos ochocientos "
                "novecientos").split()


def _en(n: int) -> str:
    """1 to 999,999,999,999 in US English words, without "and"."""
    out = []
    for value, name in ((10 ** 9, "billion"), (10 ** 6, "million"), (1000, "thousand"), (1, "")):
        part, n = divmod(n, value)
        if part:
            hundreds, rest = divmod(part, 100)
            out += [_EN_ONES[hundreds], "hundred"] if hundreds else []
            if rest >= 20:
                out.append(_EN_TENS[rest // 10] + (f"-{_EN_ONES[rest % 10]}" if rest % 10 else ""))
            elif rest:
                out.append(_EN_ONES[rest])
            out += [name] if name else []
    return " ".join(out)


def _es_below_1000(n: int, before_noun: bool) -> str:
    if n == 100:
        return "cien"
    hundreds, rest = divmod(n, 100)
    out = [_ES_HUNDREDS[hundreds]] if hundreds else []
    if rest >= 30:
        out.append(_ES_TENS[rest // 10] + (f" y {_ES_ONES[rest % 10]}" if rest % 10 else ""))
    elif rest:
        out.append(_ES_ONES[rest])
    said = " ".join(out)
    if before_noun:  # "veintiún mil", "treinta y un millones", "un millón"
        said = said[:-3] + ("ún" if said.endswith("veintiuno") else "un") if said.endswith("uno") else said
    return said


def _es_below_million(n: int, before_noun: bool = False) -> str:
    thousands, rest = divmod(n, 1000)
    out = []
    if thousands:
        out.append("mil" if thousands == 1 else f"{_es_below_1000(thousands, True)} mil")
    if rest:
        out.append(_es_below_1000(rest, before_noun))
    return " ".join(out)


def in_words(n: int, language: str = "en") -> str:
    """A whole number in words, as a person reads it aloud: 9350 is "nine thousand three hundred
    fifty" and "nueve mil trescientos cincuenta" (US usage, no "and"; Spanish "un millón",
    "mil millones")."""
    if n == 0:
        return _ES_ONES[0] if language == "es" else _EN_ONES[0]
    if language != "es":
        return _en(n)
    millions, rest = divmod(n, 10 ** 6)
    out = []
    if millions:
        out.append("un millón" if millions == 1 else f"{_es_below_million(millions, True)} millones")
    if rest:
        out.append(_es_below_million(rest))
    return " ".join(out)


def parse_amount(value, what: str, example: str, field: str | None = None, unit: str | None = None,
                 dollars: bool = False) -> Decimal:
    """A non-negative number typed by a person, read as the site writes numbers
    (9,350.5). `what` names the amount in a sentence, `unit` ("{amount} gallons")
    says it is a whole quantity and how to name a number of it; both are marked
    with N_ and translated here. Refuses, with a message saying what to enter,
    anything else, and asks (see the module's note) where the writer may have
    meant another number."""
    text = str(value).strip()
    if text.isascii() and text.isdigit() and len(text) < 13:  # "12000": read one way only, and below LARGEST
        return Decimal(text)  # (the common case, kept fast for the Clerk's run of every parcel's bill)
    if not text.isascii() and len(_scripts(text)) > 1:  # "1٢0০0": digits of two or more scripts
        raise InputError(_("{what} mixes digits of different kinds. Enter it with the digits 0 to 9 only, like "
                           "{example}.").format(what=_(what), example=example), field)
    sign, body = (text[0], text[1:].strip()) if text[:1] in ("+", "-") else ("", text)  # ("" is in "+-")
    if dollars and body[:1] == "$":  # "$856,791.00", as the site writes money (the thirtieth hostile tester)
        body = body[1:].lstrip()
    (as_written, decimals), (other_way, other_decimals) = _read(body, _POINT, ","), _read(body, _COMMA, ".")
    whole = unit is not None
    # a whole quantity written with decimals ("9.000") does not fit, even when they are zeros
    fits = [a for a, d in ((as_written, decimals), (other_way, other_decimals)) if a is not None and not (whole and d)]
    # what was typed, quoted “12,5” (in Spanish «12,5»), not as Python writes it ('12,5'); nothing typed
    # is said so (issue 33: "Usted escribió ''.")
    words = dict(what=_(what), example=example, value=typed(value))
    if not text:
        message = _("{what} is missing. Enter a number, like {example}.")
        raise InputError(message.format(**{**words, "what": in_sentence(message, words["what"])}), field)
    named = (lambda a: _(unit).format(amount=grouped(a))) if whole else grouped
    if _SPACED.fullmatch(body) and len(body) < 20:
        meant = Decimal(re.sub(r"\D", "", body))
        if sign == "-" and meant:  # (a number too large to be right is said so below: it is no number)
            raise InputError(_("{what} cannot be negative. Enter a number of 0 or more, like {example}.").format(
                **words), field)
        _ask(meant, named, whole, field)
    # a unit typed after the number ("9,350 gal", "9350 galones": public14, Carmen and Rosa): asked about, as "9.350" is
    with_unit = re.fullmatch(r"(.*\d)\s*(?:gal(?:lons?|ones|s|ón)?\.?|g)", body, re.IGNORECASE) if whole else None
    if with_unit and as_written is None and other_way is None:
        try:
            meant = parse_amount(with_unit.group(1), what, example, field, unit)
        except InputError as exc:
            raise exc from None
        _ask(meant, named, whole, field)
    if as_written is None and other_way is None:
        raise InputError(_("{what} must be a number, like {example}. You entered {value}.").format(**words), field)
    if sign == "-" and any(a != 0 for a in (as_written, other_way) if a is not None):
        raise InputError(_("{what} cannot be negative. Enter a number of 0 or more, like {example}.").format(**words),
                         field)
    if not fits and "," in body and "." not in body:  # "12,5", "1,2000": a comma the person may read as decimals
        raise InputError(_("{what} must be a whole number, like {example}. You entered {value}: a comma there can "
                           "mean decimals. Enter the digits only, with a comma only between the thousands, like 12,000.").format(
                               **words), field)
    if not fits:
        raise InputError(_("{what} must be a whole number, like {example}, with no decimal point. You entered "
                           "{value}.").format(**words), field)
    if as_written in fits and (other_way not in fits or other_way == as_written or lang() == "en"):
        amount = as_written
    elif len(fits) == 2:
        first, second = sorted(fits)
        raise InputError(_("Did you mean {first} or {second}? Enter {first_plain} or {second_plain}.").format(
                               first=grouped(first), second=named(second), first_plain=plain(first),
                               second_plain=plain(second)), field)
    else:
        _ask(fits[0], named, whole, field)
    # dollars have cents, not thousandths: "856.791" was read as $856.79 without a word (the third hostile
    # tester); it is asked about, as "9.350" gallons is
    # (a fraction of a cent that cannot be thousands, 856791.125, is rounded to the cent, as before)
    if dollars and amount == as_written and other_way is not None and not other_decimals and \
            re.search(r"\.\d{3}$", body):
        raise InputError(_("Did you mean {amount}? Dollars have at most two decimals. If so, enter {plain}.")
                         .format(amount=grouped(other_way), plain=plain(other_way)), field,
                         suggest=plain(other_way))
    if amount >= LARGEST:
        raise InputError(_("{what} is too large to be right. Check the number, like {example}.").format(**words), field)
    return amount


def _ask(meant: Decimal, named, whole: bool, field: str | None):
    """Refuses a number written another way than the site's, asking whether it is `meant`.
    A whole quantity is said in words too: "9,350" is written the US way, which the person did not use
    (a point for decimals is said only of an amount with decimals: "70.000.000" has none, the hostile
    tester H26)."""
    raise InputError((_("Did you mean {amount} ({words})? If so, enter {plain}.") if whole else
                      _("Did you mean {amount}? If so, enter {plain}.") if meant == meant.to_integral_value() else
                      _("Did you mean {amount}? If so, enter {plain}, with a point for decimals.")).format(
                          amount=named(meant), plain=plain(meant),
                          words=in_words(int(meant), lang()) if whole else ""), field, suggest=plain(meant))
