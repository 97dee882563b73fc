"""The terms of Glimmerdeep's search leaf, named, for the fitted leaf (MCTS `leaf = "fitted"`,
engine/bots/leaf.py; the weights: data/bots/glimmerdeep.toml [leaf], `delve fit-leaf`).

`leaf_features` splits `bots.evaluate` (the heuristic the search's leaf uses) into its terms,
as `evaluate` adds them up; the bucket is the rounds left (the phase counted as `evaluate`
counts it), so a fit can weigh a building's future activations, an unspent resource or the
map objective differently early and late."""

from __future__ import annotations

from . import bots as B
from .state import GEM, GOLD, IRON

#: The terms of `evaluate`, named (MCTS `leaf = "fitted"`, engine/bots/leaf.py).
LEAF_FEATURES = ("vp", "buildings_vp", "buildings_future", "iron", "gold", "gems", "room",
                 "calling_and_traits", "map_objective")


def leaf_features(s, seat: int) -> tuple[list[float], int]:
    """(the terms `evaluate` adds up, as `LEAF_FEATURES` names them; the rounds left).  Their
    plain sum is `evaluate` (tests/bots/test_leaf.py checks it, up to rounding)."""
    p = s.players[seat]
    rounds_left = B.rounds_left(s)
    worth = B._card_worth(s.static)
    bvp = fut = 0.0
    for kind, cid, _fp in p.buildings:
        vp, per_round = worth[kind, cid]
        bvp += vp
        fut += per_round * rounds_left
    free = (p.exc & ~p.built).bit_count()
    return [float(p.vp), bvp, fut, p.res[IRON] * B.RES_VALUE[IRON],
            p.res[GOLD] * B.RES_VALUE[GOLD], p.res[GEM] * B.RES_VALUE[GEM],
            0.15 * min(free, 12) * (1 if rounds_left else 0),
            float(sum(v for _c, v in s.hooks[seat].final_scoring(s, p))),
            float(B.objective_estimate(s, p))], rounds_left
