"""Queries of the Factions page: win rates, score distributions, seats, the matrix, the
strength model."""

from __future__ import annotations

import polars as pl

from pipelines.store.aggregates import LINEUP_SEATS, seat_pivot_sql

from . import core
from .core import ANALYSIS_TTL_S, SchemaMismatch, cached
from .filters import _AGG_GAMES, _AGG_PLAYERS, _FILTERED, _GAME_IDS, _params, _with_rates


# A win shared by k tied winners counts 1/k (issue 12, P13): the rates of a game sum to 1.
# `nw` counts each game's winners over all its seats (before the bot filter).  Tied wins and
# fair shares are summed exactly in units of 1/840 (filters.SHARE_UNIT) and divided once.
# Win rates are over the decided games (`decided`: the game has a winner); a game stopped by a
# turn limit the rulebook does not score (the cave game's) has none, and `undecided_share`
# says how many there were (DESIGN.md).  Scores are over every game.
_WINNERS = """, nw AS (
    SELECT p.game_id, count(*) FILTER (WHERE p.won) AS n_won FROM players AS p
    SEMI JOIN fg ON fg.game_id = p.game_id WHERE p.run_id = $run GROUP BY p.game_id
), fc AS (
    SELECT fp.*, CASE WHEN fp.won THEN 840 // nw.n_won ELSE 0 END AS credit840,
           nw.n_won > 0 AS decided
    FROM fp JOIN nw ON nw.game_id = fp.game_id
)
"""

_FACTION_RATES_SQL = _FILTERED + _WINNERS + """
SELECT faction::VARCHAR                      AS faction,
       (count(*) FILTER (WHERE decided))::BIGINT AS games,
       (sum(credit840) / 840)::DOUBLE        AS wins,
       coalesce(sum(840 // n_players) FILTER (WHERE decided)
                / (840 * nullif(count(*) FILTER (WHERE decided), 0)),
                avg(1.0 / n_players))::DOUBLE AS fair_share,
       avg(score)::DOUBLE                    AS mean_score,
       sqrt(((count(*) * sum(score::HUGEINT * score) - sum(score::HUGEINT) ^ 2)::DOUBLE)
            / nullif(count(*) * (count(*) - 1), 0)) AS sd_score
FROM fc GROUP BY faction ORDER BY faction
"""
# The same from the aggregates (agg_seats: player-games per seat, outcome and winners' count).
_FACTION_RATES_AGG_SQL = """
SELECT faction::VARCHAR AS faction, coalesce(sum(players) FILTER (WHERE n_won > 0), 0)::BIGINT AS games,
       (sum(CASE WHEN won THEN players * (840 // n_won) ELSE 0 END) / 840)::DOUBLE AS wins,
       coalesce(sum(players * (840 // n_players)) FILTER (WHERE n_won > 0)
                / (840 * nullif(sum(players) FILTER (WHERE n_won > 0), 0)),
                sum(players * (840 // n_players)) / (840 * sum(players)))::DOUBLE AS fair_share,
       (sum(score_sum) / sum(players))::DOUBLE AS mean_score,
       sqrt(((sum(players) * sum(score_sq) - sum(score_sum)::HUGEINT ^ 2)::DOUBLE)
            / nullif(sum(players) * (sum(players) - 1), 0)) AS sd_score
FROM agg_seats WHERE """ + _AGG_PLAYERS + """
GROUP BY faction ORDER BY faction
"""


@cached(ttl=ANALYSIS_TTL_S)
def faction_rates(db: str, run_id: str, n_players: int | None = None,
                  map_id: str | None = None, bot: str | None = None, version: str = "") -> pl.DataFrame:
    """Per faction: player-games, wins (a tied win counts 1/k), fair share, mean/sd score, and
    the win rate with its Wilson interval, binomial p-value against the fair share, Holm mark
    and simultaneous (Bonferroni, Clopper-Pearson) interval."""
    sql = _FACTION_RATES_AGG_SQL if core.aggregated(db, run_id) else _FACTION_RATES_SQL
    frame = core.read_frame(db, sql, _params(run_id, n_players, map_id, bot))
    return _with_rates(frame).with_columns(pl.col("rate").alias("win_rate"))


