"""Underhaven heuristics for the generic bots.

`evaluate` estimates a seat's final reputation: reputation so far, end scoring as it stands,
plus what resources, workforce, buildings and positions are worth with the rounds left
(assumed weights; a resource's worth beyond its end-scoring fifth shrinks towards the end, so
that late resources are handed to The Corp).  `action_values` is the greedy bot's fast path:
the card and order choices are valued by estimating what each order would yield now
(one-step lookahead cannot see it, since an order only opens further decisions); every other
decision is a one-step lookahead on `evaluate`, with the decisions it opens (specialist
sourcing, the card bought, the tile laid...) settled first.  The Corp's star spaces shorten
the game for everyone, so they are valued relative to the rivals (`relative`): a leader
gains by ending sooner, a score-maximiser alone never would.  Every lookahead copy stops at
the round end (`bot_terms.ahead`), so that the round's last seat values ending its turn with
the same rounds left as staying in it; "3 resources for 1 PT" is valued by the best option
after it, the Starting player location by the places it gains (`bot_terms`).
"""

from __future__ import annotations

import math

from engine.core.cache import PerRulesCache

from .activate import ACT_KINDS, activation_groups
from .bot_terms import ahead, start_player_worth
from .build import build_sites, buildable
from .decisions import FOLLOW_UPS, follow_up
from .end_estimate import end_points
from .move import jump_targets
from .orders import open_slots
from .payment import fullest_first

TRACK_VALUE = 0.35     # one Money, Food or Material (with 5 or more rounds left)
TG_VALUE = 0.45
ENERGY_VALUE = 0.3
WORKER_VALUE = 1.6
CONSULTANT_VALUE = 1.0
MORALE_VALUE = 0.5


def _rounds_left(s) -> int:
    return max(0, s.die_left) + 1


def _values(s) -> tuple[float, float, float, float]:
    """(basic resource, power token, trade good, energy) values with the rounds left: a power
    token six of a resource early on, each little more than its end value late."""
    rounds = _rounds_left(s)
    hit = _VALUES.get(rounds)
    if hit is None:
        fut = min(1.0, (rounds - 1) / 4.0)
        hit = _VALUES[rounds] = (0.1 + (TRACK_VALUE - 0.1) * fut,
                                 0.15 + 1.6 * min(1.0, (rounds - 1) / 6.0),
                                 0.1 + (TG_VALUE - 0.1) * fut, 0.1 + (ENERGY_VALUE - 0.1) * fut)
    return hit


_VALUES: dict[int, tuple] = {}


def pt_value(s) -> float:
    return _values(s)[1]


def track_value(s) -> float:
    return _values(s)[0]


def tg_value(s) -> float:
    return _values(s)[2]


def goods_value(s, g) -> float:
    """What a Goods bundle is worth with the rounds left (`_goods_value`), remembered per
    bundle and rounds left (bundles are frozen rules data; the entry holds the bundle, so its
    id stays its own)."""
    key = (id(g), s.die_left)
    hit = _GOODS.get(key)
    if hit is not None and hit[0] is g:
        return hit[1]
    v = _goods_value(s, g)
    if len(_GOODS) >= 20_000:
        _GOODS.clear()
    _GOODS[key] = (g, v)
    return v


def _goods_value(s, g) -> float:
    tv, pv, gv, ev = _values(s)
    return ((g.money + g.food + g.material) * tv + g.pt * pv + g.tg * gv + g.energy * ev
            + g.morale * MORALE_VALUE + g.rep)


_GOODS: dict = {}


def _building_worth(s, bid: str, done: bool, rounds: int) -> float:
    """What a seat's building `bid` (finished or not) is worth with `rounds` left
    (`_plain_building_value`): a function of those three only, so remembered by them."""
    st = s.st
    memo = _WORTH(st, None)
    key = (bid, done, rounds)
    v = memo.get(key)
    if v is None:
        v = memo[key] = _plain_building_value(s, st.b[bid], done, rounds)
    return v


_WORTH = PerRulesCache(lambda _st, _key: {}, size=16)   # per setup: (bid, done, rounds) -> value


