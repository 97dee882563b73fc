"""Balance by skill tier (Factions page, report): the runs of one `delve simulate --tiers`
group (the same games at every tier, `runs.sweep_id` 'tiers-...', the tier on `config.tier`),
each faction's win rate per tier with its interval, and the paired change between tiers."""

from __future__ import annotations


import polars as pl

from pipelines.ladder.match import wilson

from . import core
from .core import ANALYSIS_TTL_S, cached
from .runs import run_config

_TIER_RUNS_SQL = """
SELECT r.run_id, coalesce(json_extract_string(r.config, '$.tier'), r.bots) AS tier,
       r.n_players, r.created_at
FROM runs r
WHERE r.sweep_id = (SELECT sweep_id FROM runs WHERE run_id = $run)
  AND r.sweep_id LIKE 'tiers-%'
ORDER BY r.created_at, r.run_id
"""

# Win rates over the decided games (a game without a winner, stopped by a turn limit, is left
# out and counted in `_TIER_UNDECIDED_SQL`).
_TIER_RATES_SQL = """
WITH t AS (""" + _TIER_RUNS_SQL + """)
SELECT t.tier, p.faction::VARCHAR AS faction,
       (count(*) FILTER (WHERE g.winner_seat IS NOT NULL OR g.n_players = 1))::BIGINT AS games,
       sum(CAST(p.won AS INTEGER))::BIGINT AS wins,
       avg(1.0 / t.n_players)::DOUBLE AS fair_share, min(t.created_at) AS created_at
FROM players p JOIN t USING (run_id)
JOIN games g ON g.run_id = p.run_id AND g.game_id = p.game_id
GROUP BY t.tier, p.faction ORDER BY created_at, faction
"""

_TIER_UNDECIDED_SQL = """
WITH t AS (""" + _TIER_RUNS_SQL + """)
SELECT t.tier, count(*)::BIGINT AS games,
       (count(*) FILTER (WHERE g.winner_seat IS NULL AND g.n_players > 1))::BIGINT AS undecided,
       min(t.created_at) AS created_at
FROM games g JOIN t USING (run_id)
GROUP BY t.tier ORDER BY created_at
"""

def run_tier(details: dict) -> str | None:
    """The skill tier of a run (its `runs` row as a dict), None for a run outside a tiers
    group; a ladder rung's run reads 'ladder: SPEC over BELOW'."""
    cfg = run_config(details)
    if cfg.get("tier"):
        return str(cfg["tier"])
    lad = cfg.get("ladder")
    if isinstance(lad, dict):
        return f"ladder: {lad.get('spec')} over {lad.get('below')}"
    return None


@cached(ttl=ANALYSIS_TTL_S)
def tier_runs(db: str, run_id: str, version: str = "") -> pl.DataFrame:
    """The tiers group of `run_id` (empty when the run is not part of one), in tier order."""
    return core.read_frame(db, _TIER_RUNS_SQL, {"run": run_id})


@cached(ttl=ANALYSIS_TTL_S)
def tier_rates(db: str, run_id: str, version: str = "") -> pl.DataFrame:
    """Per tier and faction: player-games of the decided games, wins, win rate and 95% Wilson
    interval (a game without a winner is left out; `tier_undecided` counts them)."""
    frame = core.read_frame(db, _TIER_RATES_SQL, {"run": run_id})
    return with_intervals(frame)


@cached(ttl=ANALYSIS_TTL_S)
def tier_undecided(db: str, run_id: str, version: str = "") -> pl.DataFrame:
    """Per tier: games, games without a winner, their share and its 95% Wilson interval."""
    frame = core.read_frame(db, _TIER_UNDECIDED_SQL, {"run": run_id})
    return with_intervals(frame.rename({"undecided": "wins"})).rename(
        {"wins": "undecided", "rate": "share"}).drop("created_at")


def with_intervals(frame: pl.DataFrame) -> pl.DataFrame:
    if frame.is_empty():
        return frame.with_columns(pl.lit(None, pl.Float64).alias(c) for c in ("rate", "low", "high"))
    ci = [wilson(w, n) for w, n in zip(frame["wins"].to_list(), frame["games"].to_list())]
    return frame.with_columns(
        (pl.col("wins") / pl.col("games")).alias("rate"),
        pl.Series("low", [c[0] for c in ci]), pl.Series("high", [c[1] for c in ci]))


@cached(ttl=ANALYSIS_TTL_S)
def tier_shifts(db: str, run_id: str, alpha: float = 0.05, version: str = "") -> pl.DataFrame:
    """Per faction and pair of tiers (lower, higher): the paired change of its win rate (the
    same games and seats at both tiers) from `pipelines.lab.compare` (exact McNemar test,
    Newcombe's paired interval, a tied win 1/k, the rule of three when no game changed: the
    What-if page's numbers on the same runs), Holm-adjusted over every tier pair and faction
    together, and a flag: 'grows' / 'shrinks' when the change is significant and moves the
    faction away from / towards the fair share, '' otherwise."""
    from pipelines.lab.compare import compare

    runs = tier_runs(db, run_id, version)
    ids, tiers, players = (runs[c].to_list() for c in ("run_id", "tier", "n_players"))
    rows = []
    for i in range(len(ids)):
        for j in range(i + 1, len(ids)):
            cmp = compare(db, ids[i], ids[j], heatmap=False)
            table = cmp.table.filter((pl.col("kind") == "faction")
                                     & (pl.col("metric") == "win_rate"))
            for r in table.iter_rows(named=True):
                rows.append({"tier_a": tiers[i], "tier_b": tiers[j], "faction": r["key"],
                             "n": r["n_a"], "rate_a": r["a"], "rate_b": r["b"],
                             "diff": r["diff"], "low": r["low"], "high": r["high"],
                             "p": r["p"], "fair_share": 1.0 / players[i]})
    return paired_flags(pl.DataFrame(rows) if rows else pl.DataFrame(), alpha)


def paired_flags(frame: pl.DataFrame, alpha: float = 0.05) -> pl.DataFrame:
    """Holm over every row (all tier pairs and factions: one family) and the flags."""
    from pipelines import stats

    cols = ["tier_a", "tier_b", "faction", "n", "rate_a", "rate_b", "diff", "low", "high",
            "p_holm", "flag"]
    rows = frame.to_dicts() if frame.height else []
    if not rows:
        return pl.DataFrame(schema={c: (pl.Utf8 if c in ("tier_a", "tier_b", "faction", "flag")
                                        else pl.Float64) for c in cols})
    reject, adjusted = stats.holm([r["p"] for r in rows], alpha)
    for r, rj, ph in zip(rows, reject, adjusted):
        r["p_holm"] = ph
        away = abs(r["rate_b"] - r["fair_share"]) > abs(r["rate_a"] - r["fair_share"])
        r["flag"] = ("grows" if away else "shrinks") if rj else ""
    return pl.DataFrame([{c: r[c] for c in cols} for r in rows])
