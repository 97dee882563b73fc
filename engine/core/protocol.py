"""The game protocol every game implements (see DESIGN.md, "The engine").

A game module registers one `Game` object.  Its states follow `GameState`.  Actions are small,
hashable values (tuples); compound turns are split into sequences of small decisions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, Sequence, runtime_checkable


@dataclass(frozen=True)
class Seat:
    faction: str
    bot: str = "random"


@dataclass
class SeatResult:
    seat: int
    score: int
    breakdown: dict[str, int]
    rank: int
    won: bool
    tiebreak: tuple = ()


@dataclass
class MapCell:
    map: str
    cell: int
    x: int
    y: int
    kind: str


@runtime_checkable
class GameState(Protocol):
    round: int
    step: int
    phase: str

    def to_move(self) -> int: ...
    def legal_actions(self) -> list: ...
    def apply(self, action) -> None: ...
    def is_over(self) -> bool: ...
    def result(self) -> list[SeatResult]: ...
    def clone(self) -> "GameState": ...
    def describe(self, action) -> tuple[str, str, int | None]: ...


@dataclass
class Game:
    """A registered game: identity, rules model and the hooks the pipeline and bots use."""

    id: str
    title: str
    player_counts: tuple[int, ...]
    score_categories: tuple[str, ...]
    rules_model: type
    new_game: Any                       # (rules, seats, seed, *, map=None, log=True) -> state
    observe: Any                        # (state, seat) -> state-like view for that seat
    factions: Any                       # (rules) -> list[str]
    maps: Any                           # (rules) -> list[str]
    map_cells: Any                      # (rules) -> list[MapCell]
    check_setup: Any                    # (rules, n_players, map, factions) -> None or SetupError
    evaluate: Any                       # heuristic: (state, seat) -> float
    action_values: Any = None           # optional fast path: (state, seat, actions) -> list[float]
    max_rounds: Any = None              # (rules) -> int
    invariants: Any = None              # (state) -> list[str] of violated invariants
    # optional: (state) -> list of (cell, seat or None, label): what lies on each occupied map
    # cell (map_cells ids), its owner (None: neutral) and a short label; a game whose players
    # each have a sheet of their own lists a cell once per seat (the Replay page draws the board)
    board_view: Any = None
    # optional, for search bots (engine/bots): (observation, seat, rng) -> a full state
    # consistent with everything `seat` has seen: `observe(state, seat)` gives the seat's view
    # with what it cannot see in a canonical arrangement (sorted decks, pooled hidden hands);
    # `determinize` redistributes exactly those hidden parts at random with `rng` (a
    # random.Random), never reading the real state.  None: the game has no hidden information
    # and chance is only in the future, so the observation itself is a consistent state.
    determinize: Any = None
    # optional: {id: display name} for the score categories, actions and phases the game logs
    # (the database keeps the ids; pages, charts and the report show these names)
    labels: Any = None
    extra: dict = field(default_factory=dict)

    def load_rules(self, variants: Sequence = (), sets: Sequence[str] = ()):
        from .rules import load_rules
        return load_rules(self.id, self.rules_model, variants=variants, sets=sets)
