"""Sewer permits, for contractors: the permit checker's flow (rules/permits.yaml) and the
permit application filled from its answers."""
