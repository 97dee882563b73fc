"""Underwater Cities heuristics for the generic bots.

`evaluate(state, seat)` estimates the seat's final score: points so far, final scoring as
the board stands (brown metropolis, end-scoring cards, cities), what the network and the
production cards will still produce in the Productions left, minus the feeding it will
not cover, plus what resources, cards in hand and action cards are still worth (assumed
weights, falling towards their end value of 1 point per 4 as the game ends).

`action_values` is the greedy bot's fast path.  The card, slot and order choices only open
further decisions, so a one-step lookahead cannot see them: the (card, slot) pairs are
ranked by a quick estimate of their effects (estimate.py), and the best few are valued by
finishing the turn (a rollout: every later decision of the turn by one-step lookahead, the
order of card and slot and of an effect's parts by rule of thumb); the order decision
itself plays out both orders.  Every other decision is a one-step lookahead on `evaluate`.
"""

from __future__ import annotations

from engine.core.cache import LastState, remember

from .cards import available_actions
from .network import bits, net
from .production import card_output, network_output
from .scoring import best_conversions, brown_points, city_points, end_cards

# Assumed values of one resource while it can still be spent (credits, kelp, steelplast,
# science, biomatter), of a card in hand and of an unused action card.
RES_VALUE = (0.35, 0.45, 0.5, 0.45, 0.8)
CARD_VALUE = 0.55
SPECIAL_IN_HAND = 0.0       # a Special card in hand, over any card
ACTION_VALUE = 1.1
ABILITY_VALUE = 0.8
UNCONNECTED = 0.45          # an unconnected city / building: a share of its connected value
UNCONNECTED_NEAR = 0.7      # ... when one tunnel would connect it
OPEN_SITE = 1.0             # an empty city site the tunnels reach (up to OPEN_SITES of them)
OPEN_SITES = 2
SOON_ROUNDS = 3.0           # potential fades over the last rounds
METRO_PATH = 0.6            # a metropolis's worth per share of the way to it built
BROWN_FLOOR = 6.0           # the brown tile's worth when it would score less today
METRO_COUNT = 1.0           # a connected metropolis counts for cards and the brown tile


def productions_left(s) -> int:
    if s.over:
        return 0
    return len(s.rules.game.rounds_per_era) - s.era + 1


def _rounds_left(s) -> float:
    return max(0.0, s.st.rounds - s.round + 0.5)


EVAL_CACHE_SIZE = 131072


def evaluate(s, seat: int) -> float:
    """The seat's value (module docstring), remembered per rules and player count
    (`Static.eval_cache`) under every field of the state it reads: the round and era (rounds
    and Productions left), and of the seat: points, resources, the board's pieces and its
    metropolis tiles and connections (network, brown tile, metropolis worth), claimed cards
    (end and production cards, counts), action cards and those used, Special cards paid,
    Federation position, the number of cards in hand (whether a card is a Special only with
    SPECIAL_IN_HAND), the hand limit bonus and the number of abilities.  Nothing else of the
    state is read (not the seat's number, its board's bonuses nor other seats)."""
    p = s.players[seat]
    if s.over:
        return float(p.points)
    key = (s.era, s.round, p.points, tuple(p.res), p.cmask, p.smask, p.bld, p.bup, p.tun,
           p.tun_up, p.metros, p.metro_on, p.claimed, p.actions, p.used, p.specials_paid, p.fed,
           tuple(p.hand) if SPECIAL_IN_HAND else len(p.hand), p.hand_bonus, len(p.abilities))
    cache = s.st.eval_cache
    v = cache.get(key)
    if v is None:
        v = remember(cache, key, _evaluate(s, p), EVAL_CACHE_SIZE)
    return v


