"""Win rates and other proportions: Wilson intervals, exact binomial tests, rate tables."""

from __future__ import annotations

import math
from dataclasses import dataclass

from scipy import stats as sps
from statsmodels.stats.proportion import proportion_confint

from .multiplicity import holm


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


def rate_table(successes, n, p0, alpha: float = 0.05) -> dict[str, list[float]]:
    """Wilson interval, exact binomial p-value against ``p0`` and Holm's correction over the
    whole table, for aligned sequences of successes, trials and null rates (one row each).

    Returns columns ``rate``, ``low``, ``high``, ``p_value``, ``p_holm`` and ``significant``
    (the interval excludes ``p0`` after Holm's correction over all rows).
    """
    successes, n, p0 = list(successes), list(n), list(p0)
    rates = [rate_ci(int(s), int(k), alpha) for s, k in zip(successes, n, strict=True)]
    pvals = [rate_test(int(s), int(k), float(p)) if p is not None and not math.isnan(float(p))
             else math.nan for s, k, p in zip(successes, n, p0, strict=True)]
    reject, adjusted = holm(pvals, alpha)
    return {
        "rate": [r.rate for r in rates],
        "low": [r.low for r in rates],
        "high": [r.high for r in rates],
        "p_value": pvals,
        "p_holm": adjusted,
        "significant": reject,
    }
