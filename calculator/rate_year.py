"""The Town Clerk's rate-schedule year, as four steps on the compiled rules
(rents.D, rate-schedules.A-D):

    propose      VC from the year's costs, and the proposed schedule
    notice       the meeting date checked, the notice recorded, the newspaper notice
    adopt        the notice and the vote checked, the vote recorded
    user-notice  the yearly notice that goes out with a regular bill

Each step checks everything, then returns what it found (VC, the table of typical
bills now and proposed, the lawful meeting window, the vote needed) and the text of
every file it makes: the schedule's records under rules/rate-schedules/<id>/
(proposal.yaml, notice.yaml, vote.yaml: one file per step, so each step adds a file)
and the notices. It writes nothing: the Clerk's desk (/clerk/) offers the files as
downloads and GitHub links; `build.py rates …` (kit/clerk.py) re-validates them with
the kit and writes them. A refusal is an InputError saying what to change.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import re
from decimal import Decimal
from urllib.parse import quote

from . import adoption, bill, hearing, money, notices, schedule, vc
from .dates import first_quarter_from, parse_date, quarter_name, quarter_period, quarter_words
from .errors import InputError
from .law import first_year
from .notices import find_schedule, without
from .rules import interpretation, parameter

# Examples for the Clerk's table of effects, not numbers from the law: a typical household and a
# large one; the table starts with one at the minimum (rules/parameters/minimum-charge-water-gallons.yaml).
TYPICAL_QUARTERLY_WATER_GALLONS = ("15000", "30000")
SCHEDULES = "rules/rate-schedules"
RECORDS = {"propose": "proposal.yaml", "notice": "notice.yaml", "adopt": "vote.yaml"}
NOTICES = "notices-out"  # where the CLI writes notices by default, beside rules/
URL_LIMIT = 8000  # GitHub refuses longer addresses; a longer file goes by "Upload files"


# ---- the records as YAML text (the one writer of the Clerk's YAML) ------------------------------------

def _scalar(value) -> str:
    """Strings double-quoted (a JSON string is a valid YAML one), whole numbers bare."""
    return str(value) if isinstance(value, int) else json.dumps(str(value), ensure_ascii=False)


def yaml_text(comments: list[str], record: dict, bare: tuple[str, ...] = ()) -> str:
    """A record as the YAML the Clerk's steps write: comment lines, then one key a line,
    a nested mapping indented two spaces. `bare` keys are written unquoted (ids like rents.D)."""
    out = [f"# {line}\n" for line in comments]
    for key, value in record.items():
        if isinstance(value, dict):
            out.append(f"{key}:\n" + "".join(f"  {k}: {_scalar(v)}\n" for k, v in value.items()))
        else:
            out.append(f"{key}: {value if key in bare else _scalar(value)}\n")
    return "".join(out)


def assemble(proposal: dict, notice: dict | None = None, vote: dict | None = None,
             files: dict[str, str] | None = None) -> dict:
    """One schedule from its step records (rules/rate-schedules/<id>/): proposed until a
    vote is recorded, then adopted. `files` names each record's file, for messages."""
    s = dict(proposal, status="adopted" if vote is not None else "proposed")
    if notice is not None:
        s["notice"] = dict(notice)
    if vote is not None:
        s["adoption"] = dict(vote)
    if files:
        s["_file"], s["_files"] = files["proposal"], dict(files)
    return s


def _record_path(sid: str, step: str) -> str:
    return f"{SCHEDULES}/{sid}/{RECORDS[step]}"


# ---- the guard on schedules in force -----------------------------------------------------------------

