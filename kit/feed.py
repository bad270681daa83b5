"""The notices on the site: each as a PDF beside its page, and the Atom feed that
announces them (feedgen)."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

from feedgen.feed import FeedGenerator

from calculator.files import write_atomic

from .pdf import write_html_pdf, write_pdf


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


def publish_notices(items: list[dict], docs: Path, updated_without_notices: str = "1970-01-01",
                    site_url: str | None = None) -> None:
    """Step 2c: the notices feed (Atom; each notice's PDF is made with its page, by
    write_notice_pdfs, in each language). With no notice
    yet, the feed is dated `updated_without_notices` (the site passes the law's latest enactment).
    Its links are absolute, from the site's address (feed readers cannot follow a relative link);
    a notice needs that address anyway, so only a feed without entries is made without it."""
    folder = docs / "notices"
    folder.mkdir(parents=True, exist_ok=True)
    feed = FeedGenerator()
    feed.id("urn:pawling-sewer-kit:notices")
    feed.title("Town of Pawling sewer notices")
    feed.subtitle("Proposed sewer rate schedules, public comment meetings, and adopted rates.")
    base = f"{site_url.rstrip('/')}/notices/" if site_url else ""
    feed.link(href=base or "./", rel="alternate")
    feed.link(href=f"{base}feed.xml", rel="self")
    feed.language("en")
    latest = max((n["date"] for n in items), default=updated_without_notices)
    feed.updated(dt.datetime.fromisoformat(latest + "T12:00:00+00:00"))
    for n in reversed(items):  # feedgen puts the last added first
        entry = feed.add_entry()
        entry.id(f"urn:pawling-sewer-kit:notice:{n['slug']}")
        entry.title(n["title"])
        entry.link(href=f"{base}{n['slug']}/")
        when = dt.datetime.fromisoformat(n["date"] + "T12:00:00+00:00")
        entry.published(when)
        entry.updated(when)
        entry.content(n["text"], type="text")
    write_atomic(folder / "feed.xml", feed.atom_str(pretty=True))
