"""`pipelines/ladder/seer.py`: the clairvoyant search used as a ceiling (`paired --seer`)."""

from __future__ import annotations

import random

import pytest

import engine.bots as B
from engine.core.errors import DelveError
from engine.core.protocol import Seat
from engine.core.registry import get_game
from pipelines.ladder.paired import main, play
from pipelines.ladder.seer import _truth_world, register_seer, seer_game


@pytest.fixture
def seer(monkeypatch):
    """`seer` registered for one test only (engine.bots restored after)."""
    monkeypatch.setattr(B, "BOTS", dict(B.BOTS))
    monkeypatch.setattr(B, "SEARCH_BOTS", B.SEARCH_BOTS)
    monkeypatch.setattr(B, "make_bot", B.make_bot)
    register_seer()


def _started_game(seed=5):
    game = get_game("cave_colony")
    rules = game.load_rules().model
    s = game.new_game(rules, [Seat("red"), Seat("green")], seed)
    rng = random.Random(1)
    while s.step < 30:                    # a few random moves in: cards drawn, tiles placed
        s.apply(rng.choice(s.legal_actions()))
    return game, s


def test_the_seers_world_is_the_truth_and_plays_on_as_the_truth_would():
    game, truth = _started_game()
    world = _truth_world(truth)
    assert world.deck == truth.deck                       # the hidden cards as they lie
    before = truth.rng.getstate()
    assert world.chance().random() == truth.chance().random()   # the next roll, foreseen
    truth.rng.setstate(before)
    _truth_world(truth).chance().random()
    assert truth.rng.getstate() == before                 # the truth's stream is only read
    # a fair determinisation deals the hidden cards again (the seer's do not change)
    obs = game.observe(truth, 0)
    dealt = [game.determinize(obs, 0, random.Random(k)).deck for k in range(8)]
    assert any(d != truth.deck for d in dealt)
    assert all(_truth_world(truth).deck == truth.deck for _ in range(3))


def test_only_the_paired_script_knows_the_seer():
    assert "seer" not in B.BOTS                           # delve's own bots never see it
    with pytest.raises(DelveError, match="Unknown bot 'seer:10'"):
        main(["cave_colony", "seer:10", "--players", "2", "--games", "1"])


def test_a_seer_plays_deterministic_games_and_needs_the_wrapped_game(seer):
    rows = play("cave_colony", ["seer:20"], "greedy", 2, 3, [0, 1], seer=True)["seer:20"]
    again = play("cave_colony", ["seer:20"], "greedy", 2, 3, [0, 1], seer=True)["seer:20"]
    assert [(r["won"], r["rounds"]) for r in rows] == [(r["won"], r["rounds"]) for r in again]
    game, truth = _started_game()
    bot = B.make_bot("seer:20", game, random.Random(0))
    with pytest.raises(RuntimeError, match="seer_game"):
        bot.decide(game.observe(truth, truth.to_move()), truth.to_move())
    wrapped = seer_game(game)
    seat = truth.to_move()
    action, legal = bot.decide(wrapped.observe(truth, seat), seat)
    assert action in legal


def test_peek_sees_the_cards_but_deals_the_chance_to_come_afresh():
    game, truth = _started_game()
    worlds = [_truth_world(truth, random.Random(k)) for k in range(4)]
    assert all(w.deck == truth.deck for w in worlds)       # the hidden cards as they lie
    before = truth.rng.getstate()
    rolls = {w.chance().random() for w in worlds}
    assert truth.rng.getstate() == before
    assert truth.chance().random() not in rolls            # not the truth's next roll
    assert len(rolls) == 4                                 # a fresh stream per world
    again = _truth_world(truth, random.Random(0)).chance().random()
    assert again == _truth_world(truth, random.Random(0)).chance().random()


def test_peek_plays_through_the_paired_script(seer):
    rows = play("cave_colony", ["peek:20"], "greedy", 2, 3, [0], seer=True)["peek:20"]
    assert rows[0]["seat"] == 0 and rows[0]["rounds"] > 0
