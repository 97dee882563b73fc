"""Queries of the Scoring page: points by category, faction, round and outcome."""

from __future__ import annotations

import polars as pl

from . import core
from .core import ANALYSIS_TTL_S, cached
from .filters import _AGG_GAMES, _AGG_PLAYERS, _FILTERED, _params


TOTAL_SCORE = "(total score)"

# The per-player-game category totals: of every game of the run, or, when a game filter (player
# count, map) leaves only some, of those games only, cut before the grouping (the grouping of
# about a third of the events' rows is the cost of this query; the cut itself costs ~5%).
_SCORE_SUMS = """
, sums AS (
    SELECT s.game_id, s.seat, s.category, sum(s.points) AS points
    FROM score_events AS s{cut}
    WHERE s.run_id = $run GROUP BY ALL
)"""
_SCORING_FREQUENCIES = """
, cells AS (
    SELECT fp.faction, fp.won, sums.category, sums.points
    FROM sums JOIN fp ON fp.game_id = sums.game_id AND fp.seat = sums.seat
    UNION ALL
    SELECT fp.faction, fp.won, $total AS category, fp.score AS points FROM fp
)
SELECT faction::VARCHAR AS faction, won, category::VARCHAR AS category,
       points::DOUBLE AS points, count(*)::BIGINT AS count
FROM cells GROUP BY ALL
UNION ALL
SELECT faction::VARCHAR, won, NULL, NULL, count(*)::BIGINT FROM fp GROUP BY ALL
"""
_SCORING_SQL = _FILTERED + _SCORE_SUMS.format(cut="") + _SCORING_FREQUENCIES
_SCORING_OF_GAMES_SQL = (_FILTERED
                         + _SCORE_SUMS.format(cut=" SEMI JOIN fg ON fg.game_id = s.game_id")
                         + _SCORING_FREQUENCIES)

# The same frequency table from the aggregates: category totals (agg_categories), final scores
# and player-games (agg_scores).
_SCORING_AGG_SQL = """
SELECT faction::VARCHAR AS faction, won, category::VARCHAR AS category, points::DOUBLE AS points,
       sum(players)::BIGINT AS count
FROM agg_categories WHERE """ + _AGG_PLAYERS + """ GROUP BY ALL
UNION ALL
SELECT faction::VARCHAR, won, $total, score::DOUBLE, sum(players)::BIGINT
FROM agg_scores WHERE """ + _AGG_PLAYERS + """ GROUP BY ALL
UNION ALL
SELECT faction::VARCHAR, won, NULL, NULL, sum(players)::BIGINT
FROM agg_scores WHERE """ + _AGG_PLAYERS + """ GROUP BY ALL
"""

_SCORING_SCHEMA = {"kind": pl.Utf8, "faction": pl.Utf8, "won": pl.Boolean, "category": pl.Utf8,
                   "n": pl.Int64, "mean": pl.Float64, "var": pl.Float64, "min": pl.Float64,
                   "q1": pl.Float64, "median": pl.Float64, "q3": pl.Float64, "max": pl.Float64}


@cached(ttl=ANALYSIS_TTL_S)
def scoring_stats(db: str, run_id: str, n_players: int | None = None,
                  map_id: str | None = None, bot: str | None = None, version: str = "") -> pl.DataFrame:
    """Points per player-game by score category (a player who scored nothing in a category
    counts as 0) and the final score as the category ``(total score)``: n, mean, variance,
    min, quartiles and max, by faction (``kind = 'faction'``) and by outcome (``kind =
    'outcome'``, ``won``). DuckDB returns a frequency table (faction, won, category, points,
    count) — small, whatever the number of games — and the exact statistics are computed from
    it (pipelines.stats.weighted_summary)."""
    from pipelines import stats

    if core.aggregated(db, run_id):
        sql = _SCORING_AGG_SQL
    else:
        sql = _SCORING_SQL if n_players is None and map_id is None else _SCORING_OF_GAMES_SQL
    freq = core.read_frame(db, sql, _params(run_id, n_players, map_id, bot, total=TOTAL_SCORE))
    players = freq.filter(pl.col("category").is_null()).select("faction", "won", pl.col("count").alias("n"))
    cells = freq.filter(pl.col("category").is_not_null())
    categories = sorted(c for c in cells["category"].unique().to_list() if c != TOTAL_SCORE)
    # the players who scored nothing in a category: the zeros the score events do not hold
    seen = cells.filter(pl.col("category") != TOTAL_SCORE).group_by("faction", "won", "category").agg(
        pl.col("count").sum().alias("seen"))
    grid = players.join(pl.DataFrame({"category": categories}, schema={"category": pl.Utf8}),
                        how="cross")
    zeros = (grid.join(seen, on=["faction", "won", "category"], how="left")
             .with_columns((pl.col("n") - pl.col("seen").fill_null(0)).alias("count"),
                           pl.lit(0.0).alias("points"))
             .filter(pl.col("count") > 0)
             .select("faction", "won", "category", "points", "count"))
    full = pl.concat([cells.select("faction", "won", "category", "points", "count"), zeros])
    rows = []
    for kind, keys in (("faction", ["faction", "category"]), ("outcome", ["won", "category"])):
        grouped = full.group_by(*keys, "points").agg(pl.col("count").sum())
        for key, part in grouped.group_by(*keys):
            summary = stats.weighted_summary(part["points"].to_list(), part["count"].to_list())
            row = dict(zip(keys, key, strict=True))
            rows.append({"kind": kind, "faction": row.get("faction"), "won": row.get("won"),
                         "category": row["category"], **summary})
    return pl.DataFrame(rows, schema=_SCORING_SCHEMA).sort("kind", "faction", "won", "category",
                                                          nulls_last=True)


