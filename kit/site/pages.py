"""The site's pages from rules/: what each template sees (the rules arranged for
reading, and worked examples computed by the engine), rendered with Jinja2 into
Markdown for mkdocs; and the site's documents made beside them (the application PDF)."""
from __future__ import annotations

import datetime as dt
import json
import os
import re
import shutil
from decimal import Decimal
from pathlib import Path

import jinja2

from calculator import industry, opendata
from calculator.bills import bill
from calculator.core import i18n, money, schedule
from calculator.permits import application
from calculator.rates import notices, rate_year
from calculator.permits import flow as flow_engine
from calculator.core.errors import InputError
from calculator.core.i18n import SOURCE, _, after_colon, law_translation, localized, speaking
from calculator.core.dates import (bill_choice, long, next_quarter_due, parse_quarter, public_holidays, quarter_name,
                                   quarter_of)
from calculator.core.explain import everyday, once, quote_words, quoted_english, quoted_own, since
from calculator.core.rules import parameter
from calculator.core.law import anchor, citation, enactments, local_law_name, provision_text, quoted

from .. import buildcache
from ..documents.application_pdf import build_blank_pdf
from .chart import rate_chart
from ..documents.layout import application_html
from ..documents.due_dates import CALENDAR_FILE, REPORTS_FILE, build_due_dates_calendar, calendar_years, due_dates
from ..rules.config import project_config
from ..errors import BuildError
from ..documents.feed import write_notice_pdfs
from ..words.language import ENGLISH_ONLY, PDF_TAGS, folder, install_gettext, site_root
from ..words.messages import WHEEL_DOMAINS, glossary, translations
from ..clerk.notices import hearing_notice_text, user_notice
from ..browser.wheel import WHEEL_NAME, engine_build_id, engine_version, pypdf_wheel_name
from ..rules.wording import parameter_words, value_words

ROOT = Path(__file__).resolve().parents[2]

PAGES = ROOT / "docs" / "templates" / "pages"
APPLICATION_PDF = "permit/application.pdf"


def build_date():
    """The day the site is built for (SOURCE_DATE_EPOCH when set, for reproducible builds)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch:
        return dt.datetime.fromtimestamp(int(epoch), dt.timezone.utc).date()
    return dt.date.today()


def stage_docs(staging: Path) -> Path:
    """Step 2a: copy the hand-written pages into a fresh folder (templates and decision records stay behind)."""
    docs = staging / "docs"
    shutil.copytree(ROOT / "docs", docs, ignore=shutil.ignore_patterns("templates", "overrides", "decisions", "*.j2"))
    return docs


def render_language(rules: dict, docs: Path, lang: str, today, config: dict, rules_dir: Path | None = None,
                    build_id: str | None = None) -> dict:
    """Step 2b, for one language: its pages (English in docs/, Spanish in docs/es/ at the
    same paths) and its blank application PDF, every word in that language and every figure
    from the same engine. Returns what the pages saw (their context). `build_id`: the engine
    wheel's (kit.browser.wheel.engine_build_id of the rules as compiled), worked out once per build."""
    from ..rules.validate import RULES_DIR
    rules_dir = rules_dir or RULES_DIR
    # the engine's words and the kit's own (pages.po: notices' titles, values in words, the calendar)
    messages = {} if lang == SOURCE else translations(lang, (*WHEEL_DOMAINS, "pages"), rules_dir, rules["parameters"])
    build_id = build_id or engine_build_id(rules, rules_dir)  # of the rules as compiled: one engine for every language
    with speaking(lang, messages):
        here = localized(rules)
        ctx = page_context(here, today, config, lang, rules_dir, build_id)
        from ..documents.feed import feed_words
        ctx["feed_words"] = feed_words()  # the notices' feed of this language is titled in it (kit.documents.feed)
        render_pages(here, docs / folder(lang), ctx, lang, rules_dir)
        build_application_pdf(here, docs / folder(lang), lang)
        write_notice_pdfs(ctx["notices"], docs / folder(lang) / "notices", PDF_TAGS[lang])
        site_url = config["site_url"]
        for reports_only in (False, True):
            build_due_dates_calendar(here, docs / folder(lang), today,
                                     f"{site_url.rstrip('/')}/{folder(lang)}" if site_url else None, reports_only)
    return ctx