_SCORE_QUANTILES_SQL = _FILTERED + """
SELECT faction::VARCHAR AS faction, count(*)::BIGINT AS n,
       avg(score)::DOUBLE AS mean, min(score)::DOUBLE AS min,
       quantile_cont(score, 0.05) AS p05, quantile_cont(score, 0.25) AS q1,
       quantile_cont(score, 0.5) AS median, quantile_cont(score, 0.75) AS q3,
       quantile_cont(score, 0.95) AS p95, max(score)::DOUBLE AS max
FROM fp GROUP BY faction ORDER BY faction
"""


@cached(ttl=ANALYSIS_TTL_S)
def score_quantiles(db: str, run_id: str, n_players: int | None = None,
                    map_id: str | None = None, bot: str | None = None, version: str = "") -> pl.DataFrame:
    """Final-score distribution per faction as quantiles (a box plot without the raw rows)."""
    params = _params(run_id, n_players, map_id, bot)
    if not core.aggregated(db, run_id):
        return core.read_frame(db, _SCORE_QUANTILES_SQL, params)
    return quantiles_of_counts(core.read_frame(db, _SCORE_COUNTS_AGG_SQL, params))


# The final scores as a frequency table (agg_scores), per faction in score order.
_SCORE_COUNTS_AGG_SQL = """
SELECT faction::VARCHAR AS faction, score, sum(players)::BIGINT AS players
FROM agg_scores WHERE """ + _AGG_PLAYERS + """
GROUP BY faction, score ORDER BY faction, score
"""
QUANTILES = (("p05", 0.05), ("q1", 0.25), ("median", 0.5), ("q3", 0.75), ("p95", 0.95))


def quantiles_of_counts(freq: pl.DataFrame) -> pl.DataFrame:
    """`_SCORE_QUANTILES_SQL`'s frame from a frequency table (faction, score, players, in score
    order): DuckDB's ``quantile_cont`` on the expanded sample, h = (n - 1) q, the order
    statistics at floor(h) and ceil(h) (0-based) and lo (1 - d) + hi d with d = h - floor(h),
    the same floating-point steps, so the same bits; the mean as avg() does, sum / n."""
    import math

    import numpy as np

    rows = []
    for (faction,), part in freq.group_by("faction", maintain_order=True):
        v = part["score"].to_numpy()
        c = part["players"].to_numpy()
        ends = np.cumsum(c)
        n = int(ends[-1])

        def stat(k: int) -> float:
            return float(v[int(np.searchsorted(ends, k, side="right"))])

        row = {"faction": faction, "n": n, "mean": float(int((v.astype(object) * c).sum())) / n,
               "min": float(v[0])}
        for name, q in QUANTILES:
            h = float(n - 1) * q
            lo, hi = math.floor(h), math.ceil(h)
            a = stat(lo)
            d = h - lo
            row[name] = a if lo == hi else a * (1 - d) + stat(hi) * d
        row["max"] = float(v[-1])
        rows.append(row)
    schema = {"faction": pl.Utf8, "n": pl.Int64, "mean": pl.Float64, "min": pl.Float64,
              **{name: pl.Float64 for name, _ in QUANTILES}, "max": pl.Float64}
    return pl.DataFrame(rows, schema=schema)


