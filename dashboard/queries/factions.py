"""Queries of the Factions page: win rates, score distributions, seats, the matrix, the
strength model."""

from __future__ import annotations

import polars as pl

from . import core
from .core import ANALYSIS_TTL_S, SchemaMismatch, cached
from .filters import _FILTERED, _GAME_IDS, _params, _with_rates


_FACTION_RATES_SQL = _FILTERED + """
SELECT faction::VARCHAR                      AS faction,
       count(*)::BIGINT                      AS games,
       sum(CAST(won AS INTEGER))::BIGINT     AS wins,
       avg(1 / n_players::DECIMAL(18, 12))::DOUBLE AS fair_share,
       avg(score)::DOUBLE                    AS mean_score,
       sqrt(((count(*) * sum(score::HUGEINT * score) - sum(score::HUGEINT) ^ 2)::DOUBLE)
            / nullif(count(*) * (count(*) - 1), 0)) AS sd_score
FROM fp GROUP BY faction ORDER BY faction
"""


@cached(ttl=ANALYSIS_TTL_S)
def faction_rates(db: str, run_id: str, n_players: int | None = None,
                  map_id: str | None = None, bot: str | None = None, version: str = "") -> pl.DataFrame:
    """Per faction: player-games, wins, fair share, mean/sd score, and the win rate with its
    Wilson interval, binomial p-value against the fair share and Holm mark."""
    frame = core.read_frame(db, _FACTION_RATES_SQL, _params(run_id, n_players, map_id, bot))
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
    return core.read_frame(db, _SCORE_QUANTILES_SQL, _params(run_id, n_players, map_id, bot))


# One pass over the players feeds both groupings (GROUPING SETS), not a UNION of two scans.
_SEAT_RATES_SQL = _FILTERED + """
SELECT CASE WHEN grouping(seat) = 0 THEN 'seat' ELSE 'turn order' END AS kind,
       coalesce(seat, turn_position)::INTEGER AS position, count(*)::BIGINT AS games,
       sum(CAST(won AS INTEGER))::BIGINT AS wins,
       avg(1 / n_players::DECIMAL(18, 12))::DOUBLE AS fair_share, avg(score)::DOUBLE AS mean_score
FROM fp GROUP BY GROUPING SETS ((seat), (turn_position))
ORDER BY kind, position
"""


@cached(ttl=ANALYSIS_TTL_S)
def seat_rates(db: str, run_id: str, n_players: int | None = None,
               map_id: str | None = None, bot: str | None = None, version: str = "") -> pl.DataFrame:
    """Win rate by table seat and by turn order (0 = the first player), with intervals and
    Holm marks against the fair share (corrected within each kind)."""
    frame = core.read_frame(db, _SEAT_RATES_SQL, _params(run_id, n_players, map_id, bot))
    parts = [_with_rates(frame.filter(pl.col("kind") == k)) for k in ("seat", "turn order")]
    return pl.concat(parts, how="vertical_relaxed")


_MATRIX_SQL = _FILTERED + """
SELECT a.faction::VARCHAR AS faction, b.faction::VARCHAR AS opponent,
       count(*)::BIGINT AS games, sum(CAST(a.won AS INTEGER))::BIGINT AS wins,
       avg(1 / a.n_players::DECIMAL(18, 12))::DOUBLE AS fair_share
FROM fp AS a
JOIN players AS b ON b.game_id = a.game_id AND b.seat <> a.seat
WHERE b.run_id = $run
GROUP BY a.faction, b.faction
ORDER BY a.faction, b.faction
"""


@cached(ttl=ANALYSIS_TTL_S)
def faction_matrix(db: str, run_id: str, n_players: int | None = None,
                   map_id: str | None = None, bot: str | None = None, version: str = "") -> pl.DataFrame:
    """Win rate of each faction in the games that include each other faction, with Wilson
    intervals and Holm marks (over all cells) where the interval excludes the fair share."""
    frame = core.read_frame(db, _MATRIX_SQL, _params(run_id, n_players, map_id, bot))
    return _with_rates(frame)


#: Seats the strength model's pivot handles (a constant of the SQL text below).
LINEUP_SEATS = 8

