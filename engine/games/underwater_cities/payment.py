"""Paying costs (rulebook "Costs", "Biomatter", "Upgrading Structures").

The usual cost is on the player info card (data: [costs]); a card that specifies a cost
replaces it, a discount lowers it ("never below free").  Only when building a tunnel, a
building or a city may biomatter pay for any kelp or steelplast of the cost, one for one: a
payment is then a choice, and every distinct way to pay is offered.
"""

from __future__ import annotations

from .state import BIOMATTER, CREDITS, KELP, SCIENCE, STEELPLAST
from .triggers import discounts, upgrade_prices

Vec = tuple[int, int, int, int, int]


def _minus(a, b) -> Vec:
    return tuple(max(0, x - y) for x, y in zip(a, b))


def build_cost(s, p, kind: str, part) -> Vec:
    base = part.cost.vec() if part is not None and part.cost is not None else s.st.cost[kind]
    if part is not None and any(part.discount.vec()):
        base = _minus(base, part.discount.vec())
    d = discounts(p, kind)
    return _minus(base, d) if d is not None else base


def build_payments(s, p, cost: Vec) -> list[Vec]:
    """Every distinct way to pay a build cost, biomatter standing in for kelp or steelplast
    (empty: cannot be paid)."""
    r = p.res
    if r[CREDITS] < cost[CREDITS] or r[SCIENCE] < cost[SCIENCE] or r[BIOMATTER] < cost[BIOMATTER]:
        return []
    kn, sn = cost[KELP], cost[STEELPLAST]
    spare = r[BIOMATTER] - cost[BIOMATTER]
    bio_for = s.st.bio_for
    kmax = min(kn, spare) if KELP in bio_for else 0
    out = []
    for x in range(kmax + 1):
        if r[KELP] < kn - x:
            continue
        smax = min(sn, spare - x) if STEELPLAST in bio_for else 0
        for y in range(smax + 1):
            if r[STEELPLAST] < sn - y:
                continue
            out.append((cost[CREDITS], kn - x, sn - y, cost[SCIENCE], cost[BIOMATTER] + x + y))
    return out


def can_build_pay(s, p, cost: Vec) -> bool:
    r = p.res
    if r[CREDITS] < cost[CREDITS] or r[SCIENCE] < cost[SCIENCE] or r[BIOMATTER] < cost[BIOMATTER]:
        return False
    spare = r[BIOMATTER] - cost[BIOMATTER]
    bio_for = s.st.bio_for
    short = 0
    for i in (KELP, STEELPLAST):
        miss = cost[i] - r[i]
        if miss > 0:
            if i not in bio_for:
                return False
            short += miss
    return short <= spare


def upgrade_payments(s, p, kind: str, part) -> list[Vec]:
    """The affordable prices of one upgrade: the card's cost or the usual one (minus the
    card's discount), and the alternatives the seat's permanent cards offer."""
    if part is not None and part.cost is not None:
        prices = [part.cost.vec()]
    else:
        base = s.st.upgrade_cost
        if part is not None and any(part.discount.vec()):
            base = _minus(base, part.discount.vec())
        prices = [base] + upgrade_prices(p, kind)
    out = []
    for v in prices:
        if v not in out and affordable(p, v):
            out.append(v)
    return out


def affordable(p, v) -> bool:
    r = p.res
    return r[0] >= v[0] and r[1] >= v[1] and r[2] >= v[2] and r[3] >= v[3] and r[4] >= v[4]


def pay(p, v) -> None:
    r = p.res
    for i in range(5):
        r[i] -= v[i]