def _plain_building_value(s, bd, done: bool, rounds: int) -> float:
    v = 0.0
    if bd.activation in ACT_KINDS or bd.activation == "trade":
        per = goods_value(s, bd.gain)    # staffing adds 0.25 more (worker_terms)
        v += per * rounds * (0.2 if bd.needs_worker else 0.45)
    if bd.move_bonus:
        v += 0.3 * bd.move_bonus * rounds
    if not done:
        v += bd.rep + bd.units * WORKER_VALUE + bd.specialist_gain * 4.0
        if bd.free_arrangement:
            v += 0.5 * rounds
    return v


def evaluate(s, seat: int) -> float:
    p = s.players[seat]
    rounds = _rounds_left(s)
    v = float(p.rep) + end_points(s, seat)
    tv, pv, gv, ev = _values(s)
    v += sum(p.res) * tv + p.pt * pv + p.tg * gv + p.energy * ev
    v += min(p.morale, 5) * MORALE_VALUE
    v += (len(p.workers) * WORKER_VALUE + p.consultants * CONSULTANT_VALUE) * min(1.0, rounds / 4)
    v += len(p.bought) * 0.8 * min(1.0, rounds / 3)
    bld, done = s.bld, s.done
    for sp in s.owned(seat):             # the seat's spaces in space order
        v += _building_worth(s, bld[sp], done[sp], rounds)
    if p.owed is not None:               # the first Construction Molds build, not yet paid
        v -= (p.owed[0] + p.owed[1] + p.owed[2]) * track_value(s) + p.owed[3] * pt_value(s)
    if rounds > 1:
        v += worker_terms(s, p, p.workers)
    return v


def worker_terms(s, p, workers, cache: dict | None = None) -> float:
    """What the workers' positions are worth (at the entrance, exploring, on a site).
    `cache`: cell -> `_cell_terms`, shared by calls on the same state (the greedy move
    lookahead values every move of one worker); the sum is added up in the same order."""
    v = 0.0
    n_space = s.st.geo.n_space
    cache = {} if cache is None else cache
    seen = set()
    for cell in workers:
        if cell >= n_space or cell < 0:
            v -= 0.8                       # still at the entrance
        elif cell in seen:
            v -= 0.2                       # stacked on a space already covered
        else:
            terms = cache.get(cell)
            if terms is None:
                terms = cache[cell] = _cell_terms(s, p, cell)
            for x in terms:
                v += x
        seen.add(cell)
    return v


def _cell_terms(s, p, cell: int) -> tuple[float, ...]:
    """What the first worker on a space adds to `worker_terms`, amount by amount."""
    bld = s.bld
    if s.terr[cell] is None:
        return (1.4,)                      # exploring (the octagon is being turned over)
    if bld[cell] is None:
        return (0.6 + _site_value(s, p, cell),)   # ready to build
    if s.owner[cell] == p.seat:
        bd = s.st.b[bld[cell]]
        if bd.needs_worker:                # staffing a production building
            return (0.3, goods_value(s, bd.gain) * _rounds_left(s) * 0.25)
        return (0.3,)
    return ()


def _site_value(s, p, cell: int) -> float:
    """An empty explored space a worker stands on: better next to own buildings of the same
    terrain (a cluster to grow) and when the terrain has a building the seat can afford."""
    t = s.terr[cell]
    v = 0.0
    for y in s.neighbours(cell):
        if y < s.st.geo.n_space and s.owner[y] == p.seat and s.terr[y] == t:
            v += 0.8
    if t in ("greenery", "mine"):
        v += 0.4
    return v


# ---------------------------------------------------------------- order estimates
def order_value(s, p, order, cache: dict | None = None) -> float:
    """What carrying out `order` now is worth to `p`.  Every kind but a gain reads only the
    kind (not the order's other fields), so with `cache` (one state, one seat) each kind is
    valued once (`_order_value`)."""
    kind = order.kind
    if kind == "gain":
        return goods_value(s, order.gain)
    if cache is None:
        return _order_value(s, p, order, None)
    key = ("order", kind)
    v = cache.get(key)
    if v is None:
        v = cache[key] = _order_value(s, p, order, cache)
    return v


