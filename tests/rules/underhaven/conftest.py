import pytest

import engine.games.underhaven  # noqa: F401  (registers the game)
from engine.core.protocol import Seat
from engine.core.registry import get_game

FACTIONS = ("deltas", "threecees", "tectonics", "enigmas")   # yellow, red, green, blue


@pytest.fixture(scope="session")
def game():
    return get_game("underhaven")


@pytest.fixture(scope="session")
def rules(game):
    return game.load_rules().model


@pytest.fixture
def make_state(game, rules):
    """A game past setup (first options everywhere), at the first player's card choice."""

    def make(n=2, factions=FACTIONS, seed=1, rules_=None):
        s = game.new_game(rules_ or rules, [Seat(f, "random") for f in factions[:n]], seed)
        while s.phase == "setup":
            s.apply(s.legal_actions()[0])
        return s

    return make
