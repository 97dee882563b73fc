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


def _holding(make_state, card_id, carried):
    """The first player's state at its first action, its colony card `card_id` with nothing
    on it, carrying `carried` (colour name -> count), no gem left on the board."""
    from engine.games.cave_colony import cards as C
    from engine.games.cave_colony.rules import COLOURS
    from engine.games.cave_colony.state import NC
    s = make_state()
    seat = s.to_move()
    kind, index = s.st.cards.index[card_id]
    assert kind == C.COLONY
    s.card[seat] = index
    for c in range(NC):
        s.oncard[seat * NC + c] = 0
        s.carry[seat * NC + c] = 0
    for colour, k in carried.items():
        s.carry[seat * NC + COLOURS.index(colour)] = k
    for i in range(len(s.cgem)):
        s.cgem[i] = 0
    return s, seat


@pytest.mark.parametrize("carried, want", [
    ({}, "all"),                                    # a wildcard slot open: any gem will do
    ({"blue": 1}, ["white"]),                       # the blue covers the wildcard slot
    ({"white": 2}, "all"),                          # whites fill their slots, the wildcard is open
    ({"white": 1, "blue": 1}, ["white"]),
    ({"white": 2, "blue": 1}, []),                  # the card can be paid in full
])
def test_gems_carried_for_the_wildcard_slot_narrow_what_the_worker_looks_for(make_state, carried,
                                                                              want):
    """RB "Colony Cards require you to spend 1 or more Gem", a wildcard gem "can be of any
    type" (RULES.md, Gems and colony cards): a gem carried beyond its colour's slots pays a
    wildcard slot, so a worker carrying it looks for the colours its card still needs, not for
    any gem (the Rail Cart: white, white, wildcard)."""
    from engine.games.cave_colony.bots import wanted
    from engine.games.cave_colony.rules import COLOURS
    s, seat = _holding(make_state, "col_rail_cart", carried)
    names = [COLOURS[c] for c in wanted(s, seat)]
    assert names == (list(COLOURS) if want == "all" else want)


def test_spending_a_gem_on_a_wildcard_slot_is_worth_it(make_state, game):
    """Greedy once valued a worker holding a spare gem as looking for any gem, so paying the
    wildcard with it narrowed its search and lowered its value: it kept the gem, and a card
    short of a rare colour stalled the seat to the turn limit (2-player games, issue 27).
    Spending it now raises the seat's value."""
    from engine.games.cave_colony.bots import evaluate
    from engine.games.cave_colony.rules import COLOURS
    from engine.games.cave_colony.state import NC
    from cc_helpers import only_bag
    s, seat = _holding(make_state, "col_rail_cart", {"blue": 1})
    only_bag(s, {"curved": 4, "gem_blue_bend": 2})      # no white gem left to find
    s.cgem[s.pos[seat] * NC + COLOURS.index("blue")] = 1  # a blue one underfoot
    obs = game.observe(s, seat)
    spend = ("spend", COLOURS.index("blue"))
    assert spend in obs.legal_actions()
    after = obs.clone()
    after.apply(spend)
    assert evaluate(after, seat) > evaluate(obs, seat)


def test_search_leaf_finishes_the_turn_in_progress(make_state):
    """leaf_value (MCTS leaf = "game") values a state halfway through a turn (energy left,
    several options, a gem to collect) as the turn ends when the greedy bot finishes it: the
    finished copy is off the seat's turn, the state asked about is untouched, and every
    seat's value is the heuristic of that one copy."""
    from engine.games.cave_colony import bots

    def greedy_collects(s) -> bool:    # greedy's best option here is a gem (a certain gain)
        actions = s.legal_actions()
        vals = bots.action_values(s, s.cur, actions)
        return actions[max(range(len(actions)), key=vals.__getitem__)][0] == "collect"

    s = make_state()
    while not (s.phase == "actions" and s.to_move() == s.cur and s.energy >= 2
               and len(s.legal_actions()) > 2 and greedy_collects(s)):
        s.apply(s.legal_actions()[0])
    seat, step, energy = s.cur, s.step, s.energy
    values = [bots.leaf_value(s, q) for q in range(s.n)]
    assert (s.step, s.cur, s.energy) == (step, seat, energy)         # untouched
    done = bots.finished_turn(s)
    assert done is not s and done.step > s.step
    assert done.over or done.cur != seat or done.to_move() != seat  # the turn is over
    assert values == [bots.evaluate(done, q) for q in range(s.n)]
    assert values[seat] > bots.evaluate(s, seat)                     # the turn's gains count
