"""Queries of the Replay page: a run's games and one game's log."""

from __future__ import annotations

import polars as pl

from . import core
from .core import ANALYSIS_TTL_S, cached


_GAME_LIST_SQL = """
SELECT g.game_id, g.seed::VARCHAR AS seed, g.map::VARCHAR AS map, g.n_players, g.steps,
       string_agg(p.faction || CASE WHEN p.won THEN ' ★' ELSE '' END, ', ' ORDER BY p.seat)
           AS factions,
       string_agg(p.score::VARCHAR, ' / ' ORDER BY p.seat) AS scores
FROM (SELECT * FROM games WHERE run_id = $run ORDER BY game_id LIMIT $limit) AS g
JOIN players AS p ON p.run_id = g.run_id AND p.game_id = g.game_id
GROUP BY ALL ORDER BY g.game_id
"""


@cached(ttl=ANALYSIS_TTL_S)
def game_list(db: str, run_id: str, limit: int = 500, version: str = "") -> pl.DataFrame:
    """The first ``limit`` games of a run with their seats, winner (★) and scores."""
    return core.read_frame(db, _GAME_LIST_SQL, {"run": run_id, "limit": limit})


@cached(ttl=60)
def game_log(db: str, run_id: str, game_id: int) -> tuple[pl.DataFrame, pl.DataFrame,
                                                          pl.DataFrame]:
    """One game's players, moves and score events (one game is small)."""
    params = {"run": run_id, "game": game_id}
    players = core.read_frame(
        db, "SELECT seat, faction::VARCHAR AS faction, bot::VARCHAR AS bot, score, rank, won "
            "FROM players WHERE run_id = $run AND game_id = $game ORDER BY seat", params)
    moves = core.read_frame(
        db, "SELECT step, round, phase::VARCHAR AS phase, seat, action::VARCHAR AS action, "
            "detail::VARCHAR AS detail, cell FROM moves WHERE run_id = $run AND game_id = $game "
            "ORDER BY step", params)
    scores = core.read_frame(
        db, "SELECT step, round, seat, category::VARCHAR AS category, points FROM score_events "
            "WHERE run_id = $run AND game_id = $game ORDER BY step, seat, category", params)
    return players, moves, scores