def sample_quarters() -> dict:
    """The quarters of the fictional bill-run sample: the one its register bills, and the one it runs."""
    from ..billrun.sample import FIRST, SECOND, faulty_rows
    return {"first": FIRST, "second": SECOND, "faults": faulty_rows()}


def render_pages(rules: dict, docs: Path, ctx: dict | None = None, lang: str = SOURCE,
                 rules_dir: Path | None = None) -> list[Path]:
    """Render the pages generated from rules/ (Jinja2 templates in docs/templates/pages/),
    in one language. `law.md.j2` becomes law/index.md; `rates/schedule.md.j2` is rendered
    once per schedule. Pages only the Town's office uses (the Clerk's desk) are English only."""
    from ..rules.validate import RULES_DIR
    env = jinja_environment(PAGES, lang, rules_dir or RULES_DIR)
    ctx = ctx or page_context(rules, build_date())
    # a citation as a reader names it, linked to its place on /law/ (`up`: the way there from the page)
    # (a citation names the law's English text, so on a page in another language it is marked
    # as English, for screen readers: WCAG 3.1.2)
    # The sewer-rents article is named in a resident's words (issue 19): "Sewer charges (the law's
    # "sewer rents"), section B" the first time a page cites it, "Sewer charges, section D" after
    # (calculator.core.explain.everyday; `said` starts empty for each page); those words are the page's
    # language, not the law's English.
    english = "" if lang == SOURCE else "{: lang=en }"
    said: set[str] = set()

    def cite(ident, up="../", html=False):
        """The link, in Markdown; `html=True` inside an HTML block, where Markdown is not read."""
        own = everyday(rules, ident, said)
        text = env.filters["html" if html else "md"](own[0] if own else ctx["provisions"][ident]["where"])
        text, mark = (own_words(text), "") if own else (text, marked if html else english)
        if html:
            return f'<a href="{up}law/#{anchor(ident)}"{mark}>{text}</a>'
        return f"[{text}]({up}law/index.md#{anchor(ident)}){mark}"
    env.globals["cite"] = cite
    # an answer's provision words on the page (the worked example's steps): the law's English name of
    # its article once per page, not again after the page's own first citation (spanish8 #31)
    env.filters["once"] = lambda words: once(str(words), said)
    env.globals["cite_html"] = lambda ident, up="../": cite(ident, up, html=True)
    marked = "" if lang == SOURCE else ' lang="en"'
    own_words = english_quoted(marked)
    # a provision named in the page's language (an answer's `law` words): the law's English name it quotes, marked
    env.filters["english_quoted"] = own_words

    # a provision's id written in a reading ("rents.F", "prohibited-acts.I") as a reader names it:
    # "Sewer rents F", linked to its place on /law/ (`link=False` in a heading)
    env.filters["named"] = provision_names(rules, env, english, marked, said)
    # a provision's heading is ours, not the law's (rules/law.yaml): in the page's language (the rules catalogue)
    env.filters["heading"] = lambda text: _(text)
    env.filters["after_colon"] = after_colon  # «Lo que dice la ley: el propietario paga…» (spanish11, item 8)
    # the law's own words, quoted as written: marked, so the readability measure leaves them out
    # (kit/tools/readability.py), and on a page in another language marked as English
    env.globals["rate_chart"] = rate_chart
    env.globals["unit_words"] = opendata.unit_words  # a parameter's unit in the page's language
    env.globals["law_quote"] = lambda text: f'<span{marked} class="law-quote">{text}</span>'
    # a passage of the law, as the engine quotes it (calculator.core.law.QUOTED)
    env.globals["law_passage"] = lambda name: quoted(rules, name)
    # after a quotation of the law's English on a page in another language: the site's unofficial
    # translation, labelled so, or a sentence saying there is none yet (calculator.core.explain.quote_words);
    # nothing on an English page. `html=True` inside an HTML block, where Markdown is not read. A title
    # the law names in English inside it (“Standard Methods …”) is marked as English.
    env.globals["law_words"] = lambda text, html=False: (
        f' <span class="law-words">{quoted_english(env.filters["html" if html else "md"](quote_words(text)))}</span>'
        if marked else "")
    # a provision's own words on /law/ in another language (issue 33): the site's unofficial translation
    # of one piece of them, «…», as HTML, or the sentence saying there is none yet (an amendment changed
    # its English: the old translation, fuzzy or gone, is never shown)
    env.globals["law_piece_words"] = lambda text, term=None: law_piece_words(text, term, env.filters["html"])
    # a reading's "quoted words" are the law's, as written (a translation keeps them in English);
    # in another language the law's English is quoted “…” too (its own words «…»: not marked)
    law_quotes = r'"([^"\n]+)"|“([^”\n]+)”' if marked else r'"([^"\n]+)"'
    env.filters["quoted"] = lambda text: re.sub(
        law_quotes, lambda m: f'“<span{marked} class="law-quote">{m.group(1) or m.group(2)}</span>”', str(text))
    written = []
    for template in sorted(PAGES.rglob("*.md.j2")):
        rel = template.relative_to(PAGES).as_posix()
        if lang != SOURCE and rel in ENGLISH_ONLY:
            continue
        if rel == "rates/schedule.md.j2":
            targets = [(f"rates/{s['id']}/index.md", {"schedule": s}) for s in ctx["schedules"]]
        elif rel == "notices/notice.md.j2":
            targets = [(f"notices/{n['slug']}/index.md", {"notice": n}) for n in ctx["notices"]]
        else:
            name = rel[: -len(".md.j2")]
            targets = [("index.md" if name == "index" else f"{name}/index.md", {})]
        for out, extra in targets:
            said.clear()  # each page names the sewer-rents article in full the first time
            path = docs / out
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(env.get_template(rel).render(**ctx, **extra), encoding="utf-8")
            written.append(path)
    return written


