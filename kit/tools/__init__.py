"""Tools for us, not part of the product (nothing in it imports them): setting up a machine
and running the tests, mutation testing of the engine, the pages' reading grade."""