# One pass over the players feeds both groupings (GROUPING SETS), not a UNION of two scans.
# Turn order counts from the starting player of the game (games.start_seat, issue 12 P5), not
# games.first_seat (the first player of the last round); runs stored before start_seat have no
# turn order rows.
_SEAT_RATES_SQL = _FILTERED + _WINNERS + """, ft AS (
    SELECT fc.*, ((fc.seat - g.start_seat + fc.n_players) % fc.n_players)::INTEGER AS start_position
    FROM fc JOIN games AS g ON g.run_id = $run AND g.game_id = fc.game_id
)
SELECT CASE WHEN grouping(seat) = 0 THEN 'seat' ELSE 'turn order' END AS kind,
       coalesce(seat, start_position)::INTEGER AS position,
       (count(*) FILTER (WHERE decided))::BIGINT AS games,
       (sum(credit840) / 840)::DOUBLE AS wins,
       coalesce(sum(840 // n_players) FILTER (WHERE decided)
                / (840 * nullif(count(*) FILTER (WHERE decided), 0)),
                avg(1.0 / n_players))::DOUBLE AS fair_share,
       avg(score)::DOUBLE AS mean_score
FROM ft GROUP BY GROUPING SETS ((seat), (start_position))
ORDER BY kind, position
"""
_SEAT_RATES_OLD_SQL = _SEAT_RATES_SQL.replace("g.start_seat", "NULL::INTEGER")
_SEAT_RATES_AGG_SQL = """
SELECT CASE WHEN grouping(seat) = 0 THEN 'seat' ELSE 'turn order' END AS kind,
       coalesce(seat, start_position)::INTEGER AS position,
       coalesce(sum(players) FILTER (WHERE n_won > 0), 0)::BIGINT AS games,
       (sum(CASE WHEN won THEN players * (840 // n_won) ELSE 0 END) / 840)::DOUBLE AS wins,
       coalesce(sum(players * (840 // n_players)) FILTER (WHERE n_won > 0)
                / (840 * nullif(sum(players) FILTER (WHERE n_won > 0), 0)),
                sum(players * (840 // n_players)) / (840 * sum(players)))::DOUBLE AS fair_share,
       (sum(score_sum) / sum(players))::DOUBLE AS mean_score
FROM agg_seats WHERE """ + _AGG_PLAYERS + """
GROUP BY GROUPING SETS ((seat), (start_position))
ORDER BY kind, position
"""


@cached(ttl=ANALYSIS_TTL_S)
def has_start_seat(db: str) -> bool:
    """Whether the database's games table has the starting player (start_seat)."""
    frame = core.read_frame(db, "SELECT count(*) AS n FROM information_schema.columns "
                                "WHERE table_name = 'games' AND column_name = 'start_seat'")
    return bool(frame["n"][0])


@cached(ttl=ANALYSIS_TTL_S)
def seat_rates(db: str, run_id: str, n_players: int | None = None,
               map_id: str | None = None, bot: str | None = None, version: str = "") -> pl.DataFrame:
    """Win rate by table seat and by turn order (0 = the game's starting player), with
    intervals and Holm marks against the fair share (corrected within each kind).  Games
    without a recorded starting player (older runs) have no turn-order row."""
    if core.aggregated(db, run_id):
        sql = _SEAT_RATES_AGG_SQL
    else:
        sql = _SEAT_RATES_SQL if has_start_seat(db) else _SEAT_RATES_OLD_SQL
    frame = core.read_frame(db, sql, _params(run_id, n_players, map_id, bot))
    frame = frame.filter(pl.col("position").is_not_null())
    parts = [_with_rates(frame.filter(pl.col("kind") == k)) for k in ("seat", "turn order")]
    return pl.concat(parts, how="vertical_relaxed")


# Head to head (issue 12, P2): in every game where both sat, does A finish above B (rank; a tie
# in rank counts 1/2)?  P(A above B | both seated) = 1/2 is a matchup question; "A's win rate at
# tables with B = 1/P" mostly repeated A's overall strength.
_HEAD_TO_HEAD_SQL = _FILTERED + """
SELECT a.faction::VARCHAR AS faction, b.faction::VARCHAR AS opponent,
       count(*)::BIGINT AS games,
       sum(CASE WHEN a.rank < b.rank THEN 1.0 WHEN a.rank = b.rank THEN 0.5 ELSE 0.0 END)::DOUBLE AS wins,
       0.5::DOUBLE AS fair_share
FROM fp AS a
JOIN players AS b ON b.game_id = a.game_id AND b.seat <> a.seat
WHERE b.run_id = $run
  AND a.game_id IN (SELECT game_id FROM players WHERE run_id = $run AND won)  -- decided games
GROUP BY a.faction, b.faction
ORDER BY a.faction, b.faction
"""


