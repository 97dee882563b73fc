"""Rulebook "Final-Scoring Tile" (RB:555-557: "The metropolis in the upper left corner of your
player board will give you points if you have connected it to your network with both
tunnels") and the five brown tiles, whose texts the facts sheet recovers from the rulebook's
tile key (research/underwater_cities_facts.md section 3, all [H]): one test per tile."""

import pytest

from engine.games.underwater_cities.network import count_of
from engine.games.underwater_cities.rules import Count
from engine.games.underwater_cities.scoring import brown_points
from uwc_helpers import building, city, claim, hand, only, res, settle, tunnel

# A path through every city site from the starting city c11 (boards.toml): the tunnel
# that joins each city to the one before it.
PATH = (("c10", "t8"), ("c9", "t7"), ("c8", "t6"), ("c4", "t12"), ("c5", "t3"),
        ("c6", "t4"), ("c7", "t5"), ("c3", "t11"), ("c2", "t2"), ("c1", "t1"))
# The other tunnel sites between two cities, then the two towards the brown hexagon.
OTHER_TUNNELS = ("t9", "t10", "t13", "t14", "t15", "t16", "t17")


def _brown(s, seat, tile_id):
    """Put brown tile `tile_id` on the seat's brown hexagon, connected."""
    p = s.players[seat]
    h = s.geo.hex_ids.index("brown")
    tiles = list(p.metros)
    tiles[h] = next(i for i, m in enumerate(s.st.metros) if m.id == tile_id)
    p.metros = tuple(tiles)
    p.metro_on |= 1 << h


def test_brown_tile_needs_both_tunnels(make_state):
    """RB:555-557: the brown tile scores only if connected (with both tunnels)."""
    s = make_state()
    _brown(s, 0, "mb_cities")
    for c, t in PATH[:5]:
        tunnel(s, 0, t)
        city(s, 0, c)
    assert brown_points(s, s.players[0]) == 8            # 6 connected cities
    s.players[0].metro_on = 0
    assert brown_points(s, s.players[0]) == 0


def test_capital_connected_cities_5_6_7(make_state):
    """Facts section 3, brown 5 [H]: "Connected cities: 5 -> 4 points, 6 -> 8, 7 or more ->
    12" (the data had 6 -> 7 and 8 -> 12, audit turn 3 D2)."""
    s = make_state()
    p = s.players[0]
    _brown(s, 0, "mb_cities")
    got = {}
    for c, t in PATH:
        tunnel(s, 0, t)
        city(s, 0, c)
        k = count_of(s, p, Count(of="cities"))
        got[k] = brown_points(s, p)
    assert got == {2: 0, 3: 0, 4: 0, 5: 4, 6: 8, 7: 12, 8: 12, 9: 12, 10: 12, 11: 12}


def test_transit_authority_tunnels_next_to_cities_8_9_10(make_state):
    """Facts section 3, brown 2 [H]: "Tunnels adjacent to cities: 8 -> 5 points, 9 -> 7, 10
    or more -> 9.  Upgraded tunnels count." (the data had 7 -> 4, 9 -> 7, 11 -> 10, audit
    turn 3 D2)."""
    s = make_state()
    p = s.players[0]
    _brown(s, 0, "mb_tunnels")
    for c, _t in PATH:
        city(s, 0, c)
    got = {}
    for k, t in enumerate([t for _c, t in PATH] + list(OTHER_TUNNELS)):
        tunnel(s, 0, t, up=k % 2 == 0)
        n = count_of(s, p, Count(of="city_tunnels"))
        got[n] = brown_points(s, p)
    assert {k: got[k] for k in range(6, 13)} == {6: 0, 7: 0, 8: 5, 9: 7, 10: 9, 11: 9, 12: 9}


def test_harbour_council_three_per_connected_metropolis(make_state):
    """Facts section 3, brown 1 [H]: 3 points per connected metropolis (the brown one too)."""
    s = make_state()
    p = s.players[0]
    _brown(s, 0, "mb_metropolises")
    for c, t in PATH:
        tunnel(s, 0, t)
        city(s, 0, c)
    tunnel(s, 0, "t16")
    tunnel(s, 0, "t17")                      # both tunnels of the brown hexagon
    assert brown_points(s, p) == 3
    tunnel(s, 0, "t18")                      # c3 - blue_east (one tunnel)
    assert brown_points(s, p) == 6