def law_piece_words(text: str, term: str | None, html) -> str:
    """One piece of a provision's own words in the page's language, as HTML: the site's unofficial
    translation, «…», or the sentence saying there is none yet. With its defined `term` (rents.definitions),
    the two in one quotation, «<strong>TERM</strong>: its meaning», when both are translated."""
    words, term_words = law_translation(text), law_translation(term) if term else None
    if words is not None and term_words is not None:
        return quoted_english(f"«<strong>{html(term_words)}</strong>: {html(words)}»")
    one = lambda t: quoted_english(str(html(quoted_own(law_translation(t)) if law_translation(t) is not None
                                            else quote_words(t))))
    return f"<strong>{one(term)}</strong>: {one(text)}" if term else one(text)


def english_quoted(marked: str):
    """The law's English name, quoted inside a provision named in the page's language, marked as
    English (calculator.core.explain.quoted_english; `marked`: ' lang="en"', or "" on an English page)."""
    return lambda words: quoted_english(words, marked)


def provision_names(rules: dict, env, english: str, marked: str, said: set[str] | None = None):
    """The `named` filter: each provision id in a text (one with a dot or a hyphen, so that no
    ordinary word is taken for one) put as a reader names the provision; the sewer-rents
    article in a resident's words (calculator.core.explain.everyday, `said`: the page's articles
    already named in full)."""
    ids = sorted((p["id"] for p in rules["provisions"] if "." in p["id"] or "-" in p["id"]), key=len, reverse=True)
    pattern = re.compile(r"(?<![\w./#-])(" + "|".join(map(re.escape, ids)) + r")(?![\w-]|\.[A-Za-z0-9])")
    said = set() if said is None else said

    def named(text, link: bool = True, up: str = "../") -> str:
        def name(m):
            own = everyday(rules, m.group(1), said)
            if own:
                words = english_quoted(marked)(env.filters["md"](own[0]))
                return f"[{words}]({up}law/index.md#{anchor(m.group(1))})" if link else words
            words = env.filters["md"](citation(rules, m.group(1), heading=False))
            if link:
                return f"[{words}]({up}law/index.md#{anchor(m.group(1))}){english}"
            return f"<span{marked}>{words}</span>" if marked else words
        return pattern.sub(name, str(text))
    return named


