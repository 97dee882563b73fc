"""Issue 30: the statistics that set playtests beside the bots (pipelines/playtests/compare.py):
exact intervals, the closest tier, and the agreement test's error rate under its null and its
power against a clear disagreement (calibration kept small for `make test`)."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from scipy import stats

from pipelines.playtests import compare as pc
from pipelines.playtests.data import SliceData, Slice

FACTIONS = ["a", "b", "c", "d", "e"]
RATES = {"a": 0.40, "b": 0.25, "c": 0.15, "d": 0.12, "e": 0.08}  # a tier's win rates


def test_exact_interval_is_clopper_pearson():
    lo, hi = pc.exact_interval(3, 14)
    assert lo == pytest.approx(stats.beta.ppf(0.025, 3, 12))
    assert hi == pytest.approx(stats.beta.ppf(0.975, 4, 11))
    assert pc.exact_interval(0, 5)[0] == 0.0 and pc.exact_interval(5, 5)[1] == 1.0


def _tier_seats(rates: dict[str, float], n: int = 4000) -> pl.DataFrame:
    return pl.DataFrame([{"tier": "bot", "faction": f, "seat": 0, "decided": True, "n": n,
                          "wins": r * n} for f, r in rates.items()])


def _human_games(rng, n_games: int, winner_weights: dict[str, float]) -> pl.DataFrame:
    """Games of 4 seats, factions drawn at random, the winner drawn by Luce weights."""
    rows = []
    for g in range(n_games):
        fs = list(rng.choice(FACTIONS, size=4, replace=False))
        w = np.array([winner_weights[f] for f in fs])
        win = rng.choice(4, p=w / w.sum())
        rows += [{"playtest_id": "pt", "game_id": g, "faction": f, "win_share": float(i == win)}
                 for i, f in enumerate(fs)]
    return pl.DataFrame(rows)


def test_agreement_false_marks_at_most_its_level_under_the_null():
    """Human games drawn from the tier's own model: the overall test rejects about 5% of the
    time (at most 10% of 200 sets, a binomial margin) and per-faction Holm marks as rarely."""
    rng = np.random.default_rng(1)
    tier = _tier_seats(RATES)
    rejects = marks = 0
    runs = 200
    for _ in range(runs):
        detail, overall = pc._agreement(_human_games(rng, 15, RATES), tier, ["bot"], draws=1000)
        rejects += overall["p"][0] < 0.05
        marks += bool(detail["differs"].any())
    assert rejects / runs <= 0.10, rejects
    assert marks / runs <= 0.10, marks


def test_agreement_finds_a_clear_disagreement():
    """Humans among whom the bots' weakest faction wins most: found in most sets of 30 games."""
    rng = np.random.default_rng(2)
    tier = _tier_seats(RATES)
    upside_down = {"a": 0.05, "b": 0.1, "c": 0.15, "d": 0.2, "e": 0.5}
    found = sum(pc._agreement(_human_games(rng, 30, upside_down), tier, ["bot"], draws=1000)[1]["p"][0] < 0.05
                for _ in range(40))
    assert found >= 30, found


def _slice_data(human_scores: list[list[int]], tiers: dict[str, list[list[int]]]) -> SliceData:
    hs = pl.DataFrame([{"playtest_id": "pt", "game_id": g, "seat": s, "faction": FACTIONS[s],
                        "score": v, "won": s == int(np.argmax(sc)), "rounds": 5, "map": None,
                        "decided": True, "win_share": float(s == int(np.argmax(sc)))}
                       for g, sc in enumerate(human_scores) for s, v in enumerate(sc)])
    sample = pl.DataFrame([{"tier": t, "run_id": "r", "game_id": g, "seat": s, "score": v}
                           for t, games in tiers.items() for g, sc in enumerate(games)
                           for s, v in enumerate(sc)])
    scores = sample.group_by("tier", "score").agg(pl.len().cast(pl.Int64).alias("n")).sort("tier", "score")
    rounds = pl.DataFrame([{"tier": t, "games": len(g), "mean_rounds": 5.0, "sd_rounds": 0.0,
                            "undecided": 0} for t, g in tiers.items()])
    seats = pl.DataFrame([{"tier": t, "faction": f, "seat": 0, "decided": True, "n": 100,
                           "wins": 25.0} for t in tiers for f in FACTIONS[:4]])
    empty = pl.DataFrame()
    return SliceData(Slice("g", "h", 4), hs, pl.DataFrame(), seats, scores, empty, rounds,
                     sample, empty)


def test_the_closest_tier_is_the_one_the_games_came_from():
    rng = np.random.default_rng(3)
    low = [list(rng.normal(50, 8, 4).round().astype(int)) for _ in range(400)]
    high = [list(rng.normal(80, 8, 4).round().astype(int)) for _ in range(400)]
    humans = [list(rng.normal(80, 8, 4).round().astype(int)) for _ in range(12)]
    c = pc.compare(_slice_data(humans, {"weak": low, "strong": high}))
    assert c.closest_scores == "strong"
    row = c.scores.filter(pl.col("tier") == "strong").row(0, named=True)
    assert row["closest"] > 0.95 and row["low"] <= row["distance"] <= row["high"]
    assert c.scores.filter(pl.col("tier") == "weak")["p_same"][0] < 0.01   # not the weak bot's games
    assert row["p_same"] > 0.01
    assert c.n_games == 12 and c.fair == 0.25
