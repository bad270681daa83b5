"""The documents the kit prints: tagged PDF/UA pages (the application, notices, bills' layout),
the due-dates calendar and the notices' feed."""
