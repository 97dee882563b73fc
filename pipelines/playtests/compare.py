"""Humans beside the bots: pure statistics over one slice (pipelines/playtests/data.py).

The unit of independence is the game, on both sides.  Playtests are few, so:

- win rates of the humans get *exact* (Clopper-Pearson) intervals; a shared win counts 1/k;
- "closest tier" is a distance with its uncertainty: the Wasserstein-1 distance between the
  humans' final scores and a tier's (in points), and the total-variation distance between
  where the points come from (category shares, in percentage points), each with a bootstrap
  interval over the human games and the share of resamples in which each tier is the closest;
  and a test of "could these games have been played by this tier": the distance of the same
  number of the tier's own games (drawn from a fixed sample of them), against the humans';
- "do the humans' faction verdicts agree with the bots'": a Monte Carlo goodness-of-fit test
  of the humans' wins against the tier's win rates taken as Luce weights (each human game's
  winner drawn among its seats in proportion to their factions' rates at that tier), one test
  over all factions and one per faction, the per-faction ones Holm-corrected over the factions
  of that tier.

Every draw comes from a generator seeded with a constant, so the same data give the same
figures.  The bot tiers are treated as known (thousands of games against a handful).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import polars as pl

from .data import SliceData, per_game_scores

BOOTSTRAP = 1000
MONTE_CARLO = 4000
SEED = 20261203
ALPHA = 0.05


def exact_interval(wins: float, n: int, alpha: float = ALPHA) -> tuple[float, float]:
    """Clopper-Pearson (`pipelines.stats.exact_ci`); a fractional count (shared wins) is allowed."""
    if n <= 0:
        return (float("nan"), float("nan"))
    from pipelines.stats import exact_ci
    lo, hi = exact_ci(wins, n, alpha)
    return (0.0 if np.isnan(lo) else lo, 1.0 if np.isnan(hi) else hi)


def wilson_interval(wins: float, n: int) -> tuple[float, float]:
    from pipelines.stats import rate_ci
    r = rate_ci(wins, n)
    return r.low, r.high


def verdict(low: float, high: float, fair: float) -> str:
    if low > fair:
        return "strong"
    if high < fair:
        return "weak"
    return "not shown to differ"


@dataclass
class Comparison:
    n_games: int                     # human games in the slice
    n_decided: int                   # ... with a winner (or a stated tie)
    n_categorised: int               # ... whose every seat noted its categories
    fair: float
    tiers: list[str]
    rates: pl.DataFrame              # source, faction, games, wins, rate, low, high, verdict
    seats: pl.DataFrame              # source, seat, games, wins, rate, low, high
    scores: pl.DataFrame             # tier, distance, low, high, closest, p_same, games
    categories: pl.DataFrame         # tier, distance, low, high, closest, p_same
    shares: pl.DataFrame             # source, category, share
    length: pl.DataFrame             # source, games, mean, low, high
    agreement: pl.DataFrame          # tier, faction, observed, expected, p, p_holm, differs
    agreement_overall: pl.DataFrame  # tier, statistic, p, factions
    human_scores: list[float] = field(default_factory=list)
    tier_scores: pl.DataFrame = field(default_factory=pl.DataFrame)   # tier, score, n

    @property
    def closest_scores(self) -> str | None:
        return _closest(self.scores)

    @property
    def closest_categories(self) -> str | None:
        return _closest(self.categories)


def _closest(frame: pl.DataFrame) -> str | None:
    if frame.is_empty():
        return None
    return frame.sort("distance").row(0, named=True)["tier"]


def compare(d: SliceData) -> Comparison:
    n = d.slice.n_players
    fair = 1.0 / n
    hs = d.human_seats
    games = hs.select("playtest_id", "game_id").unique() if hs.height else hs
    decided = hs.filter(pl.col("decided")) if hs.height else hs
    tiers = d.tiers
    rates, seats = _rates(decided, d.tier_seats, tiers, fair)
    human_games = per_game_scores(hs, ("playtest_id", "game_id"))
    scores = _score_distances(human_games, d, tiers)
    cats, shares, n_cat = _category_distances(d, tiers)
    return Comparison(
        n_games=games.height, n_decided=decided.select("playtest_id", "game_id").unique().height
        if decided.height else 0, n_categorised=n_cat, fair=fair, tiers=tiers, rates=rates,
        seats=seats, scores=scores, categories=cats, shares=shares, length=_length(hs, d),
        agreement=(ag := _agreement(decided, d.tier_seats, tiers))[0], agreement_overall=ag[1],
        human_scores=[float(x) for x in hs["score"].to_list()] if hs.height else [],
        tier_scores=d.tier_scores)


# -- win rates -------------------------------------------------------------------------------

def _rates(decided: pl.DataFrame, tier_seats: pl.DataFrame, tiers, fair):
    rows, seat_rows = [], []
    if decided.height:
        for key, out in (("faction", rows), ("seat", seat_rows)):
            agg = decided.group_by(key).agg(pl.len().alias("n"), pl.col("win_share").sum().alias("w"))
            for r in agg.sort(key).iter_rows(named=True):
                lo, hi = exact_interval(r["w"], r["n"])
                out.append({"source": "playtests", key: str(r[key]) if key == "faction" else r[key],
                            "games": r["n"], "wins": r["w"], "rate": r["w"] / r["n"], "low": lo,
                            "high": hi, "verdict": verdict(lo, hi, fair), "interval": "exact"})
    if tier_seats.height:
        dec = tier_seats.filter(pl.col("decided"))
        for key, out in (("faction", rows), ("seat", seat_rows)):
            agg = dec.group_by("tier", key).agg(pl.col("n").sum(), pl.col("wins").sum())
            for t in tiers:
                for r in agg.filter(pl.col("tier") == t).sort(key).iter_rows(named=True):
                    lo, hi = wilson_interval(r["wins"], r["n"])
                    out.append({"source": t, key: str(r[key]) if key == "faction" else r[key],
                                "games": r["n"], "wins": r["wins"], "rate": r["wins"] / r["n"],
                                "low": lo, "high": hi, "verdict": verdict(lo, hi, fair),
                                "interval": "Wilson"})
    schema = {"source": pl.Utf8, "games": pl.Int64, "wins": pl.Float64, "rate": pl.Float64,
              "low": pl.Float64, "high": pl.Float64, "verdict": pl.Utf8, "interval": pl.Utf8}
    return (pl.DataFrame(rows, schema={"faction": pl.Utf8, **schema}),
            pl.DataFrame(seat_rows, schema={"seat": pl.Int64, **schema}))


# -- scores: Wasserstein-1 -------------------------------------------------------------------

def _w1(sample: np.ndarray, values: np.ndarray, weights: np.ndarray) -> float:
    from scipy.stats import wasserstein_distance
    return float(wasserstein_distance(sample, values, v_weights=weights))


def _score_distances(human_games: list[np.ndarray], d: SliceData, tiers) -> pl.DataFrame:
    schema = {"tier": pl.Utf8, "distance": pl.Float64, "low": pl.Float64, "high": pl.Float64,
              "closest": pl.Float64, "p_same": pl.Float64, "games": pl.Int64}
    if not human_games or not tiers:
        return pl.DataFrame(schema=schema)
    rng = np.random.default_rng(SEED)
    g = len(human_games)
    hist = {t: (f["score"].to_numpy().astype(float), f["n"].to_numpy().astype(float))
            for t in tiers if (f := d.tier_scores.filter(pl.col("tier") == t)).height}
    samples = {t: per_game_scores(d.sample_scores.filter(pl.col("tier") == t), ("run_id", "game_id"))
               for t in hist}
    observed = {t: _w1(np.concatenate(human_games), *hist[t]) for t in hist}
    idx = rng.integers(0, g, size=(BOOTSTRAP, g))
    boot = {t: np.empty(BOOTSTRAP) for t in hist}
    for b in range(BOOTSTRAP):
        pooled = np.concatenate([human_games[i] for i in idx[b]])
        for t in hist:
            boot[t][b] = _w1(pooled, *hist[t])
    names = list(hist)
    stack = np.vstack([boot[t] for t in names])
    closest = np.bincount(stack.argmin(axis=0), minlength=len(names)) / BOOTSTRAP
    rows = []
    for i, t in enumerate(names):
        own = samples[t]
        null = np.array([_w1(np.concatenate([own[j] for j in rng.integers(0, len(own), size=g)]), *hist[t])
                         for _ in range(BOOTSTRAP)]) if own else np.array([np.nan])
        lo, hi = np.quantile(boot[t], [ALPHA / 2, 1 - ALPHA / 2])
        rows.append({"tier": t, "distance": observed[t], "low": float(lo), "high": float(hi),
                     "closest": float(closest[i]),
                     "p_same": float((1 + np.sum(null >= observed[t] - 1e-12)) / (1 + len(null))),
                     "games": int(d.tier_rounds.filter(pl.col("tier") == t)["games"].sum())})
    return pl.DataFrame(rows, schema=schema)


# -- categories: total variation between shares ----------------------------------------------

def _share_matrix(frame: pl.DataFrame, keys, cats) -> np.ndarray:
    """Games x categories points (0 where a category scored nothing)."""
    if frame.is_empty():
        return np.zeros((0, len(cats)))
    wide = frame.pivot(on="category", index=list(keys), values="points", aggregate_function="sum")
    return np.column_stack([wide[c].fill_null(0).to_numpy().astype(float) if c in wide.columns
                            else np.zeros(wide.height) for c in cats])


def _tv(points: np.ndarray, ref: np.ndarray) -> float:
    total = points.sum()
    if total <= 0:
        return float("nan")
    return 0.5 * float(np.abs(points / total - ref).sum())


def _category_distances(d: SliceData, tiers):
    schema = {"tier": pl.Utf8, "distance": pl.Float64, "low": pl.Float64, "high": pl.Float64,
              "closest": pl.Float64, "p_same": pl.Float64}
    share_schema = {"source": pl.Utf8, "category": pl.Utf8, "share": pl.Float64}
    hc = d.human_categories
    if hc.height:   # only games where every seat noted its categories
        full = hc.group_by("playtest_id", "game_id").agg(pl.col("seats").max(), pl.col("n_players").first())
        full = full.filter(pl.col("seats") == pl.col("n_players")).select("playtest_id", "game_id")
        hc = hc.join(full, on=["playtest_id", "game_id"])
    cats = sorted(set(hc["category"].to_list() if hc.height else [])
                  | set(d.tier_categories["category"].to_list() if d.tier_categories.height else []))
    human = _share_matrix(hc, ("playtest_id", "game_id"), cats)
    shares = []
    if human.shape[0] and human.sum() > 0:
        shares += [{"source": "playtests", "category": c, "share": float(v)}
                   for c, v in zip(cats, human.sum(axis=0) / human.sum())]
    refs = {}
    for t in tiers if d.tier_categories.height else []:
        f = d.tier_categories.filter(pl.col("tier") == t)
        if f.height:
            tot = dict(zip(f["category"].to_list(), f["points"].to_list()))
            vec = np.array([tot.get(c, 0.0) for c in cats])
            if vec.sum() > 0:
                refs[t] = vec / vec.sum()
                shares += [{"source": t, "category": c, "share": float(v)} for c, v in zip(cats, refs[t])]
    g = human.shape[0]
    if not g or not refs:
        return pl.DataFrame(schema=schema), pl.DataFrame(shares, schema=share_schema), g
    rng = np.random.default_rng(SEED + 1)
    names = list(refs)
    idx = rng.integers(0, g, size=(BOOTSTRAP, g))
    boot = np.array([[_tv(human[i].sum(axis=0), refs[t]) for t in names] for i in idx])
    closest = np.bincount(boot.argmin(axis=1), minlength=len(names)) / BOOTSTRAP
    rows = []
    for k, t in enumerate(names):
        own = (_share_matrix(d.sample_categories.filter(pl.col("tier") == t), ("run_id", "game_id"), cats)
               if d.sample_categories.height else np.zeros((0, len(cats))))
        obs = _tv(human.sum(axis=0), refs[t])
        null = (np.array([_tv(own[rng.integers(0, own.shape[0], size=g)].sum(axis=0), refs[t])
                          for _ in range(BOOTSTRAP)]) if own.shape[0] else np.array([np.nan]))
        lo, hi = np.quantile(boot[:, k], [ALPHA / 2, 1 - ALPHA / 2])
        rows.append({"tier": t, "distance": obs, "low": float(lo), "high": float(hi),
                     "closest": float(closest[k]),
                     "p_same": float((1 + np.sum(null >= obs - 1e-12)) / (1 + len(null)))})
    return pl.DataFrame(rows, schema=schema), pl.DataFrame(shares, schema=share_schema), g


# -- length ----------------------------------------------------------------------------------

def _length(hs: pl.DataFrame, d: SliceData) -> pl.DataFrame:
    from scipy import stats
    rows = []
    if hs.height:
        r = hs.filter(pl.col("seat") == 0).drop_nulls("rounds")["rounds"].to_numpy().astype(float)
        if len(r):
            half = (stats.t.ppf(1 - ALPHA / 2, len(r) - 1) * r.std(ddof=1) / np.sqrt(len(r))
                    if len(r) > 1 else float("nan"))
            rows.append({"source": "playtests", "games": len(r), "mean": float(r.mean()),
                         "low": float(r.mean() - half), "high": float(r.mean() + half)})
    for row in d.tier_rounds.iter_rows(named=True) if d.tier_rounds.height else []:
        half = 1.96 * row["sd_rounds"] / np.sqrt(max(row["games"], 1))
        rows.append({"source": row["tier"], "games": int(row["games"]), "mean": row["mean_rounds"],
                     "low": row["mean_rounds"] - half, "high": row["mean_rounds"] + half})
    return pl.DataFrame(rows, schema={"source": pl.Utf8, "games": pl.Int64, "mean": pl.Float64,
                                      "low": pl.Float64, "high": pl.Float64})


# -- agreement of faction verdicts -----------------------------------------------------------

def _agreement(decided: pl.DataFrame, tier_seats: pl.DataFrame, tiers, draws: int = MONTE_CARLO):
    from pipelines.stats.multiplicity import holm
    schema = {"tier": pl.Utf8, "faction": pl.Utf8, "observed": pl.Float64, "expected": pl.Float64,
              "p": pl.Float64, "p_holm": pl.Float64, "differs": pl.Boolean}
    overall_schema = {"tier": pl.Utf8, "statistic": pl.Float64, "p": pl.Float64, "factions": pl.Int64}
    if not decided.height or not tier_seats.height:
        return pl.DataFrame(schema=schema), pl.DataFrame(schema=overall_schema)
    games = decided.group_by("playtest_id", "game_id", maintain_order=True).agg(
        pl.col("faction"), pl.col("win_share"))
    factions = sorted(set(decided["faction"].to_list()))
    fi = {f: i for i, f in enumerate(factions)}
    g, width = games.height, max(len(x) for x in games["faction"].to_list())
    members = np.full((g, width), -1)
    obs = np.zeros(len(factions))
    for k, (fs, ws) in enumerate(zip(games["faction"].to_list(), games["win_share"].to_list())):
        for j, (f, w) in enumerate(zip(fs, ws)):
            members[k, j] = fi[f]
            obs[fi[f]] += w
    dec = tier_seats.filter(pl.col("decided")).group_by("tier", "faction").agg(
        pl.col("n").sum(), pl.col("wins").sum())
    rows, overall = [], []
    rng = np.random.default_rng(SEED + 2)
    for t in tiers:
        rate = {r["faction"]: r["wins"] / r["n"] for r in dec.filter(pl.col("tier") == t).iter_rows(named=True)
                if r["n"]}
        if any(f not in rate for f in factions):
            continue   # the tier never played a faction the humans did
        w = np.array([max(rate[f], 1e-6) for f in factions])
        weights = np.where(members >= 0, w[np.clip(members, 0, None)], 0.0)
        probs = weights / weights.sum(axis=1, keepdims=True)
        expected = np.zeros(len(factions))
        np.add.at(expected, members[members >= 0], probs[members >= 0])
        cum = np.cumsum(probs, axis=1)
        u = rng.random((draws, g, 1))
        pick = (u > cum[None, :, :]).sum(axis=2).clip(max=width - 1)        # (B, g) seat index
        sim_f = members[np.arange(g)[None, :], pick]                          # (B, g) faction
        counts = np.zeros((draws, len(factions)))
        for k in range(len(factions)):
            counts[:, k] = (sim_f == k).sum(axis=1)
        e = np.where(expected > 0, expected, 1e-9)
        stat_obs = float(((obs - e) ** 2 / e).sum())
        stat_sim = ((counts - e) ** 2 / e).sum(axis=1)
        p_all = float((1 + np.sum(stat_sim >= stat_obs - 1e-9)) / (1 + draws))
        dev = np.abs(counts - e)
        p_each = (1 + (dev >= np.abs(obs - e) - 1e-9).sum(axis=0)) / (1 + draws)
        p_holm = holm(list(p_each), alpha=ALPHA)[1]
        for k, f in enumerate(factions):
            rows.append({"tier": t, "faction": f, "observed": float(obs[k]),
                         "expected": float(expected[k]), "p": float(p_each[k]),
                         "p_holm": float(p_holm[k]), "differs": bool(p_holm[k] < ALPHA)})
        overall.append({"tier": t, "statistic": stat_obs, "p": p_all, "factions": len(factions)})
    return pl.DataFrame(rows, schema=schema), pl.DataFrame(overall, schema=overall_schema)
