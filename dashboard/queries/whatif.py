"""Queries of the What-if and Checks pages: small, aggregated, cached.

The SQL of the lab lives in pipelines/lab/ (compare.py, sweep.py, design_checks.py, all
parameterised and aggregated in DuckDB); this module caches their results for the pages (the
same `cached` helper as every page) and turns the database problems into the dashboard's
friendly errors (the exception types of dashboard.queries.core).
"""

from __future__ import annotations

import json

import duckdb
import polars as pl

from engine.core.errors import DelveError
from pipelines.store.connect import is_lock_error

from . import core
from .core import DatabaseBusy, DatabaseUnreadable, SchemaMismatch, cached

TTL_S = 3

RUN_COLUMNS = ("run_id", "created_at", "game", "label", "variant", "rules_hash", "n_games",
               "games_done", "status", "paired_with", "sweep_id", "config", "seed")


def _guard(fn, *args, **kw):
    """Run a pipelines reader; lock and schema problems become dashboard errors."""
    try:
        return fn(*args, **kw)
    except (duckdb.CatalogException, duckdb.BinderException) as exc:
        raise SchemaMismatch(str(exc)) from exc
    except duckdb.Error as exc:
        if is_lock_error(exc):
            raise DatabaseBusy(str(exc)) from exc
        raise DatabaseUnreadable(str(exc)) from exc


def _or_message(fn, *args):
    """A pipelines reader through `_guard`; a DelveError becomes its message (str)."""
    try:
        return _guard(fn, *args)
    except DelveError as exc:
        return str(exc)


@cached(ttl=TTL_S)
def runs(db: str) -> pl.DataFrame:
    """Every run, newest first, with the what-if columns (null in older databases)."""
    frame = core.read_frame(db, "SELECT * FROM runs ORDER BY created_at DESC, run_id")
    return frame.with_columns([pl.lit(None).alias(c) for c in RUN_COLUMNS
                               if c not in frame.columns]).select(RUN_COLUMNS)


def run_progress(db: str, run_id: str) -> dict | None:
    """(uncached) games stored, planned and status of a run, for the live progress bar."""
    frame = core.read_frame(
        db, "SELECT r.run_id, r.n_games, r.status, (SELECT count(*) FROM games g "
            "WHERE g.run_id = r.run_id) AS stored FROM runs r WHERE r.run_id = ?", [run_id],
        busy_timeout_s=1.0)
    return frame.row(0, named=True) if frame.height else None


def find_launched(db: str, base: str, variant: str, since) -> dict | None:
    """(uncached) the newest run paired with `base` under `variant` created at or after `since`."""
    cols = set(core.read_frame(
        db, "SELECT column_name FROM information_schema.columns WHERE table_name = 'runs'",
        busy_timeout_s=1.0)["column_name"].to_list())
    if "paired_with" not in cols:
        return None
    frame = core.read_frame(
        db, "SELECT r.run_id, r.n_games, r.status, (SELECT count(*) FROM games g "
            "WHERE g.run_id = r.run_id) AS stored FROM runs r WHERE r.paired_with = ? "
            "AND r.variant = ? AND r.created_at >= ? ORDER BY r.created_at DESC LIMIT 1",
        [base, variant, since], busy_timeout_s=1.0)
    return frame.row(0, named=True) if frame.height else None


@cached(ttl=TTL_S)
def comparison(db: str, run_a: str, run_b: str):
    """pipelines.lab.compare.compare, cached; a DelveError becomes its message (str)."""
    from pipelines.lab.compare import compare
    return _or_message(compare, db, run_a, run_b)


@cached(ttl=TTL_S)
def sweep(db: str, sweep_id: str) -> pl.DataFrame:
    from pipelines.lab.sweep import sweep_table
    return _guard(sweep_table, db, sweep_id)


@cached(ttl=TTL_S)
def sweep_diffs(db: str, sweep_id: str) -> pl.DataFrame:
    """pipelines.lab.sweep.sweep_vs_reference: each point against the first, paired, Holm."""
    from pipelines.lab.sweep import sweep_vs_reference
    return _guard(sweep_vs_reference, db, sweep_id)


@cached(ttl=TTL_S)
def checks(db: str, run_id: str):
    """pipelines.lab.design_checks.run_checks, cached; a DelveError becomes its message (str)."""
    from pipelines.lab.design_checks import run_checks
    return _or_message(run_checks, db, run_id)