@cached(ttl=ANALYSIS_TTL_S)
def category_by_faction(db: str, run_id: str, n_players: int | None = None,
                        map_id: str | None = None, bot: str | None = None, version: str = "") -> pl.DataFrame:
    """Points per player-game by score category and faction: mean, variance and quantiles
    (a player who scored nothing in a category counts as 0)."""
    frame = scoring_stats(db, run_id, n_players, map_id, bot, version)
    return (frame.filter((pl.col("kind") == "faction") & (pl.col("category") != TOTAL_SCORE))
            .drop("kind", "won").sort("faction", "category"))


_ROUND_SQL = _FILTERED + """
, per_round AS (
    SELECT fp.faction, fp.won, s.round, sum(s.points)::DOUBLE AS points
    FROM score_events AS s
    JOIN fp ON fp.game_id = s.game_id AND fp.seat = s.seat
    WHERE s.run_id = $run
    GROUP BY ALL
), n AS (SELECT faction, won, count(*) AS n FROM fp GROUP BY ALL)
SELECT r.faction::VARCHAR AS faction, r.won AS won, r.round::INTEGER AS round,
       (sum(r.points) / any_value(n.n))::DOUBLE AS points, any_value(n.n)::BIGINT AS n
FROM per_round AS r JOIN n ON n.faction = r.faction AND n.won = r.won
GROUP BY r.faction, r.won, r.round
ORDER BY r.faction, r.won, r.round
"""


_ROUND_AGG_SQL = """
WITH r AS (
    SELECT faction, won, round, sum(points)::DOUBLE AS points FROM agg_rounds
    WHERE """ + _AGG_PLAYERS + """ GROUP BY ALL
), n AS (
    SELECT faction, won, sum(players) AS n FROM agg_scores
    WHERE """ + _AGG_PLAYERS + """ GROUP BY ALL
)
SELECT r.faction::VARCHAR AS faction, r.won AS won, r.round::INTEGER AS round,
       (r.points / n.n)::DOUBLE AS points, n.n::BIGINT AS n
FROM r JOIN n ON n.faction = r.faction AND n.won = r.won
ORDER BY r.faction, r.won, r.round
"""


@cached(ttl=ANALYSIS_TTL_S)
def points_by_round(db: str, run_id: str, n_players: int | None = None,
                    map_id: str | None = None, bot: str | None = None, version: str = "") -> pl.DataFrame:
    """Mean points scored in each round per player-game, by faction and outcome (won).
    Callers re-aggregate over ``won`` with the weights ``n``."""
    sql = _ROUND_AGG_SQL if core.aggregated(db, run_id) else _ROUND_SQL
    return core.read_frame(db, sql, _params(run_id, n_players, map_id, bot))


# Winners against losers within each game (issue 12, P10): per game, the winners' mean points
# minus the losers' mean points (in a category, or the final score), then a t interval over
# games.  The seats of one game share the game (a long game gives everyone more points), so
# the game, not the player-game, is the unit; zeros (no event in a category) are implicit.
_WITHIN_GAME_SQL = _FILTERED + """
, ng AS (
    SELECT game_id, count(*) FILTER (WHERE won) AS nw, count(*) FILTER (WHERE NOT won) AS nl,
           sum(score) FILTER (WHERE won) AS sw, sum(score) FILTER (WHERE NOT won) AS sl
    FROM fp GROUP BY game_id
    HAVING count(*) FILTER (WHERE won) > 0 AND count(*) FILTER (WHERE NOT won) > 0
), ev AS (
    SELECT s.game_id, s.category, coalesce(sum(s.points) FILTER (WHERE fp.won), 0) AS pw,
           coalesce(sum(s.points) FILTER (WHERE NOT fp.won), 0) AS pl
    FROM score_events AS s JOIN fp ON fp.game_id = s.game_id AND fp.seat = s.seat
    WHERE s.run_id = $run GROUP BY ALL
), cats AS (SELECT DISTINCT category FROM ev), per_game AS (
    SELECT c.category, ng.game_id,
           coalesce((ev.pw * 840) // ng.nw - (ev.pl * 840) // ng.nl, 0) AS d840
    FROM ng CROSS JOIN cats AS c LEFT JOIN ev ON ev.game_id = ng.game_id AND ev.category = c.category
    UNION ALL
    SELECT NULL, game_id, (sw * 840) // nw - (sl * 840) // nl FROM ng
)
SELECT category::VARCHAR AS category, count(*)::BIGINT AS games,
       sum(d840)::VARCHAR AS d_sum, sum(d840::HUGEINT * d840)::VARCHAR AS d_sq
FROM per_game GROUP BY category
"""
# The same sums from agg_within (one selection of players: all bots, or one bot's seats).  A
# category's row counts the games it was scored in; its mean is over every counted game (the
# others add 0), as the total's row (category NULL) counts them.
_WITHIN_GAME_AGG_SQL = """
WITH w AS (
    SELECT category, sum(games) AS games, sum(d_sum) AS d_sum, sum(d_sq) AS d_sq
    FROM agg_within WHERE """ + _AGG_GAMES + """
      AND (($bot::VARCHAR IS NULL AND all_bots) OR (NOT all_bots AND bot = $bot::VARCHAR))
    GROUP BY category
), n AS (SELECT games FROM w WHERE category IS NULL)
SELECT w.category::VARCHAR AS category, n.games::BIGINT AS games, w.d_sum::VARCHAR AS d_sum,
       w.d_sq::VARCHAR AS d_sq
FROM w, n WHERE n.games > 0
"""


