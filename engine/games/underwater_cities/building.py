"""Building (rulebook "Cities", "Buildings", "Tunnels", "Step-by-step Expansion", "Bonuses
From Building", "Metropolises").

A build part is one decision per piece: ("build", kind, site) or ("stop",); the next piece
is offered after the first is placed, so the first tunnel can open the site of the second.
A part that allows several kinds (a "building", a "structure", a "city") asks in two small
decisions (issue 27, RULES.md "Small decisions"): what, `("build_kind", kind)` (or the piece
itself, `("build", kind, site)`, when that kind has one site), then where, in the frame
`build_at`: the sites of that kind, no stop.  A part with one kind lists its sites at once.
A payment with a choice (biomatter) is its own decision.  Placing a piece gains the site's
bonus at once (connected or not), fires the permanent cards that react to it, and may
connect a metropolis (all of its tunnel sites built): a blue one gives its instant effect.
"""

from __future__ import annotations

from engine.core.parts import in_parts

from .network import KIND_CODE, building_sites, city_sites, net, tunnel_sites
from .payment import build_cost, build_payments, can_build_pay, pay, upgrade_payments
from .state import UWCState
from .triggers import TARGET_KINDS, fire

BUILDING_KINDS = ("farm", "desal", "lab")


def options(s, p, part) -> list[tuple]:
    """Every ("build", kind, site) the part allows that the seat can pay for."""
    return [a for _kind, acts in kind_options(s, p, part) for a in acts]


def kind_options(s, p, part, only: str | None = None) -> list[tuple[str, list[tuple]]]:
    """(kind, its ("build", kind, site) options) for each kind the part allows that the seat
    can pay for and has a site for, in the part's order of kinds (`only`: that kind alone)."""
    g = s.geo
    out = []
    for kind in TARGET_KINDS[part.what] if only is None else (only,):
        if kind == "tunnel":
            if s.supply[0] <= 0 or not can_build_pay(s, p, build_cost(s, p, kind, part)):
                continue
            acts = [("build", "tunnel", t) for t in tunnel_sites(g, p)]
        elif kind in KIND_CODE:
            if not can_build_pay(s, p, build_cost(s, p, kind, part)):
                continue
            acts = [("build", kind, b) for b in building_sites(g, p, part.expansion)]
        else:
            if s.supply[1 if kind == "white_city" else 2] <= 0:
                continue
            if not can_build_pay(s, p, build_cost(s, p, kind, part)):
                continue
            acts = [("build", kind, c) for c in city_sites(g, p)]
        if acts:
            out.append((kind, acts))
    return out


def first_options(s, p, part) -> list[tuple]:
    """The build part's first decision: every site when one kind is open, else one option
    per kind: `("build_kind", kind)`, or its one site's `("build", kind, site)`."""
    return in_parts((("build_kind", kind), acts) for kind, acts in kind_options(s, p, part))


def any_option(s, p, part) -> bool:
    g = s.geo
    for kind in TARGET_KINDS[part.what]:
        if kind == "tunnel":
            if s.supply[0] > 0 and can_build_pay(s, p, build_cost(s, p, kind, part)) \
                    and tunnel_sites(g, p):
                return True
        elif kind in KIND_CODE:
            if can_build_pay(s, p, build_cost(s, p, kind, part)) \
                    and building_sites(g, p, part.expansion):
                return True
        elif s.supply[1 if kind == "white_city" else 2] > 0 \
                and can_build_pay(s, p, build_cost(s, p, kind, part)) and city_sites(g, p):
            return True
    return False


def cell_of(g, kind: str, site: int) -> int:
    if kind == "tunnel":
        return g.cell_tun + site
    if kind in KIND_CODE:
        return g.cell_bld + site
    return g.cell_city + site


def place(s, p, kind: str, site: int) -> None:
    """Put the piece on the board and resolve what placing it triggers."""
    g = s.geo
    if kind == "tunnel":
        p.tun |= 1 << site
        s.supply[0] -= 1
        s.turn[4] += 1
    elif kind in KIND_CODE:
        bld = list(p.bld)
        bld[site] = KIND_CODE[kind]
        p.bld = tuple(bld)
    else:
        p.cmask |= 1 << site
        if kind == "symbiotic_city":
            p.smask |= 1 << site
            s.supply[2] -= 1
        else:
            s.supply[1] -= 1
    p.net = None
    bonus = s.st.bonus[p.board].get(cell_of(g, kind, site))
    if bonus is not None:
        s.gain(p, bonus, "other")
    if p.abilities:
        nth, connected = 0, False
        if kind in KIND_CODE:
            c = g.bsite_city[site]
            code = KIND_CODE[kind]
            nth = sum(1 for b in g.city_bsites[c] if p.bld[b] == code)
            connected = bool(net(g, p).conn >> c & 1)
        elif kind == "tunnel":
            connected = True
        else:
            connected = bool(net(g, p).conn >> site & 1)
        fire(s, p, "on_build", kind=kind, nth=nth, connected=connected)
        if kind == "tunnel" and s.turn[4] == 2:
            fire(s, p, "on_second_tunnel")
    if kind == "tunnel":
        connect_metropolises(s, p)


