"""The quarterly bill run's CPython side (issue 23): the `bills` command (kit/billrun/command.py:
files in, a whole output folder out), the tagged PDF bills (bills_pdf.py), the fictional sample
files (sample.py) and the privacy guard of the site build (privacy.py). The arithmetic is the
engine's: calculator/bills/billing.py, which the Clerk's desk runs in the browser too."""