def schedule_problems(schedules: list[dict], parameters: dict, interpretations: dict | None = None) -> list[str]:
    """Schedules in force (adopted or illustrative), sorted by effective date, must not overlap
    or leave gaps, and an adopted one must carry a lawful notice and vote; under the
    late-adoption reading "refuse", published and adopted no later than its effective date."""
    out = []
    late = (interpretations or {}).get("late-adoption", {}).get("chosen", "refuse")
    in_force = [s for s in schedules if s["status"] != "proposed"]
    for a, b in zip(in_force, in_force[1:]):
        if a["effective"] == b["effective"]:
            out.append(f"{b['_file']}: schedules {a['id']!r} and {b['id']!r} both take effect on {a['effective']}; "
                       f"change one effective date or mark one as proposed.")
        elif "ends" in a and a["ends"] >= b["effective"]:
            out.append(f"{a['_file']}: schedule {a['id']!r} ends {a['ends']}, after {b['id']!r} takes effect on "
                       f"{b['effective']}; the two overlap. Set 'ends' before {b['effective']}.")
        elif "ends" in a:
            gap_start = dt.date.fromisoformat(a["ends"]) + dt.timedelta(days=1)
            if gap_start.isoformat() < b["effective"]:
                out.append(f"{a['_file']}: no schedule is in force from {gap_start} to the day before {b['effective']}; "
                           f"remove 'ends' from {a['id']!r} or make the next schedule take effect on {gap_start}.")
    rules = {"parameters": parameters}
    for s in schedules:
        if s["status"] == "adopted" and "notice" in s and "adoption" in s:
            files = s.get("_files", {})
            n = s["notice"]
            window = hearing.window(rules, n["published"])
            if not (window["earliest"] <= n["meeting"] <= window["latest"]):
                out.append(f"{files.get('notice', s['_file'])}: the meeting on {n['meeting']} is outside the lawful "
                           f"window {window['earliest']} to {window['latest']} for a notice published {n['published']} "
                           f"(rate-schedules.B). This schedule cannot be adopted on that notice.")
            problem = adoption.vote_problem(rules, s["adoption"], n["meeting"])
            if problem:
                out.append(f"{files.get('vote', s['_file'])}: {problem}")
            problem = adoption.timing_problem(s, late)
            if problem:
                out.append(f"{files.get('vote', s['_file'])}: {problem}")
    return out


def _with(rules: dict, s: dict) -> dict:
    """The rules with this schedule added or replacing the one of its id, sorted as compiled."""
    others = [o for o in rules["schedules"] if o["id"] != s["id"]]
    return dict(rules, schedules=sorted([*others, s], key=lambda o: o["effective"]))


def _refuse_breaking(candidate: dict) -> None:
    problems = schedule_problems(candidate["schedules"], candidate["parameters"], candidate["interpretations"])
    if problems:
        raise InputError(f"That change would break the rules, so nothing was written: {' | '.join(problems)}")


# ---- what the Clerk typed -----------------------------------------------------------------------------

def _text(value) -> str:
    return "" if value is None else str(value)


def _money(value, what: str, example: str, field: str) -> Decimal:
    amount = bill.parse_amount(value, what, example, field)
    if amount != amount.quantize(Decimal("0.01")):
        raise InputError(f"{what} must be in dollars and cents, like {example}. You entered {value!r}.", field)
    return amount


def _given(value) -> bool:
    return value is not None and str(value).strip() != ""


def _fraction(value: str) -> str:
    f = bill.parse_amount(value, "The sewage fraction (--sewage-fraction)", "0.85", "sewage-fraction")
    if not 0 < f <= 1:
        raise InputError(f"The sewage fraction must be more than 0 and at most 1, like 0.85 for 85% of water use. "
                         f"You entered {value!r}.", "sewage-fraction")
    return format(f, "f") if f < 1 else "1.0"


def _time(value: str) -> str:
    m = re.fullmatch(r"\s*([01]?[0-9]|2[0-3]):([0-5][0-9])\s*", _text(value))
    if not m:
        raise InputError(f"The meeting time {_text(value)!r} is not a time. Enter it on the 24-hour clock as HH:MM, "
                         f"like 19:00 for 7 p.m.", "time")
    return f"{int(m.group(1)):02d}:{m.group(2)}"


