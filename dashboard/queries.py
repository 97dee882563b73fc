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

import functools
import inspect
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
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
#: Cache lifetime of a run's analyses. They take the run's data ``version`` (games stored and
#: status, from the 3-second runs overview) as an argument, so new games show at once while an
#: unchanged run is served from the cache.
ANALYSIS_TTL_S = 3600

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


def cached(ttl: float) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``st.cache_data`` whose key is the call's meaning, not its spelling.

    Streamlit keys a cached call on how its arguments were passed: ``f(db, run, None)`` and
    ``f(db, run, faction=None)`` are two entries, computed twice. Here every call is bound to
    the signature, defaults filled in, and passed on positionally, so the pages, the helpers
    that call one another and the prefetch all share one entry per meaning.
    """
    def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
        cached_fn = st.cache_data(ttl=ttl, show_spinner=False)(fn)
        signature = inspect.signature(fn)

        @functools.wraps(fn)
        def call(*args: Any, **kwargs: Any) -> Any:
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            return cached_fn(*bound.args)

        call.clear = cached_fn.clear  # type: ignore[attr-defined]
        return call
    return wrap


def _is_lock_error(exc: BaseException) -> bool:
    return isinstance(exc, duckdb.IOException) and "lock" in str(exc).lower()


_local = threading.local()


@contextmanager
def batch(db: str | Path) -> Iterator[None]:
    """Let the queries of one page render share one read-only connection to ``db``.

    Inside the block, :func:`read_frame` opens the database once (with the usual retry) and
    reuses the connection, so the page's queries share DuckDB's buffer pool instead of each
    reading the tables afresh; the connection closes when the block ends (the page is drawn),
    so a simulation gets the file back after at most one page render. Per thread (Streamlit
    runs each session in its own thread); nested blocks reuse the outer one.
    """
    if getattr(_local, "db", None) is not None:
        yield
        return
    _local.db, _local.con = str(Path(db)), None
    try:
        yield
    finally:
        con, _local.db, _local.con = _local.con, None, None
        if con is not None:
            con.close()


#: Worker threads that run a page's independent queries beside the page's own thread.
BACKGROUND_WORKERS = 2
_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def start(db: str | Path, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Future:
    """Begin a cached helper's call ``fn(db, *args, **kwargs)`` in a worker thread.

    A page starts its independent queries first, then loads each as usual, in its own order:
    it finds the value cached, or waits for the worker computing it (Streamlit computes one
    cache key once at a time), so nothing runs twice. DuckDB releases the GIL, so the queries
    and the page's Python work (statistics, figures) overlap. The worker reads through its own
    read-only connection (one :func:`batch`), which shares the open database with the page's.
    A worker's error is dropped on purpose: the page's own call then runs the query again and
    shows the error the usual, friendly way.
    """
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(BACKGROUND_WORKERS, thread_name_prefix="delve-query")
    return _pool.submit(_in_worker, str(db), fn, args, kwargs)


def _in_worker(db: str, fn: Callable[..., Any], args: tuple, kwargs: dict) -> None:
    try:
        with batch(db):
            fn(db, *args, **kwargs)
    except Exception:  # noqa: BLE001 - the page's own call reports it (see start)
        pass


def _connect(path: Path, timeout: float) -> duckdb.DuckDBPyConnection:
    """Open ``path`` read-only, retrying while a writer holds it (then DatabaseBusy)."""
    deadline = time.monotonic() + timeout
    pause = BACKOFF_START_S
    while True:
        try:
            return duckdb.connect(str(path), read_only=True)
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


def read_frame(
    db: str | Path,
    sql: str,
    params: Sequence[Any] | Mapping[str, Any] = (),
    *,
    busy_timeout_s: float | None = None,
) -> pl.DataFrame:
    """Run one parameterised query on a read-only connection and return a polars frame.

    The connection is fresh and closed right after, or, inside :func:`batch`, the page's
    shared one. Retries while another process holds the write lock, for ``busy_timeout_s``
    seconds (default ``BUSY_TIMEOUT_S``), then raises :class:`DatabaseBusy`.
    """
    path = Path(db)
    if not path.is_file():
        raise DatabaseMissing(f"No database at {path}.")
    timeout = BUSY_TIMEOUT_S if busy_timeout_s is None else busy_timeout_s
    shared = getattr(_local, "db", None) == str(path)
    if shared and _local.con is None:
        _local.con = _connect(path, timeout)
    con = _local.con if shared else _connect(path, timeout)
    try:
        bound = dict(params) if isinstance(params, Mapping) else list(params)
        return con.execute(sql, bound).pl()
    except (duckdb.CatalogException, duckdb.BinderException) as exc:
        raise SchemaMismatch(
            f"{path} does not match the Delve tables: {exc}"
        ) from exc
    finally:
        if not shared:
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


@cached(ttl=CACHE_TTL_S)
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


@cached(ttl=CACHE_TTL_S)
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


@cached(ttl=CACHE_TTL_S)
def points_by_category(db: str, run_id: str) -> pl.DataFrame:
    """Score points of one run by category: total, per player-game and share of all points."""
    return read_frame(db, _CATEGORIES_SQL, [run_id, run_id])


# --- filters shared by the analysis pages -------------------------------------------------
#
# Every analysis query starts from the same two CTEs: the run's games that pass the game
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
        )
    table = stats.rate_table(frame[wins].to_list(), frame[n].to_list(), frame[p0].to_list())
    return frame.with_columns(
        [pl.Series(k, v, dtype=pl.Boolean if k == "significant" else pl.Float64)
         for k, v in table.items()]
    )


# --- one run's details and its filter values ----------------------------------------------

@cached(ttl=CACHE_TTL_S)
def run_details(db: str, run_id: str) -> dict[str, Any] | None:
    """The run's row of ``runs`` (every stored column) plus ``games_stored``, or None."""
    frame = read_frame(
        db,
        "SELECT r.*, (SELECT count(*) FROM games AS g WHERE g.run_id = r.run_id)::BIGINT "
        "AS games_stored FROM runs AS r WHERE r.run_id = $run",
        {"run": run_id},
    )
    return frame.row(0, named=True) if frame.height else None


