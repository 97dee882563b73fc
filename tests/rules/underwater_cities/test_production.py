"""Rulebook "Production": "Your Network's Production", its worked example, "Things That Do
Not Produce", "Production from cards and Metropolises" and "Feeding Cities"."""

from engine.games.underwater_cities.production import feed, network_output, produce
from uwc_helpers import building, city, claim, res, tunnel


def _metropolis(s, seat, hexagon, tile_id):
    p = s.players[seat]
    h = s.geo.hex_ids.index(hexagon)
    tiles = list(p.metros)
    tiles[h] = next(i for i, m in enumerate(s.st.metros) if m.id == tile_id)
    p.metros = tuple(tiles)
    p.metro_on |= 1 << h


def _example_board(s, seat=0):
    """The rulebook's Production example on our board: the starting city c11 and a
    symbiotic city c7 connected; two farms (one upgraded) and a desalination plant at c11,
    a desalination plant and two upgraded laboratories at c7; tunnels t15 (upgraded), t11
    and t5 next to cities, t18 next to no city (it connects the blue metropolis on
    blue_east); an unconnected city c10 with a laboratory; a production card that produces
    1 credit and a metropolis that produces 2 points."""
    city(s, seat, "c7", symbiotic=True)
    city(s, seat, "c10")
    building(s, seat, "c11b1", "farm", up=True)
    building(s, seat, "c11b2", "farm")
    building(s, seat, "c11b3", "desal")
    building(s, seat, "c7b1", "desal")
    building(s, seat, "c7b2", "lab", up=True)
    building(s, seat, "c7b3", "lab", up=True)
    building(s, seat, "c10b1", "lab")
    tunnel(s, seat, "t15", up=True)
    tunnel(s, seat, "t11")
    tunnel(s, seat, "t5")
    tunnel(s, seat, "t18")
    claim(s, seat, "e1_toll_booth")
    _metropolis(s, seat, "blue_east", "mu_gallery")


def test_production_example(make_state):
    """Production example: "1 The two farms produce 2 kelp. The upgraded farm also produces
    1 point. 2 The two desalination plants produce 2 credits ... 3 Two upgraded laboratories
    at the same city produce 3 steelplast and 2 science.  Three tunnels are adjacent to
    cities, so they produce 3 credits. One is upgraded, so it also produces 1 point. 4 The
    fourth tunnel is not adjacent to a city. It produces nothing ... 5 The symbiotic city
    ... produces 2 points. 6 The production card produces 1 credit. 7 One metropolis is
    connected to the network. It produces 2 points. 8 ... Only two are connected, so the
    player pays 2 kelp. 9 The unconnected city is ignored during Production."""
    s = make_state()
    _example_board(s)
    p = s.players[0]
    res(s, 0)
    # The network alone: credits 2 + 3, kelp 2, steelplast 3, science 2, points 1 + 1 + 2.
    assert network_output(s, p) == [5, 2, 3, 2, 0, 4]
    before = p.points
    produce(s, p)
    assert p.res == [6, 2, 3, 2, 0]          # + the production card's credit
    assert p.points - before == 6            # + the metropolis' 2 points
    feed(s, p)
    assert p.res == [6, 0, 3, 2, 0]          # 2 kelp for the 2 connected cities
    assert p.points - before == 6
    cats = {c for c, seat in zip(s.log.s_category, s.log.s_seat) if seat == 0}
    assert cats == {"production"}


def test_production_example_laboratories_under_both_readings(make_state, game):
    """Production example: "3 Two upgraded laboratories at the same city produce 3
    steelplast and 2 science" - under the default reading (1 science, upgraded +1
    steelplast) and under the variant laboratories_make_steelplast (1 steelplast, upgraded
    +1 science); the whole example's network output is the same (RULES.md, 20)."""
    from engine.core.rules import REPO_ROOT
    variant = REPO_ROOT / "data/variants/underwater_cities/laboratories_make_steelplast.toml"
    other = game.load_rules(variants=[variant]).model
    lab = other.production.lab
    assert (lab.base.steelplast, lab.base.science, lab.upgraded.science,
            lab.upgraded.steelplast) == (1, 0, 1, 0)
    for rules_ in (None, other):
        s = make_state(rules_=rules_)
        p = s.players[0]
        building(s, 0, "c11b1", "lab", up=True)
        building(s, 0, "c11b2", "lab", up=True)
        out = network_output(s, p)
        assert (out[2], out[3]) == (3, 2)
        t = make_state(rules_=rules_)
        _example_board(t)
        assert network_output(t, t.players[0]) == [5, 2, 3, 2, 0, 4]


