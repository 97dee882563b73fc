"""Faction verdicts a designer can act on: *balanced within ±margin*, *too strong*, *too weak*
or *not yet known*, with the games that would settle the last (issue 29).

- **Too strong / too weak**: the exact binomial test of rate = fair share rejects after Holm's
  correction over the factions (`rate_table`'s mark; unchanged).
- **Balanced within ±margin**: equivalence, the two one-sided exact binomial tests (TOST,
  statsmodels' `binom_tost`) of |rate − fair| < margin reject after Holm's correction over the
  factions.  "Every faction is balanced" is then an intersection-union claim at the same level
  (its p-value is the largest of the factions' TOST p-values, which Holm leaves as it is).
  A faction shown both to differ and to be within the margin is *balanced*: its imbalance is
  real but smaller than the smallest one that matters.
- **Not yet known**: neither.  The games that would settle it: the sample size at which the
  faction's TOST has 80% power if its true rate is the fair share, and the difference test 80%
  power if the true rate is off by the margin, each at the Bonferroni level over the factions
  (statsmodels' `NormalIndPower` with `ratio=0`, the one-sample case, on Cohen's h), the larger
  of the two, converted from the faction's player-games to games by its share of the games.
  Planned from the designer's margin, never from the observed difference.

The margin is the smallest imbalance that matters, per game: `data/balance/margins.toml`
(default ±3 points of win rate), or `--margin` / the page's field.
"""

from __future__ import annotations

import math
import tomllib
from functools import lru_cache
from pathlib import Path

from .multiplicity import holm

DEFAULT_MARGIN = 0.03
MARGINS_FILE = Path(__file__).resolve().parents[2] / "data" / "balance" / "margins.toml"
POWER = 0.8

BALANCED, STRONG, WEAK, UNKNOWN = "balanced", "too strong", "too weak", "not yet known"


@lru_cache(maxsize=1)
def _margins() -> dict:
    if not MARGINS_FILE.is_file():
        return {}
    with MARGINS_FILE.open("rb") as fh:
        return tomllib.load(fh)


def margin_for(game: str | None) -> float:
    """The game's margin from `data/balance/margins.toml` (else the default)."""
    entry = _margins().get(game or "", {})
    return float(entry.get("win_rate", _margins().get("default", {}).get("win_rate", DEFAULT_MARGIN)))


def check_margin(margin: float, name: str = "--margin") -> float:
    from engine.core.errors import DelveError
    if not 0 < margin < 0.5:
        raise DelveError(f"{name} {margin}: expected a win-rate margin between 0 and 0.5, "
                         f"e.g. 0.03 for ±3 points")
    return float(margin)


def tost_p(successes: float, n: int, p0: float, margin: float) -> float:
    """p-value of the exact TOST of |rate − p0| < margin (a tied win's 1/k is rounded)."""
    if n <= 0:
        return math.nan
    from statsmodels.stats.proportion import binom_tost
    low, upp = max(p0 - margin, 1e-9), min(p0 + margin, 1 - 1e-9)
    return float(binom_tost(int(round(successes)), int(n), low, upp)[0])


@lru_cache(maxsize=4096)
def player_games_to_settle(p0: float, margin: float, m: int, alpha: float = 0.05,
                           power: float = POWER) -> float:
    """Player-games of one faction at which its verdict settles with `power` (see the module)."""
    from statsmodels.stats.power import NormalIndPower
    from statsmodels.stats.proportion import proportion_effectsize
    solver = NormalIndPower()
    up = min(p0 + margin, 0.999)
    h = abs(float(proportion_effectsize(up, p0)))
    level = alpha / max(m, 1)
    # equivalence: both one-sided tests at `level`, each with power 1 - beta/2 at the centre
    n_eq = solver.solve_power(effect_size=h, alpha=2 * level, power=1 - (1 - power) / 2, ratio=0)
    # difference: two-sided at `level`, true rate one margin away
    n_diff = solver.solve_power(effect_size=h, alpha=level, power=power, ratio=0)
    return float(max(n_eq, n_diff))


def verdict_columns(wins, games, fair, rate, significant, *, margin: float,
                    alpha: float = 0.05, total_games: float | None = None) -> dict[str, list]:
    """For aligned per-faction sequences: `p_tost`, `p_tost_holm`, `balanced`, `verdict`,
    `settle_games` (games in all for the run to settle the faction; NaN once settled) and
    `more_games` (how many more than now)."""
    wins, games, fair = list(wins), list(games), list(fair)
    ptost = [tost_p(float(w), int(n), float(p), margin) for w, n, p in zip(wins, games, fair)]
    eq_reject, eq_adj = holm(ptost, alpha)
    m = sum(1 for p in ptost if not math.isnan(p))
    out = {"p_tost": ptost, "p_tost_holm": list(eq_adj), "balanced": [bool(x) for x in eq_reject],
           "verdict": [], "settle_games": [], "more_games": []}
    for i, (w, n, p) in enumerate(zip(wins, games, fair)):
        r, sig = rate[i], bool(significant[i])
        if out["balanced"][i]:   # shown within the margin (it may still differ by less)
            v = BALANCED
        elif sig:
            v = STRONG if r > p else WEAK
        else:
            v = UNKNOWN
        out["verdict"].append(v)
        if v != UNKNOWN or n <= 0:
            out["settle_games"].append(math.nan)
            out["more_games"].append(math.nan)
            continue
        need_pg = player_games_to_settle(float(p), margin, m, alpha)
        share = (n / total_games) if total_games else 1.0
        need = need_pg / share if share > 0 else math.nan
        out["settle_games"].append(float(math.ceil(need)))
        out["more_games"].append(float(max(0, math.ceil(need - (total_games or n)))))
    return out


def all_balanced_p(p_tost) -> float:
    """The intersection-union p-value of "every faction within the margin": the largest."""
    vals = [p for p in p_tost if not math.isnan(p)]
    return max(vals) if vals else math.nan


def with_verdicts(frame, *, margin: float, alpha: float = 0.05, total_games: float | None = None):
    """A faction-rates frame (faction, games, wins, fair_share, win_rate, significant) with the
    verdict columns (`verdict_columns`) added."""
    import polars as pl
    if frame is None or frame.is_empty():
        return frame
    rate = frame["win_rate"] if "win_rate" in frame.columns else frame["rate"]
    if total_games is None:   # each faction sits at most once per game
        total_games = float((frame["games"] * frame["fair_share"]).sum())
    cols = verdict_columns(frame["wins"].to_list(), frame["games"].to_list(),
                           frame["fair_share"].to_list(), rate.to_list(),
                           frame["significant"].to_list(), margin=margin, alpha=alpha,
                           total_games=total_games)
    return frame.with_columns(
        pl.Series("p_tost", cols["p_tost"], dtype=pl.Float64),
        pl.Series("p_tost_holm", cols["p_tost_holm"], dtype=pl.Float64),
        pl.Series("verdict", cols["verdict"], dtype=pl.Utf8),
        pl.Series("settle_games", cols["settle_games"], dtype=pl.Float64),
        pl.Series("more_games", cols["more_games"], dtype=pl.Float64),
        pl.lit(float(margin)).alias("margin"))


def run_alpha(config) -> float:
    """The level of each verdict of a run: 5%, or what a run grown until settled
    (`delve simulate --until-settled`) spent per look (Bonferroni over its planned looks)."""
    import json
    if isinstance(config, str):
        try:
            config = json.loads(config)
        except ValueError:
            config = {}
    settled = (config or {}).get("until_settled")
    if isinstance(settled, dict) and settled.get("alpha_per_look"):
        return float(settled["alpha_per_look"])
    return 0.05
