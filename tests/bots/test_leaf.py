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
from engine.games.underhaven import leaf as uh_leaf

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
            assert uh_leaf.leaf_value(state, seat) == pytest.approx(base + max(values.values()))
            for a in legal:
                if state.st.cards[a[1]].support.kind == "free_specialist":
                    continue                 # carried out at once: not a pure estimate
                nxt = state.clone(log=False)
                nxt.apply_legal(a, legal)
                assert uh_leaf.leaf_value(nxt, seat) == pytest.approx(base + values[a]), a
                cards += 1
        a, legal = greedy.decide(game.observe(state, seat), seat)
        state.apply_legal(a, legal)
        if state.players[seat].slot is None and frame[0] != "card" and state.stack \
                and state.stack[-1][0] == "card" and state.stack[-1][1] != seat:
            ends += 1
            assert uh_leaf.pending_value(state, seat) == 0.0
    assert cards >= 8 and ends >= 2


# ---------------------------------------------------------------- leaf = "fitted"
def _states(game_id: str, n: int, seed: int = 3):
    """`n` states along one greedy game (every seat), a few decisions apart."""
    game = get_game(game_id)
    rules = game.load_rules().model
    f = game.factions(rules)
    state = game.new_game(rules, [Seat(f[i], "greedy") for i in range(4)], seed, log=False)
    bots = [make_bot("greedy", game, bot_rng(seed, i)) for i in range(4)]
    out = []
    while not state.is_over() and len(out) < n:
        seat = state.to_move()
        a, legal = bots[seat].decide(game.observe(state, seat), seat)
        state.apply_legal(a, legal)
        if state.step % 7 == 0:
            out.append(state.clone(log=False))
    return game, out


@pytest.mark.parametrize("game_id, n", [("underhaven", 60), ("glimmerdeep", 40)])
def test_leaf_features_add_up_to_the_leaf_and_bucket_by_rounds_left(game_id, n):
    """The fitted leaf weighs the terms of the game's leaf (Underhaven: `leaf_value`;
    Glimmerdeep: `evaluate`, engine/games/glimmerdeep/leaf.py); their plain sum is that leaf
    (unit weights and no constant give back the leaf the search used before), and the
    bucket is the rounds left."""
    from engine.bots.leaf import LeafFit, fitted_leaf
    from engine.games.glimmerdeep import bots as gd_bots
    leaf, rounds_left = {"underhaven": (uh_leaf.leaf_value, uh_bots._rounds_left),
                         "glimmerdeep": (gd_bots.evaluate, gd_bots.rounds_left)}[game_id]
    game, states = _states(game_id, n)
    names = game.extra["leaf_feature_names"]
    ones = LeafFit(features=list(names), weights={"1": [1.0] * len(names) + [0.0]})
    plain = fitted_leaf(game, ones)
    buckets = set()
    for s in states:
        for seat in range(4):
            terms, bucket = game.extra["leaf_features"](s, seat)
            assert len(terms) == len(names)
            assert sum(terms) == pytest.approx(leaf(s, seat), abs=1e-9)
            assert plain(s, seat) == pytest.approx(leaf(s, seat), abs=1e-9)
            assert bucket == rounds_left(s)
            buckets.add(bucket)
    assert len(buckets) >= 3                  # the rounds left move on


def test_fitted_leaf_weighs_per_bucket_and_takes_the_nearest_bucket():
    from engine.bots.leaf import LeafFit, fitted_leaf
    game, states = _states("underhaven", 30)
    names = list(game.extra["leaf_feature_names"])
    k = len(names)
    # bucket 3 only: reputation doubled plus 10; every other bucket takes bucket 3's weights
    w = [0.0] * (k + 1)
    w[0], w[-1] = 2.0, 10.0
    leaf = fitted_leaf(game, LeafFit(features=names, weights={"3": w}))
    for s in states:
        assert leaf(s, 1) == pytest.approx(2.0 * s.players[1].rep + 10.0)
    # two buckets: each bucket's own weights, the nearest one beyond them
    lo, hi = [0.0] * k + [1.0], [0.0] * k + [5.0]
    leaf = fitted_leaf(game, LeafFit(features=names, weights={"2": lo, "9": hi}))
    for s in states:
        _t, bucket = game.extra["leaf_features"](s, 0)
        assert leaf(s, 0) == (1.0 if bucket <= 5 else 5.0), bucket


def test_fitted_leaf_errors_name_the_file_and_what_was_expected(tmp_path, monkeypatch):
    import engine.bots.params as params
    from engine.bots.leaf import LeafFit, fitted_leaf
    from engine.core.errors import RulesError
    game = get_game("underhaven")
    names = list(game.extra["leaf_feature_names"])
    with pytest.raises(DelveError, match="refit"):
        fitted_leaf(game, LeafFit(features=names[::-1], weights={"1": [0.0] * (len(names) + 1)}))
    with pytest.raises(DelveError, match="leaf_features"):   # the cave colony declares none
        fitted_leaf(get_game("cave_colony"), LeafFit(features=["a"], weights={"1": [1.0, 0.0]}))
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "g.toml").write_text(
        '[leaf]\nfeatures = ["a", "b"]\n[leaf.weights]\n"1" = [1.0, 2.0]\n')
    (tmp_path / "bots" / "h.toml").write_text(
        '[leaf]\nfeatures = ["a"]\n[leaf.weights]\nlate = [1.0, 2.0]\n')
    monkeypatch.setattr(params, "DATA_DIR", tmp_path)
    params.bots_file.cache_clear()
    try:
        with pytest.raises(RulesError, match=r"g\.toml.*leaf.*3 weights|g\.toml.*leaf.*expected 3"):
            params.tuned_leaf("g")
        with pytest.raises(RulesError, match=r"h\.toml.*leaf\.weights.*whole number"):
            params.tuned_leaf("h")
    finally:
        params.bots_file.cache_clear()
    # a game without fitted weights: the spec is refused when the bot is made
    with pytest.raises(DelveError, match=r"data/bots/glimmerdeep\.toml \[leaf\].*fit-leaf"):
        make_bot("mcts:20/leaf=fitted", get_game("glimmerdeep"), bot_rng(0, 0))


