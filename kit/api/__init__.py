"""The law's numbers as static files for other programs, under the site's api/: the parameters,
the rate schedules (also in the Open Water Rate Specification), the readings, the law, and their
OpenAPI description, whose schemas are rules/schemas/. The records are the engine's (calculator/opendata.py)."""
