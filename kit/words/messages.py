"""The translations: every message extracted from where it is written, checked against
the catalogues in rules/locale/<lang>/, and compiled for the engine and the pages.

Four catalogues (gettext .po files), by where their English is written:
  engine.po   the engine's sentences (calculator/*.py: `_("…")`, `N_("…")`)
  rules.po    the person-facing words in rules/ (calculator.core.i18n.TEXT_FIELDS)
  pages.po    the page templates (docs/templates, `{% trans %}` and `_()`), the kit's
              own page words (kit/*.py) and the site's name and menu (mkdocs.yml)
  scripts.po  the pages' scripts (docs/assets/*.js: `t("…")`)
  law.po      the law's own words wherever they are quoted (calculator.core.law.census): not the
              law, which is its English, but the site's unofficial translation shown after each
              quotation in another language (calculator.core.explain.quote_words), and under each
              provision on the law page in another language (issue 33)
engine.po, rules.po and law.po ship in the engine's wheel (calculator/locale/<lang>.json; law.po's
entries under calculator.core.i18n.LAW_CONTEXT); pages.po and scripts.po are used when the site is built.

A quotation of the law without a translation does not stop the build (an amendment changes the law's
words before anyone translates them): the page says, in its language, that there is none yet, and
`python3 build.py validate` lists it like any missing translation.

`python3 build.py messages` brings the catalogues up to date with the sources (new
messages with an empty translation; a changed one marked fuzzy with its old
translation; unused ones dropped). Validation refuses a missing, empty, fuzzy or
unused (stale) translation, or one whose placeholders differ from the English,
and names the message and where it is written.
"""
from __future__ import annotations

import ast
import hashlib
import io
import re
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po, write_po
import yaml

from calculator.core.i18n import LANGUAGES, LAW_CONTEXT, PLURAL_KEY, SOURCE, speaking, text_items

from ..rules.validate import PLACEHOLDER, RULES_DIR, YamlLoader, read_yaml

ROOT = Path(__file__).resolve().parents[2]
DOMAINS = ("engine", "rules", "pages", "scripts", "law")
WHEEL_DOMAINS = ("engine", "rules", "law")
#: the catalogue whose missing, stale or fuzzy translations the build goes on without (validation
#: still lists them): the law's quoted words, which an amendment changes
LENIENT = "law"
TRANSLATIONS = [lang for lang in LANGUAGES if lang != SOURCE]
PY_KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}
JS_KEYWORDS = {"t": None, "nt": (1, 2)}
JINJA_OPTIONS = {"trimmed": "true", "extensions": "jinja2.ext.i18n"}
#: gettext's Plural-Forms for each language (the same rule calculator.core.i18n.PLURAL_FORM and
#: assets/words.js apply): two forms, the first for 1. Babel would write CLDR's three for
#: Spanish (a "many" form for millions), which no message here needs.
PLURAL_FORMS = {"es": (2, "(n != 1)")}
# a placeholder: {name} in Python and rules/, %(name)s in templates
_HOLES = re.compile(r"\{[^{}\s]*\}|%\([a-z_]+\)s")


class Messages(dict):
    """{domain: {English message: [where written, …]}}, in the order first found. A
    message with plural forms is the tuple (singular, plural), as Babel writes it
    (msgid / msgid_plural)."""

    #: the catalogues whose messages could not be listed just now (the law's words, while rules/
    #: does not compile: the rules' own check says why)
    unknown: frozenset = frozenset()

    def add(self, domain: str, message, where: str) -> None:
        if isinstance(message, tuple) and len(message) == 2 and all(message):
            self.setdefault(domain, {}).setdefault(message, []).append(where)
        elif isinstance(message, str) and message.strip():
            self.setdefault(domain, {}).setdefault(message, []).append(where)


def _rel(path: Path) -> str:
    try:
        return path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return path.as_posix()


