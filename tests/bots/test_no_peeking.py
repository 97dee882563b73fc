"""No peeking (issue 13): a bot decides from what its seat can see, never from the truth.

For every registered game that declares `determinize` (and by hand for Glimmerdeep and
Underhaven): two states that differ only in what the seat cannot see give the same
observation, and the MCTS bot with the same seed makes the same decision from the same
search; a determinisation is consistent with the seat's view (observing it again gives the
same view: the same cards in every pool, nothing the seat could not know) and does not copy
the hidden truth (the sampled worlds differ from the real state).  Also: a seat's view lists
exactly the seat's real legal decisions, so the play loop may apply a bot's choice with the
bot's own legal list (`apply_legal`).
"""

from __future__ import annotations

import random

import pytest

from engine.bots.mcts import MCTSBot
from engine.bots.params import tuned
from engine.core.protocol import Seat
from engine.core.registry import all_games, builtin_games
from engine.core.rng import bot_rng

from stateviews import first_difference

HIDDEN_GAMES = sorted(g for g, game in all_games().items()
                      if game.determinize is not None and g in builtin_games())


def _midgame(game_id: str, seed: int, steps: int, n: int = 3):
    """A real state after `steps` greedy-random decisions (every seat, log off)."""
    game = all_games()[game_id]
    rules = game.load_rules().model
    f = game.factions(rules)
    n = n if n in game.player_counts else max(game.player_counts)
    state = game.new_game(rules, [Seat(f[i % len(f)], "random") for i in range(n)], seed,
                          log=False)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over():
            break
        legal = state.legal_actions()
        state.apply_legal(legal[rng.randrange(len(legal))], legal)
    return game, state


def _search(game, obs, seat, seed=5, budget=60):
    bot = MCTSBot(game, bot_rng(seed, seat), tuned(game.id).model_copy(update={"budget": budget}))
    legal = obs.legal_actions()
    action = bot.search(obs, seat, legal)
    stats = [(a, ch.n, round(ch.w, 9)) for a, ch in bot.root.children.items()]
    return action, stats


def _check_same_decision(game, s1, s2, seat):
    o1, o2 = game.observe(s1, seat), game.observe(s2, seat)
    assert first_difference(o1, o2) is None, first_difference(o1, o2)
    assert _search(game, o1, seat) == _search(game, o2, seat)


@pytest.mark.parametrize("game_id", HIDDEN_GAMES)
@pytest.mark.parametrize("steps", [0, 40])
def test_states_differing_only_in_hidden_parts_give_the_same_decision(game_id, steps):
    """The other state is a world the seat cannot tell from the real one (a determinisation
    from the seat's view, with an unrelated stream), so it differs only in hidden parts."""
    game, state = _midgame(game_id, 11, steps)
    seat = state.to_move()
    other = game.determinize(game.observe(state, seat), seat, random.Random(99))
    assert first_difference(state, other) is not None, "nothing hidden to vary"
    _check_same_decision(game, state, other, seat)


@pytest.mark.parametrize("game_id", HIDDEN_GAMES)
@pytest.mark.parametrize("steps", [0, 25, 60])
def test_determinisation_is_consistent_and_does_not_copy_the_truth(game_id, steps):
    game, state = _midgame(game_id, 23, steps)
    n_seats = len(state.players) if hasattr(state, "players") else state.n
    for seat in range(min(2, n_seats)):
        obs = game.observe(state, seat)
        worlds = [game.determinize(obs, seat, random.Random(k)) for k in range(8)]
        for w in worlds:   # the seat's view of the world is the seat's view of the truth
            d = first_difference(game.observe(w, seat), obs)
            assert d is None, d
        assert any(first_difference(w, state) is not None for w in worlds)
        again = game.determinize(obs, seat, random.Random(0))   # a function of (obs, rng)
        assert first_difference(again, worlds[0]) is None


