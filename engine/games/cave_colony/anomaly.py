"""Anomaly tiles and cards ("6 Anomaly Tiles", "36 Anomaly Cards": listed, never described).

Assumed: a worker arriving on an anomaly tile (when it discovers it, and with
`anomaly.draw_on = "enter"` every time it moves or dashes onto one) draws the top anomaly card,
which is face up, resolves it at once and puts it at the bottom of the deck.  Resolving is one
forced decision, ("anomaly", card), so the move log shows which card struck where; a conflict,
so no trade happens during it.  Effects (rules.py `Effect`), in this order: oxygen, energy,
gems placed, gems dropped, teleport, the event-die roll, the end of the turn.
"""

from __future__ import annotations

from . import cards as C
from .state import NC, apply, legal

ALL = 0b1111


def draw_anomaly(s, seat: int) -> None:
    card = s.draw(C.ANOMALY)
    if card >= 0:
        s.stack.append(("anomaly", seat, card))


@legal("anomaly")
def anomaly_options(s, frame):
    return [("anomaly", frame[2])]


@apply("anomaly")
def resolve_card(s, frame, a) -> None:
    seat, card = frame[1], frame[2]
    resolve(s, seat, s.st.cards.anomaly[card])
    s.bottom(C.ANOMALY, card, ALL)


def resolve(s, seat: int, e) -> None:
    rng = s.chance()
    cell = s.pos[seat]
    if e.oxygen > 0:
        s.gain_oxygen(seat, e.oxygen)
    elif e.oxygen < 0:
        k = min(-e.oxygen, s.oxy[seat])
        s.oxy[seat] -= k
        s.oxy_supply += k
    if e.energy and seat == s.cur:
        s.energy = max(0, s.energy + e.energy)
    if e.gems:
        if e.gem == "random":
            left = [c for c in range(NC) if s.gem_supply[c]]
            colour = left[rng.randrange(len(left))] if left else -1
        else:
            colour = ("white", "yellow", "green", "blue", "purple").index(e.gem)
        if colour >= 0:
            k = min(e.gems, s.gem_supply[colour])
            s.gem_supply[colour] -= k
            s.cgem[cell * NC + colour] += k
    for _ in range(e.lose_gems):
        base = seat * NC
        held = [s.carry[base + c] for c in range(NC)]
        if not any(held):
            break
        c = held.index(max(held))                 # the most carried colour drops first
        s.carry[base + c] -= 1
        s.cgem[cell * NC + c] += 1
    if e.teleport == "colony":
        s.pos[seat] = s.home(seat)
        if s.rules.colony.refill:
            s.refill(seat)
    elif e.teleport == "random_tile":
        placed = [c for c, t in enumerate(s.tile) if t >= 0 and c != cell]
        if placed:
            s.pos[seat] = placed[rng.randrange(len(placed))]
            if s.pos[seat] == s.home(seat) and s.rules.colony.refill:
                s.refill(seat)
    if e.roll is not None:
        r = s.roll(s.st.event_faces)
        resolve(s, seat, e.roll.success if r >= e.roll.at_least else e.roll.failure)
    if e.end_turn and seat == s.cur:
        s.stop_turn(seat)
