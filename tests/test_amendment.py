"""One source of truth: a consistent amendment made in rules/ alone (bills due on the 20th
instead of the 15th, a 10% late penalty instead of 15%) reaches the engine, every page of
the built site, the calendar and the notices; and rules/ whose text and numbers disagree
are refused (file:line:column)."""
import html.parser
import re
import shutil
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest

from calculator.cli import run
from kit.clerk import command as clerk, notices
from kit.site import build as site
from kit.rules.validate import RULES_DIR, RuleError, compile_rules

# What the amendment changes: each (file, old words, new words) must occur in the file.
AMENDMENT = [
    ("law.yaml", "due on the fifteenth day of January, April, July and October",
     "due on the twentieth day of January, April, July and October"),
    ("law.yaml", "a penalty of 15% per quarter", "a penalty of 10% per quarter"),
    ("parameters/bill-due-dates.yaml", '["01-15", "04-15", "07-15", "10-15"]', '["01-20", "04-20", "07-20", "10-20"]'),
    ("parameters/bill-due-dates.yaml", "due on the fifteenth day", "due on the twentieth day"),
    ("parameters/late-penalty-rate.yaml", 'value: "0.15"', 'value: "0.10"'),
    ("parameters/late-penalty-rate.yaml", "penalty of 15%", "penalty of 10%"),
    ("parameters/late-penalty-grace-days.yaml", "penalty of 15%", "penalty of 10%"),
    ("parameters/late-penalty-period-months.yaml", "penalty of 15%", "penalty of 10%"),
    ("interpretations/penalty-accrual.yaml", "penalty of 15%", "penalty of 10%"),
    ("interpretations/period-end-business-day.yaml", "penalty of 15%", "penalty of 10%"),
    ("interpretations/payment-order.yaml", "penalty of 15%", "penalty of 10%"),
]
OLD_DUE = re.compile(r"\b(January|April|July|October) 15\b|\b15 (January|April|July|October)\b|\b15th\b"
                     r"|fifteenth day of January")
OLD_RATE = re.compile(r"(?<![\d.])15 ?%")
# A past Clerk's year in the amended copy, so the site and the notices carry an adopted schedule
# (published on the 16th, so that no "October 15" in a notice is a date of the Clerk's).
YEAR = [["propose", "--retroactive", "--fiscal-year", "2026", "--effective", "2026-01-01", "--om-cost", "856791",
         "--user-volume-gallons", "85,000,000", "--proposed-on", "2025-10-01", "--sewage-fraction", "0.80"],
        ["notice", "2026", "--published", "2025-10-16", "--meeting", "2025-10-31", "--time", "19:30",
         "--place", "Pawling Town Hall"],
        ["adopt", "2026", "--date", "2025-11-10", "--ayes", "4", "--noes", "1"]]


def amend(rules_dir: Path, changes=AMENDMENT) -> None:
    for name, old, new in changes:
        path = rules_dir / name
        text = path.read_text(encoding="utf-8")
        assert old in text, (name, old)
        path.write_text(text.replace(old, new), encoding="utf-8")


class _Text(html.parser.HTMLParser):
    """The text a reader sees: no scripts, styles or templates."""
    HIDDEN = {"script", "style", "template"}

    def __init__(self):
        super().__init__()
        self.parts, self.hidden = [], 0

    def handle_starttag(self, tag, attrs):
        self.hidden += tag in self.HIDDEN

    def handle_endtag(self, tag):
        self.hidden -= tag in self.HIDDEN and self.hidden > 0

    def handle_data(self, data):
        if not self.hidden:
            self.parts.append(data)


def visible_text(path: Path) -> str:
    parser = _Text()
    parser.feed(path.read_text(encoding="utf-8"))
    return " ".join(" ".join(parser.parts).split())


SITE = "https://sewer.pawling.example/"


@pytest.fixture(scope="module")
def amended(tmp_path_factory):
    """rules/ amended consistently, a Clerk's year run on it, and the site built from it."""
    root = tmp_path_factory.mktemp("amended")
    rules_dir = root / "rules"
    shutil.copytree(RULES_DIR, rules_dir)
    (root / "mkdocs.yml").write_text(f"site_name: amended\nsite_url: {SITE}\n")  # notices name the site's address
    amend(rules_dir)
    for argv in YEAR:
        extra = ["--output-dir", str(root / "out")] if argv[0] == "notice" else []
        assert clerk.main([*argv, *extra, "--rules-dir", str(rules_dir)]) == 0, argv
    mp = pytest.MonkeyPatch()
    mp.setenv("SOURCE_DATE_EPOCH", "1798761600")  # the site is built on 2027-01-01
    try:
        built = site.build(root / "site", rules_dir=rules_dir)
    finally:
        mp.undo()
    pages = {p.relative_to(built).as_posix(): visible_text(p) for p in sorted(built.rglob("*.html"))}
    return {"rules": compile_rules(rules_dir), "site": built, "pages": pages}


