"""The one exception the engine raises for input a person can fix."""


class InputError(ValueError):
    """Bad input: the message says what is wrong and what to enter instead."""
