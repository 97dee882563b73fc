import pytest

import engine.games.underwater_cities  # noqa: F401  (registers the game)
from engine.core.protocol import Seat
from engine.core.registry import get_game

BOARDS = ("embassy", "reef", "trench", "vent")


@pytest.fixture(scope="session")
def game():
    return get_game("underwater_cities")


@pytest.fixture(scope="session")
def rules(game):
    return game.load_rules().model


@pytest.fixture
def make_state(game, rules):
    """A game past the opening discards, at the first player's card choice."""

    def make(n=4, seed=1, rules_=None, boards=BOARDS):
        s = game.new_game(rules_ or rules, [Seat(b, "random") for b in boards[:n]], seed)
        while s.phase == "setup":
            s.apply(s.legal_actions()[0])
        return s

    return make
