"""Underwater Cities heuristics for the generic bots.

`evaluate(state, seat)` estimates the seat's final score: points so far, final scoring as
the board stands (brown metropolis, end-scoring cards, cities), what the network and the
production cards will still produce in the Productions left, minus the feeding it will
not cover, plus what resources, cards in hand and action cards are still worth (assumed
weights, falling towards their end value of 1 point per 4 as the game ends).

`action_values` is the greedy bot's fast path.  The card, slot and order choices only open
further decisions, so a one-step lookahead cannot see them: each is valued by finishing the
turn (every later decision of the turn taken greedily, the order of card and slot tried
both ways).  Every other decision is a one-step lookahead on `evaluate`.
"""

from __future__ import annotations

from .cards import available_actions
from .network import bits, net
from .production import card_output, network_output
from .scoring import best_conversions, brown_points, city_points, end_cards

# Assumed values of one resource while it can still be spent (credits, kelp, steelplast,
# science, biomatter), of a card in hand and of an unused action card.
RES_VALUE = (0.45, 0.55, 0.65, 0.55, 0.95)
CARD_VALUE = 0.55
ACTION_VALUE = 1.1
ABILITY_VALUE = 0.8
UNCONNECTED = 0.45          # an unconnected city / building: a share of its connected value
BRANCH = frozenset(("card", "slot", "order"))


def productions_left(s) -> int:
    if s.over:
        return 0
    return len(s.rules.game.rounds_per_era) - s.era + 1


def _rounds_left(s) -> float:
    return max(0.0, s.st.rounds - s.round + 0.5)


def evaluate(s, seat: int) -> float:
    p = s.players[seat]
    v = float(p.points)
    if s.over:
        return v
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
    # Pieces not connected yet: part of what they would be worth.
    loose = p.cmask & ~n.conn
    if loose and rounds > 1:
        v += UNCONNECTED * 2.5 * loose.bit_count()
        for c in bits(loose):
            for b in g.city_bsites[c]:
                if p.bld[b]:
                    v += UNCONNECTED * 1.2 * prods
    # Metropolises within reach: a built tunnel towards one.
    for h in range(g.nh):
        if not p.metro_on >> h & 1 and g.hex_tun[h] & p.tun:
            v += 1.0
    # Cards and action cards.
    if rounds > 0.5:
        v += CARD_VALUE * min(len(p.hand), s.hand_limit(p) + 1)
        v += ACTION_VALUE * len(available_actions(p))
        v += ACTION_VALUE * 0.8 * len(p.actions) * max(0, prods - 1)
        v += ABILITY_VALUE * len(p.abilities) * late
        # An earlier place in the next round's order.
        v += 0.25 * p.fed
    return v


def _finish_turn(s, seat: int, turn0: int) -> float:
    """The value of `s` after the seat's turn is finished greedily."""
    while not s.over and s.stack and s.turns_done == turn0 and s.stack[-1][1] == seat:
        kind = s.stack[-1][0]
        actions = s.legal_actions()
        if kind in BRANCH:
            best = None
            for a in actions:
                nxt = s.clone(log=False)
                nxt.apply_legal(a, actions)
                val = _finish_turn(nxt, seat, turn0)
                if best is None or val > best:
                    best = val
            return best
        if len(actions) == 1:
            s.apply_legal(actions[0], actions)
            continue
        vals = _lookahead(s, seat, actions)
        i = max(range(len(actions)), key=vals.__getitem__)
        s.apply_legal(actions[i], actions)
    return evaluate(s, seat)


def _lookahead(s, seat: int, actions) -> list[float]:
    out = []
    for a in actions:
        nxt = s.clone(log=False)
        nxt.apply_legal(a, actions)
        out.append(evaluate(nxt, seat))
    return out


def action_values(s, seat: int, actions: list) -> list[float]:
    frame = s.stack[-1]
    if frame[0] not in BRANCH:
        return _lookahead(s, seat, actions)
    turn0 = s.turns_done
    out = []
    for a in actions:
        nxt = s.clone(log=False)
        nxt.apply_legal(a, actions)
        out.append(_finish_turn(nxt, seat, turn0))
    return out
