"""Move (rulebook "The 7 Actions": Move), exploring a face-down octagon, and the Social
Buildings a consultant flies to (Corp Storage, Jet Pack Magnifier, The Low Light Pub).

A jump (Jet Pack Magnifier, Lava Crawler) is asked in small decisions (issue 27, RULES.md
"Small decisions"): which worker, `("jump_from", w)` (or the jump itself when the worker has
one target), then which octagon, then which space, in the frame `jump_to`."""

from __future__ import annotations

from engine.core.parts import in_parts_by

from .activate import operate
from .board import rotated
from .payment import pt_trade_ok


def start_move(s, p) -> None:
    """A Move order: 6 moves plus the owner's finished automatic move buildings."""
    bonus = sum(s.st.b[s.bld[sp]].move_bonus for sp in s.owned(p.seat) if s.done[sp])
    p.mv_left = s.rules.game.move_points + bonus
    p.mv_stopped = ()
    p.mv_jet = False
    p.mv_crawl = False
    s.stack.append(("move", p.seat))


def _l_move(s, frame):
    p = s.players[frame[1]]
    out = []
    if p.mv_left > 0:
        n_space, tile, explored, stopped = s.st.geo.n_space, s.tile, s.explored, p.mv_stopped
        seen = set()
        for w, cell in enumerate(p.workers):
            if cell < 0 or cell in seen or w in stopped:
                continue
            seen.add(cell)
            for dest in s.neighbours(cell):
                if dest >= n_space:
                    if dest == p.entrance:
                        out.append(("step", w, dest))
                    continue
                o = dest >> 2
                if tile[o] >= 0:
                    out.append(("step" if explored[o] else "explore", w, dest))
            far = jump_targets(s, p, cell)
            if far:
                out.append(("jump", w, far[0]) if len(far) == 1 else ("jump_from", w))
        if p.cons_free > 0:
            out += [("fly", sp) for sp in s.social_sites() if sp not in p.cons_landed]
    out.append(("end",))
    return out


def jump_targets(s, p, cell: int) -> list[int]:
    """The spaces a worker on `cell` may jump to for 1 move, in space order: any explored
    space not next to it once the Jet Pack Magnifier is landed on in this Move; from a magma
    space, any other explored magma space with a Lava Crawler that can run."""
    geo = s.st.geo
    terr = s.terr
    if p.mv_jet:
        return [d for d in range(geo.n_space)
                if terr[d] is not None and d != cell and d not in geo.nb[cell]]
    if cell < geo.n_space and terr[cell] == "magma" and _has_magma_travel(s, p):
        return [d for d in range(geo.n_space)        # Lava Crawler: magma to magma, 1 move
                if terr[d] == "magma" and d != cell and d not in geo.nb[cell]]
    return []


def _l_jump_to(s, frame):
    """Where worker `w` jumps, `("jump_to", seat, w, o)` (issue 27, RULES.md "Small
    decisions"): with `o` = -1, which octagon (`in_parts`: an octagon with one target space is
    the jump itself; with one octagon, its spaces at once); else the spaces of octagon `o`."""
    p = s.players[frame[1]]
    w, o = frame[2], frame[3]
    far = jump_targets(s, p, p.workers[w])
    if o >= 0:
        return [("jump", w, d) for d in far if d >> 2 == o]
    return in_parts_by((("jump", w, d) for d in far), lambda a: ("jump_oct", a[2] >> 2))


def _crawler(s, p):
    """The player's finished Lava Crawler, if any."""
    return next((s.st.b[s.bld[sp]] for sp in s.owned(p.seat)
                 if s.done[sp] and s.st.b[s.bld[sp]].magma_travel), None)


def _has_magma_travel(s, p) -> bool:
    """A Lava Crawler that can run in this Move: with Energy, its energy is paid once per
    Move, at the first crawl ("no energy means no activation")."""
    bd = _crawler(s, p)
    if bd is None:
        return False
    return p.mv_crawl or not s.rules.modules.energy or p.energy >= bd.energy_cost


