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
    """A game past every player's first turn, in which it kept a colony card and recruited its
    first worker (RB:73-75: "Recruiting a Worker takes up a whole turn"; the first options
    each time), at the first player's first decision of the next round.  `sets`: rules
    overrides (`--set` syntax)."""

    cache = {}

    def make(n=4, seed=1, sets=(), colonies=COLONIES):
        key = tuple(sets)
        if key not in cache:
            cache[key] = game.load_rules(sets=key).model
        rules = cache[key]
        s = game.new_game(rules, [Seat(c, "random") for c in colonies[:n]], seed)
        while not all(s.alive):
            s.apply(s.legal_actions()[0])
        return s

    return make


@pytest.fixture
def first_turn(game):
    """A new game at its first decision: the first player keeps one of two colony cards, then
    recruits its first worker (RB:73-75; nobody is recruited at setup)."""

    def make(n=4, seed=1, sets=(), colonies=COLONIES):
        rules = game.load_rules(sets=tuple(sets)).model
        return game.new_game(rules, [Seat(c, "random") for c in colonies[:n]], seed)

    return make


@pytest.fixture
def next_turn():
    """Plays (ending every turn as soon as it may) to `seat`'s next action decision: the
    oxygen paid and the Energy Die rolled with whatever the test set up before."""

    def play(s, seat):
        start = (s.round, s.cur)
        while True:
            legal = s.legal_actions()
            s.apply(("end",) if ("end",) in legal else legal[0])
            if s.cur == seat and s.stack and s.stack[-1][0] == "act" and (s.round, s.cur) != start:
                return s

    return play


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
