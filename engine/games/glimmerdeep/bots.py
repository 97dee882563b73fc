"""Glimmerdeep heuristics for the generic bots: an estimate of a seat's final score."""

from __future__ import annotations

from .state import GEM, GOLD, IRON

# Assumed weights: a resource is worth a little more than its end-game VP while it can
# still be spent; buildings are worth their VP plus their expected future activations.
RES_VALUE = (0.45, 0.7, 1.2)


def evaluate(s, seat: int) -> float:
    p = s.players[seat]
    rounds_left = max(0, s.rules.game.rounds - s.round) + (1 if s.phase in ("excavation", "construction") else 0)
    cards = s.static.cards
    score = float(p.vp)
    for kind, cid, _fp in p.buildings:
        card = cards[kind][cid]
        out = card.output
        gain = (out.vp + out.iron * RES_VALUE[IRON] + out.gold * RES_VALUE[GOLD] + out.gem * RES_VALUE[GEM]
                + 1.2 * len(out.excavate) + 0.8 * len(out.excavate_space))
        need = card.input.iron * RES_VALUE[IRON] + card.input.gold * RES_VALUE[GOLD] + card.input.gem * RES_VALUE[GEM]
        score += card.vp + max(0.0, gain - need) * rounds_left
    score += p.res[IRON] * RES_VALUE[IRON] + p.res[GOLD] * RES_VALUE[GOLD] + p.res[GEM] * RES_VALUE[GEM]
    # Room to build: excavated space not yet built on.
    free = (p.exc & ~p.built).bit_count()
    score += 0.15 * min(free, 12) * (1 if rounds_left else 0)
    return score


def action_values(s, seat: int, actions: list) -> list[float]:
    """Fast path for excavations (value of the spaces gained); lookahead otherwise."""
    frame = s.stack[-1]
    if frame[0] in ("excavate", "space"):
        board = s.static.board
        p = s.players[seat]
        base = evaluate(s, seat)
        out = []
        for a in actions:
            if a[0] != "dig":
                out.append(base)
                continue
            new = a[1]
            v = ((new & board.iron).bit_count() * RES_VALUE[IRON]
                 + (new & board.gold).bit_count() * RES_VALUE[GOLD]
                 + (new & board.gem).bit_count() * RES_VALUE[GEM]
                 + 0.15 * new.bit_count())
            nxt = s.clone() if _needs_lookahead(s, p, new) else None
            if nxt is not None:
                nxt.apply(a)
                out.append(evaluate(nxt, seat))
            else:
                out.append(base + v)
        return out
    out = []
    for a in actions:
        nxt = s.clone()
        nxt.apply(a)
        out.append(evaluate(nxt, seat))
    return out


def _needs_lookahead(s, p, new: int) -> bool:
    return False
