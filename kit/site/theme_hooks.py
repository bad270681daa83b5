"""mkdocs hooks (run_mkdocs registers this module): our corrections to the HTML that
mkdocs-material writes from templates we do not override, and the site's second
language.

The theme keeps its state in hidden checkboxes written by its base.html, outside any
block a theme override can replace: `#__search` (its search box, unused here: the
search plugin is off but the theme's script still needs the toggle) and `#__toc` (the
table of contents on a phone, unlabelled on pages without headings). They are never
shown, but a checker reads every form field, and HTML_CodeSniffer rightly reports a
checkbox with no name (WCAG 4.1.2, 1.3.1). Each gets the name of what it opens.

Languages: the Spanish pages are under es/, at the same paths as the English ones
(kit/pages.render_language). mkdocs builds them with the English ones in one pass; for
each Spanish page these hooks switch what the theme reads to Spanish while it renders
that page: its interface words (theme.language: es), the site's name, description and
copyright line (pages.po), and the menu (the same menu, of the Spanish pages). Each
page also learns its counterpart in the other language (`page.meta.alternates`) for
the language switch and the hreflang links (docs/overrides/main.html), and a Spanish
page gets the scripts' words (`page.meta.script_words`, read by assets/words.js)."""
from __future__ import annotations

import json
import re
from pathlib import Path

from calculator.core.i18n import N_, SOURCE

from kit.words.language import NAMES, mark_glossed_english
from kit.words.messages import TRANSLATIONS

TOGGLE_NAMES = {"__search": N_("Search"), "__toc": N_("Table of contents")}
#: beside the language switch on a translated page, while the Town has not reviewed the translation
NOT_REVIEWED = N_("A translation to help you, not yet reviewed by the Town. The English text is the official one.")
#: the footer's link to the staff desks (/clerk/, /clerk/bills/: English, `noindex`), where staff look (issue 34)
STAFF = N_("For Town staff")
#: and to the data for other programs (/data/, in the page's language), where a developer looks
DATA = N_("Data for developers")
#: the "not found" page (404.html, one for the whole site, as GitHub Pages serves it): what to
#: do, in English and in each other language (marked so), with a link to each home page
NOT_FOUND = N_("There is no page at this address. Go to the {home}.")
HOME = N_("home page")
NOT_FOUND_TITLE = N_("Page not found")
SECOND = TRANSLATIONS  # the languages beside English (calculator.core.i18n.LANGUAGES)
_state: dict = {}


def language_of(src_uri: str) -> str:
    head = src_uri.split("/", 1)[0]
    return head if head in SECOND and "/" in src_uri else SOURCE


def name_theme_toggles(html: str, names: dict | None = None) -> str:
    """Give the theme's hidden toggles an accessible name (no other change to them)."""
    names = names or TOGGLE_NAMES

    def named(match: re.Match) -> str:
        tag, ident = match.group(0), match.group(1)
        if "aria-label=" in tag:
            return tag
        return tag[:-1] + f' aria-label="{names[ident]}">'
    pattern = r'<input\b[^>]*\bid="(' + "|".join(TOGGLE_NAMES) + r')"[^>]*>'
    return re.sub(pattern, named, html)


def on_config(config):
    from kit.words.language import page_words
    english = {k: config[k] for k in ("site_name", "site_description", "copyright")}
    _state.clear()
    _state["english"] = dict(english, language=config.theme["language"])
    _state["words"] = {lang: page_words(lang) for lang in SECOND}
    from kit.words.language import rules_folder
    from kit.words.messages import glossary
    _state["reviewed"] = {lang: all(t.get("reviewed") for t in glossary(rules_folder(), lang)) for lang in SECOND}
    from kit.site.pages import contacts_html  # who to contact, in each page's footer (rules/contacts.yaml)
    _state["contacts"] = {lang: contacts_html(lang, rules_dir=rules_folder()) for lang in (SOURCE, *SECOND)}
    return config


def on_nav(nav, config, files):
    """The Spanish menu: the English menu's items, each the Spanish page at the same path."""
    from mkdocs.structure.nav import Navigation, Page, _add_previous_and_next_links
    _state["navs"] = {}
    for lang in SECOND:
        items = []
        for item in nav.items:
            if isinstance(item, Page):
                file = files.get_file_from_path(f"{lang}/{item.file.src_uri}")
                if file is not None and file.page is not None:
                    words = _state["words"][lang]
                    file.page.title = words.get(item.title) or item.title  # the menu's own words (pages.po)
                    items.append(file.page)
        _add_previous_and_next_links(items)
        _state["navs"][lang] = Navigation(items, items)
    _state["urls"] = {f.src_uri: f.url for f in files.documentation_pages()}
    return nav


