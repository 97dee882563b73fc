"""Rulebook "Cities", "Expansion Sites", "Costs", "Buildings", "Tunnels", "Step-by-step
Expansion", "Your Network", "Biomatter", "Bonuses From Building", "Metropolises",
"Limited and Unlimited Components"."""

from engine.games.underwater_cities.building import options
from engine.games.underwater_cities.network import (building_sites, city_sites, net,
                                                     tunnel_sites)
from engine.games.underwater_cities.rules import Part
from uwc_helpers import building, city, only, res, site, tunnel


def _ids(s, kind, sites):
    g = s.geo
    base = {"city": g.cell_city, "tunnel": g.cell_tun, "building": g.cell_bld}[kind]
    return {g.cell_id[base + x] for x in sites}


def test_network_connectivity(make_state):
    """Your Network: "your starting city is always connected ... A city is connected to
    your network if there is a chain of tunnels from it to your starting city ... A building
    adjacent to a connected city is connected\""""
    s = make_state()
    p = s.players[0]
    g = s.geo
    city(s, 0, "c10")
    city(s, 0, "c6")
    assert net(g, p).conn == 1 << site(s, "c11")
    tunnel(s, 0, "t8")                               # c10-c11
    assert net(g, p).conn == (1 << site(s, "c11")) | (1 << site(s, "c10"))
    tunnel(s, 0, "t15")                              # c7-c11: c7 empty
    tunnel(s, 0, "t5")                               # c6-c7: through the empty site c7
    assert net(g, p).conn >> site(s, "c6") & 1
    building(s, 0, "c6b1", "farm")
    building(s, 0, "c9b1", "farm")                   # next to an empty city site
    assert net(g, p).count[1] == 1


def test_tunnels_must_trace_back_to_the_starting_city(make_state):
    """Tunnels: "The path can go through cities or through empty city sites, but not through
    empty tunnel sites.\""""
    s = make_state()
    p = s.players[0]
    assert _ids(s, "tunnel", tunnel_sites(s.geo, p)) == {"t8", "t15"}
    city(s, 0, "c9")                                  # an unconnected city opens nothing
    assert _ids(s, "tunnel", tunnel_sites(s.geo, p)) == {"t8", "t15"}
    tunnel(s, 0, "t8")
    assert _ids(s, "tunnel", tunnel_sites(s.geo, p)) == {"t15", "t7", "t14", "t20"}


def test_new_city_next_to_an_existing_city(make_state):
    """Cities: "The site you choose for your new city must be adjacent to an existing city
    ... It is legal to build new cities before building the connecting tunnels.\""""
    s = make_state()
    p = s.players[0]
    assert _ids(s, "city", city_sites(s.geo, p)) == {"c10", "c7"}
    city(s, 0, "c10")                                 # not connected yet
    assert _ids(s, "city", city_sites(s.geo, p)) == {"c7", "c9", "c6"}


def test_buildings_next_to_a_city_or_a_legal_city_site(make_state):
    """Buildings: "adjacent to an existing city or adjacent to a site on which you could
    build a new city"; Expansion Sites: "only if you play a card with an effect that
    specifically allows you to build on an expansion site\""""
    s = make_state()
    p = s.players[0]
    sites = _ids(s, "building", building_sites(s.geo, p))
    assert sites == {f"{c}b{k}" for c in ("c11", "c10", "c7") for k in (1, 2, 3)}
    with_exp = _ids(s, "building", building_sites(s.geo, p, expansion=True))
    assert with_exp - sites == {"c11x", "c10x", "c7x"}


def test_step_by_step_expansion(make_state):
    """Step-by-step Expansion: "you first build one tunnel on a legal tunnel site and this
    could open up one or more new legal sites for the second tunnel.\""""
    s = make_state()
    res(s, 0, credits=2, steelplast=2)
    only(s, ("build", 0, Part(kind="build", what="tunnel", count=2), 2, "slot"))
    first = {a[2] for a in s.legal_actions() if a[0] == "build"}
    s.apply(("build", "tunnel", site(s, "t8")))
    second = {a[2] for a in s.legal_actions() if a[0] == "build"}
    assert site(s, "t7") in second and site(s, "t7") not in first


