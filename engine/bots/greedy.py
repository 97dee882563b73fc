from __future__ import annotations


class GreedyBot:
    """One-step lookahead on the game's heuristic; ties broken by the bot's own stream.

    Uses the game's `action_values` fast path when it declares one, otherwise clones the
    observation, applies each action and evaluates the result.
    """

    name = "greedy"

    def __init__(self, game, rng):
        self.game = game
        self.rng = rng

    def choose(self, obs, seat: int):
        actions = obs.legal_actions()
        if len(actions) == 1:
            return actions[0]
        if self.game.action_values is not None:
            values = self.game.action_values(obs, seat, actions)
        else:
            values = []
            for a in actions:
                nxt = obs.clone()
                nxt.apply(a)
                values.append(self.game.evaluate(nxt, seat))
        best = max(values)
        ties = [a for a, v in zip(actions, values) if v >= best - 1e-9]
        return ties[self.rng.randrange(len(ties))] if len(ties) > 1 else ties[0]