def test_the_fit_recovers_known_weights_and_writes_a_table_that_reads_back(tmp_path,
                                                                           monkeypatch):
    """Least squares per bucket on made-up samples whose targets follow known weights (no
    shrinkage: prior 0, ridge 0); the
    written [leaf] table replaces an older one, keeps the [mcts] table, and validates."""
    import numpy as np

    import engine.bots.params as params
    from pipelines.ladder import leaf_fit as lf
    rng = np.random.default_rng(1)
    n = 400
    feats = rng.normal(size=(n, 2)) * 10
    buckets = np.repeat([1, 2], n // 2)
    true = {1: (1.5, 0.5, 4.0), 2: (0.5, 2.0, -3.0)}
    scores = np.array([true[b][0] * x + true[b][1] * y + true[b][2]
                       for (x, y), b in zip(feats, buckets)]) + rng.normal(size=n) * 0.01
    s = lf.Samples(features=feats, buckets=buckets, scores=scores, won=np.zeros(n, bool),
                   moment=np.arange(n) // 4, game=np.arange(n) // 40)
    w = lf.fit(s, ridge=0.0, prior=0.0)
    for b in (1, 2):
        assert w[b] == pytest.approx(true[b], abs=0.01)
    assert lf.quality(s, lf.predict(s, w))["rmse"] < 0.05
    # shrunk towards the plain leaf (weights 1), and never below 0
    assert lf.fit(s, ridge=1e6)[2][:2] == pytest.approx([1.0, 1.0], abs=0.01)
    flipped = lf.Samples(features=feats, buckets=buckets, scores=-scores, won=s.won,
                         moment=s.moment, game=s.game)
    assert min(min(v[:-1]) for v in lf.fit(flipped, ridge=0.0).values()) == 0.0
    path = tmp_path / "bots" / "g.toml"
    path.parent.mkdir()
    path.write_text('[mcts]\nc = 0.3\n\n[leaf]\nfeatures = ["old"]\n[leaf.weights]\n'
                    '"1" = [1.0, 0.0]\n')
    lf.write_leaf(path, lf.leaf_toml(["x", "y"], w, 'a "quoted" source'))
    monkeypatch.setattr(params, "DATA_DIR", tmp_path)
    params.bots_file.cache_clear()
    try:
        fit = params.tuned_leaf("g")
        assert params.tuned("g").c == 0.3
    finally:
        params.bots_file.cache_clear()
    assert fit.features == ["x", "y"] and fit.source == 'a "quoted" source'
    assert fit.weights["2"] == pytest.approx(list(w[2]), abs=1e-4)


def test_fit_leaf_samples_the_same_states_with_one_or_two_workers():
    from pipelines.ladder import leaf_fit as lf
    a = lf.collect("underhaven", games=4, players=4, bots="random", seed=2, every=40, jobs=1)
    b = lf.collect("underhaven", games=4, players=4, bots="random", seed=2, every=40, jobs=2)
    assert len(a.scores) > 0 and len(a.scores) % 4 == 0
    for field in ("features", "buckets", "scores", "won", "moment", "game"):
        assert (getattr(a, field) == getattr(b, field)).all(), field


def test_delve_fit_leaf_prints_the_fit_and_writes_it_beside_the_mcts_table(tmp_path,
                                                                          monkeypatch):
    """`delve fit-leaf` on a few games: the plain leaf and the fit side by side, then (with
    --write) the [leaf] table in data/bots/GAME.toml, the [mcts] table kept, and a search bot
    with leaf=fitted reading it."""
    import shutil

    from click.testing import CliRunner

    import engine.bots.params as params
    from delve.cli import main
    (tmp_path / "bots").mkdir()
    shutil.copy(params.bots_path("underhaven"), tmp_path / "bots" / "underhaven.toml")
    monkeypatch.setattr(params, "DATA_DIR", tmp_path)
    params.bots_file.cache_clear()
    try:
        before = params.tuned("underhaven")
        res = CliRunner().invoke(main, ["fit-leaf", "underhaven", "--games", "4", "--every", "25",
                                        "--bots", "random", "--write"], catch_exceptions=False)
        assert res.exit_code == 0, res.output
        assert "plain leaf (sum)" in res.output and "fitted" in res.output
        params.bots_file.cache_clear()
        fit = params.tuned_leaf("underhaven")
        assert params.tuned("underhaven") == before
        assert "delve fit-leaf underhaven --games 4" in fit.source
        bot = make_bot("mcts:30/leaf=fitted", get_game("underhaven"), bot_rng(0, 0))
        _game, states = _states("underhaven", 1)
        assert isinstance(bot._leaf(states[0], 0), float)
    finally:
        params.bots_file.cache_clear()