def _alternates(src_uri: str) -> dict[str, str]:
    """{language: src_uri} of this page in every language it exists in (itself included)."""
    lang = language_of(src_uri)
    base = src_uri if lang == SOURCE else src_uri.split("/", 1)[1]
    found = {SOURCE: base} if base in _state["urls"] else {}
    for other in SECOND:
        if f"{other}/{base}" in _state["urls"]:
            found[other] = f"{other}/{base}"
    return found


def on_page_context(context, page, config, nav):
    lang = language_of(page.file.src_uri)
    _speak(config, lang)
    if lang != SOURCE:
        context["nav"] = _state["navs"][lang]
        words = _script_words(lang)
        page.meta["script_words"] = json.dumps(words, ensure_ascii=False, sort_keys=True).replace("</", "<\\/")
        if not _state["reviewed"][lang]:
            page.meta["translation_note"] = _state["words"][lang].get(NOT_REVIEWED) or NOT_REVIEWED
        page.meta["staff"] = _state["words"][lang].get(STAFF) or STAFF
        page.meta["data_words"] = _state["words"][lang].get(DATA) or DATA
    page.meta["lang"] = lang
    if page.meta.get("engine_wheel"):  # the Pyodide the engine's worker starts (its caches carry the version)
        from kit.browser.wheel import pyodide_version
        page.meta["engine_pyodide"] = pyodide_version()
        page.meta["engine_integrity"] = engine_integrity(config["docs_dir"], page.meta["engine_wheel"])
    if page.file.src_uri not in ("index.md", *(f"{other}/index.md" for other in SECOND)):  # the home page has its own
        page.meta["contacts_html"] = _state["contacts"][lang]
    alternates = _alternates(page.file.src_uri)
    page.meta["alternates"] = [{"lang": other, "url": _state["urls"][uri], "name": NAMES[other]}
                               for other, uri in alternates.items()] if len(alternates) > 1 else []
    return context


def engine_integrity(docs_dir: str, wheel: str) -> str:
    """What the engine's worker takes from Cache Storage, each file with the SHA-256 it must have
    ("path:base64 path:base64 …", paths from the site's root): Pyodide's wasm (as kept: decoded)
    and lock file, the engine's folder (its wheel, standard library, catalogues) and pypdf. The
    page carries it, so a copy another page of the same origin put there is not used (issue 35)."""
    known = _state.setdefault("integrity", {})  # once a build (on_config clears _state)
    if wheel in known:
        return known[wheel]
    from kit.site.harden import sha256_b64
    docs = Path(docs_dir)
    engine = docs / "engine" / wheel.rsplit("/", 1)[0]
    files = [docs / "pyodide" / "pyodide.asm.wasm", docs / "pyodide" / "pyodide-lock.json",
             *(p for p in sorted(engine.rglob("*")) if p.is_file() and p.suffix != ".xz"),
             *sorted((docs / "engine").glob("*.whl"))]
    known[wheel] = " ".join(f"{p.relative_to(docs).as_posix()}:{sha256_b64(p.read_bytes())}" for p in files)
    return known[wheel]


def _script_words(lang: str) -> dict:
    from kit.words.language import script_words
    return script_words(lang)


def _speak(config, lang: str) -> None:
    """Make the theme read its interface words, the site's name and menu in a language."""
    english = _state["english"]
    if lang == SOURCE:
        config.theme["language"] = english["language"]
        for key in ("site_name", "site_description", "copyright"):
            config[key] = english[key]
        return
    words = _state["words"][lang]
    config.theme["language"] = lang
    for key in ("site_name", "site_description", "copyright"):
        config[key] = words.get(english[key]) or english[key]


def on_env(env, config, files):
    _state["env"], _state["files"] = env, files  # for the other languages' "not found" pages (on_post_build)
    return env


def on_template_context(context, template_name, config):
    """A "not found" page in another language (on_post_build): its menu and footer in that language."""
    lang = _state.get("not_found_lang")
    if template_name == "404.html" and lang:
        words = _state["words"][lang]
        context["nav"] = _state["navs"][lang]
        context["chrome"] = {"lang": lang, "staff": words.get(STAFF) or STAFF, "data_words": words.get(DATA) or DATA}
    return context


