"""Tunnel tiles: types, placement, connectivity, the worker requirement, the starting tunnel
tile (rulebook "Game Components", "Game Setup" 3 D and 6, "Move", "Building Connectivity",
"Trade", "The Special Abilities", "Round Activation Example")."""

from engine.core.protocol import Seat
from engine.games.underhaven import scoring
from engine.games.underhaven.activate import activation_groups

from uh_helpers import explore, only, put, take, whole

FACTIONS = ("deltas", "threecees", "tectonics", "enigmas")


def _gap(geo, i, j):
    return geo.gap_base + j * (geo.columns + 1) + i


def _clean(s):
    """No tile on the board (the starting tunnel tiles are laid at setup)."""
    s.gap.clear()
    return s


def test_game_components_forty_tunnel_tiles_in_four_types(rules, make_state):
    """Game Components: "40 Tunnel tiles"; Game Setup 3 D: "Place the 4 tunnel types ...
    5 of each type ... Keep the remaining 5 within reach" (4 types of 10)."""
    assert len(rules.tunnels) == 4 and sum(t.count for t in rules.tunnels) == 40
    assert all(t.count == 10 for t in rules.tunnels)
    assert all(t.source in ("rulebook", "assumed") and t.section for t in rules.tunnels)
    three = [t for t in rules.tunnels if t.id == "three_way"]
    assert three and len(three[0].arms) == 3 and three[0].source == "rulebook"
    s = make_state(n=4)
    assert s.tunnel_supply == {t.id: 10 for t in rules.tunnels}   # starting tiles are extra


def test_round_activation_example_three_way_tile_connects_three_spaces(make_state):
    """Round Activation Example, the 3rd Activation - Trade: "take one 3-way TUNNEL tile ...
    We place the tunnel between them"; Move: "You can move through a Tunnel with 1 MOVE"."""
    s = _clean(make_state(n=4))
    p = s.players[0]
    geo = s.st.geo
    g = _gap(geo, 2, 2)                      # between octagons 6, 7, 12, 11
    nw, ne, se, sw = geo.slots(g)
    assert (nw, ne, se, sw) == (4 * 6 + 1, 4 * 7 + 2, 4 * 12 + 3, 4 * 11 + 0)
    for o in (6, 7, 11, 12):
        explore(s, o, ("greenery",) * 4)
    p.workers[0] = nw
    p.pt = 1
    only(s, ("tile", 0))
    opts = whole(s)
    assert ("tile", "three_way", g, 0) in opts
    take(s, ("tile", "three_way", g, 0))     # arms NW, NE, SE
    p = s.players[0]                 # (listing the parts shared the record: a copy now)
    assert s.tunnel_supply["three_way"] == 9
    assert s.connected(nw, se) and s.connected(ne, se) and s.connected(nw, ne)
    assert not s.connected(sw, nw) and not s.connected(sw, se)   # the closed side
    assert se in s.neighbours(nw) and sw not in s.neighbours(nw)
    # one move through the tunnel
    p.mv_left, p.mv_stopped, p.mv_jet = 6, (), False
    only(s, ("move", 0))
    assert ("step", 0, se) in s.legal_actions()
    s.apply(("step", 0, se))
    assert p.workers[0] == se and p.mv_left == 5


def test_tunnel_types_straight_and_bend_follow_their_arms(make_state):
    """Tunnel types (assumed shapes, tunnels.toml): a straight 2-way tile joins diagonally
    opposite octagons across the gap, a bent one two neighbouring octagons."""
    s = _clean(make_state(n=4))
    geo = s.st.geo
    g = _gap(geo, 2, 2)
    nw, ne, se, sw = geo.slots(g)
    straight = {sp for a, r, gaps, sp in s.st.placements["straight"] if a == g}
    bend = {sp for a, r, gaps, sp in s.st.placements["bend"] if a == g}
    assert straight == {tuple(sorted((nw, se))), tuple(sorted((ne, sw)))}
    assert bend == {tuple(sorted(x)) for x in ((nw, ne), (ne, se), (se, sw), (sw, nw))}
    # on an outer edge gap only two spaces face it: no straight tile fits there
    top = _gap(geo, 2, 0)
    assert len(geo.faces(top)) == 2
    assert not any(a == top for a, *_ in s.st.placements["straight"])
    assert any(a == top for a, *_ in s.st.placements["bend"])


def test_move_long_tunnel_along_the_outer_edge_costs_one_move(make_state):
    """Move: "the length of the tunnel does not matter"; Game Setup 2: the outer edge is "a
    platform for any tunnel & trapezoid tiles": a long tile covers two edge gaps and every
    space facing them is one move from the others."""
    s = _clean(make_state(n=4))
    p = s.players[0]
    geo = s.st.geo
    g1, g2 = _gap(geo, 1, 0), _gap(geo, 2, 0)        # top edge, between octagons 0-1 and 1-2
    runs = [(a, r, gaps, sp) for a, r, gaps, sp in s.st.placements["long"] if gaps == (g1, g2)]
    assert len(runs) == 1
    a, r, gaps, spaces = runs[0]
    assert set(spaces) == set(geo.faces(g1)) | set(geo.faces(g2)) and len(spaces) == 4
    far_a, far_b = geo.faces(g1)[0], geo.faces(g2)[-1]
    for o in (0, 1, 2):
        explore(s, o, ("mine",) * 4)
    p.workers[0] = far_a
    p.pt = 1
    only(s, ("tile", 0))
    take(s, ("tile", "long", a, r))
    assert s.gap[g1] == s.gap[g2] == ("long", 0, spaces)
    assert s.connected(far_a, far_b) and far_b in s.neighbours(far_a)
    for x in spaces:                                   # each neighbour once (one move each)
        assert len(s.neighbours(x)) == len(set(s.neighbours(x)))
    # both gaps are taken: no other tile there
    only(s, ("tile", 0))
    p.pt = 1
    assert not any(x[2] in (g1, g2) for x in whole(s) if x[0] == "tile")


