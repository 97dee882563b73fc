"""Glimmerdeep heuristics for the generic bots: an estimate of a seat's final score."""

from __future__ import annotations

from engine.core.cache import PerRulesCache

from . import scoring
from .board import connected_outposts, settlement_component
from .excavation import excavation_groups
from .state import GEM, GOLD, IRON

# Assumed weights: a resource is worth a little more than its end-game VP while it can
# still be spent; buildings are worth their VP plus their expected future activations.
RES_VALUE = (0.45, 0.7, 1.2)


def rounds_left(s) -> int:
    """Rounds still to play, the one in progress counted until its construction ends."""
    return max(0, s.rules.game.rounds - s.round) + (1 if s.phase in ("excavation", "construction") else 0)


def evaluate(s, seat: int) -> float:
    """An estimate of the seat's final score (its terms, named: leaf.leaf_features)."""
    p = s.players[seat]
    left = rounds_left(s)
    worth = _card_worth(s.static)
    score = float(p.vp)
    for kind, cid, _fp in p.buildings:
        vp, per_round = worth[kind, cid]
        score += vp + per_round * left
    score += p.res[IRON] * RES_VALUE[IRON] + p.res[GOLD] * RES_VALUE[GOLD] + p.res[GEM] * RES_VALUE[GEM]
    # Room to build: excavated space not yet built on.
    free = (p.exc & ~p.built).bit_count()
    score += 0.15 * min(free, 12) * (1 if left else 0)
    # The calling and end-of-game traits as if the game ended now, and the map objective.
    score += sum(v for _c, v in s.hooks[seat].final_scoring(s, p))
    score += objective_estimate(s, p)
    return score


def _card_worth(static) -> dict:
    """(kind, card id) -> (its VP, what one activation nets: output less input, at least 0),
    computed once per rules and map (the same floats `evaluate` summed card by card)."""
    return _WORTH(static, None)


def _build_card_worth(static, _key) -> dict:
    table = {}
    for kind, cards in static.cards.items():
        for cid, card in cards.items():
            out = card.output
            gain = (out.vp + out.iron * RES_VALUE[IRON] + out.gold * RES_VALUE[GOLD]
                    + out.gem * RES_VALUE[GEM]
                    + 1.2 * len(out.excavate) + 0.8 * len(out.excavate_space))
            need = (card.input.iron * RES_VALUE[IRON] + card.input.gold * RES_VALUE[GOLD]
                    + card.input.gem * RES_VALUE[GEM])
            table[kind, cid] = (card.vp, max(0.0, gain - need))
    return table


_WORTH = PerRulesCache(_build_card_worth, size=64)   # per rules-and-map static tables


def objective_estimate(s, p) -> float:
    """This seat's map-objective VP if the game ended now (Snowy Summit: the Peak reached is
    worth about the second tier, since the race's order is not settled yet)."""
    board = s.static.board
    obj = s.rules.objectives
    if board.peak:
        return obj.snowy_summit_tiers[1] if p.peak is not None else 0.0
    if board.outposts:
        return scoring.trade_routes_vp(connected_outposts(board, p.exc).bit_count(), obj.trade_routes_vp)
    if board.biolum:
        return scoring.bioluminescent_vp(board, [fp for _k, _c, fp in p.buildings],
                                         obj.bioluminescent_vp_per_building)
    return scoring.forest_vp(board, p.exc, obj.forest_vp_per_space)


def action_values(s, seat: int, actions: list) -> list[float]:
    """Fast path for excavations (what the spaces gained are worth; an anchor, the first of a
    card's two decisions, is worth its best dig, so greedy still picks the best dig of the
    card); lookahead otherwise."""
    frame = s.stack[-1]
    if frame[0] in ("excavate", "excavate_at", "space"):
        p = s.players[seat]
        base = evaluate(s, seat)
        ctx = _DigContext(s, p)
        groups = None
        out = []
        for a in actions:
            if a[0] == "dig":
                out.append(base + ctx.value(a[1]))
            elif a[0] == "skip":
                out.append(base)
            elif a[0] == "anchor":
                if groups is None:
                    groups = excavation_groups(s, p, frame)
                out.append(base + max(ctx.value(g) for g in groups.gains(a[1])))
            else:
                out.append(_lookahead(s, seat, a, actions))
        return out
    return [_lookahead(s, seat, a, actions) for a in actions]


def _lookahead(s, seat: int, a, actions) -> float:
    nxt = s.clone()
    nxt.apply_legal(a, actions)  # `actions` are this very state's legal actions
    return evaluate(nxt, seat)


class _DigContext:
    """What every excavation option of one decision shares, computed once."""

    def __init__(self, s, p):
        self.s, self.p = s, p
        self.board = board = s.static.board
        self.obj = s.rules.objectives
        self.hook = s.hooks[p.seat]
        self.comp = settlement_component(board, p.exc)
        self.islands = p.exc != self.comp   # excavations not joined to the settlement
        self.touch = board.grow(self.comp)
        if board.outposts:
            self.before = self._outposts(self.comp)
        elif board.peak and p.peak is None:
            self.rings = _peak_rings(board)
            self.d0 = _distance(self.comp, self.rings)

    def _component_after(self, new: int) -> int:
        if self.islands:
            return settlement_component(self.board, self.p.exc | new)
        return self.comp | new if new & self.touch else self.comp

    def _outposts(self, comp: int) -> int:
        reach = self.board.grow(comp)
        return sum(1 for c in self.board.outposts if reach >> c & 1)

    def value(self, new: int) -> float:
        """Resources gained, room made, progress on the map objective, the faction's view."""
        board, obj = self.board, self.obj
        v = ((new & board.iron).bit_count() * RES_VALUE[IRON]
             + (new & board.gold).bit_count() * RES_VALUE[GOLD]
             + (new & board.gem).bit_count() * RES_VALUE[GEM]
             + 0.15 * new.bit_count())
        if board.forest:
            v += (new & board.forest).bit_count() * obj.forest_vp_per_space
        elif board.outposts:
            after = self._outposts(self._component_after(new))
            if after > self.before:
                table = obj.trade_routes_vp
                v += table[min(after, len(table) - 1)] - table[min(self.before, len(table) - 1)]
        elif board.peak and self.p.peak is None:
            d1 = _distance(self._component_after(new), self.rings)
            v += 1.5 * (self.d0 - d1) + (obj.snowy_summit_tiers[1] if d1 == 0 else 0)
        return v + self.hook.dig_value(self.s, self.p, new)


_RINGS: dict = {}


def _peak_rings(board) -> list[int]:
    """Masks of the spaces 0, 1, 2, ... steps from the Peak, walking through spaces that can be
    excavated (rock, outposts and glowing spaces are in the way; the Manhattan distance when
    nothing is)."""
    key = (board.map_id, board.peak, board.blocked)
    rings = _RINGS.get(key)
    if rings is None:
        rings, seen = [], board.peak
        ring = board.peak
        while ring:
            rings.append(ring)
            ring = board.grow(ring) & ~seen & ~board.blocked
            seen |= ring
        _RINGS[key] = rings
    return rings


def _distance(mask: int, rings: list[int]) -> int:
    for d, ring in enumerate(rings):
        if mask & ring:
            return d
    return len(rings)


