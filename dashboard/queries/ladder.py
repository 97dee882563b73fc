"""The skill ladder of a rung's run (Runs page): every rung of the ladder the run belongs to,
tested again from its runs by `pipelines.ladder.ladder.stored_rungs` (the same table as
`delve ladder GAME --show ID`): each rung's win rate with its Wilson interval, its test
against the rung below (the fair share, or the paired gain over the rung before it on the
same deals), the Holm-adjusted p-value over the ladder's rungs, whether it is validated, and
the games no seat won (a turn limit)."""

from __future__ import annotations

import math

import polars as pl

from pipelines.ladder.ladder import stored_rungs

from . import core
from .core import cached
from .runs import run_config

#: How long a ladder's table is kept: a rung still playing in another run shows within it.
LADDER_TTL_S = 60

COLUMNS = {"rung": pl.Int64, "spec": pl.Utf8, "below": pl.Utf8, "games": pl.Int64,
           "wins": pl.Float64, "rate": pl.Float64, "low": pl.Float64, "high": pl.Float64,
           "fair_share": pl.Float64, "against": pl.Utf8, "pairs": pl.Int64, "diff": pl.Float64,
           "diff_low": pl.Float64, "diff_high": pl.Float64, "p_holm": pl.Float64,
           "validated": pl.Boolean, "undecided": pl.Int64}


def ladder_id(details: dict) -> str | None:
    """The ladder a run is a rung of (its `runs` row as a dict: `config.ladder.id`), else None."""
    lad = run_config(details).get("ladder")
    return str(lad["id"]) if isinstance(lad, dict) and lad.get("id") else None


class _ReadOnly:
    """What `stored_rungs` reads through (`store.read()`): the page's read-only connection
    (`core.connection`: the lock retry, the friendly errors), never a writer."""

    def __init__(self, db: str):
        self.db = db

    def read(self):
        return core.connection(self.db)


def _nan_none(x: float) -> float | None:
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else float(x)


@cached(ttl=LADDER_TTL_S)
def ladder_table(db: str, ladder: str, version: str = "") -> pl.DataFrame:
    """One row per rung, bottom first (module doc); empty when no run holds the ladder id.
    `version` (the selected run's data version) renews it when that run grows; the other
    rungs' runs renew it within `LADDER_TTL_S` seconds."""
    rungs, players, _vs = stored_rungs(_ReadOnly(db), ladder)
    rows = []
    for r in rungs:
        low, high = r.interval()
        rows.append({"rung": r.index, "spec": r.spec, "below": r.below, "games": r.games,
                     "wins": r.wins, "rate": r.rate, "low": low, "high": high,
                     "fair_share": 1.0 / players if players else None, "against": r.against,
                     "pairs": r.pairs, "diff": _nan_none(r.diff),
                     "diff_low": _nan_none(r.diff_low), "diff_high": _nan_none(r.diff_high),
                     "p_holm": _nan_none(r.p_holm), "validated": r.validated,
                     "undecided": r.undecided})
    return pl.DataFrame(rows, schema=COLUMNS)
