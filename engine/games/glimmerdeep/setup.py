"""Game Setup (rulebook "Game Setup", Solo Variant "Setup"): the market board with its two
shuffled building decks, one shared map with the starting settlement excavated, a shuffled
16-card excavation deck per player, starting resources and each faction's own setup steps.

`static_for(rules, map_id)` holds what never changes during a game (board geometry, shapes,
cards, market extra costs), built once per (rules, map)."""

from __future__ import annotations

from engine.core.cache import PerRulesCache
from engine.core.setup_checks import check_factions, check_map, check_player_count
from engine.core.events import EventLog
from engine.core.protocol import Seat
from engine.core.rng import chance_rng

from .board import (Board, build_board, footprints, outpost_mask, rectangle_fit,
                    shape_placements)
from .factions import faction_play
from .round import GlimmerdeepState
from .state import GEM, GOLD, IRON, Player

PLAYER_COUNTS = (1, 2, 3, 4)

# The extra resource each market slot adds to a card's cost (Construction Phase).
EXTRA = {"iron": (1, 0, 0), "gold": (0, 1, 0), "gem": (0, 0, 1), "none": (0, 0, 0)}


class _Static:
    """What does not change during a game: board, shapes, cards, market costs."""

    __slots__ = ("rules", "board", "shapes", "cards", "extra", "footprint", "placements",
                 "categories", "fits", "outposts", "labels", "skip")

    def __init__(self, rules, map_id: str):
        self.rules = rules
        gmap = next(m for m in rules.maps if m.id == map_id)
        self.board: Board = build_board(gmap)
        self.shapes = {s.id: s for s in rules.shapes}
        self.cards = {"workshop": {c.id: c for c in rules.workshops},
                      "forge": {c.id: c for c in rules.forges}}
        self.extra = tuple(EXTRA[e] for e in rules.market.extra_costs)
        self.footprint = {"workshop": footprints(self.board, tuple(rules.game.workshop_footprint)),
                          "forge": footprints(self.board, tuple(rules.game.forge_footprint))}
        # "Can skip": a placement may pass over spaces that cannot be excavated (switchable).
        self.skip = rules.game.shapes_skip_unexcavatable
        self.placements = {sid: shape_placements(self.board, s, skip_blocked=self.skip)
                           for sid, s in self.shapes.items()}
        self.fits = {"workshop": rectangle_fit(self.board, tuple(rules.game.workshop_footprint)),
                     "forge": rectangle_fit(self.board, tuple(rules.game.forge_footprint))}
        self.outposts = outpost_mask(self.board)
        # "x,y" of each space, for the move log.
        self.labels = tuple(f"{x},{y}" for x, y in map(self.board.xy, range(len(self.board.kinds))))


static_for = PerRulesCache(_Static)  # (rules, map_id) -> _Static


def new_state(rules, seats, seed: int, map_id: str, log: bool = True) -> GlimmerdeepState:
    """A new game, set up and advanced to its first decision."""
    s = GlimmerdeepState()
    s.rules = rules
    s.static = static_for(rules, map_id)
    s.map_id = map_id
    s.n = len(seats)
    s.rng = chance_rng(seed)
    s.log = EventLog(enabled=log)
    s.round = 1
    s.step = 0
    s.phase = "setup"
    s.first_seat = 0
    s.start_seat = 0
    s.ended_by = None
    s.over = False
    s.stack: list[tuple] = []
    s.agenda: list[tuple] = []      # reversed: next task at the end
    s.passed: set[int] = set()
    s.hooks = [faction_play(rules, seat.faction) for seat in seats]
    board = s.static.board
    # Market board (setup steps 4 and 5): shuffled decks, slots filled.
    s.decks = {}
    s.market = {}
    for kind, cards in (("workshop", rules.workshops), ("forge", rules.forges)):
        deck = [c.id for c in cards]
        s.rng.shuffle(deck)
        s.decks[kind] = deck
        s.market[kind] = [None] * rules.market.slots
        for i in range(rules.market.slots - 1, -1, -1):
            s.market[kind][i] = deck.pop() if deck else None
    s.solo_deck = []
    if s.n == 1 and rules.solo_cards:
        s.solo_deck = [c.id for c in rules.solo_cards]
        s.rng.shuffle(s.solo_deck)
    # Players: map with the starting settlement excavated, a shuffled excavation deck.
    deck_cards = [sh.id for sh in rules.shapes for _ in range(sh.copies)]
    s.players = []
    for i, seat in enumerate(seats):
        p = Player(i, seat.faction)
        p.exc = board.settlement
        p.built = board.settlement
        deck = list(deck_cards)
        s.rng.shuffle(deck)
        p.deck = deck
        if s.n == 1:
            # Solo Variant: "There are no additional starting resources when playing solo."
            p.res = [rules.solo.start.iron, rules.solo.start.gold, rules.solo.start.gem]
        else:
            su = rules.factions[seat.faction].setup
            p.res[IRON] += su.iron
            p.res[GOLD] += su.gold
            p.res[GEM] += su.gem
        s.players.append(p)
    # "Players complete any setup steps that are specific to their faction."
    for i, p in enumerate(s.players):
        s.hooks[i].setup(s, p)
    s._start_round()
    s._advance()
    return s


# ====================================================================== choosing the table
def factions(rules) -> list[str]:
    return sorted(rules.factions)


def maps(rules) -> list[str]:
    return [m.id for m in rules.maps]


def check_setup(rules, n_players: int, map_id: str | None, faction_ids) -> None:
    """"Players collectively decide which map they want to play ... Each player chooses a
    faction": 1 to 4 players, a known map, one different faction each."""
    check_player_count(n_players, PLAYER_COUNTS, "Glimmerdeep")
    check_map(map_id, maps(rules))
    check_factions(faction_ids, factions(rules), "faction", " (one sheet each)")


def new_game(rules, seats, seed: int, *, map: str | None = None, log: bool = True):
    seats = [s if isinstance(s, Seat) else Seat(*s) for s in seats]
    map_id = map or rules.maps[0].id
    check_setup(rules, len(seats), map_id, [s.faction for s in seats])
    return new_state(rules, seats, seed, map_id, log=log)
