"""All the dashboard's SQL, aggregated in DuckDB and cached as small DataFrames.

Every query opens the database read-only, runs, and closes it again, so a simulation can
take the write lock between the dashboard's reads. When a writer holds the file, DuckDB
refuses the read-only open with an IO "lock" error; we retry with a short backoff for
``BUSY_TIMEOUT_S`` seconds and then raise :class:`DatabaseBusy`, which the pages turn into
a friendly message. Values are always bound as parameters, never formatted into SQL.

The cached functions (``st.cache_data``, a few seconds' ttl so a running simulation shows
progress) only ever return aggregates, never raw move tables.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import streamlit as st

#: How long a query keeps retrying while a writer holds the database file.
BUSY_TIMEOUT_S = 4.0
#: First pause between retries; doubles up to ``BACKOFF_MAX_S``.
BACKOFF_START_S = 0.05
BACKOFF_MAX_S = 0.5
#: Cache lifetime of aggregated results, in seconds.
CACHE_TTL_S = 3

CONTRACT_TABLES = ("runs", "games", "players", "moves", "score_events", "map_cells")


class DashboardDataError(Exception):
    """A problem with the database that the pages explain to the user in plain words."""


class DatabaseMissing(DashboardDataError):
    """The database file does not exist yet (no simulation has been run)."""


class DatabaseBusy(DashboardDataError):
    """A writer held the database for longer than the retry window."""


class DatabaseUnreadable(DashboardDataError):
    """The file exists but DuckDB cannot read it (not a DuckDB file, wrong version...)."""


class SchemaMismatch(DashboardDataError):
    """The database lacks a table or column of the Delve contract."""


def _is_lock_error(exc: BaseException) -> bool:
    return isinstance(exc, duckdb.IOException) and "lock" in str(exc).lower()


def read_frame(
    db: str | Path,
    sql: str,
    params: Sequence[Any] = (),
    *,
    busy_timeout_s: float | None = None,
) -> pl.DataFrame:
    """Run one parameterised query on a fresh read-only connection and return a polars frame.

    Retries while another process holds the write lock, for ``busy_timeout_s`` seconds
    (default ``BUSY_TIMEOUT_S``), then raises :class:`DatabaseBusy`.
    """
    path = Path(db)
    if not path.is_file():
        raise DatabaseMissing(f"No database at {path}.")
    timeout = BUSY_TIMEOUT_S if busy_timeout_s is None else busy_timeout_s
    deadline = time.monotonic() + timeout
    pause = BACKOFF_START_S
    while True:
        try:
            con = duckdb.connect(str(path), read_only=True)
        except duckdb.IOException as exc:
            if not _is_lock_error(exc):
                raise DatabaseUnreadable(
                    f"{path} exists but is not a readable DuckDB database."
                ) from exc
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise DatabaseBusy(
                    f"{path} is busy: another process is writing to it."
                ) from exc
            time.sleep(min(pause, remaining))
            pause = min(pause * 2, BACKOFF_MAX_S)
            continue
        try:
            return con.execute(sql, list(params)).pl()
        except (duckdb.CatalogException, duckdb.BinderException) as exc:
            raise SchemaMismatch(
                f"{path} does not match the Delve tables: {exc}"
            ) from exc
        finally:
            con.close()


# --- the tables present ------------------------------------------------------------

_TABLES_SQL = """
SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main'
UNION
SELECT view_name FROM duckdb_views() WHERE schema_name = 'main' AND NOT internal
"""


def existing_tables(db: str | Path) -> set[str]:
    """Which of the contract tables exist in the database (uncached: a cheap catalogue read)."""
    frame = read_frame(db, _TABLES_SQL)
    return set(frame["table_name"].to_list()) & set(CONTRACT_TABLES)


# --- runs overview -----------------------------------------------------------------

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

_RUNS_SQL = """
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
LEFT JOIN (SELECT run_id, count(*) AS games_stored FROM games GROUP BY run_id) AS g
       ON g.run_id = r.run_id
ORDER BY r.created_at DESC NULLS LAST, r.run_id
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


@st.cache_data(ttl=CACHE_TTL_S, show_spinner=False)
def runs_overview(db: str) -> pl.DataFrame:
    """One row per run, newest first, with the number of games actually stored.

    Returns an empty frame (same columns) when the database has no ``runs`` table yet.
    """
    tables = existing_tables(db)
    if "runs" not in tables:
        return empty_runs()
    sql = _RUNS_SQL if "games" in tables else _RUNS_NO_GAMES_SQL
    return read_frame(db, sql)


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


@st.cache_data(ttl=CACHE_TTL_S, show_spinner=False)
def faction_summary(db: str, run_id: str) -> pl.DataFrame:
    """Per faction of one run: player-games, wins, win rate, mean and sd of score, fair share.

    The fair share is the mean of 1 / players over the faction's games (the win rate a
    perfectly balanced faction would have).
    """
    return read_frame(db, _FACTIONS_SQL, [run_id])


_CATEGORIES_SQL = """
WITH totals AS (
    SELECT category::VARCHAR AS category, sum(points)::BIGINT AS points
    FROM score_events
    WHERE run_id = ?
    GROUP BY category
), seats AS (
    SELECT count(*) AS player_games FROM players WHERE run_id = ?
)
SELECT t.category,
       t.points,
       t.points / nullif(s.player_games, 0)            AS points_per_player_game,
       t.points / nullif(sum(t.points) OVER (), 0)     AS share
FROM totals AS t, seats AS s
ORDER BY t.points DESC, t.category
"""


@st.cache_data(ttl=CACHE_TTL_S, show_spinner=False)
def points_by_category(db: str, run_id: str) -> pl.DataFrame:
    """Score points of one run by category: total, per player-game and share of all points."""
    return read_frame(db, _CATEGORIES_SQL, [run_id, run_id])
