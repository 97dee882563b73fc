"""Build (rulebook "The 7 Actions": Build, "Specialists & Building", "Payment for Building"):
the sites and buildings offered, whether a build can be completed, sourcing each specialist
(one decision per skill), paying and laying the building face down.  Construction Molds:
two builds paid as one."""

from __future__ import annotations

from . import focus
from .payment import pay
from .activate import operate
from .specialists import SUPERS, source_options, spec_need, take_source


def start_build(s, p) -> None:
    """A Build order: one build, or two with finished Construction Molds ("Build x2, -2
    Money"; with Energy: "a building costs 1 Energy to activate, you can only Build x 2 if
    you have Energy. Upon activation, you also gain 2 Energy")."""
    b = s.st.b
    molds = [sp for sp in s.owned(p.seat) if s.done[sp] and b[s.bld[sp]].build_twice_money >= 0]
    molds.sort(key=lambda sp: b[s.bld[sp]].build_twice_money)
    if molds and operate(s, p, b[s.bld[molds[0]]]):
        s.stack.append(("build", p.seat, b[s.bld[molds[0]]].build_twice_money, "second"))
        s.stack.append(("build", p.seat, 0, "first"))   # paid with the second build
    else:
        s.stack.append(("build", p.seat))


def build_sites(s, p) -> list[int]:
    geo = s.st.geo
    return sorted({c for c in p.workers if 0 <= c < geo.n_space and s.bld[c] is None
                   and s.terr[c] is not None})


def _base_cost(s, p, bd) -> tuple[int, int, int, int]:
    food = bd.cost.food
    if p.ability == "less_food":
        food = max(0, food - s.ability_value("less_food"))
    return bd.cost.money, food, bd.cost.material, bd.cost.pt


def _workforce_ok(s, p, bd, site: int, pros_used: int) -> bool:
    here = p.workers.count(site)
    return here >= 1 and here + p.cons_free + p.pros_free - pros_used >= bd.workers


def build_feasible(s, p, bd, site: int, extra_money=0, extra_pt=0, colours=None, pros_used=0,
                   skip=None, owed=None, used=(), free=None, memo=None) -> bool:
    """Whether the build can be completed: some way of sourcing each remaining specialist
    keeps it payable and leaves the workforce.  `owed`: the deferred cost of the first
    Construction Molds build, paid together; `used`: the Supers already serving this build;
    `memo`: see `_build_plan`."""
    pros = _build_plan(s, p, bd, extra_money, extra_pt, colours, pros_used, skip, owed, used,
                       free, memo)
    return pros is not None and _workforce_ok(s, p, bd, site, pros)


def _build_plan(s, p, bd, extra_money=0, extra_pt=0, colours=None, pros_used=0, skip=None,
                owed=None, used=(), free=None, memo=None) -> int | None:
    """The part of `build_feasible` that does not depend on the site: the fewest
    professionals used over every way of sourcing the remaining specialists that keeps the
    build payable (each Super serves one skill of a build, the skip ability one skill, a free
    hire one hire), or None when there is none.  No specialist is ever granted for free.

    `memo`: a dict shared by the plans of one decision's listing (nothing changes between
    them): the sources of a skill (`source_options` of a colour, Supers used, skip) and
    whether a bill is payable (building, money and power tokens owed, `owed`)."""
    colours = spec_need(s, p, bd) if colours is None else list(colours)
    if memo is None:
        memo = {}
    if not colours:                      # nothing to source: is the bill itself payable?
        return pros_used if _payable_memo(s, p, bd, extra_money, extra_pt, owed, memo) \
            else None
    if skip is None:
        skip = p.ability == "skip_specialist" and "skip_specialist" not in p.used
    n = len(colours)
    best = [None]

    def go(i, money, pt, pros, used, skip, free):
        if best[0] is not None and pros >= best[0]:
            return
        if i == n:
            if _payable_memo(s, p, bd, money, pt, owed, memo):
                best[0] = pros
            return
        key = ("sources", colours[i], used, skip)
        options = memo.get(key)
        if options is None:
            options = memo[key] = source_options(s, p, colours[i], used, skip)
        for src, arg, m, t in options:
            if src == "pro":
                if p.pros_free - pros > 0:
                    go(i + 1, money, pt, pros + 1, used, skip, free)
            elif src in SUPERS:
                go(i + 1, money + m, pt + t, pros, used + (arg,), skip, free)
            elif src == "skip":
                go(i + 1, money, pt, pros, used, False, free)
            elif src == "hire" and free > 0:
                go(i + 1, money, pt, pros, used, skip, free - 1)
            else:
                go(i + 1, money + m, pt + t, pros, used, skip, free)
            if best[0] == pros_used:
                return

    go(0, extra_money, extra_pt, pros_used, tuple(used), skip,
       p.free_hires if free is None else free)
    return best[0]


