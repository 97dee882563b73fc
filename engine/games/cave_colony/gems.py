"""Actions "Collect Gem" and "Spend Gem" (rulebook "Collecting Gems": "When a Worker is on the
same tile as a Gem, they may collect that Gem at the cost of 1 Energy (this cost can be changed
by Traits) ... You can do this as many times on a turn as long as Energy permits it").

Spending puts one carried gem on the seat's colony card (colony_cards.py), 1 energy (changed by
spend_cost).  Where: anywhere, or with `colony.spend_at_colony` only on the worker's own colony
tile (the rulebook names no place; RULES.md).
"""

from __future__ import annotations

from . import cards as C
from .colony_cards import needs, place_gem
from .state import NC


def collect_options(s, seat: int) -> list[tuple]:
    if s.available() < s.cost(seat, C.COLLECT_COST):
        return []
    base = s.pos[seat] * NC
    return [("collect", c) for c in range(NC) if s.cgem[base + c]]


def collect(s, seat: int, colour: int, cell: int | None = None) -> None:
    cell = s.pos[seat] if cell is None else cell
    s.cgem[cell * NC + colour] -= 1
    s.carry[seat * NC + colour] += 1


def spend_options(s, seat: int) -> list[tuple]:
    if s.card[seat] < 0 or s.available() < s.cost(seat, C.SPEND_COST):
        return []
    if s.rules.colony.spend_at_colony and s.pos[seat] != s.home(seat):
        return []
    base = seat * NC
    return [("spend", c) for c in range(NC) if s.carry[base + c] and needs(s, seat, c)]


def spend(s, seat: int, colour: int) -> None:
    s.carry[seat * NC + colour] -= 1
    place_gem(s, seat, colour)
