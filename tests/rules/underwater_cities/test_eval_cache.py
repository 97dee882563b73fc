"""The bots' value cache (bots.evaluate, `Static.eval_cache`) and the network memo per board
contents (network.net, `Geo.net_memo`) are pure speed-ups: a value taken from them equals the
value computed afresh.  A key that missed a field evaluate reads would hand back the value of
a state that differs in that field: each test below changes one such field after the unchanged
state's value is remembered, and compares the remembered path with a cold computation."""

import random

import pytest

from engine.games.underwater_cities import bots

from uwc_helpers import building, city, res, tunnel

SEAT = 0


def _tile(s, tid):
    return next(i for i, m in enumerate(s.st.metros) if m.id == tid)


def _inst(s, card_type, taken=()):
    """An instance of a card of this type, none of the seat's."""
    p = s.players[SEAT]
    mine = set(p.claimed) | set(p.actions) | set(p.hand) | set(taken)
    return next(i for i, c in enumerate(s.st.cards)
                if c.type == card_type and i not in mine and not s.st.special[i])


@pytest.fixture
def rich(make_state):
    """The seat near the end (last era, two rounds left) with a network, a brown tile that
    scores by Special cards paid, claimed cards, action cards and a full hand."""
    s = make_state(n=4, seed=3)
    st = s.st
    s.era = len(s.rules.game.rounds_per_era)
    s.round = st.rounds - 2
    p = s.players[SEAT]
    city(s, SEAT, "c10")                      # one tunnel (t8) from the starting city c11
    tunnel(s, SEAT, "t8")
    building(s, SEAT, "c10b1", "farm")
    building(s, SEAT, "c10b2", "lab")
    building(s, SEAT, "c11b1", "desal")
    res(s, SEAT, credits=3, kelp=2, steelplast=1, science=2, biomatter=1)
    g = s.geo
    metros = list(p.metros)
    metros[g.brown] = _tile(s, "mb_specials")
    p.metros = tuple(metros)
    p.metro_on |= 1 << g.brown
    p.specials_paid = 2
    p.claimed = (_inst(s, "production"),)
    p.actions = p.actions + (_inst(s, "action"),)
    limit = s.hand_limit(p)
    while len(p.hand) < limit + 2:
        p.hand.append(_inst(s, "instant", taken=p.hand))
    p.hand.sort()
    p.net = None
    return s


def _other_brown(s):
    p = s.players[SEAT]
    return next(i for i, m in enumerate(s.st.metros)
                if m.colour == "brown" and i != p.metros[s.geo.brown])


def _set(name, fn):
    def mutate(s):
        p = s.players[SEAT]
        setattr(p, name, fn(s, p, getattr(p, name)))
    return mutate


def _metros(s, p, v):
    v = list(v)
    v[s.geo.brown] = _other_brown(s)
    return tuple(v)


# One change per field evaluate reads (directly or through scoring, production, network).
MUTATIONS = {
    "round": lambda s: setattr(s, "round", s.round + 1),
    "era": lambda s: setattr(s, "era", s.era - 1),
    "points": _set("points", lambda s, p, v: v + 1),
    **{f"res[{i}]": _set("res", lambda s, p, v, i=i: [x + (j == i) for j, x in enumerate(v)])
       for i in range(5)},
    "cmask (city)": lambda s: city(s, SEAT, "c9"),
    "smask (symbiotic)": _set("smask", lambda s, p, v: v | 1 << s.geo.cell_of_id["c10"]),
    "bld (building)": lambda s: building(s, SEAT, "c11b2", "farm"),
    "bup (upgrade)": _set("bup", lambda s, p, v: v | 1 << (s.geo.cell_of_id["c10b1"]
                                                           - s.geo.cell_bld)),
    "tun (tunnel)": lambda s: tunnel(s, SEAT, "t15"),
    "tun_up (upgrade)": _set("tun_up", lambda s, p, v: v | 1 << (s.geo.cell_of_id["t8"]
                                                                 - s.geo.cell_tun)),
    "metros (tile)": _set("metros", _metros),
    "metro_on": _set("metro_on", lambda s, p, v: v & ~(1 << s.geo.brown)),
    "claimed": _set("claimed", lambda s, p, v: v + (_inst(s, "production"),)),
    "actions": _set("actions", lambda s, p, v: v + (_inst(s, "action"),)),
    "used": _set("used", lambda s, p, v: v | {p.actions[-1]}),
    "specials_paid": _set("specials_paid", lambda s, p, v: v + 1),
    "fed": _set("fed", lambda s, p, v: v + 1),
    "hand": _set("hand", lambda s, p, v: v[:-3]),
    "hand_bonus": _set("hand_bonus", lambda s, p, v: v + 1),
    "abilities": _set("abilities", lambda s, p, v: v + ((-1, None),)),
}


