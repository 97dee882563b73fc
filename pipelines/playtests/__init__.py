"""Designers' human playtests beside the bots (issue 30).

`table` (the file a designer fills in: columns, reading CSV/.xlsx, the template), `validate`
(every row checked against the game's rules before anything is written), `store` (the
`playtests` tables: import once, list, remove), `data` (a slice of playtests and the bot games
on the same rules and player count, aggregated in DuckDB), `compare` (the statistics: exact
intervals, distances with bootstrap intervals, a Monte Carlo test of agreement) and `words`
(the findings in plain words).
"""

from __future__ import annotations


def load_file(game_id: str, path):
    """Read and validate a playtest file for `game_id` (a Playtest; PlaytestFileError)."""
    from engine.core.registry import get_game

    from .table import read_sheet
    from .validate import validate
    return validate(read_sheet(path), get_game(game_id))
