"""The Town Clerk's yearly rate-schedule workflow (rents.D, rate-schedules.A-D).

    propose      compute VC from the year's costs and write rules/rate-schedules/<Y>.yaml (proposed)
    notice       check the meeting date, record the notice, write the newspaper notice (text and PDF)
    adopt        check the notice and the vote, mark the schedule adopted
    user-notice  the yearly notice that goes out with a regular bill (text, HTML and PDF)

`python build.py rates ARGS…` calls `main(ARGS)`; `python -m kit.clerk ARGS…` does the same.
Every refusal is one line on stderr, exit code 2, and nothing written. Every command validates the
whole rules tree first, and validates the tree as it would be before anything is written.

CPython only: it needs PyYAML and jsonschema (kit.validate), Jinja2 (kit.notices) and WeasyPrint with pikepdf
(kit.pdf: tagged PDF/UA-1).
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import re
import shutil
import sys
import tempfile
from decimal import Decimal
from pathlib import Path

from calculator import adoption, bill, hearing, money, schedule, vc
from calculator.dates import first_quarter_from, parse_date, quarter_name, quarter_period
from calculator.errors import InputError
from calculator.files import write_atomic
from calculator.law import first_year
from calculator.rules import interpretation, parameter

from .notices import ClerkError, find_schedule, hearing_notice_text, user_notice, without
from .pdf import html_pdf_bytes, pdf_bytes
from .validate import RULES_DIR, RuleError, compile_rules, schedule_problems, YamlLoader

# Examples for the Clerk's table of effects, not numbers from the law: a typical household and a
# large one; the table starts with one at the minimum (rules/parameters/minimum-charge-water-gallons.yaml).
TYPICAL_QUARTERLY_WATER_GALLONS = ("15000", "30000")


def _compile(rules_dir: Path) -> dict:
    if not (rules_dir / "law.yaml").exists():
        raise ClerkError(f"There are no rules in {rules_dir} (no law.yaml). Give --rules-dir the folder that holds law.yaml.")
    try:
        return compile_rules(rules_dir)
    except RuleError as exc:
        raise ClerkError("The rules have problems; fix them first, nothing was written: " + " | ".join(exc.problems))


def _candidate(rules_dir: Path, changes: dict[str, str]) -> dict:
    """Compile the rules as they would be with these files (path under rules/ -> text) changed,
    in a temporary copy, so a change that breaks the build is refused before anything is written."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / rules_dir.name
        shutil.copytree(rules_dir, copy)
        for rel, text in changes.items():
            (copy / rel).write_text(text, encoding="utf-8")
        try:
            return compile_rules(copy)
        except RuleError as exc:
            problems = " | ".join(p.replace(str(copy), str(rules_dir)) for p in exc.problems)
            raise ClerkError(f"That change would break the rules, so nothing was written: {problems}")


# ---- the schedule file as text --------------------------------------------------------------------

def _q(value) -> str:
    """A YAML scalar: strings double-quoted (a JSON string is a valid YAML one), numbers bare."""
    return str(value) if isinstance(value, int) else json.dumps(str(value), ensure_ascii=False)


def _block(key: str, value) -> str:
    if isinstance(value, dict):
        return f"{key}:\n" + "".join(f"  {k}: {_q(v)}\n" for k, v in value.items())
    return f"{key}: {value if key == 'status' else _q(value)}\n"


def _set_top_level(text: str, key: str, value) -> str:
    """Replace (or append) one top-level key of a YAML file, keeping every other line and comment."""
    lines = text.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if re.match(rf"{re.escape(key)}\s*:", line)), None)
    if start is None:
        return text + ("" if not text or text.endswith("\n") else "\n") + _block(key, value)
    end = start + 1
    while end < len(lines) and (not lines[end].strip() or lines[end][0] in " \t"):
        end += 1
    while end > start + 1 and not lines[end - 1].strip():
        end -= 1
    return "".join(lines[:start]) + _block(key, value) + "".join(lines[end:])