# The same from agg_matrix (ordered seat pairs; half_wins: 2 above, 1 tied): exact halves.
_HEAD_TO_HEAD_AGG_SQL = """
SELECT faction::VARCHAR AS faction, opponent::VARCHAR AS opponent, sum(pairs)::BIGINT AS games,
       (sum(half_wins) / 2)::DOUBLE AS wins, 0.5::DOUBLE AS fair_share
FROM agg_matrix WHERE """ + _AGG_PLAYERS + """
GROUP BY faction, opponent ORDER BY faction, opponent
"""


@cached(ttl=ANALYSIS_TTL_S)
def faction_matrix(db: str, run_id: str, n_players: int | None = None,
                   map_id: str | None = None, bot: str | None = None, version: str = "") -> pl.DataFrame:
    """Head to head: for each ordered pair (faction, opponent) of factions that shared a table,
    the share of those games the faction finished above the opponent (ties in rank 1/2), with
    its Wilson interval, an exact binomial test against 1/2 and Holm's correction over the
    unordered pairs (A-B and B-A are one question: the same p-value).  Every pair of factions is
    a row; a pair that never shared a table has games = 0 and no rate (the chart greys it)."""
    sql = _HEAD_TO_HEAD_AGG_SQL if core.aggregated(db, run_id) else _HEAD_TO_HEAD_SQL
    frame = core.read_frame(db, sql, _params(run_id, n_players, map_id, bot))
    return head_to_head_rates(frame)


def head_to_head_rates(frame: pl.DataFrame) -> pl.DataFrame:
    """Rates, tests and Holm (one test per unordered pair) of a head-to-head count frame; the
    pairs that never met are added with games = 0."""
    from pipelines import stats

    names = sorted(set(frame["faction"].to_list()) | set(frame["opponent"].to_list())) \
        if frame.height else []
    have = {(r["faction"], r["opponent"]): r for r in frame.iter_rows(named=True)}
    rows = []
    for a in names:
        for b in names:
            if a != b:
                r = have.get((a, b), {"games": 0, "wins": 0.0})
                rows.append({"faction": a, "opponent": b, "games": int(r["games"]),
                             "wins": float(r["wins"]), "fair_share": 0.5})
    out = pl.DataFrame(rows, schema={"faction": pl.Utf8, "opponent": pl.Utf8, "games": pl.Int64,
                                     "wins": pl.Float64, "fair_share": pl.Float64})
    if out.is_empty():
        return _with_rates(out)
    pairs = sorted({tuple(sorted((a, b))) for a, b in zip(out["faction"], out["opponent"])})
    key = {(r["faction"], r["opponent"]): r for r in out.iter_rows(named=True)}
    pvals = []
    for a, b in pairs:
        r = key[(a, b)]
        pvals.append(stats.rate_test(r["wins"], r["games"], 0.5) if r["games"] else float("nan"))
    reject, adj = stats.holm(pvals)
    by_pair = {q: (p, ph, rj) for q, p, ph, rj in zip(pairs, pvals, adj, reject)}
    m = max(1, sum(1 for p in pvals if p == p))
    cols = {k: [] for k in ("rate", "low", "high", "p_value", "p_holm", "significant",
                            "low_sim", "high_sim")}
    for r in out.iter_rows(named=True):
        p, ph, rj = by_pair[tuple(sorted((r["faction"], r["opponent"])))]
        rc = stats.rate_ci(r["wins"], r["games"])
        lo, hi = stats.exact_ci(r["wins"], r["games"], 0.05 / m)
        for k, v in (("rate", rc.rate), ("low", rc.low), ("high", rc.high), ("p_value", p),
                     ("p_holm", ph), ("significant", bool(rj)), ("low_sim", lo), ("high_sim", hi)):
            cols[k].append(v)
    return out.with_columns([pl.Series(k, v, dtype=pl.Boolean if k == "significant" else pl.Float64)
                             for k, v in cols.items()])


