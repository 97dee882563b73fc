import pytest

from engine.core.protocol import Seat
from engine.core.registry import get_game


@pytest.fixture(scope="session")
def game():
    return get_game("glimmerdeep")


@pytest.fixture(scope="session")
def rules(game):
    return game.load_rules().model


@pytest.fixture
def make_state(game, rules):
    """A fresh game; `factions` default to two whose callings do not change base mechanics."""

    def make(n=2, map="bioluminescent", factions=("dustwhiskers", "shellwrights", "gildtails", "ironclads"),
             seed=1, rules_=None):
        seats = [Seat(f, "random") for f in factions[:n]]
        return game.new_game(rules_ or rules, seats, seed, map=map)

    return make