def _edited(path: Path, changes: dict) -> str:
    """The schedule file's text with these top-level keys set; checked by reading it back."""
    import yaml
    text = path.read_text(encoding="utf-8")
    before = yaml.load(text, Loader=YamlLoader)
    for key, value in changes.items():
        text = _set_top_level(text, key, value)
    keys = [k.value for k, _ in yaml.compose(text, Loader=YamlLoader).value]
    if yaml.load(text, Loader=YamlLoader) != before | changes or len(keys) != len(set(keys)):
        raise ClerkError(f"{path}: could not update this file safely (is a key quoted or repeated?). "
                         f"Set {', '.join(changes)} by hand, or write it as the other schedule files are.")
    return text


# ---- parsing what the Clerk typed ---------------------------------------------------------------------

def _money_arg(value: str, what: str, example: str) -> Decimal:
    amount = bill.parse_amount(value, what, example)
    if amount != amount.quantize(Decimal("0.01")):
        raise ClerkError(f"{what} must be in dollars and cents, like {example}. You entered {value!r}.")
    return amount


def _fraction_arg(value: str) -> str:
    f = bill.parse_amount(value, "The sewage fraction (--sewage-fraction)", "0.85")
    if not 0 < f <= 1:
        raise ClerkError(f"The sewage fraction must be more than 0 and at most 1, like 0.85 for 85% of water use. "
                         f"You entered {value!r}.")
    return format(f, "f") if f < 1 else "1.0"


def _time_arg(value: str) -> str:
    m = re.fullmatch(r"\s*([01]?[0-9]|2[0-3]):([0-5][0-9])\s*", value)
    if not m:
        raise ClerkError(f"The meeting time {value!r} is not a time. Enter it on the 24-hour clock as HH:MM, like 19:00 for 7 p.m.")
    return f"{int(m.group(1)):02d}:{m.group(2)}"


def _count(what: str):
    def parse(value: str) -> int:
        if not re.fullmatch(r"\s*[0-9]+\s*", value):
            raise argparse.ArgumentTypeError(f"enter the number of {what} as a whole number, like 3 (you entered {value!r})")
        return int(value)
    return parse


# ---- the commands ---------------------------------------------------------------------------------

