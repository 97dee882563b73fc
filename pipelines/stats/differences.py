"""Means and differences of means: t intervals, paired and Welch differences."""

from __future__ import annotations

import math

import numpy as np
from scipy import stats as sps


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


# --- summaries for the dashboard: rates against a share, differences from summary statistics --


def diff_ci_summary(mean_a: float, var_a: float, n_a: int, mean_b: float, var_b: float, n_b: int,
                    alpha: float = 0.05) -> tuple[float, float, float, float]:
    """Welch difference b - a from summary statistics (mean, sample variance, n), as the
    dashboard gets them from SQL: (difference, low, high, p-value) with scipy's t."""
    if n_a < 2 or n_b < 2 or any(v is None for v in (var_a, var_b)):
        d = (mean_b - mean_a) if n_a and n_b else math.nan
        return d, math.nan, math.nan, math.nan
    d = float(mean_b - mean_a)
    va, vb = float(var_a) / n_a, float(var_b) / n_b
    se = math.sqrt(va + vb)
    if se == 0:
        return d, d, d, (1.0 if d == 0 else 0.0)
    df = (va + vb) ** 2 / ((va ** 2) / (n_a - 1) + (vb ** 2) / (n_b - 1))
    t = float(sps.t.ppf(1 - alpha / 2, df))
    p = float(2 * sps.t.sf(abs(d) / se, df))
    return d, d - t * se, d + t * se, p


# --- a strength model: Luce's choice of the winner, with faction, seat and bot terms ----------