def extract(rules_dir: Path = RULES_DIR) -> Messages:
    """Every message to translate, by catalogue, with where each is written."""
    found = Messages()
    for domain, folder in (("engine", ROOT / "calculator"), ("pages", ROOT / "kit")):
        for path in sorted(folder.rglob("*.py")):  # kit/billrun/ too
            for line, message in _extracted("python", path, PY_KEYWORDS):
                found.add(domain, message, f"{_rel(path)}:{line}")
    for section, path, text in text_items(raw_rules(rules_dir)):
        found.add("rules", text, f"rules/{'.'.join(str(p) for p in path)}")
    # the provisions' headings are ours, not the law's (rules/law.yaml): a reader meets them in her language
    for ident, heading in _headings(_rule_file(Path(rules_dir) / "law.yaml")):
        found.add("rules", heading, f"rules/law.yaml#{ident}")
    from jinja2.ext import babel_extract
    templates = sorted((ROOT / "docs" / "templates").rglob("*.j2")) + [ROOT / "docs" / "overrides" / "main.html"]
    for path in templates:
        data = path.read_bytes()
        key = ("jinja", str(path), data)
        if key not in _sources:  # (as _extracted: a template does not change while a process builds again)
            _sources[key] = tuple(babel_extract(io.BytesIO(data), ["_", "gettext", "ngettext"], [], JINJA_OPTIONS))
        for line, func, message, _comments in _sources[key]:
            if func == "ngettext" and isinstance(message, tuple):
                message = tuple(message[:2])
            for m in (message if isinstance(message, tuple) and func != "ngettext" else (message,)):
                found.add("pages", m, f"{_rel(path)}:{line}")
    config = read_yaml(ROOT / "mkdocs.yml")
    for key in ("site_name", "site_description", "copyright"):
        found.add("pages", config[key], f"mkdocs.yml#{key}")
    for item in config["nav"]:
        for title in item:
            found.add("pages", title, "mkdocs.yml#nav")
    for path in sorted((ROOT / "docs" / "assets").glob("*.js")):
        for line, message in _extracted("javascript", path, JS_KEYWORDS):
            found.add("scripts", message, f"{_rel(path)}:{line}")
    _memo().keep()
    quotations = law_quotations(rules_dir)
    if quotations is None:
        found.unknown = frozenset({"law"})
    for text, where in (quotations or {}).items():
        for w in where:
            found.add("law", text, w)
    return found


