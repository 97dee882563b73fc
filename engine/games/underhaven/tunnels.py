"""Tunnel and trapezoid tiles (rulebook "Game Components", "Game Setup" 3 D, Trade: "a new
Tunnel or Trapezoid", Building Connectivity): where a tile may be laid and laying it.

Laying a tile is asked in small decisions (issue 27, RULES.md "Small decisions"): which
tile, `("tile_kind", kind)` (or the placement itself, `("tile", kind, gap, r)`, when that
kind has one), then, in the frame `tile_at`, which anchor gap (`("tile_gap", kind, gap)`),
then which orientation.  A part with one group lists its options at once, and a group of one
option is that option (`engine.core.parts.in_parts`): with one kind, the first decision is
its gaps."""

from __future__ import annotations

from engine.core.parts import in_parts, in_parts_by


def tile_options(s, p) -> list[tuple]:
    """("tile", kind, anchor gap, orientation) for every tunnel type left in the supply and
    every trapezoid the player holds, on free gaps, connecting a space where the player has a
    worker ("your worker ... adjacent to the indicated building spot"), anywhere with the
    "Tunnel tile requirement skipped" ability."""
    return list(each_tile_option(s, p))


def each_tile_option(s, p):
    """`tile_options` one at a time, in the same order."""
    for kind, shape in _tile_kinds(s, p):
        yield from _placements(s, p, kind, shape)


def _placements(s, p, kind: str, shape: str) -> list[tuple]:
    """("tile", kind, anchor gap, orientation) of one tile kind.  Only the placements
    connecting a worker's space are visited (the per-shape index `Static.touching`, in
    placement order)."""
    gap = s.gap
    placements = s.st.placements[shape]
    out = []
    for i in sorted(_near(s, p, shape)):
        g, r, gaps, _spaces = placements[i]
        if not any(x in gap for x in gaps):
            out.append(("tile", kind, g, r))
    return out


def has_tile_option(s, p) -> bool:
    """Whether there is any tile option (a trade space only asks that): the placements of
    `each_tile_option`, tried in any order, stopping at the first free one."""
    gap = s.gap
    for _kind, shape in _tile_kinds(s, p):
        placements = s.st.placements[shape]
        for i in _near(s, p, shape):
            if not any(x in gap for x in placements[i][2]):
                return True
    return False


def _tile_kinds(s, p) -> list[tuple[str, str]]:
    """(kind, shape) of every tunnel type left in the supply, then of every trapezoid held."""
    kinds = [(k, k) for k in s.st.tunnel_ids if s.tunnel_supply.get(k, 0) > 0]
    return kinds + [(k, "trapezoid") for k in sorted(set(p.trapezoids))]


def _near(s, p, shape: str):
    """The indices of the `shape` placements connecting a space with one of the player's
    workers (every placement with the "Tunnel tile requirement skipped" ability), unordered
    and possibly repeated."""
    if p.ability == "tunnel_anywhere":
        return range(len(s.st.placements[shape]))
    touching = s.st.touching[shape]
    n_space = s.st.geo.n_space
    return {i for c in p.workers if 0 <= c < n_space for i in touching.get(c, ())}


def _l_tile(s, frame):
    """Which tile: `in_parts` of the kinds, each standing for its first part (`_by_gap`), so
    that with one kind its gaps are asked at once (nothing to lay: `none`)."""
    p = s.players[frame[1]]
    return in_parts((("tile_kind", kind), _by_gap(_placements(s, p, kind, shape)))
                    for kind, shape in _tile_kinds(s, p)) or [("none",)]


def _l_tile_at(s, frame):
    """Where, `("tile_at", seat, kind, gap)`: with `gap` = -1, which anchor gap (`_by_gap`);
    else the orientations at that gap."""
    p = s.players[frame[1]]
    kind, g = frame[2], frame[3]
    acts = _placements(s, p, kind, kind if kind in s.tunnel_supply else "trapezoid")
    return [a for a in acts if a[2] == g] if g >= 0 else _by_gap(acts)


def _by_gap(acts: list[tuple]) -> list[tuple]:
    """The placements of one kind by anchor gap: `("tile_gap", kind, gap)` (`in_parts`: a gap
    with one orientation is the placement itself; with one gap, its orientations at once)."""
    return in_parts_by(acts, lambda a: ("tile_gap", a[1], a[2]))


def _a_tile(s, frame, action):
    if action[0] == "none":
        return
    if action[0] == "tile_kind":
        s.stack.append(("tile_at", frame[1], action[1], -1))
        return
    if action[0] == "tile_gap":
        s.stack.append(("tile_at", frame[1], action[1], action[2]))
        return
    p = s.players[frame[1]]
    kind = action[1]
    if kind in s.tunnel_supply:
        s.tunnel_supply[kind] -= 1
        shape = kind
    else:
        p.trapezoids.remove(kind)
        shape = "trapezoid"
    lay(s, p.seat, kind, shape, action[2], action[3])


def lay(s, seat: int, kind: str, shape: str, anchor: int, rot: int) -> None:
    for g, r, gaps, spaces in s.st.placements[shape]:
        if g == anchor and r == rot:
            s.lay_tile(kind, seat, gaps, spaces)
            return
    raise ValueError(f"no {shape} placement at gap {anchor} r{rot}")


LEGAL = {"tile": _l_tile, "tile_at": _l_tile_at}
APPLY = {"tile": _a_tile, "tile_at": _a_tile}
