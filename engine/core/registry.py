"""Games register by id in one registry."""

from __future__ import annotations

import importlib

from .errors import UnknownGame
from .protocol import Game

_GAMES: dict[str, Game] = {}
_BUILTIN = ("engine.games.glimmerdeep", "engine.games.underhaven", "engine.games.underwater_cities",
            "engine.games.cave_colony")


def register(game: Game) -> Game:
    _GAMES[game.id] = game
    return game


def _load_builtins() -> None:
    for mod in _BUILTIN:
        importlib.import_module(mod)


def all_games() -> dict[str, Game]:
    _load_builtins()
    return dict(_GAMES)


def builtin_games() -> dict[str, Game]:
    """The games Delve ships (engine.games.*), without games a test or plug-in registered."""
    return {gid: g for gid, g in all_games().items()
            if getattr(g.new_game, "__module__", "").startswith("engine.games.")}


def registered_elsewhere() -> dict[str, Game]:
    """The games registered so far that Delve does not ship (a plug-in's, a test's), without
    importing the built-in games."""
    return {gid: g for gid, g in _GAMES.items()
            if not getattr(g.new_game, "__module__", "").startswith("engine.games.")}


def get_game(game_id: str) -> Game:
    games = all_games()
    if game_id not in games:
        raise UnknownGame(f"Unknown game '{game_id}': expected one of {', '.join(sorted(games))}")
    return games[game_id]
