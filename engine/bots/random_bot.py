from __future__ import annotations

from engine.core.rng import draw_index


class RandomBot:
    """Uniform over the legal decisions.

    It needs nothing but the legal decisions of its seat, which that seat always knows, so it
    declares `legal_only`: the play loop then hands it `state.legal_actions()` without building
    an observation (the same list `observe(state, seat).legal_actions()` gives, so the same
    choices, one state copy per decision cheaper)."""

    name = "random"
    legal_only = True
    # `pick(actions)` is `actions[self.rng.randrange(len(actions))]`, one draw: a game offering
    # `sample_legal(rng)` (the same draw without listing every option) may pick for it.
    uniform = True

    def __init__(self, game, rng):
        self.game = game
        self.rng = rng

    def choose(self, obs, seat: int):
        return self.pick(obs.legal_actions())

    def pick(self, actions):
        return actions[draw_index(self.rng, len(actions))]   # = rng.randrange(len(actions))