def _payable_memo(s, p, bd, money: int, pt: int, owed, memo: dict) -> bool:
    """`_payable`, remembered in `memo` (see `_build_plan`)."""
    key = ("payable", bd.id, money, pt, owed)
    ok = memo.get(key)
    if ok is None:
        ok = memo[key] = _payable(s, p, bd, money, pt, owed)
    return ok


def _payable(s, p, bd, money: int, pt: int, owed) -> bool:
    """Whether the build's bill, with `money` and `pt` owed for its specialists (and the first
    Construction Molds build's `owed`), can be paid."""
    cost = _merge(_build_cost(s, p, bd, money, pt), owed)
    return s.afford(p, *cost[:4], s.morale_steps(p, cost[4])) is not None


def _build_cost(s, p, bd, money: int, pt: int) -> tuple[int, int, int, int, int]:
    """(money, food, material, power tokens, morale level) of a build, with `money` and `pt`
    owed for its specialists."""
    bm, bf, bmat, bpt = _base_cost(s, p, bd)
    return money + bm, bf, bmat, pt + bpt, bd.morale


def _merge(cost, owed):
    """Construction Molds: "players only pay 3 PT (1 for each resource) to build 2
    buildings": the two builds' amounts of each resource are added and paid as one payment
    per resource (a power token then covers the whole sum); the higher morale level counts."""
    if owed is None:
        return cost
    return (cost[0] + owed[0], cost[1] + owed[1], cost[2] + owed[2], cost[3] + owed[3],
            max(cost[4], owed[4]))


def buildable(s, p, extra_money: int = 0, owed=None) -> list[tuple]:
    out = []
    sites = build_sites(s, p)
    if not sites:
        return out
    b = s.st.b
    plans: dict[str, int | None] = {}    # build_feasible, the site-independent part per building
    memo: dict = {}                      # shared by the plans (see _build_plan)

    def feasible(bid, bd, site):
        if bid not in plans:
            plans[bid] = _build_plan(s, p, bd, extra_money, owed=owed, memo=memo)
        pros = plans[bid]
        return pros is not None and _workforce_ok(s, p, bd, site, pros)

    for site in sites:
        terr = s.terr[site]
        for bid, bd in s.st.for_terrain.get(terr, ()):    # not starting, count > 0, terrain
            if s.supply[bid] <= 0:
                continue
            if bd.one_per_player and any(s.bld[x] == bid for x in s.owned(p.seat)):
                continue
            if feasible(bid, bd, site):
                out.append(("b", bid, site))
        for bid in dict.fromkeys(p.start_buildings):
            bd = b[bid]
            if terr in bd.terrains and feasible(bid, bd, site):
                out.append(("b", bid, site))
    return out


def build_mode(frame) -> str:
    """"" (a single build), "first" or "second" (the two builds of Construction Molds)."""
    return frame[3] if len(frame) > 3 else ""


def _owed(p, mode: str):
    return p.owed if mode == "second" else None


def _l_build(s, frame):
    p = s.players[frame[1]]
    extra = frame[2] if len(frame) > 2 else 0     # the second build of Construction Molds
    return buildable(s, p, extra, _owed(p, build_mode(frame))) + [("none",)]