_OPTIONS_SQL = """
SELECT
  (SELECT list(DISTINCT n_players ORDER BY n_players) FROM games WHERE run_id = $run) AS n_players,
  (SELECT list(DISTINCT map ORDER BY map) FROM games WHERE run_id = $run AND map IS NOT NULL) AS maps,
  (SELECT list(DISTINCT bot ORDER BY bot) FROM players WHERE run_id = $run AND bot IS NOT NULL) AS bots,
  (SELECT list(DISTINCT faction ORDER BY faction) FROM players WHERE run_id = $run) AS factions
"""


@cached(ttl=ANALYSIS_TTL_S)
def filter_options(db: str, run_id: str, version: str = "") -> dict[str, list]:
    """The player counts, maps, bots and factions present in a run (for the filter widgets)."""
    row = read_frame(db, _OPTIONS_SQL, {"run": run_id}).row(0, named=True)
    return {k: list(v or []) for k, v in row.items()}


@cached(ttl=ANALYSIS_TTL_S)
def games_count(db: str, run_id: str, n_players: int | None = None, map_id: str | None = None,
                bot: str | None = None, version: str = "") -> int:
    """How many games of the run pass the filters."""
    sql = _FILTERED + "SELECT count(*)::BIGINT AS n FROM fg"
    frame = read_frame(db, sql, _params(run_id, n_players, map_id, bot))
    return int(frame["n"][0])


# --- factions -----------------------------------------------------------------------------

_FACTION_RATES_SQL = _FILTERED + """
SELECT faction::VARCHAR                      AS faction,
       count(*)::BIGINT                      AS games,
       sum(CAST(won AS INTEGER))::BIGINT     AS wins,
       avg(1 / n_players::DECIMAL(18, 12))::DOUBLE AS fair_share,
       avg(score)::DOUBLE                    AS mean_score,
       sqrt(((count(*) * sum(score::HUGEINT * score) - sum(score::HUGEINT) ^ 2)::DOUBLE)
            / nullif(count(*) * (count(*) - 1), 0)) AS sd_score
FROM fp GROUP BY faction ORDER BY faction
"""


@cached(ttl=ANALYSIS_TTL_S)
def faction_rates(db: str, run_id: str, n_players: int | None = None,
                  map_id: str | None = None, bot: str | None = None, version: str = "") -> pl.DataFrame:
    """Per faction: player-games, wins, fair share, mean/sd score, and the win rate with its
    Wilson interval, binomial p-value against the fair share and Holm mark."""
    frame = read_frame(db, _FACTION_RATES_SQL, _params(run_id, n_players, map_id, bot))
    return _with_rates(frame).with_columns(pl.col("rate").alias("win_rate"))


