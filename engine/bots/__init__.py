"""Game-agnostic bots.  A bot sees only `game.observe(state, seat)`."""

from __future__ import annotations

import random

from ..core.errors import DelveError
from .greedy import GreedyBot
from .random_bot import RandomBot

BOTS = {"random": RandomBot, "greedy": GreedyBot}


def make_bot(name: str, game, rng: random.Random):
    try:
        cls = BOTS[name]
    except KeyError:
        raise DelveError(f"Unknown bot '{name}' in --bots: expected one of {', '.join(BOTS)}") from None
    return cls(game, rng)