def test_special_ability_tunnel_requirement_follows_the_tile(make_state):
    """The Special Abilities: "When building tunnels, your worker does not need to be adjacent
    to the indicated building spot as normal": normally a tile must connect a space where the
    player has a worker."""
    s = _clean(make_state(n=4))
    p = s.players[0]
    geo = s.st.geo
    g = _gap(geo, 2, 2)
    nw, ne, se, sw = geo.slots(g)
    p.workers = [nw]
    p.pt = 1
    only(s, ("tile", 0))
    opts = [a for a in whole(s) if a[0] == "tile"]
    for kind, anchor, rot in ((a[1], a[2], a[3]) for a in opts):
        shape = kind if kind in s.tunnel_supply else "trapezoid"
        sp = next(x[3] for x in s.st.placements[shape] if x[0] == anchor and x[1] == rot)
        assert nw in sp
    # the straight tile joining NE and SW does not reach the worker: not offered
    r_ne_sw = next(r for a, r, gaps, sp in s.st.placements["straight"]
                   if a == g and set(sp) == {ne, sw})
    assert ("tile", "straight", g, r_ne_sw) not in opts
    p.ability = "tunnel_anywhere"
    assert ("tile", "straight", g, r_ne_sw) in whole(s)


def test_trade_tunnel_supply_runs_out_per_type(make_state):
    """Trade: "Pay 1 ... power tokens for: a new Tunnel or Trapezoid"; 40 tiles, 10 of each
    type: a type no longer in the supply cannot be bought."""
    s = _clean(make_state(n=4))
    p = s.players[0]
    p.ability = "tunnel_anywhere"
    p.pt = 1
    only(s, ("tile", 0))
    s.tunnel_supply["three_way"] = 0
    kinds = {a[1] for a in s.legal_actions()}
    assert "three_way" not in kinds and {"straight", "bend", "long"} <= kinds


def test_building_connectivity_harvest_through_a_tunnel_only_along_its_arms(make_state):
    """Building Connectivity: "Connected: a built building touching sides, or connected with a
    tunnel"; Harvest: connected farms run with one activation.  A space behind a closed side
    of the tile is not connected."""
    s = _clean(make_state(n=4))
    p = s.players[0]
    geo = s.st.geo
    g = _gap(geo, 2, 2)
    nw, ne, se, sw = geo.slots(g)
    for o in (6, 7, 11, 12):
        explore(s, o, ("greenery",) * 4)
    for sp in (nw, se, sw):
        put(s, sp, "small_farm", 0)
    p.workers = [nw, se, sw]
    s.lay_tile("straight", 0, (g,), tuple(sorted((nw, se))))
    groups = activation_groups(s, p, "harvest")
    assert sorted((nw, se)) in groups and [sw] in groups
    clusters = [grp for t, grp in scoring.clusters(s, 0) if t == "greenery"]
    assert sorted((nw, se)) in clusters


def test_game_setup_6_starting_tunnel_tile_laid_by_each_player(game):
    """Game Setup 6: each player set has its "starting tunnel tiles" (the other reading,
    `start_tunnel.reading = "setup"`: one tile of `start_tunnel.tile`, the player's own, laid
    free right after its starting octagon and connecting one of that octagon's spaces)."""
    rules = game.load_rules(sets=['start_tunnel.reading="setup"']).model
    s = game.new_game(rules, [Seat(f) for f in FACTIONS[:3]], 4)
    laid = []
    while s.phase == "setup":
        frame = s.stack[-1]
        if frame[0] == "start_tunnel":
            opts = s.legal_actions()
            mine = set(range(4 * frame[2], 4 * frame[2] + 4))
            for a in opts:
                sp = next(x[3] for x in s.st.placements[a[1]] if x[0] == a[2] and x[1] == a[3])
                assert mine & set(sp)
            laid.append(frame[1])
        s.apply(s.legal_actions()[0])
    assert sorted(laid) == [0, 1, 2]
    assert {(k, seat) for k, seat, _ in s.gap.values()} == {(rules.start_tunnel.tile, i) for i in range(3)}
    assert sum(s.tunnel_supply.values()) == 40          # not taken from the Corp board


def test_game_setup_6_starting_tunnel_tile_entrance_reading(game, rules):
    """The default reading of "3 Trapezoid & starting tunnel tiles": the Tunnel Entrance tile
    itself ("The Tunnel entrance & Octagon will be placed in the Before your start...
    action"), so no extra tile is laid."""
    assert rules.start_tunnel.reading == "entrance"
    r = rules
    s = game.new_game(r, [Seat(f) for f in FACTIONS[:2]], 4)
    while s.phase == "setup":
        assert s.stack[-1][0] != "start_tunnel"
        s.apply(s.legal_actions()[0])
    assert not s.gap