@pytest.mark.parametrize("game_id", sorted(builtin_games()))
def test_a_seat_view_lists_the_seats_real_legal_decisions(game_id):
    game, state = _midgame(game_id, 5, 0)
    rng = random.Random(5)
    while not state.is_over() and state.step < 400:
        seat = state.to_move()
        legal = state.legal_actions()
        assert game.observe(state, seat).legal_actions() == legal, (state.step, state.phase)
        state.apply_legal(legal[rng.randrange(len(legal))], legal)


# -------------------------------------------------------------- by hand, per game
def test_glimmerdeep_deck_order_does_not_change_the_decision():
    """Rulebook "Setup": each player's excavation deck is shuffled face down; the building
    decks show their top card only.  Reordering what lies face down changes nothing."""
    game, s1 = _midgame("glimmerdeep", 3, 30)
    s2 = s1.clone(log=False)
    for p in s2.writable_players():   # a clone shares the records until it asks for its own
        p.deck = p.deck[: p.deck_pos] + p.deck[p.deck_pos:][::-1]
    s2.decks = {k: v[:-1][::-1] + v[-1:] for k, v in s2.decks.items()}
    assert [p.deck for p in s1.players] != [p.deck for p in s2.players]
    _check_same_decision(game, s1, s2, s1.to_move())


def test_glimmerdeep_world_keeps_every_deck_and_the_visible_cards():
    game, state = _midgame("glimmerdeep", 4, 30)
    seat = state.to_move()
    w = game.determinize(game.observe(state, seat), seat, random.Random(1))
    for p, q in zip(state.players, w.players):
        assert q.deck[: q.deck_pos] == p.deck[: p.deck_pos]           # flipped: as seen
        assert sorted(q.deck) == sorted(p.deck)                       # no card added or lost
    for k in state.decks:
        assert w.decks[k][-1:] == state.decks[k][-1:]                 # the face-up top card
        assert sorted(w.decks[k]) == sorted(state.decks[k])
    assert w.market == state.market


def test_underhaven_hidden_tiles_and_others_cards_do_not_change_the_decision():
    """Rulebook: octagons lie face down until explored; others' dealt starting cards and the
    decks are hidden.  Swapping face-down octagons, reordering the decks and exchanging the
    cards dealt to another seat with the starting-card deck changes nothing for the seat."""
    game, s1 = _midgame("underhaven", 8, 0)
    seat = s1.to_move()
    s2 = s1.clone(log=False)
    hidden = [o for o, t in enumerate(s2.tile) if t >= 0 and not s2.explored[o]]
    assert len(hidden) >= 2
    s2.tile[hidden[0]], s2.tile[hidden[1]] = s2.tile[hidden[1]], s2.tile[hidden[0]]
    s2.card_deck = s2.card_deck[::-1]
    s2.mission_deck = s2.mission_deck[::-1]
    other = next(i for i in range(s2.n) if i != seat and s2.dealt[i])
    if s2.start_card_deck:
        first = s2.dealt[other][0]
        s2.dealt[other] = (s2.start_card_deck[0],) + tuple(s2.dealt[other][1:])
        s2.start_card_deck = [first] + s2.start_card_deck[1:]
    assert first_difference(s1, s2) is not None
    _check_same_decision(game, s1, s2, seat)


def test_underhaven_world_deals_only_unaccounted_tiles_and_cards():
    game, state = _midgame("underhaven", 9, 0)
    seat = state.to_move()
    w = game.determinize(game.observe(state, seat), seat, random.Random(2))
    hidden = [o for o, t in enumerate(state.tile) if t >= 0 and not state.explored[o]]
    assert sorted([w.tile[o] for o in hidden] + w.box) == \
        sorted([state.tile[o] for o in hidden] + state.box)
    assert w.dealt[seat] == state.dealt[seat]                      # my own cards: as dealt
    others = [i for i in range(state.n) if i != seat]
    pool = lambda s: sorted([c for i in others for c in s.dealt[i]] + list(s.start_card_deck))
    assert pool(w) == pool(state)
    assert sorted(w.card_deck) == sorted(state.card_deck)
    assert w.players[seat].hand == state.players[seat].hand