_SCORE_QUANTILES_SQL = _FILTERED + """
SELECT faction::VARCHAR AS faction, count(*)::BIGINT AS n,
       avg(score)::DOUBLE AS mean, min(score)::DOUBLE AS min,
       quantile_cont(score, 0.05) AS p05, quantile_cont(score, 0.25) AS q1,
       quantile_cont(score, 0.5) AS median, quantile_cont(score, 0.75) AS q3,
       quantile_cont(score, 0.95) AS p95, max(score)::DOUBLE AS max
FROM fp GROUP BY faction ORDER BY faction
"""


@cached(ttl=ANALYSIS_TTL_S)
def score_quantiles(db: str, run_id: str, n_players: int | None = None,
                    map_id: str | None = None, bot: str | None = None, version: str = "") -> pl.DataFrame:
    """Final-score distribution per faction as quantiles (a box plot without the raw rows)."""
    return read_frame(db, _SCORE_QUANTILES_SQL, _params(run_id, n_players, map_id, bot))


# One pass over the players feeds both groupings (GROUPING SETS), not a UNION of two scans.
_SEAT_RATES_SQL = _FILTERED + """
SELECT CASE WHEN grouping(seat) = 0 THEN 'seat' ELSE 'turn order' END AS kind,
       coalesce(seat, turn_position)::INTEGER AS position, count(*)::BIGINT AS games,
       sum(CAST(won AS INTEGER))::BIGINT AS wins,
       avg(1 / n_players::DECIMAL(18, 12))::DOUBLE AS fair_share, avg(score)::DOUBLE AS mean_score
FROM fp GROUP BY GROUPING SETS ((seat), (turn_position))
ORDER BY kind, position
"""


@cached(ttl=ANALYSIS_TTL_S)
def seat_rates(db: str, run_id: str, n_players: int | None = None,
               map_id: str | None = None, bot: str | None = None, version: str = "") -> pl.DataFrame:
    """Win rate by table seat and by turn order (0 = the first player), with intervals and
    Holm marks against the fair share (corrected within each kind)."""
    frame = read_frame(db, _SEAT_RATES_SQL, _params(run_id, n_players, map_id, bot))
    parts = [_with_rates(frame.filter(pl.col("kind") == k)) for k in ("seat", "turn order")]
    return pl.concat(parts, how="vertical_relaxed")


_MATRIX_SQL = _FILTERED + """
SELECT a.faction::VARCHAR AS faction, b.faction::VARCHAR AS opponent,
       count(*)::BIGINT AS games, sum(CAST(a.won AS INTEGER))::BIGINT AS wins,
       avg(1 / a.n_players::DECIMAL(18, 12))::DOUBLE AS fair_share
FROM fp AS a
JOIN players AS b ON b.game_id = a.game_id AND b.seat <> a.seat
WHERE b.run_id = $run
GROUP BY a.faction, b.faction
ORDER BY a.faction, b.faction
"""


@cached(ttl=ANALYSIS_TTL_S)
def faction_matrix(db: str, run_id: str, n_players: int | None = None,
                   map_id: str | None = None, bot: str | None = None, version: str = "") -> pl.DataFrame:
    """Win rate of each faction in the games that include each other faction, with Wilson
    intervals and Holm marks (over all cells) where the interval excludes the fair share."""
    frame = read_frame(db, _MATRIX_SQL, _params(run_id, n_players, map_id, bot))
    return _with_rates(frame)


#: Seats the strength model's pivot handles (a constant of the SQL text below).
LINEUP_SEATS = 8

