"""Delve engine: rules-as-data board-game simulation."""

__version__ = "0.1.0"