def _evaluate(s, p) -> float:
    v = float(p.points)
    g = s.geo
    n = net(g, p)
    prods = productions_left(s)
    rounds = _rounds_left(s)
    late = min(1.0, rounds / 4.0)
    rv = [0.25 + (x - 0.25) * late for x in RES_VALUE]
    # Final scoring as the board stands.
    v += brown_points(s, p) + city_points(s, p)
    fixed, trades = end_cards(s, p)
    conv, _ = best_conversions(s, p.res, trades, exact=False)
    v += fixed
    base_left = (p.res[0] + p.res[1] + p.res[2] + p.res[3]
                 + 2 * p.res[4]) // s.rules.final.resources_per_point
    v += conv - base_left      # what the end cards add over the plain conversion
    # Resources still to be spent.
    r = p.res
    v += sum(r[i] * rv[i] for i in range(5))
    # Production still to come.
    if prods:
        out = network_output(s, p)
        per = out[5] + sum(out[i] * rv[i] for i in range(5))
        kelp_prod = out[1]
        for gain, k in card_output(s, p):
            if k:
                per += k * (gain.points + gain.credits * rv[0] + gain.kelp * rv[1]
                            + gain.steelplast * rv[2] + gain.science * rv[3]
                            + gain.biomatter * rv[4])
                kelp_prod += k * gain.kelp
        v += per * prods
        # Feeding the connected cities in every Production left.
        need = n.n_cities * prods
        have = r[1] + r[4] + kelp_prod * prods
        if need > have:
            v -= (need - have) * 2.2
    if rounds > 1:
        v += _network_potential(s, p, g, n, prods, rounds)
    # Cards and action cards.
    if rounds > 0.5:
        v += CARD_VALUE * min(len(p.hand), s.hand_limit(p) + 1)
        special = s.st.special
        for inst in p.hand:
            if special[inst]:
                v += SPECIAL_IN_HAND
        v += ACTION_VALUE * len(available_actions(p))
        v += ACTION_VALUE * 0.8 * len(p.actions) * max(0, prods - 1)
        v += ABILITY_VALUE * len(p.abilities) * late
        # An earlier place in the next round's order.
        v += 0.25 * p.fed
    return v


def _network_potential(s, p, g, n, prods: int, rounds: float) -> float:
    """What the network is still worth growing into, for the turns left: a city not yet
    connected (more when one tunnel away from the network), an empty city site the
    tunnels already reach (a city built there is connected at once), and each metropolis by
    the share of its tunnel sites built (the brown one by what its tile would score)."""
    v = 0.0
    soon = min(1.0, rounds / SOON_ROUNDS)
    comp = n.comp
    loose = p.cmask & ~n.conn
    for c in bits(loose):
        near = any(g.tun_cities[t] & comp & ~(1 << c) for t in bits(g.city_tun[c] & ~p.tun))
        share = UNCONNECTED_NEAR if near else UNCONNECTED
        v += share * 2.5
        for b in g.city_bsites[c]:
            if p.bld[b]:
                v += share * 1.2 * prods
    open_sites = (comp & ~p.cmask & ((1 << g.nc) - 1)).bit_count()
    v += OPEN_SITE * min(open_sites, OPEN_SITES) * soon
    left = _metro_tunnels_left(g, p, n)
    firsts = _metro_tunnels_first(g)
    for h in range(g.nh):
        if p.metro_on >> h & 1 or not g.hex_tun[h]:
            continue
        first = firsts[h]
        done = first - left[h]
        if done > 0:
            # Remembered on the Net (one per board contents, any seat): under the tile and
            # every count not of the board that a tile's end parts may read (network.count).
            key = ("metro_worth", h, p.metros[h], prods, p.specials_paid, p.fed,
                   len(p.claimed), len(p.actions))
            worth = n.sites.get(key)
            if worth is None:
                worth = n.sites[key] = _metro_worth(s, p, h, prods)
            v += worth * METRO_PATH * done / first * soon
    return v


def _tunnels_to(g, comp: int, tun: int) -> list[int]:
    """Fewest tunnels still to build from the network `comp` (city sites reached) to each
    city site, built tunnels free (a breadth-first search over the tunnel sites)."""
    dist = [99] * g.nc
    todo = []
    for c in bits(comp & ((1 << g.nc) - 1)):
        dist[c] = 0
        todo.append(c)
    k = 0
    while k < len(todo):          # 0-1 search: a built tunnel costs 0, an empty one 1
        c = todo[k]
        k += 1
        for t in bits(g.city_tun[c]):
            a, b = g.tun_ends[t]
            o = b if a == c else a
            if o >= g.nc:
                continue
            d = dist[c] + (0 if tun >> t & 1 else 1)
            if d < dist[o]:
                dist[o] = d
                todo.append(o)
    return dist