def _order_value(s, p, order, cache: dict | None) -> float:
    kind = order.kind
    if kind == "move":
        geo = s.st.geo
        idle = sum(1 for c in p.workers
                   if c < 0 or c >= geo.n_space or not (s.bld[c] is None and s.terr[c] is not None))
        return 0.6 + 0.9 * min(idle, 3) if _rounds_left(s) > 1 else 0.2
    if kind in ACT_KINDS:
        best = 0.0
        for grp in activation_groups(s, p, kind):
            best = max(best, sum(goods_value(s, s.st.b[s.bld[x]].gain) for x in grp))
        return best + _automatic_value(s, p, kind)
    if kind == "build":
        opts = buildable(s, p)
        if not opts:
            return 0.3 if build_sites(s, p) else 0.0
        rounds = _rounds_left(s)
        best = 0.0
        for _b, bid, _site in opts:
            bd = s.st.b[bid]
            cost = ((bd.cost.money + bd.cost.food + bd.cost.material) * track_value(s)
                    + bd.cost.pt * pt_value(s))
            val = bd.rep * 2 + bd.units * WORKER_VALUE + bd.specialist_gain * 4.0
            if bd.activation in ACT_KINDS or bd.activation == "trade":
                val += goods_value(s, bd.gain) * rounds * 0.45
            best = max(best, val - 0.5 * cost)
        return 1.0 + best
    if kind == "trade":
        v = 0.0
        if p.tg >= 2:
            v = max(v, pt_value(s) - 2 * tg_value(s))
        if p.pt >= 2 and any(c is not None for c in s.market) and _rounds_left(s) > 3:
            v = max(v, 2.5 - 2 * pt_value(s) + 1.0)
        return v + _automatic_value(s, p, "trade")
    if kind == "corp":
        return max(0.0, corp_value(s, p, cache)) + 0.1
    return 0.0


def relative(s, seat: int) -> float:
    """`evaluate` less the rivals' mean: what a decision changing everyone's prospects (a
    star space rolling the turn die) is worth to the seat."""
    others = [evaluate(s, q) for q in range(s.n) if q != seat]
    return evaluate(s, seat) - sum(others) / len(others)


def corp_value(s, p, cache: dict | None = None) -> float:
    """The best single Corp exchange now (its star space rolls the turn die), valued relative
    to the rivals on a copy (`cache`: one answer per state, shared by the orders valued)."""
    if cache is not None and "corp" in cache:
        return cache["corp"]
    best = 0.0
    probe = s.clone(log=False)
    probe.stack, probe.agenda = [("corp", p.seat)], []
    acts = [a for a in probe.legal_actions() if a[0] == "space"]
    if acts:
        base = relative(s, p.seat)
        for a in acts:
            nxt = probe.clone(log=False)
            nxt.apply_legal(a, acts)
            _settle(nxt, p.seat)
            best = max(best, relative(nxt, p.seat) - base)
    if cache is not None:
        cache["corp"] = best
    return best


def _automatic_value(s, p, kind: str) -> float:
    v = 0.0
    for sp in s.owned(p.seat):           # the seat's spaces in space order
        if s.done[sp]:
            bd = s.st.b[s.bld[sp]]
            if bd.activation == kind and not bd.needs_worker:
                v += goods_value(s, bd.gain)
    return v


def postponed_value(s, p, r: int, k: int, cache: dict | None = None) -> float:
    """An order carried out at the end of the turn ("let's choose the BUILD action. But we
    will carry that out last"): its value once the resource orders of the other rows left and
    a pending gain support have been gained (estimated on a copy), a little less than doing it
    now when that is no better."""
    card = s.st.cards[p.slot]
    order = card.rows[r][k]
    now = order_value(s, p, order, cache)
    if order.kind != "build":
        return now - 0.05
    nxt = s.clone(log=False)
    q = nxt.writable_player(p.seat)   # the copy's own record (clones share them until written)
    rows = {rr for rr, _kk in _other_slots(p, r, k)}
    for rr in sorted(rows):
        best = max(card.rows[rr], key=lambda o: _resource_value(nxt, q, o))
        _gain_resources(nxt, q, best)
    if p.support_pending and card.support.kind == "gain":
        nxt.gain(q, card.support.gain)
    return max(now, order_value(nxt, q, order)) - 0.05


