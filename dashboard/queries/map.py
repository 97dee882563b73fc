"""Queries of the Map page: the map's cells and the moves and points on each."""

from __future__ import annotations

import polars as pl

from . import core
from .core import ANALYSIS_TTL_S, CACHE_TTL_S, cached
from .filters import _AGG_GAMES, _AGG_PLAYERS, _GAME_IDS, _params


@cached(ttl=CACHE_TTL_S)
def map_cells(db: str, game: str, map_id: str) -> pl.DataFrame:
    """The cells of one map of a game: cell, x, y, kind (the game's own geometry)."""
    return core.read_frame(
        db, "SELECT cell, x, y, kind::VARCHAR AS kind FROM map_cells "
            "WHERE game = $game AND map = $map ORDER BY cell",
        {"game": game, "map": map_id})


# The moves of the selected players on one map, counted and with the points scored at their
# steps, per cell and action. Every table is cut to the run and the filtered games before the
# joins (integer keys only), and the score events join the moves as they are: summing them
# per step first would only add a grouping of nearly as many rows. When no player filter is
# set (faction, outcome, bot), the moves only need their game to pass, not their seat.
_CELL_SELECTION = _GAME_IDS + """, sel AS (
    SELECT p.game_id, p.seat FROM players AS p SEMI JOIN fg ON fg.game_id = p.game_id
    WHERE p.run_id = $run
      AND ($bot::VARCHAR IS NULL OR p.bot = $bot::VARCHAR)
      AND ($faction::VARCHAR IS NULL OR p.faction = $faction::VARCHAR)
      AND ($won::BOOLEAN IS NULL OR p.won = $won::BOOLEAN)
)
"""
_CELL_MOVES = """
, mv AS (
    SELECT m.game_id, m.step, m.cell, m.action FROM moves AS m
    SEMI JOIN {cut}
    WHERE m.run_id = $run AND m.cell IS NOT NULL
)
"""
_CELL_MOVES_OF_PLAYERS = _CELL_MOVES.format(
    cut="sel ON sel.game_id = m.game_id AND sel.seat = m.seat")
_CELL_MOVES_OF_GAMES = _CELL_MOVES.format(cut="fg ON fg.game_id = m.game_id")
_CELL_TOTALS = """
, ev AS (
    SELECT s.game_id, s.step, s.points FROM score_events AS s
    SEMI JOIN fg ON fg.game_id = s.game_id
    WHERE s.run_id = $run
), pts AS (
    SELECT mv.cell, mv.action, sum(ev.points) AS points
    FROM ev JOIN mv ON mv.game_id = ev.game_id AND mv.step = ev.step
    GROUP BY mv.cell, mv.action
), cnt AS (SELECT cell, action, count(*) AS moves FROM mv GROUP BY cell, action)
SELECT cnt.cell, cnt.action::VARCHAR AS action, cnt.moves::BIGINT AS moves,
       coalesce(pts.points, 0)::BIGINT AS points,
       (SELECT count(*) FROM fg)::BIGINT AS games,
       (SELECT count(*) FROM sel)::BIGINT AS player_games
FROM cnt LEFT JOIN pts ON pts.cell = cnt.cell AND pts.action = cnt.action
ORDER BY cnt.cell, action
"""
# The moves alone (the map's first view measures moves): no score events to join, half the work.
_CELL_MOVES_ONLY = """
SELECT mv.cell, mv.action::VARCHAR AS action, count(*)::BIGINT AS moves,
       (SELECT count(*) FROM fg)::BIGINT AS games,
       (SELECT count(*) FROM sel)::BIGINT AS player_games
FROM mv GROUP BY mv.cell, mv.action
ORDER BY mv.cell, action
"""
#: (every player?, with points?) -> the query.
_CELL_COUNTS_SQL = {
    (False, True): _CELL_SELECTION + _CELL_MOVES_OF_PLAYERS + _CELL_TOTALS,
    (True, True): _CELL_SELECTION + _CELL_MOVES_OF_GAMES + _CELL_TOTALS,
    (False, False): _CELL_SELECTION + _CELL_MOVES_OF_PLAYERS + _CELL_MOVES_ONLY,
    (True, False): _CELL_SELECTION + _CELL_MOVES_OF_GAMES + _CELL_MOVES_ONLY,
}


# The same from the aggregates: agg_cells (moves and their steps' points per cell, action and
# the mover's faction, bot and outcome), agg_games and agg_seats for the games and player-games.
_SELECTED_PLAYERS = _AGG_PLAYERS + """
      AND ($faction::VARCHAR IS NULL OR faction = $faction::VARCHAR)
      AND ($won::BOOLEAN IS NULL OR won = $won::BOOLEAN)"""
_CELLS_AGG_SQL = """
SELECT cell, action::VARCHAR AS action, sum(moves)::BIGINT AS moves,{points}
       (SELECT coalesce(sum(games), 0) FROM agg_games WHERE """ + _AGG_GAMES + """)::BIGINT AS games,
       (SELECT coalesce(sum(players), 0) FROM agg_seats WHERE """ + _SELECTED_PLAYERS + """)::BIGINT
           AS player_games
FROM agg_cells WHERE """ + _SELECTED_PLAYERS + """
GROUP BY cell, action ORDER BY cell, action
"""
_CELLS_AGG = {True: _CELLS_AGG_SQL.format(points=" sum(points)::BIGINT AS points,"),
              False: _CELLS_AGG_SQL.format(points="")}


@cached(ttl=ANALYSIS_TTL_S)
def cell_action_counts(db: str, run_id: str, map_id: str, faction: str | None = None,
                       won: bool | None = None, n_players: int | None = None,
                       bot: str | None = None, version: str = "",
                       points: bool = True) -> pl.DataFrame:
    """Per map cell and action of one map: the moves made there and (``points``) the points
    they scored, for the selected players (faction, winners or losers), with the games and
    player-games they rest on (the same on every row). One scan of the moves serves every
    action; without ``points`` the frame has no ``points`` column and costs half as much."""
    params = _params(run_id, n_players, map_id, bot, faction=faction, won=won)
    if core.aggregated(db, run_id):
        return core.read_frame(db, _CELLS_AGG[points], params)
    every_player = faction is None and won is None and bot is None
    return core.read_frame(db, _CELL_COUNTS_SQL[every_player, points], params)


def cell_counts(db: str, run_id: str, map_id: str, faction: str | None = None,
                won: bool | None = None, action: str | None = None,
                n_players: int | None = None, bot: str | None = None,
                version: str = "", points: bool = True) -> pl.DataFrame:
    """Per map cell: moves (of ``action``, or all) and (``points``) their points, with
    ``games`` and ``player_games``; no row for a cell where nothing happened."""
    frame = cell_action_counts(db, run_id, map_id, faction, won, n_players, bot, version,
                               points)
    if action is not None:
        frame = frame.filter(pl.col("action") == action)
    sums = [pl.col("moves").sum(), *([pl.col("points").sum()] if points else [])]
    return (frame.group_by("cell").agg(*sums, pl.col("games").first(),
                                       pl.col("player_games").first())
            .sort("cell"))
