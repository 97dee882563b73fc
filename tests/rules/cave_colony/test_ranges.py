"""Rulebook common terms: "# Tiles Away" (following walls), "within line of sight" (without
taking any turns), "through Walls" (not following walls); the Inner and Outer Rings."""

from cc_helpers import cell, lay
from engine.games.cave_colony.zone import in_range, within_sight, within_walls


def _corridor(s):
    """ (2,2)=(3,2)=(4,2) in a row, then a turn south to (4,3); (2,3) is walled off."""
    lay(s, cell(s, 2, 2), "four_way", "E")
    lay(s, cell(s, 3, 2), "straight", "EW")
    lay(s, cell(s, 4, 2), "curved", "WS")
    lay(s, cell(s, 4, 3), "four_way", "NESW")
    lay(s, cell(s, 2, 3), "four_way", "NESW")     # below (2,2), but (2,2) is closed south


def test_tiles_away_follow_the_walls(at_actions):
    s = at_actions()
    _corridor(s)
    reach = within_walls(s.mask, s.st.zone.nbr, cell(s, 2, 2), 3)
    assert reach[cell(s, 3, 2)] == 1 and reach[cell(s, 4, 2)] == 2 and reach[cell(s, 4, 3)] == 3
    assert cell(s, 2, 3) not in reach                # the wall between them blocks


def test_line_of_sight_takes_no_turns(at_actions):
    s = at_actions()
    _corridor(s)
    reach = within_sight(s.mask, s.st.zone.nbr, cell(s, 2, 2), 5)
    assert cell(s, 4, 2) in reach and cell(s, 4, 3) not in reach   # the corner is a turn


def test_through_walls_counts_grid_steps(at_actions):
    s = at_actions()
    _corridor(s)
    reach = in_range(s.st.zone, s.mask, cell(s, 2, 2), 1, "through_walls")
    assert cell(s, 2, 3) in reach and cell(s, 3, 3) not in reach   # diagonal is 2 steps
    assert len(reach) == 5


def test_rings_are_counted_from_the_colonies(rules):
    """"# Inner Ring: The Tile Spaces surrounding the Colony Tiles"; "# Outer Ring: The Tile
    Spaces around the outside of the Play Area, 4 Tiles away from the Colonies"."""
    from engine.games.cave_colony.static import static_for
    zone = static_for(rules, None).zone
    size = zone.size
    assert [zone.ring[5 * size + x] for x in range(size)] == [4, 3, 2, 1, 0, 0, 1, 2, 3, 4]
    assert sorted(zone.colony_cell.values()) == [44, 45, 54, 55]
