"""Rulebook "Order of Play", "The Federation Track", "End of the Round"."""

from engine.games.underwater_cities.federation import advance, next_order
from uwc_helpers import res


def test_first_round_order_and_extra_resources(make_state, game, rules):
    """Order of Play: the first player "will start below the track", the second "on space
    A" (4), the third "on space 3 ... with one extra credit", the fourth "on space 2 ...
    1 credit and 1 steelplast in addition to the usual starting resources"."""
    from engine.core.protocol import Seat
    s = game.new_game(rules, [Seat(b) for b in ("embassy", "reef", "trench", "vent")], 3)
    assert s.order == [0, 1, 2, 3] and s.first_seat == 0
    assert [p.fed for p in s.players] == [0, 1, 2, 3]
    base = list(rules.start.resources.vec())
    assert s.players[1].res == base
    assert s.players[2].res == [base[0] + 1] + base[1:]
    assert s.players[3].res == [base[0] + 1, base[1], base[2] + 1] + base[3:]
    three = game.new_game(rules, [Seat(b) for b in ("embassy", "reef", "trench")], 3)
    assert [p.fed for p in three.players] == [0, 1, 2]
    assert three.players[2].res == [base[0] + 1] + base[1:]


def test_advancing_gains_the_bonus_of_every_space(make_state):
    """"If you move ahead more than 1 space, gain the bonus of each of those spaces.\""""
    s = make_state()
    p = s.players[0]
    p.fed = 0
    res(s, 0)
    advance(s, p, 3)              # space 4 (nothing), 3 (+1 credit), 2 (+1 steelplast)
    assert p.fed == 3 and p.res == [1, 0, 1, 0, 0]


def test_points_for_advancing_past_space_one(make_state):
    """"Orange takes an action allowing her to advance 2 spaces. She moves ahead only 1 space
    ... she scores 2 points: 1 for moving onto that space and 1 for 'advancing' off the
    track.\""""
    s = make_state()
    p = s.players[0]
    p.fed = 3                     # space 2
    before = p.points
    advance(s, p, 2)
    assert p.fed == 4 and p.points - before == 2
    assert s.log.s_category[-2:] == ["federation", "federation"]


def test_stacking_and_next_round_order(make_state):
    """End of the Round example: "Black and Blue did not advance on the Federation track,
    so they will go last in round 3. Their relative order does not change, so Black will play
    ahead of Blue. On space 2, the tiebreaker is the order of the stack. Because Orange is on
    top, Orange will go first.\""""
    s = make_state()
    black, blue, orange, green = 0, 1, 2, 3
    s.order = [black, green, blue, orange]
    for p in s.players:
        p.fed = 0
    advance(s, s.players[green], 3)     # to space 2
    advance(s, s.players[orange], 3)    # on top of green
    assert next_order(s) == [orange, green, black, blue]


def test_markers_go_below_the_track_and_the_last_order_breaks_ties(make_state):
    """"place all Federation track markers on the colored spaces below space A" and "Be sure
    to determine the new play order even if this is the end of the final round. This final
    order is the tie-breaking order.\""""
    import random
    s = make_state(n=2, seed=4)
    rng = random.Random(4)
    while s.round == 1:
        s.apply(s.legal_actions()[rng.randrange(len(s.legal_actions()))])
    assert all(p.fed == 0 for p in s.players)
    while not s.is_over():
        s.apply(s.legal_actions()[rng.randrange(len(s.legal_actions()))])
    assert s.tie_order == s.order