def test_the_engine_bills_by_the_amended_law(amended):
    argv = ["bill", "--quarter", "2027-Q1", "--water-gallons", "12000", "--paid-on", "2027-03-20"]
    before, after = run(argv, rules=compile_rules(RULES_DIR)), run(argv, rules=amended["rules"])
    assert before["due_date"] == "2027-01-15" and after["due_date"] == "2027-01-20"
    assert after["penalty_periods"] == 1
    cent = Decimal("0.01")
    assert Decimal(after["penalty"]) == (Decimal(after["charge"]) * Decimal("0.10")).quantize(cent, ROUND_HALF_UP)
    assert Decimal(before["penalty"]) == (Decimal(before["charge"]) * Decimal("0.15")).quantize(cent, ROUND_HALF_UP)
    words = " ".join(s["text"] for s in after["explanation"])
    assert "January 20, 2027" in words and "a 10% penalty" in words
    assert not OLD_RATE.search(words) and not OLD_DUE.search(words)


def test_every_page_states_the_new_due_day_and_rate_and_none_of_the_old(amended):
    pages = amended["pages"]
    assert len(pages) > 10
    for name, text in pages.items():
        assert not OLD_RATE.search(text), (name, OLD_RATE.search(text).group(0))
        assert not OLD_DUE.search(text), (name, OLD_DUE.search(text).group(0))
    assert "Bills are due on January 20, April 20, July 20 and October 20" in pages["rates/index.html"]
    estimate = pages["estimate/index.html"]
    assert "due on its due date: January 20, April 20, July 20 and October 20" in estimate
    assert "due on January 20, 2027" in estimate                        # the worked example, from the engine
    assert "You pay a penalty of 10% once your bill is more than 30 days past its due date" in estimate
    assert "twentieth day of January" in pages["law/index.html"] and "penalty of 10% per quarter" in pages["law/index.html"]
    reading = pages["how-we-read-the-law/index.html"]
    assert "After the first 10% late penalty" in reading and "January 20, April 20, July 20 and October 20" in reading
    notice = pages["notices/2026-rates/index.html"]
    assert "January 20, April 20, July 20 and October 20" in notice and "penalty of 10%" in notice


def kit_due_dates_years() -> int:
    from kit.documents.due_dates import CALENDAR_YEARS
    return CALENDAR_YEARS


def test_the_calendar_has_the_new_due_days(amended):
    from icalendar import Calendar
    cal = Calendar.from_ical((amended["site"] / "industry" / "sewer-due-dates.ics").read_bytes())
    bills = [e for e in cal.walk("VEVENT") if "Sewer bill" in e.get("categories").to_ical().decode()]
    assert len(bills) == 4 * kit_due_dates_years()  # four bills a year, five years (public12, L2)
    assert {(e.decoded("dtstart").month, e.decoded("dtstart").day) for e in bills} == {(1, 20), (4, 20), (7, 20), (10, 20)}
    assert all("twentieth day" in str(e.get("description")) for e in bills)
    assert "fifteenth day of January" not in (amended["site"] / "industry" / "sewer-due-dates.ics").read_text()


def test_the_notices_state_the_new_due_days_and_rate(amended):
    rules = amended["rules"]
    users = notices.user_notice(rules, "2026", SITE)
    for doc in (users["text"], users["html"]):
        assert "January 20, April 20, July 20 and October 20" in doc and "penalty of 10%" in doc
        assert not OLD_RATE.search(doc) and not OLD_DUE.search(doc)
    hearing = notices.hearing_notice_text(rules, "2026", SITE)
    assert not OLD_RATE.search(hearing) and not OLD_DUE.search(hearing)
    assert "as amended by Local Law No. 1 of 1992" in hearing and "1989" not in hearing
    from calculator.core.i18n import speaking
    from kit.words.messages import WHEEL_DOMAINS, translations
    with speaking("es", translations("es", (*WHEEL_DOMAINS, "pages"), RULES_DIR, rules["parameters"])):
        spanish = notices.hearing_notice_text(rules, "2026", SITE)
    assert "modificada por la Ley Local n.º 1 de 1992" in spanish and "Local Law" not in spanish  # issue 22


