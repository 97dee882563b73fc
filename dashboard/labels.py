"""Display names for the ids a game logs (score categories, actions, phases, factions).

Each game declares them on its `Game` (`labels`, engine/core/protocol.py; e.g.
engine/games/glimmerdeep/labels.py); the database keeps the ids.  Pages, charts and the report
show the names: `relabel` maps the id columns of a frame just before it is drawn or shown (the
queries and the URL keep the ids), `name` one id (a selectbox's `format_func`).  An id a game
does not name is shown as it is.
"""

from __future__ import annotations

import functools
from typing import Any, Mapping

#: The columns that hold ids a game may name.
ID_COLUMNS = ("category", "action", "phase")


@functools.lru_cache(maxsize=32)
def _game_labels(game_id: str) -> tuple[tuple[str, str], ...]:
    try:
        from engine.core.registry import get_game
        labels = get_game(game_id).labels or {}
    except Exception:  # noqa: BLE001 - a game no longer registered: its ids are shown
        labels = {}
    return tuple(sorted((str(k), str(v)) for k, v in dict(labels).items()))


def game_labels(game: str | Mapping[str, Any] | None) -> dict[str, str]:
    """The display names of a game (its id, or a run row with a `game`)."""
    if isinstance(game, Mapping):
        game = game.get("game")
    return dict(_game_labels(game)) if game else {}


def name(labels: Mapping[str, str], key: Any) -> str:
    return labels.get(str(key), str(key)) if key is not None else ""


def relabel(frame: Any, game: str | Mapping[str, Any] | None,
            columns: tuple[str, ...] = ID_COLUMNS) -> Any:
    """`frame` (polars) with the id columns it has mapped to the game's display names."""
    labels = game_labels(game)
    if not labels or frame is None or not hasattr(frame, "columns"):
        return frame
    import polars as pl
    present = [c for c in columns if c in frame.columns and frame.schema[c] == pl.Utf8]
    if not present:
        return frame
    return frame.with_columns(pl.col(c).replace(labels) for c in present)
