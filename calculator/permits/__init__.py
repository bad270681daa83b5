"""Sewer permits, for contractors: the permit checker's walk of rules/permits.yaml (which holds the
questions, answers and outcomes) and the permit application filled from its answers."""
