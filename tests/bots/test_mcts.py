"""Information-set MCTS (engine/bots/mcts.py): the budget in forward-model calls, the same
seed giving the same moves, the bot specs, and the search beating greedy at Nim (a tiny
test-only game whose right answer is known)."""

from __future__ import annotations

import pytest

from engine.bots import canonical_spec, make_bot, split_spec
from engine.bots.mcts import MCTSBot, reward_vector
from engine.bots.params import DEFAULT_BUDGET, MCTSParams, tuned
from engine.core.errors import DelveError, RulesError
from engine.core.play import play_game
from engine.core.protocol import Seat
from engine.core.registry import get_game
from engine.core.rng import bot_rng

from nim import NIM, NimState, nim_sum

NIM_PARAMS = MCTSParams(budget=4000, c=0.7, depth=40, widen=0, rollout="random")


def test_specs_carry_their_budget():
    assert split_spec("mcts") == ("mcts", DEFAULT_BUDGET)
    assert split_spec("mcts:800") == ("mcts", 800)
    assert canonical_spec("mcts") == f"mcts:{DEFAULT_BUDGET}"
    assert canonical_spec("greedy") == "greedy"
    for bad, match in [("mcts:0", "positive whole number"), ("mcts:abc", "positive whole"),
                       ("greedy:10", "only a search bot"), ("deep:3", "Unknown bot")]:
        with pytest.raises(DelveError, match=match):
            split_spec(bad)
    bot = make_bot("mcts:123", get_game("glimmerdeep"), bot_rng(1, 0))
    assert isinstance(bot, MCTSBot) and bot.p.budget == 123


def test_tuned_parameters_are_validated(tmp_path, monkeypatch):
    import engine.bots.params as params
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "g.toml").write_text('[mcts]\nc = "big"\n')
    monkeypatch.setattr(params, "DATA_DIR", tmp_path)
    params.bots_file.cache_clear()
    try:
        with pytest.raises(RulesError, match=r"g\.toml.*mcts\.c"):
            params.tuned("g")
    finally:
        params.bots_file.cache_clear()
    assert tuned("glimmerdeep").source != ""


def test_rewards_are_in_unit_interval_and_favour_the_leader():
    for p in (MCTSParams(reward="margin"), MCTSParams(reward="rank")):
        r = reward_vector([10.0, 3.0, 3.0, -5.0], p)
        assert all(0.0 <= x <= 1.0 for x in r)
        assert r[0] > r[1] == r[2] > r[3]
    assert reward_vector([3.0], MCTSParams())[0] > reward_vector([1.0], MCTSParams())[0]


@pytest.mark.parametrize("game_id,budget", [("glimmerdeep", 60), ("underhaven", 60)])
def test_budget_is_respected(game_id, budget):
    """The search stops at the first iteration boundary at or past the budget: it spends at
    least `budget` forward-model calls and less than `budget` plus its last iteration."""
    game = get_game(game_id)
    rules = game.load_rules().model
    f = game.factions(rules)
    state = game.new_game(rules, [Seat(f[i], "greedy") for i in range(3)], 3, log=False)
    bot = MCTSBot(game, bot_rng(3, 0), tuned(game_id).model_copy(update={"budget": budget}))
    searched = 0
    for _ in range(40):
        if state.is_over():
            break
        seat = state.to_move()
        action, legal = bot.decide(game.observe(state, seat), seat)
        if len(legal) > 1:
            searched += 1
            assert budget <= bot.fm_calls < budget + bot.last_iteration_cost, bot.fm_calls
            assert bot.iterations >= 1
        else:
            assert bot.fm_calls == 0   # a forced decision is not searched
        state.apply_legal(action, legal)
    assert searched >= 5


@pytest.mark.parametrize("game_id,spec", [
    ("glimmerdeep", "mcts:120"), ("underhaven", "mcts:120"), ("cave_colony", "mcts:120"),
    ("underwater_cities", "mcts:300"), ("underwater_cities", "mcts:300/leaf=game/depth=0")])