def notice_markdown(text: str, md) -> str:
    """A notice's plain text (its PDF's lines) as Markdown that keeps them: paragraphs apart, each run of
    "- " lines a list, and every other line on a line of its own (a hard break), as the heading, the rate
    list and the signature are printed (the usability test: on the web page they ran into one line)."""
    blocks = []
    for para in text.strip("\n").split("\n\n"):
        out, lines = [], []
        for line in para.split("\n"):
            if line.startswith("- "):
                if lines:
                    out.append("<br>\n".join(lines))
                    lines = []
                if not out or not out[-1].startswith("- "):
                    out.append("- " + md(line[2:]))
                else:
                    out[-1] += "\n- " + md(line[2:])
            elif line.strip():
                lines.append(md(line))
        if lines:
            out.append("<br>\n".join(lines))
        blocks.extend(out)
    return "\n\n".join(blocks)


def jinja_environment(templates: Path, lang: str = SOURCE, rules_dir: Path | None = None):
    from ..rules.validate import RULES_DIR
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(templates)), undefined=jinja2.ChainableUndefined,
                             keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True, autoescape=False)
    install_gettext(env, lang, rules_dir)
    # Markdown's own characters in a value (a place, a newspaper's name) shown as themselves; "<" as
    # &lt;: Python-Markdown has no backslash escape for it (issue 35: "\<" showed its backslash)
    md_special = re.compile(r"([\\`*_\[\]>#|])")
    env.filters["md"] = lambda text: md_special.sub(r"\\\1", str(text)).replace("<", "&lt;")
    env.filters["anchor"] = anchor
    env.filters["notice_md"] = lambda text: notice_markdown(text, env.filters["md"])
    # a meeting's time as its notice prints it, "7:00 p.m." (the usability test: the schedule's page said "19:00")
    env.filters["clock"] = lambda hhmm: notices.clock(str(hhmm))
    env.filters["newspaper"] = notices.newspaper_words
    env.filters["resolution"] = notices.resolution_words
    env.filters["html"] = lambda text: jinja2.utils.markupsafe.escape(str(text))
    env.filters["long"] = lambda d: long(d if hasattr(d, "year") else dt.date.fromisoformat(d))
    env.filters["dollars"] = lambda x: money.dollars(Decimal(str(x)))
    env.filters["percent"] = lambda x: money.percent(Decimal(str(x)))
    # "1-1992" as a reader names it, in the page's language: "Local Law No. 1 of 1992"
    env.filters["local_law"] = lambda number: local_law_name(str(number))
    env.bytecode_cache = template_bytecode_cache(env)
    return env


def template_bytecode_cache(env) -> jinja2.BytecodeCache | None:
    """The templates compiled once and kept in kit/buildcache.py's folder (not once for each
    environment: each language's and each build's, 64 compilations a build, a tenth of its time).
    Jinja names an entry by the template's path and checks it against the template's source; the
    compiled code also depends on the environment's options and extensions and on Jinja's version,
    so the folder is named by those. None with `PAWLING_BUILD_CACHE=0`, or where it cannot be made."""
    if not buildcache.enabled():
        return None
    options = [jinja2.__version__, sorted(env.extensions), sorted(env.policies.items(), key=str), env.trim_blocks,
               env.lstrip_blocks, env.keep_trailing_newline, env.autoescape, env.undefined.__name__, env.newline_sequence]
    folder = buildcache.CACHE / f"jinja-{buildcache.key(map(repr, options))[:16]}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None  # a read-only checkout: each build compiles them
    return TemplateBytecode(str(folder))


