"""Actions "Move Worker 1 Tile away" (1 energy, or a free move from a movement crystal) and
what happens on arrival: a worker moves to a neighbouring space through an open side of its
tile; onto a placed tile only if that tile is open on the shared side too; onto an empty space
it discovers a tile (discovery.py).  Arriving on its own colony tile refills its oxygen
("Colony"); arriving on an anomaly tile draws an anomaly card (anomaly.py, `[anomaly]`).
"""

from __future__ import annotations

from . import cards as C
from .zone import BIT, OPP


def move_options(s, seat: int) -> list[tuple]:
    if not (s.free or s.available() >= s.cost(seat, C.MOVE_COST)):
        return []
    cell = s.pos[seat]
    m = s.mask[cell]
    row = s.st.zone.nbr[cell]
    mask = s.mask
    tile = s.tile
    out = []
    for d in range(4):
        if m & BIT[d]:
            nb = row[d]
            if nb >= 0 and (tile[nb] < 0 or mask[nb] & BIT[OPP[d]]):
                out.append(("move", d))
    return out


def move(s, seat: int, d: int) -> None:
    if s.free:
        s.free -= 1
        if s.once:                        # a movement crystal spent, back to the supply
            s.mcrys[seat] -= 1
            s.mcrys_supply += 1
    else:
        s.pay(s.cost(seat, C.MOVE_COST))
    frm = s.pos[seat]
    cell = s.st.zone.nbr[frm][d]
    s.pos[seat] = cell
    if s.tile[cell] < 0:
        from .discovery import discover
        discover(s, seat, cell, frm, OPP[d])
    else:
        arrive(s, seat, cell)


def arrive(s, seat: int, cell: int, discovered: bool = False) -> None:
    """A worker arrives on a placed tile (by a move, a discovery or a dash)."""
    if cell == s.home(seat) and s.rules.colony.refill:
        s.refill(seat)
    st = s.st
    if st.tile_kind[s.tile[cell]] == "anomaly" and (
            discovered or s.rules.anomaly.draw_on == "enter"):
        from .anomaly import draw_anomaly
        draw_anomaly(s, seat)