def test_the_budget_is_charged_at_real_cost(game_id, spec):
    """Every action any state applies during a search (the worlds', and the heuristic's on its
    own copies: a ranking that plays a turn out, a leaf that finishes one) is charged: the
    applies counted by the engine never exceed the forward-model calls charged, and the search
    still stops within its last iteration of the budget."""
    from engine.core.frames import applies
    game = get_game(game_id)
    rules = game.load_rules().model
    f = game.factions(rules)
    state = game.new_game(rules, [Seat(f[i], "greedy") for i in range(3)], 5, log=False)
    bot = make_bot(spec, game, bot_rng(5, 0))
    budget = bot.p.budget
    greedy = make_bot("greedy", game, bot_rng(5, 1))
    searched = 0
    for _ in range(60):
        if state.is_over():
            break
        seat = state.to_move()
        obs = game.observe(state, seat)
        legal = obs.legal_actions()
        if len(legal) > 1 and seat == 0:
            before = applies()
            bot.search(obs, seat, legal)
            made = applies() - before
            assert made <= bot.fm_calls, (made, bot.fm_calls)
            assert budget <= bot.fm_calls < budget + bot.last_iteration_cost
            searched += 1
        state.apply(greedy.choose(obs, seat))
    assert searched >= 5


def test_same_seed_same_moves_and_different_seed_differs():
    game = get_game("glimmerdeep")
    rules = game.load_rules().model
    f = game.factions(rules)
    seats = [Seat(f[0], "mcts:40"), Seat(f[1], "greedy")]
    a = play_game(game, rules, seats, 17)
    b = play_game(game, rules, seats, 17)
    assert (a.moves, a.scores, a.players) == (b.moves, b.scores, b.players)
    assert a.players[0]["bot"] == "mcts:40"


def test_nim_search_finds_the_known_winning_move():
    """Heaps 1, 2, 4 (XOR 7): the only winning move takes 1 from the heap of 4 (XOR 0)."""
    for seed in range(3):
        bot = MCTSBot(NIM, bot_rng(seed, 0), NIM_PARAMS)
        state = NimState([1, 2, 4])
        a = bot.choose(state, 0)
        state.apply(a)
        assert nim_sum(state.heaps) == 0, (seed, a)


def _nim_game(first_is_mcts: bool, seed: int) -> bool:
    """Heaps 3, 4, 5; the MCTS seat moves first or second; True if MCTS wins."""
    state = NimState([3, 4, 5])
    mcts_seat = 0 if first_is_mcts else 1
    bots = {mcts_seat: MCTSBot(NIM, bot_rng(seed, mcts_seat), NIM_PARAMS),
            1 - mcts_seat: make_bot("greedy", NIM, bot_rng(seed, 1 - mcts_seat))}
    while not state.is_over():
        seat = state.to_move()
        state.apply(bots[seat].choose(state.clone(), seat))
    return state.winner == mcts_seat


def test_search_beats_greedy_at_nim():
    """Greedy grabs the largest heap; from 3, 4, 5 the player who moves first wins with
    perfect play, and whoever faces greedy's grab (3, 4, 0: XOR 7) can win too, so a bot
    that reads the game wins every game in both seats."""
    wins = sum(_nim_game(first, seed) for first in (True, False) for seed in range(4))
    assert wins == 8


@pytest.mark.parametrize("game_id", ["glimmerdeep"])
def test_prior_with_a_small_budget_follows_the_heuristics_best_option(game_id):
    """With the progressive bias on and a budget spent by the first ranking, the search
    returns the option the heuristic ranks best (what greedy would value highest).  Glimmerdeep
    only: its heuristic reads nothing hidden, so the determinised world ranks the options as
    the view does (Underhaven's heuristic sees the world's sampled decks, so its ranking may
    differ, rightly)."""
    from engine.bots.greedy import option_values
    game = get_game(game_id)
    rules = game.load_rules().model
    f = game.factions(rules)
    state = game.new_game(rules, [Seat(f[i], "greedy") for i in range(3)], 9, log=False)
    bot = make_bot("mcts:1/prior=2/widen=2", game, bot_rng(9, 0))
    checked = 0
    for _ in range(30):
        seat = state.to_move()
        obs = game.observe(state, seat)
        action, legal = bot.decide(obs, seat)
        if len(legal) > 2:
            values = option_values(game, obs, seat, legal)
            assert values[legal.index(action)] == max(values)
            checked += 1
        state.apply_legal(action, legal)
    assert checked >= 3