def _other_slots(p, r: int, k: int):
    """The orders still open after (r, k) is covered (the later rows; any with free
    arrangement)."""
    if p.university or p.ability == "free_arrangement":
        return [(rr, kk) for rr in range(3) for kk in range(2)
                if (rr, kk) not in p.used_slots and rr != r]
    return [(rr, kk) for rr in range(r + 1, 3) for kk in range(2)]


def _resource_value(s, p, order) -> float:
    if order.kind == "gain":
        return goods_value(s, order.gain)
    if order.kind in ("harvest", "mine"):
        return order_value(s, p, order)
    return 0.0


def _gain_resources(s, p, order) -> None:
    """The resources an order would give (a gain, the best staffed group of a Harvest or
    Mine and the automatic buildings), for the estimate only."""
    if order.kind == "gain":
        s.gain(p, order.gain)
    elif order.kind in ("harvest", "mine"):
        groups = activation_groups(s, p, order.kind)
        if groups:
            grp = max(groups, key=lambda g: sum(goods_value(s, s.st.b[s.bld[x]].gain) for x in g))
            for x in grp:
                s.gain(p, s.st.b[s.bld[x]].gain)


def card_value(s, p, card, cache: dict | None = None) -> float:
    rows = [[order_value(s, p, o, cache) for o in row] for row in card.rows]
    if p.university or p.ability == "free_arrangement":
        best = sum(sorted((v for row in rows for v in row), reverse=True)[:3])
    else:
        best = sum(max(row) for row in rows)
    return best + order_value(s, p, card.support, cache) + card.play_rep


SOURCE_RANK = {"own": 0, "held": 1, "skip": 2, "pro": 3, "hire": 4, "super": 5, "overbid": 6,
               "overbid_super": 7}
# Decisions an action opens that the lookahead settles before valuing the action: specialist
# sourcing (cheapest source first), and by the best evaluation a Low Light Pub deal, the card
# bought, the tile laid, the mission claimed, the resources given for a power token; and the
# later parts of a move asked in parts (decisions.FOLLOW_UPS: where a tile goes, a jump lands).
SETTLED = ("spec", "pub", "buy", "tile", "claim_mission", "pt_trade", "morale") + FOLLOW_UPS


def _settle(s, seat: int) -> None:
    guard = 0
    while s.stack and s.stack[-1][0] in SETTLED and s.stack[-1][1] == seat and guard < 16:
        guard += 1
        acts = s.legal_actions()
        kind = s.stack[-1][0]
        if kind == "morale":             # morale steps: from the fullest tracks (quick)
            s.apply_legal(fullest_first(s, s.players[seat], acts), acts)
            continue
        if kind == "spec":
            s.apply_legal(min(acts, key=lambda a: (SOURCE_RANK.get(a[1], 9), _src_cost(s, a))),
                          acts)
            continue
        s.apply_legal(max(acts, key=lambda a: _after(s, seat, a, acts)), acts)


def _src_cost(s, a) -> int:
    """A Super's price (its die), to take the cheaper of two."""
    return s.super_die[a[2]] if a[1] == "super" else 0


def _after(s, seat: int, action, legal: list) -> float:
    """`evaluate` after `action`; the first part of a move split in parts (decisions.py
    FOLLOW_UPS: a tile kind, a jump's worker or octagon) by its best completion."""
    nxt = ahead(s)
    nxt.apply_legal(action, legal)       # `legal`: this very state's legal actions
    if follow_up(nxt) and nxt.to_move() == seat:
        acts = nxt.legal_actions()
        return max(_after(nxt, seat, a, acts) for a in acts)
    return evaluate(nxt, seat)


