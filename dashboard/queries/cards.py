"""Queries of the "Win rate by card held" section (Factions page): for games whose seats hold
cards (`players.held_cards`, space-separated ids: the cave game's traits and equipment), each
card's win rate among the seats that held it, with its Wilson interval against the fair share.

Kept apart from the other page modules on purpose (one job: the cards).  The kind of a card is
the word before the first "_" of its id (`pos`, `neg`, `eq` in the cave game).
"""

from __future__ import annotations

import polars as pl

from . import core
from .core import ANALYSIS_TTL_S, cached
from .filters import _FILTERED, _params, _with_rates

# A win shared by k tied winners counts 1/k (as on the rest of the page).  A card counts once
# per seat that held it, whatever the number of workers that held it.
_CARD_RATES_SQL = _FILTERED + """, nw AS (
    SELECT p.game_id, count(*) FILTER (WHERE p.won) AS n_won FROM players AS p
    SEMI JOIN fg ON fg.game_id = p.game_id WHERE p.run_id = $run GROUP BY p.game_id
), held AS (
    SELECT DISTINCT fp.game_id, fp.seat, fp.n_players,
           CASE WHEN fp.won THEN 1.0 / nw.n_won ELSE 0.0 END AS credit,
           unnest(string_split(fp.held_cards, ' ')) AS card
    FROM fp JOIN nw ON nw.game_id = fp.game_id
    WHERE fp.held_cards IS NOT NULL AND fp.held_cards <> ''
)
SELECT split_part(card, '_', 1)::VARCHAR           AS kind,
       card::VARCHAR                               AS card,
       count(*)::BIGINT                            AS games,
       sum(credit)::DOUBLE                         AS wins,
       avg(1 / n_players::DECIMAL(18, 12))::DOUBLE AS fair_share
FROM held WHERE card <> '' GROUP BY 1, 2 ORDER BY 1, 2
"""

_HAS_CARDS_SQL = """
SELECT count(*) FROM players WHERE run_id = $run AND held_cards IS NOT NULL AND held_cards <> ''
"""


@cached(ttl=ANALYSIS_TTL_S)
def has_held_cards(db: str, run_id: str, version: str = "") -> bool:
    """Whether the run's seats record the cards they held (False on databases without the
    column)."""
    try:
        frame = core.read_frame(db, _HAS_CARDS_SQL, {"run": run_id})
    except Exception:  # noqa: BLE001 - an older database without players.held_cards
        return False
    return bool(frame.height and frame.row(0)[0])


@cached(ttl=ANALYSIS_TTL_S)
def card_rates(db: str, run_id: str, n_players: int | None = None, map_id: str | None = None,
               bot: str | None = None, version: str = "") -> pl.DataFrame:
    """Per card held (kind, card): seat-games holding it, wins (a tied win 1/k), fair share, and
    the win rate with its 95% Wilson interval, exact binomial p-value against the fair share
    and Holm mark over all cards (pipelines.stats.rate_table)."""
    frame = core.read_frame(db, _CARD_RATES_SQL, _params(run_id, n_players, map_id, bot))
    return _with_rates(frame)
