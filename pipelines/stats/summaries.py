"""Summaries of weighted (value, count) distributions: mean, sd and quantiles."""

from __future__ import annotations

import math

import numpy as np


def weighted_summary(values, counts) -> dict[str, float]:
    """n, mean, sample variance, min, quartiles and max of a sample given as distinct values
    and how often each occurs (a frequency table from SQL). Quartiles interpolate linearly
    between order statistics, as numpy's default and DuckDB's ``quantile_cont`` do, so they
    equal the quantiles of the expanded sample."""
    v = np.asarray(list(values), dtype=float)
    c = np.asarray(list(counts), dtype=np.int64)
    keep = c > 0
    v, c = v[keep], c[keep]
    n = int(c.sum())
    if n == 0:
        return {k: math.nan for k in ("mean", "var", "min", "q1", "median", "q3", "max")} | {"n": 0}
    order = np.argsort(v, kind="stable")
    v, c = v[order], c[order]
    mean = float((v * c).sum() / n)
    var = float(((v - mean) ** 2 * c).sum() / (n - 1)) if n > 1 else math.nan
    ends = np.cumsum(c)  # order statistic k (0-based) is v[searchsorted(ends, k, 'right')]

    def order_stat(k: int) -> float:
        return float(v[int(np.searchsorted(ends, k, side="right"))])

    def quantile(q: float) -> float:
        h = (n - 1) * q
        lo = math.floor(h)
        a = order_stat(lo)
        return a if lo + 1 >= n else a + (h - lo) * (order_stat(lo + 1) - a)

    return {"n": n, "mean": mean, "var": var, "min": float(v[0]), "q1": quantile(0.25),
            "median": quantile(0.5), "q3": quantile(0.75), "max": float(v[-1])}


def median_ci(values, alpha: float = 0.05) -> tuple[float, float, float]:
    """The median with its distribution-free interval (order statistics; scipy's
    `quantile_test(...).confidence_interval`): no assumption on the values' distribution,
    exact coverage at least 1 - alpha.  Returns (median, low, high)."""
    from scipy.stats import quantile_test
    x = np.asarray(list(values), dtype=float)
    x = x[~np.isnan(x)]
    if len(x) == 0:
        return math.nan, math.nan, math.nan
    med = float(np.median(x))
    if len(x) < 2:
        return med, med, med
    ci = quantile_test(x, q=med, p=0.5).confidence_interval(1 - alpha)
    low = float(ci.low) if np.isfinite(ci.low) else float(x.min())
    high = float(ci.high) if np.isfinite(ci.high) else float(x.max())
    return med, low, high
