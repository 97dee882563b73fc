"""Queries of the Runs page and the page head: the runs, one run's summary, details and
filter values."""

from __future__ import annotations

from typing import Any

import polars as pl

from . import core
from .core import ANALYSIS_TTL_S, CACHE_TTL_S, cached
from .filters import _AGG_GAMES, _FILTERED, _params


RUNS_COLUMNS = {
    "run_id": pl.Utf8,
    "created_at": pl.Datetime("us"),
    "game": pl.Utf8,
    "label": pl.Utf8,
    "variant": pl.Utf8,
    "n_games": pl.Int64,
    "status": pl.Utf8,
    "games_stored": pl.Int64,
    "rules_hash": pl.Utf8,
}

_RUNS_TEMPLATE = """
SELECT r.run_id::VARCHAR            AS run_id,
       r.created_at::TIMESTAMP      AS created_at,
       r.game::VARCHAR              AS game,
       r.label::VARCHAR             AS label,
       r.variant::VARCHAR           AS variant,
       r.n_games::BIGINT            AS n_games,
       r.status::VARCHAR            AS status,
       coalesce(g.games_stored, 0)::BIGINT AS games_stored,
       r.rules_hash::VARCHAR        AS rules_hash
FROM runs AS r
LEFT JOIN ({stored}) AS g
       ON g.run_id = r.run_id
ORDER BY r.created_at DESC NULLS LAST, r.run_id
"""
#: games stored per run, counted in the raw games table
_STORED_RAW = "SELECT run_id, count(*) AS games_stored FROM games GROUP BY run_id"
_RUNS_SQL = _RUNS_TEMPLATE.format(stored=_STORED_RAW)
#: the same from the writer's per-run game counts (agg_games: equal to the raw count for every
#: run listed in agg_runs, written in the same transactions; `delve check` verifies it), and
#: the raw count only for the runs without aggregates (``$raw``, their ids), so the runs
#: overview no longer scans a million games (issue 16)
_STORED_AGG = ("SELECT a.run_id, sum(a.games) AS games_stored FROM agg_games AS a "
               "SEMI JOIN agg_runs AS k ON k.run_id = a.run_id AND k.version = $version "
               "GROUP BY a.run_id")
#: ... plus the games written and not yet aggregated (agg_pending, issue 31): the raw count
_STORED_LAG = ("SELECT run_id, sum(games_stored) AS games_stored FROM ("
               + _STORED_AGG + " UNION ALL SELECT p.run_id, count(*) AS games_stored "
               "FROM agg_pending AS p SEMI JOIN agg_runs AS k ON k.run_id = p.run_id "
               "AND k.version = $version GROUP BY p.run_id) GROUP BY run_id")
_RAW_OTHERS = (" UNION ALL SELECT run_id, count(*) AS games_stored FROM games "
               "WHERE list_contains($raw, run_id) GROUP BY run_id")
_RUNS_AGG_SQL = _RUNS_TEMPLATE.format(stored=_STORED_AGG)
_RUNS_MIXED_SQL = _RUNS_TEMPLATE.format(stored=_STORED_AGG + _RAW_OTHERS)
_RUNS_LAG_SQL = _RUNS_TEMPLATE.format(stored=_STORED_LAG)
_RUNS_LAG_MIXED_SQL = _RUNS_TEMPLATE.format(stored=_STORED_LAG + _RAW_OTHERS)
_UNAGGREGATED_SQL = """
SELECT list(r.run_id ORDER BY r.run_id) AS raw FROM runs AS r
ANTI JOIN agg_runs AS k ON k.run_id = r.run_id AND k.version = $version
"""