class TemplateBytecode(jinja2.FileSystemBytecodeCache):
    """An entry named by the template's name alone, not its path: the tests' copies of the project
    (which build with this folder, PAWLING_BUILD_CACHE_DIR) use the checkout's entries rather than
    adding their own each run. An entry is used only for the very source it was compiled from
    (Jinja compares its checksum), else made again."""

    def get_cache_key(self, name: str, filename: str | None = None) -> str:
        return super().get_cache_key(name)


def _minimum(rules: dict, answer: dict) -> tuple[str, int, str]:
    """A quarter's minimum charge as the engine billed it (a bill.compute answer for 0 gallons), the gallons of
    water it is the charge for (the value in force on the quarter's first day, as the engine read it), and
    which value of an amended minimum that is (" (since January 1, 2026)"; "" for a minimum never amended)."""
    start = answer["period_start"]
    return (answer["minimum_charge"], parameter(rules, "minimum-charge-water-gallons", on=start),
            since(rules, "minimum-charge-water-gallons", start))


def page_context(rules: dict, today, config: dict | None = None, lang: str = SOURCE,
                 rules_dir: Path | None = None, build_id: str | None = None) -> dict:
    """What the page templates see: the rules, arranged for reading, and worked examples
    computed by the engine (so no page states a number the engine did not produce), in the
    language being spoken (kit.site.pages.render_language sets it).
    `config`: the project's settings (kit/rules/config.py; default: this repository's mkdocs.yml)."""
    from ..rules.validate import RULES_DIR
    config = config or project_config()
    build_id = build_id or engine_build_id(rules, rules_dir)  # the engine wheel's folder, engine/<build id>/
    by_id = {p["id"]: dict(p, anchor=anchor(p["id"]), words=provision_text(p), where=citation(rules, p["id"]))
             for p in rules["provisions"]}
    # a figure that is a reading's, not the law's words, is marked so on /law/ (the reading's `figures`)
    reading_of = {name: i["id"] for i in rules["interpretations"].values() for name in i.get("figures", [])}
    params_by_cite: dict[str, list] = {}
    for p in rules["parameters"].values():
        params_by_cite.setdefault(p["cite"], []).append(dict(p, reading=reading_of.get(p["name"])))
    interps_by_cite: dict[str, list] = {}
    for i in rules["interpretations"].values():
        interps_by_cite.setdefault(i["reads"], []).append(i)
    quarter = next_quarter_due(rules, today)
    try:
        current = schedule.in_force(rules, today)
    except Exception:
        current = None
    example = bill.compute(rules, quarter, {"water-gallons": "12000"})
    minimum = bill.compute(rules, quarter, {"water-gallons": "0"})
    schedules = []
    periods = {p["id"]: p for p in opendata.schedule_periods(rules)}
    for s in rules["schedules"]:
        q = quarter_name(*quarter_of(dt.date.fromisoformat(s["effective"])))
        at = bill.compute(rules, q, {"water-gallons": "0"}, vc_per_1000=s["vc_per_1000_gallons"],
                          sewage_fraction=s["sewage_fraction"])
        # the minimum as the engine bills it, with the gallons it used (the seventh hostile tester, F2: $64.00, the
        # charge for 8,000 gallons, was shown as "the charge for 10,000 gallons" after a dated amendment); for the
        # schedule in force, the minimum of today's quarter too when an amendment changed it since the schedule began
        minimums = [_minimum(rules, at)]
        if current is not None and s["id"] == current["id"]:
            now = bill.compute(rules, quarter_name(*quarter_of(today)), {"water-gallons": "0"},
                               vc_per_1000=s["vc_per_1000_gallons"], sewage_fraction=s["sewage_fraction"])
            if now["period_start"] > at["period_start"] and _minimum(rules, now)[:2] != minimums[0][:2]:
                minimums.append(_minimum(rules, now))
        meeting = s.get("notice", {}).get("meeting")
        days = (__import__("datetime").date.fromisoformat(meeting) - today).days if meeting else None
        schedules.append(dict(s, minimum_charge=at["minimum_charge"], label=schedule.label(s["status"]),
                              minimums=[{"charge": c, "gallons": g, "since": w} for c, g, w in minimums],
                              days_to_meeting=days,
                              # each minimum it is billed with, as api/rate-schedules.json gives them (hostile12, F14)
                              minimum_charges=periods[s["id"]]["minimum_charges"],
                              in_force=current is not None and s["id"] == current["id"]))
    return {
        "rules": rules, "today": today.isoformat(), "provisions": by_id,
        "articles": [dict(a, top=[by_id[i] for i in a["provisions"]]) for a in rules["law"]["articles"]],
        "params_by_cite": params_by_cite, "interps_by_cite": interps_by_cite,
        "interpretations": list(rules["interpretations"].values()),
        "interpretation_chosen": {i["id"]: i["chosen"] for i in rules["interpretations"].values()},
        "schedules": schedules, "current": current and next(s for s in schedules if s["id"] == current["id"]),
        # each schedule with the days it is in force, as the api/ files give them (the chart on /rates/)
        "rate_periods": list(periods.values()),
        "proposed": [s for s in schedules if s["status"] == "proposed"],
        # the first adopted schedule not yet in force (the usability test: with 2027 adopted, /rates/ still said
        # "The Town has not yet put its adopted rate on this site"), and the one the estimate's default quarter uses
        "adopted_next": next((s for s in sorted(schedules, key=lambda s: schedule.starts(rules, s))
                              if s["status"] == "adopted" and schedule.starts(rules, s) > today.isoformat()), None),
        "example_schedule": next((s for s in schedules if s["id"] == example["schedule"]["id"]), None),
        "example": example, "minimum": minimum, "example_quarter": quarter,
        "example_choice": bill_choice(rules, *parse_quarter(quarter)),  # the menu's words (assets/estimate.js)
        "build_id": build_id,
        "wheel": f"{build_id}/{WHEEL_NAME}-{engine_version()}-py3-none-any.whl",
        "notices": notice_list(rules, config["site_url"]),
        "site_url": config["site_url"] or "", "repo_url": config["repo_url"] or "",
        "site_keeper": config.get("site_keeper") or "",
        "parameters": rules["parameters"],
        # each parameter in words as the law stands, and each of its dated values: pages state no number themselves
        "words": {name: parameter_words(p) for name, p in rules["parameters"].items()},
        "history_words": {name: [dict(e, words=value_words(e["value"], p["unit"])) for e in p.get("history", [])]
                          for name, p in rules["parameters"].items()},
        "enactments": enactments(rules),
        "history_notes": history_notes(rules),
        **permit_context(rules), **industry_context(rules, today),
        # New York's public holidays of the build's year, where periods that end on one are explained
        "holiday_year": today.year, "holiday_dates": sorted(public_holidays(rules, today.year).items()),
        # the page's language, the way from its page tree to the site's root (for pages only
        # in English, like the Clerk's desk), and the glossary of the law's terms
        "lang": lang, "site_root": site_root(lang),
        # the fictional sample the bill run's desk offers to try (/billing-sample/, made by the build)
        "sample_quarters": sample_quarters(),
        # the Spanish title a proposed schedule gets when the Clerk gives none (the Clerk's desk says it)
        "spanish_title": rate_year.in_language("es", rate_year.TITLE).format(year="…").replace(" …", ""),
        "glossary": glossary(rules_dir or RULES_DIR, lang) if lang != SOURCE else [],
        "application_pdf": folder(lang) + APPLICATION_PDF,
        # who to contact (rules/contacts.yaml), shown by the _contacts.html.j2 block
        "contacts": rules.get("contacts", {}).get("contacts", []),
    }


