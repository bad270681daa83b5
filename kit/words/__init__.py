"""The words in each language, for the site and the engine: the translation catalogues
(extract, update, check) and the page's language. How the law's values are said ("30 days")
is kit/rules/wording.py, beside the validator that checks each value against its quote."""