# A database whose writer has created ``runs`` but not yet ``games``.
_RUNS_NO_GAMES_SQL = """
SELECT r.run_id::VARCHAR            AS run_id,
       r.created_at::TIMESTAMP      AS created_at,
       r.game::VARCHAR              AS game,
       r.label::VARCHAR             AS label,
       r.variant::VARCHAR           AS variant,
       r.n_games::BIGINT            AS n_games,
       r.status::VARCHAR            AS status,
       0::BIGINT                    AS games_stored,
       r.rules_hash::VARCHAR        AS rules_hash
FROM runs AS r
ORDER BY r.created_at DESC NULLS LAST, r.run_id
"""


def empty_runs() -> pl.DataFrame:
    return pl.DataFrame(schema=RUNS_COLUMNS)


@cached(ttl=CACHE_TTL_S)
def runs_overview(db: str) -> pl.DataFrame:
    """One row per run, newest first, with the number of games actually stored.

    Returns an empty frame (same columns) when the database has no ``runs`` table yet.
    """
    tables = core.existing_tables(db)
    if "runs" not in tables:
        return empty_runs()
    if "games" not in tables:
        return core.read_frame(db, _RUNS_NO_GAMES_SQL)
    if not core.has_aggregates(db):
        return core.read_frame(db, _RUNS_SQL)
    from pipelines.store.aggregates import VERSION

    raw = core.read_frame(db, _UNAGGREGATED_SQL, {"version": VERSION})["raw"].to_list()[0] or []
    lag = core.has_pending(db)
    if not raw:
        return core.read_frame(db, _RUNS_LAG_SQL if lag else _RUNS_AGG_SQL, {"version": VERSION})
    return core.read_frame(db, _RUNS_LAG_MIXED_SQL if lag else _RUNS_MIXED_SQL,
                           {"version": VERSION, "raw": list(raw)})


# --- one run's summary -------------------------------------------------------------

_FACTIONS_SQL = """
SELECT p.faction::VARCHAR                              AS faction,
       count(*)::BIGINT                                AS games,
       sum(CAST(p.won AS INTEGER))::BIGINT             AS wins,
       avg(CAST(p.won AS DOUBLE))                      AS win_rate,
       avg(p.score::DOUBLE)                            AS mean_score,
       stddev_samp(p.score::DOUBLE)                    AS sd_score,
       avg(1.0 / nullif(g.n_players, 0))               AS fair_share
FROM players AS p
LEFT JOIN games AS g ON g.run_id = p.run_id AND g.game_id = p.game_id
WHERE p.run_id = ?
GROUP BY p.faction
ORDER BY win_rate DESC, faction
"""


@cached(ttl=CACHE_TTL_S)
def faction_summary(db: str, run_id: str) -> pl.DataFrame:
    """Per faction of one run: player-games, wins, win rate, mean and sd of score, fair share.

    The fair share is the mean of 1 / players over the faction's games (the win rate a
    perfectly balanced faction would have).
    """
    return core.read_frame(db, _FACTIONS_SQL, [run_id])


_CATEGORIES_TEMPLATE = """
WITH totals AS (
    SELECT category::VARCHAR AS category, sum(points)::BIGINT AS points
    FROM {source} WHERE run_id = $run GROUP BY category
), seats AS (
    SELECT count(*) AS player_games FROM players WHERE run_id = $run
)
SELECT t.category,
       t.points,
       t.points / nullif(s.player_games, 0)            AS points_per_player_game,
       t.points / nullif(sum(t.points) OVER (), 0)     AS share
FROM totals AS t, seats AS s
ORDER BY t.points DESC, t.category
"""
#: the same query on the raw score events or on the writer's per-run category totals
_CATEGORIES_SQL = _CATEGORIES_TEMPLATE.format(source="score_events")
_CATEGORIES_AGG_SQL = _CATEGORIES_TEMPLATE.format(source="agg_category_totals")


@cached(ttl=CACHE_TTL_S)
def points_by_category(db: str, run_id: str) -> pl.DataFrame:
    """Score points of one run by category: total, per player-game and share of all points."""
    if core.aggregated(db, run_id):
        return core.read_frame(db, _CATEGORIES_AGG_SQL, {"run": run_id})
    return core.read_frame(db, _CATEGORIES_SQL, {"run": run_id})