def _a_build(s, frame, action):
    p = s.players[frame[1]]
    mode = build_mode(frame)
    if action[0] == "none":
        if mode == "first" and s.stack and s.stack[-1][:2] == ("build", p.seat) \
                and build_mode(s.stack[-1]) == "second":
            s.stack.pop()                # no first build: no second one either
        elif mode == "second" and p.owed is not None:
            pay(s, p, p.owed)           # only one build: the first is paid alone
            p.owed = None
        return
    bid, site = action[1], action[2]
    bd = s.st.b[bid]
    extra = frame[2] if len(frame) > 2 else 0
    _next_spec(s, p, bid, site, tuple(spec_need(s, p, bd)), extra, 0, 0, mode, ())


def _next_spec(s, p, bid, site, colours, money, pt, pros, mode="", used=()) -> None:
    """("spec", seat, bid, site, colours left, money owed, pt owed, pros used, build mode,
    Supers serving this build): one decision per specialist skill still to source."""
    if colours:
        s.stack.append(("spec", p.seat, bid, site, colours, money, pt, pros, mode, used))
    else:
        _finish_build(s, p, bid, site, money, pt, pros, mode)


def _l_spec(s, frame):
    """The sources for the next skill that keep the build completable (a build is offered
    only when some way exists, so there is always one)."""
    p = s.players[frame[1]]
    bid, site, colours, money, pt, pros, mode, used = frame[2:]
    bd = s.st.b[bid]
    owed = _owed(p, mode)
    skip = p.ability == "skip_specialist" and "skip_specialist" not in p.used
    free = p.free_hires
    rest = colours[1:]
    out = []
    memo: dict = {}                      # shared by the plans (see _build_plan)
    for src, arg, m, t in source_options(s, p, colours[0], used, skip):
        if src == "pro" and p.pros_free - pros <= 0:
            continue
        args = dict(extra_money=money + m, extra_pt=pt + t, colours=rest, pros_used=pros,
                    skip=skip, owed=owed, used=used, free=free, memo=memo)
        if src == "pro":
            args["pros_used"] = pros + 1
        elif src in SUPERS:
            args["used"] = used + (arg,)
        elif src == "skip":
            args["skip"] = False
        elif src == "hire" and free > 0:
            args["extra_money"], args["free"] = money, free - 1
        if build_feasible(s, p, bd, site, **args):
            out.append(("src", src, arg))
    if not out:
        raise RuntimeError(f"no specialist source keeps the build of {bid} completable")
    return out


def _a_spec(s, frame, action):
    p = s.players[frame[1]]
    bid, site, colours, money, pt, pros, mode, used = frame[2:]
    src, arg = action[1], action[2]
    dm, dt, dp = take_source(s, p, src, arg, colours[0])
    if src in SUPERS:
        used = used + (arg,)
    _next_spec(s, p, bid, site, colours[1:], money + dm, pt + dt, pros + dp, mode, used)


def _finish_build(s, p, bid, site, money, pt, pros, mode="") -> None:
    """Pay resource by resource, buy the missing morale, fly in consultants and
    professionals for the missing workers, and lay the building face down.  The first build
    of Construction Molds is paid with the second one (`p.owed`)."""
    bd = s.st.b[bid]
    cost = _build_cost(s, p, bd, money, pt)
    if mode == "first":
        p.owed = cost
    else:
        pay(s, p, _merge(cost, _owed(p, mode)))
        p.owed = None
    here = p.workers.count(site)
    missing = max(0, bd.workers - here)
    cons = min(missing, p.cons_free)
    p.cons_free -= cons
    p.pros_free = max(0, p.pros_free - pros - (missing - cons))
    s.bld[site] = bid
    s.owner[site] = p.seat
    s.done[site] = False
    if bd.starting:
        p.start_buildings.remove(bid)
    else:
        s.supply[bid] -= 1
    p.unfinished.append(site)
    if p.ability == "build_rep":
        s.score(p, "abilities", s.ability_value("build_rep"))
    if s.rules.modules.focus:
        focus.focus_on_build(s, p, site)


LEGAL = {"build": _l_build, "spec": _l_spec}
APPLY = {"build": _a_build, "spec": _a_spec}