def _a_move(s, frame, action):
    p = s.players[frame[1]]
    kind = action[0]
    if kind == "end":
        p.mv_left = 0
        return
    s.stack.append(("move", p.seat))
    if kind == "jump_from":                          # where: a decision of its own
        s.stack.append(("jump_to", p.seat, action[1], -1))
        return
    p.mv_left -= 1
    if kind == "jump":
        _jump(s, p, action[1], action[2])
    elif kind == "step":
        p.workers[action[1]] = action[2]
    elif kind == "explore":
        p.workers[action[1]] = action[2]
        p.mv_stopped = p.mv_stopped + (action[1],)
        s.stack.append(("rotate", p.seat, action[2]))
    elif kind == "fly":
        sp = action[1]
        p.cons_free -= 1
        p.cons_landed.append(sp)
        bd = s.st.b[s.bld[sp]]
        s.gain(p, bd.gain, "activations")
        if bd.jetpack:
            p.mv_jet = True
        owner = s.owner[sp]
        if owner != p.seat:
            s.score(s.writable_player(owner), "social", bd.owner_rep)
        if bd.deal_pt and pub_targets(s, p) and (
                p.pt >= bd.deal_pt or p.pt + 1 >= bd.deal_pt and pt_trade_ok(s, p)):
            s.stack.append(("pub", p.seat, sp))       # The Low Light Pub: a deal (the
            # "3 resources for 1 PT" ability may pay its last token, orders.PT_TRADE_AT)


def _a_jump_to(s, frame, action):
    if action[0] == "jump_oct":
        s.stack.append(("jump_to", frame[1], frame[2], action[1]))
        return
    p = s.players[frame[1]]
    p.mv_left -= 1                                   # the Move's frame is still below
    _jump(s, p, action[1], action[2])


def _jump(s, p, w: int, dest: int) -> None:
    """Worker `w` jumps to `dest` (1 move, already counted); a jump without the Jet Pack
    Magnifier is the Lava Crawler's, whose first in a Move activates it."""
    if not p.mv_jet and not p.mv_crawl:
        p.mv_crawl = True                # the Lava Crawler's activation of this Move
        operate(s, p, _crawler(s, p))
    p.workers[w] = dest


def _l_rotate(s, frame):
    o = frame[2] >> 2
    tile = s.st.tiles[s.tile[o]]
    out, seen = [], set()
    for r in range(4):
        key = (rotated(tile.spaces, r), (tile.start_space + r) % 4 if tile.start_building else -1)
        if key not in seen:
            seen.add(key)
            out.append(("rot", r))
    return out


def _a_rotate(s, frame, action):
    o = frame[2] >> 2
    s.explore(o, action[1])
    tile = s.st.tiles[s.tile[o]]
    if s.tile[o] >= s.st.n_regular and tile.start_building:
        # Crooked Caverns: a remaining starting tile's printed building is a "free" building
        # for the player who turns it over (assumed).
        sp = 4 * o + (tile.start_space + action[1]) % 4
        if s.bld[sp] is None:
            s.bld[sp] = tile.start_building
            s.owner[sp] = frame[1]
            s.done[sp] = True


def pub_targets(s, p) -> list[int]:
    """The Low Light Pub: "place their cube on a building they don't own": any rival's
    building not carrying the player's cube yet (it counts once it joins one of the player's
    networks of the same type, see scoring.clusters)."""
    return [sp for sp, o in enumerate(s.owner) if o not in (-1, p.seat) and sp not in p.cubes]


def _l_pub(s, frame):
    p = s.players[frame[1]]
    price = s.st.b[s.bld[frame[2]]].deal_pt
    if p.pt < price:
        return [("none",)]
    return [("deal", sp) for sp in pub_targets(s, p)] + [("none",)]


def _a_pub(s, frame, action):
    """No negotiation in a simulation: the deal is the rulebook's fallback, "the price is 3
    PT. Not possible to deny": the power tokens go to the building's owner."""
    if action[0] == "none":
        return
    p = s.players[frame[1]]
    price = s.st.b[s.bld[frame[2]]].deal_pt
    sp = action[1]
    p.pt -= price
    s.writable_player(s.owner[sp]).pt += price
    p.cubes.append(sp)


LEGAL = {"move": _l_move, "jump_to": _l_jump_to, "rotate": _l_rotate, "pub": _l_pub}
APPLY = {"move": _a_move, "jump_to": _a_jump_to, "rotate": _a_rotate, "pub": _a_pub}