def _metro_tunnels_left(g, p, n) -> list[int]:
    """Per metropolis: about how many tunnels are still to build to connect it (its own
    tunnel sites not built, plus the way from the network to the farthest city they start
    from; remembered per board version)."""
    hit = n.sites.get("metro_left")
    if hit is None:
        hit = _LEFT.get(p.tun)        # the network (comp) follows from the tunnels alone
        if hit is not None and _LEFT_GEO[0] is g:
            n.sites["metro_left"] = hit
            return hit
        if _LEFT_GEO[0] is not g or len(_LEFT) > 65536:
            _LEFT.clear()
            _LEFT_GEO[0] = g
        dist = _tunnels_to(g, n.comp, p.tun)
        hit = []
        for h in range(g.nh):
            k = far = 0
            for t in bits(g.hex_tun[h]):
                if not p.tun >> t & 1:
                    k += 1
                a, b = g.tun_ends[t]
                far = max(far, dist[a if a < g.nc else b])
            hit.append(k + far)
        n.sites["metro_left"] = _LEFT[p.tun] = hit
    return hit


_LEFT: dict = {}          # tunnels mask -> _metro_tunnels_left (content-keyed, any seat)
_LEFT_GEO: list = [None]  # the geometry _LEFT is for


_FIRST: dict = {}


def _metro_tunnels_first(g) -> list[int]:
    """Per metropolis: the same count on an empty board (the starting city alone)."""
    hit = _FIRST.get(id(g))
    if hit is None:
        dist = _tunnels_to(g, 1 << g.start, 0)
        hit = []
        for h in range(g.nh):
            k = far = 0
            for t in bits(g.hex_tun[h]):
                a, b = g.tun_ends[t]
                k += 1
                far = max(far, dist[a if a < g.nc else b])
            hit.append(max(1, k + far))
        _FIRST[id(g)] = hit
    return hit


def _metro_worth(s, p, h: int, prods: int) -> float:
    """What connecting metropolis `h` would add: a brown tile's final scoring as the network
    stands (at least BROWN_FLOOR), a blue tile's instant gain and its production."""
    tile = p.metros[h]
    if tile < 0:
        return 0.0
    m = s.st.metros[tile]
    if h == s.geo.brown:
        from .scoring import part_points
        pts = sum(part_points(s, p, part) for part in m.end)
        return max(float(pts), BROWN_FLOOR) + METRO_COUNT
    v = 0.0
    for part in m.instant:
        g = part.gain
        v += g.points + 0.4 * (g.credits + g.kelp + g.steelplast + g.science) + 0.8 * g.biomatter
    for part in m.production:
        g = part.gain
        v += prods * (g.points + 0.35 * (g.credits + g.kelp + g.steelplast + g.science)
                      + 0.7 * g.biomatter)
    return v + METRO_COUNT


def _finish_turn(s, seat: int, turn0: int, depth: int = 0) -> float:
    """The value of `s` after the seat's turn is finished greedily (`_finished`)."""
    return evaluate(_finished(s, seat, turn0, depth), seat)


def _finished(s, seat: int, turn0: int, depth: int = 0):
    """`s`, or a copy of it, with the seat's turn finished greedily (a rollout: the order of
    card and slot by rule of thumb, every other decision by a one-step lookahead).  A choice
    that only opens further decisions (which part of an effect next, which option of an
    "either", which action card) is played to its end before it is valued: each option is
    finished on a copy (down to BRANCH_DEPTH such choices) and the best copy is the result,
    so a "build or gain" option is valued once something is built, not before."""
    while not s.over and s.stack and s.turns_done == turn0 and s.stack[-1][1] == seat:
        kind = s.stack[-1][0]
        actions = s.legal_actions()
        if len(actions) == 1:
            a = actions[0]
        elif kind == "order":
            a = (_order_of_thumb(s),)
        elif kind in _BRANCHING and depth < BRANCH_DEPTH:
            best, best_v = None, None
            for a in actions:
                nxt = s.clone(log=False)
                nxt.apply_legal(a, actions)
                nxt = _finished(nxt, seat, turn0, depth + 1)
                v = evaluate(nxt, seat)
                if best is None or v > best_v:
                    best, best_v = nxt, v
            return best
        elif kind == "parts":
            a = actions[0]
        else:
            vals = _lookahead(s, seat, actions)
            a = actions[max(range(len(actions)), key=vals.__getitem__)]
        s.apply_legal(a, actions)
    return s


