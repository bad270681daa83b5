"""The project's settings the kit reads from mkdocs.yml: the site's address (`site_url`),
which notices, the feed, the calendar and the sitemap need because a reader outside the
site cannot follow a relative link; and the GitHub repository (`repo_url`), where the
Clerk's desk sends a record to be committed.

Which mkdocs.yml: the one beside the rules folder's parent when there is one (a copy of
the project, as the tests make), else this repository's."""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def config_file(rules_dir: Path | str | None = None) -> Path:
    if rules_dir is not None:
        beside = Path(rules_dir).resolve().parent / "mkdocs.yml"
        if beside.exists():
            return beside
    return ROOT / "mkdocs.yml"


def project_config(rules_dir: Path | str | None = None) -> dict:
    """{"site_url": …, "repo_url": …, "file": …}; a setting not given is None."""
    from .validate import read_yaml
    path = config_file(rules_dir)
    data = read_yaml(path) or {}
    return {"site_url": (data.get("site_url") or None), "repo_url": (data.get("repo_url") or None),
            "file": path}
