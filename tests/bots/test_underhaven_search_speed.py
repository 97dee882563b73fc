"""Underhaven's heuristics and search world, made faster for the search bot (issue 13,
section 4), against the plain functions they replace: identical floats (not approximately:
the search ranks and backs up these values, so any difference could change a move) and
identical worlds.

The plain heuristics are a second copy of engine/games/underhaven/bots.py (loaded afresh, so
its functions call each other) in which every remembered or restructured function is put back
as it was first written: a Goods bundle valued from its fields, a building from its card, every
order valued afresh, the seat's buildings found by scanning every space."""

from __future__ import annotations

import importlib
import importlib.util
import random

import pytest

from engine.core.protocol import Seat
from engine.core.registry import get_game
from engine.core.rng import bot_rng, game_seed
from engine.games.underhaven import bots, leaf
from engine.games.underhaven.activate import ACT_KINDS

from stateviews import first_difference

# the module (the package's `determinize` attribute is the function of the same name)
determinize = importlib.import_module("engine.games.underhaven.determinize")


def _plain_module():
    spec = importlib.util.find_spec("engine.games.underhaven.bots")
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)

    def goods_value(s, g):
        tv, pv, gv, ev = m._values(s)
        return ((g.money + g.food + g.material) * tv + g.pt * pv + g.tg * gv + g.energy * ev
                + g.morale * m.MORALE_VALUE + g.rep)

    def building_value(s, seat, sp, rounds):
        bd = s.st.b[s.bld[sp]]
        v = 0.0
        if bd.activation in ACT_KINDS or bd.activation == "trade":
            per = m.goods_value(s, bd.gain)
            v += per * rounds * (0.2 if bd.needs_worker else 0.45)
        if bd.move_bonus:
            v += 0.3 * bd.move_bonus * rounds
        if not s.done[sp]:
            v += bd.rep + bd.units * m.WORKER_VALUE + bd.specialist_gain * 4.0
            if bd.free_arrangement:
                v += 0.5 * rounds
        return v

    def evaluate(s, seat):
        p = s.players[seat]
        rounds = m._rounds_left(s)
        v = float(p.rep) + m.end_points(s, seat)
        tv, pv, gv, ev = m._values(s)
        v += sum(p.res) * tv + p.pt * pv + p.tg * gv + p.energy * ev
        v += min(p.morale, 5) * m.MORALE_VALUE
        v += (len(p.workers) * m.WORKER_VALUE + p.consultants * m.CONSULTANT_VALUE) \
            * min(1.0, rounds / 4)
        v += len(p.bought) * 0.8 * min(1.0, rounds / 3)
        for sp, o in enumerate(s.owner):
            if o == seat:
                v += building_value(s, seat, sp, rounds)
        if p.owed is not None:
            v -= (p.owed[0] + p.owed[1] + p.owed[2]) * m.track_value(s) \
                + p.owed[3] * m.pt_value(s)
        if rounds > 1:
            v += m.worker_terms(s, p, p.workers)
        return v

    def order_value(s, p, order, cache=None):
        if order.kind == "gain":
            return m.goods_value(s, order.gain)
        return m._order_value(s, p, order, cache)    # the rule itself, never remembered

    def automatic_value(s, p, kind):
        v = 0.0
        for sp, o in enumerate(s.owner):
            if o == p.seat and s.done[sp]:
                bd = s.st.b[s.bld[sp]]
                if bd.activation == kind and not bd.needs_worker:
                    v += m.goods_value(s, bd.gain)
        return v

    m.goods_value, m.evaluate, m.order_value = goods_value, evaluate, order_value
    m._automatic_value = automatic_value
    return m


PLAIN = _plain_module()


def _plain_leaf():
    """The leaf module run again on PLAIN (its functions read `B`, the bots module, when
    called)."""
    spec = importlib.util.find_spec("engine.games.underhaven.leaf")
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    m.B = PLAIN
    return m


PLAIN_LEAF = _plain_leaf()
VARIANTS = [(), ("modules.advanced_buildings=true", "modules.energy=true")]


