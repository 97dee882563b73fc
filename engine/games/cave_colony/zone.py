"""The Play Zone and the ranges (rulebook: setup "Play Zone", common terms "# Tiles Away",
"within line of sight", "through Walls", "Inner Ring", "Outer Ring").

The zone is a square grid of `size` x `size` tile spaces (cell = y * size + x); the four
colony tiles take the 2x2 square at its centre.  A cell's ring is its distance, in tiles, from
that square (Chebyshev): ring 1 is the Inner Ring ("The Tile Spaces surrounding the Colony
Tiles"), the largest ring the Outer Ring ("4 Tiles away from the Colonies" on a 10 x 10 zone).

A tile's walls are a 4-bit mask of its open sides (N = 1, E = 2, S = 4, W = 8); turning a
tile clockwise by one side rotates the mask.  Two neighbouring tiles connect when both are
open on their shared side.  An empty space has mask 0.
"""

from __future__ import annotations

N, E, S, W = 0, 1, 2, 3
SIDES = "NESW"
BIT = (1, 2, 4, 8)
OPP = (2, 3, 0, 1)
DX = (0, 1, 0, -1)
DY = (-1, 0, 1, 0)
CORNERS = {"NW": (-1, -1), "NE": (0, -1), "SE": (0, 0), "SW": (-1, 0)}


def mask_of(openings: str) -> int:
    m = 0
    for ch in openings:
        m |= BIT[SIDES.index(ch)]
    return m


def rotate(mask: int, r: int) -> int:
    """`mask` turned clockwise by `r` sides (N -> E -> S -> W)."""
    r %= 4
    return ((mask << r) | (mask >> (4 - r))) & 15


def rotations(mask: int) -> tuple[int, ...]:
    """The distinct masks a tile can show, in rotation order."""
    out: list[int] = []
    for r in range(4):
        m = rotate(mask, r)
        if m not in out:
            out.append(m)
    return tuple(out)


def sides_text(mask: int) -> str:
    return "".join(ch for d, ch in enumerate(SIDES) if mask & BIT[d]) or "-"


class Zone:
    """The geometry of one play-zone size (does not change during a game)."""

    __slots__ = ("size", "n_cells", "xy", "ring", "nbr", "outer", "colony_cell", "ring_sides",
                 "inner", "half")

    def __init__(self, size: int, corners: dict[str, str]):
        self.size = size
        self.n_cells = size * size
        self.half = h = size // 2
        self.xy = tuple((c % size, c // size) for c in range(self.n_cells))
        rings = []
        for x, y in self.xy:
            dx = max(h - 1 - x, 0, x - h)
            dy = max(h - 1 - y, 0, y - h)
            rings.append(max(dx, dy))
        self.ring = tuple(rings)
        self.outer = h - 1
        nbr = []
        for x, y in self.xy:
            row = []
            for d in range(4):
                nx, ny = x + DX[d], y + DY[d]
                row.append(ny * size + nx if 0 <= nx < size and 0 <= ny < size else -1)
            nbr.append(tuple(row))
        self.nbr = tuple(nbr)
        # colony colour -> its cell in the central square
        self.colony_cell = {}
        for colour, corner in corners.items():
            ox, oy = CORNERS[corner]
            self.colony_cell[colour] = (h + oy) * size + (h + ox)
        # Inner Ring: the sides facing the two neighbouring Inner Ring spaces (the circular path)
        sides = [0] * self.n_cells
        for c in range(self.n_cells):
            if self.ring[c] == 1:
                for d in range(4):
                    nb = self.nbr[c][d]
                    if nb >= 0 and self.ring[nb] == 1:
                        sides[c] |= BIT[d]
        self.ring_sides = tuple(sides)
        self.inner = tuple(c for c in range(self.n_cells) if self.ring[c] == 1)

    def manhattan(self, a: int, b: int) -> int:
        (ax, ay), (bx, by) = self.xy[a], self.xy[b]
        return abs(ax - bx) + abs(ay - by)


# ---------------------------------------------------------------- ranges

def connected(mask: list[int], nbr, cell: int, d: int) -> int:
    """The neighbour of `cell` on side `d` when both tiles are open there, else -1."""
    if not mask[cell] & BIT[d]:
        return -1
    nb = nbr[cell][d]
    if nb < 0 or not mask[nb] & BIT[OPP[d]]:
        return -1
    return nb


def within_walls(mask: list[int], nbr, start: int, n: int) -> dict[int, int]:
    """"# Tiles Away": every placed tile at most `n` steps from `start` along connected
    sides (walls block), with its distance."""
    dist = {start: 0}
    frontier = [start]
    for k in range(1, n + 1):
        nxt = []
        for c in frontier:
            m = mask[c]
            row = nbr[c]
            for d in range(4):
                if m & BIT[d]:
                    nb = row[d]
                    if nb >= 0 and nb not in dist and mask[nb] & BIT[OPP[d]]:
                        dist[nb] = k
                        nxt.append(nb)
        if not nxt:
            break
        frontier = nxt
    return dist


def within_sight(mask: list[int], nbr, start: int, n: int) -> dict[int, int]:
    """"# Tiles Away within line of sight": along connected sides without taking any turns."""
    dist = {start: 0}
    for d in range(4):
        c = start
        for k in range(1, n + 1):
            c = connected(mask, nbr, c, d)
            if c < 0:
                break
            dist.setdefault(c, k)
    return dist


def through_walls(zone: Zone, start: int, n: int) -> dict[int, int]:
    """"# Tiles Away through Walls": grid steps ignoring walls (placed or not)."""
    sx, sy = zone.xy[start]
    out = {}
    size = zone.size
    for y in range(max(0, sy - n), min(size, sy + n + 1)):
        r = n - abs(y - sy)
        for x in range(max(0, sx - r), min(size, sx + r + 1)):
            out[y * size + x] = abs(x - sx) + abs(y - sy)
    return out


def in_range(zone: Zone, mask: list[int], start: int, n: int, mode: str) -> dict[int, int]:
    if mode == "walls":
        return within_walls(mask, zone.nbr, start, n)
    if mode == "line_of_sight":
        return within_sight(mask, zone.nbr, start, n)
    return through_walls(zone, start, n)
