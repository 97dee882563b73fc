"""Permanent cards (rulebook "Permanent Effects": "Some permanent effects trigger whenever a
certain event happens. Others might give you a discount in certain situations ... It is
legal to use the permanent effect even on the turn in which you claim the card.")"""

from engine.games.underwater_cities.federation import advance
from engine.games.underwater_cities.rules import Part
from uwc_helpers import building, claim, only, res, settle, site, tunnel


def _build(s, seat, kind, sid, what=None, count=1):
    only(s, ("build", seat, Part(kind="build", what=what or kind, count=count), count, "slot"))
    s.apply(("build", kind, site(s, sid)))
    settle(s)


def test_second_laboratory_at_a_connected_city(make_state):
    s = make_state(boards=("trench", "reef", "vent", "embassy"))
    """Facts sheet section 7, #37 [H]: "+1 credit when a connected city gets its 2nd
    laboratory" (audit turn 3 D9: the card gave a science too)."""
    claim(s, 0, "e1_lab_network")          # a connected city's 2nd laboratory: 1 credit
    res(s, 0, steelplast=2)
    _build(s, 0, "lab", "c11b1")
    assert s.players[0].res[:4] == [0, 0, 1, 0]
    _build(s, 0, "lab", "c11b3")
    assert s.players[0].res[:4] == [1, 0, 0, 0]


def test_discount_never_below_free(make_state):
    """Card notes: discounts stack "but never go below free"."""
    s = make_state(boards=("vent", "reef", "trench", "embassy"))
    claim(s, 0, "e1_logistics_hub")        # tunnels: 1 credit less
    claim(s, 0, "e2_tunnel_guild")         # tunnels: 1 steelplast less
    res(s, 0)
    _build(s, 0, "tunnel", "t15")
    assert s.players[0].tun >> site(s, "t15") & 1 and s.players[0].res == [0, 0, 0, 0, 0]


def test_second_tunnel_in_one_turn(make_state):
    s = make_state(boards=("vent", "reef", "trench", "embassy"))
    claim(s, 0, "e1_tunnel_borer")
    res(s, 0, credits=2, steelplast=2)
    only(s, ("build", 0, Part(kind="build", what="tunnel", count=2), 2, "slot"))
    s.turn[4] = 0
    s.apply(("build", "tunnel", site(s, "t15")))
    s.apply(("build", "tunnel", site(s, "t11")))
    assert s.players[0].res[:3] == [1, 0, 1]


def test_federation_space_and_metropolis_connection(make_state):
    s = make_state()
    claim(s, 0, "e1_envoy")                # reaching space 1: 2 credits
    p = s.players[0]
    p.fed = 2
    res(s, 0)
    advance(s, p, 2)
    assert p.res[0] == 2 + 0 and p.res[2] == 1
    claim(s, 0, "e2_harbour_master")       # connecting a metropolis: 2 points, 1 credit
    tunnel(s, 0, "t15")
    tunnel(s, 0, "t11")
    res(s, 0, credits=1, steelplast=1)
    before = p.points
    _build(s, 0, "tunnel", "t18")          # blue_east: one tunnel site
    assert p.metro_on >> s.geo.hex_ids.index("blue_east") & 1
    assert p.points - before >= 2


def test_slot_giving_steelplast_and_matching_colour(make_state):
    s = make_state()
    claim(s, 0, "e1_steel_recycling")      # a slot gives steelplast: 1 point
    claim(s, 0, "e1_green_initiative")     # a green card on a green slot: credit and kelp
    from uwc_helpers import hand
    hand(s, 0, ["e1_bulk_haul"])           # green instant
    res(s, 0)
    before = s.players[0].points
    s.apply(("play", "e1_bulk_haul"))
    s.apply(("slot", "g_assist"))          # green: an action card and 1 steelplast
    s.apply(("slot_first",))
    s.apply(("skip",))                     # no action card
    assert s.players[0].points - before == 1
    assert s.players[0].res == [1 + 1, 1 + 1, 1 + 2, 0, 0]


def test_upgrade_and_special_triggers(make_state):
    s = make_state()
    claim(s, 0, "e2_harvest_bonus")        # upgrading a farm: 1 kelp
    claim(s, 0, "e2_collectors_guild")     # taking a Special card: 1 point, 1 credit
    building(s, 0, "c11b1", "farm")
    res(s, 0, science=1)
    only(s, ("upgrade", 0, Part(kind="upgrade"), 1, "slot"))
    s.apply(("upgrade", "farm", site(s, "c11b1")))
    assert s.players[0].res[1] == 1
    before = s.players[0].points
    only(s, ("special", 0))
    s.apply(("top",))
    assert s.players[0].points - before == 1 and s.players[0].res[0] == 1