def propose(rules_dir: Path, args) -> list[str]:
    rules = _compile(rules_dir)
    if not re.fullmatch(r"[0-9]{4}", args.fiscal_year) or not first_year(rules) <= int(args.fiscal_year) <= 2200:
        raise ClerkError(f"The fiscal year {args.fiscal_year!r} is not a year. Enter it as four digits, like 2027.")
    year = int(args.fiscal_year)
    sid = str(year)
    effective = parse_date(args.effective, "The effective date (--effective)")
    if effective.year not in (year - 1, year):
        raise ClerkError(f"The effective date {effective} is not in fiscal year {year} or the year before. "
                         f"Check --effective (like {year}-01-01) and --fiscal-year.")
    proposed_on = parse_date(args.proposed_on, "The proposal date (--proposed-on)") if args.proposed_on else dt.date.today()
    om = _money_arg(args.om_cost, "The O&M cost (--om-cost)", "856791.00")
    extra = (_money_arg(args.extraneous_flow_cost, "The extraneous-flow cost (--extraneous-flow-cost)", "25000.00")
             if args.extraneous_flow_cost is not None else Decimal("0"))
    budget = (_money_arg(args.budgeted_om_cost, "The budgeted O&M cost (--budgeted-om-cost)", "900000.00")
              if args.budgeted_om_cost is not None else None)
    volume = bill.parse_amount(args.user_volume_gallons, "The users' billable volume (--user-volume-gallons)", "85000000")
    result = vc.compute(rules, om, volume, extra, budget)
    rate = Decimal(result["vc_per_1000_gallons"])
    if rate <= 0:
        raise ClerkError(f"VC comes to {money.dollars(rate)} per 1,000 gallons: the O&M cost must be more than 0. "
                         f"Check --om-cost and --user-volume-gallons.")

    rel = f"rate-schedules/{sid}.yaml"
    path = rules_dir / rel
    replaced = None
    if path.exists():
        replaced = next((s for s in rules["schedules"] if s["id"] == sid), None)
        if replaced and replaced["status"] != "proposed":
            raise ClerkError(f"rules/{rel} is already {replaced['status']}; an {replaced['status']} schedule is not "
                             f"re-proposed. Propose a new schedule for the next fiscal year instead.")
    if args.sewage_fraction is not None:
        fraction = _fraction_arg(args.sewage_fraction)
    else:
        try:
            fraction = schedule.in_force(without(rules, sid), effective)["sewage_fraction"]
        except InputError:
            raise ClerkError(f"No schedule is in force on {effective} to take the sewage fraction from; "
                             f"give it with --sewage-fraction, like 0.85.") from None
    would_be = [dict(s) for s in rules["schedules"] if s["id"] != sid and s["status"] != "proposed"]
    would_be.append({"id": sid, "status": "adopted", "effective": effective.isoformat(), "_file": f"rules/{rel}"})
    clash = schedule_problems(sorted(would_be, key=lambda s: s["effective"]), rules["parameters"], rules_dir,
                              rules["interpretations"])
    if clash:
        raise ClerkError(f"Once adopted, this schedule would not fit beside the others: {' | '.join(clash)}")

    text = (
        f"# Rate schedule for fiscal year {year}, written by the Clerk's `propose` command on {proposed_on}.\n"
        f"# VC = {'budgeted O&M cost of the year' if result['cost_basis'] == 'budgeted' else 'O&M cost of the past fiscal year'}"
        f"{' + cost of treating extraneous flow' if interpretation(rules, 'extraneous-flow') == 'added-to-om' else ''}"
        f" / users' volume x 1,000\n"
        f"# (rents.D, rents.E, rate-schedules.A), rounded as rules/interpretations/rounding.yaml says.\n"
        + _block("id", sid) + _block("title", f"Rate schedule for fiscal year {year}") + "status: proposed\n"
        + _block("fiscal_year", year) + _block("effective", effective.isoformat())
        + _block("vc_per_1000_gallons", result["vc_per_1000_gallons"]) + _block("sewage_fraction", fraction)
        + "cite: rents.D\n"
        + _block("basis", {"om_cost": money.text(om), "user_volume_gallons": format(volume.normalize(), "f"),
                           "extraneous_flow_cost": money.text(extra)}
                 | ({"budgeted_om_cost": money.text(budget)} if budget is not None else {}))
        + _block("proposed_on", proposed_on.isoformat())
    )
    candidate = _candidate(rules_dir, {rel: text})
    new = find_schedule(candidate, sid)
    table = effects_table(candidate, new)
    write_atomic(path, text.encode("utf-8"))

    report = [f"Wrote rules/{rel}: {new['title']}, PROPOSED, effective {effective}."]
    if replaced:
        report.append(f"It replaces the proposal of {replaced.get('proposed_on', 'an earlier date')}"
                      + ("; the notice recorded for that one is dropped: publish and record a new notice." if "notice" in replaced else "."))
    report += [step["text"] for step in result["explanation"] if step["cite"] in ("rents.D", "rents.E", "rate-schedules.A")]
    report.append(f"Sewage fraction: {money.percent(Decimal(fraction))} of metered water use"
                  + (" (as in the schedule in force on that date)." if args.sewage_fraction is None else "."))
    report += ["", *table]
    return report


def effects_table(rules: dict, proposed: dict) -> list[str]:
    """Typical quarterly bills under the schedule in force and under the proposed one."""
    others = without(rules, proposed["id"])
    year, q = first_quarter_from(dt.date.fromisoformat(proposed["effective"]))
    quarter = quarter_name(year, q)
    current = schedule.in_force(others, quarter_period(year, q)[0])
    rows = [("Water use (gallons)", f"Now ({current['id']})", f"Proposed ({proposed['id']})", "Change")]
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
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    lines = [f"Effect on typical quarterly bills, first billed in {quarter} "
             f"(minimum charge included; metered water, no sewage meter):"]
    for i, r in enumerate(rows):
        lines.append("  " + "  ".join(c.rjust(w) if i else c.ljust(w) for c, w in zip(r, widths)).rstrip())
    if current["status"] != "adopted":
        lines.append(f"'Now' is schedule {current['id']}: {schedule.LABELS[current['status']]}")
    return lines