def _states(sets=(), games=2, seed=5):
    """Every state met along seeded random 4-player games (clones, log off)."""
    game = get_game("underhaven")
    rules = game.load_rules(sets=sets).model
    f = game.factions(rules)
    for g in range(games):
        s = game.new_game(rules, [Seat(f[(g + i) % len(f)], "random") for i in range(4)],
                          game_seed(seed, g), log=False)
        rng = random.Random(g)
        while not s.is_over():
            yield s.clone(log=False)
            legal = s.legal_actions()
            s.apply_legal(legal[rng.randrange(len(legal))], legal)
        yield s


@pytest.mark.parametrize("sets", VARIANTS)
def test_heuristics_equal_the_plain_functions(sets):
    """evaluate, leaf_value and relative for every seat at every state, and the option values
    (the greedy bot, the search's ranking) at every decision with more than one option: the
    same floats as the plain functions."""
    kinds: dict[str, int] = {}
    for s in _states(sets):
        for seat in range(s.n):
            assert bots.evaluate(s, seat) == PLAIN.evaluate(s, seat)
            assert leaf.leaf_value(s, seat) == PLAIN_LEAF.leaf_value(s, seat)
        if s.is_over():
            continue
        legal = s.legal_actions()
        if len(legal) > 1:
            seat = s.to_move()
            assert bots.action_values(s, seat, legal) == PLAIN.action_values(s, seat, legal), \
                s.stack[-1]
            kinds[s.stack[-1][0]] = kinds.get(s.stack[-1][0], 0) + 1
    assert {"card", "order", "move", "build"} <= set(kinds), kinds


def test_shuffle_is_random_shuffle():
    """determinize.shuffle draws exactly as `random.Random.shuffle` (same order, same stream
    position after), for every length up to 80; any other stream shuffles itself."""
    for seed in range(40):
        for n in range(80):
            a, b = list(range(n)), list(range(n))
            r1, r2 = random.Random(seed), random.Random(seed)
            r1.shuffle(a)
            determinize.shuffle(r2, b)
            assert a == b and r1.getstate() == r2.getstate(), (seed, n)

    class Own(random.Random):
        def shuffle(self, x):
            x.reverse()
    x = [1, 2, 3]
    determinize.shuffle(Own(1), x)
    assert x == [3, 2, 1]


def test_worlds_equal_the_worlds_of_the_plain_shuffle(monkeypatch):
    """A search world (determinize) at states of a seeded game equals the world dealt with
    `Random.shuffle` from the same bot stream, and leaves the stream at the same place."""
    game = get_game("underhaven")
    states = [s for i, s in enumerate(_states(games=1, seed=9)) if i % 7 == 0]
    fast = []
    for i, s in enumerate(states):
        seat = s.to_move() if not s.is_over() else 0
        rng = bot_rng(i, seat)
        fast.append((determinize.determinize(game.observe(s, seat), seat, rng), rng.random()))
    monkeypatch.setattr(determinize, "shuffle", lambda rng, x: rng.shuffle(x))
    for i, s in enumerate(states):
        seat = s.to_move() if not s.is_over() else 0
        rng = bot_rng(i, seat)
        world = determinize.determinize(game.observe(s, seat), seat, rng)
        assert first_difference(fast[i][0], world) is None
        assert fast[i][0].rng_seed == world.rng_seed and fast[i][1] == rng.random()


@pytest.mark.parametrize("sets", VARIANTS + [("modules.corp_locations=true",)])
def test_space_of_kind_is_the_first_space_of_that_kind(sets):
    """The remembered starting-player and loan locations = the first trade space of that
    kind in the rules' order (what a scan of the spaces finds)."""
    from engine.games.underhaven import corp, trade
    s = next(_states(sets, games=1))
    for kind, found in (("first_player", trade.first_player_space(s)),
                        ("loan", corp._loan_space(s))):
        assert found == next((sid for sid, sp in s.st.spaces.items() if sp.kind == kind), None)
    assert trade.first_player_space(s) is not None
