"""Rulebook "Discovery" and its notes (the colony ring, dead ends, the empty bag)."""

import pytest

from cc_helpers import E, N, S, W, cell, kinds, lay, only_bag
from engine.games.cave_colony.zone import mask_of


def _worker_at(s, c):
    s.pos[s.cur] = c
    return s.cur


def test_discovery_orientation_connects_to_the_tile_moved_from(at_actions):
    """"You may pick the orientation the Tile is placed as long as it connects to the Tile your
    Worker moved from": moving north from a four-way tile onto an empty space, a curved tile
    may lie only the two ways open to the south."""
    s = at_actions(energy=5)
    here = lay(s, cell(s, 4, 2), "four_way", "NESW")
    _worker_at(s, here)
    only_bag(s, {"curved": 3})
    s.apply(("move", N))
    assert s.stack[-1][0] == "orient"
    opts = s.legal_actions()
    assert sorted(opts) == [("orient", mask_of("ES")), ("orient", mask_of("SW"))]
    s.apply(("orient", mask_of("SW")))
    target = cell(s, 4, 1)
    assert s.pos[s.cur] == target and s.mask[target] == mask_of("SW")
    assert s.bag[s.st.tile_ids.index("curved")] == 2
    assert s.stack[-1][0] == "act"                 # discovery is a free action: the turn goes on
    assert s.energy == 4                           # only the move cost energy


def test_discovery_is_only_onto_an_empty_space_through_an_open_side(at_actions):
    """A worker leaves its tile through an open side; onto a placed tile only if that tile is
    open on the shared side ("# Tiles Away ... following the restrictions of Walls")."""
    s = at_actions(energy=5)
    here = lay(s, cell(s, 4, 2), "straight", "NS")
    _worker_at(s, here)
    lay(s, cell(s, 4, 1), "curved", "ES")          # open to the south: connects
    moves = kinds(s.legal_actions(), "move")
    assert ("move", N) in moves and ("move", E) not in moves and ("move", W) not in moves
    s.mask[cell(s, 4, 1)] = mask_of("NE")          # closed to the south: a wall
    assert ("move", N) not in s.legal_actions()


def test_gem_tiles_get_their_gem_and_dead_ends_three(at_actions):
    """"If a Tile is a Gem Tile, place the matching Gem Crystal on that Tile. (If the Tile is a
    Dead End, 3 of that Resource are placed on that Tile)"."""
    s = at_actions(energy=5)
    here = lay(s, cell(s, 4, 2), "four_way", "NESW")
    _worker_at(s, here)
    only_bag(s, {"gem_blue_cross": 1})
    s.apply(("move", N))
    c = cell(s, 4, 1)
    assert s.cgem[c * 5 + 3] == 1 and s.gem_supply[3] == 9
    # a dead end in the outer ring, entered from ring 3: 3 white gems
    lay(s, cell(s, 5, 1), "four_way", "NESW")
    _worker_at(s, cell(s, 5, 1))
    only_bag(s, {"dead_end_white": 1})
    s.apply(("move", N))
    c = cell(s, 5, 0)
    assert s.st.zone.ring[c] == s.st.zone.outer
    assert s.cgem[c * 5 + 0] == 3 and s.gem_supply[0] == 7
    assert s.mask[c] == mask_of("S")               # its one opening faces the way in


def test_colony_ring_tiles_are_three_or_four_way_and_form_a_circular_path(at_actions):
    """"The Tiles surrounding the Colonies must be 3-Way or 4-Way Tiles, and they must wrap
    around the Colonies so that there is an accessible circular path": with straight tiles and
    one three-way tile in the bag, the three-way is drawn, turned open to both neighbouring
    ring spaces and to the colony the worker came from."""
    s = at_actions(energy=5)
    s.pos[s.cur] = s.home(s.cur)
    home = s.home(s.cur)
    x, y = s.st.zone.xy[home]
    d = N if y == 4 else S                         # out of the central square
    only_bag(s, {"straight": 9, "three_way": 1})
    s.apply(("move", d))
    target = s.st.zone.nbr[home][d]
    assert s.st.zone.ring[target] == 1
    assert s.st.tile_ids[s.tile[target]] == "three_way"
    assert s.mask[target] == mask_of("EWS" if d == N else "EWN")  # one way only: no decision
    assert s.stack[-1][0] == "act"
    ring = s.st.zone.ring_sides[target]
    assert s.mask[target] & ring == ring


@pytest.mark.parametrize("other", ["gem_white_cross", "anomaly_cross"])
def test_gem_and_anomaly_tiles_never_lie_on_the_inner_ring(at_actions, other):
    """RB:127 "The Tiles surrounding the Colonies must be 3-Way or 4-Way Tiles": the components
    "Four-Way Tiles" and "Three-Way Tiles" (RB:25-27), not the gem or anomaly tiles (RB:35-37)
    even where they have four open sides (turn-3 audit D3: 097fdb9 drew the open gem or anomaly
    tile here).  With one four-way tile and ten four-sided `other` tiles in the bag, the
    four-way is the one that lies on the Inner Ring."""
    s = at_actions(energy=5)
    s.pos[s.cur] = s.home(s.cur)
    home = s.home(s.cur)
    x, y = s.st.zone.xy[home]
    d = N if y == 4 else S
    only_bag(s, {other: 10, "four_way": 1})
    s.apply(("move", d))
    target = s.st.zone.nbr[home][d]
    assert s.st.zone.ring[target] == 1
    assert s.st.tile_ids[s.tile[target]] == "four_way"