# One row per distinct table (the seat pivot agg_lineups is defined with), who won as a bit mask,
# and how many games.
_LINEUPS_SQL = _GAME_IDS + """, tables AS (
    SELECT """ + seat_pivot_sql("p") + """
    FROM players AS p SEMI JOIN fg ON fg.game_id = p.game_id
    WHERE p.run_id = $run
    GROUP BY p.game_id
)
SELECT f0, b0, f1, b1, f2, b2, f3, b3, f4, b4, f5, b5, f6, b6, f7, b7,
       r0, r1, r2, r3, r4, r5, r6, r7, won_mask, max(top_seat) AS top_seat, max(seats) AS seats,
       count(*)::BIGINT AS games
FROM tables GROUP BY ALL ORDER BY ALL  -- a total order: the fit sums in the same order
"""


_LINEUP_COLUMNS = ", ".join([f"{k}{i}" for i in range(LINEUP_SEATS) for k in ("f", "b")]
                            + [f"r{i}" for i in range(LINEUP_SEATS)] + ["won_mask"])
# The same from agg_lineups (games per distinct table, player count and map).
_LINEUPS_AGG_SQL = ("SELECT " + _LINEUP_COLUMNS + ", max(top_seat) AS top_seat, max(seats) AS seats, "
                    "sum(games)::BIGINT AS games FROM agg_lineups WHERE " + _AGG_GAMES
                    + " GROUP BY ALL ORDER BY ALL")


def _lineups(frame: pl.DataFrame):
    """Distinct tables (seat, faction, bot per seat; finishing ranks) -> the Plackett-Luce
    model's input."""
    for row in frame.iter_rows(named=True):
        if row["top_seat"] >= LINEUP_SEATS or row["seats"] != row["top_seat"] + 1:
            raise SchemaMismatch(f"the strength model handles tables of seats 0..{LINEUP_SEATS - 1}")
        n = row["seats"]
        if n > 1 and not row["won_mask"]:
            continue                    # an undecided game (no winner): no finishing order
        yield ([row[f"f{i}"] for i in range(n)], [str(i) for i in range(n)],
               [row[f"b{i}"] for i in range(n)],
               [row[f"r{i}"] if row[f"r{i}"] is not None else
                (1 if (row["won_mask"] >> i) & 1 else 2) for i in range(n)], row["games"])


@cached(ttl=ANALYSIS_TTL_S)
def strength_model(db: str, run_id: str, n_players: int | None = None,
                   map_id: str | None = None, version: str = "") -> tuple[pl.DataFrame, int]:
    """Faction strengths controlling for seat (and bot, when bots vary within a seat): the
    Plackett-Luce model over the full finishing order (players.rank), fitted on the distinct
    tables of the run (pipelines.stats).  When each seat has its own fixed bot, the seat
    terms carry that bot's effect too: their level reads "1 (+ bot greedy)".

    Returns (terms, games): one row per term with ``kind``, ``level``, ``estimate`` (log-
    strength), ``low``, ``high`` and ``odds`` (= exp(estimate)); and the games it rests on.
    """
    from pipelines import stats

    sql = _LINEUPS_AGG_SQL if core.aggregated(db, run_id) else _LINEUPS_SQL
    lineups = core.read_frame(db, sql, {"run": run_id, "np": n_players, "map": map_id})
    fit = stats.plackett_luce_model(_lineups(lineups))
    bot_of = {}
    if fit.reference.get("seat_includes_bot") and lineups.height:
        first = lineups.row(0, named=True)
        bot_of = {str(i): first[f"b{i}"] for i in range(LINEUP_SEATS) if first[f"b{i}"]}

    def level(t) -> str:
        return f"{t.level} (+ bot {bot_of[t.level]})" if t.kind == "seat" and t.level in bot_of \
            else t.level
    frame = pl.DataFrame(
        [{"kind": t.kind, "level": level(t), "estimate": t.estimate, "low": t.low,
          "high": t.high} for t in fit.terms],
        schema={"kind": pl.Utf8, "level": pl.Utf8, "estimate": pl.Float64, "low": pl.Float64,
                "high": pl.Float64},
    )
    return frame.with_columns(pl.col("estimate").exp().alias("odds")), fit.n_games


