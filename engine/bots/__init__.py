"""Game-agnostic bots.  A bot sees only `game.observe(state, seat)`.

A bot spec names a bot and, for a search bot, its budget: `random`, `greedy`, `mcts` (the
default budget) or `mcts:800` (800 forward-model calls per decision).  `canonical_spec` gives
the form recorded on `players.bot` (`mcts` -> `mcts:400`), so a run says what budget it used.
"""

from __future__ import annotations

import random

from ..core.errors import DelveError
from .greedy import GreedyBot
from .mcts import MCTSBot
from .params import DEFAULT_BUDGET, tuned
from .random_bot import RandomBot

BOTS = {"random": RandomBot, "greedy": GreedyBot, "mcts": MCTSBot}
SEARCH_BOTS = ("mcts",)


def split_spec(spec: str) -> tuple[str, int | None]:
    """('mcts', 800) for 'mcts:800', ('greedy', None) for 'greedy'; DelveError if malformed."""
    name, sep, budget = str(spec).strip().partition(":")
    if name not in BOTS:
        raise DelveError(f"Unknown bot '{spec}': expected one of {', '.join(BOTS)} "
                         f"(a search bot with an optional budget, e.g. mcts:800)")
    if not sep:
        return name, (DEFAULT_BUDGET if name in SEARCH_BOTS else None)
    if name not in SEARCH_BOTS:
        raise DelveError(f"Bot '{spec}': only a search bot ({', '.join(SEARCH_BOTS)}) takes a "
                         f"budget")
    if not budget.isdigit() or int(budget) < 1:
        raise DelveError(f"Bot '{spec}': the budget must be a positive whole number of "
                         f"forward-model calls per decision, e.g. mcts:800")
    return name, int(budget)


def canonical_spec(spec: str) -> str:
    name, budget = split_spec(spec)
    return f"{name}:{budget}" if budget is not None else name


def make_bot(spec: str, game, rng: random.Random):
    name, budget = split_spec(spec)
    if name in SEARCH_BOTS:
        params = tuned(game.id).model_copy(update={"budget": budget})
        return MCTSBot(game, rng, params)
    return BOTS[name](game, rng)