# One row per distinct table: the faction and bot in each seat (a pivot with a constant list of
# seats: hash aggregation, no per-game sorting), who won as a bit mask, and how many games.
_LINEUPS_SQL = _GAME_IDS + """, tables AS (
    SELECT
           max(CASE WHEN p.seat = 0 THEN p.faction END) AS f0, max(CASE WHEN p.seat = 0 THEN coalesce(p.bot, '') END) AS b0,
           max(CASE WHEN p.seat = 1 THEN p.faction END) AS f1, max(CASE WHEN p.seat = 1 THEN coalesce(p.bot, '') END) AS b1,
           max(CASE WHEN p.seat = 2 THEN p.faction END) AS f2, max(CASE WHEN p.seat = 2 THEN coalesce(p.bot, '') END) AS b2,
           max(CASE WHEN p.seat = 3 THEN p.faction END) AS f3, max(CASE WHEN p.seat = 3 THEN coalesce(p.bot, '') END) AS b3,
           max(CASE WHEN p.seat = 4 THEN p.faction END) AS f4, max(CASE WHEN p.seat = 4 THEN coalesce(p.bot, '') END) AS b4,
           max(CASE WHEN p.seat = 5 THEN p.faction END) AS f5, max(CASE WHEN p.seat = 5 THEN coalesce(p.bot, '') END) AS b5,
           max(CASE WHEN p.seat = 6 THEN p.faction END) AS f6, max(CASE WHEN p.seat = 6 THEN coalesce(p.bot, '') END) AS b6,
           max(CASE WHEN p.seat = 7 THEN p.faction END) AS f7, max(CASE WHEN p.seat = 7 THEN coalesce(p.bot, '') END) AS b7,
           sum(CAST(p.won AS BIGINT) << p.seat)::BIGINT AS won_mask, max(p.seat) AS top_seat,
           count(*) AS seats
    FROM players AS p SEMI JOIN fg ON fg.game_id = p.game_id
    WHERE p.run_id = $run
    GROUP BY p.game_id
)
SELECT f0, b0, f1, b1, f2, b2, f3, b3, f4, b4, f5, b5, f6, b6, f7, b7, won_mask, max(top_seat) AS top_seat, max(seats) AS seats,
       count(*)::BIGINT AS games
FROM tables GROUP BY ALL ORDER BY ALL  -- a total order: the fit sums in the same order
"""


def _lineups(frame: pl.DataFrame):
    """Distinct tables (seat, faction, bot per seat; who won) -> the strength model's input."""
    for row in frame.iter_rows(named=True):
        if row["top_seat"] >= LINEUP_SEATS or row["seats"] != row["top_seat"] + 1:
            raise SchemaMismatch(f"the strength model handles tables of seats 0..{LINEUP_SEATS - 1}")
        n = row["seats"]
        yield ([row[f"f{i}"] for i in range(n)], [str(i) for i in range(n)],
               [row[f"b{i}"] for i in range(n)],
               [(row["won_mask"] >> i) & 1 for i in range(n)], row["games"])


@cached(ttl=ANALYSIS_TTL_S)
def strength_model(db: str, run_id: str, n_players: int | None = None,
                   map_id: str | None = None, version: str = "") -> tuple[pl.DataFrame, int]:
    """Faction strengths controlling for seat (and bot, when bots vary within a seat): Luce's
    winner-choice model fitted on the distinct tables of the run (pipelines.stats).

    Returns (terms, games): one row per term with ``kind``, ``level``, ``estimate`` (log-
    strength), ``low``, ``high`` and ``odds`` (= exp(estimate)); and the games it rests on.
    """
    from pipelines import stats

    lineups = read_frame(db, _LINEUPS_SQL, {"run": run_id, "np": n_players, "map": map_id})
    fit = stats.luce_winner_model(_lineups(lineups))
    frame = pl.DataFrame(
        [{"kind": t.kind, "level": t.level, "estimate": t.estimate, "low": t.low,
          "high": t.high} for t in fit.terms],
        schema={"kind": pl.Utf8, "level": pl.Utf8, "estimate": pl.Float64, "low": pl.Float64,
                "high": pl.Float64},
    )
    return frame.with_columns(pl.col("estimate").exp().alias("odds")), fit.n_games


# --- scoring ------------------------------------------------------------------------------

TOTAL_SCORE = "(total score)"

# The per-player-game category totals: of every game of the run, or, when a game filter (player
# count, map) leaves only some, of those games only, cut before the grouping (the grouping of
# about a third of the events' rows is the cost of this query; the cut itself costs ~5%).
_SCORE_SUMS = """
, sums AS (
    SELECT s.game_id, s.seat, s.category, sum(s.points) AS points
    FROM score_events AS s{cut}
    WHERE s.run_id = $run GROUP BY ALL
)"""
_SCORING_FREQUENCIES = """
, cells AS (
    SELECT fp.faction, fp.won, sums.category, sums.points
    FROM sums JOIN fp ON fp.game_id = sums.game_id AND fp.seat = sums.seat
    UNION ALL
    SELECT fp.faction, fp.won, $total AS category, fp.score AS points FROM fp
)
SELECT faction::VARCHAR AS faction, won, category::VARCHAR AS category,
       points::DOUBLE AS points, count(*)::BIGINT AS count
FROM cells GROUP BY ALL
UNION ALL
SELECT faction::VARCHAR, won, NULL, NULL, count(*)::BIGINT FROM fp GROUP BY ALL
"""
_SCORING_SQL = _FILTERED + _SCORE_SUMS.format(cut="") + _SCORING_FREQUENCIES
_SCORING_OF_GAMES_SQL = (_FILTERED
                         + _SCORE_SUMS.format(cut=" SEMI JOIN fg ON fg.game_id = s.game_id")
                         + _SCORING_FREQUENCIES)

