"""The octagon layout: spaces, gaps (tunnel and trapezoid slots), entrances, coordinates.

Assumed geometry (RULES.md, "Geometry"): octagons sit in lines of `columns`; octagon (col,
line) has index `line * columns + col` and four terrain spaces N, E, S, W (space id
`4 * octagon + side`).  Inside an octagon the spaces form a ring (N-E-S-W-N).  Octagons touch
their neighbours on the straight sides: E of (c, l) touches W of (c+1, l), S of (c, l) touches
N of (c, l+1).  Between four octagons lies a square gap where a tunnel or trapezoid tile can be
laid; each space owns one diagonal edge (N the north-east one, E the south-east, S the
south-west, W the north-west), so each gap faces up to four spaces (fewer on the outer edge)
and a tile laid there connects all of them.  Entrances attach to one outer side of a starting
octagon.  Cell ids: spaces first, then gaps, then entrances; coordinates on a grid where an
octagon's centre is (4c + 2, 4l + 2).
"""

from __future__ import annotations

N, E, S, W = 0, 1, 2, 3
SIDES = ("N", "E", "S", "W")
SIDE_INDEX = {"N": N, "E": E, "S": S, "W": W}


class Geometry:
    """Static adjacency for one (columns, lines) layout inside a `max_lines` map."""

    __slots__ = ("columns", "lines", "max_lines", "n_oct", "n_space", "gap_base", "n_gap",
                 "entrance_base", "entrances", "nb", "space_gap", "gap_faces", "xy", "kind",
                 "octagon_ok", "n_cells")

    def __init__(self, columns: int, lines: int, max_lines: int, entrances: list[tuple[int, int, str]]):
        self.columns, self.lines, self.max_lines = columns, lines, max_lines
        self.n_oct = columns * max_lines
        self.n_space = 4 * self.n_oct
        self.gap_base = self.n_space
        self.n_gap = (columns + 1) * (max_lines + 1)
        self.entrance_base = self.gap_base + self.n_gap
        self.entrances = list(entrances)           # (col, line, edge) by entrance index
        self.n_cells = self.entrance_base + len(self.entrances)
        self.octagon_ok = [o // columns < lines for o in range(self.n_oct)]
        nb: list[list[int]] = [[] for _ in range(self.n_cells)]
        xy: list[tuple[int, int]] = [(0, 0)] * self.n_cells
        kind = [""] * self.n_cells

        def oid(c, l):
            return l * columns + c if 0 <= c < columns and 0 <= l < lines else -1

        for o in range(self.n_oct):
            c, l = o % columns, o // columns
            cx, cy = 4 * c + 2, 4 * l + 2
            for d, (dx, dy) in enumerate(((0, -1), (1, 0), (0, 1), (-1, 0))):
                s = 4 * o + d
                xy[s] = (cx + dx, cy + dy)
                kind[s] = "space"
            if not self.octagon_ok[o]:
                continue
            for d in range(4):
                s = 4 * o + d
                nb[s].append(4 * o + (d + 1) % 4)
                nb[s].append(4 * o + (d + 3) % 4)
            e = oid(c + 1, l)
            if e >= 0:
                nb[4 * o + E].append(4 * e + W)
                nb[4 * e + W].append(4 * o + E)
            s2 = oid(c, l + 1)
            if s2 >= 0:
                nb[4 * o + S].append(4 * s2 + N)
                nb[4 * s2 + N].append(4 * o + S)
        # Gaps: corner (i, j) between octagons (i-1, j-1), (i, j-1), (i, j), (i-1, j).
        self.space_gap = [-1] * self.n_space
        self.gap_faces: list[tuple[int, ...]] = []
        for j in range(max_lines + 1):
            for i in range(columns + 1):
                g = self.gap_base + j * (columns + 1) + i
                xy[g] = (4 * i, 4 * j)
                kind[g] = "gap"
                faces = []
                for (c, l, d) in ((i - 1, j - 1, E), (i, j - 1, S), (i, j, W), (i - 1, j, N)):
                    o = oid(c, l)
                    if o >= 0:
                        faces.append(4 * o + d)
                        self.space_gap[4 * o + d] = g
                self.gap_faces.append(tuple(faces))
        for k, (c, l, edge) in enumerate(self.entrances):
            cell = self.entrance_base + k
            cx, cy = 4 * c + 2, 4 * l + 2
            dx, dy = {"N": (0, -2), "E": (2, 0), "S": (0, 2), "W": (-2, 0)}[edge]
            xy[cell] = (cx + dx, cy + dy)
            kind[cell] = "entrance"
            o = oid(c, l)
            if o >= 0:
                s = 4 * o + SIDE_INDEX[edge]
                nb[cell].append(s)
                nb[s].append(cell)
        self.nb = [tuple(x) for x in nb]
        self.xy = xy
        self.kind = kind

    def faces(self, gap_cell: int) -> tuple[int, ...]:
        return self.gap_faces[gap_cell - self.gap_base]

    def useful_gaps(self) -> list[int]:
        """Gaps facing at least two spaces (a tile there connects something)."""
        return [self.gap_base + i for i, f in enumerate(self.gap_faces) if len(f) >= 2]

    def entrance_cell(self, col: int, line: int, edge: str) -> int:
        return self.entrance_base + self.entrances.index((col, line, edge))


def all_entrances(board_rules) -> list[tuple[int, int, str]]:
    """Every (col, line, edge) a start slot of any layout uses, in a stable order."""
    out: list[tuple[int, int, str]] = []
    for key in sorted(board_rules.layouts):
        for group in board_rules.layouts[key].slot_sets:
            for sl in group:
                t = (sl.col, sl.line, sl.edge)
                if t not in out:
                    out.append(t)
    return out


_CACHE: dict = {}


def geometry(board_rules, lines: int) -> Geometry:
    key = (id(board_rules), lines)
    hit = _CACHE.get(key)
    if hit is None or hit[0] is not board_rules:
        if len(_CACHE) > 32:
            _CACHE.clear()
        hit = _CACHE[key] = (board_rules, Geometry(board_rules.columns, lines, board_rules.max_lines,
                                                   all_entrances(board_rules)))
    return hit[1]


def rotated(spaces, r: int) -> tuple:
    """The terrain at each position N, E, S, W after `r` clockwise quarter turns."""
    return tuple(spaces[(d - r) % 4] for d in range(4))
