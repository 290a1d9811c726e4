"""Bid Euchre bot arena: the referee, its rules engine and its command line."""

__version__ = "0.1.0"
