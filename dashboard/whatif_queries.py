"""Data of the What-if and Checks pages: small, aggregated, cached.

The SQL lives in pipelines/ (compare.py, sweep.py, design_checks.py, all parameterised and
aggregated in DuckDB); this module caches their results for the pages and turns the database
problems into the dashboard's friendly errors (dashboard.queries' exception types).
"""

from __future__ import annotations

import duckdb
import polars as pl
import streamlit as st

from dashboard import queries
from engine.core.errors import DelveError

TTL_S = 3

RUN_COLUMNS = ("run_id", "created_at", "game", "label", "variant", "rules_hash", "n_games",
               "games_done", "status", "paired_with", "sweep_id", "config", "seed")


def _guard(fn, *args, **kw):
    """Run a pipelines reader; lock and schema problems become dashboard errors."""
    try:
        return fn(*args, **kw)
    except duckdb.IOException as exc:
        if "lock" in str(exc).lower():
            raise queries.DatabaseBusy(str(exc)) from exc
        raise queries.DatabaseUnreadable(str(exc)) from exc
    except (duckdb.CatalogException, duckdb.BinderException) as exc:
        raise queries.SchemaMismatch(str(exc)) from exc


@st.cache_data(ttl=TTL_S, show_spinner=False)
def runs(db: str) -> pl.DataFrame:
    """Every run, newest first, with the what-if columns (null in older databases)."""
    cols = set(queries.read_frame(
        db, "SELECT column_name FROM information_schema.columns WHERE table_name = 'runs'"
    )["column_name"].to_list())
    select = ", ".join(c if c in cols else f"NULL AS {c}" for c in RUN_COLUMNS)
    # Column names are constants of this module, never user input.
    return queries.read_frame(db, f"SELECT {select} FROM runs ORDER BY created_at DESC, run_id")


def run_progress(db: str, run_id: str) -> dict | None:
    """(uncached) games stored, planned and status of a run, for the live progress bar."""
    frame = queries.read_frame(
        db, "SELECT r.run_id, r.n_games, r.status, (SELECT count(*) FROM games g "
            "WHERE g.run_id = r.run_id) AS stored FROM runs r WHERE r.run_id = ?", [run_id],
        busy_timeout_s=1.0)
    return frame.row(0, named=True) if frame.height else None


def find_launched(db: str, base: str, variant: str, since) -> dict | None:
    """(uncached) the newest run paired with `base` under `variant` created at or after `since`."""
    cols = set(queries.read_frame(
        db, "SELECT column_name FROM information_schema.columns WHERE table_name = 'runs'",
        busy_timeout_s=1.0)["column_name"].to_list())
    if "paired_with" not in cols:
        return None
    frame = queries.read_frame(
        db, "SELECT r.run_id, r.n_games, r.status, (SELECT count(*) FROM games g "
            "WHERE g.run_id = r.run_id) AS stored FROM runs r WHERE r.paired_with = ? "
            "AND r.variant = ? AND r.created_at >= ? ORDER BY r.created_at DESC LIMIT 1",
        [base, variant, since], busy_timeout_s=1.0)
    return frame.row(0, named=True) if frame.height else None


@st.cache_data(ttl=TTL_S, show_spinner=False)
def comparison(db: str, run_a: str, run_b: str):
    """pipelines.compare.compare, cached; a DelveError becomes its message (str)."""
    from pipelines.compare import compare
    try:
        return _guard(compare, db, run_a, run_b)
    except DelveError as exc:
        return str(exc)


@st.cache_data(ttl=TTL_S, show_spinner=False)
def sweep(db: str, sweep_id: str) -> pl.DataFrame:
    from pipelines.sweep import sweep_table
    return _guard(sweep_table, db, sweep_id)


@st.cache_data(ttl=TTL_S, show_spinner=False)
def checks(db: str, run_id: str):
    """pipelines.design_checks.run_checks, cached; a DelveError becomes its message (str)."""
    from pipelines.design_checks import run_checks
    try:
        return _guard(run_checks, db, run_id)
    except DelveError as exc:
        return str(exc)


@st.cache_data(ttl=TTL_S, show_spinner=False)
def base_rules(db: str, run_id: str):
    """(game id, effective rules document, rules model class, base variants, base sets) of a
    run, or the error message (str)."""
    import json

    from pipelines.plan import import_game
    from pipelines.store import resolve_run
    try:
        row = _guard(resolve_run, db, run_id)
        cfg = json.loads(row["config"] or "{}")
        game = import_game(row["game"], cfg.get("game_modules", ()))
    except DelveError as exc:
        return str(exc)
    return (game.id, json.loads(row["rules"]), cfg.get("variants", []), cfg.get("sets", []))


def games_to_settle(n: int, diff: float, low: float, high: float) -> int | None:
    """About how many more games (beyond the `n` played) would make an open difference
    (interval containing 0) significant at its current size: the half-width shrinks as
    1/sqrt(games), so it reaches |diff| after n * (half-width / |diff|)^2 games."""
    if n is None or n < 2 or diff is None or low is None or high is None:
        return None
    if any(x != x for x in (diff, low, high)):
        return None
    if low > 0 or high < 0:
        return 0
    if diff == 0:
        return None
    half = (high - low) / 2
    need = n * (half / abs(diff)) ** 2
    return max(0, int(need - n + 0.999))
