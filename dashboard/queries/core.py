"""What every page's queries share: the read-only connection, caching, errors, the filters.

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
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import streamlit as st

from pipelines.store.connect import is_lock_error, retrying_connect

from . import background

#: How long a query keeps retrying while a writer holds the database file.
BUSY_TIMEOUT_S = 4.0
#: Cache lifetime of aggregated results, in seconds.
CACHE_TTL_S = 3
#: Cache lifetime of a run's analyses. They take the run's data ``version`` (games stored and
#: status, from the 3-second runs overview) as an argument, so new games show at once while an
#: unchanged run is served from the cache.
ANALYSIS_TTL_S = 3600

CONTRACT_TABLES = ("runs", "games", "players", "moves", "score_events", "map_cells")
PLAYTEST_TABLES = ("playtests", "playtest_players", "playtest_score_events")


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


def start(db: str | Path, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Future:
    """Begin a cached helper's call ``fn(db, *args, **kwargs)`` in the background (the page's
    lane of :mod:`dashboard.queries.background`).

    A page starts its independent queries first, then loads each as usual, in its own order:
    it finds the value cached, or waits for the worker computing it (Streamlit computes one
    cache key once at a time), so nothing runs twice. DuckDB releases the GIL, so the queries
    and the page's Python work (statistics, figures) overlap. The worker reads through its own
    read-only connection (one :func:`batch`). A worker's error is dropped on purpose: the
    page's own call then runs the query again and shows the error the usual, friendly way.
    """
    return background.submit(background.PAGE, _in_batch, str(db), fn, args, kwargs)


def _in_batch(db: str, fn: Callable[..., Any], args: tuple, kwargs: dict) -> None:
    try:
        with batch(db):
            fn(db, *args, **kwargs)
    except Exception:  # noqa: BLE001 - the page's own call reports it (see start)
        pass


def _connect(path: Path, timeout: float) -> duckdb.DuckDBPyConnection:
    """Open ``path`` read-only with the store's lock retry (``pipelines.store.connect``, the one
    retry loop of writers and readers); a writer holding it past ``timeout`` is DatabaseBusy."""
    try:
        return retrying_connect(str(path), read_only=True, timeout=timeout)
    except duckdb.Error as exc:
        if is_lock_error(exc):
            raise DatabaseBusy(f"{path} is busy: another process is writing to it.") from exc
        raise DatabaseUnreadable(f"{path} exists but is not a readable DuckDB database.") from exc


@contextmanager
def connection(db: str | Path, busy_timeout_s: float | None = None
               ) -> Iterator[duckdb.DuckDBPyConnection]:
    """A read-only connection to ``db``: inside :func:`batch`, the page's shared one (opened
    on first use); else a fresh one, closed when the block ends.  For code that reads through
    a connection of its own (the Replay page's verification, ``pipelines.run.replay``), so a
    page render opens the database once (a DuckDB instance costs about 0.1 s under load)."""
    path = Path(db)
    if not path.is_file():
        raise DatabaseMissing(f"No database at {path}.")
    timeout = BUSY_TIMEOUT_S if busy_timeout_s is None else busy_timeout_s
    if getattr(_local, "db", None) == str(path):
        if _local.con is None:
            _local.con = _connect(path, timeout)
        yield _local.con
        return
    con = _connect(path, timeout)
    try:
        yield con
    finally:
        con.close()


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
    with connection(db, busy_timeout_s) as con:
        try:
            bound = dict(params) if isinstance(params, Mapping) else list(params)
            return con.execute(sql, bound).pl()
        except (duckdb.CatalogException, duckdb.BinderException) as exc:
            raise SchemaMismatch(
                f"{Path(db)} does not match the Delve tables: {exc}"
            ) from exc


# --- the aggregates -----------------------------------------------------------------

_AGGREGATED_SQL = """
SELECT count(*) AS n FROM agg_runs WHERE run_id = $run AND version = $version
"""


#: A run's games written and not yet aggregated (issue 31), and what its liveness is read from.
_LAG_SQL = """
SELECT (SELECT count(*) FROM agg_pending WHERE run_id = $run)::BIGINT AS pending,
       status, host, pid, heartbeat_at
FROM runs WHERE run_id = $run
"""


@cached(ttl=CACHE_TTL_S)
def aggregated(db: str, run_id: str) -> bool:
    """Whether the pages read the run's aggregate tables instead of the raw tables (issue 16):
    they are maintained (``agg_runs``, the current definitions' version), and cover every game
    of the run, or the run is live.  The writer aggregates the games it writes at most one
    catch-up later (issue 31, ``agg_pending``): a live run's pages may lag by that much, and
    its last write catches up; a run with games pending whose writer is gone (killed, not yet
    resumed) is read from the raw tables, so its numbers are the raw rows'.  A database written
    before the aggregates has none (``delve aggregate`` builds them).  The environment variable
    ``DELVE_AGGREGATES=0`` makes every page read the raw tables (a benchmark's before,
    `delve bench-dashboard --raw`)."""
    from pipelines.store.aggregates import VERSION

    have = _aggregate_tables(db)
    if not {"agg_runs", "agg_games"} <= have:
        return False
    frame = read_frame(db, _AGGREGATED_SQL, {"run": run_id, "version": VERSION})
    if not frame["n"][0]:
        return False
    if "agg_pending" not in have:  # written before the lag: nothing pending
        return True
    lag = read_frame(db, _LAG_SQL, {"run": run_id})
    if not lag.height or not lag["pending"][0]:
        return True
    from pipelines.store.liveness import liveness
    return liveness(lag.row(0, named=True)).state == "running"


def has_aggregates(db: str) -> bool:
    """Whether the database has the aggregate tables (and ``DELVE_AGGREGATES=0`` is not set);
    uncached: a catalogue read."""
    return {"agg_runs", "agg_games"} <= _aggregate_tables(db)


def has_pending(db: str) -> bool:
    """Whether the database lists games written and not yet aggregated (``agg_pending``,
    issue 31; a database written before it has none); uncached: a catalogue read."""
    return "agg_pending" in _aggregate_tables(db)


def _aggregate_tables(db: str) -> set[str]:
    import os

    if os.environ.get("DELVE_AGGREGATES") == "0":
        return set()
    return set(read_frame(db, _TABLES_SQL)["table_name"].to_list())


# --- the tables present ------------------------------------------------------------

_TABLES_SQL = """
SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main'
UNION
SELECT view_name FROM duckdb_views() WHERE schema_name = 'main' AND NOT internal
"""


def existing_tables(db: str | Path) -> set[str]:
    """Which of the contract tables (and the playtest tables) exist in the database (uncached:
    a cheap catalogue read)."""
    frame = read_frame(db, _TABLES_SQL)
    return set(frame["table_name"].to_list()) & (set(CONTRACT_TABLES) | set(PLAYTEST_TABLES))
