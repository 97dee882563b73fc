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


FACTIONS = ("deepdelvers", "dustwhiskers", "forgeburrowers", "gemwardens", "gildtails",
            "ironclads", "nightbarons", "shellwrights")
MAPS = ("bioluminescent", "trade_routes", "snowy_summit", "underground_forest")


@pytest.fixture
def random_games_ok(game, rules):
    """Play random legal games with `faction` in every seat position, 1-4 players and every map;
    after every step the game's invariants hold (no negative resources...), and at the end each
    seat's score events sum to its score and its `vp_track` events equal its VP track."""
    import random

    def check(faction: str, n_games: int = 16, seed: int = 0) -> int:
        others = [f for f in FACTIONS if f != faction]
        steps = 0
        for i in range(n_games):
            n = 1 + i % 4
            seats = others[(i * 3) % 7:] + others[: (i * 3) % 7]
            fac = seats[: n - 1]
            fac.insert(i % n, faction)
            s = game.new_game(rules, [Seat(f, "random") for f in fac], seed + i, map=MAPS[i % 4])
            rng = random.Random(seed + i)
            while not s.is_over():
                acts = s.legal_actions()
                s.apply(acts[rng.randrange(len(acts))])
                assert game.invariants(s) == []
                steps += 1
            totals = s.log.totals(n)
            for r, p in zip(s.result(), s.players):
                assert r.score == sum(r.breakdown.values()) == totals[r.seat]
                assert r.breakdown.get("vp_track", 0) == p.vp
        return steps

    return check
