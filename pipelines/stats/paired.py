"""Paired proportions: two win rates measured on the same games (a run and its replay, two
rungs of a ladder on duplicate deals), from the per-game win credits (1 a win, 1/k a win tied
between k, 0 a loss): the exact McNemar test and Newcombe's score interval."""

from __future__ import annotations

import math

from scipy import stats as sps
from statsmodels.stats.proportion import proportion_confint

ALPHA = 0.05


def mcnemar_exact(n_up: float, n_down: float) -> float:
    """Exact McNemar p-value: the two-sided sign test on the games whose outcome changed.  A
    tied win's share of a change (1/k of a game, audit N10) is counted as that fraction; the
    test takes whole games, so a fractional count is rounded towards the even split (the
    smaller count up, the larger down): the p-value never rests on a fraction of a game."""
    small, large = sorted((float(n_up), float(n_down)))
    small, large = math.ceil(small - 1e-9), math.floor(large + 1e-9)
    if large <= small:
        return 1.0
    return float(sps.binomtest(small, small + large, 0.5).pvalue)


def paired_proportions(n: int, pa: float, pb: float, n_up: int, n_down: int, n11: int, n10: int,
                       n01: int, n00: int, alpha: float = ALPHA):
    """(diff, low, high, p, note) of pb - pa for paired win credits (game by game: 1 a win, 1/k
    a win tied between k, 0 a loss).

    The 2x2 table is the credits' (n11 = sum of min(A, B), n10 = sum of the credit only A had,
    n01 = only B, n00 the rest), so a tie moves it by its fraction as it moves the rates (audit
    N10); without ties it is the usual table of counts.  p: the exact sign test on the changed
    credit (n01 went up, n10 went down, `mcnemar_exact`) — the exact McNemar test.  Interval:
    Newcombe's (1998) method 10, the score interval for a difference of paired proportions:
    Wilson intervals of both margins combined with the correlation phi of the 2x2 table.  When
    no game changed (n_up + n_down games whose credit went up or down) the difference is 0 in
    these games, but that is not a proven zero: the interval is the rule-of-three bound +-3/n
    (95% upper bound of the rate of changed games, which bounds |pb - pa|) and `note` says so."""
    if n < 1:
        return math.nan, math.nan, math.nan, math.nan, ""
    diff = pb - pa
    changed = n_up + n_down
    if changed == 0:
        # the rule of three at 95% (-ln(alpha) / n at another level)
        bound = min(1.0, (3.0 if alpha == ALPHA else -math.log(alpha)) / n)
        return diff, diff - bound, diff + bound, 1.0, f"no game changed; |B - A| < {bound:.3g} (rule of three)"
    p = mcnemar_exact(n01, n10)
    z_alpha = alpha
    l1, u1 = (float(x) for x in proportion_confint(pb * n, n, alpha=z_alpha, method="wilson"))
    l2, u2 = (float(x) for x in proportion_confint(pa * n, n, alpha=z_alpha, method="wilson"))
    # margins of the 2x2 table (B won / lost x A won / lost)
    r1, r2 = n11 + n01, n10 + n00      # B won, B lost
    c1, c2 = n11 + n10, n01 + n00      # A won, A lost
    denom = r1 * r2 * c1 * c2
    phi = (n11 * n00 - n10 * n01) / math.sqrt(denom) if denom > 0 else 0.0
    d1, d2 = pb - l1, u2 - pa
    e1, e2 = u1 - pb, pa - l2
    delta = math.sqrt(max(0.0, d1 * d1 - 2 * phi * d1 * d2 + d2 * d2))
    eps = math.sqrt(max(0.0, e1 * e1 - 2 * phi * e1 * e2 + e2 * e2))
    return diff, max(-1.0, diff - delta), min(1.0, diff + eps), p, ""
