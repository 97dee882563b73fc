"""Issue 6, fault test 7 (default run): a hypothesis property test over the *step sequences*
of every registered game: whatever legal decisions are taken, the protocol and the game's
invariants hold after every step and the scores add up (pipelines.bench.soak.check_game).  The
long plain run, 10,000 random games per game, is `make soak`, outside the default run."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.registry import all_games, builtin_games
from pipelines.bench.soak import check_game, random_setup

GAMES = sorted(builtin_games())


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(index=st.integers(0, 10**6),
       choices=st.lists(st.integers(0, 2**16), min_size=0, max_size=300))
def test_any_step_sequence_keeps_the_invariants(game_id, index, choices):
    """The first decisions follow the drawn sequence (hypothesis shrinks a failure to a short
    one), the rest follow a generator seeded by the game."""
    game = all_games()[game_id]
    rules = game.load_rules().model
    seats, map_id, seed = random_setup(game, rules, index, 7)
    rest = random.Random(seed)

    def choose(step, actions):
        return choices[step] if step < len(choices) else rest.randrange(len(actions))
    assert check_game(game, rules, seats, map_id, seed, choose) > 0


def test_the_check_catches_a_broken_invariant(monkeypatch):
    """The property can fail: a game whose invariants report a problem is caught at once."""
    from dataclasses import replace

    from pipelines.bench.soak import InvariantBroken
    game = all_games()["glimmerdeep"]
    rules = game.load_rules().model
    broken = replace(game, invariants=lambda state: ["made-up problem"] if state.step == 3 else [])
    seats, map_id, seed = random_setup(game, rules, 0, 7)
    with pytest.raises(InvariantBroken, match="step 3: made-up problem"):
        check_game(broken, rules, seats, map_id, seed, lambda step, actions: 0)