def _count(value, what: str, field: str) -> int:
    if not re.fullmatch(r"\s*[0-9]+\s*", _text(value)):
        raise InputError(f"Enter the number of {what} as a whole number, like 3 (you entered {_text(value)!r}).", field)
    return int(value)


def _date(value, what: str, field: str) -> dt.date:
    try:
        return parse_date(_text(value), what)
    except InputError as exc:
        raise InputError(str(exc), field) from None


def _proposed(rules: dict, sid: str, step: str) -> dict:
    s = find_schedule(rules, sid)
    if s["status"] != "proposed":
        raise InputError(f"Schedule {s['id']!r} is {s['status']}, not proposed; " + (
            "only a proposed schedule is published for comment. Run `propose` for a new one." if step == "notice"
            else "only a proposed schedule can be adopted."), "schedule")
    if "_files" not in s:
        raise InputError(f"Schedule {s['id']!r} is kept in one file ({s['_file']}), not as one file per step in "
                         f"{SCHEDULES}/{s['id']}/. Propose it again to move it there, or record the {step} in that "
                         f"file by hand.", "schedule")
    return s


def _file(path: str, text: str, rules_file: bool, exists: bool = False) -> dict:
    return {"path": path, "name": path.rpartition("/")[2], "text": text, "rules": rules_file, "exists": exists}


# ---- the steps ----------------------------------------------------------------------------------------

