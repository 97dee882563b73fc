"""Rulebook "Oxygen" and "Dying": "If a Worker starts their turn with no Oxygen to spend, they
are considered dead. If the Worker had collected any Resources, place the Resources on the tile
the Worker died on. Move the Worker Piece back to the Colony and discard all Traits and
Equipment. Then go through the process of Recruiting a new Worker. After Recruiting, your turn
is over".

Death is logged as one forced decision, ("die",), on the cell where the worker died, so that
the move log (and the Map page) shows where workers die.  Discarded cards go to the bottom of
their decks face up (every seat knows them); the crystals go back to the supply.
"""

from __future__ import annotations

from . import cards as C
from .state import NC, apply, legal

ALL = 0b1111


@legal("die")
def die_options(s, frame):
    return [("die",)]


@apply("die")
def die(s, frame, a) -> None:
    seat = frame[1]
    kill(s, seat)
    s.then(("recruit", seat), ("end_turn", seat))


def kill(s, seat: int) -> None:
    cell = s.pos[seat]
    base = seat * NC
    for c in range(NC):
        k = s.carry[base + c]
        if k:
            s.cgem[cell * NC + c] += k
            s.carry[base + c] = 0
    s.past[seat] = s.past[seat] + s.traits[seat] + tuple((C.EQUIPMENT, e) for e in s.equip[seat])
    for kind, card in s.traits[seat]:
        s.bottom(kind, card, ALL)
    for card in s.equip[seat]:
        s.bottom(C.EQUIPMENT, card, ALL)
    s.traits[seat] = ()
    s.equip[seat] = ()
    s.eq_uses[seat] = ()
    s.eq_up[seat] = 0
    s.colony_oxy[seat] += s.oxy[seat]          # what was left (none, RB:143)
    s.oxy[seat] = 0
    s.ecrys_supply += s.ecrys[seat]
    s.mcrys_supply += s.mcrys[seat]
    s.ecrys[seat] = 0
    s.mcrys[seat] = 0
    s.alive[seat] = False
    s.pos[seat] = s.home(seat)
    s.refresh_mods(seat)
