"""Rulebook "Discovery": "a Free Action ... when you move onto an empty space in the Play Zone.
When this happens, blindly draw a random tile from the box of Tiles and place it down where
your worker is located. You may pick the orientation the Tile is placed as long as it connects
to the Tile your Worker moved from."

- Gem tiles get their gem from the supply ("If the Tile is a Dead End, 3 of that Resource").
- Inner Ring: "must be 3-Way or 4-Way Tiles, and they must wrap around the Colonies so that
  there is an accessible circular path": at least `zone.inner_min_openings` open sides, open
  towards both neighbouring Inner Ring spaces (`zone.inner_ring_path`).
- Dead ends "can only be placed down if: it is in the outer ring of tiles; if the only way to
  get to that Tile is from the outer ring; or if there are only Dead End's left" (the second:
  the worker came from the outer ring, the dead end's one opening facing it).
- "If you run out of Tiles while discovering, treat all empty spaces afterwards as 4-Way Tiles"
  (the space gets the virtual "open" tile: four sides, nothing on it).

Assumed: a drawn tile that may not lie there goes back and another is drawn (the same as
drawing at random among the tiles that may); if no tile in the bag may lie there, the notes are
set aside and any tile is drawn (only the connection holds).  With discovery draws (a trait,
the lantern), 1 + N tiles are drawn and the player chooses one, the others go back.
Decisions: ("tile", type) when several were drawn, then ("orient", open sides) when the tile
can lie more than one way.
"""

from __future__ import annotations

from . import cards as C
from .state import NC, apply, legal
from .zone import BIT


def eligible(s, cell: int, frm: int, back: int) -> tuple[list[int], bool]:
    """The tile types in the bag that may lie on `cell` entered from `frm` (side `back` faces
    it), and whether the cell is exempt from the placement notes: they had to be set aside (no
    fitting tile left), or only dead ends are left."""
    st = s.st
    z = s.rules.zone
    zone = st.zone
    ring = zone.ring[cell]
    need = BIT[back] | (zone.ring_sides[cell] if ring == 1 and z.inner_ring_path else 0)
    in_bag = [t for t in range(st.n_regular) if s.bag[t] > 0]
    only_dead = all(st.dead_end[t] for t in in_bag)
    dead_ok = (not z.dead_end_rule or ring == zone.outer or zone.ring[frm] == zone.outer
               or only_dead)
    ok = []
    for t in in_bag:
        if ring == 1 and not st.inner_ok[t]:
            continue
        if st.dead_end[t] and not dead_ok:
            continue
        if any(m & need == need for m in st.tile_masks[t]):
            ok.append(t)
    if ok:
        return ok, only_dead and ring != zone.outer and zone.ring[frm] != zone.outer
    return in_bag, True


def orientations(s, t: int, cell: int, back: int, exempt: bool) -> tuple[int, ...]:
    zone = s.st.zone
    need = BIT[back]
    if not exempt and zone.ring[cell] == 1 and s.rules.zone.inner_ring_path:
        need |= zone.ring_sides[cell]
    return tuple(m for m in s.st.tile_masks[t] if m & need == need)


def discover(s, seat: int, cell: int, frm: int, back: int) -> None:
    from .movement import arrive
    if not any(s.bag):
        st = s.st
        s.tile[cell] = st.OPEN
        s.mask[cell] = 15
        arrive(s, seat, cell)
        return
    types, exempt = eligible(s, cell, frm, back)
    want = 1 + max(0, s.mods[seat][C.DISCOVERY_DRAWS])
    drawn = []
    rng = s.chance()
    for _ in range(want):
        pool = [t for t in types if s.bag[t] > 0]
        if not pool:
            break
        total = sum(s.bag[t] for t in pool)
        r = rng.randrange(total)
        for t in pool:
            r -= s.bag[t]
            if r < 0:
                break
        s.bag[t] -= 1
        drawn.append(t)
    if len(set(drawn)) > 1:
        s.stack.append(("tile_pick", seat, cell, back, tuple(drawn), exempt))
    else:
        for t in drawn[1:]:
            s.bag[t] += 1
        choose_orientation(s, seat, cell, back, drawn[0], exempt)


@legal("tile_pick")
def tile_options(s, frame):
    return [("tile", t) for t in dict.fromkeys(frame[4])]


@apply("tile_pick")
def tile_pick(s, frame, a) -> None:
    _, seat, cell, back, drawn, exempt = frame
    rest = list(drawn)
    rest.remove(a[1])
    for t in rest:                                  # the others go back into the bag
        s.bag[t] += 1
    choose_orientation(s, seat, cell, back, a[1], exempt)


def choose_orientation(s, seat: int, cell: int, back: int, t: int, exempt: bool) -> None:
    masks = orientations(s, t, cell, back, exempt)
    if len(masks) == 1:
        place(s, seat, cell, t, masks[0], exempt)
    else:
        s.stack.append(("orient", seat, cell, t, masks, exempt))


@legal("orient")
def orient_options(s, frame):
    return [("orient", m) for m in frame[4]]


@apply("orient")
def orient(s, frame, a) -> None:
    place(s, frame[1], frame[2], frame[3], a[1], frame[5])


def place(s, seat: int, cell: int, t: int, mask: int, exempt: bool = False) -> None:
    from .movement import arrive
    st = s.st
    if exempt:
        s.exempt |= 1 << cell
    s.tile[cell] = t
    s.mask[cell] = mask
    colour = st.tile_gem[t]
    if colour >= 0:
        k = min(st.tile_gems[t], s.gem_supply[colour])
        s.gem_supply[colour] -= k
        s.cgem[cell * NC + colour] += k
    arrive(s, seat, cell, discovered=True)
