"""Statistics shared by the dashboard, the report and the what-if tools.

Every rate comes with its interval; the computations are delegated to statsmodels/scipy.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats as sps
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
    """Holm step-down correction: (reject, adjusted p-values); NaN stays NaN.

    The very steps of statsmodels' ``multipletests(method="holm")`` (a test checks that they
    agree to the bit), minus the ``gc.collect()`` it runs on every call: 30-50 ms in a process
    as large as the dashboard, which corrects four tables per page."""
    pv = np.asarray(list(pvalues), dtype=float)
    ok = ~np.isnan(pv)
    reject = np.zeros(len(pv), dtype=bool)
    adj = np.full(len(pv), np.nan)
    if ok.any():
        order = np.argsort(pv[ok])
        ranked = np.take(pv[ok], order)
        m = len(ranked)
        keep = ranked > alpha / np.arange(m, 0, -1)
        first_kept = np.nonzero(keep)[0]
        keep[(first_kept.min() if first_kept.size else m):] = True
        corrected = np.maximum.accumulate(ranked * np.arange(m, 0, -1))
        corrected[corrected > 1] = 1
        r, a = np.empty_like(keep), np.empty_like(corrected)
        r[order], a[order] = ~keep, corrected
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


# --- summaries for the dashboard: rates against a share, differences from summary statistics --

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

@dataclass(frozen=True)
class Term:
    kind: str        # "faction", "seat" or "bot"
    level: str
    estimate: float  # log-strength; factions centred on their mean, seats/bots vs the first level
    low: float
    high: float


@dataclass(frozen=True)
class StrengthFit:
    terms: tuple[Term, ...]
    n_games: int
    converged: bool
    reference: dict[str, str]   # the level each non-centred kind is measured against


def luce_winner_model(lineups, alpha: float = 0.05, prior_sd: float = 3.0) -> StrengthFit:
    """Fit P(seat i wins | the table) = exp(u_i) / sum_j exp(u_j), u_i = faction + seat (+ bot),
    the Plackett-Luce model's first choice (Bradley-Terry for two players; statsmodels calls it
    the conditional logit).  ``lineups`` is an iterable of ``(factions, seats, bots, won, count)``
    — one row per distinct table (sequences aligned by seat, ``won`` 0/1 per seat, ties share
    the win) and how many games had it, so 100,000 games fit in milliseconds.

    Faction log-strengths are centred (0 = an average faction); seat terms are against the first
    seat and bot terms against the first bot in sorted order (left out when bots are fixed per
    seat, as they would be confounded with seat).  Every term has a weak normal prior
    N(0, prior_sd²) — negligible with thousands of games, but it keeps the estimates finite when
    a small run separates (a seat that never won).  Intervals are Wald intervals from the
    penalised observed information (the analytic Hessian, also used by the Newton steps).
    """
    ridge = 1.0 / (2.0 * prior_sd ** 2)
    rows = [(list(f), [str(s) for s in s_], list(b), [float(w) for w in won], float(c))
            for f, s_, b, won, c in lineups if sum(won) > 0 and c > 0]
    if not rows:
        return StrengthFit((), 0, False, {})
    factions = sorted({x for r in rows for x in r[0]})
    seats = sorted({x for r in rows for x in r[1]}, key=lambda s: (len(s), s))
    bots = sorted({x for r in rows for x in r[2]})
    bot_by_seat: dict[str, set] = {}
    for r in rows:
        for s, b in zip(r[1], r[2]):
            bot_by_seat.setdefault(s, set()).add(b)
    use_bots = len(bots) > 1 and any(len(v) > 1 for v in bot_by_seat.values())
    columns = ([("faction", f) for f in factions] + [("seat", s) for s in seats[1:]]
               + ([("bot", b) for b in bots[1:]] if use_bots else []))
    index = {c: i for i, c in enumerate(columns)}
    k = len(columns)
    designs, targets, weights = [], [], []
    for f, s_, b, won, count in rows:
        x = np.zeros((len(f), k))
        for i in range(len(f)):
            x[i, index[("faction", f[i])]] = 1.0
            if ("seat", s_[i]) in index:
                x[i, index[("seat", s_[i])]] = 1.0
            if use_bots and ("bot", b[i]) in index:
                x[i, index[("bot", b[i])]] = 1.0
        w = np.asarray(won) / sum(won)
        designs.append(x)
        targets.append(w)
        weights.append(count)
    # faction effects are only identified up to a constant: the prior also pins their mean
    def objective(theta, with_hessian: bool):
        total, grad = 0.0, np.zeros(k)
        hess = np.zeros((k, k)) if with_hessian else None
        for x, w, c in zip(designs, targets, weights):
            u = x @ theta
            m = u.max()
            lse = m + math.log(np.exp(u - m).sum())
            p = np.exp(u - lse)
            total -= c * float(w @ u - lse)
            grad -= c * (x.T @ (w - p))
            if with_hessian:
                xm = x - p @ x
                hess += c * (xm.T * p) @ xm
        total += ridge * float(theta @ theta)
        grad += 2 * ridge * theta
        if with_hessian:
            hess += 2 * ridge * np.eye(k)
        return total, grad, hess

    # Newton's method with step halving: the penalised likelihood is strictly concave
    theta = np.zeros(k)
    value, grad, hess = objective(theta, True)
    converged = False
    for _ in range(100):
        step = np.linalg.solve(hess, grad)
        t = 1.0
        while True:
            candidate = theta - t * step
            new_value = objective(candidate, False)[0]
            if new_value <= value + 1e-12 * abs(value) or t < 1e-8:
                break
            t /= 2
        theta = candidate
        value, grad, hess = objective(theta, True)
        if float(np.max(np.abs(t * step))) < 1e-10:
            converged = True
            break
    nf = len(factions)
    # centre the factions: contrast matrix C (faction block minus its mean), other terms as they are
    contrast = np.eye(k)
    contrast[:nf, :nf] -= 1.0 / nf
    cov_raw = np.linalg.inv(hess)
    est = contrast @ theta
    cov = contrast @ cov_raw @ contrast.T
    z = float(sps.norm.ppf(1 - alpha / 2))
    terms = []
    for (kind, level), e, v in zip(columns, est, np.diag(cov)):
        se = math.sqrt(max(float(v), 0.0))
        terms.append(Term(kind, level, float(e), float(e - z * se), float(e + z * se)))
    reference = {"seat": seats[0]}
    if use_bots:
        reference["bot"] = bots[0]
    return StrengthFit(tuple(terms), int(sum(weights)), converged, reference)


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
