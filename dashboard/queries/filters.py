"""The filters every analysis page shares (player count, map, bot) as SQL CTEs, and the
rate columns (Wilson intervals, binomial tests, Holm) added to a frame of counts."""

from __future__ import annotations

from typing import Any

import polars as pl

# # Every analysis query starts from the same two CTEs: the run's games that pass the game
# filters (player count, map) and their player rows that pass the bot filter. The filter
# values are bound parameters ($run, $np, $map, $bot); NULL means "all". Every table is
# filtered on its own ``run_id`` and joined on the integer ``game_id`` alone (no string key
# in a join: the run is the same on both sides).

_FILTERED = """
WITH fg AS (
    SELECT g.* FROM games AS g
    WHERE g.run_id = $run
      AND ($np::INTEGER IS NULL OR g.n_players = $np::INTEGER)
      AND ($map::VARCHAR IS NULL OR g.map = $map::VARCHAR)
), fp AS (
    SELECT p.*, fg.n_players, fg.first_seat, fg.map,
           ((p.seat - fg.first_seat + fg.n_players) % fg.n_players)::INTEGER AS turn_position
    FROM players AS p JOIN fg ON fg.game_id = p.game_id
    WHERE p.run_id = $run AND ($bot::VARCHAR IS NULL OR p.bot = $bot::VARCHAR)
)
"""

# The ids alone of the run's games that pass the game filters (the same CTE name, ``fg``), for
# the queries that need no column of the games but their id.
_GAME_IDS = """
WITH fg AS (
    SELECT g.game_id FROM games AS g
    WHERE g.run_id = $run
      AND ($np::INTEGER IS NULL OR g.n_players = $np::INTEGER)
      AND ($map::VARCHAR IS NULL OR g.map = $map::VARCHAR)
)"""


# The same filters on the aggregate tables (pipelines.store.aggregates), which carry the games'
# player count and map and the players' bot on every row; measures are summed over the rows.
_AGG_GAMES = """run_id = $run
      AND ($np::INTEGER IS NULL OR n_players = $np::INTEGER)
      AND ($map::VARCHAR IS NULL OR map = $map::VARCHAR)"""
_AGG_PLAYERS = _AGG_GAMES + """
      AND ($bot::VARCHAR IS NULL OR bot = $bot::VARCHAR)"""

#: A tied win counts 1/n_won and the fair share is the mean of 1/n_players: both summed exactly
#: as multiples of 1/840 (840 = lcm(1..8), tables of up to 8 seats) and divided once, so the
#: raw tables and the aggregates give the same bits whatever the order of the rows.
SHARE_UNIT = 840


def _params(run_id: str, n_players: int | None, map_id: str | None, bot: str | None,
            **extra: Any) -> dict[str, Any]:
    return {"run": run_id, "np": n_players, "map": map_id, "bot": bot, **extra}


def _with_rates(frame: pl.DataFrame, wins: str = "wins", n: str = "games",
                p0: str = "fair_share") -> pl.DataFrame:
    """Add Wilson intervals, binomial p-values against ``p0`` and Holm marks (pipelines.stats)."""
    from pipelines import stats

    if frame.is_empty():
        return frame.with_columns(
            [pl.lit(None, dtype=pl.Float64).alias(c) for c in
             ("rate", "low", "high", "p_value", "p_holm")]
            + [pl.lit(None, dtype=pl.Boolean).alias("significant")]
            + [pl.lit(None, dtype=pl.Float64).alias(c) for c in ("low_sim", "high_sim")]
        )
    table = stats.rate_table(frame[wins].to_list(), frame[n].to_list(), frame[p0].to_list())
    return frame.with_columns(
        [pl.Series(k, v, dtype=pl.Boolean if k == "significant" else pl.Float64)
         for k, v in table.items()]
    )
