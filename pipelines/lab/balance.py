"""Balance search (`delve balance GAME --param PATH --range LO:HI[:STEP] --target fair`).

Finds the value of one rules parameter that brings the factions' win rates closest to the fair
share 1/players, in the minimax sense: it minimises D(v) = max over factions |win rate - fair|.

Method: successive elimination for best-arm identification (Even-Dar, Mannor & Mansour 2006),
on the grid of candidate values, with anytime-valid confidence bounds.
- Every candidate is one run of the same sweep: round r adds `batch` games to every surviving
  candidate, with the same game seeds and seats in every candidate (common random numbers).
- After round r each faction's win rate gets a Wilson interval (statsmodels) at level
  1 - alpha / (K * F * r * (r + 1)), K candidates, F factions.  Since sum_r 1/(r(r+1)) = 1, all
  intervals of all rounds hold at once with probability >= 1 - alpha (union bound), so the
  stopping rule may look at the data after every round.
- From the intervals: U(v) = max_f max(|hi_f - fair|, |lo_f - fair|) bounds D(v) above, and
  L(v) = max_f distance(fair, [lo_f, hi_f]) bounds it below.  A candidate with L(v) > min_u U(u)
  cannot be the best and is dropped.  When the intervals hold, the best value is never dropped:
  P(dropping the best value) <= alpha — the stated error rate.
- Stop when one candidate survives, or when the best estimate b is within `tolerance` of every
  other survivor (U(b) - min L <= tolerance: b is tolerance-optimal with prob. >= 1 - alpha),
  or when a candidate reaches `max_games` (then the answer is reported as not settled).
The suggested value is the surviving candidate with the smallest estimated D; its interval is
the range of surviving values (the values the data cannot rule out as the best).

Why not a Bayesian optimiser (Optuna's TPE, scikit-optimize's GP)?  They minimise a noisy
function well, but give no error rate and no stopping rule tied to the uncertainty, which is
what a designer needs to trust "this value is fair"; designers' parameters are short integer
grids, where elimination with exact-coverage intervals is both cheaper and honest.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Callable, Sequence

import click

from engine.core.errors import DelveError

from pipelines.run.plan import Plan, make_plan
from pipelines.stats import rate_ci
from pipelines.store import Store, check_db_path
from pipelines.lab.sweep import new_sweep_id, parse_values, set_arg


@dataclass
class Candidate:
    value: object
    run_id: str = ""
    games: int = 0
    alive: bool = True
    estimate: float = math.nan   # D(v) from the point estimates
    lower: float = 0.0           # L(v)
    upper: float = 1.0           # U(v)
    rates: dict = field(default_factory=dict)   # faction -> (rate, lo, hi) at the round's level


@dataclass
class BalanceResult:
    sweep_id: str
    param: str
    fair: float
    alpha: float
    candidates: list[Candidate]
    rounds: int
    settled: bool
    reason: str

    @property
    def survivors(self) -> list[Candidate]:
        return [c for c in self.candidates if c.alive]

    @property
    def best(self) -> Candidate:
        return min(self.survivors, key=lambda c: c.estimate)

    @property
    def interval(self) -> tuple:
        vals = [c.value for c in self.survivors]
        return min(vals), max(vals)

    @property
    def total_games(self) -> int:
        return sum(c.games for c in self.candidates)


def bounds(wins_n: dict[str, tuple[int, int]], fair: float, level_alpha: float
           ) -> tuple[float, float, float, dict]:
    """(estimate, lower, upper) of D = max_f |rate_f - fair| from Wilson intervals at
    1 - level_alpha, and the per-faction (rate, lo, hi)."""
    est, lower, upper, rates = 0.0, 0.0, 0.0, {}
    for f, (w, n) in wins_n.items():
        r = rate_ci(w, n, alpha=level_alpha)
        rates[f] = (r.rate, r.low, r.high)
        est = max(est, abs(r.rate - fair))
        upper = max(upper, abs(r.high - fair), abs(r.low - fair))
        dist = 0.0 if r.low <= fair <= r.high else min(abs(r.low - fair), abs(r.high - fair))
        lower = max(lower, dist)
    return est, lower, upper, rates


def eliminate(cands: Sequence[Candidate]) -> None:
    alive = [c for c in cands if c.alive]
    best_upper = min(c.upper for c in alive)
    for c in alive:
        if c.lower > best_upper:
            c.alive = False


def balance_search(game_id: str, store: Store, *, param: str, values: list, plan_kwargs: dict,
                   fixed_sets: Sequence[str] = (), batch: int = 100, max_games: int = 5000,
                   alpha: float = 0.05, tolerance: float = 0.02, jobs: int = 1,
                   label: str = "", echo: Callable[[str], None] = lambda s: None,
                   progress: bool = False) -> BalanceResult:
    from pipelines.run.pairing import add_games, faction_rates, start_run
    if len(values) < 2:
        raise DelveError(f"--range gives {len(values)} value(s) of {param}: expected at least two")
    if not 0 < alpha < 1:
        raise DelveError(f"--alpha {alpha}: expected a number between 0 and 1, e.g. 0.05")

    def sets_for(v) -> list[str]:
        return list(fixed_sets) + [set_arg(param, v)]

    def plan_for(v) -> Callable[[int, int], Plan]:
        return lambda first, n: make_plan(game_id, n_games=n, first_index=first,
                                          sets=sets_for(v), **plan_kwargs)

    # Validate every candidate before anything is written.
    first_plans = [plan_for(v)(0, batch) for v in values]
    n_players = first_plans[0].n_players
    fair = 1.0 / n_players
    sweep_id = new_sweep_id(game_id, "balance")
    cands = [Candidate(v) for v in values]
    K = len(cands)
    first_run = None
    rnd = 0
    reason = ""
    settled = False
    while True:
        rnd += 1
        for c, plan0 in zip(cands, first_plans):
            if not c.alive:
                continue
            if rnd == 1:
                cfg = {"game": game_id, "balance": {"param": param, "value": c.value},
                       "sweep": {param: c.value}, "sets": sets_for(c.value), "games": batch,
                       "game_modules": list(plan0.game_modules), "jobs": jobs,
                       "players": n_players, "bots": plan_kwargs.get("bots", "random"),
                       "seed": plan_kwargs.get("seed", 0), "map": plan_kwargs.get("map"),
                       "factions": plan_kwargs.get("factions", "rotate"),
                       "variants": list(plan_kwargs.get("variants", ())), "log_moves": False}
                s = start_run(plan0, store, label=label or f"balance {param}={c.value}",
                              config=cfg, paired_with=first_run, sweep_id=sweep_id, jobs=jobs,
                              log_moves=False, progress=progress)
                c.run_id = s.run_id
                first_run = first_run or s.run_id
            else:
                add_games(plan_for(c.value), store, c.run_id, c.games, batch, jobs=jobs,
                          log_moves=False, progress=progress)
            c.games += batch
        for c in cands:
            if c.alive:
                wn = faction_rates(store.path, c.run_id)
                level_f = alpha / (K * max(1, len(wn)) * rnd * (rnd + 1))
                c.estimate, c.lower, c.upper, c.rates = bounds(wn, fair, level_f)
        eliminate(cands)
        alive = [c for c in cands if c.alive]
        best = min(alive, key=lambda c: c.estimate)
        echo(f"round {rnd}: {best.games} games per candidate; alive "
             + ", ".join(f"{c.value} (D={c.estimate:.3f} in [{c.lower:.3f},{c.upper:.3f}])"
                         for c in alive))
        if len(alive) == 1:
            settled, reason = True, "one candidate left: every other value is worse"
            break
        if best.upper - min(c.lower for c in alive) <= tolerance:
            settled = True
            reason = (f"the remaining values are within {tolerance} of each other in largest "
                      f"deviation (tolerance reached)")
            break
        if best.games + batch > max_games:
            reason = f"--max-games {max_games} per candidate reached before the answer settled"
            break
    return BalanceResult(sweep_id, param, fair, alpha, cands, rnd, settled, reason)


def format_balance(res: BalanceResult) -> str:
    best = res.best
    lo, hi = res.interval
    lines = [f"balance search {res.sweep_id} over {res.param} (target: every faction at the fair "
             f"share {res.fair:.1%}; minimise the largest deviation)",
             f"{'value':>10} {'games':>7} {'largest dev':>12} {'bounds':>17}  status"]
    for c in res.candidates:
        lines.append(f"{str(c.value):>10} {c.games:>7} {c.estimate:>12.3f} "
                     f"[{c.lower:.3f}, {c.upper:.3f}]  {'alive' if c.alive else 'eliminated'}")
    lines.append(f"suggested value: {res.param} = {best.value}  (largest deviation "
                 f"{best.estimate:.3f}; worst faction "
                 f"{max(best.rates, key=lambda f: abs(best.rates[f][0] - res.fair))})")
    lines.append(f"interval of values not ruled out: [{lo}, {hi}]")
    if res.settled:
        lines.append(f"settled after {res.rounds} round(s), {res.total_games} games: {res.reason}. "
                     f"Error rate: the best value of the grid is among the values not ruled out "
                     f"with probability >= {1 - res.alpha:.0%} (alpha = {res.alpha}).")
    else:
        lines.append(f"NOT settled after {res.rounds} round(s), {res.total_games} games: "
                     f"{res.reason}; the best value is in [{lo}, {hi}] with probability >= "
                     f"{1 - res.alpha:.0%}.")
    return "\n".join(lines)
