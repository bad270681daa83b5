"""The quarterly bill run on the Clerk's desk (/clerk/bills/, issue 23), as the Town's billing clerk
would use it: the sample files chosen from the computer, the run in this browser with no request
to anyone while it runs, the register, summary, arrears list and refused rows as downloads, byte for
byte what `python3 build.py bills` writes for the same files. And estimate = bill: a bill's link
opens the estimate page showing that quarter's charge, in the account's language."""
import csv
import datetime
import io
import re

import pytest
from playwright.sync_api import expect

from calculator.core import dates
from calculator.core.rules import load
from bill_desk import TIMEOUT, fill_the_desk, run_the_bills, show_the_bills_to_print
from kit.billrun import command, sample
from test_site import axe_violations

pytestmark = pytest.mark.browser
OUTPUTS = ("register.csv", "summary.csv", "arrears.csv", "refused.csv")


@pytest.fixture
def page(warm_page):
    """A browser that has started the engine before (tests/browser/conftest.py: warm_page): the
    desk is a page the billing clerk comes back to; its storage is cleared after each test."""
    return warm_page


@pytest.fixture(scope="module")
def sample_files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("sample")
    sample.write(folder, 120)
    return folder


@pytest.fixture(scope="module")
def cli_run(sample_files, tmp_path_factory):
    out = tmp_path_factory.mktemp("billing") / sample.SECOND
    assert command.main(["--quarter", sample.SECOND, "--accounts", str(sample_files / "accounts.csv"),
                         "--reads", str(sample_files / f"reads-{sample.SECOND}.csv"),
                         "--payments", str(sample_files / "payments.csv"),
                         "--earlier", str(sample_files / f"register-{sample.FIRST}.csv"),
                         "--out", str(out), "--no-pdf"]) == 0
    return out


def run_on_the_desk(page, site_url, sample_files):
    """The run on the desk (bill_desk.py); the requests the page made from the click to the answer."""
    fill_the_desk(page, f"{site_url}/clerk/bills/", sample_files)
    requests = []
    page.on("request", lambda r: requests.append(r.url) if not r.url.startswith(("blob:", "data:")) else None)
    run_the_bills(page)
    return requests


def test_the_desk_gives_the_command_line_s_files_byte_for_byte_and_asks_no_one(page, site_url, sample_files,
                                                                              cli_run, tmp_path):
    requests = run_on_the_desk(page, site_url, sample_files)
    assert requests == []  # the files never left the browser, and nothing was fetched while it ran
    expect(page.locator("#bills-done")).to_be_focused()
    # as many as the command line billed (a payment row refused holds its account's bill: issue 32)
    billed = len(list(csv.DictReader(io.StringIO((cli_run / "register.csv").read_text(encoding="utf-8")))))
    assert billed >= 110
    expect(page.locator("#bills-done")).to_have_text(f"Billed {billed} accounts for {sample.SECOND}")
    # the results are only in the page: leaving before the register is downloaded asks first (and staying keeps them)
    expect(page.locator("#bills-downloads-only-here")).to_contain_text("Download them before you close or reload")
    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.type), dialog.dismiss()))
    with pytest.raises(Exception):
        page.reload(timeout=3_000)
    assert asked == ["beforeunload"]
    expect(page.locator("#bills-done")).to_be_visible()
    for name in OUTPUTS:
        with page.expect_download() as download:
            page.locator(f'#bills-downloads a[data-file="{name}"]').click()
        got = tmp_path / name
        download.value.save_as(got)
        assert got.read_bytes() == (cli_run / name).read_bytes(), name
    # every refused row is named with its file, line and what to fix
    refused = page.locator("#bills-refused li")
    expect(refused).to_have_count(len(list(csv.DictReader(io.StringIO(
        (cli_run / "refused.csv").read_text(encoding="utf-8"))))))
    expect(page.locator("#bills-refused")).to_contain_text("accounts.csv, line 5, account SAMPLE-10004: SAMPLE-10004 is on lines 5 and 122; neither was billed. Delete one and run again.")
    expect(page.locator("#bills-refused")).to_contain_text("lower than the previous one")
    expect(page.locator("#bills-refused")).to_contain_text("never billed")
    assert axe_violations(page) == []  # the answer, its tables and its downloads, as a person meets them
    # the register downloaded: the page leaves without asking
    page.once("dialog", lambda dialog: (asked.append(dialog.type), dialog.dismiss()))
    page.reload()
    assert asked == ["beforeunload"]


