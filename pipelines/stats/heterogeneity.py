"""Does a faction's strength depend on the map?  (issue 29: faction x map heterogeneity)

For each faction, its wins and losses on each map form a maps x 2 table, and the chi-square
test of homogeneity (scipy's `chi2_contingency`) asks whether its win rate is the same on
every map.  The test is not run (and says why) when an expected count is under 5.  The unit is
the player-game: a faction holds one seat of a game, so its seats are independent.  A tied win
(1/k) is rounded to the nearest whole win.  Holm's correction runs over the factions.
"""

from __future__ import annotations

import math
import warnings

import polars as pl

from .multiplicity import holm
from .rates import rate_ci


def map_heterogeneity(per_map: dict[str, pl.DataFrame]) -> pl.DataFrame:
    """`per_map`: map -> a faction-rates frame (faction, games = player-games, wins).  One row
    per faction: its rate on each map (`rates`: map -> (rate, low, high, player-games)), the
    chi-square statistic, df, p, Holm's p over the factions and `differs`."""
    from scipy.stats import chi2_contingency
    rows = []
    for f, cells in _by_faction(per_map):
        rates = {m: (r.rate, r.low, r.high, n) for m, n, _w, r in cells}
        table = [[int(round(w)), n - int(round(w))] for _m, n, w, _r in cells]
        p, stat, dof, note = math.nan, math.nan, 0, ""
        if len(table) >= 2:
            col = [sum(r[0] for r in table), sum(r[1] for r in table)]
            if min(col) == 0:
                note = "no variation in the outcome"
            else:
                res = chi2_contingency(table, correction=False)
                if (res.expected_freq < 5).any():
                    note = "too few games on some map for the chi-square test"
                else:
                    p, stat, dof = float(res.pvalue), float(res.statistic), int(res.dof)
        else:
            note = "played on one map only"
        rows.append({"faction": f, "rates": rates, "chi2": stat, "df": dof, "p": p, "note": note})
    return _with_holm(rows)


def map_table(het: pl.DataFrame) -> pl.DataFrame:
    """The heterogeneity rows as a flat table: faction, one "rate [low, high]" column per map,
    p (Holm) and whether the faction's win rate differs between maps."""
    out = []
    for r in het.iter_rows(named=True):
        row = {"faction": r["faction"]}
        for m, v in sorted((r["rates"] or {}).items()):
            if v is not None:
                rate, low, high, n = v
                row[m] = f"{rate:.0%} [{low:.0%}, {high:.0%}] ({int(n):,})"
        row["p (Holm)"] = r["p_holm"]
        row["differs by map"] = r["differs"]
        row["note"] = r["note"]
        out.append(row)
    return pl.DataFrame(out) if out else pl.DataFrame()


def player_count_heterogeneity(per_count: dict[int, pl.DataFrame]) -> pl.DataFrame:
    """Does a faction's strength depend on the player count?  (issue 29)  `per_count`: player
    count -> a faction-rates frame (faction, games = player-games, wins).  The fair share differs
    with the count (1/P), so the question is whether the faction's odds of winning *relative to
    its fair share* are the same at every count: a binomial GLM (statsmodels) of its wins on the
    count with the offset logit(1/P), against the same without the count; likelihood-ratio test
    on K - 1 df, Holm over the factions.  One row per faction: `rates` (count -> (rate, low,
    high, player-games, fair), the count as text), the statistic, df, p, Holm's p and `differs`."""
    import numpy as np
    import statsmodels.api as sm
    from scipy.stats import chi2
    rows = []
    for f, cells in _by_faction(per_count):
        rates = {str(k): (r.rate, r.low, r.high, n, 1.0 / k) for k, n, _w, r in cells}
        obs = [(k, n, w) for k, n, w, _r in cells]
        p, stat, dof, note = math.nan, math.nan, 0, ""
        if len(obs) < 2:
            note = "played at one player count only"
        else:
            y = np.array([[w, n - w] for _, n, w in obs])
            offset = np.array([math.log((1.0 / k) / (1 - 1.0 / k)) for k, _, _ in obs])
            full = np.eye(len(obs))                      # one odds per count
            small = np.ones((len(obs), 1))               # one odds for all counts
            try:
                with warnings.catch_warnings():   # a count with no win (or only wins) separates
                    warnings.simplefilter("ignore")
                    ll = [sm.GLM(y, x, family=sm.families.Binomial(), offset=offset).fit().llf
                          for x in (full, small)]
                if any(w in (0, n) for _, n, w in obs):
                    note = "no win, or only wins, at some count: the test is approximate"
                stat = max(2 * (ll[0] - ll[1]), 0.0)
                dof = len(obs) - 1
                p = float(chi2.sf(stat, dof))
            except Exception as exc:  # noqa: BLE001 - a degenerate table (all wins or none)
                note = f"not testable ({type(exc).__name__})"
        rows.append({"faction": f, "rates": rates, "lr": stat, "df": dof, "p": p, "note": note})
    return _with_holm(rows)


def _by_faction(per: dict) -> list[tuple[str, list[tuple[object, int, float, object]]]]:
    """Per faction (sorted): its (setting, player-games, wins, rate_ci) in each setting of
    `per` (setting -> faction-rates frame) where it played, settings in sorted order."""
    keys = sorted(per)
    factions = sorted({f for k in keys for f in per[k]["faction"].to_list()})
    out = []
    for f in factions:
        cells = []
        for k in keys:
            sub = per[k].filter(pl.col("faction") == f)
            if sub.is_empty() or int(sub["games"][0]) == 0:
                continue
            n, w = int(sub["games"][0]), float(sub["wins"][0])
            cells.append((k, n, w, rate_ci(w, n)))
        out.append((f, cells))
    return out


def _with_holm(rows: list[dict]) -> pl.DataFrame:
    """Holm's p over the factions' rows (`p`) and whether each differs."""
    reject, adj = holm([r["p"] for r in rows])
    for row, rj, pa in zip(rows, reject, adj):
        row["p_holm"] = pa
        row["differs"] = bool(rj)
    return pl.DataFrame(rows) if rows else pl.DataFrame()
