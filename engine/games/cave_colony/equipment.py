"""Action "Use Equipment" (1 energy, changed by use_cost), each card at most once a turn and,
with `charges`, at most that many times per worker.  The card is revealed when used (it was
kept face down).  What a card does (rules.py `Use`, equipment.toml):

    oxygen N        gain N oxygen, up to the maximum               ("use", slot)
    energy N        N more energy this turn                        ("use", slot)
    dash R mode     move to a placed tile within range R           ("use", slot, cell)
    magnet R mode   collect one gem from a tile within range R     ("use", slot, cell, colour)
    recall          back to the worker's own colony tile           ("use", slot)

Range modes are the rulebook's: "# Tiles Away" (walls), "within line of sight" (no turns),
"through Walls" (zone.py).  A dash is no discovery: it ends on a placed tile.
"""

from __future__ import annotations

from . import cards as C
from .state import NC
from .zone import in_range


def use_options(s, seat: int) -> list[tuple]:
    eq = s.equip[seat]
    if not eq or s.available() < s.cost(seat, C.USE_COST):
        return []
    t = s.st.cards
    out = []
    pos = s.pos[seat]
    for slot, card in enumerate(eq):
        use = t.equip_use[card]
        if use is None or s.eq_turn >> slot & 1:
            continue
        ch = t.equip_charges[card]
        if ch and s.eq_uses[seat][slot] >= ch:
            continue
        k = use.kind
        if k == "oxygen":
            if s.oxy[seat] < s.max_oxygen(seat) and s.oxy_supply > 0:
                out.append(("use", slot))
        elif k == "energy":
            out.append(("use", slot))
        elif k == "recall":
            if pos != s.home(seat):
                out.append(("use", slot))
        elif k == "dash":
            reach = in_range(s.st.zone, s.mask, pos, use.range, use.range_mode)
            out.extend(("use", slot, c) for c in sorted(reach) if c != pos and s.tile[c] >= 0)
        else:  # magnet
            reach = in_range(s.st.zone, s.mask, pos, use.range, use.range_mode)
            for c in sorted(reach):
                if c != pos:
                    base = c * NC
                    out.extend(("use", slot, c, g) for g in range(NC) if s.cgem[base + g])
    return out


def use(s, seat: int, a: tuple) -> None:
    from .gems import collect
    from .movement import arrive
    slot = a[1]
    card = s.equip[seat][slot]
    s.pay(s.cost(seat, C.USE_COST))
    s.eq_turn |= 1 << slot
    uses = list(s.eq_uses[seat])
    uses[slot] += 1
    s.eq_uses[seat] = tuple(uses)
    s.eq_up[seat] |= 1 << slot
    u = s.st.cards.equip_use[card]
    if u.kind == "oxygen":
        s.gain_oxygen(seat, u.amount)
    elif u.kind == "energy":
        s.energy += u.amount
    elif u.kind == "recall":
        s.pos[seat] = s.home(seat)
        arrive(s, seat, s.pos[seat])
    elif u.kind == "dash":
        s.pos[seat] = a[2]
        arrive(s, seat, a[2])
    else:
        collect(s, seat, a[3], cell=a[2])