# Decisions that only open further ones, played out before they are valued (the order of an
# effect's parts, an "either", an action card to use, a slot's action to perform), and how
# many of them deep a rollout branches (deeper: parts in the listed order, options by
# one-step lookahead).
_BRANCHING = frozenset(("parts", "either", "use_action", "slot_action", "use_dropped",
                        "pay_special", "limit"))
BRANCH_DEPTH = 1


_SPENDING = frozenset(("build", "upgrade", "trade", "symbiosis", "slot_action"))


def _order_of_thumb(s) -> str:
    """Resolve the slot first when it only gains and the card spends, else the card."""
    card = s.st.cards[s.turn[1]]
    i = s.turn[2]
    slot = s.rules.game.always_slot if i < 0 else s.st.slots[i].effect
    card_spends = any(p.kind in _SPENDING for p in card.effect)
    slot_gains = all(p.kind == "gain" for p in slot)
    return "slot_first" if card_spends and slot_gains else "card_first"


def _lookahead(s, seat: int, actions) -> list[float]:
    """One-step lookahead.  Building sites of one city without a bonus are interchangeable
    (as are upgrades of one building type at one city): one of each is tried.  What to build
    (`("build_kind", kind)`, the first of a build's two decisions) is worth its best site."""
    out = []
    seen: dict = {}
    g = s.geo
    bonus = s.st.bonus[s.players[seat].board]
    for a in actions:
        key = a
        if len(a) == 3 and a[1] in _BUILDING and a[0] in ("build", "upgrade"):
            cell = g.cell_bld + a[2]
            if cell not in bonus:
                key = (a[0], a[1], g.bsite_city[a[2]], g.bsite_exp[a[2]])
        v = seen.get(key)
        if v is None:
            nxt = s.clone(log=False)
            nxt.apply_legal(a, actions)
            if a[0] == "build_kind":     # what to build: worth its best site (where)
                v = max(_lookahead(nxt, seat, nxt.legal_actions()))
            else:
                v = evaluate(nxt, seat)
            seen[key] = v
        out.append(v)
    return out


_BUILDING = frozenset(("farm", "desal", "lab"))


def action_values(s, seat: int, actions: list) -> list[float]:
    kind = s.stack[-1][0]
    if kind == "card" and actions[0][0] == "play":
        return _card_values(s, seat, actions)
    if kind == "slot":
        return _slot_values(s, seat, actions)
    if kind == "order" or kind in _BRANCHING:
        turn0 = s.turns_done
        out = []
        for a in actions:
            nxt = s.clone(log=False)
            nxt.apply_legal(a, actions)
            out.append(_finish_turn(nxt, seat, turn0, 0 if kind == "order" else 1))
        return out
    return _lookahead(s, seat, actions)


TOP = 2                 # (card, slot) pairs played out besides each card's best guess
UNTRIED = -1.0e6        # an option not played out: never preferred to one that was


def _estimator(s, seat: int):
    from .estimate import Estimator
    late = min(1.0, _rounds_left(s) / 4.0)
    rv = [0.25 + (x - 0.25) * late for x in RES_VALUE]
    return Estimator(s, seat, evaluate, rv, productions_left(s))


def _slot_colour(st, option):
    return None if option[0] == "always" else st.slots[_slot_index(st, option[1])].colour


def _slot_estimate(est, st, rules, option) -> float:
    if option[0] == "always":
        return est.effect_value(rules.game.always_slot)
    v = est.effect_value(st.slots[_slot_index(st, option[1])].effect)
    if option[0] == "clone":
        v -= est.res_value(rules.game.cloning_cost.vec())
    return v


def _play_out(s, seat: int, steps) -> float:
    nxt = s.clone(log=False)
    turn0 = nxt.turns_done
    for a in steps:
        nxt.apply(a)
    return _finish_turn(nxt, seat, turn0)


