"""The Town of Pawling sewer-use law as a calculator: bills, penalties, the rate,
industry obligations, hearing windows and permits, each answer explained and
cited. Standard library only, so it runs unchanged in CPython and in Pyodide.
Rooms by whom they answer: core/ (everyone's), bills/, permits/, industry.py, rates/
(the Clerk's year), and cli.py on top (docs/decisions/020-rooms.md)."""

__version__ = "0.1.0"
