"""Crooked Caverns (rulebook "Advanced Game Options", Crooked Caverns): "use T, L or chaotic
shapes, or Octagons out of formation"; "For a larger setup, use the remaining Starting
tiles"; "The outer canvas cannot be used in this version"."""

import json
import random

import pytest

from engine.core.errors import SetupError
from engine.core.protocol import Seat

FACTIONS = ("deltas", "threecees", "tectonics", "enigmas")
CROOKED = ["modules.crooked_caverns=true"]


@pytest.fixture(scope="module")
def crooked(game):
    return game.load_rules(sets=CROOKED).model


def _setup(game, rules, n, m, seed=3):
    s = game.new_game(rules, [Seat(f) for f in FACTIONS[:n]], seed, map=m)
    while s.phase == "setup":
        s.apply(s.legal_actions()[0])
    return s


def test_crooked_caverns_maps_are_t_l_and_chaotic(game, rules, crooked):
    """"use T, L or chaotic shapes": with the module the game's maps are the crooked layouts
    (the base game keeps its one map); an unknown --map names the choices."""
    assert game.maps(rules) == ["octagons"]
    assert game.maps(crooked) == ["crooked_t", "crooked_l", "crooked_chaotic"]
    game.check_setup(crooked, 3, "crooked_l", list(FACTIONS[:3]))
    with pytest.raises(SetupError, match="crooked_t"):
        game.check_setup(crooked, 3, "octagons", list(FACTIONS[:3]))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_larger_setup_with_the_remaining_starting_tiles(game, crooked, n):
    """"For a larger setup, use the remaining Starting tiles": each layout has the base
    layout's octagons (5 per line: 10, 15, 20) plus the 8 - n starting tiles no player got,
    which lie face down off the start slots."""
    for m in game.maps(crooked):
        s = game.new_game(crooked, [Seat(f) for f in FACTIONS[:n]], 7, map=m)
        placed = [t for t in s.tile if t >= 0]
        assert len(placed) == 5 * {2: 2, 3: 3, 4: 4}[n] + (8 - n)
        starts = [o for o, t in enumerate(s.tile) if t >= s.st.n_regular]
        assert len(starts) == 8 - n
        slots = {sl.line * s.st.board.columns + sl.col
                 for grp in s.st.layout.slot_sets for sl in grp}
        assert not set(starts) & slots and not any(s.explored[o] for o in starts)
        assert set(s.start_tile).isdisjoint(s.tile[o] for o in starts)


def test_exploring_a_remaining_starting_tile_claims_its_free_building(game, crooked):
    """"This gives new 'free' buildings to chase": whoever turns a remaining starting tile
    over owns its printed building (assumed), finished."""
    s = _setup(game, crooked, 2, "crooked_t")
    o = next(o for o, t in enumerate(s.tile) if t >= s.st.n_regular and not s.explored[o])
    tile = s.st.tiles[s.tile[o]]
    s.stack = [("rotate", 1, 4 * o)]
    s.agenda = []
    s.apply(("rot", 1))
    sp = 4 * o + (tile.start_space + 1) % 4
    assert s.bld[sp] == tile.start_building and s.owner[sp] == 1 and s.done[sp]
    assert sum(1 for b in s.bld if b is not None) == 3      # two starting buildings + this one


def test_the_outer_canvas_cannot_be_used_no_long_tunnels(game, rules, crooked):
    """"The outer canvas cannot be used in this version": no outer edge, so the long tunnels
    that lie on it have nowhere to go (gap tiles still fit between octagons)."""
    base = _setup(game, rules, 4, "octagons")
    assert base.st.placements["long"]
    for m in game.maps(crooked):
        s = _setup(game, crooked, 4, m)
        assert s.st.geo.edge_runs == [] and s.st.placements["long"] == []
        assert s.st.placements["three_way"]
        p = s.players[0]
        p.ability, p.pt = "tunnel_anywhere", 1
        s.stack, s.agenda = [("tile", 0)], []
        assert "long" not in {a[1] for a in s.legal_actions()}


def test_octagons_out_of_formation_join_only_through_a_tunnel(game, crooked):
    """"Octagons out of formation": in the chaotic layout octagons (2, 1) and (3, 2) meet only
    at a corner (no octagon on (3, 1)); a tile in that gap is the only link between E of the
    one and W of the other."""
    s = _setup(game, crooked, 4, "crooked_chaotic")
    geo = s.st.geo
    C = geo.columns
    a, b = 1 * C + 2, 2 * C + 3                    # (2, 1) and (3, 2): diagonal neighbours
    assert geo.octagon_ok[a] and geo.octagon_ok[b] and not geo.octagon_ok[1 * C + 3]
    sa, sb = 4 * a + 1, 4 * b + 3                  # E of (2, 1) and W of (3, 2)
    g = geo.space_gap[sa]
    assert geo.space_gap[sb] == g and sb not in geo.nb[sa]
    assert geo.slots(g)[1] == -1                   # nothing on the gap's NE side
    s.gap.clear()
    assert not s.connected(sa, sb)
    s.lay_tile("straight", 0, (g,), (sa, sb))
    assert s.connected(sa, sb)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_crooked_games_play_to_the_end_and_log_cells_on_their_map(game, crooked, n):
    """Every crooked map plays a whole game (random legal moves, invariants after every step)
    and each cell it logs has x, y and kind in map_cells for that map."""
    cells = {(c.map, c.cell): c for c in game.map_cells(crooked)}
    assert len(cells) == len(game.map_cells(crooked))
    for m in game.maps(crooked):
        s = game.new_game(crooked, [Seat(f) for f in FACTIONS[:n]], 11 + n, map=m)
        rng = random.Random(n)
        guard = 0
        while not s.is_over() and guard < 5000:
            acts = s.legal_actions()
            s.apply(acts[rng.randrange(len(acts))])
            guard += 1
            assert not game.invariants(s)
        assert s.is_over() and s.map_id == m
        logged = {c for c in s.log.moves()["cell"] if c is not None and c >= 0}
        assert logged and all((m, c) in cells for c in logged)
        # every space of the layout is on the map, with its kind
        for o, ok in enumerate(s.st.geo.octagon_ok):
            if ok:
                assert all(cells[(m, 4 * o + d)].kind == "space" for d in range(4))


def test_crooked_setup_is_a_pure_function_of_the_seed(game, crooked):
    """Determinism: the crooked layout's tiles (and the remaining starting tiles' positions)
    come from the game's chance stream only."""
    a = game.new_game(crooked, [Seat(f) for f in FACTIONS[:3]], 21, map="crooked_chaotic")
    random.seed(99)                                  # disturbing the global generator changes nothing
    b = game.new_game(crooked, [Seat(f) for f in FACTIONS[:3]], 21, map="crooked_chaotic")
    c = game.new_game(crooked, [Seat(f) for f in FACTIONS[:3]], 22, map="crooked_chaotic")
    assert a.tile == b.tile and a.tile != c.tile


def test_a_crooked_start_slot_must_be_on_the_border(game, crooked):
    """A bad crooked layout is rejected naming the map, layout and slot: the entrance of a
    start slot attaches "beside the outer edge" of the tile, so the side must be free."""
    from pydantic import ValidationError

    doc = json.loads(crooked.model_dump_json())
    lay = doc["crooked_maps"]["crooked_t"]["layouts"]["4"]
    lay["slot_sets"][0][0] = {"col": 1, "line": 0, "edge": "E"}    # (2, 0) holds an octagon
    with pytest.raises(ValidationError, match=r"crooked_maps\.crooked_t\.layouts\.4"):
        type(crooked).model_validate(doc)
