"""The search leaf (`leaf` in engine/bots/params.py): "evaluate" (the game's heuristic) or
"game" (the game's `extra["leaf_value"]`), and Underhaven's leaf valuing a card as its greedy
bot does."""

from __future__ import annotations

import dataclasses

import pytest

from engine.bots import canonical_spec, make_bot
from engine.bots.mcts import MCTSBot
from engine.bots.params import MCTSParams, tuned
from engine.core.errors import DelveError
from engine.core.protocol import Seat
from engine.core.registry import get_game
from engine.core.rng import bot_rng
from engine.games.underhaven import bots as uh_bots

from nim import NIM, NimState, nim_sum


def _won_with_perfect_play(state, seat) -> float:
    """Nim's exact value: the seat not to move wins when the heaps' XOR is 0."""
    if state.is_over():
        return 1.0 if state.winner == seat else 0.0
    to_move_wins = nim_sum(state.heaps) != 0
    return 1.0 if to_move_wins == (state.to_move() == seat) else 0.0


NIM_LEAF = dataclasses.replace(NIM, extra={"leaf_value": _won_with_perfect_play})


def test_leaf_game_uses_the_games_leaf_value():
    """Heaps 1, 2, 4, no rollout (depth 0), one iteration per option: with the exact leaf the
    search takes the only winning move (1 from the heap of 4); with the naive heuristic (stones
    taken) it grabs the most stones instead, so the parameter decides."""
    params = MCTSParams(budget=7, c=0.0, depth=0, widen=0, scale=0.1)
    for seed in range(3):
        state = NimState([1, 2, 4])
        state.apply(MCTSBot(NIM_LEAF, bot_rng(seed, 0), params.model_copy(
            update={"leaf": "game"})).choose(state.clone(), 0))
        assert nim_sum(state.heaps) == 0, seed
        naive = NimState([1, 2, 4])
        naive.apply(MCTSBot(NIM_LEAF, bot_rng(seed, 0), params).choose(naive.clone(), 0))
        assert nim_sum(naive.heaps) != 0, seed
    # A game without the hook falls back on its heuristic.
    bot = MCTSBot(NIM, bot_rng(0, 0), params.model_copy(update={"leaf": "game"}))
    assert bot.choose(NimState([1, 2, 4]), 0) in NimState([1, 2, 4]).legal_actions()


def test_leaf_spec_and_defaults():
    assert canonical_spec("mcts:50/leaf=game") == "mcts:50/leaf=game"
    with pytest.raises(DelveError, match="leaf"):
        canonical_spec("mcts:50/leaf=oracle")
    assert MCTSParams().leaf == "evaluate"
    assert tuned("glimmerdeep").leaf == "evaluate"   # Glimmerdeep's search is unchanged


def test_underhaven_leaf_values_a_card_as_greedy_does():
    """At a card decision the leaf is the heuristic plus the best card in hand by the greedy
    bot's `card_value`; right after a card is chosen it is the heuristic before plus that
    card's value (its play reputation now scored, its orders and support still to come); at the
    end of the turn (no card in the console) it is the heuristic alone."""
    game = get_game("underhaven")
    rules = game.load_rules().model
    f = game.factions(rules)
    state = game.new_game(rules, [Seat(f[i], "greedy") for i in range(4)], 5, log=False)
    greedy = make_bot("greedy", game, bot_rng(5, 0))
    cards = ends = 0
    for _ in range(200):
        seat = state.to_move()
        frame = state.stack[-1]
        if frame[0] == "card":
            legal = state.legal_actions()
            p = state.players[seat]
            base = uh_bots.evaluate(state, seat)
            values = {a: uh_bots.card_value(state, p, state.st.cards[a[1]]) for a in legal}
            assert uh_bots.leaf_value(state, seat) == pytest.approx(base + max(values.values()))
            for a in legal:
                if state.st.cards[a[1]].support.kind == "free_specialist":
                    continue                 # carried out at once: not a pure estimate
                nxt = state.clone(log=False)
                nxt.apply_legal(a, legal)
                assert uh_bots.leaf_value(nxt, seat) == pytest.approx(base + values[a]), a
                cards += 1
        a, legal = greedy.decide(game.observe(state, seat), seat)
        state.apply_legal(a, legal)
        if state.players[seat].slot is None and frame[0] != "card" and state.stack \
                and state.stack[-1][0] == "card" and state.stack[-1][1] != seat:
            ends += 1
            assert uh_bots.pending_value(state, seat) == 0.0
    assert cards >= 8 and ends >= 2