def test_a_quarter_without_a_schedule_is_refused_at_its_box(page, site_url, sample_files):
    # the usability test: "Q1 2027" typed was refused. The quarter is a menu named as the estimate page names
    # a bill, the next bill due chosen, its value the quarter's name
    page.goto(f"{site_url}/clerk/bills/")
    page.wait_for_function("() => window.__billRun && window.__billRun.ready", timeout=TIMEOUT)
    expect(page.locator("#bills-quarter")).to_have_value(dates.next_quarter_due(load(), datetime.date.today()))
    expect(page.locator('#bills-quarter option[value="2027-Q1"]')).to_have_text(
        "Bill due Jan 2027 (water Oct–Dec 2026) — 2027-Q1")
    fill_the_desk(page, f"{site_url}/clerk/bills/", sample_files, quarter="2027-Q1", earlier=False)
    page.get_by_label("No, this is the first bill run on this site").check()
    page.get_by_role("button", name="Run the bills").click()
    expect(page.locator("#error-summary")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#bills-quarter-error")).to_contain_text("No rate schedule is on record for fiscal year 2027")
    expect(page.locator("#bills-quarter")).to_have_attribute("aria-invalid", "true")


def test_the_desk_asks_about_an_earlier_register_and_bills_refused_rows_in_a_second_run(page, site_url,
                                                                                      sample_files, tmp_path):
    """The third legal reading: a run without the register of the quarter before lost what was unpaid on it.
    The Clerk's second usability test: "first bill run on this website" was a tick box she guessed at. The desk
    asks a question she can answer, and runs once she says "No, this is the first bill run on this site".
    After a run with refused rows it says how to bill them later: the same quarter again, with this run's
    register.csv, which bills none of the accounts already billed (here no row was fixed, so none at all)."""
    fill_the_desk(page, f"{site_url}/clerk/bills/", sample_files, earlier=False)
    page.get_by_role("button", name="Run the bills").click()
    expect(page.locator("#error-summary")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#bills-earlier-yes-error")).to_contain_text(
        "Answer the question: do you have a register.csv from an earlier bill run on this site?")
    page.get_by_label("No, this is the first bill run on this site").check()
    run_the_bills(page)
    expect(page.locator("#error-summary")).to_be_hidden()
    # issue 34: no bill has carried the notice to users yet (rate-schedules.D): the desk and its summary say
    # to enclose it, naming the file step 4 of the Clerk's desk makes
    expect(page.locator("#bills-enclose")).to_contain_text("Enclose the notice to users: Put the notice to users")
    expect(page.locator("#bills-enclose")).to_contain_text("user-notice-2025-illustrative")
    expect(page.locator("#bills-summary")).to_contain_text("to enclose with each bill")
    billed = int(page.locator("#bills-done").inner_text().split()[1])
    expect(page.locator("#bills-later")).to_contain_text(f"The {billed} accounts that passed are billed.")
    # the usability test: two runs' registers were both "2027-Q1-register.csv". Each download is named with
    # the run's local date and time, the page shows each name, and the next run reads the file by its content
    with page.expect_download() as download:
        page.locator('#bills-downloads a[data-file="register.csv"]').click()
    name = download.value.suggested_filename
    assert re.fullmatch(rf"{sample.SECOND}-register-\d{{4}}-\d\d-\d\d-\d{{4}}\.csv", name), name
    stamp = name[len(f"{sample.SECOND}-register-"):-len(".csv")]
    for kind in ("register", "summary", "arrears", "refused"):
        expect(page.locator("#bills-downloads")).to_contain_text(f"{sample.SECOND}-{kind}-{stamp}.csv")
    expect(page.locator("#bills-later")).to_contain_text(f"Also choose this run's register, {name}")
    download.value.save_as(tmp_path / name)
    page.get_by_label("Billing records of earlier runs (register.csv) (needed when you answered Yes)").set_input_files(
        str(tmp_path / name))
    page.get_by_role("button", name="Run the bills").click()
    page.wait_for_function("() => window.__billRun.done === 2", timeout=TIMEOUT)
    expect(page.locator("#bills-done")).to_have_text(f"Billed 0 accounts for {sample.SECOND}")
    expect(page.locator("#bills-enclose")).to_have_count(0)  # no bills to enclose the notice with (clerk11, B3)
    expect(page.locator("#result")).to_contain_text(f"{name} already billed {billed} of these accounts for "
                                                    f"{sample.SECOND}: they are not billed again")


def test_a_bill_s_link_opens_the_estimate_showing_its_charge_in_its_language(page, site_url, cli_run):
    register = list(csv.DictReader(io.StringIO((cli_run / "register.csv").read_text())))
    picked = []
    for language in ("en", "es"):
        for meter in ("water-gallons", "water-cubic-feet", "sewage-gallons"):
            picked += [r for r in register if r["language"] == language and r["meter"] == meter][:1]
    picked += [r for r in register if r["rollover"] == "yes"][:1] + [r for r in register if r["usage"] == "0"][:1]
    assert {r["language"] for r in picked} == {"en", "es"} and len(picked) >= 6
    for row in picked:
        page.goto(f"{site_url}/{row['estimate_link']}")
        total = page.locator("#result-total")
        expect(total).to_have_text(f"${float(row['total']):,.2f}", timeout=TIMEOUT)
        assert page.locator("html").get_attribute("lang").startswith(row["language"])
        # the link carries the bill's total, and the site's figures give it again: no "not the total" warning
        assert f"billed={row['total']}&" in row["estimate_link"]
        expect(page.locator("#result-billed-differs")).to_have_count(0)


def test_a_bill_with_arrears_links_to_an_estimate_showing_the_bill_s_total(page, site_url, cli_run):
    """Issue 23's "Done when": the estimate page, opened from a bill's link, shows the bill's total. For
    bills with arrears (unpaid earlier charges, penalties on them, a late payment whose penalty is still
    owed), in English and in Spanish: the total at the top is the register's, and the bill's table shows
    this quarter's charge, each unpaid amount, its penalty and the total, each line linked to the law.
    A link changed by hand gets a message in the error summary, and no figure."""
    from decimal import Decimal

    from calculator.core import money
    register = list(csv.DictReader(io.StringIO((cli_run / "register.csv").read_text(encoding="utf-8"))))
    owing = [r for r in register if r["penalties"] != "0.00"]
    picked = [next(r for r in owing if r["language"] == lang and (r["arrears"] == "0.00") == paid_late)
              for lang in ("en", "es") for paid_late in (False, True)
              if any(r["language"] == lang and (r["arrears"] == "0.00") == paid_late for r in owing)]
    assert {r["language"] for r in picked} == {"en", "es"} and any(r["arrears"] != "0.00" for r in picked)
    for row in picked:
        page.goto(f"{site_url}/{row['estimate_link']}")
        expect(page.locator("#result-total")).to_have_text(money.dollars(Decimal(row["total"])), timeout=TIMEOUT)
        assert page.locator("html").get_attribute("lang").startswith(row["language"])
        lines = page.locator("#bill-arrears-lines tbody tr")
        expect(lines).to_have_count(4)  # this quarter's charge, the unpaid amount, its penalty, the total
        assert lines.locator("td").all_inner_texts() == [
            money.dollars(Decimal(row[c])) for c in ("charge", "arrears", "penalties", "total")]
        hrefs = lines.locator("th a").evaluate_all("links => links.map(a => a.getAttribute('href'))")
        assert hrefs == ["../law/#rents-b", "../law/#rents-f", "../law/#rents-f", "../law/#rents-f"]
        expect(page.locator("#bill-arrears-total")).to_have_text(money.dollars(Decimal(row["total"])))
        expect(page.locator("#bill-arrears-title")).to_have_text(
            "Your bill, with what is unpaid from earlier quarters" if row["language"] == "en" else
            "Su factura, con lo que falta pagar de trimestres anteriores")
    assert axe_violations(page) == []
    # the last one's link with its earlier bill changed by hand: a message, and no total at all
    tampered = picked[-1]["estimate_link"].replace("earlier-bill=2025-Q3:", "earlier-bill=2025-Q3:1")
    page.goto(f"{site_url}/{tampered}")
    expect(page.locator("#link-error")).to_contain_text("código de control" if picked[-1]["language"] == "es"
                                                        else "check code", timeout=TIMEOUT)
    expect(page.locator("#error-summary")).to_be_focused()
    expect(page.locator("#result-total")).to_have_count(0)


def test_the_bills_to_print_are_one_section_an_account_with_the_register_s_totals(page, site_url, sample_files,
                                                                                  cli_run):
    """After a run, the desk's bills to print: one section a billed account, in the register's order, in the
    account's language (lang on the section), with the register's total, the law behind each step and the
    estimate link; printed, each bill starts a new page and nothing else is printed. axe finds nothing."""
    from decimal import Decimal

    from calculator.core import money
    run_on_the_desk(page, site_url, sample_files)
    show_the_bills_to_print(page)
    expect(page.locator("#bills-print-title")).to_be_focused()
    register = list(csv.DictReader(io.StringIO((cli_run / "register.csv").read_text(encoding="utf-8"))))
    bills = page.locator("#bills-print section.bill")
    expect(bills).to_have_count(len(register))
    got = bills.evaluate_all("""els => els.map(s => ({account: s.dataset.account, lang: s.lang,
        total: s.querySelector('tr.bill-total td').textContent, link: s.querySelector('.bill-link a')?.href,
        steps: s.querySelectorAll('.bill-steps li .cite').length, title: s.querySelector('h4').textContent}))""")
    assert [b["account"] for b in got] == [r["account"] for r in register]
    assert [b["lang"] for b in got] == [r["language"] for r in register]
    assert [b["total"] for b in got] == [money.dollars(Decimal(r["total"])) for r in register]
    # the tests' site has no site_url: a mailed bill never names the address the desk was opened from
    # (the usability test: "http://127.0.0.1:8765/estimate/?…" on every bill); it has no link, and the desk says so
    assert [b["link"] for b in got] == [None] * len(register)
    assert "127.0.0.1" not in page.locator("#bills-print").inner_text()
    expect(page.locator("#bills-no-link")).to_have_text("The site's web address is not set yet. The person who keeps "
                                                        "the site sets it. Until then, these bills carry no link to "
                                                        "the Town's estimate page.")
    for staff in ("mkdocs", "site_url", "https://"):  # the keeper's words stay in the keeper's steps
        assert staff not in page.locator("#bill-run").inner_text(), staff
    assert all(b["steps"] >= 3 for b in got)
    spanish = next(b for b in got if b["lang"] == "es")
    assert spanish["title"].startswith("Factura de alcantarillado")
    # issue 34: a Spanish bill names the law as the site's Spanish pages do, the law's English marked so;
    # every bill says how to pay (rules/contacts.yaml), in its language; the run of 2025-Q4 after 2025-Q3
    # under the same schedule has no notice to enclose
    es_bill = page.locator(f'#bills-print section.bill[data-account="{spanish["account"]}"]')
    # (the name alone: spanish13 C-2, spanish14 C-1)
    expect(es_bill.locator(".bill-steps")).to_contain_text("Cargos de alcantarillado, sección F")
    assert "Sewer rents" not in es_bill.inner_text() and "sewer usage rent" not in es_bill.inner_text()
    expect(es_bill.locator(".bill-pay")).to_contain_text("llame o visite la oficina de la Secretaría del Pueblo")
    english = page.locator(f'#bills-print section.bill[data-account="{next(b for b in got if b["lang"] == "en")["account"]}"]')
    expect(english.locator(".bill-pay")).to_have_text("How to pay: call or visit the office of the Town Clerk.")
    assert page.locator("#bills-print .bill-pay").count() == len(register)
    expect(page.locator("#bills-enclose")).to_have_count(0)
    # the downloads are described in plain words, each with its run-stamped name
    downloads = page.locator("#bills-downloads").inner_text()
    assert "The billing record" in downloads and f"{sample.SECOND}-register-" in downloads and "levy" not in downloads
    assert {r["language"] for r in register} == {"en", "es"}
    # axe reads the page with its first English and first Spanish bill: the 36 bills are one template
    # (reading all of them took 16 s of the suite's time)
    others = [b["account"] for b in got if b["account"] not in {spanish["account"], next(
        b for b in got if b["lang"] == "en")["account"]}]
    assert len(others) == len(register) - 2
    assert axe_violations(page, {"exclude": [[f'#bills-print section.bill[data-account="{a}"]'] for a in others]}) == []
    page.emulate_media(media="print")
    expect(page.locator("#bills-summary")).to_be_hidden()
    expect(page.locator("#bills-form")).to_be_hidden()
    expect(bills.first).to_be_visible()
    breaks = bills.evaluate_all("els => els.slice(0, 3).map(s => getComputedStyle(s).breakBefore)")
    assert breaks == ["auto", "page", "page"]
    # printed on Letter paper: as many pages as bills, each page's text one bill's (none runs onto a second page)
    import pikepdf
    printed = pikepdf.open(io.BytesIO(page.pdf(format="Letter")))
    assert len(printed.pages) == len(register)


def test_the_bills_to_print_link_to_the_site_s_public_address_only(page, site_url, sample_files, cli_run):
    """The usability test: bills printed on the desk linked to http://127.0.0.1:8765/estimate/…, where the
    desk was opened. With the site's public address on the page (site_url, which the build writes), every
    bill links there; an address of this computer's own written there is never used."""
    run_on_the_desk(page, site_url, sample_files)
    register = list(csv.DictReader(io.StringIO((cli_run / "register.csv").read_text(encoding="utf-8"))))
    page.evaluate("document.getElementById('bill-run').dataset.siteUrl = 'https://sewer.pawling.example/'")
    show_the_bills_to_print(page)
    links = page.locator("#bills-print section.bill .bill-link a").evaluate_all("els => els.map(a => a.href)")
    assert links == [f"https://sewer.pawling.example/{r['estimate_link']}" for r in register]
    expect(page.locator("#bills-no-link")).to_have_count(0)


def test_a_bill_with_a_credit_a_shared_minimum_or_arrears_opens_its_own_total_and_what_if_late(page, site_url):
    """Issue 32: the estimate page opened from a bill's link shows the register's total for a bill with a
    credit from an overpayment, for an account sharing its property's minimum charge, and for a bill with
    arrears, whose "What if I pay late" names the first day any part of it gains a penalty."""
    from decimal import Decimal

    from calculator.bills import billing
    from calculator.core import money
    from calculator.core.rules import load
    head = "account,parcel,service_address,mailing_name,mailing_address,language,meter\n"
    result = billing.run(
        load(), "2025-Q3", ("accounts.csv", head + "A1,1-1-1,1 Lane,Ann,PO 1,en,water-gallons\n"
                                                   "B1,7-7-7,7 Lane,Bo,PO 2,es,water-gallons\n"
                                                   "B2,7-7-7,7 Lane Up,Cy,PO 3,en,water-gallons\n"
                                                   "C1,2-2-2,2 Lane,Di,PO 4,en,water-gallons\n"),
        ("reads.csv", "account,usage\nA1,12000\nB1,3000\nB2,3000\nC1,12000\n"),
        ("payments.csv", "account,quarter,amount,paid_on\nA1,2025-Q2,250.00,2025-04-30\n"),
        [("q1.csv", "account,quarter,charge\nA1,2025-Q1,96.00\nC1,2025-Q1,96.00\n"),
         ("q2.csv", "account,quarter,charge,arrears,arrears_quarters\nA1,2025-Q2,96.00,96.00,2025-Q1\n"
                    "C1,2025-Q2,96.00,96.00,2025-Q1\n")])
    rows = {r["account"]: r for r in result["register"]}
    # A1: $43.60 credit on $96.00; B1, B2: $32.00 each of the property's $64.00; C1: $331.20 with arrears
    assert [rows[a]["total"] for a in ("A1", "B1", "B2", "C1")] == ["52.40", "32.00", "32.00", "331.20"]
    for account in ("A1", "B1", "C1"):
        page.goto(f"{site_url}/{rows[account]['estimate_link']}")
        expect(page.locator("#result-total")).to_have_text(money.dollars(Decimal(rows[account]["total"])),
                                                           timeout=TIMEOUT)
    # C1's bill: Q1's third period begins August 15, before Q3's first penalty (August 15 too)
    expect(page.locator("#result")).to_contain_text("no further penalty")
    assert axe_violations(page) == []


def test_the_desk_links_every_sample_file_and_names_no_terminal_command(page, site_url):
    """Issue 34, item 6: the desk linked only accounts.csv and spoke of `python3 build.py bills`."""
    page.goto(f"{site_url}/clerk/bills/")
    links = page.locator("a[href*='billing-sample/']")
    names = sorted(page.eval_on_selector_all("a[href*='billing-sample/']", "as => as.map(a => a.textContent)"))
    assert names == sorted(sample.NAMES), names
    for i in range(links.count()):
        response = page.request.get(links.nth(i).evaluate("a => a.href"))
        assert response.ok and response.body().startswith(b"account,")
    text = page.inner_text("main")
    assert "build.py" not in text and "terminal" not in text and "README" not in text


def test_a_year_adopted_on_the_desk_in_this_browser_bills_its_quarter_marked_not_yet_published(
        page, site_url, sample_files, tmp_path):
    """Issue 34, item 2: minutes after the Clerk adopted 2027 on the desk, /clerk/bills/ refused 2027-Q1 ("No
    rate schedule … Adopt one on the Clerk's desk first"). The desk's records, kept in this browser, go
    to the run; its bills use that schedule, and the run says it is adopted and not yet published."""
    import json
    import shutil

    from calculator.cli import run
    from kit.rules.validate import RULES_DIR, compile_rules
    prepared, records = tmp_path / "prepared", {}
    for argv, record in ((["propose", "--fiscal-year", "2027", "--effective", "2027-01-01", "--om-cost", "856791",
                           "--user-volume-gallons", "70000000", "--proposed-on", "2026-10-01",
                           "--sewage-fraction", "0.80"], "proposal"),
                         (["notice", "2027", "--published", "2026-11-02", "--meeting", "2026-11-17", "--time",
                           "19:00", "--place", "Town Hall"], "notice"),
                         (["adopt", "2027", "--date", "2026-11-20", "--ayes", "4", "--noes", "1"], "vote")):
        answer = run(["rates", *argv, "--prepared", str(prepared)], rules=compile_rules(RULES_DIR))
        for f in answer["files"]:
            if f["rules"]:
                (prepared / "2027").mkdir(parents=True, exist_ok=True)
                (prepared / "2027" / f["path"].rsplit("/", 1)[1]).write_text(f["text"], encoding="utf-8")
                records[record] = {"text": f["text"]}
    assert set(records) == {"proposal", "notice", "vote"}
    folder = tmp_path / "files"
    shutil.copytree(sample_files, folder)
    reads = folder / f"reads-{sample.SECOND}.csv"
    reads.write_text(reads.read_text(encoding="utf-8").replace("2025-", "2026-"), encoding="utf-8")
    page.goto(f"{site_url}/clerk/")
    page.evaluate("(work) => localStorage.setItem('pawling-clerk-desk', JSON.stringify(work))",
                  {"current": "2027", "years": {"2027": {"records": records, "notices": {}, "inputs": {}, "made": {}}}})
    fill_the_desk(page, f"{site_url}/clerk/bills/", folder, quarter="2027-Q1", earlier=False)
    page.get_by_label("No, this is the first bill run on this site").check()
    run_the_bills(page)
    expect(page.locator("#bills-unpublished")).to_contain_text("Adopted, not yet published")
    expect(page.locator("#bills-unpublished")).to_contain_text("Publish it before the bills are mailed")
    # the register bills at the adopted rate, the one the command line gives for the same records
    with page.expect_download() as download:
        page.locator('#bills-downloads a[data-file="register.csv"]').click()
    download.value.save_as(tmp_path / "register.csv")
    rows = list(csv.DictReader(io.StringIO((tmp_path / "register.csv").read_text(encoding="utf-8"))))
    vc = compile_rules(RULES_DIR) and run(["bills", "--quarter", "2027-Q1", "--accounts", str(folder / "accounts.csv"),
                                           "--reads", str(reads), "--first-quarter", "--out", str(tmp_path / "cli"),
                                           "--prepared", str(prepared)])["schedule"]["vc_per_1000_gallons"]
    assert rows and {r["vc_per_1000_gallons"] for r in rows} == {vc} and vc != "10.00"
    assert (tmp_path / "register.csv").read_bytes() == (tmp_path / "cli" / "register.csv").read_bytes()
    assert json.loads(page.evaluate("localStorage.getItem('pawling-clerk-desk')"))["current"] == "2027"  # kept


def test_a_usage_far_above_the_last_quarter_is_billed_and_listed_to_check(page, site_url, sample_files, tmp_path):
    """The fifth hostile tester: a reading with a digit too many was billed 36 times the last quarter's
    usage without a word. The desk lists it to check, in the engine's words, as the command line prints it."""
    import shutil
    folder = tmp_path / "typo"
    shutil.copytree(sample_files, folder)
    last = {r["account"]: int(r["usage"]) for r in csv.DictReader(io.StringIO(
        (folder / f"register-{sample.FIRST}.csv").read_text(encoding="utf-8")))}
    reads = folder / f"reads-{sample.SECOND}.csv"
    rows = list(csv.DictReader(io.StringIO(reads.read_text(encoding="utf-8"))))
    row = next(r for r in rows if r["account"] == "SAMPLE-10002")
    row["current_reading"] = str(int(row["previous_reading"]) + 20 * last["SAMPLE-10002"])
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    reads.write_text(text.getvalue(), encoding="utf-8")
    fill_the_desk(page, f"{site_url}/clerk/bills/", folder)
    run_the_bills(page)
    checks = page.locator("#bills-checks li")
    expect(checks.filter(has_text="account SAMPLE-10002 used")).to_contain_text(
        f"more than 10 times its {last['SAMPLE-10002']:,} gallons in {sample.FIRST}. It is billed")
    expect(page.locator("#bills-summary")).to_contain_text("of which to check: usage more than 10 times")


def test_the_desks_link_to_bill_an_adopted_year_chooses_its_quarter_or_says_why_not(page, site_url, tmp_path,
                                                                                      sample_files):
    """clerk10: in December 2026 the Clerk adopted 2028 on the desk; the bill run's menu stopped at 2027-Q4, and
    /clerk/bills/?quarter=2028-Q1 silently chose 2027-Q1. The menu offers the year adopted in this browser, the
    desk's link chooses its first quarter, and a quarter the page cannot bill is said, not replaced in silence."""
    from answers import ADOPT, NOTICE, PROPOSE, SITE
    from calculator.cli import run
    from kit.rules.validate import RULES_DIR, compile_rules
    prepared, records = tmp_path / "prepared", {}
    for argv, record in ((PROPOSE, "proposal"), (NOTICE, "notice"), (ADOPT, "vote")):
        answer = run(["rates", *argv, "--site-url", SITE, "--prepared", str(prepared)], rules=compile_rules(RULES_DIR))
        for f in answer["files"]:
            if f["rules"]:
                (prepared / "2028").mkdir(parents=True, exist_ok=True)
                (prepared / "2028" / f["path"].rsplit("/", 1)[1]).write_text(f["text"], encoding="utf-8")
                records[record] = {"text": f["text"]}
    page.goto(f"{site_url}/clerk/bills/?quarter=2031-Q1")
    page.wait_for_function("() => window.__billRun && window.__billRun.ready", timeout=TIMEOUT)
    expect(page.locator("#bills-quarter-note")).to_be_visible()
    expect(page.locator("#bills-quarter-note")).to_contain_text("“2031-Q1”, which this page cannot bill")
    assert page.locator("#bills-quarter").input_value() != "2031-Q1"
    page.evaluate("(work) => localStorage.setItem('pawling-clerk-desk', JSON.stringify(work))",
                  {"current": "2028", "years": {"2028": {"records": records, "notices": {}, "inputs": {}, "made": {}}}})
    page.goto(f"{site_url}/clerk/bills/?quarter=2028-Q1")
    page.wait_for_function("() => window.__billRun && window.__billRun.ready", timeout=TIMEOUT)
    assert page.locator("#bills-quarter").input_value() == "2028-Q1"
    expect(page.locator("#bills-quarter-note")).to_be_hidden()
    # clerk11, B2: the sample's own reads, dated for 2025, refused row by row for 2028-Q1: the reason said once
    page.get_by_label("Accounts file").set_input_files(str(sample_files / "accounts.csv"))
    page.get_by_label("Meter reads for the quarter").set_input_files(str(sample_files / f"reads-{sample.SECOND}.csv"))
    page.get_by_label("No, this is the first bill run on this site").check()
    run_the_bills(page)
    expect(page.locator("#bills-refused-common")).to_contain_text("of these rows were refused for the same reason")
    expect(page.locator("#bills-refused-common")).to_contain_text("the right file and the right quarter")
    page.reload()
    page.wait_for_function("() => window.__billRun && window.__billRun.ready", timeout=TIMEOUT)
    assert page.locator("#bills-quarter").input_value() == "2028-Q1"
    # clerk11: the sample's reads could bill only its own quarters; its button moves their dates to 2028-Q1
    page.locator("#try-sample summary").click()
    page.click("#sample-use")
    expect(page.locator("#sample-use-status")).to_contain_text("reads-2028-Q1-sample.csv")
    assert page.locator("#bills-first-quarter").is_checked()
    run_the_bills(page)
    expect(page.locator("#bills-done")).to_have_text(re.compile(r"^Billed (\d+) accounts for 2028-Q1$"))
    billed = int(re.search(r"\d+", page.inner_text("#bills-done")).group(0))
    assert billed >= 30
    expect(page.locator("#bills-unpublished")).to_contain_text("Adopted, not yet published")
