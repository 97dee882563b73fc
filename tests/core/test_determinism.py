"""Determinism (DESIGN.md): a game is a pure function of (rules, seats, seed); the global
generators are never used; observations hide what the seat may not see; golden games replay."""

import json
import random

import numpy as np
import pytest

from engine.bots import make_bot
from engine.core.golden import golden_dir, replay
from engine.core.play import play_game
from engine.core.protocol import Seat
from engine.core.registry import all_games, builtin_games
from engine.core.rng import bot_rng

GAMES = sorted(builtin_games())


def _seats(game, rules, bots=("greedy", "random", "greedy", "random")):
    factions = game.factions(rules)
    n = max(game.player_counts)
    return [Seat(factions[i], bots[i % len(bots)]) for i in range(n)]


def _play_disturbed(game, rules, seats, seed, disturb: bool):
    state = game.new_game(rules, seats, seed)
    bots = [make_bot(s.bot, game, bot_rng(seed, i)) for i, s in enumerate(seats)]
    while not state.is_over():
        if disturb:  # reseed and draw from the global generators mid-game
            random.seed(state.step)
            random.random()
            np.random.seed(state.step)
            np.random.rand(3)
        seat = state.to_move()
        state.apply(bots[seat].choose(game.observe(state, seat), seat))
    return state.log.moves(), state.log.scores()


@pytest.mark.parametrize("game_id", GAMES)
def test_global_generators_do_not_change_the_game(game_id):
    game = all_games()[game_id]
    rules = game.load_rules().model
    seats = _seats(game, rules)
    assert _play_disturbed(game, rules, seats, 99, False) == _play_disturbed(game, rules, seats, 99, True)


@pytest.mark.parametrize("game_id", GAMES)
def test_same_seed_same_rows(game_id):
    game = all_games()[game_id]
    rules = game.load_rules().model
    seats = _seats(game, rules)
    a = play_game(game, rules, seats, 5)
    b = play_game(game, rules, seats, 5)
    c = play_game(game, rules, seats, 6)
    assert (a.moves, a.scores, a.players) == (b.moves, b.scores, b.players)
    assert a.moves != c.moves


def test_observation_hides_deck_order():
    """Bots see no deck order: two games differing only in the hidden order of the
    excavation decks look the same to a seat, and the bots choose the same."""
    game = all_games()["glimmerdeep"]
    rules = game.load_rules().model
    seats = _seats(game, rules)
    s1 = game.new_game(rules, seats, 42)
    s2 = s1.clone()
    for p in s2.writable_players():  # reorder the unseen part of every deck (its own records)
        rest = p.deck[p.deck_pos:]
        p.deck = p.deck[: p.deck_pos] + rest[::-1]
    s2.decks = {k: sorted(v[:-1], reverse=True) + v[-1:] for k, v in s2.decks.items()}
    assert [p.deck for p in s1.players] != [p.deck for p in s2.players]
    o1, o2 = game.observe(s1, 0), game.observe(s2, 0)
    assert [p.deck for p in o1.players] == [p.deck for p in o2.players]
    assert o1.decks == o2.decks
    b1 = make_bot("greedy", game, bot_rng(42, 0))
    b2 = make_bot("greedy", game, bot_rng(42, 0))
    assert b1.choose(o1, 0) == b2.choose(o2, 0)


@pytest.mark.parametrize("game_id", GAMES)
def test_golden_games_replay_to_identical_scores(game_id):
    game = all_games()[game_id]
    rules = game.load_rules().model
    path = golden_dir(game_id) / "games.jsonl"
    assert path.exists(), f"record golden games with: python -m engine.core.golden record {game_id}"
    records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    assert len(records) >= 4
    for rec in records:
        state = replay(game, rules, rec)
        assert state.is_over()
        assert [r.score for r in state.result()] == rec["scores"]