def action_values(s, seat: int, actions: list) -> list[float]:
    frame = s.stack[-1]
    p = s.players[seat]
    cache: dict = {}                     # answers shared by the orders valued on this state
    if frame[0] == "card":
        return [card_value(s, p, s.st.cards[a[1]], cache) for a in actions]
    if frame[0] == "order":
        card = s.st.cards[p.slot]
        out = []
        for a in actions:
            if a[0] == "order":
                out.append(order_value(s, p, card.rows[a[1]][a[2]], cache))
            elif a[0] == "postpone":
                out.append(postponed_value(s, p, a[1], a[2], cache))
            elif a[0] == "support":
                out.append(order_value(s, p, card.support, cache) + 0.5)
            elif a[0] == "first_player":
                out.append(first_player_value(s, p, cache))
            elif a[0] == "pt_trade":
                out.append(pt_trade_value(s, seat, actions))
            elif a[0] in ("loan", "repay"):
                pts, penalty = s.rules.game.loan_tiers[a[1]]
                value = pts * pt_value(s) - penalty
                out.append(value if a[0] == "loan" else -value - 1.0)
            else:
                out.append(0.2)
        return out
    if frame[0] in ("move", "jump_to") and _rounds_left(s) > 1:
        # Only the positions change: value the moved worker's new position (a jump's worker
        # or octagon, decisions.py FOLLOW_UPS, by its best space).
        base = evaluate(s, seat)
        cells: dict = {}
        now = worker_terms(s, p, p.workers, cells)
        out = []
        for a in actions:
            dests = _destinations(s, p, frame, a)
            if dests is not None:
                ws = p.workers.copy()
                w = a[1] if a[0] != "jump_oct" else frame[2]
                best = -math.inf
                for d in dests:
                    ws[w] = d
                    best = max(best, worker_terms(s, p, ws, cells))
                out.append(base - now + best)
            elif a[0] == "end":
                out.append(base)
            else:
                nxt = ahead(s)
                nxt.apply_legal(a, actions)   # `actions` are this very state's legal actions
                _settle(nxt, seat)
                out.append(evaluate(nxt, seat))
        return out
    value = relative if frame[0] == "corp" else evaluate    # star spaces: see `relative`
    out = []
    for a in actions:
        if a[0] == "pt_trade":
            out.append(pt_trade_value(s, seat, actions))
            continue
        nxt = ahead(s)
        nxt.apply_legal(a, actions)
        _settle(nxt, seat)
        out.append(value(nxt, seat) + (start_player_worth(s, seat) if a[0] == "space"
                                       and s.st.spaces[a[1]].kind == "first_player" else 0.0))
    return out


def _destinations(s, p, frame, a) -> list[int] | None:
    """The spaces a move option may take its worker to (a step or a jump: one; a jump's
    worker or octagon: those of its jumps), None for any other option."""
    k = a[0]
    if k in ("step", "explore", "jump"):
        return [a[2]]
    if k == "jump_from":
        return jump_targets(s, p, p.workers[a[1]])
    if k == "jump_oct":
        return [d for d in jump_targets(s, p, p.workers[frame[2]]) if d >> 2 == a[1]]
    return None


def pt_trade_value(s, seat: int, actions: list) -> float:
    """"3 resources for 1 PT" (once a round; the same decision comes back): the best option
    after the exchange, the three resources chosen by the best evaluation; at an order
    decision (options valued as gains) plus what the exchange itself is worth.  So it is taken
    when the power token is worth more than the resources with the rounds left, or when it
    opens a better option (a building, a Corp space), and not otherwise."""
    nxt = ahead(s)
    nxt.apply_legal(("pt_trade",), actions)
    lose = nxt.legal_actions()           # which three (the decision itself comes back next)
    nxt.apply_legal(max(lose, key=lambda a: _after(nxt, seat, a, lose)), lose)
    then = max(action_values(nxt, seat, nxt.legal_actions()))
    if s.stack[-1][0] == "order":
        then += evaluate(nxt, seat) - evaluate(s, seat)
    return then


def first_player_value(s, p, cache: dict) -> float:
    """The Starting player location (bot_terms.start_player_worth), less the Trade or Corp
    order still to come that its Professional leaves without one."""
    v = start_player_worth(s, p.seat)
    if p.pros_free <= 1:
        card = s.st.cards[p.slot]
        todo = [card.rows[r][k] for r, k in (*open_slots(p), *p.postponed)]
        if p.support_pending:
            todo.append(card.support)
        v -= max((order_value(s, p, o, cache) for o in todo if o.kind in ("trade", "corp")),
                 default=0.0)
    return v
