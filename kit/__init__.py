"""What only CPython runs, beside the engine, in rooms by what they make: rules/ (read and
check rules/), words/ (translations), site/ (the build), browser/ (the engine packed for
Pyodide), documents/ (PDFs, calendar, feed), clerk/ and billrun/ (the staff commands), and
tools/ (ours, not the product's). It imports the engine (`calculator`); the engine never
imports it (tests/test_layers.py checks the whole import graph, room by room)."""
