"""The words in each language, for the site and the engine: the translation catalogues
(extract, update, check), the page's language, and how the law's values are said."""
