"""The kit's one exception for a build that must stop."""


class BuildError(Exception):
    """A step failed; the message says what to fix. site/ is left as it was."""