def on_post_template(output: str, template_name: str, config) -> str:
    """The "not found" page says what to do in every language of the site, each in a block of
    its own (`lang`), with a language-neutral "404" above them. It is one page for the whole
    site (GitHub Pages serves the root's 404.html for every missing address), so which block
    comes first cannot be chosen when it is built: English does. Each other language also has
    a "not found" page of its own, all in that language (es/404.html: its menu, title, footer and
    `lang`, on_post_build). The local server sends it for a missing address under es/; on GitHub
    Pages, a small script of our own (assets/not-found.js: no inline script, as the security
    policy asks) opens it in place of the root's page when the missing address is under es/.
    Without scripts both blocks are still there, each marked with its language."""
    if template_name != "404.html":
        return output
    import html as html_lib
    from urllib.parse import urlsplit
    root = config.get("site_url") or "/"
    path = urlsplit(root).path or "/"  # the script from this site, wherever it is served (the CSP's 'self')
    only = _state.get("not_found_lang")
    if only:  # es/404.html: that language's block alone, titled in that language
        words = _state["words"][only]
        say = lambda message: html_lib.escape(words.get(message) or message)  # noqa: E731
        link = f'<a href="{html_lib.escape(root)}{only}/">{say(HOME)}</a>'
        block = (f'<section aria-labelledby="not-found-{only}"><h2 id="not-found-{only}">{say(NOT_FOUND_TITLE)}</h2>'
                 f'<p>{say(NOT_FOUND).replace("{home}", link)}</p></section>')
        output = re.sub(r"<title>[^<]*</title>", lambda m: f"<title>{say(NOT_FOUND_TITLE)} - "
                        f"{html_lib.escape(config['site_name'])}</title>", output, count=1)
        # the scripts' words, as every other page of the language has them (main.html): the menu button
        # (assets/keyboard.js) was named "Site menu" here (the Spanish reviewer, 33e)
        words_json = json.dumps(_script_words(only), ensure_ascii=False, sort_keys=True).replace("</", "<\\/")
        output = output.replace("</body>", f'<script type="application/json" id="pawling-words">{words_json}</script>\n'
                                "</body>", 1)
        return output.replace("<h1>404 - Not found</h1>", f'<h1>404</h1>\n<div class="not-found">{block}</div>', 1)
    link = f'<a href="{html_lib.escape(root)}">{HOME}</a>'
    parts = [f'<section lang="{SOURCE}" aria-labelledby="not-found-{SOURCE}"><h2 id="not-found-{SOURCE}">'
             f'{NOT_FOUND_TITLE}</h2><p>{NOT_FOUND.format(home=link)}</p></section>']
    for lang in SECOND:
        words = _state["words"][lang]
        say = lambda message: html_lib.escape(words.get(message) or message)  # noqa: E731
        link = f'<a href="{html_lib.escape(root)}{lang}/" hreflang="{lang}">{say(HOME)}</a>'
        parts.append(f'<section lang="{lang}" aria-labelledby="not-found-{lang}"><h2 id="not-found-{lang}">'
                     f'{say(NOT_FOUND_TITLE)}</h2><p>{say(NOT_FOUND).replace("{home}", link)}</p></section>')
    # its title names the page in every language too (a screen reader and a tab say it first): "Page not
    # found · Página no encontrada - site name" (issue 33: it was the English site name alone)
    names = " · ".join([NOT_FOUND_TITLE] + [_state["words"][lang].get(NOT_FOUND_TITLE) or NOT_FOUND_TITLE
                                            for lang in SECOND])
    output = re.sub(r"<title>[^<]*</title>", lambda m: f"<title>{html_lib.escape(names)} - "
                    f"{html_lib.escape(_state['english']['site_name'])}</title>", output, count=1)
    output = output.replace("<h1>404 - Not found</h1>",
                            '<h1>404</h1>\n<div class="not-found">' + "\n".join(parts) + "</div>", 1)
    return output.replace("</body>", f'<script type="module" src="{html_lib.escape(path)}assets/not-found.js"></script>\n'
                          "</body>", 1)


def on_post_build(config):
    """Each other language's own "not found" page (es/404.html), rendered as the theme renders the
    root's, while the theme speaks that language: `<html lang>`, title, header, menu, footer and
    the theme's labels are all in it (the Spanish reviewer's A.1)."""
    from mkdocs import utils
    from mkdocs.commands.build import _build_template
    env, files = _state["env"], _state["files"]
    try:
        for lang in SECOND:
            _state["not_found_lang"] = lang
            _speak(config, lang)
            output = _build_template("404.html", env.get_template("404.html"), files, config, _state["navs"][lang])
            utils.write_file(output.encode("utf-8"), str(Path(config.site_dir) / lang / "404.html"))
    finally:
        _state.pop("not_found_lang", None)
        _speak(config, SOURCE)


#: "§ 452" kept on one line (the Spanish reviewer spanish11, item 9: «el §» ended a line at 390 px)
_SECTION_SIGN = re.compile(r"§ (?=\d)")