_SCORING_SCHEMA = {"kind": pl.Utf8, "faction": pl.Utf8, "won": pl.Boolean, "category": pl.Utf8,
                   "n": pl.Int64, "mean": pl.Float64, "var": pl.Float64, "min": pl.Float64,
                   "q1": pl.Float64, "median": pl.Float64, "q3": pl.Float64, "max": pl.Float64}


@cached(ttl=ANALYSIS_TTL_S)
def scoring_stats(db: str, run_id: str, n_players: int | None = None,
                  map_id: str | None = None, bot: str | None = None, version: str = "") -> pl.DataFrame:
    """Points per player-game by score category (a player who scored nothing in a category
    counts as 0) and the final score as the category ``(total score)``: n, mean, variance,
    min, quartiles and max, by faction (``kind = 'faction'``) and by outcome (``kind =
    'outcome'``, ``won``). DuckDB returns a frequency table (faction, won, category, points,
    count) — small, whatever the number of games — and the exact statistics are computed from
    it (pipelines.stats.weighted_summary)."""
    from pipelines import stats

    sql = _SCORING_SQL if n_players is None and map_id is None else _SCORING_OF_GAMES_SQL
    freq = read_frame(db, sql, _params(run_id, n_players, map_id, bot, total=TOTAL_SCORE))
    players = freq.filter(pl.col("category").is_null()).select("faction", "won", pl.col("count").alias("n"))
    cells = freq.filter(pl.col("category").is_not_null())
    categories = sorted(c for c in cells["category"].unique().to_list() if c != TOTAL_SCORE)
    # the players who scored nothing in a category: the zeros the score events do not hold
    seen = cells.filter(pl.col("category") != TOTAL_SCORE).group_by("faction", "won", "category").agg(
        pl.col("count").sum().alias("seen"))
    grid = players.join(pl.DataFrame({"category": categories}, schema={"category": pl.Utf8}),
                        how="cross")
    zeros = (grid.join(seen, on=["faction", "won", "category"], how="left")
             .with_columns((pl.col("n") - pl.col("seen").fill_null(0)).alias("count"),
                           pl.lit(0.0).alias("points"))
             .filter(pl.col("count") > 0)
             .select("faction", "won", "category", "points", "count"))
    full = pl.concat([cells.select("faction", "won", "category", "points", "count"), zeros])
    rows = []
    for kind, keys in (("faction", ["faction", "category"]), ("outcome", ["won", "category"])):
        grouped = full.group_by(*keys, "points").agg(pl.col("count").sum())
        for key, part in grouped.group_by(*keys):
            summary = stats.weighted_summary(part["points"].to_list(), part["count"].to_list())
            row = dict(zip(keys, key, strict=True))
            rows.append({"kind": kind, "faction": row.get("faction"), "won": row.get("won"),
                         "category": row["category"], **summary})
    return pl.DataFrame(rows, schema=_SCORING_SCHEMA).sort("kind", "faction", "won", "category",
                                                          nulls_last=True)


@cached(ttl=ANALYSIS_TTL_S)
def category_by_faction(db: str, run_id: str, n_players: int | None = None,
                        map_id: str | None = None, bot: str | None = None, version: str = "") -> pl.DataFrame:
    """Points per player-game by score category and faction: mean, variance and quantiles
    (a player who scored nothing in a category counts as 0)."""
    frame = scoring_stats(db, run_id, n_players, map_id, bot, version)
    return (frame.filter((pl.col("kind") == "faction") & (pl.col("category") != TOTAL_SCORE))
            .drop("kind", "won").sort("faction", "category"))


