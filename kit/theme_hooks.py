"""mkdocs hooks (run_mkdocs registers this module): our corrections to the HTML that
mkdocs-material writes from templates we do not override.

The theme keeps its state in hidden checkboxes written by its base.html, outside any
block a theme override can replace: `#__search` (its search box, unused here: the
search plugin is off but the theme's script still needs the toggle) and `#__toc` (the
table of contents on a phone, unlabelled on pages without headings). They are never
shown, but a checker reads every form field, and HTML_CodeSniffer rightly reports a
checkbox with no name (WCAG 4.1.2, 1.3.1). Each gets the name of what it opens."""
from __future__ import annotations

import re

TOGGLE_NAMES = {"__search": "Search", "__toc": "Table of contents"}


def name_theme_toggles(html: str) -> str:
    """Give the theme's hidden toggles an accessible name (no other change to them)."""
    def named(match: re.Match) -> str:
        tag, ident = match.group(0), match.group(1)
        if "aria-label=" in tag:
            return tag
        return tag[:-1] + f' aria-label="{TOGGLE_NAMES[ident]}">'
    pattern = r'<input\b[^>]*\bid="(' + "|".join(TOGGLE_NAMES) + r')"[^>]*>'
    return re.sub(pattern, named, html)


def on_post_page(output: str, page, config) -> str:
    return name_theme_toggles(output)