def propose(rules: dict, args) -> dict:
    year_text = _text(args.fiscal_year).strip()
    if not re.fullmatch(r"[0-9]{4}", year_text) or not first_year(rules) <= int(year_text) <= 2200:
        raise InputError(f"The fiscal year {_text(args.fiscal_year)!r} is not a year. Enter it as four digits, "
                         f"like 2027.", "fiscal-year")
    year = int(year_text)
    sid = str(year)
    effective = _date(args.effective, "The effective date (--effective)", "effective")
    if effective.year not in (year - 1, year):
        raise InputError(f"The effective date {effective} is not in fiscal year {year} or the year before. "
                         f"Check --effective (like {year}-01-01) and --fiscal-year.", "effective")
    proposed_on = (_date(args.proposed_on, "The proposal date (--proposed-on)", "proposed-on")
                   if _given(args.proposed_on) else dt.date.today())
    if _given(args.om_cost) == _given(args.projected_om_cost):
        raise InputError("Give the O&M cost of the past fiscal year with --om-cost, like 856791.00; only when past "
                         "data is not available, give the projected O&M cost of the year with --projected-om-cost "
                         "instead (rents.D). Give one of them, not both.",
                         "projected-om-cost" if _given(args.om_cost) else "om-cost")
    om = _money(args.om_cost, "The O&M cost (--om-cost)", "856791.00", "om-cost") if _given(args.om_cost) else None
    projected = (_money(args.projected_om_cost, "The projected O&M cost (--projected-om-cost)", "856791.00",
                        "projected-om-cost") if _given(args.projected_om_cost) else None)
    extra = (_money(args.extraneous_flow_cost, "The extraneous-flow cost (--extraneous-flow-cost)", "25000.00",
                    "extraneous-flow-cost") if _given(args.extraneous_flow_cost) else Decimal("0"))
    budget = (_money(args.budgeted_om_cost, "The budgeted O&M cost (--budgeted-om-cost)", "900000.00",
                     "budgeted-om-cost") if _given(args.budgeted_om_cost) else None)
    volume = bill.parse_amount(args.user_volume_gallons, "The users' billable volume (--user-volume-gallons)",
                               "85000000", "user-volume-gallons")
    try:
        result = vc.compute(rules, om, volume, extra, budget, projected)
    except InputError as exc:
        raise InputError(str(exc), exc.field or "user-volume-gallons") from None
    rate = Decimal(result["vc_per_1000_gallons"])
    if rate <= 0:
        option = "--om-cost" if om is not None else "--projected-om-cost"
        raise InputError(f"VC comes to {money.dollars(rate)} per 1,000 gallons: the O&M cost must be more than 0. "
                         f"Check {option} and --user-volume-gallons.", option[2:])

    path = _record_path(sid, "propose")
    replaced = next((s for s in rules["schedules"] if s["id"] == sid), None)
    if replaced and replaced["status"] != "proposed":
        raise InputError(f"{replaced['_file']} is already {replaced['status']}; an {replaced['status']} schedule is not "
                         f"re-proposed. Propose a new schedule for the next fiscal year instead.", "fiscal-year")
    if _given(args.sewage_fraction):
        fraction = _fraction(args.sewage_fraction)
    else:
        try:
            fraction = schedule.in_force(without(rules, sid), effective)["sewage_fraction"]
        except InputError:
            raise InputError(f"No schedule is in force on {effective} to take the sewage fraction from; "
                             f"give it with --sewage-fraction, like 0.85.", "sewage-fraction") from None
    would_be = [dict(s) for s in rules["schedules"] if s["id"] != sid and s["status"] != "proposed"]
    would_be.append({"id": sid, "status": "adopted", "effective": effective.isoformat(), "_file": path})
    clash = schedule_problems(sorted(would_be, key=lambda s: s["effective"]), rules["parameters"],
                              rules["interpretations"])
    if clash:
        raise InputError(f"Once adopted, this schedule would not fit beside the others: {' | '.join(clash)}",
                         "effective")

    # rents.D: the past year's cost; or, only when past data is not available, the projected one, labelled so
    basis = ({"om_cost": money.text(om)} if om is not None else {"projected_om_cost": money.text(projected)}) | {
        "user_volume_gallons": format(volume.normalize(), "f"), "extraneous_flow_cost": money.text(extra)}
    if budget is not None:
        basis["budgeted_om_cost"] = money.text(budget)
    record = {"id": sid, "title": f"Rate schedule for fiscal year {year}", "fiscal_year": year,
              "effective": effective.isoformat(), "vc_per_1000_gallons": result["vc_per_1000_gallons"],
              "sewage_fraction": fraction, "cite": "rents.D", "basis": basis, "proposed_on": proposed_on.isoformat()}
    over = ("budgeted O&M cost of the year" if result["cost_basis"] == "budgeted" else
            "O&M cost of the past fiscal year" if om is not None else
            "PROJECTED O&M expenditures for the year (past data not available, rents.D)")
    plus = " + cost of treating extraneous flow" if interpretation(rules, "extraneous-flow") == "added-to-om" else ""
    text = yaml_text([f"Rate schedule for fiscal year {year}, proposed by the Clerk's `propose` step on {proposed_on}.",
                      f"VC = {over}{plus} / users' volume x 1,000",
                      "(rents.D, rents.E, rate-schedules.A), rounded as rules/interpretations/rounding.yaml says.",
                      "A schedule stays proposed until its vote is recorded (vote.yaml beside this file)."],
                     record, bare=("cite",))
    new = assemble(record, files={"proposal": path})
    candidate = _with(rules, new)
    table = effects_table(candidate, new)

    removes = []
    report = [f"{new['title']}, PROPOSED, effective {effective}: {path}."]
    if replaced:
        removes = [f for k, f in sorted(replaced.get("_files", {"schedule": replaced["_file"]}).items())
                   if f != path]
        report.append(f"It replaces the proposal of {replaced.get('proposed_on', 'an earlier date')}"
                      + ("; the notice recorded for that one is dropped: publish and record a new notice."
                         if "notice" in replaced else "."))
    report += [step["text"] for step in result["explanation"] if step["cite"] in ("rents.D", "rents.E", "rate-schedules.A")]
    report.append(f"Sewage fraction: {money.percent(Decimal(fraction))} of metered water use"
                  + (" (as in the schedule in force on that date)." if not _given(args.sewage_fraction) else "."))
    report += ["", *table["lines"]]
    return {"command": "rates", "step": "propose", "schedule": sid, "status": "proposed", "report": report,
            "vc": result, "sewage_fraction": fraction, "effects": table,
            "files": [_file(path, text, True, exists=bool(replaced and replaced.get("_file") == path))],
            "removes": removes}


