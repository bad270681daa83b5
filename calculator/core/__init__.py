"""The engine's core, which every room stands on: errors, rule access (rules, law, schedule),
money, dates, the cited explanation, the languages, the one file writer."""
