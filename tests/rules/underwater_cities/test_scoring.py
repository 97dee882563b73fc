"""Rulebook "Final Scoring" and its worked example, "Scoring Your Network", "Scoring your
Resources", "End of the Game"."""

from engine.games.underwater_cities.scoring import best_conversions, final_scoring, result
from uwc_helpers import building, city, claim, res, tunnel


def _example(s, seat=0):
    """The final-scoring example on our board.  Connected cities c11 (start), c7, c3, c2
    and c1; the brown metropolis ("sets" tile) connected by both its tunnels t16 and t17;
    upgraded: 2 farms, 3 desalination plants, 3 laboratories, 3 tunnels next to cities; two
    cities with all three building types, one with two, one with one, one with none, an
    unconnected city c10 with a laboratory."""
    p = s.players[seat]
    for c in ("c7", "c3", "c2", "c1", "c10"):
        city(s, seat, c)
    for t in ("t15", "t11", "t2"):
        tunnel(s, seat, t, up=True)
    for t in ("t1", "t9", "t3", "t16", "t17"):
        tunnel(s, seat, t)
    for c in ("c11", "c7"):
        building(s, seat, f"{c}b1", "farm", up=True)
        building(s, seat, f"{c}b2", "desal", up=True)
        building(s, seat, f"{c}b3", "lab", up=True)
    building(s, seat, "c3b1", "desal", up=True)
    building(s, seat, "c3b2", "lab", up=True)
    building(s, seat, "c2b1", "farm")
    building(s, seat, "c10b1", "lab", up=True)
    h = s.geo.hex_ids.index("brown")
    tiles = list(p.metros)
    tiles[h] = next(i for i, m in enumerate(s.st.metros) if m.id == "mb_sets")
    p.metros = tuple(tiles)
    p.metro_on |= 1 << h
    claim(s, seat, "e3_collector")       # 3 points per 2 science, at most 3 times
    claim(s, seat, "sp_surplus_trade")   # 1 point per kelp and steelplast pair
    res(s, seat, credits=16, kelp=2, steelplast=4, science=7, biomatter=3)


def _points(s, seat):
    out = {}
    for st, c, pts in zip(s.log.s_seat, s.log.s_category, s.log.s_points):
        if st == seat:
            out[c] = out.get(c, 0) + pts
    return out


def test_final_scoring_example(make_state):
    """Final Scoring example: "1. ... 2 full sets of qualifying upgraded structures, so the
    metropolis gives 8 points.  2. ... She spends 6 science to buy 9 points. She spends two
    pairs of kelp and steelplast to buy 2 points. This is 11 total points from end-scoring
    cards.  3. ... In total, her cities give her 21 points.  4. ... Total credits is 25,
    which converts to 6 points. 1 credit is left over"."""
    s = make_state()
    for p in s.players:
        p.points = 0
    s.log = type(s.log)(enabled=True)
    _example(s)
    for seat in range(1, s.n):
        res(s, seat)
    final_scoring(s)
    assert _points(s, 0) == {"metropolis": 8, "cards": 11, "cities": 21, "resources": 6}
    assert s.players[0].res == [16, 0, 2, 1, 3]   # what was left before selling: 25 credits


def test_end_cards_spend_as_well_as_possible():
    """"You should spend as much as you can ... buying points via a card is always more
    efficient than keeping the resources": the conversions are chosen with the leftovers."""

    class _S:
        class rules:
            class final:
                biomatter_credits = 2
                resources_per_point = 4

    trades = [((0, 0, 0, 2, 0), 3, 3), ((0, 1, 1, 0, 0), 1, 6)]
    total, times = best_conversions(_S, [16, 2, 4, 7, 3], trades)
    assert (total, times) == (17, [3, 2])
    greedy, _ = best_conversions(_S, [16, 2, 4, 7, 3], trades, exact=False)
    assert greedy <= total


def test_city_points_by_building_types(make_state):
    """"2 points for a connected city with no buildings. 3 points for ... 1 type of
    building. A points for ... 2 types. 6 points for ... all 3 types" (A = 4)."""
    from engine.games.underwater_cities.scoring import city_points
    s = make_state()
    p = s.players[0]
    assert city_points(s, p) == 2
    building(s, 0, "c11b1", "farm")
    building(s, 0, "c11b2", "farm")
    assert city_points(s, p) == 3
    building(s, 0, "c11b3", "lab")
    assert city_points(s, p) == 4
    building(s, 0, "c11x", "desal")
    assert city_points(s, p) == 6


def test_resources_sell_biomatter_then_four_for_a_point(make_state):
    """"First, sell all your biomatter for 2 credits each. Then buy 1 point for every A
    credits, kelp, science, or steelplast you spend, in any combination" (A = 4)."""
    from engine.games.underwater_cities.scoring import leftover_points
    s = make_state()
    assert leftover_points(s, [0, 3, 1, 0, 0]) == 1
    assert leftover_points(s, [1, 0, 2, 1, 0]) == 1
    assert leftover_points(s, [1, 0, 0, 0, 1]) == 0
    assert leftover_points(s, [0, 0, 0, 0, 2]) == 1


def test_ties_broken_by_the_final_play_order(make_state):
    """End of the Game: "If there is a tie, break the tie according to the tie-breaking
    play order that was determined at the end of the final round\""""
    s = make_state(n=3)
    s.over = True
    for seat in range(3):
        s.score(s.players[seat], "other", 10 if seat else 7)
    s.tie_order = [2, 0, 1]
    out = result(s)
    assert [r.rank for r in out] == [3, 2, 1]
    assert [r.won for r in out] == [False, False, True]