def effects_table(rules: dict, proposed: dict) -> dict:
    """Typical quarterly bills under the schedule in force and under the proposed one:
    rows for a page, lines for a terminal."""
    others = without(rules, proposed["id"])
    year, q = first_quarter_from(dt.date.fromisoformat(proposed["effective"]))
    quarter = quarter_name(year, q)
    current = schedule.in_force(others, quarter_period(year, q)[0])
    head = ("Water use (gallons)", f"Now ({current['id']})", f"Proposed ({proposed['id']})", "Change")
    rows = []
    at_minimum = str(parameter(rules, "minimum-charge-water-gallons", on=quarter_period(year, q)[0]))
    for gallons in (at_minimum, *TYPICAL_QUARTERLY_WATER_GALLONS):
        now = Decimal(bill.compute(others, quarter, {"water-gallons": gallons})["charge"])
        new = Decimal(bill.compute(others, quarter, {"water-gallons": gallons},
                                   vc_per_1000=proposed["vc_per_1000_gallons"],
                                   sewage_fraction=proposed["sewage_fraction"])["charge"])
        diff = new - now
        pct = f" ({diff / now * 100:+.1f}%)" if now else ""
        rows.append((money.gallons(Decimal(gallons)), money.dollars(now), money.dollars(new),
                     ("+" if diff >= 0 else "-") + money.dollars(abs(diff)) + pct))
    title = (f"Effect on typical quarterly bills, first billed for {quarter_words(year, q)} "
             f"(minimum charge included; metered water, no sewage meter):")
    note = (f"'Now' is schedule {current['id']}: {schedule.LABELS[current['status']]}"
            if current["status"] != "adopted" else None)
    widths = [max(len(r[i]) for r in (head, *rows)) for i in range(4)]
    lines = [title] + ["  " + "  ".join(c.rjust(w) if i else c.ljust(w) for c, w in zip(r, widths)).rstrip()
                       for i, r in enumerate((head, *rows))]
    if note:
        lines.append(note)
    return {"quarter": quarter, "title": title, "head": list(head), "rows": [list(r) for r in rows],
            "note": note, "lines": lines}