# --- one run's details and its filter values ----------------------------------------------

# Per bot of one run: the games it played in and how many ended without a winner (a turn limit
# the rulebook does not score); "all bots" first.
_UNDECIDED_BY_BOT_SQL = """
WITH g AS (
    SELECT game_id, (winner_seat IS NULL AND n_players > 1) AS undecided FROM games
    WHERE run_id = $run
), gb AS (
    SELECT DISTINCT p.game_id, p.bot FROM players AS p WHERE p.run_id = $run
)
SELECT 'all bots' AS bot, count(*)::BIGINT AS games,
       (count(*) FILTER (WHERE undecided))::BIGINT AS undecided, 0 AS k FROM g
UNION ALL
SELECT gb.bot, count(*)::BIGINT, (count(*) FILTER (WHERE g.undecided))::BIGINT, 1
FROM gb JOIN g USING (game_id) GROUP BY gb.bot
ORDER BY k, bot
"""


@cached(ttl=CACHE_TTL_S)
def undecided_by_bot(db: str, run_id: str, version: str = "") -> pl.DataFrame:
    """The games without a winner, for the whole run and per bot (the games it played in):
    bot, games, undecided, share with its 95% Wilson interval."""
    from pipelines import stats

    frame = core.read_frame(db, _UNDECIDED_BY_BOT_SQL, {"run": run_id}).drop("k")
    cis = [stats.rate_ci(u, n) for u, n in zip(frame["undecided"], frame["games"])]
    return frame.with_columns(pl.Series("share", [c.rate for c in cis], dtype=pl.Float64),
                              pl.Series("low", [c.low for c in cis], dtype=pl.Float64),
                              pl.Series("high", [c.high for c in cis], dtype=pl.Float64))


_DETAILS_SQL = """
SELECT r.*, (SELECT count(*) FROM games AS g WHERE g.run_id = r.run_id)::BIGINT AS games_stored
FROM runs AS r WHERE r.run_id = $run
"""
#: the same count from agg_games and agg_pending (as in runs_overview), for an aggregated run
_DETAILS_AGG_SQL = """
SELECT r.*, ((SELECT coalesce(sum(a.games), 0) FROM agg_games AS a WHERE a.run_id = r.run_id)
             + (SELECT count(*) FROM agg_pending AS p WHERE p.run_id = r.run_id))::BIGINT
            AS games_stored
FROM runs AS r WHERE r.run_id = $run
"""
_DETAILS_AGG_OLD_SQL = """
SELECT r.*, (SELECT coalesce(sum(a.games), 0) FROM agg_games AS a
             WHERE a.run_id = r.run_id)::BIGINT AS games_stored
FROM runs AS r WHERE r.run_id = $run
"""


@cached(ttl=CACHE_TTL_S)
def run_details(db: str, run_id: str) -> dict[str, Any] | None:
    """The run's row of ``runs`` (every stored column) plus ``games_stored``, or None."""
    sql = _DETAILS_SQL
    if core.aggregated(db, run_id):
        sql = _DETAILS_AGG_SQL if core.has_pending(db) else _DETAILS_AGG_OLD_SQL
    frame = core.read_frame(db, sql, {"run": run_id})
    return frame.row(0, named=True) if frame.height else None


def run_config(details: dict[str, Any]) -> dict[str, Any]:
    """A run's `config` (its `runs` row as a dict, `run_details`) as a dict: {} when it is
    missing or not a JSON object."""
    import json
    cfg = details.get("config") or {}
    if isinstance(cfg, str):
        try:
            cfg = json.loads(cfg)
        except ValueError:
            return {}
    return cfg if isinstance(cfg, dict) else {}


