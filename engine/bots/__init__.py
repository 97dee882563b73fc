"""Game-agnostic bots.  A bot sees only `game.observe(state, seat)`.

A bot spec names a bot and, for a search bot, its budget: `random`, `greedy`, `mcts` (the
default budget) or `mcts:800` (800 forward-model calls per decision).  A search bot's tuned
parameters (data/bots/<game>.toml) may be overridden in the spec for tuning runs, after
slashes: `mcts:800/c=0.3/depth=4/rollout=greedy/widen=8/reward=rank/scale=8/reuse=true`.
`canonical_spec` gives the form recorded on `players.bot` (`mcts` -> `mcts:400`), so a run
says what budget (and overrides) it used.
"""

from __future__ import annotations

import random

from pydantic import ValidationError

from ..core.errors import DelveError
from ..core.rng import bot_rng
from .greedy import GreedyBot
from .mcts import MCTSBot
from .params import DEFAULT_BUDGET, MCTSParams, tuned
from .random_bot import RandomBot

BOTS = {"random": RandomBot, "greedy": GreedyBot, "mcts": MCTSBot}
SEARCH_BOTS = ("mcts",)


def boolean(text: str) -> bool:
    """'true'/'false' (also 1/0, yes/no, on/off) of a spec override; ValueError otherwise."""
    low = text.strip().lower()
    if low in ("true", "1", "yes", "on"):
        return True
    if low in ("false", "0", "no", "off"):
        return False
    raise ValueError(text)


OVERRIDES = {"c": float, "depth": int, "rollout": str, "widen": int, "order": int,
             "reward": str, "scale": float, "prior": float, "leaf": str, "reuse": boolean, "opponents": str,
             "worlds": int, "narrow": int}


def split_spec(spec: str) -> tuple[str, int | None]:
    """('mcts', 800) for 'mcts:800', ('greedy', None) for 'greedy'; DelveError if malformed."""
    name, budget, _ = parse_spec(spec)
    return name, budget


def parse_spec(spec: str) -> tuple[str, int | None, dict]:
    """(name, budget, parameter overrides) of a bot spec; DelveError naming what is wrong."""
    head, *extra = str(spec).strip().split("/")
    name, sep, budget = head.partition(":")
    if name not in BOTS:
        raise DelveError(f"Unknown bot '{spec}': expected one of {', '.join(BOTS)} "
                         f"(a search bot with an optional budget, e.g. mcts:800)")
    if name not in SEARCH_BOTS:
        if sep or extra:
            raise DelveError(f"Bot '{spec}': only a search bot ({', '.join(SEARCH_BOTS)}) takes "
                             f"a budget or parameters")
        return name, None, {}
    if sep and (not budget.isdigit() or int(budget) < 1):
        raise DelveError(f"Bot '{spec}': the budget must be a positive whole number of "
                         f"forward-model calls per decision, e.g. mcts:800")
    over = {}
    for item in extra:
        key, eq, val = item.partition("=")
        if key not in OVERRIDES or not eq:
            raise DelveError(f"Bot '{spec}': '{item}' is not a parameter override; expected "
                             f"KEY=VALUE with KEY one of {', '.join(OVERRIDES)}")
        try:
            over[key] = OVERRIDES[key](val)
        except ValueError:
            raise DelveError(f"Bot '{spec}': {key}={val} is not a {OVERRIDES[key].__name__}") \
                from None
    try:
        MCTSParams(**over)
    except ValidationError as exc:  # a value out of range or not an allowed choice
        err = exc.errors(include_url=False)[0]
        raise DelveError(f"Bot '{spec}': {err['loc'][0]}: {err['msg']}") from None
    return name, int(budget) if sep else DEFAULT_BUDGET, over


def canonical_spec(spec: str) -> str:
    name, budget, over = parse_spec(spec)
    if budget is None:
        return name
    return "/".join([f"{name}:{budget}"] + [f"{k}={_text(v)}" for k, v in over.items()])


def _text(value) -> str:
    """An override as the spec writes it (booleans as true/false, which parse back)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def bot_params(spec: str, game_id: str) -> MCTSParams:
    """A search bot's parameters: the game's tuned ones, the spec's budget and overrides."""
    _name, budget, over = parse_spec(spec)
    return tuned(game_id).model_copy(update={"budget": budget, **over})


def make_bot(spec: str, game, rng: random.Random):
    name, _budget, _over = parse_spec(spec)
    if name in SEARCH_BOTS:
        return MCTSBot(game, rng, bot_params(spec, game.id))
    return BOTS[name](game, rng)


def seat_bots(game, seats, seed: int) -> list:
    """Each seat's bot for the game of `seed`, each with its own stream (`bot_rng(seed, seat)`),
    as every game is played: the play loop, replays and the bench's timed loop share it, so the
    same seed gives the same bots' choices everywhere."""
    return [make_bot(s.bot, game, bot_rng(seed, i)) for i, s in enumerate(seats)]
