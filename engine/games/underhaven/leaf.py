"""Underhaven's search leaf: `leaf_value` (MCTS `leaf = "game"`), the heuristic `evaluate` plus
what the turn in progress still holds by the greedy bot's estimates, and its terms, named, for
the fitted leaf (MCTS `leaf = "fitted"`, engine/bots/leaf.py; the weights:
data/bots/underhaven.toml [leaf], `delve fit-leaf`).

`leaf_features` splits `leaf_value` into its terms, as `evaluate` adds them up."""

from __future__ import annotations

from . import bots as B

#: The terms of `leaf_value`, named (MCTS `leaf = "fitted"`, engine/bots/leaf.py).
LEAF_FEATURES = ("reputation", "end_scoring", "basic_resources", "power_tokens", "trade_goods",
                 "energy", "morale", "workers", "consultants", "bought", "buildings", "owed",
                 "worker_positions", "turn_in_progress")


def pending_value(s, seat: int) -> float:
    """What the seat's turn in progress still holds, by the greedy bot's own estimates: the
    best open order of each row still to cover (the best `markers` open orders with free
    arrangement), the postponed orders and a support not yet taken; or, when the seat is about
    to choose its card, the best card in its hand (`card_value`).  `evaluate` cannot see an
    order before it is carried out, so a search leaf inside a turn would otherwise value a
    card by the few orders its rollout happened to reach."""
    frame = s.stack[-1] if s.stack else None
    p = s.players[seat]
    if frame is not None and frame[0] == "card" and frame[1] == seat:
        cache: dict = {}
        return max((B.card_value(s, p, s.st.cards[c], cache) for c in set(p.hand)), default=0.0)
    if p.slot is None:
        return 0.0
    card = s.st.cards[p.slot]
    cache = {}
    v = 0.0
    if p.markers > 0:
        if p.university or p.ability == "free_arrangement":
            open_ = [B.order_value(s, p, card.rows[r][k], cache)
                     for r in range(3) for k in range(2) if (r, k) not in p.used_slots]
            v += sum(sorted(open_, reverse=True)[:p.markers])
        else:
            for r in range(3 - p.markers, 3):
                v += max(B.order_value(s, p, o, cache) for o in card.rows[r])
    for r, k in p.postponed:
        v += B.order_value(s, p, card.rows[r][k], cache)
    if p.support_pending:
        v += B.order_value(s, p, card.support, cache)
    return v


def leaf_value(s, seat: int) -> float:
    """The search bot's leaf (`Game.extra["leaf_value"]`, MCTS `leaf = "game"`): `evaluate`
    plus `pending_value`, so that a leaf values a card as the greedy bot does."""
    return B.evaluate(s, seat) + pending_value(s, seat)


def leaf_features(s, seat: int) -> tuple[list[float], int]:
    """(the terms `leaf_value` adds up, as `LEAF_FEATURES` names them; the rounds left): the
    fitted leaf weighs each term per rounds left (data/bots/underhaven.toml [leaf]).  Their
    plain sum is `leaf_value` (tests/bots/test_leaf.py checks it, up to rounding)."""
    p = s.players[seat]
    rounds = B._rounds_left(s)
    tv, pv, gv, ev = B._values(s)
    scale = min(1.0, rounds / 4)
    bld, done = s.bld, s.done
    owed = p.owed
    return [float(p.rep), float(B.end_points(s, seat)), sum(p.res) * tv, p.pt * pv, p.tg * gv,
            p.energy * ev, min(p.morale, 5) * B.MORALE_VALUE,
            len(p.workers) * B.WORKER_VALUE * scale, p.consultants * B.CONSULTANT_VALUE * scale,
            len(p.bought) * 0.8 * min(1.0, rounds / 3),
            sum(B._building_worth(s, bld[sp], done[sp], rounds) for sp in s.owned(seat)),
            -((owed[0] + owed[1] + owed[2]) * B.track_value(s) + owed[3] * B.pt_value(s))
            if owed is not None else 0.0,
            B.worker_terms(s, p, p.workers) if rounds > 1 else 0.0,
            pending_value(s, seat)], rounds