def test_unconnected_pieces_do_not_produce(make_state):
    """Things That Do Not Produce: "A city will not produce if it is not connected ... A
    building will not produce if it is not adjacent to a connected city ... A tunnel will not
    produce if it is not adjacent to a city"."""
    s = make_state()
    city(s, 0, "c10", symbiotic=True)           # no tunnel leads to it
    building(s, 0, "c10b1", "farm", up=True)
    building(s, 0, "c6b1", "lab")               # next to an empty city site
    tunnel(s, 0, "t15")                         # next to the starting city: produces
    tunnel(s, 0, "t11")                         # c3-c7, no city at either end
    assert network_output(s, s.players[0]) == [1, 0, 0, 0, 0, 0]


def test_pair_bonus_needs_two_upgraded_of_one_type_at_one_city(make_state):
    """"If you have at least 2 upgraded farms at the same connected city, they will also
    produce 1 additional kelp and 1 additional point."  Two upgraded farms at two cities do
    not."""
    s = make_state()
    building(s, 0, "c11b1", "farm", up=True)
    building(s, 0, "c11b2", "farm", up=True)
    assert network_output(s, s.players[0]) == [0, 3, 0, 0, 0, 3]
    t = make_state()
    city(t, 0, "c10")
    tunnel(t, 0, "t8")
    building(t, 0, "c11b1", "farm", up=True)
    building(t, 0, "c10b1", "farm", up=True)
    assert network_output(t, t.players[0])[1] == 2       # no pair: 2 kelp only


def test_production_cards_count_only_connected_pieces(make_state):
    """"When evaluating a production effect that depends on your cities or buildings, you
    always ignore cities and buildings that are not attached to your network.\""""
    s = make_state()
    claim(s, 0, "e1_farm_extension")            # 1 kelp per 2 connected farms
    building(s, 0, "c11b1", "farm")
    building(s, 0, "c11b2", "farm")
    building(s, 0, "c10b1", "farm")             # next to an empty city site
    building(s, 0, "c10b2", "farm")
    res(s, 0)
    produce(s, s.players[0])
    assert s.players[0].res[1] == 2 + 1          # two farms, one card kelp


def test_feeding_kelp_then_biomatter_then_three_points(make_state):
    """Feeding Cities: "For each unfed city, pay 1 biomatter. If any cities are still unfed,
    you feed them by paying points - 3 points per city"."""
    s = make_state()
    for c, t in (("c10", "t8"), ("c7", "t15"), ("c6", "t14")):
        city(s, 0, c)
        tunnel(s, 0, t)
    p = s.players[0]
    res(s, 0, kelp=1, biomatter=1)
    s.score(p, "other", 10)
    feed(s, p)
    assert p.res == [0, 0, 0, 0, 0]
    assert p.points == 10 - 2 * 3
    assert s.log.s_category[-1] == "feeding" and s.log.s_points[-1] == -6


def test_feeding_never_takes_the_score_below_zero(make_state):
    """"If you lose all your points and still have unfed cities, just leave your scoring
    marker at 0\""""
    s = make_state()
    city(s, 0, "c10")
    tunnel(s, 0, "t8")
    p = s.players[0]
    res(s, 0)
    s.score(p, "other", 4)
    feed(s, p)
    assert p.points == 0
    assert sum(pt for seat, pt in zip(s.log.s_seat, s.log.s_points) if seat == 0) == 0


def test_unconnected_cities_eat_nothing(make_state):
    """"Only cities in your network require food.\""""
    s = make_state()
    city(s, 0, "c10")
    res(s, 0, kelp=5)
    feed(s, s.players[0])
    assert s.players[0].res[1] == 4              # only the starting city


def test_three_productions_after_rounds_4_7_10(make_state):
    """"An era consists of A rounds in Era I and 3 in Era II and Era III" (A = 4): Production
    follows rounds 4, 7 and 10 ("In all, you will play 10 rounds and have 3 Production
    phases")."""
    import random
    s = make_state(n=2, seed=5)
    rng = random.Random(1)
    seen = []
    last = None
    while not s.is_over():
        era = s.era
        s.apply(s.legal_actions()[rng.randrange(len(s.legal_actions()))])
        if s.era != era:
            seen.append(s.round)
        last = s.round
    assert seen == [5, 8]            # eras II and III begin with rounds 5 and 8
    assert last == 10
    prod_rounds = {r for r, c in zip(s.log.s_round, s.log.s_category) if c == "production"}
    assert prod_rounds <= {4, 7, 10}
