from __future__ import annotations


def option_values(game, state, seat: int, actions: list) -> list[float]:
    """The game's heuristic for `seat` after each of `actions` (this state's legal list): the
    game's `action_values` fast path when it declares one, otherwise a clone per option."""
    if game.action_values is not None:
        return game.action_values(state, seat, actions)
    values = []
    for a in actions:
        nxt = state.clone()
        nxt.apply_legal(a, actions) if hasattr(nxt, "apply_legal") else nxt.apply(a)
        values.append(game.evaluate(nxt, seat))
    return values


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
        return self.decide(obs, seat)[0]

    def decide(self, obs, seat: int):
        """(action, legal): the choice and the legal list it came from (for `apply_legal`)."""
        actions = obs.legal_actions()
        if len(actions) == 1:
            return actions[0], actions
        values = option_values(self.game, obs, seat, actions)
        best = max(values)
        ties = [a for a, v in zip(actions, values) if v >= best - 1e-9]
        return (ties[self.rng.randrange(len(ties))] if len(ties) > 1 else ties[0]), actions