_ROUND_SQL = _FILTERED + """
, per_round AS (
    SELECT fp.faction, fp.won, s.round, sum(s.points)::DOUBLE AS points
    FROM score_events AS s
    JOIN fp ON fp.game_id = s.game_id AND fp.seat = s.seat
    WHERE s.run_id = $run
    GROUP BY ALL
), n AS (SELECT faction, won, count(*) AS n FROM fp GROUP BY ALL)
SELECT r.faction::VARCHAR AS faction, r.won AS won, r.round::INTEGER AS round,
       (sum(r.points) / any_value(n.n))::DOUBLE AS points, any_value(n.n)::BIGINT AS n
FROM per_round AS r JOIN n ON n.faction = r.faction AND n.won = r.won
GROUP BY r.faction, r.won, r.round
ORDER BY r.faction, r.won, r.round
"""


@cached(ttl=ANALYSIS_TTL_S)
def points_by_round(db: str, run_id: str, n_players: int | None = None,
                    map_id: str | None = None, bot: str | None = None, version: str = "") -> pl.DataFrame:
    """Mean points scored in each round per player-game, by faction and outcome (won).
    Callers re-aggregate over ``won`` with the weights ``n``."""
    return read_frame(db, _ROUND_SQL, _params(run_id, n_players, map_id, bot))


@cached(ttl=ANALYSIS_TTL_S)
def winners_vs_losers(db: str, run_id: str, n_players: int | None = None,
                      map_id: str | None = None, bot: str | None = None, version: str = "") -> pl.DataFrame:
    """Per category: mean points of winners and of losers, the difference with its Welch
    interval (pipelines.stats) and Holm marks; sorted by the difference."""
    from pipelines import stats

    frame = scoring_stats(db, run_id, n_players, map_id, bot, version).filter(pl.col("kind") == "outcome")
    rows = []
    for cat in frame["category"].unique(maintain_order=True).to_list():
        part = {r["won"]: r for r in frame.filter(pl.col("category") == cat).iter_rows(named=True)}
        win, lose = part.get(True), part.get(False)
        if win is None or lose is None:
            continue
        d, lo, hi, p = stats.diff_ci_summary(lose["mean"], lose["var"], lose["n"],
                                             win["mean"], win["var"], win["n"])
        rows.append({"category": cat, "winners": win["mean"], "losers": lose["mean"],
                     "n_winners": win["n"], "n_losers": lose["n"], "difference": d,
                     "low": lo, "high": hi, "p_value": p})
    schema = {"category": pl.Utf8, "winners": pl.Float64, "losers": pl.Float64,
              "n_winners": pl.Int64, "n_losers": pl.Int64, "difference": pl.Float64,
              "low": pl.Float64, "high": pl.Float64, "p_value": pl.Float64}
    out = pl.DataFrame(rows, schema=schema)
    reject, adjusted = stats.holm(out["p_value"].to_list())
    return out.with_columns(pl.Series("p_holm", adjusted, dtype=pl.Float64),
                            pl.Series("significant", reject, dtype=pl.Boolean)
                            ).sort(["difference", "category"], descending=[True, False])


# --- map ----------------------------------------------------------------------------------

@cached(ttl=CACHE_TTL_S)
def map_cells(db: str, game: str, map_id: str) -> pl.DataFrame:
    """The cells of one map of a game: cell, x, y, kind (the game's own geometry)."""
    return read_frame(
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
    every_player = faction is None and won is None and bot is None
    return read_frame(db, _CELL_COUNTS_SQL[every_player, points], params)


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


# --- replay -------------------------------------------------------------------------------

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
    return read_frame(db, _GAME_LIST_SQL, {"run": run_id, "limit": limit})


@cached(ttl=60)
def game_log(db: str, run_id: str, game_id: int) -> tuple[pl.DataFrame, pl.DataFrame,
                                                          pl.DataFrame]:
    """One game's players, moves and score events (one game is small)."""
    params = {"run": run_id, "game": game_id}
    players = read_frame(
        db, "SELECT seat, faction::VARCHAR AS faction, bot::VARCHAR AS bot, score, rank, won "
            "FROM players WHERE run_id = $run AND game_id = $game ORDER BY seat", params)
    moves = read_frame(
        db, "SELECT step, round, phase::VARCHAR AS phase, seat, action::VARCHAR AS action, "
            "detail::VARCHAR AS detail, cell FROM moves WHERE run_id = $run AND game_id = $game "
            "ORDER BY step", params)
    scores = read_frame(
        db, "SELECT step, round, seat, category::VARCHAR AS category, points FROM score_events "
            "WHERE run_id = $run AND game_id = $game ORDER BY step, seat, category", params)
    return players, moves, scores