def _cold(s, seat):
    s.st.eval_cache.clear()
    s.geo.net_memo.clear()
    for p in s.players:
        p.net = None
    return bots.evaluate(s, seat)


@pytest.mark.parametrize("field", list(MUTATIONS))
def test_value_cache_key_holds_every_field_evaluate_reads(rich, field):
    """Remember the value of the state, change one field, value it again with the caches
    warm: it must equal the value computed with both caches cold, and differ from the
    unchanged state's (else the change would prove nothing about the key)."""
    s = rich
    before = _cold(s, SEAT)
    assert bots.evaluate(s, SEAT) == before          # remembered now (and the Net too)
    m = s.clone(log=False)
    MUTATIONS[field](m)
    m.players[SEAT].net = None                      # as every change of a board does
    warm = bots.evaluate(m, SEAT)
    cold = _cold(m, SEAT)
    assert cold != before, f"changing {field} should change the value"
    assert warm == cold, f"cached value ignores {field}"


def _half_way_to_brown(make_state):
    """Two seats with the same pieces: one of the brown metropolis's two tunnels built (what
    its tile is worth counts in the value), five Special cards paid, no Federation step (the
    seats differ in no count a tile may read); seat 0's brown tile scores by upgraded sets (0
    here, valued at the floor), seat 1's by Special cards paid."""
    s = make_state(n=2, seed=5)
    s.round = s.st.rounds - 4
    g = s.geo
    tun = g.hex_tun[g.brown] & -g.hex_tun[g.brown]
    for seat, tid in ((0, "mb_sets"), (1, "mb_specials")):
        p = s.players[seat]
        metros = list(p.metros)
        metros[g.brown] = _tile(s, tid)
        p.metros = tuple(metros)
        p.res = [2, 2, 2, 2, 2]
        p.specials_paid = 5
        p.fed = 0
        p.tun, p.net = tun, None
    return s


def test_seats_with_the_same_board_and_other_tiles_are_valued_apart(make_state):
    """Two seats with the same pieces share one Net (`Geo.net_memo`), but not what their own
    metropolis tiles are worth (remembered on the Net under the tile): each seat's value
    with the other seat's remembered equals its value computed alone."""
    s = _half_way_to_brown(make_state)
    alone = [_cold(s, 0), _cold(s, 1)]
    assert alone[0] != alone[1]
    _cold(s, 1)
    assert [bots.evaluate(s, 0), bots.evaluate(s, 1)] == alone
    assert s.players[0].net is s.players[1].net
    _cold(s, 0)
    assert [bots.evaluate(s, 1), bots.evaluate(s, 0)] == alone[::-1]


def test_metropolis_worth_follows_the_special_cards_paid(make_state):
    """The brown tile's worth on the way to it (remembered on the Net) changes with the Special
    cards paid, which change no piece of the board: one more paid, the value with the Net
    warm equals the value computed cold."""
    s = _half_way_to_brown(make_state)
    before = _cold(s, 1)
    s.players[1].specials_paid += 1
    warm = bots.evaluate(s, 1)
    cold = _cold(s, 1)
    assert cold != before
    assert warm == cold


def test_greedy_game_values_equal_fresh_values(game, rules, monkeypatch):
    """Every value the greedy bots ask for in a whole game (with their rollouts: many states
    that differ in one field) equals the value computed afresh without either cache."""
    from engine.core.play import play_game
    from engine.core.protocol import Seat

    cached = bots.evaluate
    asked = [0]

    def checked(s, seat):
        v = cached(s, seat)
        if not s.over and asked[0] % 7 == 0:
            p = s.players[seat]
            keep = p.net
            p.net = None
            net_memo = s.geo.net_memo
            s.geo.net_memo = {}
            assert v == bots._evaluate(s, p)
            s.geo.net_memo = net_memo
            p.net = keep
        asked[0] += 1
        return v

    monkeypatch.setattr(bots, "evaluate", checked)
    seats = [Seat(b, "greedy") for b in ("reef", "vent")]
    play_game(game, rules, seats, random.Random(11).randrange(2**32), log=False)
    assert asked[0] > 1000
