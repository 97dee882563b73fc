"""Issue 29, audit N2: head to head beyond strength.  Tables simulated from a Plackett-Luce
model with very unequal strengths: the raw shares are far from 1/2 but nothing is marked beyond
strength; an added matchup (A beats B whenever both sit) is found."""

from __future__ import annotations

import itertools

import numpy as np

from pipelines.stats import plackett_luce_model
from pipelines.stats.matchups import matchup_residuals

STRENGTH = {"a": 1.0, "b": 0.0, "c": -0.5, "d": 0.6, "e": -1.0}


def _tables(rng, games: int, matchup: bool = False):
    out = []
    for _ in range(games):
        f = list(rng.choice(list(STRENGTH), size=4, replace=False))
        w = np.exp([STRENGTH[x] for x in f])
        left, order = list(range(4)), []
        while left:
            p = w[left] / w[left].sum()
            k = left[rng.choice(len(left), p=p)]
            order.append(k)
            left.remove(k)
        if matchup and "a" in f and "b" in f:      # a always finishes just above b
            ia, ib = f.index("a"), f.index("b")
            if order.index(ia) > order.index(ib):
                order[order.index(ia)], order[order.index(ib)] = ib, ia
        ranks = [order.index(i) + 1 for i in range(4)]
        out.append((f, [str(i) for i in range(4)], [None] * 4, ranks, 1))
    return out


def test_strength_alone_marks_no_matchup():
    rng = np.random.default_rng(5)
    tables = _tables(rng, 1500)
    res = matchup_residuals(tables, plackett_luce_model(tables))
    ab = res.filter((res["faction"] == "a") & (res["opponent"] == "e")).row(0, named=True)
    assert ab["observed"] > 0.8                       # the raw share is far from 1/2 ...
    assert abs(ab["residual"]) < 0.05                 # ... and strength explains it
    assert not res["significant"].any()
    pairs = {tuple(sorted(p)) for p in itertools.permutations(STRENGTH, 2)}
    assert len(res) == 2 * len(pairs)


def test_a_real_matchup_is_found():
    rng = np.random.default_rng(6)
    tables = _tables(rng, 1500, matchup=True)
    res = matchup_residuals(tables, plackett_luce_model(tables))
    ab = res.filter((res["faction"] == "a") & (res["opponent"] == "b")).row(0, named=True)
    assert ab["significant"] and ab["residual"] > 0.1
    ba = res.filter((res["faction"] == "b") & (res["opponent"] == "a")).row(0, named=True)
    assert ba["significant"] and ba["residual"] < -0.1
