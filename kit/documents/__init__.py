"""The documents the kit prints: tagged PDF/UA pages (the application, the notices, the bills), the
due-dates calendar and the notices' feed. Their words are the engine's; their layouts are docs/templates/documents/."""
