"""Playtests page (and the report's section): the imported playtests and their comparison with
the bot tiers on the same rules and player count (pipelines/playtests)."""

from __future__ import annotations

import polars as pl

from pipelines.playtests import compare as pc
from pipelines.playtests import data as pd

from . import core
from .core import ANALYSIS_TTL_S, CACHE_TTL_S, cached

_IMPORTS_SQL = """
SELECT t.playtest_id, any_value(t.game) AS game, any_value(t.label) AS label,
       any_value(t.source_file) AS file, count(*)::INTEGER AS games,
       string_agg(DISTINCT t.n_players::VARCHAR, ',') AS players,
       string_agg(DISTINCT t.variant, ',') AS rules, min(t.played_on) AS first_played,
       max(t.played_on) AS last_played, min(t.imported_at) AS imported_at
FROM playtests t WHERE $game IS NULL OR t.game = $game
GROUP BY t.playtest_id ORDER BY imported_at, t.playtest_id
"""

_VERSION_SQL = """
SELECT (SELECT coalesce(string_agg(DISTINCT playtest_id, ','), '') FROM playtests) || '|' ||
       (SELECT coalesce(sum(coalesce(games_done, 0)), 0)::VARCHAR || ':' || count(*)::VARCHAR FROM runs)
"""


def has_playtests(db: str) -> bool:
    return "playtests" in core.existing_tables(db)


@cached(ttl=CACHE_TTL_S)
def imports(db: str, game: str | None = None) -> pl.DataFrame:
    """One row per imported file (all games, or one)."""
    if not has_playtests(db):
        return pl.DataFrame(schema={"playtest_id": pl.Utf8, "game": pl.Utf8})
    return core.read_frame(db, _IMPORTS_SQL, {"game": game})


@cached(ttl=CACHE_TTL_S)
def version(db: str) -> str:
    """Changes whenever a playtest is imported or removed or a run grows (the cache key)."""
    tables = core.existing_tables(db)
    if "playtests" not in tables or "runs" not in tables:
        return ""
    return str(core.read_frame(db, _VERSION_SQL).item())


@cached(ttl=CACHE_TTL_S)
def slices(db: str, game: str) -> pl.DataFrame:
    """The (rules, player count) groups of a game's playtests, most games first."""
    with core.connection(db) as con:
        return pd.slices(con, game)


@cached(ttl=ANALYSIS_TTL_S)
def comparison(db: str, game: str, rules_hash: str, n_players: int, maps: tuple[str, ...] = (),
               version: str = "") -> pc.Comparison:
    """Humans against every bot tier in one slice (bootstrap and Monte Carlo: about a second)."""
    with core.connection(db) as con:
        data = pd.read_slice(con, pd.Slice(game, rules_hash, n_players, tuple(maps)))
    return pc.compare(data)


@cached(ttl=CACHE_TTL_S)
def slice_maps(db: str, game: str, rules_hash: str, n_players: int) -> tuple[str, ...]:
    """The maps the slice's playtests noted (empty when a game lacks one: every map)."""
    with core.connection(db) as con:
        return pd.noted_maps(con, pd.Slice(game, rules_hash, n_players))


@cached(ttl=CACHE_TTL_S)
def human_scores(db: str, game: str, rules_hash: str, n_players: int,
                 maps: tuple[str, ...] = ()) -> pl.DataFrame:
    """The human seats of the slice (for the score chart)."""
    with core.connection(db) as con:
        return pd.human_seats(con, pd.Slice(game, rules_hash, n_players, tuple(maps)))
