"""The heuristic: greedy (engine/bots/greedy.py on bots.evaluate / action_values) plays every
decision and clearly beats random (issue 15: at least 60% of four-player games with one greedy
seat; here the lower end of a 95% Wilson interval over 48 games must clear 60%)."""

import pytest
from statsmodels.stats.proportion import proportion_confint

from engine.core.play import play_game
from engine.core.protocol import Seat
from engine.core.rng import game_seed


@pytest.mark.slow
def test_greedy_beats_random(game, rules):
    factions = game.factions(rules)
    n, wins = 48, 0
    for i in range(n):
        g = i % 4
        seats = [Seat(factions[(i + s) % 4], "greedy" if s == g else "random") for s in range(4)]
        rec = play_game(game, rules, seats, game_seed(515, i), log=False)
        wins += any(p["won"] and p["seat"] == g for p in rec.players)
    low, _high = proportion_confint(wins, n, alpha=0.05, method="wilson")
    assert low > 0.60, f"greedy won {wins}/{n}, 95% lower bound {low:.1%}"


def test_greedy_plays_every_kind_of_decision(game, rules):
    """Greedy and random take every decision the game offers: moves, orientations, tiles,
    collects, spends, equipment, fights and attack energy, steals, traits seen or unseen,
    equipment and colony cards, deaths and anomalies."""
    seen = set()
    for i in range(4):
        seats = [Seat(f, ("greedy", "random")[(i + s) % 2]) for s, f in enumerate(game.factions(rules))]
        rec = play_game(game, rules, seats, game_seed(77, i))
        seen |= set(rec.moves["action"])
        seen |= {"trait " + d.split()[1] for a, d in zip(rec.moves["action"], rec.moves["detail"])
                 if a == "trait"}
    assert {"move", "explore", "place", "collect", "spend", "use", "fight", "attack", "steal",
            "colony_card", "equipment", "trait seen", "trait unseen", "end", "die",
            "anomaly"} <= seen


def test_the_unseen_trait_is_valued_as_the_average_hidden_card(make_state, game):
    from engine.games.cave_colony import cards as C
    from engine.games.cave_colony.bots import action_values, trait_value
    from engine.games.cave_colony.view import _get, hidden_slots
    s = make_state()
    seat = s.stack[-1][1]
    s.alive[seat] = False
    s.then(("recruit", seat))
    s.stack.clear()
    s._advance()
    obs = game.observe(s, seat)
    pool = [_get(obs, r) for r in hidden_slots(obs, seat)[C.POSITIVE]]
    seen, unseen = action_values(obs, seat, [("trait", "seen"), ("trait", "unseen")])
    assert seen == trait_value(obs, C.POSITIVE, s.stack[-1][3])
    assert unseen == pytest.approx(sum(trait_value(obs, C.POSITIVE, c) for c in pool) / len(pool))


def test_the_heuristic_weights_are_data(tmp_path):
    """data/bots/cave_colony.toml [heuristic] sets the heuristic's weights by name; an unknown
    name or a wrong type is an error naming the file and the field."""
    from engine.core.errors import RulesError
    from engine.games.cave_colony import bots

    assert bots._load_weights()["W_OPEN"] == bots.W_OPEN == 0.1
    path = tmp_path / "cave_colony.toml"
    path.write_text("[heuristic]\nW_CARD = 10\nEXPLORE_BAG = false\n")
    assert bots._load_weights(path) == {"W_CARD": 10.0, "EXPLORE_BAG": False}
    for bad, field in (("W_CARDS = 1.0", "heuristic.W_CARDS"), ("MOD_VALUE = 1.0",
                                                                 "heuristic.MOD_VALUE"),
                       ("EXPLORE_BAG = 1", "heuristic.EXPLORE_BAG")):
        path.write_text(f"[heuristic]\n{bad}\n")
        with pytest.raises(RulesError) as err:
            bots._load_weights(path)
        assert err.value.field == field and str(path) in str(err.value)


def test_a_move_onto_an_empty_space_is_valued_by_the_bag(game, rules):
    """Exploring (bots._discovery_value): greedy values a move onto an empty space ("Discovery":
    "blindly draw a random tile") by the bag's public odds, the expectation over the tiles
    that may lie there, not by the one tile a lookahead copy would draw."""
    from engine.games.cave_colony import bots
    from engine.bots import make_bot
    from engine.core.rng import bot_rng

    seats = [Seat(f, "greedy") for f in game.factions(rules)]
    state = game.new_game(rules, seats, game_seed(9, 0))
    bots_ = [make_bot("greedy", game, bot_rng(1, i)) for i in range(4)]
    checked = 0
    while not state.is_over() and checked < 5 and state.step < 3000:
        seat = state.to_move()
        obs = game.observe(state, seat)
        if obs.stack[-1][0] == "act":
            for a in obs.legal_actions():
                if a[0] == "move" and bots._discovery_value(obs, seat, a[1]) is not None:
                    v = bots.action_values(obs, seat, [a])[0]
                    assert v == bots._discovery_value(obs, seat, a[1])
                    checked += 1
        state.apply(bots_[seat].choose(obs, seat))
    assert checked
