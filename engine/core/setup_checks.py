"""The setup checks every game shares (`Game.check_setup`): the player count, the map and one
different faction per seat, with errors that name the CLI option and what was expected."""

from __future__ import annotations

from typing import Iterable, Sequence

from .errors import SetupError


def check_player_count(n_players: int, counts: Sequence[int], who: str, note: str = "") -> None:
    """`who` seats min(counts) to max(counts) players."""
    if n_players not in counts:
        raise SetupError(f"--players {n_players}: {who} seats {min(counts)} to {max(counts)} "
                         f"players{note}")


def check_map(map_id: str | None, known: Sequence[str]) -> None:
    """None (the game's default map) or one of `known`."""
    if map_id is not None and map_id not in known:
        expected = f"one of {', '.join(known)}" if len(known) != 1 else known[0]
        raise SetupError(f"--map {map_id}: unknown map; expected {expected}")


def check_factions(faction_ids: Iterable[str] | None, known: Sequence[str], noun: str,
                   different: str = "") -> None:
    """Every id in `known` (the game calls a faction a `noun`), and a different one per seat."""
    if faction_ids is None:
        return
    faction_ids = list(faction_ids)
    for f in faction_ids:
        if f not in known:
            raise SetupError(f"--factions: unknown {noun} '{f}'; expected one of "
                             f"{', '.join(known)}")
    if len(faction_ids) != len(set(faction_ids)):
        raise SetupError(f"--factions: each player needs a different {noun}{different}")
