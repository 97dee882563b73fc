"""Reading playtests and the bot games to set beside them, aggregated in DuckDB.

A *slice* is what makes human and bot games comparable: one game, one rules hash (the rules
the table's `variant` resolves to, as a run's `rules_hash`), one player count and optionally
one map.  A *tier* is the bot every seat of a simulated game played (games whose seats mixed
bots are left out: they are ladders and matches, not a way people play).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

#: Bot games drawn per tier (deterministically, by a hash of their ids) for the resampling tests.
SAMPLE_GAMES = 2000


@dataclass(frozen=True)
class Slice:
    game: str
    rules_hash: str
    n_players: int
    maps: tuple[str, ...] = ()             # empty: every map (bot games restricted to these)
    playtest_ids: tuple[str, ...] = ()     # empty: every import of the game

    @property
    def params(self) -> dict:
        return {"game": self.game, "hash": self.rules_hash, "n": self.n_players, "maps": list(self.maps) or None,
                "ids": list(self.playtest_ids) or None}


def slices(con, game: str) -> pl.DataFrame:
    """The (rules hash, variant, player count) groups of a game's playtests, most games first."""
    return con.execute(
        "SELECT rules_hash, any_value(variant) AS variant, n_players, count(*)::INTEGER AS games "
        "FROM playtests WHERE game = $game GROUP BY rules_hash, n_players "
        "ORDER BY games DESC, n_players, rules_hash", {"game": game}).pl()


_HUMAN_WHERE = ("t.game = $game AND t.rules_hash = $hash AND t.n_players = $n "
                "AND ($maps IS NULL OR list_contains($maps, t.map)) AND ($ids IS NULL OR list_contains($ids, t.playtest_id))")

_HUMAN_SEATS = f"""
SELECT t.playtest_id, t.game_id, p.seat, p.faction, p.score, p.won, t.rounds, t.map,
       (t.winner_seat IS NOT NULL OR t.tie) AS decided,
       CASE WHEN p.won THEN 1.0 / count(*) FILTER (WHERE p.won) OVER (PARTITION BY t.playtest_id, t.game_id)
            ELSE 0.0 END AS win_share
FROM playtests t JOIN playtest_players p USING (playtest_id, game_id)
WHERE {_HUMAN_WHERE}
ORDER BY t.playtest_id, t.game_id, p.seat
"""

_HUMAN_CATEGORIES = f"""
SELECT t.playtest_id, t.game_id, e.category, sum(e.points)::BIGINT AS points,
       count(DISTINCT e.seat)::INTEGER AS seats, any_value(t.n_players) AS n_players
FROM playtests t JOIN playtest_score_events e USING (playtest_id, game_id)
WHERE {_HUMAN_WHERE}
GROUP BY ALL ORDER BY ALL
"""

_TIER_GAMES = """
tg AS (
  SELECT p.run_id, p.game_id, min(p.bot) AS tier
  FROM players p JOIN runs r USING (run_id)
  JOIN games g ON g.run_id = p.run_id AND g.game_id = p.game_id
  WHERE r.game = $game AND r.rules_hash = $hash AND g.n_players = $n
    AND ($maps IS NULL OR list_contains($maps, g.map))
  GROUP BY p.run_id, p.game_id HAVING count(DISTINCT p.bot) = 1)
"""

_TIER_SEATS = "WITH " + _TIER_GAMES + """,
w AS (SELECT p.run_id, p.game_id, count(*) FILTER (WHERE p.won) AS winners
      FROM players p JOIN tg USING (run_id, game_id) GROUP BY ALL)
SELECT tg.tier, p.faction, p.seat, (w.winners > 0) AS decided,
       count(*)::BIGINT AS n, sum(CASE WHEN p.won THEN 1.0 / w.winners ELSE 0 END)::DOUBLE AS wins
FROM players p JOIN tg USING (run_id, game_id) JOIN w USING (run_id, game_id)
GROUP BY ALL ORDER BY ALL
"""

_TIER_SCORES = "WITH " + _TIER_GAMES + """
SELECT tg.tier, p.score, count(*)::BIGINT AS n
FROM players p JOIN tg USING (run_id, game_id) GROUP BY ALL ORDER BY ALL
"""

_TIER_CATEGORIES = "WITH " + _TIER_GAMES + """
SELECT tg.tier, e.category, sum(e.points)::DOUBLE AS points
FROM score_events e JOIN tg USING (run_id, game_id) GROUP BY ALL ORDER BY ALL
"""

_TIER_ROUNDS = "WITH " + _TIER_GAMES + """
SELECT tg.tier, count(*)::BIGINT AS games, avg(g.rounds)::DOUBLE AS mean_rounds,
       coalesce(stddev_samp(g.rounds), 0)::DOUBLE AS sd_rounds,
       (count(*) FILTER (WHERE g.winner_seat IS NULL AND g.n_players > 1))::BIGINT AS undecided
FROM games g JOIN tg USING (run_id, game_id) GROUP BY ALL ORDER BY ALL
"""