_OPTIONS_SQL = """
SELECT
  (SELECT list(DISTINCT n_players ORDER BY n_players) FROM games WHERE run_id = $run) AS n_players,
  (SELECT list(DISTINCT map ORDER BY map) FROM games WHERE run_id = $run AND map IS NOT NULL) AS maps,
  (SELECT list(DISTINCT bot ORDER BY bot) FROM players WHERE run_id = $run AND bot IS NOT NULL) AS bots,
  (SELECT list(DISTINCT faction ORDER BY faction) FROM players WHERE run_id = $run) AS factions
"""


_OPTIONS_AGG_SQL = """
SELECT
  (SELECT list(DISTINCT n_players ORDER BY n_players) FROM agg_games WHERE run_id = $run) AS n_players,
  (SELECT list(DISTINCT map ORDER BY map) FROM agg_games WHERE run_id = $run AND map IS NOT NULL) AS maps,
  (SELECT list(DISTINCT bot ORDER BY bot) FROM agg_seats WHERE run_id = $run AND bot IS NOT NULL) AS bots,
  (SELECT list(DISTINCT faction ORDER BY faction) FROM agg_seats WHERE run_id = $run) AS factions
"""


@cached(ttl=ANALYSIS_TTL_S)
def filter_options(db: str, run_id: str, version: str = "") -> dict[str, list]:
    """The player counts, maps, bots and factions present in a run (for the filter widgets)."""
    sql = _OPTIONS_AGG_SQL if core.aggregated(db, run_id) else _OPTIONS_SQL
    row = core.read_frame(db, sql, {"run": run_id}).row(0, named=True)
    return {k: list(v or []) for k, v in row.items()}


@cached(ttl=ANALYSIS_TTL_S)
def games_count(db: str, run_id: str, n_players: int | None = None, map_id: str | None = None,
                bot: str | None = None, version: str = "") -> int:
    """How many games of the run pass the filters."""
    if core.aggregated(db, run_id):
        sql = "SELECT coalesce(sum(games), 0)::BIGINT AS n FROM agg_games WHERE " + _AGG_GAMES
        params = {"run": run_id, "np": n_players, "map": map_id}
    else:
        sql = _FILTERED + "SELECT count(*)::BIGINT AS n FROM fg"
        params = _params(run_id, n_players, map_id, bot)
    frame = core.read_frame(db, sql, params)
    return int(frame["n"][0])


# --- liveness: live, stalled, done or failed ------------------------------------------------

_LIVENESS_COLUMNS = ("host", "pid", "heartbeat_at")


def run_states(db: str) -> dict[str, Any]:
    """(uncached: it depends on the clock and on processes) run id -> its
    `pipelines.store.liveness.Liveness`: running, stalled (with since and why), done, failed."""
    from pipelines.store.liveness import liveness
    have = set(core.read_frame(
        db, "SELECT column_name FROM information_schema.columns WHERE table_name = 'runs'",
        busy_timeout_s=1.0)["column_name"].to_list())
    if "run_id" not in have:
        return {}
    extra = ", ".join(f"r.{c}" if c in have else f"NULL AS {c}" for c in _LIVENESS_COLUMNS)
    sql = "SELECT r.run_id, r.status, " + extra + " FROM runs AS r"  # column names: constants
    frame = core.read_frame(db, sql, busy_timeout_s=1.0)
    return {row["run_id"]: liveness(row) for row in frame.iter_rows(named=True)}


def launched_run(db: str, host: str, pid: int) -> dict[str, Any] | None:
    """(uncached) the newest run written by process `pid` on `host` (a launched job's run)."""
    have = set(core.read_frame(
        db, "SELECT column_name FROM information_schema.columns WHERE table_name = 'runs'",
        busy_timeout_s=1.0)["column_name"].to_list())
    if not {"host", "pid"} <= have:
        return None
    frame = core.read_frame(
        db, "SELECT run_id, status, n_games, games_done FROM runs WHERE host = ? AND pid = ? "
            "ORDER BY created_at DESC LIMIT 1", [host, pid], busy_timeout_s=1.0)
    return frame.row(0, named=True) if frame.height else None