@cached(ttl=ANALYSIS_TTL_S)
def stage_test(db: str, run_id: str, n_players: int | None = None, map_id: str | None = None,
               version: str = "") -> dict | None:
    """Audit N4: whether one set of strengths decides the win and the later places alike
    (pipelines.stats.stage_homogeneity), with the factions whose two stage strengths differ
    most; None when there is no later stage (two players)."""
    from pipelines import stats

    sql = _LINEUPS_AGG_SQL if core.aggregated(db, run_id) else _LINEUPS_SQL
    lineups = core.read_frame(db, sql, {"run": run_id, "np": n_players, "map": map_id})
    test = stats.stage_homogeneity(_lineups(lineups))
    if test is None:
        return None
    later = {(t.kind, t.level): t.estimate for t in test.later.terms}
    gaps = sorted(((t.estimate - later[(t.kind, t.level)], t.level) for t in test.winner.terms
                   if t.kind == "faction" and (t.kind, t.level) in later),
                  key=lambda g: -abs(g[0]))
    return {"statistic": test.statistic, "df": test.df, "p": test.p_value, "holds": test.holds,
            "gaps": gaps[:3]}


@cached(ttl=ANALYSIS_TTL_S)
def matchup_residuals(db: str, run_id: str, n_players: int | None = None,
                      map_id: str | None = None, version: str = "") -> pl.DataFrame:
    """Head to head beyond strength (audit N2): each ordered pair's share of finishing above
    the other against what the fitted Plackett-Luce strengths (faction + seat + bot) predict,
    with Holm over the unordered pairs (pipelines.stats.matchups)."""
    from pipelines import stats
    from pipelines.stats.matchups import matchup_residuals as residuals

    sql = _LINEUPS_AGG_SQL if core.aggregated(db, run_id) else _LINEUPS_SQL
    lineups = core.read_frame(db, sql, {"run": run_id, "np": n_players, "map": map_id})
    tables = list(_lineups(lineups))
    return residuals(tables, stats.plackett_luce_model(tables))


# Games without a winner (a turn limit the rulebook does not score, e.g. the cave game's): win
# rates on every page are over the decided games, and this is the share they leave out.
_UNDECIDED_SQL = """
WITH fg AS (
    SELECT g.game_id, g.winner_seat, g.n_players FROM games AS g
    WHERE g.run_id = $run
      AND ($np::INTEGER IS NULL OR g.n_players = $np::INTEGER)
      AND ($map::VARCHAR IS NULL OR g.map = $map::VARCHAR)
), bp AS (
    SELECT DISTINCT game_id FROM players
    WHERE $bot::VARCHAR IS NOT NULL AND run_id = $run AND bot = $bot::VARCHAR
), fb AS (
    SELECT * FROM fg WHERE $bot::VARCHAR IS NULL
    UNION ALL
    SELECT fg.* FROM fg SEMI JOIN bp ON bp.game_id = fg.game_id
)
SELECT count(*)::BIGINT AS games,
       (count(*) FILTER (WHERE winner_seat IS NULL AND n_players > 1))::BIGINT AS undecided
FROM fb
"""


@cached(ttl=ANALYSIS_TTL_S)
def undecided_share(db: str, run_id: str, n_players: int | None = None,
                    map_id: str | None = None, bot: str | None = None,
                    version: str = "") -> dict:
    """The games (with the page's filters; with a bot filter, the games that bot played in)
    that ended without a winner: {games, undecided, decided, share, low, high} with the share's
    95% Wilson interval (NaN when there are no games)."""
    from pipelines import stats

    row = core.read_frame(db, _UNDECIDED_SQL, _params(run_id, n_players, map_id, bot)).row(0, named=True)
    games, undecided = int(row["games"] or 0), int(row["undecided"] or 0)
    r = stats.rate_ci(undecided, games)
    return {"games": games, "undecided": undecided, "decided": games - undecided,
            "share": r.rate, "low": r.low, "high": r.high}
