"""The octagon layout: spaces, gaps (tunnel and trapezoid slots), entrances, coordinates.

Assumed geometry (RULES.md, "Geometry"): octagons sit on a grid of `columns` x `max_lines`;
octagon (col, line) has index `line * columns + col` and four terrain spaces N, E, S, W (space
id `4 * octagon + side`).  A layout puts an octagon on some grid positions: the first `lines`
lines of the grid in the base game, a drawn shape (`Layout.rows`) with Crooked Caverns.
Inside an octagon the spaces form a ring (N-E-S-W-N).  Octagons touch their neighbours on the
straight sides: E of (c, l) touches W of (c+1, l), S of (c, l) touches N of (c, l+1).  Between
four grid positions lies a square gap where a tunnel or trapezoid tile can be laid; each space
owns one diagonal edge (N the north-east one, E the south-east, S the south-west, W the
north-west), so each gap faces up to four spaces, one on each of its sides NW, NE, SE, SW
(fewer on the outer edge).  A tunnel tile connects the spaces its arms point at (its type and
rotation, `tunnels.toml`); a long tunnel lies on the outer edge along several edge gaps.
Entrances attach to one outer side of a starting octagon.  Cell ids: spaces first, then gaps,
then entrances; coordinates on a grid where an octagon's centre is (4c + 2, 4l + 2).
"""

from __future__ import annotations

from engine.core.cache import PerRulesCache
from engine.core.protocol import MapCell

MAP_ID = "octagons"          # the base game's map (Crooked Caverns: `rules.crooked_maps`)
N, E, S, W = 0, 1, 2, 3
SIDES = ("N", "E", "S", "W")
SIDE_INDEX = {"N": N, "E": E, "S": S, "W": W}
GAP_SIDES = ("NW", "NE", "SE", "SW")      # a gap's sides, clockwise


def layout_mask(columns: int, max_lines: int, layout) -> list[bool]:
    """Which grid positions hold an octagon in `layout` (`rows` drawn with '#', else the
    first `lines` full lines)."""
    mask = [False] * (columns * max_lines)
    if layout.rows:
        for l, row in enumerate(layout.rows):
            for c, ch in enumerate(row):
                if ch == "#":
                    mask[l * columns + c] = True
    else:
        for o in range(columns * min(layout.lines, max_lines)):
            mask[o] = True
    return mask


