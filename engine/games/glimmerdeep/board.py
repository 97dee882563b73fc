"""Map geometry as bitmasks, precomputed once per (rules, map): spaces, side adjacency,
shape placements and building footprints.  Cell index = y * width + x."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from engine.core.cache import PerRulesCache

from .rules import MAP_LEGEND, GameMap, Shape


def bits(mask: int):
    """Indices of the set bits, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def popcount(mask: int) -> int:
    return mask.bit_count()


def orientations(cells) -> list[tuple[tuple[int, int], ...]]:
    """All distinct rotations and reflections of a shape, normalised to the origin."""
    out = set()
    pts = list(cells)
    for flip in (False, True):
        cur = [(-x, y) if flip else (x, y) for x, y in pts]
        for _ in range(4):
            cur = [(-y, x) for x, y in cur]
            mx, my = min(x for x, _ in cur), min(y for _, y in cur)
            out.add(tuple(sorted((x - mx, y - my) for x, y in cur)))
    return sorted(out)


def _connected_subsets(cells: tuple[tuple[int, int], ...]) -> list[tuple[tuple[int, int], ...]]:
    n = len(cells)
    out = []
    for m in range(1, 1 << n):
        sub = [cells[i] for i in range(n) if m >> i & 1]
        seen = {sub[0]}
        todo = [sub[0]]
        s = set(sub)
        while todo:
            x, y = todo.pop()
            for nb in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if nb in s and nb not in seen:
                    seen.add(nb)
                    todo.append(nb)
        if len(seen) == len(sub):
            out.append(tuple(sub))
    return out


@dataclass(frozen=True)
class Board:
    map_id: str
    width: int
    height: int
    kinds: tuple[str, ...]          # per cell, MAP_LEGEND names
    full: int
    iron: int
    gold: int
    gem: int
    dirt: int                       # dirt, forest, peak and settlement spaces
    forest: int
    blocked: int                    # cannot be excavated (bioluminescent, outposts, rock)
    biolum: int
    settlement: int
    peak: int
    outposts: tuple[int, ...]       # cell index of each outpost, in reading order
    not_left: int                   # cells not in column 0
    not_right: int                  # cells not in the last column

    def cell(self, x: int, y: int) -> int:
        return y * self.width + x

    def xy(self, cell: int) -> tuple[int, int]:
        return cell % self.width, cell // self.width

    def grow(self, mask: int) -> int:
        """Mask plus its side neighbours."""
        w = self.width
        return (mask | ((mask & self.not_right) << 1) | ((mask & self.not_left) >> 1)
                | (mask << w) | (mask >> w)) & self.full

    def neighbours(self, mask: int) -> int:
        return self.grow(mask) & ~mask

    def kind_mask(self, kind: str) -> int:
        return {"iron": self.iron, "gold": self.gold, "gem": self.gem, "dirt": self.dirt,
                "any": self.full & ~self.blocked}[kind]

    def resource_of(self, cell: int) -> str | None:
        b = 1 << cell
        if self.iron & b:
            return "iron"
        if self.gold & b:
            return "gold"
        if self.gem & b:
            return "gem"
        return None


def build_board(gmap: GameMap) -> Board:
    rows = gmap.rows
    h, w = len(rows), len(rows[0])
    kinds = []
    masks = {k: 0 for k in MAP_LEGEND.values()}
    outposts = []
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            kind = MAP_LEGEND[ch]
            kinds.append(kind)
            masks[kind] |= 1 << (y * w + x)
            if kind == "outpost":
                outposts.append(y * w + x)
    full = (1 << (w * h)) - 1
    col0 = sum(1 << (y * w) for y in range(h))
    col_last = sum(1 << (y * w + w - 1) for y in range(h))
    return Board(
        map_id=gmap.id, width=w, height=h, kinds=tuple(kinds), full=full,
        iron=masks["iron"], gold=masks["gold"], gem=masks["gem"],
        dirt=masks["dirt"] | masks["forest"] | masks["peak"] | masks["settlement"],
        forest=masks["forest"], blocked=masks["bioluminescent"] | masks["outpost"] | masks["rock"],
        biolum=masks["bioluminescent"], settlement=masks["settlement"], peak=masks["peak"],
        outposts=tuple(outposts), not_left=full & ~col0, not_right=full & ~col_last,
    )


def _stamp(board: Board, pts, dx: int, dy: int) -> int | None:
    m = 0
    for x, y in pts:
        x += dx
        y += dy
        if not (0 <= x < board.width and 0 <= y < board.height):
            return None
        m |= 1 << (y * board.width + x)
    return m


