"""Clairvoyant search bots for measuring a ceiling, never for balance runs: `seer:B` is the
game's tuned MCTS with budget B whose every world is the *true* state, hidden cards and the
position of the chance stream included (the dice and draws to come, as long as the search
plays the moves the game will see).  So it reads what its seat cannot, and is registered
only by `python -m pipelines.ladder.paired ... --seer` (the bots of `delve` never know it).

What it is for: if even a player who sees every hidden card and the next rolls wins only a
little more than the fair share against greedy, the win rate a fair search can reach is
capped by the game's chance and by the heuristic both bots share, not by hidden information
or by the search's budget; if it wins far more, chance and hidden cards are where a fair
bot loses.  `peek:B` splits that edge: it sees the hidden cards as they lie but deals the
chance to come afresh in every world, as a fair search does; what `seer` wins beyond `peek`
is foreseeing the dice and draws, which no fair player can.  (A cheating search as a reference
point, as in the IS-MCTS experiments of Cowling, Powley and Whitehouse, 2012.)"""

from __future__ import annotations

import random
from dataclasses import replace

SEER = "seer"
PEEK = "peek"


def _truth_world(truth, fresh: random.Random | None = None):
    """A copy of the true state that plays on as the true game would: its own copy of the
    chance stream at the true stream's position (the true stream is read, never drawn from).
    With `fresh`, the hidden cards as they truly lie but a new chance stream drawn from
    `fresh` (what a fair determinisation does with the dice and draws to come)."""
    world = truth.clone(log=False)
    rng = getattr(truth, "rng", None)
    if fresh is not None:
        world.rng, world.rng_shared = random.Random(fresh.getrandbits(64)), False
    elif rng is not None:
        copy = random.Random()
        copy.setstate(rng.getstate())
        world.rng, world.rng_shared = copy, False
    else:                                  # a stream not built yet: built from the same seed
        world.rng_seed = getattr(truth, "rng_seed", None)
    return world


def seer_game(game):
    """`game` whose observation carries a reference to the true state (`_seer_truth`), which
    only a seer bot reads; every other bot sees the observation as before."""
    observe = game.observe

    def observe_with_truth(state, seat):
        obs = observe(state, seat)
        try:
            obs._seer_truth = state
        except AttributeError as exc:      # an observation that takes no attributes
            raise TypeError(f"{game.id}: --seer needs an observation object that takes "
                            f"attributes ({type(obs).__name__} does not)") from exc
        return obs

    return replace(game, observe=observe_with_truth)


def register_seer() -> None:
    """Bots `seer` / `seer:B` (the MCTS parameters of `mcts:B`, worlds from the truth) and
    `peek` / `peek:B` (the true hidden cards, but the chance to come dealt afresh from the
    bot's own stream in every world, as a fair search deals it): the seer's edge over a fair
    search split into what the hidden cards give and what foreseeing the dice gives."""
    from engine.bots.mcts import MCTSBot

    from .paired import register_search_bots

    class SeerBot(MCTSBot):
        name = SEER
        foresees_chance = True

        def __init__(self, game, rng, params=None):
            self._truth = None
            fresh = not self.foresees_chance

            def world(_obs, _seat, rng):
                return _truth_world(self._truth, rng if fresh else None)
            super().__init__(replace(game, determinize=world), rng, params)

        def decide(self, obs, seat: int):
            self._truth = getattr(obs, "_seer_truth", None)
            if self._truth is None:
                raise RuntimeError("seer bot: the game was not wrapped by seer_game")
            return super().decide(obs, seat)

    class PeekBot(SeerBot):
        name = PEEK
        foresees_chance = False

    register_search_bots({SEER: SeerBot, PEEK: PeekBot})