def contacts_html(lang: str = SOURCE, contacts_id: str = "site-contacts", rules_dir: Path | None = None,
                  compact: bool = True) -> str:
    """Who to contact (rules/contacts.yaml) as an HTML block in a language: the one at the foot
    of every page (kit/site/theme_hooks.py; `compact`, a short paragraph for each office), from the
    same template as the pages' block."""
    from ..rules.validate import RULES_DIR, compile_rules
    rules_dir = rules_dir or RULES_DIR
    rules = compile_rules(rules_dir)
    messages = {} if lang == SOURCE else translations(lang, (*WHEEL_DOMAINS, "pages"), rules_dir, rules["parameters"])
    with speaking(lang, messages):
        contacts = localized(rules).get("contacts", {}).get("contacts", [])
        env = jinja_environment(PAGES, lang, rules_dir)
        return env.get_template("_contacts.html.j2").render(contacts=contacts, contacts_id=contacts_id,
                                                                  compact=compact, lang=lang)


def history_notes(rules: dict) -> list[str]:
    """The received text's history notes ("[Amended 3-4-1992 by L.L. No. 1-1992]"), in the law's order."""
    out = []
    for a in rules["law"]["articles"]:
        out.extend(a.get("notes_before", []))
    for p in rules["provisions"]:
        out.extend(p.get("notes_before", []) + p.get("notes_after", []))
    return out


