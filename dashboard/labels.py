"""Display names for the ids a game logs (score categories, actions, phases, factions).

Each game declares them on its `Game` (`labels`, engine/core/protocol.py; e.g.
engine/games/glimmerdeep/labels.py); factions are named by their rules entries
(`faction_name`); the database keeps the ids.  Pages, charts and the report
show the names: `relabel` maps the id columns of a frame just before it is drawn or shown (the
queries and the URL keep the ids), `name` one id (a selectbox's `format_func`).  An id a game
does not name is shown as it is.
"""

from __future__ import annotations

import functools
from typing import Any, Mapping

from engine.core.names import without_article

#: The columns that hold ids a game may name.
ID_COLUMNS = ("category", "action", "phase", "faction", "opponent")


def faction_name(entry_name: str | None, faction_id: str) -> str:
    """A faction as a sentence or an axis names it: its rules entry's name without a leading
    article ('The Deepdelvers' -> 'Deepdelvers', 'Reef Colony'), else its id in words
    ('blue' -> 'Blue')."""
    if entry_name:
        return without_article(entry_name)
    return faction_id.replace("_", " ").capitalize()


@functools.lru_cache(maxsize=32)
def _base_rules(game_id: str) -> tuple[tuple[str, ...], str]:
    """(faction ids, canonical rules) of a game's base rules; empty for a game not registered."""
    try:
        from engine.core.registry import get_game
        game = get_game(game_id)
        rules = game.load_rules()
        return tuple(str(f) for f in game.factions(rules.model)), rules.canonical
    except Exception:  # noqa: BLE001 - a game without factions or rules: ids are shown
        return (), ""


def _faction_names(game_id: str) -> tuple[tuple[str, str], ...]:
    ids, canonical = _base_rules(game_id)
    entries = entry_names(canonical)
    return tuple((f, faction_name(entries.get(f), f)) for f in ids)


def base_names(game_id: str | None) -> dict[str, str]:
    """Every name of a game's base rules (maps, cards, factions...) under its labels: the
    names a page about the game rather than one run shows."""
    if not game_id:
        return {}
    return {**entry_names(_base_rules(game_id)[1]), **game_labels(game_id)}


@functools.lru_cache(maxsize=32)
def _game_labels(game_id: str) -> tuple[tuple[str, str], ...]:
    try:
        from engine.core.registry import get_game
        labels = get_game(game_id).labels or {}
    except Exception:  # noqa: BLE001 - a game no longer registered: its ids are shown
        labels = {}
    named = dict(_faction_names(game_id))     # the factions of its base rules, by name
    named.update((str(k), str(v)) for k, v in dict(labels).items())
    return tuple(sorted(named.items()))


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
    return rename(frame, game_labels(game), columns)


def rename(frame: Any, labels: Mapping[str, str], columns: tuple[str, ...] = ID_COLUMNS) -> Any:
    """`frame` (polars) with the id columns it has mapped to `labels`' names."""
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

    from engine.core.names import entry_names as names_of
    try:
        doc = json.loads(rules_json or "{}")
    except ValueError:
        return ()
    return tuple(sorted(names_of(doc).items()))


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