def test_grand_exchange_four_per_full_upgraded_set(make_state):
    """Facts section 3, brown 3 [H]: 4 points per set of an upgraded tunnel next to a city and
    a connected upgraded farm, laboratory and desalination plant (the smallest count)."""
    s = make_state()
    p = s.players[0]
    _brown(s, 0, "mb_sets")
    tunnel(s, 0, "t8", up=True)
    city(s, 0, "c10")
    for c in ("c11", "c10"):
        building(s, 0, f"{c}b1", "farm", up=True)
        building(s, 0, f"{c}b2", "desal", up=True)
        building(s, 0, f"{c}b3", "lab", up=True)
    assert brown_points(s, p) == 4            # one upgraded tunnel: one set
    tunnel(s, 0, "t15", up=True)             # c7-c11, next to the starting city
    assert brown_points(s, p) == 8


def test_patent_office_uncounts_a_dropped_special_action_card(make_state):
    """Facts section 3, brown 4 [H]: 2 points per Special card played and paid for; "It
    excludes Special action cards that were discarded".  A paid Special action card dropped
    under the Limit of Four (RB:126-130) no longer counts (audit turn 3 D3)."""
    s = make_state(n=3)
    p = s.players[0]
    _brown(s, 0, "mb_specials")
    claim(s, 0, "e1_depot")
    claim(s, 0, "e1_workshop")                       # with the assistant: 3 action cards
    hand(s, 0, ["sp_covert_mission"])                # green action Special card, cost 2
    res(s, 0, credits=2)
    s.apply(("play", "sp_covert_mission"))
    s.apply(("slot", "g_assist"))                    # green: a match
    s.apply(("card_first",))
    assert s.stack[-1][0] == "pay_special"
    s.apply(("pay",))
    while s.to_move() == 0 and ("skip",) in s.legal_actions():
        s.apply(("skip",))
    assert len(p.actions) == 4 and p.specials_paid == 1
    assert brown_points(s, p) == 2
    # Seat 0's next turn: a yellow action card claimed at the limit, the Special dropped.
    only(s, ("card", 0))
    hand(s, 0, ["e1_scrap_yard"])
    s.apply(("play", "e1_scrap_yard"))
    s.apply(("slot", "y_steel"))
    s.apply(("card_first",))
    assert s.stack[-1][0] == "limit"
    s.apply(("drop", "sp_covert_mission", 0))
    settle(s)
    assert "sp_covert_mission" not in {s.st.card_id[i] for i in p.actions}
    assert p.specials_paid == 0
    assert brown_points(s, p) == 0


def test_patent_office_does_not_count_a_special_declined_at_the_limit(make_state):
    """Facts section 3, brown 4 [H]: 2 points per Special card "played and paid for ... It
    excludes Special action cards that were discarded"; RB:170 a paid Special card is one
    "you keep".  A green action Special paid for with 4 action cards held, then declined
    at the Limit of Four (RB:126-130), goes back to the Special deck and does not count
    (re-audit N2; old code: specials_paid stayed 1)."""
    s = make_state(n=3)
    p = s.players[0]
    _brown(s, 0, "mb_specials")
    for cid in ("e1_depot", "e1_workshop", "e1_scrap_yard"):
        claim(s, 0, cid)                             # with the assistant: 4 action cards
    assert len(p.actions) == 4
    hand(s, 0, ["sp_covert_mission"])                # green action Special card, cost 2
    res(s, 0, credits=2)
    s.apply(("play", "sp_covert_mission"))
    s.apply(("slot", "g_assist"))                    # green: a match
    if s.stack[-1][0] == "order":
        s.apply(("card_first",))
    assert s.stack[-1][0] == "pay_special"
    s.apply(("pay",))
    assert s.stack[-1][0] == "limit" and ("decline",) in s.legal_actions()
    s.apply(("decline",))
    ids = s.st.card_id
    assert "sp_covert_mission" not in {ids[i] for i in p.actions + p.claimed + p.under}
    assert any(ids[i] == "sp_covert_mission" for i in s.sdeck)
    assert p.res[0] == 0                             # the payment stands
    assert p.specials_paid == 0
    assert brown_points(s, p) == 0
