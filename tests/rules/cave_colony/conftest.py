import pytest

from cc_helpers import plain_worker

from engine.core.protocol import Seat
from engine.core.registry import get_game

COLONIES = ("red", "green", "blue", "yellow")


@pytest.fixture(scope="session")
def game():
    return get_game("cave_colony")


@pytest.fixture(scope="session")
def rules(game):
    return game.load_rules().model


@pytest.fixture
def make_state(game):
    """A game past setup (every first recruit with the first options), at the first player's
    first decision.  `sets`: rules overrides (`--set` syntax)."""

    cache = {}

    def make(n=4, seed=1, sets=(), colonies=COLONIES):
        key = tuple(sets)
        if key not in cache:
            cache[key] = game.load_rules(sets=key).model
        rules = cache[key]
        s = game.new_game(rules, [Seat(c, "random") for c in colonies[:n]], seed)
        while s.phase == "setup":
            s.apply(s.legal_actions()[0])
        return s

    return make


@pytest.fixture
def at_actions(make_state):
    """A game at the first player's action decisions (its colony card kept, oxygen paid,
    energy rolled); `energy` sets the turn's energy."""

    def make(n=4, seed=1, sets=(), energy=None, plain=True):
        s = make_state(n=n, seed=seed, sets=sets)
        while s.stack[-1][0] != "act":
            s.apply(s.legal_actions()[0])
        if plain:
            for seat in range(s.n):
                plain_worker(s, seat)
        if energy is not None:
            s.energy = energy
        s.free = 0
        return s

    return make