def notice_list(rules: dict, site_url: str | None) -> list[dict]:
    """Every notice the Town has given under the rate-schedule process, newest first:
    each hearing notice (rate-schedules.B) and each annual notice to users with an
    adopted schedule (rate-schedules.D). A notice names the site's address: without
    site_url in mkdocs.yml the build stops and says so."""
    try:
        return _notice_list(rules, site_url)
    except InputError as exc:
        raise BuildError(str(exc)) from None


def _notice_list(rules: dict, site_url: str | None) -> list[dict]:
    """The notices in the current language (calculator.core.i18n.speaking): the same slugs, dates
    and figures in every language; `lang` says which one."""
    out = []
    for s in rules["schedules"]:
        if s.get("notice"):
            out.append({"slug": f"{s['id']}-hearing", "kind": _("Hearing notice"), "date": s["notice"]["published"],
                        "schedule": s["id"], "cite": "rate-schedules.B", "lang": i18n.lang(),
                        "title": _("Proposed sewer rate schedule {schedule}: public comment meeting").format(
                            schedule=s["id"]),
                        "text": hearing_notice_text(rules, s["id"], site_url),
                        "site_note": _site_note(s, site_url)})
        if s["status"] == "adopted":
            notice = user_notice(rules, s["id"], site_url)
            out.append({"slug": f"{s['id']}-rates", "kind": _("Annual notice to users"), "date": s["adoption"]["date"],
                        "schedule": s["id"], "cite": "rate-schedules.D", "lang": i18n.lang(),
                        "title": _("Sewer rate schedule {schedule} adopted: the rate, the minimum charge and due "
                                   "dates").format(schedule=s["id"]),
                        "text": notice["text"], "html": notice["html"]})
    return sorted(out, key=lambda n: (n["date"], n["slug"]), reverse=True)


def _site_note(s: dict, site_url: str | None) -> str | None:
    """The site's own sentence beside a newspaper notice that printed no address, or another one: outside the
    notice, labelled as the site's, so the notice shows exactly what ran (the usability test, issue 34)."""
    schedule_address = notices.schedule_address
    printed = s["notice"].get("website")
    here = schedule_address(site_url, s["id"])
    if printed is None or here is None or schedule_address(printed, s["id"]) == here:
        return None
    return _("Added by this site, not part of the notice as it ran in the newspaper: the proposed rate schedule can "
             "be read on this site at {address}.").format(address=here)


