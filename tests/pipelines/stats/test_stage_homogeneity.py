"""Audit N4: the Plackett-Luce model assumes one set of strengths decides the win and the later
places.  `stage_homogeneity` tests it (likelihood ratio of the joint fit against separate
stage fits): quiet on finishing orders drawn from one set of strengths, loud when the winner
is drawn with other strengths; its winner-stage likelihood is statsmodels' conditional logit's."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from dashboard.findings import stage_sentence
from pipelines.stats import stage_homogeneity

FACTIONS = ("a", "b", "c", "d")


def _orders(games: int, win: dict, later: dict, seed: int) -> list:
    """Finishing orders of 4-player games: the winner drawn by `win` strengths, the rest in
    order by `later` strengths (Plackett-Luce), factions seated at random."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        seats = list(FACTIONS)
        rng.shuffle(seats)
        left = list(range(4))
        ranks = [0] * 4
        for place in range(1, 5):
            u = win if place == 1 else later
            w = [math.exp(u[seats[i]]) for i in left]
            pick = rng.choices(left, weights=w)[0]
            ranks[pick] = place
            left.remove(pick)
        out.append((seats, ["0", "1", "2", "3"], ["greedy"] * 4, ranks, 1))
    return out


STRENGTHS = {"a": 0.6, "b": 0.2, "c": -0.2, "d": -0.6}


def test_orders_from_one_set_of_strengths_pass():
    p_values = [stage_homogeneity(_orders(400, STRENGTHS, STRENGTHS, seed)).p_value
                for seed in range(8)]
    # under the null the p-values are uniform: most are large, none tiny
    assert min(p_values) > 0.001 and sum(p > 0.05 for p in p_values) >= 6, p_values


def test_a_winner_drawn_by_other_strengths_fails():
    win = {"a": -0.6, "b": 0.6, "c": 0.2, "d": -0.2}
    test = stage_homogeneity(_orders(600, win, STRENGTHS, seed=1))
    assert test.p_value < 1e-6 and not test.holds and test.df == 6   # 3 factions + 3 seats
    winner = {t.level: t.estimate for t in test.winner.terms if t.kind == "faction"}
    assert winner["b"] > winner["a"]                 # the winner's stage sees its own order
    words = stage_sentence({"statistic": test.statistic, "df": test.df, "p": test.p_value,
                            "holds": False, "gaps": [(-1.1, "a")]})
    assert "do not decide the win and the later places" in words and "p < 0.001" in words


def test_two_player_games_have_no_later_stage():
    games = [(["a", "b"], ["0", "1"], ["g", "g"], [1, 2], 5), (["b", "a"], ["0", "1"], ["g", "g"], [1, 2], 3)]
    assert stage_homogeneity(games) is None


def test_the_winner_stage_likelihood_is_the_conditional_logit_s():
    from statsmodels.discrete.conditional_models import ConditionalLogit
    games = _orders(300, STRENGTHS, STRENGTHS, seed=5)
    test = stage_homogeneity(games)
    rows, y, groups = [], [], []
    for g, (seats, _s, _b, ranks, _c) in enumerate(games):
        for i in range(4):
            x = [1.0 if seats[i] == f else 0.0 for f in FACTIONS[1:]]
            x += [1.0 if i == k else 0.0 for k in (1, 2, 3)]
            rows.append(x)
            y.append(1 if ranks[i] == 1 else 0)
            groups.append(g)
    fit = ConditionalLogit(np.array(y), np.array(rows), groups=np.array(groups)).fit(disp=0)
    assert test.winner.loglik == pytest.approx(fit.llf, abs=0.05)