def connect_metropolises(s, p) -> None:
    """A metropolis is connected once every tunnel site next to its hexagon is built; a
    blue one then gives its instant effect (rulebook "Metropolises")."""
    g = s.geo
    for h in range(g.nh):
        bit = 1 << h
        if p.metro_on & bit or not g.hex_tun[h] or g.hex_tun[h] & ~p.tun:
            continue
        p.metro_on |= bit
        tile = p.metros[h]
        if tile >= 0:
            for part in s.st.metros[tile].instant:
                s.gain(p, part.gain, "other")    # "metropolis" is the brown tile's alone
        fire(s, p, "on_connect_metropolis")


# ---------------------------------------------------------------------------- frames
def push_build(s, seat: int, part, src: str) -> None:
    s.stack.append(("build", seat, part, part.count, src))


def _l_build(s, frame):
    p = s.players[frame[1]]
    return first_options(s, p, frame[2]) + [("stop",)]


def _a_build(s, frame, action):
    if action[0] == "stop":
        return
    _kind, seat, part, left, src = frame
    if action[0] == "build_kind":      # what: the sites of that kind come next
        s.stack.append(("build_at", seat, part, left, src, action[1]))
        return
    p = s.players[seat]
    if left > 1:
        s.stack.append(("build", seat, part, left - 1, src))
    _, kind, site = action
    pays = build_payments(s, p, build_cost(s, p, kind, part))
    if len(pays) == 1:
        finish(s, seat, kind, site, part, pays[0])
    else:
        s.stack.append(("pay", seat, tuple(pays), ("place", kind, site, part)))


def _l_build_at(s, frame):
    """Where, `("build_at", seat, part, left, src, kind)`: the sites of the kind chosen (two or
    more; no stop: the first decision chose to build)."""
    p = s.players[frame[1]]
    return kind_options(s, p, frame[2], frame[5])[0][1]


def _a_build_at(s, frame, action):
    _a_build(s, frame[:5], action)


def follow_up(s) -> bool:
    """Whether the decision is where to build a kind just chosen (the search may widen it
    narrowly, `MCTSParams.narrow`: the two decisions are one move)."""
    return bool(s.stack) and s.stack[-1][0] == "build_at"


def finish(s, seat: int, kind: str, site: int, part, paid) -> None:
    p = s.players[seat]
    pay(p, paid)
    place(s, p, kind, site)
    if part is not None and part.upgrade and kind not in ("white_city", "symbiotic_city"):
        s.stack.append(("upgrade_it", seat, kind, site))


def _l_pay(s, frame):
    return [("pay",) + v for v in frame[2]]


def _a_pay(s, frame, action):
    _k, seat, _opts, then = frame
    paid = action[1:]
    if then[0] == "place":
        finish(s, seat, then[1], then[2], then[3], paid)
    else:   # ("raise", kind, site): an upgrade
        from .upgrades import raise_structure
        p = s.players[seat]
        pay(p, paid)
        raise_structure(s, p, then[1], then[2])


def _l_upgrade_it(s, frame):
    """"Pay 1 science to upgrade the structure you just built" (rulebook "Timing")."""
    p = s.players[frame[1]]
    if not upgrade_payments(s, p, frame[2], None):
        return [("skip",)]
    return [("upgrade",), ("skip",)]


def _a_upgrade_it(s, frame, action):
    if action[0] == "skip":
        return
    from .upgrades import do_upgrade
    do_upgrade(s, frame[1], frame[2], frame[3], None)


UWCState.LEGAL.update(build=_l_build, build_at=_l_build_at, pay=_l_pay,
                      upgrade_it=_l_upgrade_it)
UWCState.APPLY.update(build=_a_build, build_at=_a_build_at, pay=_a_pay,
                      upgrade_it=_a_upgrade_it)