def notice(rules_dir: Path, args) -> list[str]:
    rules = _compile(rules_dir)
    s = find_schedule(rules, args.schedule)
    if s["status"] != "proposed":
        raise ClerkError(f"Schedule {s['id']!r} is {s['status']}, not proposed; only a proposed schedule is published "
                         f"for comment. Run `propose` for a new one.")
    published = parse_date(args.published, "The publication date (--published)")
    meeting = parse_date(args.meeting, "The meeting date (--meeting)")
    if "proposed_on" in s and published.isoformat() < s["proposed_on"]:
        raise ClerkError(f"The notice is published {published}, before the schedule was proposed on {s['proposed_on']} "
                         f"(rate-schedules.B: publication follows development). Check --published.")
    late = adoption.timing_problem({"effective": s["effective"], "notice": {"published": published.isoformat()}},
                                   interpretation(rules, "late-adoption"))
    if late:
        raise ClerkError(late[0].upper() + late[1:])
    w = hearing.window(rules, published)
    if not w["earliest"] <= meeting.isoformat() <= w["latest"]:
        days = (meeting - published).days
        raise ClerkError(f"The meeting on {meeting} is {days} days after publication on {published}; it must be "
                         f"between {w['earliest']} and {w['latest']} (no fewer than {parameter(rules, 'hearing-minimum-days', on=published)} "
                         f"and no more than {parameter(rules, 'hearing-maximum-days', on=published)} days after, rate-schedules.B). "
                         f"Choose a --meeting date in that range.")
    place = " ".join(args.place.split())
    if len(place) < 3:
        raise ClerkError("Give the meeting place with --place, like \"Town Hall, 160 Charles Colman Boulevard, Pawling\".")
    record = {"published": published.isoformat()}
    if args.newspaper is not None:
        if not args.newspaper.strip():
            raise ClerkError("The newspaper name is empty; give its name with --newspaper, or leave the option out.")
        record["newspaper"] = " ".join(args.newspaper.split())
    record |= {"meeting": meeting.isoformat(), "time": _time_arg(args.time), "place": place, "body": args.body}

    path = rules_dir / "rate-schedules" / f"{s['id']}.yaml"
    text = _edited(path, {"notice": record})
    candidate = _candidate(rules_dir, {f"rate-schedules/{s['id']}.yaml": text})
    body = hearing_notice_text(candidate, s["id"])
    title = f"Notice of public meeting on the proposed sewer rate schedule {s['id']} – Town of Pawling"
    pdf = pdf_bytes(body, title)

    out = _output_dir(rules_dir, args.output_dir)
    txt_path, pdf_path = out / f"hearing-notice-{s['id']}.txt", out / f"hearing-notice-{s['id']}.pdf"
    write_atomic(txt_path, body.encode("utf-8"))
    write_atomic(pdf_path, pdf)
    write_atomic(path, text.encode("utf-8"))
    return [f"Recorded the notice in rules/rate-schedules/{s['id']}.yaml: published {published}, meeting {meeting} "
            f"at {record['time']} ({(meeting - published).days} days after publication; lawful window {w['earliest']} "
            f"to {w['latest']}).",
            f"Wrote {txt_path} and {pdf_path}."]


