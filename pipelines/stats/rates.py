"""Win rates and other proportions: Wilson intervals, exact binomial tests, rate tables."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats as sps
from statsmodels.stats.proportion import proportion_confint

from .multiplicity import holm


@dataclass(frozen=True)
class Rate:
    successes: float
    n: int
    rate: float
    low: float
    high: float


def rate_ci(successes: float, n: int, alpha: float = 0.05) -> Rate:
    """A proportion with its Wilson score interval (statsmodels).  `successes` may be
    fractional: a win shared by k tied winners counts 1/k (issue 12, P13)."""
    if n <= 0:
        return Rate(successes, n, math.nan, math.nan, math.nan)
    low, high = proportion_confint(successes, n, alpha=alpha, method="wilson")
    return Rate(successes, n, successes / n, float(low), float(high))


def rate_test(successes: float, n: int, p0: float) -> float:
    """Two-sided exact binomial test p-value of rate = p0 (scipy).  A fractional count (shared
    wins of tied games, 1/k each) is rounded to the nearest whole win for the exact test."""
    if n <= 0:
        return math.nan
    return float(sps.binomtest(int(round(successes)), n, p0).pvalue)


def exact_ci(successes: float, n: int, alpha: float = 0.05) -> tuple[float, float]:
    """Clopper-Pearson (exact) interval: never below its nominal coverage, even at the tiny
    levels of simultaneous intervals or of the balance search (Wilson is not, audit P7a)."""
    if n <= 0:
        return math.nan, math.nan
    low, high = proportion_confint(successes, n, alpha=alpha, method="beta")
    return float(low), float(high)


def rate_table(successes, n, p0, alpha: float = 0.05) -> dict[str, list[float]]:
    """Wilson interval, exact binomial p-value against ``p0`` and Holm's correction over the
    whole table, for aligned sequences of successes, trials and null rates (one row each).

    Returns columns ``rate``, ``low``, ``high`` (the row's own 95% Wilson interval),
    ``p_value`` (exact binomial test of rate = p0), ``p_holm`` and ``significant`` (the test
    rejects rate = p0 after Holm's correction over all rows: this, not the row's own interval,
    is what a ▲/▼ mark means), and ``low_sim``/``high_sim``: simultaneous intervals
    (Clopper-Pearson at alpha / m, Bonferroni over the m rows), which all hold together with
    probability >= 1 - alpha; a mark's row has a test at least as strong as these intervals'
    (Holm is uniformly more powerful than Bonferroni), so a simultaneous interval that excludes
    p0 always carries a mark (audit P11).
    """
    successes, n, p0 = list(successes), list(n), list(p0)
    rates = [rate_ci(float(s), int(k), alpha) for s, k in zip(successes, n, strict=True)]
    pvals = [rate_test(float(s), int(k), float(p)) if p is not None and not math.isnan(float(p))
             else math.nan for s, k, p in zip(successes, n, p0, strict=True)]
    reject, adjusted = holm(pvals, alpha)
    m = max(1, sum(1 for p in pvals if not math.isnan(p)))
    sim = [exact_ci(float(s), int(k), alpha / m) for s, k in zip(successes, n, strict=True)]
    return {
        "rate": [r.rate for r in rates],
        "low": [r.low for r in rates],
        "high": [r.high for r in rates],
        "p_value": pvals,
        "p_holm": adjusted,
        "significant": reject,
        "low_sim": [a for a, _ in sim],
        "high_sim": [b for _, b in sim],
    }


def ratio_ci(num, den, *, share: bool = False, counts: bool = True,
             alpha: float = 0.05) -> tuple[float, float, float]:
    """A ratio of totals over independent clusters (games), sum(num) / sum(den), with an
    interval that respects the clusters: the ratio estimator's linearised variance
    (sum over clusters of (num - R den)^2, Cochran's formula; t quantile on n - 1 degrees of
    freedom), widened to at least the exact interval of the totals taken as counts (Poisson
    for a rate, Clopper-Pearson for a `share` of den that num is part of), so that a total of
    0 or near den still gets an honest width rather than [0, 0].  `counts=False`: num is a
    signed total of values, not a count (no exact widening, no floor at 0).  Returns (ratio,
    low, high)."""
    n_arr = np.asarray(num, dtype=float)
    d_arr = np.asarray(den, dtype=float)
    n_tot, d_tot = float(n_arr.sum()), float(d_arr.sum())
    if d_tot <= 0 or len(d_arr) == 0:
        return math.nan, math.nan, math.nan
    r = n_tot / d_tot
    k = len(d_arr)
    if k > 1:
        resid = n_arr - r * d_arr
        se = math.sqrt(float((resid ** 2).sum()) * k / (k - 1)) / d_tot
        q = float(sps.t.ppf(1 - alpha / 2, k - 1))
        low, high = r - q * se, r + q * se
    else:
        low, high = r, r
    if not counts:
        return r, low, high
    if share:
        e_low, e_high = exact_ci(round(n_tot), max(int(round(d_tot)), 1), alpha)
    else:
        c = round(n_tot)
        e_low = float(sps.chi2.ppf(alpha / 2, 2 * c) / 2) / d_tot if c > 0 else 0.0
        e_high = float(sps.chi2.ppf(1 - alpha / 2, 2 * c + 2) / 2) / d_tot
    low, high = min(low, e_low), max(high, e_high)
    return r, max(low, 0.0), min(high, 1.0) if share else high
