"""The notices on the site: each as a PDF beside its page, and the Atom feed that
announces them (feedgen), each notice in every language the site speaks."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

from feedgen.ext.base import BaseEntryExtension
from feedgen.feed import FeedGenerator

from calculator.core.files import write_atomic
from calculator.core.i18n import N_, SOURCE, _

from .pdf import write_html_pdf, write_pdf

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"


def write_notice_pdfs(items: list[dict], folder: Path, lang: str = "en-US") -> None:
    """Each notice as a PDF beside its page, in the notices' language (`lang`: the PDF's /Lang)."""
    folder.mkdir(parents=True, exist_ok=True)
    for n in items:
        (folder / n["slug"]).mkdir(parents=True, exist_ok=True)
        path = folder / n["slug"] / f"{n['slug']}.pdf"
        if n.get("html"):  # the notice to users has its own HTML; a hearing notice is text
            write_html_pdf(n["html"], n["title"], path, lang)
        else:
            write_pdf(n["text"], n["title"], path, lang)


class _EntryLanguage(BaseEntryExtension):
    """Gives an Atom entry its own xml:lang, and its link rel="alternate" and the hreflang of
    the page it links to (feedgen sets a language only on the feed, and writes an entry's
    link with its href alone)."""

    def __init__(self):
        self.language = None

    def extend_atom(self, entry):
        if self.language:
            entry.attrib[XML_LANG] = self.language
            for link in entry.findall("link"):
                link.attrib["rel"] = "alternate"
                link.attrib["hreflang"] = self.language
        return entry


def publish_notices(items: list[dict], docs: Path, updated_without_notices: str = "1970-01-01",
                    site_url: str | None = None, translated: dict[str, list[dict]] | None = None,
                    titles: dict[str, tuple[str, str]] | None = None) -> None:
    """Step 2c: the notices feed (Atom; each notice's PDF is made with its page, by
    write_notice_pdfs, in each language). With no notice
    yet, the feed is dated `updated_without_notices` (the site passes the law's latest enactment).
    Its links are absolute, from the site's address (feed readers cannot follow a relative link);
    a notice needs that address anyway, so only a feed without entries is made without it.

    `translated`: {language: the same notices in that language} (kit.site.pages.notice_list under
    calculator.core.i18n.speaking). Each becomes an entry of its own, in its language (xml:lang),
    linking to its page under /<language>/notices/<slug>/ (hreflang). Each of those languages has a feed of its own
    too, beside its notices page, titled in that language (`titles`: {language: (TITLE, SUBTITLE) in it}, which
    kit.site.pages.render_language gives under the language's catalogue)."""
    site = f"{site_url.rstrip('/')}/" if site_url else ""
    latest = max((n["date"] for n in items), default=updated_without_notices)
    by_slug = {lang: {n["slug"]: n for n in notices} for lang, notices in (translated or {}).items()}
    titles = titles or {}
    feed = _feed(docs / "notices", f"{site}notices/", site_url, SOURCE, "urn:pawling-sewer-kit:notices", latest,
                 (TITLE, SUBTITLE))
    for n in reversed(items):  # feedgen puts the last added first: newest first, the English before the others
        for lang in sorted(by_slug, reverse=True):
            other = by_slug[lang].get(n["slug"])
            if other is not None:
                # without the site's address, the way from /notices/feed.xml: ../<language>/notices/
                _entry(feed, other, f"urn:pawling-sewer-kit:notice:{n['slug']}:{lang}",
                       f"{site}{lang}/notices/" if site_url else f"../{lang}/notices/", lang)
        _entry(feed, n, f"urn:pawling-sewer-kit:notice:{n['slug']}", f"{site}notices/" if site_url else "", SOURCE)
    write_atomic(docs / "notices" / "feed.xml", feed.atom_str(pretty=True))
    # and a feed of each other language's own, beside its notices page (/es/notices/feed.xml): its title and
    # entries in that language only (the Spanish reviewer, spanish21: the Spanish page's feed was the English one)
    for lang, notices in by_slug.items():
        folder = docs / lang / "notices"
        own = _feed(folder, f"{site}{lang}/notices/", site_url, lang, f"urn:pawling-sewer-kit:notices:{lang}", latest,
                    titles.get(lang, (TITLE, SUBTITLE)))
        for n in reversed(items):
            if n["slug"] in notices:
                _entry(own, notices[n["slug"]], f"urn:pawling-sewer-kit:notice:{n['slug']}:{lang}",
                       f"{site}{lang}/notices/" if site_url else "", lang)
        write_atomic(folder / "feed.xml", own.atom_str(pretty=True))


TITLE = N_("Town of Pawling sewer notices")
SUBTITLE = N_("Proposed sewer rate schedules, public comment meetings, and adopted rates.")


def feed_words() -> tuple[str, str]:
    """The feed's title and subtitle in the language being spoken (under the pages' catalogue)."""
    return _(TITLE), _(SUBTITLE)


def _feed(folder: Path, base: str, site_url: str | None, lang: str, ident: str, latest: str,
          words: tuple[str, str]) -> FeedGenerator:
    """A feed of notices in `lang`, with its title and subtitle (`words`), for `folder`/feed.xml."""
    folder.mkdir(parents=True, exist_ok=True)
    feed = FeedGenerator()
    feed.id(ident)
    feed.title(words[0])
    feed.subtitle(words[1])
    feed.link(href=base if site_url else "./", rel="alternate")
    feed.link(href=f"{base if site_url else ''}feed.xml", rel="self")
    feed.language(lang)
    feed.updated(dt.datetime.fromisoformat(latest + "T12:00:00+00:00"))
    return feed


def _entry(feed: FeedGenerator, n: dict, ident: str, base: str, lang: str) -> None:
    """One notice, in one language, as an entry of the feed."""
    entry = feed.add_entry()
    entry.register_extension("xml_lang", _EntryLanguage, atom=True, rss=False)
    entry.xml_lang.language = lang
    entry.id(ident)
    entry.title(n["title"])
    entry.link(href=f"{base}{n['slug']}/")
    when = dt.datetime.fromisoformat(n["date"] + "T12:00:00+00:00")
    entry.published(when)
    entry.updated(when)
    entry.content(n["text"], type="text")
