"""The terms of Underhaven's search leaf, named, for the fitted leaf (MCTS `leaf = "fitted"`,
engine/bots/leaf.py; the weights: data/bots/underhaven.toml [leaf], `delve fit-leaf`).

`leaf_features` splits `bots.leaf_value` (the heuristic `evaluate` plus what the turn in
progress still holds) into its terms, as `evaluate` adds them up."""

from __future__ import annotations

from . import bots as B

#: The terms of `leaf_value`, named (MCTS `leaf = "fitted"`, engine/bots/leaf.py).
LEAF_FEATURES = ("reputation", "end_scoring", "basic_resources", "power_tokens", "trade_goods",
                 "energy", "morale", "workers", "consultants", "bought", "buildings", "owed",
                 "worker_positions", "turn_in_progress")


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
            B.pending_value(s, seat)], rounds