def test_biomatter_pays_for_kelp_or_steelplast_when_building(make_state):
    """Biomatter: "A nonsymbiotic city normally costs 2 steelplast, 1 kelp, and 1 credit.
    But you could build it with 1 steelplast, 2 biomatter, and 1 credit.\""""
    s = make_state()
    res(s, 0, credits=1, steelplast=1, biomatter=2)
    only(s, ("build", 0, Part(kind="build", what="white_city"), 1, "slot"))
    s.apply(("build", "white_city", site(s, "c10")))
    p = s.players[0]
    assert p.res == [0, 0, 0, 0, 0] and p.cmask >> site(s, "c10") & 1


def test_biomatter_substitution_is_a_payment_choice(make_state):
    s = make_state()
    res(s, 0, credits=1, kelp=1, steelplast=2, biomatter=1)
    only(s, ("build", 0, Part(kind="build", what="white_city"), 1, "slot"))
    s.apply(("build", "white_city", site(s, "c10")))
    assert s.stack[-1][0] == "pay"
    assert set(s.legal_actions()) == {("pay", 1, 1, 2, 0, 0), ("pay", 1, 0, 2, 0, 1),
                                      ("pay", 1, 1, 1, 0, 1)}


def test_card_cost_replaces_the_usual_cost(make_state):
    """Costs: "if the card specifies a cost, you pay that cost instead of the usual cost.\""""
    s = make_state()
    res(s, 0, credits=1)
    part = Part(kind="build", what="white_city", cost={"steelplast": 0, "credits": 1})
    assert options(s, s.players[0], part)
    assert not options(s, s.players[0], Part(kind="build", what="white_city"))


def test_site_bonus_even_when_not_connected(make_state):
    """Bonuses From Building: "You gain the bonus even if the city or building you build on
    that site is not yet connected to your network.\""""
    s = make_state(boards=("reef", "embassy", "trench", "vent"))
    res(s, 0, kelp=1)
    only(s, ("build", 0, Part(kind="build", what="farm"), 1, "slot"))
    s.apply(("build", "farm", site(s, "c10b2")))      # reef: c10b2 gives 1 kelp
    p = s.players[0]
    assert p.res[1] == 1 and not net(s.geo, p).conn >> site(s, "c10") & 1


def test_federation_symbol_advances_and_draws(make_state):
    """"Building on a site marked with this symbols allows you to advance 1 space on the
    Federation track and draw one card from current Era deck.\""""
    s = make_state(boards=("embassy", "reef", "trench", "vent"))
    p = s.players[0]
    p.fed = 0
    res(s, 0, credits=1, kelp=1, steelplast=2)
    cards = len(p.hand)
    only(s, ("build", 0, Part(kind="build", what="white_city"), 1, "slot"))
    s.apply(("build", "white_city", site(s, "c7")))   # embassy: c7 carries the symbol
    assert p.fed == 1 and len(p.hand) == cards + 1


def test_metropolis_connected_by_all_its_tunnels(make_state):
    """Metropolises: "To connect this metropolis, you need to build tunnels on both adjacent
    tunnel sites" - a blue one then gives its instant effect."""
    s = make_state()
    p = s.players[0]
    g = s.geo
    h = g.hex_ids.index("blue_south")
    foundry = next(i for i, m in enumerate(s.st.metros) if m.id == "mu_foundry")
    tiles = list(p.metros)
    tiles[h] = foundry
    p.metros = tuple(tiles)
    tunnel(s, 0, "t8")
    tunnel(s, 0, "t7")
    res(s, 0, credits=2, steelplast=2)
    only(s, ("build", 0, Part(kind="build", what="tunnel", count=2), 2, "slot"))
    s.apply(("build", "tunnel", site(s, "t20")))
    assert not p.metro_on >> h & 1 and p.res[2] == 1
    s.apply(("build", "tunnel", site(s, "t19")))
    assert p.metro_on >> h & 1 and p.res[2] == 0 + 3


def test_limited_tunnels_and_domes(make_state):
    """Limited and Unlimited Components: "The supply starts with 47 tunnels. When they are
    gone, no one can build tunnels anymore ... In a two-player game, use 7 symbiotic city
    domes. In a three-player game, use 10. In a four-player game, use all 13.\""""
    s = make_state(n=4)
    assert s.supply == [47, 17, 13]
    assert make_state(n=3).supply[2] == 10 and make_state(n=2).supply[2] == 7
    res(s, 0, credits=5, steelplast=5)
    s.supply[0] = 0
    assert not options(s, s.players[0], Part(kind="build", what="tunnel"))