def law_quotations(rules_dir: Path = RULES_DIR) -> dict[str, list[str]] | None:
    """Every quotation of the law a page, an answer, a notice or a document can show
    (calculator.core.law.census, from the compiled rules), or None when rules/ does not compile."""
    from calculator.core.law import census

    from ..rules.validate import RuleError, compile_rules
    try:
        return census(compile_rules(Path(rules_dir)))
    except (RuleError, OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


# The messages of each source file, by its path and its text: the code does not change while a
# process builds again (a test process builds several sites, each reading every source file),
# and a file that does change is read again.
_sources: dict[tuple[str, str, bytes], tuple] = {}


def _extracted(method: str, path: Path, keywords: dict) -> tuple:
    """(line, message) of each message in one source file (Babel's extractor); kept on disk too, by the file's
    bytes (kit/buildcache.py: Babel's reading of the code is 3 s of a build, the same for every build of a test run)."""
    data = path.read_bytes()
    key = (method, str(path), data)
    if key not in _sources:
        memo = _memo()
        name = hashlib.sha256(repr((method, sorted(keywords.items()), data)).encode()).hexdigest()
        kept = memo.get(name)
        if kept is None:
            kept = [[line, message] for line, message, _comments, _context
                    in extract_from_file(method, str(path), keywords=keywords)]
            memo.put(name, kept)
        _sources[key] = tuple((line, tuple(message) if isinstance(message, list) else message)
                              for line, message in kept)
    return _sources[key]


_MEMOS: dict = {}


def _memo():
    """The kept extractions, by where the cache is and whether it is on; named by Babel's version and this file."""
    import babel

    from .. import buildcache
    where = (buildcache.enabled(), str(buildcache.CACHE))
    if where not in _MEMOS:
        _MEMOS[where] = buildcache.Memo("messages", [babel.__version__, Path(__file__).read_bytes()])
    return _MEMOS[where]


def _headings(tree):
    """(id, heading) of every article and provision in rules/law.yaml's tree."""
    if isinstance(tree, dict):
        if "id" in tree and isinstance(tree.get("heading"), str):
            yield tree["id"], tree["heading"]
        for value in tree.values():
            yield from _headings(value)
    elif isinstance(tree, list):
        for value in tree:
            yield from _headings(value)


def unreadable_rules(rules_dir: Path = RULES_DIR) -> list[Path]:
    """The rule files the catalogue is made from that are missing or cannot be read as YAML just now."""
    rules_dir = Path(rules_dir)
    paths = [rules_dir / name for name in ("law.yaml", "permits.yaml", "application-form.yaml", "holidays.yaml",
                                           "contacts.yaml")]
    paths += sorted((rules_dir / "interpretations").glob("*.yaml")) + sorted((rules_dir / "parameters").glob("*.yaml"))
    # a missing file too: its sentences would look unused and their translations be dropped (hostile10b F1)
    return [p for p in paths if not p.exists() or _rule_file(p) is None]


#: what a process has read already, by the bytes read (a build reads each rule file and catalogue several times,
#: and a test worker builds many sites from the same files: 34 catalogue parses of 0.1 s a build): {(kind, digest):
#: answer}. Keyed by content, never by name or time, so an edited file is read again.
_READ: dict[tuple[str, bytes], object] = {}


def _read_once(kind: str, data: bytes, read):
    key = (kind, hashlib.sha256(data).digest())
    if key not in _READ:
        if len(_READ) > 512:
            _READ.clear()
        _READ[key] = read()
    return _READ[key]


def _rule_file(path: Path):
    """A rule file's data for the catalogue, or None when it cannot be read: the rules' own check reports
    that file with its line and what to do (the second hostile tester: an unterminated quote, a tab, a
    Latin-1 byte, a NUL, a second document or a !!python tag gave a traceback here instead). A copy: the
    process reads each text once (_read_once)."""
    import copy
    try:
        data = Path(path).read_bytes()
    except OSError:
        return None

    def read():
        try:
            text = data.decode("utf-8")
            # an alias (*a) would be walked once for each time it repeats: nine lines can make 9^9 (the rules'
            # own check refuses every alias, with its line)
            if any(isinstance(token, yaml.AliasToken) for token in yaml.scan(text)):
                return None
            return yaml.load(text, Loader=YamlLoader)
        except (yaml.YAMLError, UnicodeDecodeError, ValueError):
            return None
    return copy.deepcopy(_read_once("rule-file", data, read))


def raw_rules(rules_dir: Path = RULES_DIR) -> dict:
    """The person-facing sections of rules/ as written (placeholders like
    {late-penalty-rate} not yet filled): what the catalogue holds."""
    rules_dir = Path(rules_dir)
    return {
        "permits": _rule_file(rules_dir / "permits.yaml"),
        "application_form": _rule_file(rules_dir / "application-form.yaml"),
        "interpretations": {p.stem: _rule_file(p) for p in sorted((rules_dir / "interpretations").glob("*.yaml"))},
        "holidays": _rule_file(rules_dir / "holidays.yaml"),
        "contacts": _rule_file(rules_dir / "contacts.yaml"),
        "parameters": {p.stem: _rule_file(p) for p in sorted((rules_dir / "parameters").glob("*.yaml"))},
    }


def po_path(lang: str, domain: str, rules_dir: Path = RULES_DIR) -> Path:
    return Path(rules_dir) / "locale" / lang / f"{domain}.po"


def read_catalogue(path: Path, to_change: bool = False) -> Catalog:
    """A catalogue as its file holds it. Read once a process for its bytes (_read_once) and shared, so not
    to be changed, unless `to_change` (then a catalogue of its own, parsed again)."""
    from babel.messages.pofile import PoFileError

    from ..rules.validate import RuleError
    data = Path(path).read_bytes()

    def read():
        try:
            return read_po(io.BytesIO(data), abort_invalid=True)
        except PoFileError as exc:
            raise RuleError([f"{_rel(path)}:{exc.lineno}: not a valid .po catalogue ({exc}). Keep each entry as "
                             f"#: … / msgid \"…\" / msgstr \"…\", with quotes escaped as \\\"."]) from None
    return read() if to_change else _read_once(f"catalogue {path.name}", data, read)


def holes(text) -> set[str]:
    if isinstance(text, (tuple, list)):
        return set().union(*(holes(t) for t in text))
    return set(_HOLES.findall(text))


def _forms_problem(message, string) -> str | None:
    """What is wrong with a plural message's translated forms, or None: every form is
    written, and each keeps the placeholders of the English form it stands for (the
    first, the singular's; the others, the plural's)."""
    forms = list(string) if isinstance(string, (tuple, list)) else [string]
    if not all(forms):
        return "has an empty plural form (msgstr[0], msgstr[1]): write each"
    for i, form in enumerate(forms):
        english = message[0] if i == 0 else message[1]
        if holes(form) != holes(english):
            return (f"msgstr[{i}] must keep the placeholders {' '.join(sorted(holes(english))) or '(none)'} "
                    f"exactly; it has {' '.join(sorted(holes(form))) or '(none)'}")
    return None


_PERCENT = re.compile(r"(\d+(?:\.\d+)?)\s?%")
_DOLLARS = re.compile(r"\$\s?(\d[\d,]*(?:\.\d+)?)")


_DATE = re.compile(r"\b(\d{1,2})-(\d{1,2})-(\d{4})\b")
_NUMBER = re.compile(r"(?<![\w.,])\d+(?:,\d{3})*(?:\.\d+)?(?![\w])")


def figures(text: str, domain: str = "") -> set[str]:
    """The percentages and dollar amounts a text states ("15%", "$64.00"), written alike ("15 %" is "15%"); in the
    law's translation (domain "law") every number it states, its dates' days and years (a translation writes the
    month in words: "3-4-1992" is «4 de marzo de 1992»)."""
    found = {f"{m}%" for m in _PERCENT.findall(text)} | {f"${m}" for m in _DOLLARS.findall(text)}
    if domain == "law":
        bare = _DATE.sub(r"\2 \3", _DOLLARS.sub(" ", _PERCENT.sub(" ", text)))
        found |= {m.replace(",", "") for m in _NUMBER.findall(bare)}
    return found


def problems(rules_dir: Path = RULES_DIR, found: Messages | None = None, waived: list | None = None) -> list[str]:
    """What is wrong with the translations, each naming the message and what to do. `waived`: a
    list that takes, instead, what the build goes on without (a quotation of the law with no
    current translation: LENIENT); without it every problem is in the answer (`build.py validate`)."""
    seen: list = []

    def broken() -> bool:  # once: whether a rule file cannot be read just now
        if not seen:
            seen.append(bool(unreadable_rules(rules_dir)))
        return seen[0]
    found = extract(rules_dir) if found is None else found
    out: list[str] = []
    for lang in TRANSLATIONS:
        for domain in DOMAINS:
            path = po_path(lang, domain, rules_dir)
            wanted = found.get(domain, {})
            if not path.exists():
                if wanted:
                    (waived if waived is not None and domain == LENIENT else out).append(f"{_rel(path)} is missing: {len(wanted)} messages need a translation. "
                               f"Run `python3 build.py messages`, then translate them.")
                continue
            catalogue = read_catalogue(path)
            have = {m.id: m for m in catalogue if m.id}
            out_all, out = out, ([] if (waived is not None and domain == LENIENT) else out)
            for message, where in wanted.items():
                entry = have.get(message)
                short = _short(message)
                if isinstance(message, tuple) and entry is not None and not entry.fuzzy and any(entry.string):
                    problem = _forms_problem(message, entry.string)
                    if problem:
                        out.append(f"{_rel(path)}:{entry.lineno}: the translation of “{short}” {problem}.")
                    continue
                if entry is None or not entry.string or (isinstance(message, tuple) and not any(entry.string)):
                    out.append(f"{_rel(path)}: no translation for “{short}” ({where[0]}). "
                               f"Run `python3 build.py messages` and translate it.")
                elif entry.fuzzy:
                    out.append(f"{_rel(path)}:{entry.lineno}: the translation of “{short}” is stale (fuzzy: its English "
                               f"changed). Check it against the English, then remove the `#, fuzzy` line.")
                elif holes(entry.string) != holes(message):
                    out.append(f"{_rel(path)}:{entry.lineno}: the translation of “{short}” must keep the placeholders "
                               f"{' '.join(sorted(holes(message))) or '(none)'} exactly; it has "
                               f"{' '.join(sorted(holes(entry.string))) or '(none)'}.")
                elif isinstance(message, str) and (missing := figures(message, domain) - figures(entry.string, domain)):
                    # an amendment's new figure in the English, the old one kept in a translation once its fuzzy mark
                    # was taken off (the sixteenth hostile tester, W3: «recargo del 15%» beside the English 10%); in
                    # the law's translation too, and never waived: a quotation of the law with another figure than
                    # the law's is wrong, not missing (the twenty-fifth hostile tester, #9: 15% → 20% in the law)
                    out_all.append(f"{_rel(path)}:{entry.lineno}: the translation of “{short}” does not say "
                               f"{', '.join(sorted(missing))}, as the English does. Write the English's figures in "
                               f"the translation, as figures (20%, not «veinte por ciento»; $64.00, not «sesenta y "
                               f"cuatro dólares»), so a reader can check them against the English.")
            for message, entry in have.items():
                # while a rule file cannot be read, its messages are not stale: `messages` would drop
                # their translations (the rules' own check names the file to fix first)
                if message not in wanted and not broken() and domain not in found.unknown:
                    out.append(f"{_rel(path)}:{entry.lineno}: “{_short(message)}” is not used any more (stale). "
                               f"Run `python3 build.py messages` to drop it.")
            if out is not out_all:
                waived.extend(out)
                out = out_all
            out.extend(_glossary_problems(path, catalogue, wanted, glossary(rules_dir, lang)))
            out.extend(f"{_rel(path)}:{m.lineno}: {what}" for m in catalogue if m.id and m.string
                       for what in avoided_in(_joined(m.string), rules_dir, lang,
                                              law_english=_joined(m.id) if domain == "law" else None))
    out.extend(_avoided_in_files(rules_dir))
    return out


@__import__("functools").lru_cache(maxsize=8)
def _avoided(path: Path, mtime: float, lang: str) -> tuple:
    return tuple(_read_avoided(path, lang))


def avoided(rules_dir: Path = RULES_DIR, lang: str = "es") -> tuple:
    path = Path(rules_dir) / "glossary.yaml"
    return _avoided(path, path.stat().st_mtime, lang) if path.exists() else ()


def _read_avoided(path: Path, lang: str) -> list[tuple[re.Pattern, str, re.Pattern | None, bool, str]]:
    """The renderings rules/glossary.yaml says to avoid (a term's `avoid`, and `avoid_also`),
    each as (pattern, what to say about it, the law's English that allows it in law.po or None,
    whether it is English letters: looked for in Spanish text only, outside “…”, its longest piece).
    A term's `in_law_quotes` names the English word of the law (`english`) whose translation, in
    the translations of the law's own quotations only, may be one of its `avoid` words (`allow`)."""
    data = read_yaml(path)
    if data.get("language") != lang:
        return []
    out = []
    for term in data.get("terms", []):
        exception = term.get("in_law_quotes") or {}
        allowed = {w.lower() for w in exception.get("allow", [])}
        english = _word_pattern(exception["english"]) if exception else None
        letters = bool(term.get("english_letters"))
        for word in term.get("avoid", []):
            what = (f"“{word}” is English letters a Spanish reader cannot read: write “{term['es']}”, or label "
                    f"the letters «(en inglés, “{word}”)» (rules/glossary.yaml)." if letters else
                    f"“{word}” is not the glossary's word for “{term['en']}”: use “{term['es']}” (rules/glossary.yaml).")
            out.append((_word_pattern(word), what, english if word.lower() in allowed else None, letters, _piece(word)))
    for entry in data.get("avoid_also", []):
        for word in entry["avoid"]:
            out.append((_word_pattern(word), f"“{word}” is a rendering to avoid: use “{entry['use']}” "
                                             f"(rules/glossary.yaml).", None, False, _piece(word)))
    return out


def _piece(word: str) -> str:
    """The longest piece of a word to avoid, in small letters: a text without it cannot match its pattern."""
    return max(word.split(), key=len).lower()


def _word_pattern(word: str) -> re.Pattern:
    return re.compile(r"(?<![\w/])" + r"\s+".join(map(re.escape, word.split())) + r"(?![\w/])", re.I)


def avoided_in(text: str, rules_dir: Path = RULES_DIR, lang: str = "es", law_english: str | None = None,
               spanish: bool = True) -> list[str]:
    """What a text says that the glossary says to avoid, one sentence each. `law_english`: the text
    is the translation of this quotation of the law (law.po), where a term's `in_law_quotes` may
    allow one of its words to avoid, if the law's English says the word it translates. `spanish`:
    the text is Spanish (a translation), not a source that mixes English with it, so English
    letters to avoid (O&M, FWPCA) are looked for, outside the “…” that quote or label English."""
    lowered = text.lower()
    outside_quotes = ENGLISH_QUOTED.sub("“”", text)
    # (a word's longest piece looked for as plain text first: most texts hold no word to avoid, and a search
    # for each word's pattern in each of 7,000 messages took two seconds of every build)
    return [what for pattern, what, english, letters, piece in avoided(rules_dir, lang)
            if piece in lowered and (spanish or not letters) and pattern.search(outside_quotes if letters else text)
            and not (english is not None and law_english is not None and english.search(law_english))]


# English in Spanish text is in “…”: a quotation of the law, or a word labelled «(en inglés, “O&M”)»
ENGLISH_QUOTED = re.compile(r"“[^”]*”")


def _avoided_in_files(rules_dir: Path = RULES_DIR) -> list[str]:
    """The renderings to avoid in rules/ (a schedule's title_es, note_es…) and in the
    templates, by file and line (the catalogues are checked entry by entry)."""
    rules_dir = Path(rules_dir)
    files = [p for p in sorted(rules_dir.rglob("*.yaml")) if p.name != "glossary.yaml"]
    files += sorted((ROOT / "docs" / "templates").rglob("*.j2")) + sorted((ROOT / "docs" / "overrides").rglob("*.html"))
    out = []
    for lang in TRANSLATIONS:
        for path in files:
            # (a file that is not UTF-8 is reported by the rules' own check, with its line)
            for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
                out.extend(f"{_rel(path)}:{number}: {what}" for what in avoided_in(line, rules_dir, lang, spanish=False))
    return out


def glossary(rules_dir: Path = RULES_DIR, lang: str = "es") -> list[dict]:
    """The law's terms and their one translation (rules/glossary.yaml)."""
    path = Path(rules_dir) / "glossary.yaml"
    if not path.exists():
        return []
    data = read_yaml(path)
    return data["terms"] if data.get("language") == lang else []


def _glossary_problems(path: Path, catalogue: Catalog, wanted: dict, terms: list[dict]) -> list[str]:
    """A translation whose English uses one of the law's terms must use its Spanish (rules/glossary.yaml)."""
    out = []
    for term in terms:
        if term.get("loose"):
            continue
        english = re.compile(rf"\b{re.escape(term['en'])}s?\b", re.I)
        forms = [term["es"], *term.get("also", [])]
        for m in catalogue:
            english_text, string = _joined(m.id), _joined(m.string)
            if (m.id in wanted and string and not m.fuzzy and english.search(english_text)
                    and not any(f.lower() in string.lower() for f in forms)):
                out.append(f"{_rel(path)}:{m.lineno}: “{_short(m.id)}” uses “{term['en']}”; its translation must "
                           f"say “{term['es']}” (rules/glossary.yaml) but says “{_short(m.string)}”.")
    return out


def _joined(message) -> str:
    """A message's text; a plural message's forms, one after the other."""
    return " / ".join(message) if isinstance(message, (tuple, list)) else (message or "")


def _short(message, size: int = 70) -> str:
    one = " ".join(_joined(message).split())
    return one if len(one) <= size else one[: size - 1] + "…"


def update(rules_dir: Path = RULES_DIR) -> list[str]:
    """Bring every catalogue up to date with the sources; returns what changed, in words."""
    found = extract(rules_dir)
    report = []
    for lang in TRANSLATIONS:
        for domain in DOMAINS:
            if domain in found.unknown:  # (rules/ does not compile: its quotations' translations are kept)
                report.append(f"{_rel(po_path(lang, domain, rules_dir))}: not updated, rules/ does not compile "
                              f"(`python3 build.py validate` says why)")
                continue
            path = po_path(lang, domain, rules_dir)
            template = _new_catalogue(lang)
            for message, where in found.get(domain, {}).items():
                template.add(message, locations=[_location(w) for w in where])
            if path.exists():
                catalogue = read_catalogue(path, to_change=True)
                before = {m.id for m in catalogue if m.id}
                _plural_forms(catalogue, lang)
                catalogue.update(template, update_header_comment=False)
            else:
                catalogue, before = _new_catalogue(lang), set()
                catalogue.update(template)
            for m in catalogue:  # a plural message has as many forms as the language
                if isinstance(m.id, tuple) and isinstance(m.string, tuple):
                    m.string = (tuple(m.string) + ("",) * catalogue.num_plurals)[:catalogue.num_plurals]
            added = [m for m in found.get(domain, {}) if m not in before]
            dropped = [m for m in before if m not in found.get(domain, {})]
            buffer = io.BytesIO()
            write_po(buffer, catalogue, width=100, ignore_obsolete=True, sort_by_file=True, include_previous=True,
                     include_lineno=False)
            from calculator.core.files import write_atomic
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(path, buffer.getvalue())
            report.append(f"{_rel(path)}: {len(found.get(domain, {}))} messages, {len(added)} new, "
                          f"{len(dropped)} dropped, {sum(1 for m in catalogue if m.id and m.fuzzy)} fuzzy, "
                          f"{sum(1 for m in catalogue if m.id and not m.string)} untranslated")
    return report


def _new_catalogue(lang: str) -> Catalog:
    """A catalogue with a header that does not change from one update to the next (no
    dates), so a catalogue's history shows only its messages."""
    fixed = __import__("datetime").datetime(2026, 11, 30, tzinfo=__import__("datetime").timezone.utc)
    catalogue = Catalog(locale=lang, project="Pawling sewer self-service", version="1", charset="utf-8",
                        copyright_holder="Town of Pawling", msgid_bugs_address="",
                        creation_date=fixed, revision_date=fixed, fuzzy=False,
                        last_translator="not yet reviewed by the Town (see rules/glossary.yaml)",
                        language_team="Pawling sewer self-service")
    _plural_forms(catalogue, lang)
    catalogue.header_comment = (f"# Translations of the Pawling sewer self-service kit ({lang}).\n"
                                "# Written from the English; not yet reviewed by the Town. Update with\n"
                                "# `python3 build.py messages`; `python3 build.py validate` checks them.")
    return catalogue


def _plural_forms(catalogue: Catalog, lang: str) -> None:
    if lang in PLURAL_FORMS:
        catalogue._num_plurals, catalogue._plural_expr = PLURAL_FORMS[lang]


def _location(where: str) -> tuple[str, int | None]:
    name, _, line = where.rpartition(":")
    return (name, int(line)) if line.isdigit() else (where, None)


def translations(lang: str, domains=DOMAINS, rules_dir: Path = RULES_DIR, parameters: dict | None = None) -> dict:
    """{English: translation} for a language's current (not fuzzy) entries. With the
    compiled parameters, a message naming a parameter ({late-penalty-rate}) is also stored
    filled in on both sides: the English as the engine reads it in the compiled rules,
    the translation with the value in that language's words."""
    plain: dict[str, str] = {}
    named: list[tuple[str, str]] = []
    for domain in domains:
        path = po_path(lang, domain, rules_dir)
        if not path.exists():
            continue
        for m in read_catalogue(path):
            if m.id and isinstance(m.id, tuple) and not m.fuzzy and all(m.string):
                plain[PLURAL_KEY.format(singular=m.id[0], plural=m.id[1])] = list(m.string)
            if m.id and m.string and not m.fuzzy and isinstance(m.id, str) and domain == "law":
                plain[LAW_CONTEXT + m.id] = m.string  # the law's words, apart from the sentences
            elif m.id and m.string and not m.fuzzy and isinstance(m.id, str):
                plain[m.id] = m.string
                if parameters and domain == "rules" and PLACEHOLDER.search(m.id):
                    named.append((m.id, m.string))
    if not named:
        return plain
    # a value in words: the engine's (dates) and kit/rules/wording.py's (30 días), which pages.po holds
    words = {**plain, **translations(lang, ("engine", "pages"), rules_dir)}
    filled = dict(plain)
    for english, translated in named:
        filled[_fill(english, parameters, SOURCE, {})] = _fill(translated, parameters, lang, words)
    return filled


def _fill(text: str, parameters: dict, lang: str, words: dict) -> str:
    from ..rules.wording import value_words
    with speaking(lang, words):
        return PLACEHOLDER.sub(lambda m: value_words(parameters[m.group(1)]["value"], parameters[m.group(1)]["unit"])
                               if m.group(1) in parameters else m.group(0), text)


def engine_catalogue(lang: str) -> dict:
    """The "messages" provider the engine asks for in a checkout: what the wheel packs."""
    from ..rules.validate import RuleError, load_rules
    try:
        parameters = load_rules()["parameters"]
    except RuleError:  # rules/ is broken: the sentences still have their translations (the message saying
        parameters = None  # the rules cannot be read among them), only those naming a parameter's value not
    return translations(lang, WHEEL_DOMAINS, RULES_DIR, parameters)


def check_no_formatted_messages(paths) -> list[str]:
    """A message must be a plain string: `_(f"…")` or `_("…" + x)` can never be in a catalogue.
    `N_` takes only a plain string; `_` also takes a name or a table's entry (`_(what)`,
    `_(LABELS[status])`): a sentence marked with N_ where it is written."""
    out = []
    for path in paths:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in PY_KEYWORDS
                    and node.args):
                continue
            arg = node.args[0]
            plain = isinstance(arg, ast.Constant) and isinstance(arg.value, str)
            looked_up = node.func.id == "_" and isinstance(arg, (ast.Name, ast.Subscript, ast.Attribute))
            if not (plain or looked_up):
                out.append(f"{_rel(Path(path))}:{node.lineno}: {node.func.id}() needs a plain string; "
                           f"put the values in with .format() after it.")
    return out


