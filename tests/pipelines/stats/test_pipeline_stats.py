"""pipelines.stats: intervals and corrections from statsmodels/scipy, checked on known values."""

import math

from pipelines.stats import diff_ci, holm, mean_ci, rate_ci, rate_test


def test_wilson_interval_known_value():
    r = rate_ci(50, 100)
    assert r.rate == 0.5 and math.isclose(r.low, 0.4038, abs_tol=1e-3) and math.isclose(r.high, 0.5962, abs_tol=1e-3)
    assert math.isnan(rate_ci(0, 0).rate)


def test_binomial_test_and_holm():
    assert rate_test(50, 100, 0.5) > 0.9 and rate_test(90, 100, 0.5) < 1e-10
    reject, adj = holm([0.01, 0.04, 0.03, float("nan")])
    assert reject[:3] == [True, False, False] and math.isclose(adj[0], 0.03) and math.isnan(adj[3])


def test_mean_and_difference_intervals():
    m, lo, hi = mean_ci([1, 2, 3, 4, 5])
    assert m == 3 and lo < 3 < hi
    same = diff_ci([1, 2, 3, 4], [1, 2, 3, 4], paired=True)
    assert same[0] == 0 and same[1] <= 0 <= same[2]
    shifted = diff_ci([1, 2, 3, 4, 5, 6], [2, 3, 4, 5, 6, 8], paired=True)
    assert shifted[1] > 0 and shifted[3] < 0.05
    unpaired = diff_ci([0, 1] * 50, [1, 1] * 50, paired=False)
    assert unpaired[1] > 0