# a deterministic sample of each tier's games (the resampling tests' reference games)
_TIER_SAMPLE = "WITH " + _TIER_GAMES + """,
s AS (SELECT run_id, game_id, tier FROM (
        SELECT *, row_number() OVER (PARTITION BY tier ORDER BY hash(run_id, game_id), run_id, game_id) AS k
        FROM tg) WHERE k <= $k)
"""

_SAMPLE_SCORES = _TIER_SAMPLE + """
SELECT s.tier, s.run_id, s.game_id, p.seat, p.score
FROM s JOIN players p USING (run_id, game_id) ORDER BY s.tier, s.run_id, s.game_id, p.seat
"""

_SAMPLE_CATEGORIES = _TIER_SAMPLE + """
SELECT s.tier, s.run_id, s.game_id, e.category, sum(e.points)::DOUBLE AS points
FROM s JOIN score_events e USING (run_id, game_id) GROUP BY ALL ORDER BY ALL
"""


@dataclass
class SliceData:
    """Everything the comparison needs, as small frames."""

    slice: Slice
    human_seats: pl.DataFrame
    human_categories: pl.DataFrame
    tier_seats: pl.DataFrame
    tier_scores: pl.DataFrame
    tier_categories: pl.DataFrame
    tier_rounds: pl.DataFrame
    sample_scores: pl.DataFrame
    sample_categories: pl.DataFrame

    @property
    def tiers(self) -> list[str]:
        return self.tier_rounds["tier"].to_list() if self.tier_rounds.height else []


def read_slice(con, s: Slice, sample_games: int = SAMPLE_GAMES) -> SliceData:
    p = s.params
    q = {k: v for k, v in p.items() if k != "ids"}
    has_runs = bool(con.execute("SELECT count(*) FROM information_schema.tables "
                                "WHERE table_name = 'runs'").fetchone()[0])

    def tier(sql: str, extra: dict | None = None) -> pl.DataFrame:
        return con.execute(sql, {**q, **(extra or {})}).pl() if has_runs else pl.DataFrame()

    return SliceData(
        slice=s,
        human_seats=human_seats(con, s),
        human_categories=con.execute(_HUMAN_CATEGORIES, p).pl(),
        tier_seats=tier(_TIER_SEATS), tier_scores=tier(_TIER_SCORES),
        tier_categories=tier(_TIER_CATEGORIES), tier_rounds=tier(_TIER_ROUNDS),
        sample_scores=tier(_SAMPLE_SCORES, {"k": sample_games}),
        sample_categories=tier(_SAMPLE_CATEGORIES, {"k": sample_games}),
    )


def load_slice(db: str | Path, s: Slice) -> SliceData:
    from pipelines.store import connect_read
    with connect_read(db) as con:
        return read_slice(con, s)


def default_slice(db: str | Path, game: str) -> Slice | None:
    """The slice holding most of a game's playtests (None when it has none)."""
    from pipelines.store import connect_read
    if not Path(db).exists():
        return None
    with connect_read(db) as con:
        if not con.execute("SELECT count(*) FROM information_schema.tables "
                           "WHERE table_name = 'playtests'").fetchone()[0]:
            return None
        frame = slices(con, game)
    if frame.is_empty():
        return None
    row = frame.row(0, named=True)
    return with_maps(db, Slice(game, row["rules_hash"], int(row["n_players"])))


def with_maps(db: str | Path, s: Slice) -> Slice:
    """`s` restricted to the maps its playtests noted (`noted_maps`)."""
    from pipelines.store import connect_read
    with connect_read(db) as con:
        return Slice(s.game, s.rules_hash, s.n_players, noted_maps(con, s), s.playtest_ids)


def noted_maps(con, s: Slice) -> tuple[str, ...]:
    """The maps a slice's playtests were played on, when every one of them noted its map (then
    bot games on other maps do not blur the comparison); else () for every map."""
    maps, missing = con.execute(
        "SELECT list(DISTINCT map ORDER BY map) FILTER (WHERE map IS NOT NULL), "
        "count(*) FILTER (WHERE map IS NULL) FROM playtests "
        "WHERE game = $game AND rules_hash = $hash AND n_players = $n",
        {"game": s.game, "hash": s.rules_hash, "n": s.n_players}).fetchone()
    return () if missing or not maps else tuple(maps)


def human_seats(con, s: Slice) -> pl.DataFrame:
    """The slice's human seats: import, game, seat, faction, score, won, rounds, map, decided."""
    return con.execute(_HUMAN_SEATS, s.params).pl()


def per_game_scores(frame: pl.DataFrame, keys: tuple[str, ...]) -> list[np.ndarray]:
    """Each game's seat scores, in the frame's order of games."""
    if frame.is_empty():
        return []
    grouped = frame.group_by(list(keys), maintain_order=True).agg(pl.col("score"))
    return [np.asarray(v, dtype=float) for v in grouped["score"].to_list()]