def _card_values(s, seat: int, actions: list) -> list[float]:
    """Each (card, slot) pair is estimated (estimate.py); each card's best pair and the best
    pairs overall are played out to the end of the turn, a card is worth its best."""
    st = s.st
    est = _estimator(s, seat)
    hand = s.players[seat].hand
    inst = {a: next(i for i in hand if st.card_id[i] == a[1]) for a in actions}
    base = {}
    card_v = {a: est.card_value(inst[a]) for a in actions}
    pairs = []
    for a in actions:
        # The slots open to this card (one its colour pays for, resolved first, among them).
        probe = s.clone(log=False)
        probe.apply_legal(a, actions)
        slot_opts = probe.legal_actions()
        for o in slot_opts:
            if o not in base:
                base[o] = _slot_estimate(est, st, s.rules, o)
        colour = st.cards[inst[a]].colour
        for o in slot_opts:
            v = base[o] + (card_v[a] if _slot_colour(st, o) == colour else 0.0)
            pairs.append((v, a, o))
    pairs.sort(key=lambda x: -x[0])
    chosen = {}
    for _v, a, o in pairs:
        if a not in {x for x, _ in chosen}:
            chosen[(a, o)] = True
    for _v, a, o in pairs[:TOP]:
        chosen[(a, o)] = True
    best = {a: UNTRIED for a in actions}
    for a, o in chosen:
        best[a] = max(best[a], _play_out(s, seat, (a, o)))
    return [best[a] for a in actions]


def _slot_candidates(s, seat: int, actions: list) -> list:
    """The slots worth playing out: the TOP + 1 best by the estimator (the slot's action, plus
    the card's value when the card's colour matches the slot's), best first."""
    st = s.st
    est = _estimator(s, seat)
    inst = s.turn[1]
    colour = st.cards[inst].colour if inst >= 0 else None
    card_v = est.card_value(inst) if inst >= 0 else 0.0
    scored = []
    for o in actions:
        v = _slot_estimate(est, st, s.rules, o)
        if colour is not None and _slot_colour(st, o) == colour:
            v += card_v
        scored.append((v, o))
    return [o for _v, o in sorted(scored, key=lambda x: -x[0])[:TOP + 1]]


def _slot_values(s, seat: int, actions: list) -> list[float]:
    top = set(_slot_candidates(s, seat, actions))
    return [_play_out(s, seat, (o,)) if o in top else UNTRIED for o in actions]


def _best_slot_finished(s, seat: int):
    """A copy of `s` (at the seat's slot choice) with the turn finished after the slot the
    greedy bot would choose (the `_slot_values` candidates, each played out)."""
    actions = s.legal_actions()
    best, best_v = None, None
    for o in _slot_candidates(s, seat, actions):
        nxt = s.clone(log=False)
        turn0 = nxt.turns_done
        nxt.apply(o)
        nxt = _finished(nxt, seat, turn0)
        v = evaluate(nxt, seat)
        if best is None or v > best_v:
            best, best_v = nxt, v
    return best


def _slot_index(st, slot_id: str) -> int:
    for i, slot in enumerate(st.slots):
        if slot.id == slot_id:
            return i
    raise KeyError(slot_id)


# ---------------------------------------------------------------------------- search leaf
def leaf_value(s, seat: int) -> float:
    """The search bot's leaf (`Game.extra["leaf_value"]`, MCTS `leaf = "game"`): `evaluate`
    once the turn in progress is finished by the greedy bot's rollout (its slot by the
    greedy choice among the slots, every later decision as `_finish_turn` takes it).  A leaf
    between a card and its slot, or halfway through an effect, is otherwise valued with the
    card gone and nothing yet built for it.  The finished copy is built once for the seats'
    values of one leaf (`finished_turn`)."""
    if s.over or not s.stack:
        return evaluate(s, seat)
    return evaluate(finished_turn(s), seat)


def _finish_leaf(s):
    """`s`, or a copy of it with the turn in progress finished greedily."""
    kind, mover = s.stack[-1][0], s.stack[-1][1]
    done = s
    if kind not in ("card", "discard") and s.turn[0] == mover:
        done = s.clone(log=False)
        turn0 = done.turns_done
        if kind == "slot":
            done = _best_slot_finished(s, mover)
        else:
            done = _finished(done, mover, turn0)
    return done


finished_turn = LastState(_finish_leaf)     # the last leaf's finished copy
