"""The quarterly bill run's CPython side (issue 23): the `bills` command (kit/billrun/command.py:
files in, a whole output folder out), the tagged PDF bills (bills_pdf.py), the fictional sample
files (sample.py). The arithmetic and each printed bill's words are the engine's:
calculator/bills/billing.py (printable_bill), which the Clerk's desk runs in the browser too; the bill's
layout is docs/templates/documents/bill.html.j2. The site build's privacy guard is kit/privacy.py."""
