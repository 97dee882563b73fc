"""Does a faction's strength depend on the map?  (issue 29: faction x map heterogeneity)

For each faction, its wins and losses on each map form a maps x 2 table, and the chi-square
test of homogeneity (scipy's `chi2_contingency`) asks whether its win rate is the same on
every map.  The test is not run (and says why) when an expected count is under 5.  The unit is
the player-game: a faction holds one seat of a game, so its seats are independent.  A tied win
(1/k) is rounded to the nearest whole win.  Holm's correction runs over the factions.
"""

from __future__ import annotations

import math

import polars as pl

from .multiplicity import holm
from .rates import rate_ci


def map_heterogeneity(per_map: dict[str, pl.DataFrame]) -> pl.DataFrame:
    """`per_map`: map -> a faction-rates frame (faction, games = player-games, wins).  One row
    per faction: its rate on each map (`rates`: map -> (rate, low, high, player-games)), the
    chi-square statistic, df, p, Holm's p over the factions and `differs`."""
    from scipy.stats import chi2_contingency
    maps = sorted(per_map)
    factions = sorted({f for m in maps for f in per_map[m]["faction"].to_list()})
    rows, pvals = [], []
    for f in factions:
        table, rates = [], {}
        for m in maps:
            sub = per_map[m].filter(pl.col("faction") == f)
            if sub.is_empty():
                continue
            n, w = int(sub["games"][0]), float(sub["wins"][0])
            if n == 0:
                continue
            r = rate_ci(w, n)
            rates[m] = (r.rate, r.low, r.high, int(n))
            wins = int(round(w))
            table.append([wins, n - wins])
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
        pvals.append(p)
        rows.append({"faction": f, "rates": rates, "chi2": stat, "df": dof, "p": p, "note": note})
    reject, adj = holm(pvals)
    for row, rj, pa in zip(rows, reject, adj):
        row["p_holm"] = pa
        row["differs"] = bool(rj)
    return pl.DataFrame(rows) if rows else pl.DataFrame()


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