def within_game(sums: pl.DataFrame) -> pl.DataFrame:
    """Per category (and the final score, `TOTAL_SCORE`): games, the mean within-game
    difference and its sample variance over games, from the exact sums of d * 840 and its
    square (integers as text): each value is the exact fraction, rounded once."""
    from fractions import Fraction

    rows = []
    for r in sums.iter_rows(named=True):
        n, s, q = int(r["games"]), int(r["d_sum"]), int(r["d_sq"])
        mean = float(Fraction(s, 840 * n))
        var = float(Fraction(n * q - s * s, 840 * 840 * n * (n - 1))) if n > 1 else None
        rows.append({"category": TOTAL_SCORE if r["category"] is None else r["category"],
                     "games": n, "mean": mean, "var": var})
    return pl.DataFrame(rows, schema={"category": pl.Utf8, "games": pl.Int64, "mean": pl.Float64,
                                      "var": pl.Float64}).sort("category")


@cached(ttl=ANALYSIS_TTL_S)
def winners_vs_losers(db: str, run_id: str, n_players: int | None = None,
                      map_id: str | None = None, bot: str | None = None, version: str = "") -> pl.DataFrame:
    """Per category: mean points of winners and of losers (per player-game), and the
    within-game difference — each game's winners' mean minus its losers' mean, averaged over
    the games — with a t interval over games (one value per game: the seats of a game are not
    independent) and Holm marks; sorted by the difference.  Descriptive: it conditions on the
    outcome, so it says what winners scored, not what makes a player win."""
    import math

    from scipy import stats as sps

    from pipelines import stats

    frame = scoring_stats(db, run_id, n_players, map_id, bot, version).filter(pl.col("kind") == "outcome")
    sql = _WITHIN_GAME_AGG_SQL if core.aggregated(db, run_id) else _WITHIN_GAME_SQL
    sums = core.read_frame(db, sql, _params(run_id, n_players, map_id, bot))
    within = {r["category"]: r for r in within_game(sums).iter_rows(named=True)}
    rows = []
    for cat in frame["category"].unique(maintain_order=True).to_list():
        part = {r["won"]: r for r in frame.filter(pl.col("category") == cat).iter_rows(named=True)}
        win, lose, w = part.get(True), part.get(False), within.get(cat)
        if win is None or lose is None or w is None:
            continue
        n, d, var = int(w["games"]), float(w["mean"]), w["var"]
        lo = hi = p = math.nan
        if n >= 2 and var is not None:
            se = math.sqrt(max(float(var), 0.0) / n)
            if se > 0:
                t = float(sps.t.ppf(0.975, n - 1))
                lo, hi = d - t * se, d + t * se
                p = float(2 * sps.t.sf(abs(d) / se, n - 1))
            else:
                lo = hi = d
                p = 1.0 if d == 0 else 0.0
        rows.append({"category": cat, "winners": win["mean"], "losers": lose["mean"],
                     "n_winners": win["n"], "n_losers": lose["n"], "games": n, "difference": d,
                     "low": lo, "high": hi, "p_value": p})
    schema = {"category": pl.Utf8, "winners": pl.Float64, "losers": pl.Float64,
              "n_winners": pl.Int64, "n_losers": pl.Int64, "games": pl.Int64,
              "difference": pl.Float64, "low": pl.Float64, "high": pl.Float64,
              "p_value": pl.Float64}
    out = pl.DataFrame(rows, schema=schema)
    reject, adjusted = stats.holm(out["p_value"].to_list())
    return out.with_columns(pl.Series("p_holm", adjusted, dtype=pl.Float64),
                            pl.Series("significant", reject, dtype=pl.Boolean)
                            ).sort(["difference", "category"], descending=[True, False])
