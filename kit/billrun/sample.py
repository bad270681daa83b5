"""Fictional sample files for the bill run: generated, never real (names, streets and parcels are
invented from short lists with a fixed seed), about 2,000 accounts. They include zero use, use under
the minimum, cubic-feet and sewage meters, rollovers, Spanish-language accounts, and one row of each
kind the run refuses. The same seed gives the same bytes. The site's small copy (/billing-sample/) is
made by the build from the rules it builds, so an amended law publishes a sample billed by it; no
account file is kept under docs/."""
from __future__ import annotations

import csv
import io
import random
from pathlib import Path

from calculator.bills.billing import ACCOUNT_COLUMNS, ACCOUNT_OPTIONAL, PAYMENT_COLUMNS, READ_OPTIONAL
from calculator.core.privacy import PARCEL_BLOCK, STREETS

SEED = 23
#: the earlier quarter the sample bills first, and the quarter after it (fiscal 2025 has a schedule)
FIRST, SECOND = "2025-Q3", "2025-Q4"
#: the small sample the build publishes at /billing-sample/ (made by each build from its rules)
DOCS_FOLDER = "billing-sample"
DOCS_COUNT = 40

FIRST_NAMES = ("Avery", "Blair", "Casey", "Dana", "Emery", "Finley", "Gale", "Harper", "Indra", "Jules", "Kai",
               "Lupe", "Marlo", "Noel", "Oakley", "Paz", "Quinn", "Rory", "Sol", "Tam")
LAST_NAMES = ("Alder", "Birchwood", "Cobble", "Dunmore", "Eastbrook", "Fernhill", "Glenmoor", "Hollis",
              "Ivesdale", "Juniper", "Kestrel", "Larkspur", "Mossgrove", "Northcote", "Orchard", "Pinecrest",
              "Quarry", "Rushmere", "Stonewell", "Thistle")
#: the sample's account numbers start so: clearly not the Town's (its own look like S10004), so a clerk who meets
#: a refusal of her real files never wonders whether she chose the sample (the Clerk's second usability test)
PREFIX = "SAMPLE-"
#: the account the sample's reads name that is in no accounts file: an unknown account
UNKNOWN = f"{PREFIX}99999"
METERS = ("water-gallons",) * 14 + ("water-cubic-feet",) * 4 + ("sewage-gallons",) * 2


def _csv(columns, rows) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    writer.writerows([[row.get(c, "") for c in columns] for row in rows])
    return out.getvalue()


