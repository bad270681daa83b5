"""CPython-only tools beside the engine."""
