"""The notices of the rate-schedule year, for the kit: the words come from the engine
(calculator/rates/notices.py), so the Clerk's desk in the browser, the Clerk's commands and the
site's notice pages print one text. Here: the Clerk's refusal type, and the site's address
read from the project's configuration (kit/rules/config.py) when none is given."""
from __future__ import annotations

from calculator.rates import notices as words
from calculator.core.errors import InputError
from calculator.rates.notices import find_schedule, without  # noqa: F401 - the kit's names for them

from ..rules.config import project_config


class ClerkError(InputError):
    """A refusal: one line saying what is wrong and what to change."""


def hearing_notice_text(rules: dict, schedule_id: str, site_url: str | None = None) -> str:
    """The newspaper notice of the meeting on a proposed schedule (rate-schedules.B), as plain text."""
    return words.hearing_notice_text(rules, schedule_id, site_url or project_config()["site_url"])


def user_notice(rules: dict, schedule_id: str, site_url: str | None = None) -> dict:
    """The yearly notice to every user (rate-schedules.D), as {"text": …, "html": …} (HTML is a fragment)."""
    return words.user_notice(rules, schedule_id, site_url or project_config()["site_url"])