def shape_placements(board: Board, shape: Shape, partial: bool = True,
                     skip_blocked: bool = True) -> tuple[int, ...]:
    """Every distinct set of spaces an excavation card of this shape can mark: all rotations
    and flips at every position, and (since "you do not have to excavate the entire shape")
    every connected part of it.

    With `skip_blocked` a placement may lie over spaces that can never be excavated
    (bioluminescent, outposts), which it skips as it may pass over excavated ones: its set is
    the placement without them.  Without it, placements touching such a space are dropped."""
    return placements_of(board, shape.cells, partial, skip_blocked)


@lru_cache(maxsize=256)
def placements_of(board: Board, cells, partial: bool = True,
                  skip_blocked: bool = True) -> tuple[int, ...]:
    """`shape_placements` for a shape given by its cells."""
    found = set()
    for orient in orientations(cells):
        subs = _connected_subsets(orient) if partial else [orient]
        for sub in subs:
            for dy in range(-board.height, board.height):
                for dx in range(-board.width, board.width):
                    m = _stamp(board, sub, dx, dy)
                    if m is None:
                        continue
                    if skip_blocked:
                        m &= ~board.blocked
                        if m:
                            found.add(m)
                    elif not m & board.blocked:
                        found.add(m)
    return tuple(sorted(found))


