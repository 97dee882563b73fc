"""Balance by skill tier (Factions page, report): the runs of one `delve simulate --tiers`
group (the same games at every tier, `runs.sweep_id` 'tiers-...', the tier on `config.tier`),
each faction's win rate per tier with its interval, and the paired change between tiers."""

from __future__ import annotations

import math

import polars as pl

from pipelines.ladder.match import wilson

from . import core
from .core import ANALYSIS_TTL_S, cached

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

# The same game and seat at two tiers (the tiers replay the same seeds and seatings).
_PAIRS_SQL = """
WITH t AS (""" + _TIER_RUNS_SQL + """)
SELECT ta.tier AS tier_a, tb.tier AS tier_b, a.faction::VARCHAR AS faction,
       count(*)::BIGINT AS n,
       avg(CAST(a.won AS INTEGER))::DOUBLE AS rate_a, avg(CAST(b.won AS INTEGER))::DOUBLE AS rate_b,
       avg(CAST(b.won AS INTEGER) - CAST(a.won AS INTEGER))::DOUBLE AS diff,
       coalesce(var_samp(CAST(b.won AS INTEGER) - CAST(a.won AS INTEGER)), 0)::DOUBLE AS var,
       avg(1.0 / ta.n_players)::DOUBLE AS fair_share, min(ta.created_at) AS ca,
       min(tb.created_at) AS cb
FROM players a JOIN t ta ON a.run_id = ta.run_id
JOIN t tb ON tb.created_at > ta.created_at OR (tb.created_at = ta.created_at AND tb.run_id > ta.run_id)
JOIN players b ON b.run_id = tb.run_id AND b.game_id = a.game_id AND b.seat = a.seat
     AND b.faction = a.faction
GROUP BY ta.tier, tb.tier, a.faction ORDER BY ca, cb, faction
"""


def run_tier(details: dict) -> str | None:
    """The skill tier of a run (its `runs` row as a dict), None for a run outside a tiers
    group; a ladder rung's run reads 'ladder: SPEC over BELOW'."""
    import json
    cfg = details.get("config") or {}
    if isinstance(cfg, str):
        try:
            cfg = json.loads(cfg)
        except ValueError:
            return None
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
    same games and seats at both tiers), its 95% interval and Holm-adjusted p-value over the
    factions of the pair, and a flag: 'grows' / 'shrinks' when the change is significant and
    moves the faction away from / towards the fair share, '' otherwise."""
    frame = core.read_frame(db, _PAIRS_SQL, {"run": run_id})
    return paired_flags(frame, alpha)


def paired_flags(frame: pl.DataFrame, alpha: float = 0.05) -> pl.DataFrame:
    rows = frame.to_dicts()
    for r in rows:
        se = math.sqrt(r["var"] / r["n"]) if r["n"] > 1 else math.inf
        r["low"], r["high"] = r["diff"] - 1.96 * se, r["diff"] + 1.96 * se
        z = abs(r["diff"]) / se if se > 0 else (math.inf if r["diff"] else 0.0)
        r["p"] = math.erfc(z / math.sqrt(2)) if math.isfinite(z) else 0.0
    for key in {(r["tier_a"], r["tier_b"]) for r in rows}:   # Holm over the pair's factions
        group = sorted((r for r in rows if (r["tier_a"], r["tier_b"]) == key), key=lambda r: r["p"])
        m, running = len(group), 0.0
        for i, r in enumerate(group):
            running = max(running, min(1.0, (m - i) * r["p"]))
            r["p_holm"] = running
    for r in rows:
        away = abs(r["rate_b"] - r["fair_share"]) > abs(r["rate_a"] - r["fair_share"])
        r["flag"] = ("grows" if away else "shrinks") if r["p_holm"] < alpha else ""
    cols = ["tier_a", "tier_b", "faction", "n", "rate_a", "rate_b", "diff", "low", "high",
            "p_holm", "flag"]
    if not rows:
        return pl.DataFrame(schema={c: (pl.Utf8 if c in ("tier_a", "tier_b", "faction", "flag")
                                        else pl.Float64) for c in cols})
    return pl.DataFrame([{c: r[c] for c in cols} for r in rows])
