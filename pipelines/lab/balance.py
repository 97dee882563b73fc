"""Balance search (`delve balance GAME --param PATH --range LO:HI[:STEP] --target fair`).

Finds the value of one rules parameter that brings the factions' win rates closest to the fair
share 1/players, in the minimax sense: it minimises D(v) = max over factions |win rate - fair|.

Method (issue 12, P7): successive elimination for best-arm identification (Even-Dar, Mannor &
Mansour 2006) on the grid of candidate values, with exact intervals and paired differences.
- Every candidate is one run of the same sweep, on the same game seeds and seats (common random
  numbers).  Looks are geometric: after look r every surviving candidate has batch * 2^(r-1)
  games (few looks, so the error is spent on few of them).
- Every interval is exact (Clopper-Pearson, statsmodels `method="beta"`), never below its
  level even at the tiny levels used here (Wilson is not, at 1e-4 and 5% rates).  At look r
  every interval has level alpha / (M * r * (r + 1)), M the number of intervals of a look;
  since sum_r 1/(r(r+1)) = 1, all intervals of all looks hold together with probability
  >= 1 - alpha (union bound), so the data may be looked at after every round.
- Per candidate v and faction f, an interval of the win rate gives U(v) (an upper bound of
  D(v)) and L(v) (a lower bound).  A candidate with L(v) > min_u U(u) cannot be the best and is
  dropped: P(the best value of the grid is dropped) <= alpha.
- Paired: for two surviving candidates v, w and each faction, the games whose outcome for the
  faction went up (n_up) or down (n_down) from w to v on the same seeds and seats; exact bounds
  on P(up) and P(down) bound the change of the faction's win rate, and since D is 1-Lipschitz,
  |D(v) - D(w)| <= Delta(v, w) = max_f (bound on |change of f|).  When few games change this
  bound is far tighter than any unpaired one: it is where the shared seeds pay.
- Stop when one candidate survives; or when every two survivors are within the tolerance
  (max Delta <= tolerance: any survivor is within tolerance of the best value's largest
  deviation); or at --max-games.  The tolerance is never asked to be finer than the
  achievable width: at --max-games it is relaxed to the width then reached, and said so.
The answer is the set of survivors (the values the data cannot rule out), listed as a set; the
suggested value is the survivor with the smallest estimated D.

Why not a Bayesian optimiser (Optuna's TPE, scikit-optimize's GP)?  They minimise a noisy
function well, but give no error rate and no stopping rule tied to the uncertainty, which is
what a designer needs to trust "this value is fair"; designers' parameters are short integer
grids, where elimination with exact intervals is both cheaper and honest.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import combinations
from typing import Callable, Sequence

from engine.core.errors import DelveError

from pipelines.run.plan import Plan, make_plan
from pipelines.stats import exact_ci
from pipelines.store import Store, connect_read
from pipelines.lab.sweep import new_sweep_id, set_arg


@dataclass
class Candidate:
    value: object
    run_id: str = ""
    games: int = 0
    alive: bool = True
    estimate: float = math.nan   # D(v) from the point estimates
    lower: float = 0.0           # L(v)
    upper: float = 1.0           # U(v)
    rates: dict = field(default_factory=dict)   # faction -> (rate, lo, hi) at the look's level


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
    tolerance: float = math.nan      # the tolerance asked for
    within: float = math.nan         # max paired bound |D(v) - D(w)| over the survivors
    target: str | None = None        # the one faction tuned (--target FACTION), else all

    @property
    def survivors(self) -> list[Candidate]:
        return [c for c in self.candidates if c.alive]

    @property
    def best(self) -> Candidate:
        return min(self.survivors, key=lambda c: c.estimate)

    @property
    def surviving_values(self) -> list:
        return [c.value for c in self.survivors]

    @property
    def interval(self) -> tuple:
        vals = self.surviving_values
        return min(vals), max(vals)

    @property
    def total_games(self) -> int:
        return sum(c.games for c in self.candidates)


def bounds(wins_n: dict[str, tuple[float, int]], fair: float, level_alpha: float
           ) -> tuple[float, float, float, dict]:
    """(estimate, lower, upper) of D = max_f |rate_f - fair| from exact (Clopper-Pearson)
    intervals at 1 - level_alpha, and the per-faction (rate, lo, hi)."""
    est, lower, upper, rates = 0.0, 0.0, 0.0, {}
    for f, (w, n) in wins_n.items():
        lo, hi = exact_ci(w, n, alpha=level_alpha)
        rate = w / n if n else math.nan
        rates[f] = (rate, lo, hi)
        est = max(est, abs(rate - fair))
        upper = max(upper, abs(hi - fair), abs(lo - fair))
        dist = 0.0 if lo <= fair <= hi else min(abs(lo - fair), abs(hi - fair))
        lower = max(lower, dist)
    return est, lower, upper, rates


def paired_bound(n: int, n_up: int, n_down: int, partial: int, level_alpha: float) -> float:
    """Upper bound on |change of a win rate| between two candidates on the same n games, from
    the games whose outcome went up or down (exact bounds on P(up) and P(down), each at
    level_alpha / 2).  `partial`: games whose change was a fraction (a tie's 1/k share); with
    any, the looser bound max(P(up), P(down)) is used, valid for changes in [-1, 1]."""
    if n <= 0:
        return 1.0
    up_lo, up_hi = exact_ci(n_up, n, level_alpha / 2)
    dn_lo, dn_hi = exact_ci(n_down, n, level_alpha / 2)
    if partial:
        return max(up_hi, dn_hi)
    return max(abs(up_hi - dn_lo), abs(dn_hi - up_lo))


def eliminate(cands: Sequence[Candidate]) -> None:
    alive = [c for c in cands if c.alive]
    best_upper = min(c.upper for c in alive)
    for c in alive:
        if c.lower > best_upper:
            c.alive = False


def intervals_per_look(n_candidates: int, n_factions: int) -> int:
    """M: direct intervals (K x F) and the two paired bounds of every pair and faction."""
    return n_candidates * n_factions + n_candidates * (n_candidates - 1) * n_factions


def look(cands: Sequence[Candidate], counts: dict, pairs: dict, fair: float, alpha: float,
         rnd: int, n_factions: int, tolerance: float) -> tuple[bool, str, float]:
    """One look of the search on the counts (pure: the tests drive it with synthetic data).
    counts: candidate index -> {faction: (wins, n)}; pairs: (i, j) -> {faction: (n, up, down,
    partial)} for i < j.  Updates the candidates; returns (stop, why, within)."""
    level = alpha / (intervals_per_look(len(cands), n_factions) * rnd * (rnd + 1))
    for i, c in enumerate(cands):
        if c.alive:
            c.estimate, c.lower, c.upper, c.rates = bounds(counts[i], fair, level)
    eliminate(cands)
    alive = [i for i, c in enumerate(cands) if c.alive]
    if len(alive) == 1:
        return True, "one candidate left: every other value is worse", 0.0
    within = 0.0
    for i, j in combinations(alive, 2):
        per = pairs.get((i, j), {})
        delta = max((paired_bound(n, up, dn, part, level) for n, up, dn, part in per.values()),
                    default=1.0)
        within = max(within, delta)
    if within <= tolerance:
        return True, (f"every two remaining values are within {within:.3f} <= tolerance "
                      f"{tolerance} of each other in largest deviation (paired bound)"), within
    return False, "", within


# -- reading the sweep's runs ---------------------------------------------------------------------

_WINS = """
SELECT faction, sum(CASE WHEN won THEN 1.0 / nw ELSE 0.0 END), count(*)
FROM (SELECT faction, won, count(*) FILTER (WHERE won) OVER (PARTITION BY game_id) AS nw
      FROM players WHERE run_id = ?)
GROUP BY faction ORDER BY faction
"""

_PAIRS = """
WITH c AS (SELECT run_id, game_id, seat, faction,
                  CASE WHEN won THEN 1.0 / count(*) FILTER (WHERE won) OVER (PARTITION BY run_id, game_id)
                       ELSE 0.0 END AS w
           FROM players WHERE run_id IN (?, ?))
SELECT a.faction, count(*), count(*) FILTER (WHERE a.w > b.w), count(*) FILTER (WHERE a.w < b.w),
       count(*) FILTER (WHERE abs(a.w - b.w) NOT IN (0.0, 1.0))
FROM c a JOIN c b ON a.game_id = b.game_id AND a.seat = b.seat
WHERE a.run_id = ? AND b.run_id = ?
GROUP BY a.faction ORDER BY a.faction
"""


def read_counts(db, cands: Sequence[Candidate]) -> tuple[dict, dict]:
    counts, pairs = {}, {}
    alive = [i for i, c in enumerate(cands) if c.alive]
    with connect_read(db) as con:
        for i in alive:
            counts[i] = {f: (float(w), int(n)) for f, w, n in
                         con.execute(_WINS, [cands[i].run_id]).fetchall()}
        for i, j in combinations(alive, 2):
            a, b = cands[i].run_id, cands[j].run_id
            pairs[(i, j)] = {f: (int(n), int(up), int(dn), int(part)) for f, n, up, dn, part in
                             con.execute(_PAIRS, [a, b, a, b]).fetchall()}
    return counts, pairs


def budget(n_candidates: int, n_factions: int, share: float, fair: float, tolerance: float,
           alpha: float = 0.05, looks: int = 4) -> int:
    """About how many games per candidate the search needs to settle (audit N1): the games at
    which a faction's exact interval, at the level of look `looks` (alpha / (M r (r + 1))), is
    narrower than the tolerance on each side, the faction playing a `share` of the games."""
    from statistics import NormalDist
    m = intervals_per_look(n_candidates, n_factions)
    z = NormalDist().inv_cdf(1 - alpha / (2 * m * looks * (looks + 1)))
    player_games = (z ** 2) * fair * (1 - fair) / (tolerance ** 2)
    return int(math.ceil(player_games / max(share, 1e-9)))


def only(counts: dict, pairs: dict, faction: str | None) -> tuple[dict, dict]:
    """The counts and paired counts of one faction (--target FACTION), or all."""
    if faction is None:
        return counts, pairs
    return ({i: {f: v for f, v in c.items() if f == faction} for i, c in counts.items()},
            {k: {f: v for f, v in c.items() if f == faction} for k, c in pairs.items()})


def balance_search(game_id: str, store: Store, *, param: str, values: list, plan_kwargs: dict,
                   fixed_sets: Sequence[str] = (), batch: int = 100, max_games: int = 5000,
                   alpha: float = 0.05, tolerance: float = 0.02, jobs: int = 1,
                   label: str = "", echo: Callable[[str], None] = lambda s: None,
                   progress: bool = False, target: str | None = None) -> BalanceResult:
    tuned = target   # the faction (--target FACTION); `target` below is the games of a look
    from pipelines.run.pairing import add_games, start_run
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
    n_factions = len(first_plans[0].factions)
    fair = 1.0 / n_players
    if tuned is not None and tuned not in first_plans[0].factions:
        raise DelveError(f"--target {tuned}: not a faction of this run; expected 'fair' or one of "
                         f"{', '.join(first_plans[0].factions)}")
    judged = 1 if tuned else n_factions
    share = min(1.0, n_players / n_factions)
    need = budget(len(values), judged, share, fair, tolerance, alpha)
    echo(f"budget: about {need:,} games per candidate ({need * len(values):,} in all) to settle "
         f"at tolerance {tolerance} ({'the ' + tuned + ' faction' if tuned else 'all ' + str(n_factions) + ' factions'}"
         f" judged; each faction plays {share:.0%} of the games); --max-games is {max_games:,}"
         + (": the search will probably stop unsettled" if need > max_games else ""))
    sweep_id = new_sweep_id(game_id, "balance")
    cands = [Candidate(v) for v in values]
    first_run = None
    rnd = 0
    reason = ""
    settled = False
    within = math.nan
    target = batch
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
            elif target > c.games:
                add_games(plan_for(c.value), store, c.run_id, c.games, target - c.games,
                          jobs=jobs, log_moves=False, progress=progress)
            c.games = max(c.games, target)
        counts, pairs = only(*read_counts(store.path, cands), tuned)
        stop, why, within = look(cands, counts, pairs, fair, alpha, rnd, judged, tolerance)
        alive = [c for c in cands if c.alive]
        best = min(alive, key=lambda c: c.estimate)
        echo(f"look {rnd}: {best.games} games per candidate; alive "
             + ", ".join(f"{c.value} (D={c.estimate:.3f} in [{c.lower:.3f},{c.upper:.3f}])"
                         for c in alive) + f"; survivors within {within:.3f} (paired)")
        if stop:
            settled, reason = True, why
            break
        if target >= max_games:
            reason = (f"--max-games {max_games} per candidate reached: the tolerance achievable "
                      f"with this budget is {within:.3f} (asked {tolerance})")
            break
        target = min(max_games, 2 * target)
    return BalanceResult(sweep_id, param, fair, alpha, cands, rnd, settled, reason,
                         tolerance=tolerance, within=within, target=tuned)


def format_balance(res: BalanceResult) -> str:
    best = res.best
    aim = (f"the {res.target} faction at the fair share {res.fair:.1%}" if res.target else
           f"every faction at the fair share {res.fair:.1%}; minimise the largest deviation")
    lines = [f"balance search {res.sweep_id} over {res.param} (target: {aim})",
             f"{'value':>10} {'games':>7} {'largest dev':>12} {'bounds':>17}  status"]
    for c in res.candidates:
        lines.append(f"{str(c.value):>10} {c.games:>7} {c.estimate:>12.3f} "
                     f"[{c.lower:.3f}, {c.upper:.3f}]  {'alive' if c.alive else 'eliminated'}")
    if res.settled:
        lines.append(f"suggested value: {res.param} = {best.value}  (largest deviation "
                     f"{best.estimate:.3f}; worst faction "
                     f"{max(best.rates, key=lambda f: abs(best.rates[f][0] - res.fair))})")
    else:   # audit N1: an unsettled search's best estimate is a winner's-curse pick
        lines.append(f"no suggested value: the search has not settled (the smallest estimate, "
                     f"{res.param} = {best.value}, is not distinguished from the other survivors)")
    survivors = "{" + ", ".join(str(v) for v in res.surviving_values) + "}"
    lines.append(f"values not ruled out (a set): {survivors}")
    method = ("exact Clopper-Pearson intervals and paired bounds on the shared seeds, union "
              "bound over every interval of every look")
    if res.settled:
        lines.append(f"settled after {res.rounds} look(s), {res.total_games} games: {res.reason}. "
                     f"Error rate: the best value of the grid is among {survivors} with "
                     f"probability >= {1 - res.alpha:.0%} (alpha = {res.alpha}; {method}).")
    else:
        lines.append(f"NOT settled after {res.rounds} look(s), {res.total_games} games: "
                     f"{res.reason}; the best value is among {survivors} with probability >= "
                     f"{1 - res.alpha:.0%} (alpha = {res.alpha}), each of them within "
                     f"{res.within:.3f} of it in largest deviation.")
    return "\n".join(lines)