def validate(rules_dir: Path = RULES_DIR) -> dict:
    """The rules compiled, and the translations checked: RuleError lists every problem."""
    from ..rules.validate import RuleError, compile_rules
    found: list[str] = []
    try:
        rules = compile_rules(rules_dir)
    except RuleError as exc:
        found, rules = list(exc.problems), None
    waived: list[str] = []
    found += problems(rules_dir, waived=waived)
    if found:
        raise RuleError(found)
    if waived:
        import sys
        print(f"  Note: {len(waived)} translation problems in the law's quoted words (law.po); the build goes on, "
              f"and a quotation without a translation says so on its page. `python3 build.py validate` lists "
              f"them.", file=sys.stderr)
    return rules


def main(argv=None, more=None) -> int:
    """`build.py validate`: the rules and the translations, and `more` problems (build.py: the sources read for
    account data, kit/privacy.py)."""
    from ..rules.validate import main as validate_main
    return validate_main(argv, more_checks=lambda: problems() + (more() if more else []))


def update_main(argv=None) -> int:
    """`build.py messages`: bring rules/locale/ up to date with the sources."""
    broken = unreadable_rules()
    if broken:  # its messages would look unused, and their translations would be dropped
        print("Not updating the catalogues: " + ", ".join(_rel(p) for p in broken) + " is missing or cannot be "
              "read as YAML, so its sentences would be dropped with their translations. Run `python3 build.py validate` to see "
              "what to fix there, then run this again.", file=__import__("sys").stderr)
        return 2
    for line in update():
        print(line)
    left = problems()
    print(f"{len(left)} translation problems left" + (": build.py validate lists them." if left else "."))
    return 0