def notice(rules: dict, args, site_url: str | None) -> dict:
    s = _proposed(rules, _text(args.schedule), "notice")
    published = _date(args.published, "The publication date (--published)", "published")
    meeting = _date(args.meeting, "The meeting date (--meeting)", "meeting")
    if "proposed_on" in s and published.isoformat() < s["proposed_on"]:
        raise InputError(f"The notice is published {published}, before the schedule was proposed on {s['proposed_on']} "
                         f"(rate-schedules.B: publication follows development). Check --published.", "published")
    late = adoption.timing_problem({"effective": s["effective"], "notice": {"published": published.isoformat()}},
                                   interpretation(rules, "late-adoption"))
    if late:
        raise InputError(late[0].upper() + late[1:], "published")
    w = hearing.window(rules, published)
    low = parameter(rules, "hearing-minimum-days", on=published)
    high = parameter(rules, "hearing-maximum-days", on=published)
    days = (meeting - published).days
    if not w["earliest"] <= meeting.isoformat() <= w["latest"]:
        raise InputError(f"The meeting on {meeting} is {days} days after publication on {published}; it must be "
                         f"between {w['earliest']} and {w['latest']} (no fewer than {low} and no more than {high} days "
                         f"after, rate-schedules.B). Choose a --meeting date in that range.", "meeting")
    time = _time(args.time)
    place = " ".join(_text(args.place).split())
    if len(place) < 3:
        raise InputError("Give the meeting place with --place, like \"Town Hall, 160 Charles Colman Boulevard, "
                         "Pawling\".", "place")
    record = {"published": published.isoformat()}
    if args.newspaper is not None:
        if not args.newspaper.strip():
            raise InputError("The newspaper name is empty; give its name with --newspaper, or leave the option out.",
                             "newspaper")
        record["newspaper"] = " ".join(args.newspaper.split())
    body = args.body or "town-board"
    if body not in BODIES:
        raise InputError(f"The body {body!r} is not one of: {', '.join(BODIES)}.", "body")
    record |= {"meeting": meeting.isoformat(), "time": time, "place": place, "body": body}
    notices.site_address(site_url)  # refused before anything else is made, with where to set it

    path = _record_path(s["id"], "notice")
    text = yaml_text([f"The notice of the public-comment meeting on rate schedule {s['id']} (rate-schedules.B),",
                      "recorded by the Clerk's `notice` step."], record)
    candidate = _with(rules, assemble({k: v for k, v in s.items() if k not in ("status", "notice", "adoption",
                                                                                "_file", "_files")},
                                      record, files=dict(s["_files"], notice=path)))
    body_text = notices.hearing_notice_text(candidate, s["id"], site_url)
    name = f"hearing-notice-{s['id']}"
    report = [f"Notice recorded for schedule {s['id']}: published {published}, meeting {meeting} at {time} "
              f"({days} days after publication; lawful window {w['earliest']} to {w['latest']}): {path}.",
              f"The newspaper notice: {NOTICES}/{name}.txt."]
    return {"command": "rates", "step": "notice", "schedule": s["id"], "status": "proposed", "report": report,
            "window": {**w, "published": published.isoformat(), "meeting": meeting.isoformat(), "days": days,
                       "minimum_days": low, "maximum_days": high},
            "files": [_file(path, text, True, exists="notice" in s),
                      _file(f"{NOTICES}/{name}.txt", body_text, False)],
            "removes": [], "pdf": {"name": f"{name}.pdf", "title": notices.hearing_notice_title(s["id"]),
                                   "from": f"{NOTICES}/{name}.txt"}}


BODIES = ("town-board", "joint-sewer-commission")


def adopt(rules: dict, args) -> dict:
    s = _proposed(rules, _text(args.schedule), "adoption")
    if "notice" not in s:
        raise InputError(f"Schedule {s['id']!r} has no notice recorded; it can be adopted only after publication and "
                         f"the meeting for comments (rate-schedules.B, C). Run `notice {s['id']} …` first.", "schedule")
    day = _date(args.date, "The adoption date (--date)", "date")
    record = {"date": day.isoformat(), "ayes": _count(args.ayes, "ayes", "ayes"),
              "noes": _count(args.noes, "noes", "noes")}
    if _given(args.absent):
        record["absent"] = _count(args.absent, "members absent", "absent")
    if args.resolution is not None:
        if not args.resolution.strip():
            raise InputError("The resolution is empty; give its number with --resolution, like 2026-114, or leave "
                             "the option out.", "resolution")
        record["resolution"] = " ".join(args.resolution.split())
    problem = adoption.vote_problem(rules, record, s["notice"]["meeting"])
    if problem:
        raise InputError(problem[0].upper() + problem[1:], "date" if "adoption date" in problem else "ayes")
    problem = adoption.timing_problem(dict(s, adoption=record), interpretation(rules, "late-adoption"))
    if problem:
        raise InputError(problem[0].upper() + problem[1:], "date")

    path = _record_path(s["id"], "adopt")
    text = yaml_text([f"The Town Board's vote adopting rate schedule {s['id']} (rate-schedules.C; NY Town Law § 63),",
                      "recorded by the Clerk's `adopt` step."], record)
    new = assemble({k: v for k, v in s.items() if k not in ("status", "notice", "adoption", "_file", "_files")},
                   s["notice"], record, files=dict(s["_files"], vote=path))
    candidate = _with(rules, new)
    _refuse_breaking(candidate)
    size, needed = parameter(rules, "town-board-size", on=day), adoption.majority(rules, day)
    report = [f"Schedule {s['id']} is adopted: {record['ayes']} ayes of {size} members (needed {needed}), on {day}: "
              f"{path}.",
              f"It is in force from {schedule.starts(candidate, new)}"
              + (f" until {s['ends']}." if "ends" in s else "; the newest schedule in force wins, so no older file changes.")]
    older = [o for o in candidate["schedules"] if o["status"] != "proposed" and o["effective"] < s["effective"]]
    if older and "ends" not in older[-1]:
        report.append(f"{older[-1]['id']} stays the schedule for dates before {s['effective']}.")
    if day.isoformat() > s["effective"]:
        report.append(f"Adopted after its effective date {s['effective']}: as rules/interpretations/late-adoption.yaml "
                      f"says, it applies from the first quarter that starts after adoption; bills due before then "
                      f"keep the old rate.")
    report.append(f"Next: `user-notice {s['id']}` for the notice that goes out with the next regular bill "
                  f"(rate-schedules.D).")
    return {"command": "rates", "step": "adopt", "schedule": s["id"], "status": "adopted", "report": report,
            "vote": {"board_size": size, "needed": needed, **record},
            "files": [_file(path, text, True, exists="adoption" in s)], "removes": []}


