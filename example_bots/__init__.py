"""Example bots, each runnable as ``python -m example_bots.NAME``."""