def test_a_parameter_whose_quote_is_no_longer_in_its_provision_is_refused(tmp_path):
    shutil.copytree(RULES_DIR, tmp_path / "rules")
    amend(tmp_path / "rules", [AMENDMENT[1]])          # the law's text alone says 10%
    with pytest.raises(RuleError) as err:
        compile_rules(tmp_path / "rules")
    where = {p.split(": ")[0].split("rules/")[-1] for p in err.value.problems}
    assert where == {"parameters/late-penalty-rate.yaml:5:8", "parameters/late-penalty-grace-days.yaml:5:8",
                     "parameters/late-penalty-period-months.yaml:5:8", "interpretations/penalty-accrual.yaml:4:7",
                     "interpretations/period-end-business-day.yaml:4:7", "interpretations/payment-order.yaml:6:7"}
    assert all("rents.F" in p for p in err.value.problems)


def test_an_unknown_placeholder_is_refused_where_it_stands(tmp_path):
    shutil.copytree(RULES_DIR, tmp_path / "rules")
    amend(tmp_path / "rules", [("interpretations/penalty-accrual.yaml", "{late-penalty-period-months} it stays",
                                "{late-penalty-period} it stays")])
    with pytest.raises(RuleError) as err:
        compile_rules(tmp_path / "rules")
    [p] = err.value.problems
    # where the placeholder stands in the amended file: its line and column, counted from 1
    lines = (tmp_path / "rules" / "interpretations" / "penalty-accrual.yaml").read_text().splitlines()
    line, col = next((n, text.index("{late-penalty-period}") + 1) for n, text in enumerate(lines, 1)
                     if "{late-penalty-period}" in text)
    assert f"interpretations/penalty-accrual.yaml:{line}:{col}: {{late-penalty-period}} is not a parameter" in p
    assert "{late-penalty-period-months}" in p


def test_placeholders_are_filled_from_the_parameters():
    rules = compile_rules(RULES_DIR)
    accrual = rules["interpretations"]["penalty-accrual"]
    assert accrual["question"].startswith("After the first 15% late penalty")
    assert "more than 30 days after the due date" in accrual["options"]["simple"]["summary"]
    prose = [accrual["question"], *(o["summary"] for o in accrual["options"].values()), accrual["options"]["simple"]["why"]]
    assert all("{" not in p and "}" not in p for p in prose), prose


def test_the_enactments_come_from_the_history_notes(tmp_path):
    rules = compile_rules(RULES_DIR)
    [e] = rules["law"]["enactments"]
    assert (e["local_law"], e["date"], e["action"]) == ("1-1992", "1992-03-04", "amended")
    shutil.copytree(RULES_DIR, tmp_path / "rules")
    amend(tmp_path / "rules", [("law.yaml", 'date: "1992-03-04"', 'date: "1992-04-03"')])
    with pytest.raises(RuleError) as err:
        compile_rules(tmp_path / "rules")
    [p] = err.value.problems
    assert "law.yaml:" in p and "the note says 3-4-1992, so the date is 1992-03-04" in p


def test_the_data_files_and_the_chart_carry_the_amendment_and_the_adopted_year(amended):
    """After a rebuild: the amended penalty in api/, the adopted 2026 schedule in api/ with the
    illustrative one ending the day before, its OWRS file, and its point on /rates/' chart."""
    import json
    api = amended["site"] / "api"
    rate = json.loads((api / "parameters" / "late-penalty-rate.json").read_text())["parameter"]
    assert [v["value"] for v in rate["values"]] == ["0.10"]
    schedules = {s["status"]: s for s in json.loads((api / "rate-schedules.json").read_text())["rate_schedules"]}
    adopted, example = schedules["adopted"], schedules["illustrative"]
    assert (adopted["from"], adopted["to"], example["to"]) == ("2026-01-01", None, "2025-12-31")
    assert (adopted["in_force"], example["in_force"]) == (True, False)
    assert adopted["adoption"]["date"] == "2025-11-10" and adopted["notice"]["published"] == "2025-10-16"
    owrs = (api / "owrs" / f"{adopted['id']}.owrs").read_text()
    assert "ADOPTED by the Town Board" in owrs and f"effective_date: {adopted['effective']}" in owrs
    assert "utility_name: Town of Pawling Sewer Districts\n" in owrs and "rate_status: adopted" in owrs
    example_owrs = (api / "owrs" / f"{example['id']}.owrs").read_text()
    assert "utility_name: Town of Pawling Sewer Districts (ILLUSTRATIVE rate, not adopted)" in example_owrs
    chart = re.search(r'<svg class="rate-chart".*?</svg>', (amended["site"] / "rates" / "index.html").read_text(),
                      re.S).group(0)
    assert re.findall(r'<a href="([^"]+)/"', chart) == [example["id"], adopted["id"]]
    assert f'{adopted["vc_per_1000_gallons"]} per 1,000 gallons from January 1, 2026 (adopted)' in chart
