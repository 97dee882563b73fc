"""The greedy bot's heuristic (bots.py): an either-or option is played to its end before it is
valued (turn-3 audit, section 8: on "build 1 tunnel, or Federation +1, 2 cards, 1 credit" the
one-step lookahead never took the tunnel, because it valued the state before anything was
built)."""

import random

from engine.bots.greedy import GreedyBot
from engine.games.underwater_cities import bots
from engine.games.underwater_cities.turn import slot_index

from uwc_helpers import building, city, only, res


def _either_tunnel_or_gain(make_state):
    s = make_state(n=4, seed=3)
    seat = 0
    city(s, seat, "c10")                   # one tunnel (t8) from the starting city c11
    building(s, seat, "c10b1", "farm")
    building(s, seat, "c10b2", "lab")
    res(s, seat, credits=1, steelplast=1, kelp=2)
    i = slot_index(s, "y_tunnel_or_federation")
    s.turn = [seat, -1, i, False, 0]
    s.occ[i] += (seat,)
    return only(s, ("either", seat, s.st.slots[i].effect[0], "slot")), seat


def test_either_build_option_is_valued_once_built(game, make_state):
    """RB:182 lets the slot's 'either' build a tunnel: the tunnel that connects a city with
    two buildings is worth more than the gain, and greedy now sees it."""
    s, seat = _either_tunnel_or_gain(make_state)
    legal = s.legal_actions()
    assert legal == [("option", 0), ("option", 1)]
    vals = bots.action_values(s, seat, legal)
    assert vals[0] > vals[1]
    action, _ = GreedyBot(game, random.Random(1)).decide(game.observe(s, seat), seat)
    assert action == ("option", 0)


def test_play_out_builds_the_tunnel(make_state):
    """The option played to its end: a tunnel is on the board and paid for (its steelplast),
    and the value is taken after it."""
    s, seat = _either_tunnel_or_gain(make_state)
    nxt = s.clone(log=False)
    nxt.apply(("option", 0))
    done = bots._finished(nxt, seat, nxt.turns_done)
    v = bots._finish_turn(nxt.clone(log=False), seat, nxt.turns_done)
    p = done.players[seat]
    assert p.tun.bit_count() == 1
    assert p.res[2] == 0
    assert v == bots.evaluate(done, seat)


def test_search_leaf_finishes_the_turn_in_progress(make_state):
    """leaf_value (MCTS leaf = "game") values a state halfway through a turn as the greedy
    rollout would finish it, and leaves the state untouched."""
    s, seat = _either_tunnel_or_gain(make_state)
    before = (list(s.players[seat].res), s.players[seat].tun, s.step)
    v = bots.leaf_value(s, seat)
    assert v > bots.evaluate(s, seat)
    assert (list(s.players[seat].res), s.players[seat].tun, s.step) == before