class Geometry:
    """Static adjacency for one layout (a set of octagon positions) inside its map's grid."""

    __slots__ = ("columns", "lines", "max_lines", "n_oct", "n_space", "gap_base", "n_gap",
                 "entrance_base", "entrances", "nb", "space_gap", "gap_faces", "gap_slots",
                 "xy", "kind", "octagon_ok", "n_cells", "edge_runs")

    def __init__(self, columns: int, lines: int, max_lines: int,
                 entrances: list[tuple[int, int, str]], present: list[bool] | None = None,
                 outer_edge: bool = True):
        self.columns, self.lines, self.max_lines = columns, lines, max_lines
        self.n_oct = columns * max_lines
        self.n_space = 4 * self.n_oct
        self.gap_base = self.n_space
        self.n_gap = (columns + 1) * (max_lines + 1)
        self.entrance_base = self.gap_base + self.n_gap
        self.entrances = list(entrances)           # (col, line, edge) by entrance index
        self.n_cells = self.entrance_base + len(self.entrances)
        if present is None:
            present = [o // columns < lines for o in range(self.n_oct)]
        self.octagon_ok = list(present)
        nb: list[list[int]] = [[] for _ in range(self.n_cells)]
        xy: list[tuple[int, int]] = [(0, 0)] * self.n_cells
        kind = [""] * self.n_cells
        ok = self.octagon_ok

        def oid(c, l):
            if 0 <= c < columns and 0 <= l < max_lines and ok[l * columns + c]:
                return l * columns + c
            return -1

        for o in range(self.n_oct):
            c, l = o % columns, o // columns
            cx, cy = 4 * c + 2, 4 * l + 2
            for d, (dx, dy) in enumerate(((0, -1), (1, 0), (0, 1), (-1, 0))):
                s = 4 * o + d
                xy[s] = (cx + dx, cy + dy)
                kind[s] = "space"
            if not ok[o]:
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
        # Gaps: corner (i, j) between octagons (i-1, j-1), (i, j-1), (i, j), (i-1, j); its
        # sides NW, NE, SE, SW face E of the first, S of the second, W of the third, N of the
        # fourth (-1 where no octagon lies).
        self.space_gap = [-1] * self.n_space
        self.gap_faces: list[tuple[int, ...]] = []
        self.gap_slots: list[tuple[int, int, int, int]] = []
        for j in range(max_lines + 1):
            for i in range(columns + 1):
                g = self.gap_base + j * (columns + 1) + i
                xy[g] = (4 * i, 4 * j)
                kind[g] = "gap"
                slots = []
                for (c, l, d) in ((i - 1, j - 1, E), (i, j - 1, S), (i, j, W), (i - 1, j, N)):
                    o = oid(c, l)
                    slots.append(4 * o + d if o >= 0 else -1)
                    if o >= 0:
                        self.space_gap[4 * o + d] = g
                self.gap_slots.append(tuple(slots))
                self.gap_faces.append(tuple(x for x in slots if x >= 0))
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
        # The outer edge (base layouts only): the non-corner gaps along each side of the
        # rectangle, in order, where long tunnels lie ("a platform for any tunnel & trapezoid
        # tiles").  Crooked Caverns has no outer edge.
        self.edge_runs: list[list[int]] = []
        if outer_edge:
            C, L = columns, lines
            gid = lambda i, j: self.gap_base + j * (C + 1) + i   # noqa: E731
            self.edge_runs = [[gid(i, 0) for i in range(1, C)], [gid(i, L) for i in range(1, C)],
                              [gid(0, j) for j in range(1, L)], [gid(C, j) for j in range(1, L)]]

    def faces(self, gap_cell: int) -> tuple[int, ...]:
        return self.gap_faces[gap_cell - self.gap_base]

    def slots(self, gap_cell: int) -> tuple[int, int, int, int]:
        """The spaces facing the gap's sides NW, NE, SE, SW (-1: no octagon there)."""
        return self.gap_slots[gap_cell - self.gap_base]

    def useful_gaps(self) -> list[int]:
        """Gaps facing at least two spaces (a tile there connects something)."""
        return [self.gap_base + i for i, f in enumerate(self.gap_faces) if len(f) >= 2]

    def entrance_cell(self, col: int, line: int, edge: str) -> int:
        return self.entrance_base + self.entrances.index((col, line, edge))

    def placements(self, arms: tuple[str, ...], span: int) -> list[tuple[int, int, tuple, tuple]]:
        """Where a tile of this shape can lie: (anchor gap, orientation, gaps covered, spaces
        connected), each distinct set of connected spaces once per anchor, at least two.
        A gap tile (`arms`: the gap sides it opens before rotation) turns a quarter at a time;
        a long tunnel (`span` > 1) covers `span` consecutive outer-edge gaps and connects every
        space facing them."""
        out = []
        if span > 1:
            for d, run in enumerate(self.edge_runs):
                for k in range(len(run) - span + 1):
                    gaps = tuple(run[k:k + span])
                    spaces = tuple(sorted({x for g in gaps for x in self.faces(g)}))
                    if len(spaces) >= 2:
                        out.append((gaps[0], d, gaps, spaces))
            return out
        idx = [GAP_SIDES.index(a) for a in arms]
        for g in self.useful_gaps():
            sl = self.slots(g)
            seen = set()
            for r in range(4):
                spaces = tuple(sorted({sl[(k + r) % 4] for k in idx} - {-1}))
                if len(spaces) >= 2 and spaces not in seen:
                    seen.add(spaces)
                    out.append((g, r, (g,), spaces))
        return out


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


def geometry(board_rules, lines: int, layout=None, outer_edge: bool = True) -> Geometry:
    """The geometry of `layout` of this board (a map), or of its first `lines` full lines
    when no layout is given.  `layout="all"`: every position any layout uses (for the map's
    cells)."""
    return _GEOMETRIES(board_rules, (lines, layout, outer_edge))   # layouts are frozen: hashable


def _build_geometry(board_rules, key) -> Geometry:
    lines, layout, outer_edge = key
    C, M = board_rules.columns, board_rules.max_lines
    if layout == "all":
        present = [o // C < lines for o in range(C * M)]
        for lay in board_rules.layouts.values():
            present = [a or b for a, b in zip(present, layout_mask(C, M, lay))]
    elif layout is not None:
        present = layout_mask(C, M, layout)
    else:
        present = None
    return Geometry(C, lines, M, all_entrances(board_rules), present, outer_edge)


_GEOMETRIES = PerRulesCache(_build_geometry, size=32)   # (board rules, key) -> Geometry


def rotated(spaces, r: int) -> tuple:
    """The terrain at each position N, E, S, W after `r` clockwise quarter turns."""
    return tuple(spaces[(d - r) % 4] for d in range(4))


def maps(rules) -> list[str]:
    """`octagons` (the base layout), or with Crooked Caverns the crooked layouts (each a map
    with fixed geometry, so map_cells stays keyed by map and cell)."""
    if rules.modules.crooked_caverns:
        return list(rules.crooked_maps)
    return [MAP_ID]


def map_cells(rules) -> list[MapCell]:
    """Every cell of every map the rules can play: for `octagons` all spaces, gaps and
    entrances of the largest layout; for a crooked map the spaces of every octagon any of its
    layouts uses, the gaps facing them and its entrances."""
    if not rules.modules.crooked_caverns:
        geo = geometry(rules.board, rules.board.max_lines)
        return [MapCell(MAP_ID, c, geo.xy[c][0], geo.xy[c][1], geo.kind[c])
                for c in range(geo.n_cells)]
    out = []
    for m in maps(rules):
        geo = geometry(rules.crooked_maps[m], 0, "all", outer_edge=False)
        for c in range(geo.n_cells):
            k = geo.kind[c]
            if (k == "space" and geo.octagon_ok[c >> 2]) or (k == "gap" and geo.faces(c)) \
                    or k == "entrance":
                out.append(MapCell(m, c, geo.xy[c][0], geo.xy[c][1], k))
    return out