#: the Spanish pages' labels a sentence follows after a colon: the sentence starts with a small letter there, as
#: Spanish writes it (spanish13, C-1: «Por qué: Una obra…» beside «Lo que debe hacer: instale…»)
_SPANISH_LABEL = re.compile(
    r"((?:Por qué alguien podría leerlo así|Por qué|Otra interpretación|La interpretación que usamos|"
    r"la interpretamos así|nuestra interpretación|Lo que debe hacer|Cómo lo interpretamos|Secretaría del Pueblo"
    r"|Inspector de Alcantarillado|Si paga tarde)(?:</(?:strong|b|em)>)?:(?:\s*</(?:strong|b|em)>)?\s+"
    r"(?:<(?:strong|b|em)>)?)([A-ZÁÉÍÓÚÑ][a-záéíóúñü]+|[AYOEU](?=\s+[a-záéíóúñü]))")  # (spanish16 #5, spanish17 #2)


def small_after_labels(html: str) -> str:
    """A Spanish page's sentences after its labels, with a small first letter (not a name: calculator.core.i18n)."""
    from calculator.core.i18n import small_first
    # (a word of one letter is matched only before a small word: «así: a lo largo»; a section's «A(1)» is not)
    return _SPANISH_LABEL.sub(lambda m: m.group(1) + (m.group(2).lower() if len(m.group(2)) == 1
                                                      else small_first(m.group(2))), html)


def on_post_page(output: str, page, config) -> str:
    lang = language_of(page.file.src_uri)
    _speak(config, SOURCE)  # pages mkdocs makes after the last one (404.html, the sitemap) are English
    output = _SECTION_SIGN.sub("§\u00a0", output)
    if lang == SOURCE:
        return name_theme_toggles(output)
    words = _state["words"][lang]
    if lang == "es":
        # and the full stop after a closing «», as Spanish writes it, on every page alike (spanish14: inside on the
        # law page, outside on the others)
        output = re.sub(r"(?<=[\w)\]])\.»", "».", small_after_labels(output))
    return mark_glossed_english(mark_english_contents(
        name_theme_toggles(output, {k: words.get(v) or v for k, v in TOGGLE_NAMES.items()})))


def _mark_quoted_in_contents(html: str) -> str:
    """A heading in the page's language that quotes the law's English (“<span lang="en">the flow
    carried by the municipal system</span>”): the table of contents, which keeps only a heading's
    text, marks the same words as English in its entry (issue 22)."""
    quoted = {}
    for m in re.finditer(r'<h[1-6]\b[^>]*\bid="([^"]+)"[^>]*>(.*?)</h[1-6]>', html, re.S):
        words = re.findall(r'<span\b[^>]*\blang="en"[^>]*>([^<]+)</span>', m.group(2))
        if words and 'lang="en"' not in m.group(0).split(">", 1)[0]:
            quoted[m.group(1)] = words

    def entry(m: re.Match) -> str:
        text = m.group(3)
        for words in quoted.get(m.group(2), ()):
            text = text.replace(words, f'<span lang="en">{words}</span>', 1)
        return m.group(1) + text + m.group(4)
    if not quoted:
        return html
    return re.sub(r'(<a\b[^>]*\bhref="#([^"]+)"[^>]*\bclass="md-nav__link"[^>]*>\s*<span class="md-ellipsis">)(.*?)(</span>)',
                  entry, html, flags=re.S)


def mark_english_contents(html: str) -> str:
    """On a page in another language, a heading kept in English (the law's own, marked
    lang="en") is English in the page's table of contents too (WCAG 3.1.2)."""
    english = set(re.findall(r'<h[1-6]\b(?=[^>]*\blang="en")[^>]*\bid="([^"]+)"', html))
    english |= set(re.findall(r'<h[1-6]\b(?=[^>]*\bid="([^"]+)")[^>]*\blang="en"', html))
    html = _mark_quoted_in_contents(html)
    if not english:
        return html

    def marked(match: re.Match) -> str:
        tag = match.group(0)
        return tag[:-1] + ' lang="en">' if match.group(1) in english and "lang=" not in tag else tag
    html = re.sub(r'<a\b[^>]*\bhref="#([^"]+)"[^>]*\bclass="md-nav__link"[^>]*>', marked, html)
    # the table of contents names a heading's sub-list after it (aria-label): English too
    names = set(re.findall(r'class="md-nav__link" lang="en">\s*<span class="md-ellipsis">\s*([^<]*?)\s*</span>', html))
    return re.sub(r'<nav class="md-nav" aria-label="([^"]*)">',
                  lambda m: m.group(0)[:-1] + ' lang="en">' if m.group(1) in names else m.group(0), html)
