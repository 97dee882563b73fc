"""pipelines.stats additions used by the dashboard: rate tables, Welch from summaries, exact
summaries from frequency tables, and the strength model (checked against statsmodels)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pipelines import stats


def test_rate_table_has_wilson_intervals_and_holm_marks():
    table = stats.rate_table([50, 10, 25], [100, 100, 100], [0.25, 0.25, 0.25])
    assert table["rate"] == pytest.approx([0.5, 0.1, 0.25])
    for lo, r, hi in zip(table["low"], table["rate"], table["high"], strict=True):
        assert lo < r < hi
    one = stats.rate_ci(50, 100)
    assert (table["low"][0], table["high"][0]) == pytest.approx((one.low, one.high))
    assert table["significant"] == [True, True, False]   # 50% and 10% are far from 25%
    assert table["p_holm"][2] == pytest.approx(1.0)
    assert all(a >= p for a, p in zip(table["p_holm"], table["p_value"], strict=True))


def test_rate_table_with_no_trials_gives_nan_not_an_error():
    table = stats.rate_table([0], [0], [0.25])
    assert math.isnan(table["rate"][0]) and table["significant"] == [False]


def test_diff_ci_summary_matches_welch_on_the_raw_values():
    rng = np.random.default_rng(7)
    a, b = rng.normal(10, 3, 40), rng.normal(12, 5, 60)
    expected = stats.diff_ci(a, b, paired=False)
    got = stats.diff_ci_summary(a.mean(), a.var(ddof=1), len(a), b.mean(), b.var(ddof=1), len(b))
    assert got == pytest.approx(expected)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_weighted_summary_equals_the_expanded_sample(seed: int):
    rng = np.random.default_rng(seed)
    values = rng.integers(-5, 30, size=12).astype(float)
    counts = rng.integers(0, 9, size=12)
    counts[0] = max(counts[0], 1)
    sample = np.repeat(values, counts)
    got = stats.weighted_summary(values, counts)
    assert got["n"] == len(sample)
    assert got["mean"] == pytest.approx(sample.mean())
    assert got["var"] == pytest.approx(sample.var(ddof=1))
    assert [got["min"], got["q1"], got["median"], got["q3"], got["max"]] == pytest.approx(
        np.quantile(sample, [0, 0.25, 0.5, 0.75, 1]).tolist())


def _simulate_tables(rng, strengths, seat_effects, n_games):
    """Four-player tables, factions rotated over seats, winner drawn from Luce's model."""
    factions = sorted(strengths)
    counts: dict[tuple, int] = {}
    for g in range(n_games):
        table = [factions[(g + s) % len(factions)] for s in range(4)]
        u = np.array([strengths[f] + seat_effects[s] for s, f in enumerate(table)])
        p = np.exp(u - u.max())
        winner = int(rng.choice(4, p=p / p.sum()))
        key = (tuple(table), winner)
        counts[key] = counts.get(key, 0) + 1
    rows = []
    for (table, winner), c in sorted(counts.items()):
        won = [1 if s == winner else 0 for s in range(4)]
        rows.append((list(table), ["0", "1", "2", "3"], ["greedy"] * 4, won, c))
    return rows


def test_strength_model_recovers_known_faction_and_seat_effects():
    rng = np.random.default_rng(11)
    strengths = {"a": 0.6, "b": 0.0, "c": -0.2, "d": -0.4, "e": 0.0}
    seats = [0.5, 0.0, 0.0, -0.3]
    fit = stats.luce_winner_model(_simulate_tables(rng, strengths, seats, 6000))
    assert fit.converged and fit.n_games == 6000
    by = {(t.kind, t.level): t for t in fit.terms}
    mean = sum(strengths.values()) / len(strengths)
    for f, s in strengths.items():
        t = by[("faction", f)]
        assert t.low < s - mean < t.high, (f, t)
    for i in (1, 2, 3):
        t = by[("seat", str(i))]
        assert t.low < seats[i] - seats[0] < t.high, (i, t)
    assert "bot" not in {t.kind for t in fit.terms}   # one bot everywhere: no bot term


def test_strength_model_agrees_with_statsmodels_conditional_logit():
    """The same likelihood as statsmodels' ConditionalLogit (grouped by game) with faction
    and seat dummies; with a flat prior the estimates coincide."""
    from statsmodels.discrete.conditional_models import ConditionalLogit

    rng = np.random.default_rng(3)
    rows = _simulate_tables(rng, {"a": 0.5, "b": 0.0, "c": -0.5}, [0.3, 0.0, 0.0, 0.0], 800)
    fit = stats.luce_winner_model(rows, prior_sd=1e6)
    factions = ["a", "b", "c"]
    y, x, groups, g = [], [], [], 0
    for table, seats, _bots, won, count in rows:
        for _ in range(count):
            for i, f in enumerate(table):
                y.append(won[i])
                x.append([1.0 * (f == "b"), 1.0 * (f == "c")]
                         + [1.0 * (seats[i] == s) for s in ("1", "2", "3")])
                groups.append(g)
            g += 1
    res = ConditionalLogit(np.array(y), np.array(x), groups=np.array(groups)).fit(disp=0)
    by = {(t.kind, t.level): t.estimate for t in fit.terms}
    # statsmodels measures b and c against a; ours are centred on the mean faction
    assert by[("faction", "b")] - by[("faction", "a")] == pytest.approx(res.params[0], abs=1e-3)
    assert by[("faction", "c")] - by[("faction", "a")] == pytest.approx(res.params[1], abs=1e-3)
    for j, s in enumerate(("1", "2", "3")):
        assert by[("seat", s)] == pytest.approx(res.params[2 + j], abs=1e-3)


def test_strength_model_stays_finite_when_a_seat_never_wins():
    rows = [(["a", "b"], ["0", "1"], ["x", "x"], [1, 0], 10),
            (["b", "a"], ["0", "1"], ["x", "x"], [1, 0], 10)]
    fit = stats.luce_winner_model(rows)
    assert all(math.isfinite(t.estimate) and math.isfinite(t.high) for t in fit.terms)
    assert stats.luce_winner_model([]).terms == ()


@pytest.mark.parametrize("seed", range(6))
def test_holm_is_statsmodels_holm_to_the_bit(seed: int):
    """pipelines.stats.holm follows statsmodels' Holm steps without its per-call gc.collect():
    same rejections and the same adjusted p-values, exactly (ties, 0, 1, NaN included)."""
    from statsmodels.stats.multitest import multipletests

    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 60))
    p = rng.choice([rng.uniform(0, 0.2), 0.0, 1.0, 0.01, 0.0125], size=n)
    p = np.where(rng.uniform(size=n) < 0.5, rng.uniform(0, 0.1, n), p)
    for alpha in (0.05, 0.01):
        reject, adjusted = stats.holm(p.tolist(), alpha)
        want_r, want_a, _, _ = multipletests(p, alpha=alpha, method="holm")
        assert reject == want_r.tolist() and adjusted == want_a.tolist()
    with_nan = [*p.tolist(), float("nan")]
    reject, adjusted = stats.holm(with_nan)
    want_r, want_a, _, _ = multipletests(p, alpha=0.05, method="holm")
    assert reject[:-1] == want_r.tolist() and adjusted[:-1] == want_a.tolist()
    assert reject[-1] is False and math.isnan(adjusted[-1])
