"""Strength models fitted to finishing orders (faction and seat terms with intervals)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats as sps


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
    loglik: float = math.nan    # the log-likelihood at the estimate (without the prior)
    n_params: int = 0           # free parameters (the factions' mean is fixed)


@dataclass(frozen=True)
class StageTest:
    """Whether one set of strengths decides the win and the later places alike (the
    Plackett-Luce model's assumption): a likelihood-ratio test of the joint fit against
    separate fits of the winner's stage and the later stages."""
    statistic: float
    df: int
    p_value: float
    winner: StrengthFit
    later: StrengthFit

    @property
    def holds(self) -> bool:
        return not self.p_value < 0.05


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
    stages = []
    for f, s_, b, won, c in lineups:
        if sum(won) > 0 and c > 0:
            w = [float(x) / sum(won) for x in won]
            stages.append((list(f), [str(x) for x in s_], list(b), list(range(len(f))), w, 1.0,
                           float(c)))
    return _fit(stages, alpha, prior_sd)


def plackett_luce_model(lineups, alpha: float = 0.05, prior_sd: float = 3.0) -> StrengthFit:
    """The full Plackett-Luce model over the finishing order (issue 12, P13): the winner is
    chosen from the table, the second from the rest, and so on, each with probability
    exp(u_i) / sum over the seats still unplaced.  ``lineups``: ``(factions, seats, bots, ranks,
    count)`` with ``players.rank`` per seat (1 = first).  Tied ranks use Breslow's rule: every
    tied seat is a choice from the same set (the seats not yet placed, the tied ones included).
    The terms, centring, prior and intervals are those of :func:`luce_winner_model`; using every
    place, not only the winner, gives narrower intervals from the same games."""
    return _fit(_order_stages(lineups), alpha, prior_sd)


def _order_stages(lineups, which: str = "all") -> list:
    """The choice stages of the finishing orders: `which` = "all", "winner" (the first choice
    only) or "later" (every choice after it)."""
    stages = []
    for f, s_, b, ranks, c in lineups:
        if c <= 0 or not len(f):
            continue
        remaining = list(range(len(f)))
        for n, r in enumerate(sorted(set(ranks))):
            tied = [i for i in remaining if ranks[i] == r]
            if len(tied) == len(remaining):
                break
            w = [1.0 if i in tied else 0.0 for i in remaining]
            if which == "all" or (which == "winner") == (n == 0):
                stages.append((list(f), [str(x) for x in s_], list(b), list(remaining), w,
                               float(len(tied)), float(c)))
            remaining = [i for i in remaining if i not in tied]
    return stages


def stage_homogeneity(lineups, prior_sd: float = 3.0) -> StageTest | None:
    """Audit N4: does one set of strengths decide both the win and the later places?  The
    likelihood-ratio statistic 2 (ll_winner + ll_later - ll_joint) of the Plackett-Luce fit
    against separate fits of the two stages, chi-square on the joint model's free parameters
    (the conditional logit per stage, as statsmodels' ConditionalLogit would fit it; the weak
    prior of the fits is left out of the likelihoods).  None when a stage is empty (two-player
    games have no later stage)."""
    lineups = list(lineups)
    winner = _fit(_order_stages(lineups, "winner"), 0.05, prior_sd)
    later = _fit(_order_stages(lineups, "later"), 0.05, prior_sd)
    joint = _fit(_order_stages(lineups, "all"), 0.05, prior_sd)
    if not winner.terms or not later.terms or joint.n_params == 0:
        return None
    stat = max(2.0 * (winner.loglik + later.loglik - joint.loglik), 0.0)
    df = joint.n_params
    return StageTest(stat, df, float(sps.chi2.sf(stat, df)), winner, later)


def _fit(stages, alpha: float, prior_sd: float) -> StrengthFit:
    """Penalised conditional-logit fit of choice stages ``(factions, seats, bots, choice set,
    weights over the set, total weight, count)``."""
    ridge = 1.0 / (2.0 * prior_sd ** 2)
    if not stages:
        return StrengthFit((), 0, False, {})
    factions = sorted({x for r in stages for x in r[0]})
    seats = sorted({x for r in stages for x in r[1]}, key=lambda s: (len(s), s))
    bots = sorted({x for r in stages for x in r[2]})
    bot_by_seat: dict[str, set] = {}
    for r in stages:
        for s, b in zip(r[1], r[2]):
            bot_by_seat.setdefault(s, set()).add(b)
    use_bots = len(bots) > 1 and any(len(v) > 1 for v in bot_by_seat.values())
    columns = ([("faction", f) for f in factions] + [("seat", s) for s in seats[1:]]
               + ([("bot", b) for b in bots[1:]] if use_bots else []))
    index = {c: i for i, c in enumerate(columns)}
    k = len(columns)
    designs, targets, totals, weights = [], [], [], []
    n_games = 0.0
    for f, s_, b, chosen_from, w, total, count in stages:
        x = np.zeros((len(chosen_from), k))
        for row, i in enumerate(chosen_from):
            x[row, index[("faction", f[i])]] = 1.0
            if ("seat", s_[i]) in index:
                x[row, index[("seat", s_[i])]] = 1.0
            if use_bots and ("bot", b[i]) in index:
                x[row, index[("bot", b[i])]] = 1.0
        designs.append(x)
        targets.append(np.asarray(w, dtype=float))
        totals.append(float(total))
        weights.append(count)
        if len(chosen_from) == len(f):
            n_games += count
    # faction effects are only identified up to a constant: the prior also pins their mean

    def objective(theta, with_hessian: bool):
        total, grad = 0.0, np.zeros(k)
        hess = np.zeros((k, k)) if with_hessian else None
        for x, w, big_w, c in zip(designs, targets, totals, weights):
            u = x @ theta
            m = u.max()
            lse = m + math.log(np.exp(u - m).sum())
            p = np.exp(u - lse)
            total -= c * float(w @ u - big_w * lse)
            grad -= c * (x.T @ (w - big_w * p))
            if with_hessian:
                xm = x - p @ x
                hess += c * big_w * (xm.T * p) @ xm
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
    # with a fixed, different bot per seat the seat terms also carry the bot (audit P13)
    fixed = {s: next(iter(v)) for s, v in bot_by_seat.items() if len(v) == 1}
    if not use_bots and len(set(fixed.values())) > 1:
        reference["seat_includes_bot"] = "yes"
    loglik = -(value - ridge * float(theta @ theta))
    return StrengthFit(tuple(terms), int(n_games), converged, reference, loglik, k - 1)