def user_notice(rules: dict, args, site_url: str | None) -> dict:
    s = find_schedule(rules, _text(args.schedule))
    made = notices.user_notice(rules, s["id"], site_url)
    name = f"user-notice-{s['id']}"
    report = [f"The yearly notice to users for schedule {s['id']}: {NOTICES}/{name}.txt and .html."]
    if s["status"] == "illustrative":
        report.append(f"ILLUSTRATIVE: {s['id']} is not a rate the Town has adopted; do not send this notice to users.")
    return {"command": "rates", "step": "user-notice", "schedule": s["id"], "status": s["status"], "report": report,
            "html": made["html"],
            "files": [_file(f"{NOTICES}/{name}.txt", made["text"], False),
                      _file(f"{NOTICES}/{name}.html", made["html"], False)],
            "removes": [], "pdf": {"name": f"{name}.pdf", "title": notices.user_notice_title(s),
                                   "from": f"{NOTICES}/{name}.html"}}


# ---- publishing without git: GitHub's pages, prefilled --------------------------------------------------

def github_links(repo_url: str | None, file: dict, branch: str = "main") -> dict | None:
    """Where the Clerk commits a record on GitHub: its new-file page prefilled with the path and
    the content (a new file); its edit page (a file that exists); or, for a file too long for an
    address, the "Upload files" page of its folder. None without a GitHub repo_url."""
    m = re.fullmatch(r"https://github\.com/([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]+?)(?:\.git)?/?", (repo_url or "").strip())
    if not m or not file["rules"]:
        return None
    base = f"https://github.com/{m.group(1)}/{m.group(2)}"
    folder, _, name = file["path"].rpartition("/")
    if file["exists"]:
        return {"kind": "edit", "url": f"{base}/edit/{branch}/{quote(file['path'])}"}
    url = f"{base}/new/{branch}/{quote(folder)}?filename={quote(name, safe='')}&value={quote(file['text'], safe='')}"
    if len(url) <= URL_LIMIT:
        return {"kind": "new", "url": url}
    return {"kind": "upload", "url": f"{base}/upload/{branch}/{quote(folder)}"}


# ---- the command words (the engine's `rates` command; kit/clerk.py adds --rules-dir) ----------------------

