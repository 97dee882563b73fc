"""Rulebook "Recruiting a Worker" (a player's whole turn: its first, and after a death):

1. for each trait the worker requires (at least 1 positive and 1 negative): draw 2 face down,
   look at one, keep it or the unseen one face up, the other to the bottom of the deck;
2. draw two equipment cards, keep one face down, the other to the bottom;
3. oxygen up to the worker's maximum;
4. energy (silver) crystals for energy boosts; 5. movement (gold) crystals for movement boosts.

Decisions: ("trait", "seen" | "unseen") and ("equip", card).  The card looked at is the first
drawn (both lie face down, so which one is looked at is no choice).
"""

from __future__ import annotations

from . import cards as C
from .state import apply, legal, task


@task("recruit")
def recruit(s, t) -> None:
    seat = t[1]
    if s.phase != "setup":
        s.phase = "recruit"
    r = s.rules.recruit
    m = s.colony_mods[seat]
    steps = [("draw_trait", seat, C.POSITIVE)] * (r.positive_traits + m[C.POSITIVE_TRAITS])
    steps += [("draw_trait", seat, C.NEGATIVE)] * (r.negative_traits + m[C.NEGATIVE_TRAITS])
    if r.equipment_draw:
        steps.append(("draw_equipment", seat))
    steps.append(("recruited", seat))
    s.then(*steps)


@task("draw_trait")
def draw_trait(s, t) -> None:
    _, seat, kind = t
    drawn = [c for c in (s.draw(kind) for _ in range(s.rules.recruit.trait_draw)) if c >= 0]
    if len(drawn) == 1:
        keep_trait(s, seat, kind, drawn[0])
    elif len(drawn) == 2:
        s.stack.append(("trait_pick", seat, kind, drawn[0], drawn[1]))


def keep_trait(s, seat: int, kind: int, card: int) -> None:
    s.traits[seat] = s.traits[seat] + ((kind, card),)
    s.refresh_mods(seat)


@legal("trait_pick")
def trait_options(s, frame):
    return [("trait", "seen"), ("trait", "unseen")]


@apply("trait_pick")
def trait_pick(s, frame, a) -> None:
    _, seat, kind, seen, unseen = frame
    if a[1] == "seen":
        keep_trait(s, seat, kind, seen)
        s.bottom(kind, unseen, 0)                 # nobody has seen it
    else:
        keep_trait(s, seat, kind, unseen)
        s.bottom(kind, seen, 1 << seat)           # only the drawer looked at it


@task("draw_equipment")
def draw_equipment(s, t) -> None:
    seat = t[1]
    drawn = tuple(c for c in (s.draw(C.EQUIPMENT) for _ in range(s.rules.recruit.equipment_draw))
                  if c >= 0)
    if len(drawn) == 1:
        keep_equipment(s, seat, drawn[0])
    elif drawn:
        s.stack.append(("equip_pick", seat, drawn))


def keep_equipment(s, seat: int, card: int) -> None:
    s.equip[seat] = s.equip[seat] + (card,)
    s.eq_uses[seat] = s.eq_uses[seat] + (0,)
    s.refresh_mods(seat)


@legal("equip_pick")
def equip_options(s, frame):
    return [("equip", c) for c in dict.fromkeys(frame[2])]


@apply("equip_pick")
def equip_pick(s, frame, a) -> None:
    seat, drawn = frame[1], list(frame[2])
    drawn.remove(a[1])
    keep_equipment(s, seat, a[1])
    for c in drawn:
        s.bottom(C.EQUIPMENT, c, 1 << seat)


@task("recruited")
def recruited(s, t) -> None:
    """Steps 3-5: oxygen to the maximum, energy and movement crystals for the boosts."""
    seat = t[1]
    s.alive[seat] = True
    s.pos[seat] = s.home(seat)
    s.refill(seat)
    m = s.mods[seat]
    e = min(max(0, m[C.ENERGY]), s.ecrys_supply)
    s.ecrys[seat] = e
    s.ecrys_supply -= e
    k = min(max(0, m[C.MOVEMENT]), s.mcrys_supply)
    s.mcrys[seat] = k
    s.mcrys_supply -= k
