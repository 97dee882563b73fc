"""Design check "deciding card" (`delve checks RUN`, the Checks page): the cards a seat held
(`players.held_cards`, space-separated ids; the cave game's traits and equipment) whose holders
win far more, or far less, often than the seats that did not hold them.

Each card is tested with a logistic regression over the run's seats,
won ~ held + cards held + faction, standard errors clustered by game (statsmodels GLM,
cov_type="cluster": the seats of one game are not independent).  "cards held" (how many cards
the seat held over the game) is there because a seat whose workers die holds more cards and
loses more often: without it every card would look like a losing one.  p-values are two-sided
and Holm-corrected over the cards tested (one family); a card is flagged when Holm rejects and
its holders' win rate is at least `margin` away from the other seats'.  Its win rate carries its
95% Wilson interval (seat-games; a card held by two seats of one game is counted twice).
Counting happens in DuckDB; Python fits the models.
"""

from __future__ import annotations

import polars as pl

from pipelines.stats import holm, rate_ci

MARGIN = 0.10            # the holders' win rate at least this far from the other seats'
MIN_COUNT = 20           # seats holding the card (and seats not holding it) before a test

_SEATS_SQL = """
SELECT game_id, seat, faction::VARCHAR AS faction, won::INT AS won,
       len(string_split(held_cards, ' ')) AS n_held
FROM players WHERE run_id = ? AND held_cards IS NOT NULL AND held_cards <> ''
ORDER BY game_id, seat
"""

_HELD_SQL = """
SELECT DISTINCT game_id, seat, unnest(string_split(held_cards, ' ')) AS card
FROM players WHERE run_id = ? AND held_cards IS NOT NULL AND held_cards <> ''
"""


def has_held_cards(con, run_id: str) -> bool:
    """Whether the run's players record the cards they held (the column exists and is set)."""
    try:
        return bool(con.execute("SELECT count(*) FROM players WHERE run_id = ? AND held_cards "
                                "IS NOT NULL AND held_cards <> ''", [run_id]).fetchone()[0])
    except Exception:  # noqa: BLE001 - an older database without the column: nothing to check
        return False


def held_test(seats: pl.DataFrame, held: list[bool]) -> float:
    """Two-sided p-value of the `held` coefficient in won ~ held + n_held + faction, errors
    clustered by game (NaN when the model cannot be fitted)."""
    import numpy as np
    import statsmodels.api as sm
    from scipy import stats as sps

    x = np.asarray(held, dtype=float)
    y = seats["won"].to_numpy().astype(float)
    if x.min() == x.max() or y.min() == y.max():
        return float("nan")
    cols = [x]
    n_held = seats["n_held"].to_numpy().astype(float)
    if n_held.min() != n_held.max():            # a constant would duplicate the intercept
        cols.append(n_held)
    factions = seats["faction"].to_list()
    for level in sorted(set(factions))[1:]:
        cols.append(np.array([f == level for f in factions], dtype=float))
    X = sm.add_constant(np.column_stack(cols), has_constant="add")
    try:
        fit = sm.GLM(y, X, family=sm.families.Binomial()).fit(
            cov_type="cluster", cov_kwds={"groups": seats["game_id"].to_numpy()})
        z = float(fit.params[1] / fit.bse[1])
    except Exception:  # noqa: BLE001 - separation or a singular design: no test
        return float("nan")
    if not np.isfinite(z):
        return float("nan")
    return float(2 * sps.norm.sf(abs(z)))


def card_table(con, run_id: str, min_count: int = MIN_COUNT, margin: float = MARGIN
               ) -> pl.DataFrame:
    """Per card held: seats holding it, their wins and win rate (95% Wilson interval), the
    other seats' win rate, the difference, the Holm-corrected p-value and the flag."""
    seats = con.execute(_SEATS_SQL, [run_id]).pl()
    if seats.is_empty():
        return pl.DataFrame()
    held = con.execute(_HELD_SQL, [run_id]).pl()
    index = {(g, s): i for i, (g, s) in enumerate(zip(seats["game_id"], seats["seat"]))}
    won = seats["won"].to_list()
    total_n, total_w = len(won), sum(won)
    rows, pvals = [], []
    for card, part in sorted(held.group_by("card"), key=lambda kv: kv[0][0]):
        card = card[0]
        mask = [False] * total_n
        for g, s in zip(part["game_id"], part["seat"]):
            mask[index[(g, s)]] = True
        n = sum(mask)
        w = sum(x for x, m in zip(won, mask) if m)
        rest_n, rest_w = total_n - n, total_w - w
        r = rate_ci(w, n)
        rest = rest_w / rest_n if rest_n else float("nan")
        p = held_test(seats, mask) if n >= min_count and rest_n >= min_count else float("nan")
        pvals.append(p)
        rows.append({"card": card, "kind": card.split("_", 1)[0], "seats": n, "wins": w,
                     "win_rate": r.rate, "low": r.low, "high": r.high, "rest_win_rate": rest,
                     "diff": r.rate - rest if rest_n else float("nan")})
    reject, adj = holm(pvals)
    for row, rej, pa in zip(rows, reject, adj):
        row["p_holm"] = pa
        row["deciding"] = bool(rej) and abs(row["diff"]) >= margin
    return pl.DataFrame(rows).sort("win_rate", descending=True)


def check_cards(con, run: dict, min_count: int = MIN_COUNT, margin: float = MARGIN):
    """(findings, table) of the deciding-card check; no findings when the run records no held
    cards (games without per-seat cards)."""
    from pipelines.lab.design_checks import Finding

    run_id = run["run_id"]
    if not has_held_cards(con, run_id):
        return [], pl.DataFrame()
    table = card_table(con, run_id, min_count, margin)
    findings = []
    for r in table.filter(pl.col("deciding")).iter_rows(named=True):
        word = "more" if r["diff"] > 0 else "less"
        findings.append(Finding(
            "deciding card", r["card"], True,
            f"its holders win {r['win_rate']:.1%} [{r['low']:.1%}, {r['high']:.1%}] of "
            f"{r['seats']} seat-games, {abs(r['diff']):.1%} {word} than the other seats "
            f"({r['rest_win_rate']:.1%}); logistic model with the number of cards held and the "
            f"faction, errors clustered by game, Holm p = {r['p_holm']:.2g}"))
    if not findings:
        tested = int(table["p_holm"].is_not_nan().sum()) if table.height else 0
        findings.append(Finding(
            "deciding card", "cards held", False,
            f"no card (of {tested} held by at least {min_count} seats) changes its holders' win "
            f"rate significantly by {margin:.0%} or more (Holm over the cards; number of cards "
            f"held and faction held fixed, errors clustered by game)"))
    return findings, table
