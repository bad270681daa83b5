"""The project's settings the kit reads from mkdocs.yml: the site's address (`site_url`),
which notices, the feed, the calendar and the sitemap need because a reader outside the
site cannot follow a relative link; and the GitHub repository (`repo_url`), where the
Clerk's desk sends a record to be committed.

Which mkdocs.yml: the one beside the rules folder's parent when there is one (a copy of
the project, as the tests make), else this repository's."""
from __future__ import annotations

import re
from pathlib import Path

from ..errors import BuildError  # what project_config raises; build.py catches it from here

ROOT = Path(__file__).resolve().parents[2]


def config_file(rules_dir: Path | str | None = None) -> Path:
    if rules_dir is not None:
        beside = Path(rules_dir).resolve().parent / "mkdocs.yml"
        if beside.exists():
            return beside
    return ROOT / "mkdocs.yml"


def project_config(rules_dir: Path | str | None = None) -> dict:
    """{"site_url": …, "repo_url": …, "site_keeper": …, "pictures": {…}, "file": …}; a setting not given is None
    ({} for the pictures). `extra: site_keeper:` names who keeps the site for the Town, to whom the Clerk's desk
    has her send each step's zip (issue 34, H2: "send it to the person who keeps the site", but who?). For
    the pictures: `extra: pictures:` in mkdocs.yml, each picture docs/assets/ may publish, by its path
    under docs/, with its sha256 and what it shows)."""
    import yaml
    from .validate import read_yaml
    path = config_file(rules_dir)
    try:
        data = read_yaml(path) or {}
    except yaml.YAMLError as exc:  # the fourteenth hostile tester: a quotation mark left open gave a traceback
        mark = getattr(exc, "problem_mark", None)
        at = f":{mark.line + 1}:{mark.column + 1}" if mark else ""
        problem = getattr(exc, 'problem', None) or str(exc)
        # a tag (`!ENV [VAR, …]`, `!!python/name:…`, which mkdocs itself takes): a value from this computer's
        # environment or from code, not from the repository (the twenty-ninth hostile tester: the advice was about quotes)
        advice = ("Tags such as !ENV or !!python are not taken here: the site is built only from what the repository "
                  "holds, not from this computer's settings. Write the value itself," if "constructor for the tag"
                  in problem else "Look for a quotation mark left open or a line indented with a tab near there, fix "
                  "it,")
        raise BuildError(f"{path.name}{at}: this file cannot be read ({problem}). {advice} and run the command again. "
                         "Nothing was built: the site as it was is kept.") from None
    if not isinstance(data, dict):
        raise BuildError(f"{path.name}: this file holds no settings (`site_name: …`, `site_url: …`). Put it back "
                         "as it was (git checkout mkdocs.yml), then run the command again.")
    extra = data.get("extra") if isinstance(data.get("extra"), dict) else {}
    pictures = extra.get("pictures") if isinstance(extra.get("pictures"), dict) else {}
    keeper = extra.get("site_keeper")
    if keeper is not None and not isinstance(keeper, str):
        raise BuildError(f"{path.name}: extra: site_keeper must be text, like \"the Town's IT office "
                         "(it@example.gov)\". Put it in quotes, then run the command again.")
    keeper = " ".join(keeper.split()) if isinstance(keeper, str) and keeper.strip() else None
    if keeper is not None and (len(keeper) > 120 or re.search(r'[<>"`&{}\\]', keeper)):
        # written as it is into the Clerk's desk (a page and an attribute): no markup, no quotes (as site_url)
        raise BuildError(f"{path.name}: extra: site_keeper {keeper!r} must be plain words of at most 120 "
                         "characters, without <, >, \", `, &, {, } or \\, like \"the Town's IT office "
                         "(it@example.gov)\". Fix it, then run the command again.")
    return {"site_url": (data.get("site_url") or None), "repo_url": (data.get("repo_url") or None),
            "site_keeper": keeper, "pictures": pictures, "file": path}


#: a site's address as pages, the feed and the calendar write it: http(s), a host, a path of plain URL
#: characters (the fifth hostile tester: '"><script>…' in --site-url went into every page and was run)
_WEB_ADDRESS = re.compile(r"https?://[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?(?::\d{1,5})?"
                          r"(?:/[A-Za-z0-9._~!$&*+,;=:@%/-]*)?", re.IGNORECASE)


def plain_web_address(url: str) -> bool:
    """An http(s) address with nothing in it that a page, a feed or a calendar would have to escape (no
    quotes, <, >, spaces, backslashes), and no query or fragment."""
    return bool(_WEB_ADDRESS.fullmatch(url))