# One row per distinct table: the faction and bot in each seat (a pivot with a constant list of
# seats: hash aggregation, no per-game sorting), who won as a bit mask, and how many games.
_LINEUPS_SQL = _GAME_IDS + """, tables AS (
    SELECT
           max(CASE WHEN p.seat = 0 THEN p.faction END) AS f0, max(CASE WHEN p.seat = 0 THEN coalesce(p.bot, '') END) AS b0,
           max(CASE WHEN p.seat = 1 THEN p.faction END) AS f1, max(CASE WHEN p.seat = 1 THEN coalesce(p.bot, '') END) AS b1,
           max(CASE WHEN p.seat = 2 THEN p.faction END) AS f2, max(CASE WHEN p.seat = 2 THEN coalesce(p.bot, '') END) AS b2,
           max(CASE WHEN p.seat = 3 THEN p.faction END) AS f3, max(CASE WHEN p.seat = 3 THEN coalesce(p.bot, '') END) AS b3,
           max(CASE WHEN p.seat = 4 THEN p.faction END) AS f4, max(CASE WHEN p.seat = 4 THEN coalesce(p.bot, '') END) AS b4,
           max(CASE WHEN p.seat = 5 THEN p.faction END) AS f5, max(CASE WHEN p.seat = 5 THEN coalesce(p.bot, '') END) AS b5,
           max(CASE WHEN p.seat = 6 THEN p.faction END) AS f6, max(CASE WHEN p.seat = 6 THEN coalesce(p.bot, '') END) AS b6,
           max(CASE WHEN p.seat = 7 THEN p.faction END) AS f7, max(CASE WHEN p.seat = 7 THEN coalesce(p.bot, '') END) AS b7,
           sum(CAST(p.won AS BIGINT) << p.seat)::BIGINT AS won_mask, max(p.seat) AS top_seat,
           count(*) AS seats
    FROM players AS p SEMI JOIN fg ON fg.game_id = p.game_id
    WHERE p.run_id = $run
    GROUP BY p.game_id
)
SELECT f0, b0, f1, b1, f2, b2, f3, b3, f4, b4, f5, b5, f6, b6, f7, b7, won_mask, max(top_seat) AS top_seat, max(seats) AS seats,
       count(*)::BIGINT AS games
FROM tables GROUP BY ALL ORDER BY ALL  -- a total order: the fit sums in the same order
"""


def _lineups(frame: pl.DataFrame):
    """Distinct tables (seat, faction, bot per seat; who won) -> the strength model's input."""
    for row in frame.iter_rows(named=True):
        if row["top_seat"] >= LINEUP_SEATS or row["seats"] != row["top_seat"] + 1:
            raise SchemaMismatch(f"the strength model handles tables of seats 0..{LINEUP_SEATS - 1}")
        n = row["seats"]
        yield ([row[f"f{i}"] for i in range(n)], [str(i) for i in range(n)],
               [row[f"b{i}"] for i in range(n)],
               [(row["won_mask"] >> i) & 1 for i in range(n)], row["games"])


@cached(ttl=ANALYSIS_TTL_S)
def strength_model(db: str, run_id: str, n_players: int | None = None,
                   map_id: str | None = None, version: str = "") -> tuple[pl.DataFrame, int]:
    """Faction strengths controlling for seat (and bot, when bots vary within a seat): Luce's
    winner-choice model fitted on the distinct tables of the run (pipelines.stats).

    Returns (terms, games): one row per term with ``kind``, ``level``, ``estimate`` (log-
    strength), ``low``, ``high`` and ``odds`` (= exp(estimate)); and the games it rests on.
    """
    from pipelines import stats

    lineups = core.read_frame(db, _LINEUPS_SQL, {"run": run_id, "np": n_players, "map": map_id})
    fit = stats.luce_winner_model(_lineups(lineups))
    frame = pl.DataFrame(
        [{"kind": t.kind, "level": t.level, "estimate": t.estimate, "low": t.low,
          "high": t.high} for t in fit.terms],
        schema={"kind": pl.Utf8, "level": pl.Utf8, "estimate": pl.Float64, "low": pl.Float64,
                "high": pl.Float64},
    )
    return frame.with_columns(pl.col("estimate").exp().alias("odds")), fit.n_games