def generate(count: int = 2000, seed: int = SEED) -> dict[str, str]:
    """{file name: CSV text}: accounts.csv, reads-FIRST.csv, reads-SECOND.csv, payments.csv."""
    rnd = random.Random(seed)
    accounts, first, second, payments = [], [], [], []
    for i in range(count):
        number = f"{PREFIX}{10001 + i}"
        meter = METERS[rnd.randrange(len(METERS))]
        digits = 6 if meter != "water-cubic-feet" else 5
        accounts.append({
            "account": number, "parcel": f"{PARCEL_BLOCK}-{i // 100:02d}-{i % 100:03d}000",
            "service_address": f"{rnd.randrange(1, 400)} {STREETS[rnd.randrange(len(STREETS))]}, Pawling, NY 12564",
            "mailing_name": f"{FIRST_NAMES[rnd.randrange(20)]} {LAST_NAMES[rnd.randrange(20)]} (fictional)",
            "mailing_address": f"PO Box {rnd.randrange(1, 2000)}, Pawling, NY 12564",
            "language": "es" if rnd.random() < 0.15 else "en", "meter": meter, "meter_digits": str(digits)})
        top = 10 ** digits
        kind = rnd.random()  # a few vacant (no use), some under the minimum, most above it

        def quarter_use() -> int:
            use = 0 if kind < 0.03 else rnd.randrange(1, 6000) if kind < 0.15 else rnd.randrange(6000, 60000)
            return use // 7 if meter == "water-cubic-feet" else use
        use, use2 = quarter_use(), quarter_use()
        start = rnd.randrange(0, top // 2)
        if i % 97 == 5:  # a meter about to roll over: it passes zero in the second quarter
            start = top - use - 1 - rnd.randrange(0, max(1, use2))
        middle = (start + use) % top
        end = (middle + use2) % top
        first.append({"account": number, "previous_reading": start, "current_reading": middle,
                      "read_date": "2025-06-20", "rollover": "yes" if middle < start else ""})
        second.append({"account": number, "previous_reading": middle, "current_reading": end,
                       "read_date": "2025-09-19", "rollover": "yes" if end < middle else ""})
        r = rnd.random()
        if r < 0.8:  # most pay in full, a few late, some in part, the rest not at all
            payments.append({"account": number, "quarter": FIRST, "amount": "FULL",
                             "paid_on": "2025-07-20" if r < 0.72 else "2025-09-02"})
        elif r < 0.9:
            payments.append({"account": number, "quarter": FIRST, "amount": "10.00", "paid_on": "2025-07-25"})
    # one row of each kind the run refuses (README: "What the run refuses")
    bad = dict(accounts[3])
    accounts.append(dict(bad, mailing_name=f"Duplicate of account {PREFIX}10004 (fictional)"))  # the same account twice
    accounts.append(dict(accounts[7], account=f"{PREFIX}{10001 + count}", language="fr"))  # a language not en/es
    accounts.append(dict(accounts[8], account=f"{PREFIX}{10002 + count}"))  # an account with no read: a missing read
    second.append({"account": UNKNOWN, "previous_reading": 100, "current_reading": 200,
                   "read_date": "2025-09-19", "rollover": ""})  # an unknown account
    second[10] = dict(second[10], previous_reading=int(second[10]["current_reading"]) + 500, rollover="")  # lower, no rollover
    payments.append({"account": f"{PREFIX}10012", "quarter": "2025-Q1", "amount": "40.00", "paid_on": "2025-02-01"})  # never billed
    return {"accounts.csv": _csv((*ACCOUNT_COLUMNS, *ACCOUNT_OPTIONAL), accounts),
            f"reads-{FIRST}.csv": _csv(("account", *READ_OPTIONAL), first),
            f"reads-{SECOND}.csv": _csv(("account", *READ_OPTIONAL), second),
            "payments.csv": _csv(PAYMENT_COLUMNS, payments)}


def faulty_rows(count: int = DOCS_COUNT) -> list[str]:
    """The rows `generate` spoils on purpose, one of each kind the run refuses, in the words the bill-run desk
    shows, so that a clerk trying the sample expects their refusals (the usability test)."""
    p = PREFIX
    return [f"account {p}10004 is listed twice in accounts.csv, so neither of its rows is billed",
            f"account {p}{10001 + count} has the language 'fr' (only en and es are billed), and so account {p}10008, "
            "which shares its tax-map parcel, is held back too",
            # the sample's reads by what they are, not by a file name: the desk names them by the quarter chosen
            # (Linda: "no meter read in reads-2025-Q4.csv" beside refusals naming reads-2027-Q1-sample.csv)
            f"account {p}{10002 + count} has no meter read in the sample's meter reads; it shares its parcel with account "
            f"{p}10009, which the {FIRST} run therefore did not bill, so {p}10009's payment for {FIRST} is refused",
            f"the sample's meter reads have a read for {UNKNOWN}, an account that is not in accounts.csv",
            f"in the sample's meter reads, account {p}10011's current reading is lower than its previous one, "
            "and the row does not say the meter rolled over",
            f"payments.csv has a payment by {p}10012 for 2025-Q1, a quarter the sample never billed"]


def with_amounts(files: dict[str, str], register_text: str) -> dict[str, str]:
    """The payments file with each "FULL" amount replaced by the charge the first register billed."""
    charges = {row["account"]: row["charge"] for row in csv.DictReader(io.StringIO(register_text))}
    rows = list(csv.DictReader(io.StringIO(files["payments.csv"])))
    for row in rows:
        if row["amount"] == "FULL":
            row["amount"] = charges.get(row["account"], "50.00")
    return dict(files, **{"payments.csv": _csv(PAYMENT_COLUMNS, rows)})


def sample_files(count: int = 2000, seed: int = SEED, rules: dict | None = None) -> dict[str, str]:
    """The whole sample a clerk runs SECOND from: the accounts, both quarters' reads, the register
    of the run for FIRST (made now by the engine, from `rules`, else the rules in force) and the
    payments received on it."""
    from calculator.bills import billing
    from calculator.core.rules import load
    files = generate(count, seed)
    earlier = billing.run(rules or load(), FIRST, ("accounts.csv", files["accounts.csv"]),
                          (f"reads-{FIRST}.csv", files[f"reads-{FIRST}.csv"]))
    files = with_amounts(files, earlier["files"]["register.csv"])
    files[f"register-{FIRST}.csv"] = earlier["files"]["register.csv"]
    return files


#: the files sample_files makes (and write writes), named without making them
NAMES = frozenset({"accounts.csv", f"reads-{FIRST}.csv", f"reads-{SECOND}.csv", "payments.csv", f"register-{FIRST}.csv"})

#: the fewest accounts a sample can have: one of each kind the sample shows
SMALLEST = 10


def write(folder, count: int = 2000) -> list[Path]:
    """Write the sample files into a folder, together, with the list of what was written (files.WRITTEN):
    a later sample replaces them only while they are as written."""
    from calculator.core.files import WRITTEN, write_all_atomic, written_list
    data = {name: text.encode("utf-8") for name, text in sample_files(count).items()}
    return [p for p in write_all_atomic({Path(folder) / name: d for name, d in (data | {WRITTEN: written_list(data)}).items()})
            if p.name != WRITTEN]
