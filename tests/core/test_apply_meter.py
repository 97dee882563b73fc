"""The engine's count of applied actions (`engine.core.frames.applies`), which search bots
read to charge their budget at real cost (engine/bots/mcts.py): every action applied counts
one, an illegal one none, and the count is the thread's own."""

from __future__ import annotations

import threading

import pytest

from engine.core.errors import IllegalAction
from engine.core.frames import applies
from engine.core.protocol import Seat
from engine.core.registry import get_game


@pytest.mark.parametrize("game_id", ["glimmerdeep", "underhaven", "underwater_cities",
                                     "cave_colony"])
def test_every_applied_action_counts_one_and_an_illegal_one_none(game_id):
    game = get_game(game_id)
    rules = game.load_rules().model
    f = game.factions(rules)
    state = game.new_game(rules, [Seat(f[i], "random") for i in range(2)], 7, log=False)
    before = applies()
    with pytest.raises(IllegalAction):
        state.apply(("no such action",))
    assert applies() == before
    for _ in range(5):
        state.apply(state.legal_actions()[0])
    # an action the rules apply on their own copies (Underwater Cities probes what a slot
    # leaves usable) counts as well: there at least the five, elsewhere exactly
    if game_id == "underwater_cities":
        assert applies() >= before + 5
    else:
        assert applies() == before + 5
    copy = state.clone(log=False)
    mark = applies()
    copy.apply(copy.legal_actions()[0])
    assert applies() >= mark + 1


def test_the_count_is_the_thread_s_own():
    game = get_game("glimmerdeep")
    rules = game.load_rules().model
    f = game.factions(rules)
    state = game.new_game(rules, [Seat(f[i], "random") for i in range(2)], 7, log=False)
    seen = {}

    def other():
        seen["start"] = applies()
        s = state.clone(log=False)
        for _ in range(3):
            s.apply(s.legal_actions()[0])
        seen["end"] = applies()

    mine = applies()
    t = threading.Thread(target=other)
    t.start()
    t.join()
    assert seen["end"] - seen["start"] == 3
    assert applies() == mine          # the other thread's actions are not counted here
