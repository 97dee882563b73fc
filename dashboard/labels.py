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


@functools.lru_cache(maxsize=64)
def _entry_names(rules_json: str) -> tuple[tuple[str, str], ...]:
    import json
    try:
        doc = json.loads(rules_json or "{}")
    except ValueError:
        return ()
    found: dict[str, str] = {}

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if isinstance(v, dict) and isinstance(v.get("name"), str) and v["name"]:
                    found.setdefault(str(k), v["name"])      # a table keyed by id (maps...)
                walk(v)
        elif isinstance(node, list):
            for e in node:
                if isinstance(e, dict) and "id" in e and isinstance(e.get("name"), str) \
                        and e["name"]:
                    found.setdefault(str(e["id"]), e["name"])   # a list of entries with ids
                walk(e)
    walk(doc)
    return tuple(sorted(found.items()))


def entry_names(rules_json: str | None) -> dict[str, str]:
    """The display name of every entry of a rules document (cards, buildings, maps,
    factions...: each `name` beside an `id`, or under a key), by id."""
    return dict(_entry_names(rules_json or ""))


@functools.lru_cache(maxsize=64)
def _run_rules(db: str, run_id: str) -> str:
    import duckdb
    try:
        with duckdb.connect(db, read_only=True) as con:
            row = con.execute("SELECT rules::VARCHAR FROM runs WHERE run_id = ?", [run_id]).fetchone()
    except Exception:  # noqa: BLE001 - a busy or foreign database: ids are shown
        return ""
    return (row[0] or "") if row else ""


def game_title(game_id: str | None) -> str:
    """A game's name ("Underwater Cities"), else its id."""
    if not game_id:
        return ""
    try:
        from engine.core.registry import get_game
        return str(get_game(game_id).title or game_id)
    except Exception:  # noqa: BLE001
        return str(game_id)


def run_names(db: str | None, run: Mapping[str, Any] | None) -> dict[str, str]:
    """Every name a run's pages show for an id: the game's labels (categories, actions,
    phases) over the names of its rules' entries (cards, buildings, maps...)."""
    if not run:
        return {}
    names = entry_names(run.get("rules") if isinstance(run.get("rules"), str) else
                        _run_rules(str(db), str(run["run_id"])) if db and run.get("run_id")
                        else "")
    names.update(game_labels(run.get("game")))
    return names