def test_order_ranks_small_decisions_and_tries_the_best_first():
    """`order=2`: a decision with two or more options, below the widening threshold, is ranked
    by the heuristic (every option kept) and its first child is the heuristic's best option;
    with a budget spent by that first ranking and the prior on, the search returns it."""
    from engine.bots.greedy import option_values
    game = get_game("glimmerdeep")
    rules = game.load_rules().model
    f = game.factions(rules)
    state = game.new_game(rules, [Seat(f[i], "greedy") for i in range(3)], 11, log=False)
    bot = make_bot("mcts:1/prior=2/widen=1000/order=2", game, bot_rng(11, 0))
    checked = 0
    for _ in range(60):
        seat = state.to_move()
        obs = game.observe(state, seat)
        action, legal = bot.decide(obs, seat)
        if len(legal) > 1:
            assert len(legal) <= 1000   # below the widening threshold: ranked by `order` alone
            values = option_values(game, obs, seat, legal)
            first = next(iter(bot.root.children))
            assert values[legal.index(first)] == max(values)
            assert values[legal.index(action)] == max(values)
            assert bot.root.order is not None and set(bot.root.order) == set(legal)
            checked += 1
        state.apply_legal(action, legal)
    assert checked >= 5
    plain = make_bot("mcts:1/widen=1000", game, bot_rng(11, 0))
    seat = state.to_move()
    plain.decide(game.observe(state, seat), seat)
    assert plain.root.order is None     # order=0: no ranking below the threshold


def _decide(bot, state):
    a, legal = bot.decide(state.clone(), state.to_move())
    state.apply_legal(a, legal)
    return a


def test_reuse_starts_from_the_subtree_of_the_seats_own_last_decision():
    """`reuse`: one-seat Nim, where every decision follows the seat's own last one: the second
    search starts from the chosen action's subtree, with its visits (TAG's reuseTree)."""
    params = NIM_PARAMS.model_copy(update={"budget": 200, "reuse": True})
    bot = MCTSBot(NIM, bot_rng(3, 0), params)
    state = NimState([3, 4, 5], n=1)
    _decide(bot, state)
    step, kept = bot.kept
    assert step == state.step and kept.n > 0 and kept.children
    visits = kept.n
    _decide(bot, state)
    assert bot.reused == 1 and bot.root is kept and bot.root.n == visits
    # Off (the default): every search starts afresh.
    plain = MCTSBot(NIM, bot_rng(3, 0), params.model_copy(update={"reuse": False}))
    state = NimState([3, 4, 5], n=1)
    _decide(plain, state)
    _decide(plain, state)
    assert plain.kept is None and plain.reused == 0 and plain.root.n == 0


def test_reuse_starts_afresh_when_another_seat_moved_in_between():
    params = NIM_PARAMS.model_copy(update={"budget": 200, "reuse": True})
    bot = MCTSBot(NIM, bot_rng(3, 0), params)
    other = make_bot("greedy", NIM, bot_rng(3, 1))
    state = NimState([3, 4, 5])
    _decide(bot, state)
    assert bot.kept is not None
    _decide(other, state)
    _decide(bot, state)
    assert bot.reused == 0 and bot.root.n == 0


def test_reuse_is_a_spec_override():
    assert split_spec("mcts:50/reuse=true") == ("mcts", 50)
    assert canonical_spec("mcts:50/reuse=off") == "mcts:50/reuse=false"
    assert canonical_spec(canonical_spec("mcts:50/reuse=1")) == "mcts:50/reuse=true"
    with pytest.raises(DelveError, match="reuse=maybe"):
        canonical_spec("mcts:50/reuse=maybe")


def _tree_nodes(root, state):
    """(node, state at the node) for every node of a Nim tree, the states replayed."""
    out, todo = [], [(root, state)]
    while todo:
        node, st = todo.pop()
        out.append((node, st))
        for action, child in node.children.items():
            nxt = st.clone()
            nxt.apply(action)
            todo.append((child, nxt))
    return out


def test_opponent_model_gives_the_other_seat_its_heuristics_best_option_only():
    """`opponents=greedy`: at a node where the other seat decides, the tree holds one child,
    the option its heuristic values best (the greedy bot's choice: the largest grab in Nim),
    while the searching seat's own nodes keep several; with `search` (the default) the other
    seat's nodes branch too."""
    from engine.bots.greedy import option_values
    params = NIM_PARAMS.model_copy(update={"budget": 600, "opponents": "greedy"})
    bot = MCTSBot(NIM, bot_rng(5, 0), params)
    bot.decide(NimState([3, 4, 5]), 0)
    theirs = mine = 0
    for node, st in _tree_nodes(bot.root, NimState([3, 4, 5])):
        if not node.children or st.is_over():
            continue
        legal = st.legal_actions()
        if st.to_move() == 1:
            theirs += 1
            assert len(node.children) == 1
            (action,) = node.children
            values = option_values(NIM, st, 1, legal)
            assert values[legal.index(action)] == max(values)
        else:
            mine += len(node.children) > 1
    assert theirs >= 3 and mine >= 3
    plain = MCTSBot(NIM, bot_rng(5, 0), params.model_copy(update={"opponents": "search"}))
    plain.decide(NimState([3, 4, 5]), 0)
    assert any(len(node.children) > 1 for node, st in _tree_nodes(plain.root, NimState([3, 4, 5]))
               if not st.is_over() and st.to_move() == 1)