def add_steps(sub, parents=()) -> dict:
    """The four steps' options, the same for `python -m calculator rates …`, `build.py rates …`
    and the Clerk's desk (its query string uses these names). Values are checked by the steps
    themselves, so a page and a terminal get the same message."""
    parents = list(parents)
    pr = sub.add_parser("propose", parents=parents, help="compute VC and make a proposed schedule (rents.D)")
    pr.add_argument("--fiscal-year", required=True, help="the fiscal year, like 2027; the records go in "
                                                          "rate-schedules/<year>/")
    pr.add_argument("--effective", required=True, help="first day the schedule applies, YYYY-MM-DD")
    pr.add_argument("--om-cost", help="operation and maintenance cost of the past fiscal year, dollars")
    pr.add_argument("--projected-om-cost", help="only when past data is not available: the projected operation and "
                                                "maintenance expenditures for the year, dollars (rents.D); instead "
                                                "of --om-cost")
    pr.add_argument("--user-volume-gallons", required=True, help="users' billable sewage volume for that year, gallons")
    pr.add_argument("--extraneous-flow-cost", help="the part of --om-cost spent treating measured extraneous flow, "
                                                    "dollars: shown, not added, since O&M already includes it (rents.E)")
    pr.add_argument("--budgeted-om-cost", help="budgeted O&M cost of the coming year, dollars (rate-schedules.A); "
                                                "shown, and used for VC only under the vc-cost-basis reading 'budgeted'")
    pr.add_argument("--sewage-fraction", help="share of metered water billed as sewage, 0 to 1 "
                                              "(default: the schedule in force on the effective date)")
    pr.add_argument("--proposed-on", help="date to record as proposed_on, YYYY-MM-DD (default: today)")

    no = sub.add_parser("notice", parents=parents, help="record the notice and make the newspaper notice "
                                                        "(rate-schedules.B)")
    no.add_argument("schedule", help="the proposed schedule's id, like 2027")
    no.add_argument("--published", required=True, help="publication date in the newspaper, YYYY-MM-DD")
    no.add_argument("--meeting", required=True, help="date of the meeting for public comments, YYYY-MM-DD")
    no.add_argument("--time", required=True, help="meeting time on the 24-hour clock, HH:MM")
    no.add_argument("--place", required=True, help="meeting place, as it should appear in the notice")
    no.add_argument("--newspaper", help="the newspaper (default wording: the official newspaper of the Town of Pawling)")
    no.add_argument("--body", choices=BODIES, default="town-board",
                    help="who hears the comments: the Town Board, or the Pawling Joint Sewer Commission if the "
                         "Town Board has so designated it (rate-schedules.B); default town-board")

    ad = sub.add_parser("adopt", parents=parents, help="record the Town Board's vote (rate-schedules.C)")
    ad.add_argument("schedule", help="the proposed schedule's id, like 2027")
    ad.add_argument("--date", required=True, help="date of the vote, YYYY-MM-DD")
    ad.add_argument("--ayes", required=True, help="members voting for")
    ad.add_argument("--noes", required=True, help="members voting against")
    ad.add_argument("--absent", help="members absent or not voting")
    ad.add_argument("--resolution", help="the resolution's number or name")

    un = sub.add_parser("user-notice", parents=parents, help="the yearly notice sent with a regular bill "
                                                             "(rate-schedules.D)")
    un.add_argument("schedule", help="an adopted (or illustrative) schedule's id")
    return {"propose": pr, "notice": no, "adopt": ad, "user-notice": un}


def run(rules: dict, args, site_url: str | None = None, repo_url: str | None = None) -> dict:
    """One step on these rules; its result, each rules file with its GitHub link (when repo_url names
    a GitHub repository)."""
    step = args.step
    if step == "propose":
        out = propose(rules, args)
    elif step == "notice":
        out = notice(rules, args, site_url)
    elif step == "adopt":
        out = adopt(rules, args)
    else:
        out = user_notice(rules, args, site_url)
    for f in out["files"]:
        f["github"] = github_links(repo_url, f)
    return out


def step_parser(parser_class=argparse.ArgumentParser):
    """Only for reading a step's words outside a command line (tests): `rates STEP …`."""
    p = parser_class(prog="rates")
    add_steps(p.add_subparsers(dest="step", required=True, parser_class=parser_class))
    return p
