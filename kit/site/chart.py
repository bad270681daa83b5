"""The rate per 1,000 gallons over the years, drawn as an SVG for /rates/: a line a schedule while
it is in force (solid: adopted; dotted: an example, not adopted; dashed: only proposed), running
to the right edge while no later schedule replaces it, and a point where each starts, linking to its page.
Drawn here, at build time, so the page needs no script; presentation attributes only (no style
attribute: the pages' security policy forbids inline styles); colours are the text's own
(currentColor), so dark mode and print keep it readable. The page gives the same numbers as
text and as a table (WCAG 1.1.1): the picture adds nothing a reader needs."""
from __future__ import annotations

import datetime as dt
import math
from decimal import Decimal
from html import escape

W, H = 480, 220
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 40, 40
PAD = 16  # between the y axis and the first day, so a point on it is not drawn over the labels


def _nice_top(largest: Decimal) -> tuple[int, int]:
    """The axis' top and its step: a round number above the largest rate."""
    top = max(float(largest) * 1.25, 1.0)
    step = 10 ** math.floor(math.log10(top))
    for m in (1, 2, 5, 10):
        if top / (step * m) <= 5:
            step *= m
            break
    return int(math.ceil(top / step) * step), int(step)


def rate_chart(periods: list[dict], today: str, words: dict, point_name) -> str:
    """`periods`: calculator.opendata.schedule_periods; `words`: the page's words for the title
    ("title"), the y axis ("axis"); `point_name(period)`: a point's accessible name."""
    if not periods:
        return ""
    first = min(dt.date.fromisoformat(p["from"] or p["effective"]).year for p in periods)
    last = max([dt.date.fromisoformat(today).year + 1] +  # the year ahead too: the estimate offers its quarters
               [dt.date.fromisoformat(p["from"] or p["effective"]).year for p in periods])
    x0, x1 = dt.date(first, 1, 1), dt.date(last + 1, 1, 1)
    top, step = _nice_top(max(Decimal(p["vc_per_1000_gallons"]) for p in periods))

    def x(day: str | None) -> float:
        d = dt.date.fromisoformat(day) if day else x1
        d = min(max(d, x0), x1)
        return round(LEFT + PAD + (d - x0).days / (x1 - x0).days * (W - LEFT - PAD - RIGHT), 1)

    def y(rate) -> float:
        return round(H - BOTTOM - float(rate) / top * (H - TOP - BOTTOM), 1)

    out = [f'<svg class="rate-chart" viewBox="0 0 {W} {H}" width="100%" role="group" '
           f'aria-labelledby="rate-chart-title" xmlns="http://www.w3.org/2000/svg">',
           f'<title id="rate-chart-title">{escape(words["title"])}</title>',
           '<g aria-hidden="true" fill="currentColor" font-size="16">']
    for v in range(0, top + 1, step):  # the y axis: dollars per 1,000 gallons
        out.append(f'<line x1="{LEFT}" x2="{W - RIGHT}" y1="{y(v)}" y2="{y(v)}" stroke="currentColor" '
                   f'stroke-opacity="{0.7 if v == 0 else 0.35}"/>')
        out.append(f'<text fill="currentColor" x="{LEFT - 8}" y="{y(v) + 5}" text-anchor="end">${v}</text>')
    out.append(f'<line x1="{LEFT}" x2="{W - RIGHT}" y1="{H - BOTTOM}" y2="{H - BOTTOM}" stroke="currentColor"/>')
    for year in range(first, last + 2):  # the x axis: a tick where each year begins
        xx = x(f"{year}-01-01")
        out.append(f'<line x1="{xx}" x2="{xx}" y1="{H - BOTTOM}" y2="{H - BOTTOM + 5}" stroke="currentColor"/>')
        if year <= last:
            mid = (xx + x(f"{year + 1}-01-01")) / 2
            out.append(f'<text fill="currentColor" x="{round(mid, 1)}" y="{H - BOTTOM + 24}" text-anchor="middle">{year}</text>')
    out.append(f'<text fill="currentColor" x="0" y="16" text-anchor="start">{escape(words["axis"])}</text>')  # the y axis' unit, above it
    for p in periods:  # the steps: solid for an adopted rate, dotted for an example, dashed for a proposal
        start = p["from"] or p["effective"]
        dash = {"adopted": "", "illustrative": ' stroke-dasharray="2 5" stroke-linecap="round"',
                "proposed": ' stroke-dasharray="10 6"'}[p["status"]]
        out.append(f'<line x1="{x(start)}" x2="{x(p["to"])}" y1="{y(p["vc_per_1000_gallons"])}" '
                   f'y2="{y(p["vc_per_1000_gallons"])}" stroke="currentColor" stroke-width="3"{dash}/>')
    out.append("</g>")
    for p in periods:  # the points: each links to its schedule (hollow: not adopted)
        start = p["from"] or p["effective"]
        fill = "currentColor" if p["status"] == "adopted" else "Canvas"
        cx, cy = x(start), y(p["vc_per_1000_gallons"])
        # an invisible ring around the dot makes the target 24 px or more on a phone (WCAG 2.5.8)
        out.append(f'<a href="{escape(p["id"])}/" aria-label="{escape(point_name(p))}">'
                   f'<circle cx="{cx}" cy="{cy}" r="17" fill="currentColor" fill-opacity="0"/>'
                   f'<circle cx="{cx}" cy="{cy}" r="7" fill="{fill}" stroke="currentColor" stroke-width="3"/></a>')
    out.append("</svg>")
    return "".join(out)