def test_narrow_widens_a_follow_up_decision_to_its_best_options():
    """`narrow=1`: a decision the game marks as the follow-up of one move (`extra["follow_up"]`;
    here, in Nim, seat 1's) considers its heuristic's best option, one more each time its
    visits pass k*k (1 + isqrt(visits) options), the best first, whatever its size, and the
    iteration that expands the move before it goes on to expand that best option (no
    follow-up node is left a leaf); the other seat's decisions (`widen=0`: every option) and,
    with `narrow=0`, the follow-ups too branch freely and end an iteration when expanded."""
    from dataclasses import replace
    from math import isqrt
    from engine.bots.greedy import option_values
    game = replace(NIM, extra={**NIM.extra, "follow_up": lambda s: s.to_move() == 1})
    params = NIM_PARAMS.model_copy(update={"budget": 600, "narrow": 1})
    bot = MCTSBot(game, bot_rng(5, 0), params)
    bot.decide(NimState([3, 4, 5]), 0)
    narrowed = free = 0
    for node, st in _tree_nodes(bot.root, NimState([3, 4, 5])):
        legal = [] if st.is_over() else st.legal_actions()
        if len(legal) > 1 and st.to_move() == 1:
            assert node.children             # expanded with the move before it
        if not node.children or len(legal) < 2:
            continue
        values = option_values(game, st, st.to_move(), legal)
        if st.to_move() == 1:
            assert len(node.children) <= 1 + isqrt(int(node.n))
            first = next(iter(node.children))
            assert values[legal.index(first)] == max(values)
            narrowed += 1
        else:
            free += len(node.children) > 1 + isqrt(int(node.n))
    assert narrowed >= 3 and free >= 3
    plain = MCTSBot(game, bot_rng(5, 0), params.model_copy(update={"narrow": 0}))
    plain.decide(NimState([3, 4, 5]), 0)
    follow_ups = [node for node, st in _tree_nodes(plain.root, NimState([3, 4, 5]))
                  if not st.is_over() and st.to_move() == 1 and len(st.legal_actions()) > 1]
    assert any(len(node.children) > 1 + isqrt(int(node.n)) for node in follow_ups)
    assert any(not node.children for node in follow_ups)
    assert canonical_spec("mcts:50/narrow=1") == "mcts:50/narrow=1"


def test_opponent_model_is_a_spec_override():
    assert canonical_spec("mcts:50/opponents=greedy") == "mcts:50/opponents=greedy"
    with pytest.raises(DelveError, match="opponents"):
        canonical_spec("mcts:50/opponents=psychic")


def test_worlds_deals_k_determinisations_a_decision_and_replays_them():
    """`worlds = K`: a decision deals at most K worlds (lazily: no more than its iterations)
    and every iteration plays on a copy of one of them; the default deals one an iteration."""
    from dataclasses import replace
    game = get_game("cave_colony")
    rules = game.load_rules().model
    f = game.factions(rules)
    dealt = []

    def counting(obs, seat, rng):
        dealt.append(seat)
        return game.determinize(obs, seat, rng)

    counted = replace(game, determinize=counting)
    state = game.new_game(rules, [Seat(f[i], "greedy") for i in range(3)], 5, log=False)
    for worlds in (0, 3):
        params = tuned("cave_colony").model_copy(update={"budget": 200, "worlds": worlds})
        bot = MCTSBot(counted, bot_rng(5, 0), params)
        st = state.clone()
        searched = 0
        while searched < 4 and not st.is_over():
            seat = st.to_move()
            dealt.clear()
            action, legal = bot.decide(game.observe(st, seat), seat)
            if len(legal) > 1:
                searched += 1
                assert bot.iterations > 3
                assert len(dealt) == (min(3, bot.iterations) if worlds else bot.iterations)
            st.apply_legal(action, legal)
        assert searched == 4


def test_worlds_is_a_spec_override_and_keeps_search_deterministic():
    assert canonical_spec("mcts:50/worlds=8") == "mcts:50/worlds=8"
    with pytest.raises(DelveError, match="worlds"):
        canonical_spec("mcts:50/worlds=-1")
    game = get_game("cave_colony")
    rules = game.load_rules().model
    f = game.factions(rules)
    seats = [Seat(f[0], "mcts:60/worlds=4"), Seat(f[1], "greedy")]
    a = play_game(game, rules, seats, 17)
    b = play_game(game, rules, seats, 17)
    assert (a.moves, a.scores, a.players) == (b.moves, b.scores, b.players)
