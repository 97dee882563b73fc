"""Rulebook "Setup": the colony tiles in a square at the centre of the Play Zone with the
workers on them, the card decks shuffled, the tiles shaken in the lid, the gems and crystals
in the supply, the first player by a die roll.  Nobody is recruited at setup (RB:41-51): each
player's first turn draws its colony card, then recruits its first worker, which takes the
whole turn (RB:73-75, turn.py)."""

from __future__ import annotations


from . import cards as C
from .state import NC, CaveState
from .static import MAP_ID, static_for


def new_state(rules, seats, seed: int, log: bool = True) -> CaveState:
    s = CaveState()
    st = static_for(rules, None)
    zone = st.zone
    n = len(seats)
    s.rules = rules
    s.st = st
    s.n = n
    s.map_id = MAP_ID
    s.start(seed, log)  # rng, log, round 1, setup, empty stack (FrameMachine)
    rng = s.rng
    s.once = rules.crystals.boosts == "once"
    # seats are colonies: a seat's faction is its colony colour
    s.colour = tuple(seat.faction for seat in seats)
    s.colony_cell = tuple(zone.colony_cell[c] for c in s.colour)
    # the zone: the colony tiles at the centre ("Separate the Colony Tiles ... in a square")
    s.tile = [-1] * zone.n_cells
    s.mask = [0] * zone.n_cells
    for colour, cell in zone.colony_cell.items():
        t = st.colony_tile[colour]
        s.tile[cell] = t
        s.mask[cell] = st.tile_masks[t][0]
    s.cgem = [0] * (zone.n_cells * NC)
    s.exempt = 0                      # cells placed outside the placement notes (bitmask)
    s.bag = list(st.tile_count)       # "shake them up": the bag is drawn at random
    # the supply ("Place the Gems in a location that is easy to grab from")
    sup = rules.supply
    s.gem_supply = [sup.gems_per_colour] * NC
    s.removed = [0] * NC
    s.oxy_supply = sup.oxygen
    s.ecrys_supply = sup.energy
    s.mcrys_supply = sup.movement
    s.colony_oxy = [0] * n
    # the workers on their colony tiles, not yet recruited
    s.alive = [False] * n
    s.pos = list(s.colony_cell)
    s.oxy = [0] * n
    s.carry = [0] * (n * NC)
    s.ecrys = [0] * n
    s.mcrys = [0] * n
    s.traits = [()] * n
    s.equip = [()] * n
    s.eq_uses = [()] * n
    s.eq_up = [0] * n
    s.colony_mods = [C.ZERO] * n
    s.mods = [C.ZERO] * n
    s.card = [-1] * n
    s.card_up = [False] * n
    s.oncard = [0] * (n * NC)
    s.done = [()] * n
    s.past = [()] * n                 # the cards of the seat's dead workers (discarded face up)
    s.finish = []
    s.last_roll = 0
    # the decks, shuffled; nobody knows any card's place
    s.deck = []
    s.known = []
    for name in C.DECKS:
        d = list(range(len(getattr(rules, name))))
        rng.shuffle(d)
        s.deck.append(d)
        s.known.append([0] * len(d))
    # the turn
    s.cur = -1
    s.energy = 0
    s.free = 0
    s.fought = 0
    s.eq_turn = 0
    s.actions = 0
    s.offered = ()
    # "Determine who is going first by rolling a die, highest number will be the player who
    # goes first" (re-rolling ties: every seat equally likely).  Play is clockwise: seat order.
    s.first_seat = rng.randrange(n)
    # Nobody is recruited at setup (RB:41-51): each player's first turn draws its colony card,
    # then, with no active worker, recruits, which "takes up a whole turn" (RB:73-75).
    s.then(("start_game",))
    s._advance()
    return s
