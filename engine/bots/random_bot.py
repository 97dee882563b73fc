from __future__ import annotations


class RandomBot:
    """Uniform over the legal decisions."""

    name = "random"

    def __init__(self, game, rng):
        self.game = game
        self.rng = rng

    def choose(self, obs, seat: int):
        actions = obs.legal_actions()
        return actions[self.rng.randrange(len(actions))]