def adopt(rules_dir: Path, args) -> list[str]:
    rules = _compile(rules_dir)
    s = find_schedule(rules, args.schedule)
    if s["status"] != "proposed":
        raise ClerkError(f"Schedule {s['id']!r} is {s['status']}, not proposed; only a proposed schedule can be adopted.")
    if "notice" not in s:
        raise ClerkError(f"Schedule {s['id']!r} has no notice recorded; it can be adopted only after publication and "
                         f"the meeting for comments (rate-schedules.B, C). Run `notice {s['id']} …` first.")
    day = parse_date(args.date, "The adoption date (--date)")
    record = {"date": day.isoformat(), "ayes": args.ayes, "noes": args.noes}
    if args.absent is not None:
        record["absent"] = args.absent
    if args.resolution is not None:
        if not args.resolution.strip():
            raise ClerkError("The resolution is empty; give its number with --resolution, like 2026-114, or leave the option out.")
        record["resolution"] = " ".join(args.resolution.split())
    problem = (adoption.vote_problem(rules, record, s["notice"]["meeting"])
               or adoption.timing_problem(dict(s, adoption=record), interpretation(rules, "late-adoption")))
    if problem:
        raise ClerkError(problem[0].upper() + problem[1:])

    path = rules_dir / "rate-schedules" / f"{s['id']}.yaml"
    text = _edited(path, {"status": "adopted", "adoption": record})
    candidate = _candidate(rules_dir, {f"rate-schedules/{s['id']}.yaml": text})
    write_atomic(path, text.encode("utf-8"))
    size, needed = parameter(rules, "town-board-size", on=day), adoption.majority(rules, day)
    report = [f"Schedule {s['id']} is adopted: {args.ayes} ayes of {size} members "
              f"(needed {needed}), on {day}. Wrote rules/rate-schedules/{s['id']}.yaml.",
              f"It is in force from {schedule.starts(candidate, find_schedule(candidate, s['id']))}"
              + (f" until {s['ends']}." if "ends" in s else "; the newest schedule in force wins, so no older file changes.")]
    older = [o for o in candidate["schedules"] if o["status"] != "proposed" and o["effective"] < s["effective"]]
    if older and "ends" not in older[-1]:
        report.append(f"{older[-1]['id']} stays the schedule for dates before {s['effective']}.")
    if day.isoformat() > s["effective"]:
        report.append(f"Adopted after its effective date {s['effective']}: as rules/interpretations/late-adoption.yaml "
                      f"says, it applies from the first quarter that starts after adoption; bills due before then "
                      f"keep the old rate.")
    report.append(f"Next: `user-notice {s['id']}` for the notice that goes out with the next regular bill (rate-schedules.D).")
    return report


def user_notice_command(rules_dir: Path, args) -> list[str]:
    rules = _compile(rules_dir)
    s = find_schedule(rules, args.schedule)
    notice_ = user_notice(rules, s["id"])
    title = (("ILLUSTRATIVE – " if s["status"] == "illustrative" else "")
             + f"Annual notice of sewer rates, schedule {s['id']} – Town of Pawling")
    pdf = html_pdf_bytes(notice_["html"], title)  # from its HTML: the headings and the list as the page has them
    out = _output_dir(rules_dir, args.output_dir)
    paths = [out / f"user-notice-{s['id']}.{ext}" for ext in ("txt", "html", "pdf")]
    for p, data in zip(paths, (notice_["text"].encode("utf-8"), notice_["html"].encode("utf-8"), pdf)):
        write_atomic(p, data)
    lines = [f"Wrote {', '.join(map(str, paths))}."]
    if s["status"] == "illustrative":
        lines.append(f"ILLUSTRATIVE: {s['id']} is not a rate the Town has adopted; do not send this notice to users.")
    return lines


def _output_dir(rules_dir: Path, given: str | None) -> Path:
    out = Path(given) if given else rules_dir.resolve().parent / "notices-out"
    if out.exists() and not out.is_dir():
        raise ClerkError(f"{out} is a file, not a folder; give --output-dir a folder.")
    return out


# ---- the command line ---------------------------------------------------------------------------------

class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, no usage dump
        raise ClerkError(f"{message[0].upper()}{message[1:]}. Run `python build.py rates "
                         f"{self.prog.split()[-1] + ' ' if ' ' in self.prog else ''}--help` for the options.")


def parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--rules-dir", default=str(RULES_DIR), help="the rules/ folder (default: this repository's)")
    p = _Parser(prog="rates", description="The Town Clerk's yearly rate schedule: propose, notice, adopt, user-notice.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    pr = sub.add_parser("propose", parents=[common], help="compute VC and write a proposed schedule (rents.D)")
    pr.add_argument("--fiscal-year", required=True, help="the fiscal year, like 2027; the file is rate-schedules/<year>.yaml")
    pr.add_argument("--effective", required=True, help="first day the schedule applies, YYYY-MM-DD")
    pr.add_argument("--om-cost", required=True, help="operation and maintenance cost of the past fiscal year, dollars")
    pr.add_argument("--user-volume-gallons", required=True, help="users' billable sewage volume for that year, gallons")
    pr.add_argument("--extraneous-flow-cost", help="the part of --om-cost spent treating measured extraneous flow, "
                                                    "dollars: shown, not added, since O&M already includes it (rents.E)")
    pr.add_argument("--budgeted-om-cost", help="budgeted O&M cost of the coming year, dollars (rate-schedules.A); "
                                                "shown, and used for VC only under the vc-cost-basis reading 'budgeted'")
    pr.add_argument("--sewage-fraction", help="share of metered water billed as sewage, 0 to 1 "
                                              "(default: the schedule in force on the effective date)")
    pr.add_argument("--proposed-on", help="date to record as proposed_on, YYYY-MM-DD (default: today)")

    no = sub.add_parser("notice", parents=[common], help="record the notice and write the newspaper notice (rate-schedules.B)")
    no.add_argument("schedule", help="the proposed schedule's id, like 2027")
    no.add_argument("--published", required=True, help="publication date in the newspaper, YYYY-MM-DD")
    no.add_argument("--meeting", required=True, help="date of the meeting for public comments, YYYY-MM-DD")
    no.add_argument("--time", required=True, help="meeting time on the 24-hour clock, HH:MM")
    no.add_argument("--place", required=True, help="meeting place, as it should appear in the notice")
    no.add_argument("--newspaper", help="the newspaper (default wording: the official newspaper of the Town of Pawling)")
    no.add_argument("--body", choices=("town-board", "joint-sewer-commission"), default="town-board",
                    help="who hears the comments: the Town Board, or the Pawling Joint Sewer Commission if the "
                         "Town Board has so designated it (rate-schedules.B); default town-board")
    no.add_argument("--output-dir", help="where to write the notice (default: notices-out/ beside rules/)")

    ad = sub.add_parser("adopt", parents=[common], help="record the Town Board's vote (rate-schedules.C)")
    ad.add_argument("schedule", help="the proposed schedule's id, like 2027")
    ad.add_argument("--date", required=True, help="date of the vote, YYYY-MM-DD")
    ad.add_argument("--ayes", required=True, type=_count("ayes"))
    ad.add_argument("--noes", required=True, type=_count("noes"))
    ad.add_argument("--absent", type=_count("members absent"))
    ad.add_argument("--resolution", help="the resolution's number or name")

    un = sub.add_parser("user-notice", parents=[common], help="the yearly notice sent with a regular bill (rate-schedules.D)")
    un.add_argument("schedule", help="an adopted (or illustrative) schedule's id")
    un.add_argument("--output-dir", help="where to write the notice (default: notices-out/ beside rules/)")
    return p


COMMANDS = {"propose": propose, "notice": notice, "adopt": adopt, "user-notice": user_notice_command}


def main(argv: list[str] | None = None) -> int:
    """Run one command; 0 when done, 2 with a one-line message on stderr when refused (nothing written)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        args = parser().parse_args(argv)
        lines = COMMANDS[args.command](Path(args.rules_dir), args)
    except SystemExit as exc:  # --help
        return 0 if exc.code in (0, None) else 2
    except InputError as exc:
        print(f"error: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"error: could not write {exc.filename or ''}: {exc.strerror or exc}. Check the folder and try again.",
              file=sys.stderr)
        return 2
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