def test_the_inner_ring_reading_is_a_switch(game):
    """`zone.inner_kinds = []` restores the reading by open sides alone (any tile with three or
    four open sides), for a designer who wants to compare."""
    from engine.games.cave_colony.static import static_for
    literal = static_for(game.load_rules().model, None)
    by_sides = static_for(game.load_rules(sets=["zone.inner_kinds=[]"]).model, None)
    ok = dict(zip(literal.tile_ids, literal.inner_ok))
    assert ok["four_way"] and ok["three_way"] and not ok["gem_white_cross"]
    assert not ok["anomaly_cross"] and not ok["curved"]
    assert dict(zip(by_sides.tile_ids, by_sides.inner_ok))["gem_white_cross"]


def test_every_inner_ring_space_has_two_ring_neighbours(rules, game):
    """The Inner Ring is the 12 spaces around the 2x2 colony square; each has two neighbours
    in the ring, so open sides towards both make a circular path."""
    from engine.games.cave_colony.static import static_for
    zone = static_for(rules, None).zone
    assert len(zone.inner) == 12
    assert all(bin(zone.ring_sides[c]).count("1") == 2 for c in zone.inner)
    assert zone.outer == 4 and sum(1 for r in zone.ring if r == 4) == 36


def test_dead_end_placement_only_in_the_outer_ring(at_actions):
    """"Dead End Tiles can only be placed down if: it is in the outer ring of tiles (4 tiles
    away from the centre); if the only way to get to that Tile is from the outer ring; or if
    there are only Dead End's left"."""
    s = at_actions(energy=9)
    # ring 2, entered from ring 3: a dead end may not lie there; the four-way is drawn
    here = lay(s, cell(s, 4, 1), "four_way", "NESW")
    _worker_at(s, here)
    only_bag(s, {"dead_end_green": 1, "four_way": 1})
    s.apply(("move", S))
    assert s.st.tile_ids[s.tile[cell(s, 4, 2)]] == "four_way"
    # ring 3 entered from the outer ring: allowed ("the only way to get to that Tile")
    here = lay(s, cell(s, 6, 0), "four_way", "NESW")
    _worker_at(s, here)
    only_bag(s, {"dead_end_green": 1, "four_way": 1})
    seen = set()
    for seed in range(12):                      # both may be drawn
        t = s.clone()
        t.rng.seed(seed)
        t.apply(("move", S))
        seen.add(t.st.tile_ids[t.tile[cell(t, 6, 1)]])
    assert seen == {"dead_end_green", "four_way"}
    # ring 2 with only dead ends left: allowed
    here = lay(s, cell(s, 7, 2), "four_way", "NESW")
    _worker_at(s, here)
    only_bag(s, {"dead_end_green": 1})
    s.apply(("move", W))
    c = cell(s, 6, 2)
    assert s.st.tile_ids[s.tile[c]] == "dead_end_green" and s.exempt >> c & 1


def test_redraw_keeps_the_notes_and_sets_them_aside_only_when_no_tile_fits(at_actions):
    """Assumed (RULES.md, "Discovery"): a tile that may not lie there goes back and another is
    drawn; with no fitting tile in the bag the notes are set aside."""
    s = at_actions(energy=5)
    home = s.home(s.cur)
    d = N if s.st.zone.xy[home][1] == 4 else S
    only_bag(s, {"straight": 2})
    s.apply(("move", d))
    target = s.st.zone.nbr[home][d]
    if s.stack[-1][0] == "orient":
        s.apply(s.legal_actions()[0])
    assert s.st.tile_ids[s.tile[target]] == "straight"
    assert s.exempt >> target & 1


def test_empty_bag_spaces_act_as_four_way_tiles(at_actions):
    """"If you run out of Tiles while discovering, treat all empty spaces afterwards as 4-Way
    Tiles"."""
    s = at_actions(energy=5)
    here = lay(s, cell(s, 4, 2), "straight", "NS")
    _worker_at(s, here)
    only_bag(s, {})
    s.apply(("move", N))
    c = cell(s, 4, 1)
    assert s.st.tile_ids[s.tile[c]] == "open" and s.mask[c] == 15
    assert ("move", W) in s.legal_actions() and ("move", E) in s.legal_actions()


def test_discovery_draws_let_the_player_choose_the_tile(at_actions):
    """Modifier `discovery_draws` (Cartographer, Lantern; assumed vocabulary): draw 1 + N tiles,
    keep one, the others go back into the bag."""
    s = at_actions(energy=5)
    here = lay(s, cell(s, 4, 2), "four_way", "NESW")
    _worker_at(s, here)
    only_bag(s, {"curved": 1, "straight": 1})
    m = list(s.mods[s.cur])
    from engine.games.cave_colony import cards as C
    m[C.DISCOVERY_DRAWS] = 1
    s.mods[s.cur] = tuple(m)
    s.apply(("move", N))
    assert sorted(s.legal_actions()) == [("tile", s.st.tile_ids.index("curved")),
                                         ("tile", s.st.tile_ids.index("straight"))]
    s.apply(("tile", s.st.tile_ids.index("straight")))
    assert s.bag[s.st.tile_ids.index("curved")] == 1
    c = cell(s, 4, 1)
    assert s.st.tile_ids[s.tile[c]] == "straight" and s.mask[c] == mask_of("NS")


@pytest.mark.parametrize("seed", range(3))
def test_placed_tiles_keep_the_notes_in_random_games(game, rules, seed):
    """In whole random games the invariants (tile counts, ring path, dead ends) hold."""
    import random
    from engine.core.protocol import Seat
    s = game.new_game(rules, [Seat(c) for c in ("red", "green", "blue", "yellow")], seed)
    rng = random.Random(seed)
    while not s.is_over():
        a = s.legal_actions()
        s.apply(a[rng.randrange(len(a))])
    assert game.invariants(s) == []
    assert sum(1 for t in s.tile if 0 <= t < s.st.n_regular) > 20
