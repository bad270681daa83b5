"""The Town of Pawling sewer-use law as a calculator: bills, penalties, the rate,
industry obligations, hearing windows and permits, each answer explained and
cited. Standard library only, so it runs unchanged in CPython and in Pyodide."""

__version__ = "0.1.0"