@cached(ttl=TTL_S)
def lead_checks(db: str, run_id: str):
    """pipelines.lab.play_checks.lead_checks, cached; a DelveError becomes its message."""
    from pipelines.lab.play_checks import lead_checks as checks_first_games
    return _or_message(checks_first_games, db, run_id)


@cached(ttl=TTL_S)
def tier_checks(db: str, run_id: str):
    """pipelines.lab.play_checks.tier_checks, cached; a DelveError becomes its message."""
    from pipelines.lab.play_checks import tier_checks as checks_by_tier
    return _or_message(checks_by_tier, db, run_id)


@cached(ttl=TTL_S)
def base_rules(db: str, run_id: str):
    """(game id, effective rules document, rules model class, base variants, base sets) of a
    run, or the error message (str)."""
    from pipelines.run.plan import import_game
    from pipelines.store import resolve_run
    try:
        row = _guard(resolve_run, db, run_id)
        cfg = json.loads(row["config"] or "{}")
        game = import_game(row["game"], cfg.get("game_modules", ()))
    except DelveError as exc:
        return str(exc)
    return (game.id, json.loads(row["rules"]), cfg.get("variants", []), cfg.get("sets", []))


def games_to_settle(n: int, diff: float, low: float, high: float, *, paired: bool = True,
                    alpha_adj: float = 0.05, significant: bool = False,
                    power: float = 0.8, effect: float | None = None,
                    games_per_n: float = 1.0) -> int | None:
    """About how many more games (beyond the `n` played; in each run when unpaired) a
    difference of its current size needs to be detected with `power` (80%) at the level
    `alpha_adj` (the strictest Holm step of its family, alpha / m): a power calculation with
    statsmodels' TTestPower (paired: a one-sample t on the per-game differences) or
    NormalIndPower (independent runs), the standard deviation read back from the interval.
    0 when the row is already significant after Holm; None when it cannot be said (no spread:
    no game changed, or no difference).  Plan the size before playing: adding games until a
    row turns significant is optional stopping and inflates false positives (issue 12, P9).

    `effect`: plan for this difference (the designer's margin) instead of the one observed
    (audit N3: post-hoc power on a near-zero difference means nothing); `games_per_n`: games
    per unit of `n` (a faction's row counts its player-games; it sits in only some games), so
    the answer is in games of the run."""
    from scipy import stats as sps
    from statsmodels.stats.power import NormalIndPower, TTestPower

    if n is None or n < 2 or diff is None or low is None or high is None:
        return None
    if any(x != x for x in (diff, low, high)):
        return None
    if significant:
        return 0
    half = (high - low) / 2
    size = abs(effect) if effect is not None else abs(diff)
    if size == 0 or half <= 0:
        return None
    if paired:
        sd = half / float(sps.t.ppf(0.975, n - 1)) * n ** 0.5
        need = TTestPower().solve_power(effect_size=size / sd, alpha=alpha_adj, power=power,
                                        alternative="two-sided")
    else:
        sd = half / float(sps.norm.ppf(0.975)) * (n / 2) ** 0.5
        need = NormalIndPower().solve_power(effect_size=size / sd, alpha=alpha_adj,
                                            power=power, ratio=1.0, alternative="two-sided")
    need = float(need if not hasattr(need, "__len__") else need[0])
    return max(0, int((need - n) * games_per_n + 0.999))


def settle_column(cmp, alpha: float = 0.05, margin: float | None = None) -> list[int | None]:
    """`games_to_settle` for every row of a comparison's table, at alpha / (its family's size),
    in games of the run (a faction's row is turned from its player-games into games); the win
    rate rows are planned for the game's margin (`pipelines.stats.verdicts`), not for the
    difference seen."""
    from pipelines.stats.verdicts import margin_for
    m = margin if margin is not None else margin_for((cmp.run_a or {}).get("game"))
    sizes = {f: int((cmp.table["family"] == f).sum()) for f in set(cmp.table["family"])}
    games = cmp.n_pairs if cmp.paired else min(cmp.n_games_a, cmp.n_games_b)
    out = []
    for r in cmp.table.iter_rows(named=True):
        n = r["n_a"] if cmp.paired else min(r["n_a"], r["n_b"])
        out.append(games_to_settle(n, r["diff"], r["low"], r["high"], paired=cmp.paired,
                                   alpha_adj=alpha / max(1, sizes[r["family"]]),
                                   significant=bool(r["significant"]),
                                   effect=m if r["metric"] == "win_rate" else None,
                                   games_per_n=(games / n) if n and games else 1.0))
    return out
