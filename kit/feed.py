"""The notices on the site: each as a PDF beside its page, and the Atom feed that
announces them (feedgen), each notice in every language the site speaks."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

from feedgen.ext.base import BaseEntryExtension
from feedgen.feed import FeedGenerator

from calculator.files import write_atomic
from calculator.i18n import SOURCE

from .pdf import html_pdf_bytes, pdf_bytes, write_html_pdf, write_pdf

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"


class _EntryLanguage(BaseEntryExtension):
    """Gives an Atom entry its own xml:lang (feedgen sets it only on the feed)."""

    def __init__(self):
        self.language = None

    def extend_atom(self, entry):
        if self.language:
            entry.attrib[XML_LANG] = self.language
        return entry


def publish_notices(items: list[dict], docs: Path, updated_without_notices: str = "1970-01-01",
                    site_url: str | None = None, translated: dict[str, list[dict]] | None = None) -> None:
    """Step 2c: each notice as a PDF beside its page, and the notices feed (Atom). With no notice
    yet, the feed is dated `updated_without_notices` (the site passes the law's latest enactment).
    Its links are absolute, from the site's address (feed readers cannot follow a relative link);
    a notice needs that address anyway, so only a feed without entries is made without it.

    `translated`: {language: the same notices in that language} (kit.pages.translated_notices).
    Each becomes an entry of its own, in its language (xml:lang), linking to its page under
    /<language>/notices/<slug>/ (hreflang), and its PDF is written beside that page."""
    translated = translated or {}
    folder = docs / "notices"
    folder.mkdir(parents=True, exist_ok=True)
    for n in items:
        (folder / n["slug"]).mkdir(parents=True, exist_ok=True)
        path = folder / n["slug"] / f"{n['slug']}.pdf"
        if n.get("html"):  # the notice to users has its own HTML; a hearing notice is text
            write_html_pdf(n["html"], n["title"], path)
        else:
            write_pdf(n["text"], n["title"], path)
    for language, notices in translated.items():
        for n in notices:
            path = docs / language / "notices" / n["slug"] / f"{n['slug']}.pdf"
            made = (html_pdf_bytes(n["html"], n["title"], language) if n.get("html")
                    else pdf_bytes(n["text"], n["title"], language))
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(path, made)
    feed = FeedGenerator()
    feed.id("urn:pawling-sewer-kit:notices")
    feed.title("Town of Pawling sewer notices")
    feed.subtitle("Proposed sewer rate schedules, public comment meetings, and adopted rates.")
    site = f"{site_url.rstrip('/')}/" if site_url else ""
    base = f"{site}notices/" if site_url else ""
    feed.link(href=base or "./", rel="alternate")
    feed.link(href=f"{base}feed.xml", rel="self")
    feed.language(SOURCE)
    latest = max((n["date"] for n in items), default=updated_without_notices)
    feed.updated(dt.datetime.fromisoformat(latest + "T12:00:00+00:00"))
    by_slug = {language: {n["slug"]: n for n in notices} for language, notices in translated.items()}
    for n in reversed(items):  # feedgen puts the last added first: newest first, each language after the English
        for language in sorted(by_slug, reverse=True):
            other = by_slug[language].get(n["slug"])
            if other is not None:
                # from /notices/feed.xml without the site's address: ../<language>/notices/<slug>/
                where = f"{site}{language}/notices/" if site_url else f"../{language}/notices/"
                _entry(feed, other, f"urn:pawling-sewer-kit:notice:{n['slug']}:{language}", where, language)
        _entry(feed, n, f"urn:pawling-sewer-kit:notice:{n['slug']}", base, SOURCE)
    write_atomic(folder / "feed.xml", feed.atom_str(pretty=True))


def _entry(feed: FeedGenerator, n: dict, ident: str, base: str, language: str) -> None:
    entry = feed.add_entry()
    entry.register_extension("xml_lang", _EntryLanguage, atom=True, rss=False)
    entry.xml_lang.language = language
    entry.id(ident)
    entry.title(n["title"])
    entry.link(href=f"{base}{n['slug']}/", rel="alternate", hreflang=language)
    when = dt.datetime.fromisoformat(n["date"] + "T12:00:00+00:00")
    entry.published(when)
    entry.updated(when)
    entry.content(n["text"], type="text")