class MaskTable:
    """A tuple of masks (a shape's placements) as numpy columns, so that one call tests them
    all (one numpy operation per 64 spaces instead of one Python operation per mask).

    `words[k][i]` holds bits 64k..64k+63 of mask i; `touching(mask)` says, for every mask in
    order, whether it shares a space with `mask`.  `objects` are the masks themselves (Python
    ints) for picking the ones a test selects, in order.  `last` is free for the one caller
    that scans the table to remember its last (inputs, answer), `groups` for the excavation's
    anchors (excavation.dig_groups) likewise; `containing(cell)` lists the masks holding a
    space (built on first use)."""

    __slots__ = ("masks", "objects", "words", "last", "groups", "by_cell")

    def __init__(self, masks: tuple[int, ...]):
        self.masks = masks
        self.objects = np.empty(len(masks), dtype=object)
        self.objects[:] = masks
        n_words = max(1, (max(masks, default=0).bit_length() + 63) // 64)
        self.words = [np.array([(m >> 64 * k) & _WORD for m in masks], dtype=np.uint64)
                      for k in range(n_words)]
        self.last = (None, None)
        self.groups = (None, None)
        self.by_cell = None

    def containing(self, cell: int) -> tuple[int, ...]:
        """The masks that hold space `cell`, in table order."""
        by_cell = self.by_cell
        if by_cell is None:
            lists: dict[int, list[int]] = {}
            for m in self.masks:
                for c in bits(m):
                    lists.setdefault(c, []).append(m)
            by_cell = self.by_cell = {c: tuple(v) for c, v in lists.items()}
        return by_cell.get(cell, ())

    def touching(self, mask: int) -> np.ndarray:
        """Which masks share a space with `mask` (bits beyond the masks' words cannot, so they
        are dropped; a negative `mask` means its two's complement, e.g. `~excavated`)."""
        hit = self.words[0] & np.uint64(mask & _WORD)
        for k in range(1, len(self.words)):
            hit |= self.words[k] & np.uint64((mask >> 64 * k) & _WORD)
        return hit != 0

    def first_gains(self, target: int, keep: int, avoid: int = 0) -> np.ndarray:
        """The positions (ascending) of the first mask of each distinct gain `mask & keep`,
        among the masks that share a space with `target` and none with `avoid`: the plain

            seen = {}
            for i, m in enumerate(masks):
                if m & target and not m & avoid:
                    seen.setdefault(m & keep, i)
            sorted(seen.values())

        done on the numpy columns (a gain is compared word by word; a stable sort keeps the
        first position of each equal gain).  A gain may be 0 only if `target` has a space
        outside `keep`."""
        words = self.words
        hit = words[0] & np.uint64(target & _WORD)
        for k in range(1, len(words)):
            hit |= words[k] & np.uint64((target >> 64 * k) & _WORD)
        if avoid:
            hit[self.touching(avoid)] = 0
        idx = hit.nonzero()[0]
        if len(idx) < 2:
            return idx
        gains = [words[k][idx] & np.uint64((keep >> 64 * k) & _WORD) for k in range(len(words))]
        if len(gains) == 1:
            _, first = np.unique(gains[0], return_index=True)   # stable: the first of each
        else:
            order = np.lexsort(gains[::-1])          # stable, by every word
            new = np.empty(len(order), dtype=bool)
            new[0] = True
            for k, g in enumerate(gains):
                g = g[order]
                if k == 0:
                    np.not_equal(g[1:], g[:-1], out=new[1:])
                else:
                    new[1:] |= g[1:] != g[:-1]
            first = order[new]                       # the first position of each gain
        first.sort()
        return idx[first]


_WORD = (1 << 64) - 1
# The shared identity cache (it holds each tuple, so an id is never reused for another).
_TABLES = PerRulesCache(lambda placements, _key: MaskTable(placements), size=1024)


def placement_table(placements: tuple[int, ...]) -> MaskTable:
    """The MaskTable of a placements tuple, built once (they are cached per board and
    shape)."""
    return _TABLES(placements, None)


@lru_cache(maxsize=256)
def footprints(board: Board, size: tuple[int, int]) -> tuple[int, ...]:
    """Rectangles of the given size, either orientation, inside the map."""
    a, b = size
    out = set()
    for w, h in {(a, b), (b, a)}:
        pts = [(x, y) for x in range(w) for y in range(h)]
        for dy in range(board.height - h + 1):
            for dx in range(board.width - w + 1):
                out.add(_stamp(board, pts, dx, dy))
    return tuple(sorted(out))


class RectangleFit:
    """Where the rectangles of one size (either orientation) fit inside a mask, by shifts.

    A w x h rectangle whose top-left space is `a` lies inside `free` exactly when bit `a` is set
    in `free >> o` for every offset `o = dy * width + dx` of its spaces; AND-ing those shifted
    masks (and the anchors whose rectangle stays on the map) tests every position at once."""

    def __init__(self, board: Board, size: tuple[int, int]):
        a, b = size
        self.orientations = []          # (offsets, valid anchors, anchor -> footprint)
        for w, h in sorted({(a, b), (b, a)}):
            offsets = tuple(dy * board.width + dx for dy in range(h) for dx in range(w))
            anchors = {board.cell(x, y): _stamp(board, [(dx, dy) for dy in range(h)
                                                        for dx in range(w)], x, y)
                       for y in range(board.height - h + 1) for x in range(board.width - w + 1)}
            valid = sum(1 << c for c in anchors)
            self.orientations.append((offsets, valid, anchors))

    def inside(self, free: int) -> list[int]:
        """The footprints lying inside `free`, ascending: `[fp for fp in footprints(board, size)
        if not fp & ~free]`."""
        out = []
        for offsets, valid, anchors in self.orientations:
            fit = valid
            for o in offsets:
                fit &= free >> o
            out.extend(anchors[c] for c in bits(fit))
        if len(self.orientations) > 1:
            out.sort()
        return out


@lru_cache(maxsize=256)
def rectangle_fit(board: Board, size: tuple[int, int]) -> RectangleFit:
    return RectangleFit(board, size)


@lru_cache(maxsize=256)
def custom_footprints(board: Board, cells) -> tuple[int, ...]:
    """Placements of an irregular footprint (all orientations)."""
    out = set()
    for orient in orientations(cells):
        for dy in range(board.height):
            for dx in range(board.width):
                m = _stamp(board, orient, dx, dy)
                if m is not None:
                    out.add(m)
    return tuple(sorted(out))


def components(board: Board, mask: int) -> list[int]:
    """Side-connected components of a mask."""
    out = []
    while mask:
        comp = mask & -mask
        while True:
            nxt = board.grow(comp) & mask
            if nxt == comp:
                break
            comp = nxt
        out.append(comp)
        mask &= ~comp
    return out


def outpost_mask(board: Board) -> int:
    """The trade-route outposts' spaces as one mask."""
    m = 0
    for c in board.outposts:
        m |= 1 << c
    return m


def settlement_component(board: Board, exc: int) -> int:
    """The excavated spaces joined to the starting settlement by side-adjacent excavated
    spaces (an "uninterrupted path", Appendix B)."""
    comp = board.settlement & exc
    while True:
        nxt = board.grow(comp) & exc
        if nxt == comp:
            return comp
        comp = nxt


def connected_outposts(board: Board, exc: int) -> int:
    """Bitmask over outposts reached by an uninterrupted excavated path from the settlement."""
    reach = board.grow(settlement_component(board, exc))
    out = 0
    for j, c in enumerate(board.outposts):
        if reach >> c & 1:
            out |= 1 << j
    return out
