"""What only CPython runs, beside the engine: reading and validating rules/ (YAML),
the Clerk's commands, documents (PDF, notices, feed, calendar), the site's build
steps, and setting up a machine. It imports the engine (`calculator`); the engine
never imports it (tests/test_layers.py checks the whole import graph)."""
