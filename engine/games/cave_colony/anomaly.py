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


# -- what a draw is worth (the design checks' "paying hazard") ---------------------------------------

def effect_value(e, faces: tuple[int, ...]) -> dict[str, float]:
    """The expected change one card `e` makes to the worker that draws it, per resource:
    oxygen (nominal, before the maximum and 0 bound it), energy this turn, gems (placed on the
    worker's tile from the supply, less carried gems dropped there), and `end_turn` (the chance
    that the card ends the turn).  An Event Die roll weighs its two branches by the faces."""
    out = {"oxygen": float(e.oxygen), "energy": float(e.energy),
           "gems": float(e.gems - e.lose_gems), "end_turn": 1.0 if e.end_turn else 0.0}
    if e.roll is not None:
        p = sum(f >= e.roll.at_least for f in faces) / len(faces)
        win, lose = effect_value(e.roll.success, faces), effect_value(e.roll.failure, faces)
        for k in out:
            out[k] += p * win[k] + (1 - p) * lose[k]
        out["end_turn"] = min(out["end_turn"], 1.0)
    return out


def chance_values(doc: dict) -> dict[str, dict[str, float]]:
    """Per anomaly card id, `effect_value` (Game.extra["chance_values"]), from a run's rules
    document (the JSON a run stores: read card by card, so a run stored under older rules is
    still read)."""
    from .rules import Effect
    faces = tuple(doc["dice"]["event"])
    return {str(c["id"]): effect_value(Effect.model_validate(c.get("effect", {})), faces)
            for c in doc.get("anomaly_cards", [])}