def permit_context(rules: dict) -> dict:
    """What the permit pages see: the checker's questions with where each answer
    leads, its outcomes, the application form by section, and the files beside them."""
    flow = rules["permits"]
    question_ids = {q["id"] for q in flow["questions"]}
    titles = {q["id"]: q["text"] for q in flow["questions"]}
    titles.update({o["id"]: o["title"] for o in flow["outcomes"]})

    def shown(items):  # the items the chosen readings allow; those that hang on an answer stay
        return [i for i in items or [] if _may_hold(rules, i.get("when"))]

    def as_read(c):  # a choice as the chosen interpretations make it (an alternative for one kind of work alone,
        # a septic system's, is that path's, not the list's: the oil separator's "yes" led to the result, the septic
        # path's, and without the approval the chosen reading asks: spanish18, WM-1)
        c = next((c | {k: v for k, v in a.items() if k != "when"} for a in c.get("alternatives", [])
                  if "interpretation" in json.dumps(a["when"]) and _may_hold(rules, a["when"])), c)
        return dict(c, reasons=shown(c.get("reasons")), requirements=shown(c.get("requirements")),
                    leads_to=titles[c["next"]], leads_to_outcome=c["next"] not in question_ids)

    def hint_as_read(q):  # the hint as the chosen readings word it
        return next((a["hint"] for a in q.get("hint_alternatives", []) if _may_hold(rules, a["when"])), q["hint"])

    questions = [dict(q, hint=hint_as_read(q), choices=[as_read(c) for c in q["choices"]]) for q in flow["questions"]]
    named = {i for _, i in _readings_named(flow)}
    readings = [dict(i, cite=i["reads"]) for i in rules["interpretations"].values() if i["id"] in named]
    form = application.form(rules)
    sections = [dict(s, fields=[f for f in form["fields"] if f["section"] == s["id"]]) for s in form["sections"]]
    return {
        "permit_flow": dict(flow, questions=questions, always=shown(flow["always"]), readings=readings),
        "application_form": form,
        "application_sections": sections, "application_fee": application.fee(rules),
        "application_form_html": application_html(rules, "web"),
        "pypdf_wheel": pypdf_wheel_name(),
        "law_index": {p["id"]: {"anchor": anchor(p["id"]), "heading": p["heading"]} for p in rules["provisions"]},
    }


def _readings_named(data, path=()):
    """(path, interpretation id) for every `reading:` and `when: {interpretation: …}` in the flow."""
    if isinstance(data, dict):
        for k, v in data.items():
            if k in ("reading", "interpretation") and isinstance(v, str):
                yield path, v
            else:
                yield from _readings_named(v, (*path, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _readings_named(v, (*path, i))


def _may_hold(rules: dict, when) -> bool:
    """Whether a `when:` can hold under the chosen interpretations, whatever the answers
    (for the page that lists every question; the checker itself decides with the answers)."""
    if when is None or "answer" in when:
        return True
    if "interpretation" in when:
        return flow_engine.holds(rules, when, {})
    if "all" in when:
        return all(_may_hold(rules, w) for w in when["all"])
    if "any" in when:
        return any(_may_hold(rules, w) for w in when["any"])
    inner = when["not"]
    return True if "interpretation" not in json.dumps(inner) or "answer" in json.dumps(inner) else not flow_engine.holds(rules, inner, {})


def industry_context(rules: dict, today) -> dict:
    """What the industry page sees: the calendar file, and the years and dates it holds; the
    next report dates from the build's date (none of them past); and, from the engine, what
    the law asks of every industry and the business's rights (in the language spoken)."""
    years = calendar_years(today)
    return {"calendar_file": CALENDAR_FILE, "reports_file": REPORTS_FILE, "calendar_years": years, "calendar_dates": due_dates(rules, years),
            "next_report_dates": industry.report_dates(rules, today=today),
            "industry_rights": industry.rights(rules)[0],
            "industry_facilities": industry.facilities(rules, "not-determined"),
            "federal_standards": quoted(rules, "federal-standards")}


def build_application_pdf(rules: dict, docs: Path, lang: str = SOURCE) -> Path:
    """The blank, fillable permit application (rules/application-form.yaml) as a PDF in
    the site, in the language being spoken. The browser fills a copy of it from the
    checker's answers."""
    return build_blank_pdf(rules, docs / APPLICATION_PDF, PDF_TAGS[lang])
