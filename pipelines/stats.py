"""Statistics shared by the dashboard, the report and the what-if tools.

Every rate comes with its interval; the computations are delegated to statsmodels/scipy.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats as sps
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint


@dataclass(frozen=True)
class Rate:
    successes: int
    n: int
    rate: float
    low: float
    high: float


def rate_ci(successes: int, n: int, alpha: float = 0.05) -> Rate:
    """A proportion with its Wilson score interval (statsmodels)."""
    if n <= 0:
        return Rate(successes, n, math.nan, math.nan, math.nan)
    low, high = proportion_confint(successes, n, alpha=alpha, method="wilson")
    return Rate(successes, n, successes / n, float(low), float(high))


def rate_test(successes: int, n: int, p0: float) -> float:
    """Two-sided exact binomial test p-value of rate = p0 (scipy)."""
    if n <= 0:
        return math.nan
    return float(sps.binomtest(successes, n, p0).pvalue)


def holm(pvalues, alpha: float = 0.05) -> tuple[list[bool], list[float]]:
    """Holm step-down correction (statsmodels): (reject, adjusted p-values); NaN stays NaN."""
    pv = np.asarray(list(pvalues), dtype=float)
    ok = ~np.isnan(pv)
    reject = np.zeros(len(pv), dtype=bool)
    adj = np.full(len(pv), np.nan)
    if ok.any():
        r, a, _, _ = multipletests(pv[ok], alpha=alpha, method="holm")
        reject[ok] = r
        adj[ok] = a
    return reject.tolist(), adj.tolist()


def mean_ci(values, alpha: float = 0.05) -> tuple[float, float, float]:
    """Mean with a t interval (scipy)."""
    x = np.asarray(values, dtype=float)
    if len(x) == 0:
        return math.nan, math.nan, math.nan
    m = float(x.mean())
    if len(x) < 2 or x.std(ddof=1) == 0:
        return m, m, m
    low, high = sps.t.interval(1 - alpha, len(x) - 1, loc=m, scale=sps.sem(x))
    return m, float(low), float(high)


def diff_ci(a, b, paired: bool, alpha: float = 0.05) -> tuple[float, float, float, float]:
    """Difference of means b - a with a t interval and p-value: paired (same seeds, game by
    game) or Welch's unpaired.  Works for 0/1 outcomes (win rates) and scores alike."""
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    if paired:
        d = b - a
        if len(d) < 2:
            return float(d.mean()) if len(d) else math.nan, math.nan, math.nan, math.nan
        m = float(d.mean())
        se = float(d.std(ddof=1) / math.sqrt(len(d)))
        if se == 0:
            return m, m, m, (1.0 if m == 0 else 0.0)
        t = sps.t.ppf(1 - alpha / 2, len(d) - 1)
        p = float(sps.ttest_rel(b, a).pvalue)
        return m, m - t * se, m + t * se, p
    if len(a) < 2 or len(b) < 2:
        return float(b.mean() - a.mean()) if len(a) and len(b) else math.nan, math.nan, math.nan, math.nan
    m = float(b.mean() - a.mean())
    va, vb = a.var(ddof=1) / len(a), b.var(ddof=1) / len(b)
    se = math.sqrt(va + vb)
    if se == 0:
        return m, m, m, (1.0 if m == 0 else 0.0)
    df = (va + vb) ** 2 / ((va ** 2) / (len(a) - 1) + (vb ** 2) / (len(b) - 1))
    t = sps.t.ppf(1 - alpha / 2, df)
    p = float(sps.ttest_ind(b, a, equal_var=False).pvalue)
    return m, m - t * se, m + t * se, p
