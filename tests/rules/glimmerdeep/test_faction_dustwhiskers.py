"""The Dustwhiskers (rulebook Appendix A), each test citing the section it checks."""

import random

from engine.core.protocol import Seat
from engine.games.glimmerdeep.factions.dustwhiskers import discounted, largest_dirt_cluster
from glim_digs import apply_dig, dig_masks

MAPS = ("bioluminescent", "trade_routes", "snowy_summit", "underground_forest")


def force(s, frame):
    s.stack = [frame]


def new(game, rules, n=2, map="bioluminescent", seed=1):
    fac = ["dustwhiskers", "deepdelvers", "ironclads", "gildtails"][:n]
    return game.new_game(rules, [Seat(f, "random") for f in fac], seed, map=map)


def cell(board, x, y):
    return 1 << board.cell(x, y)


def test_calling_largest_cluster_of_excavated_dirt(game, rules):
    """Appendix A, The Dustwhiskers, Calling: "earn VP for their largest cluster of contiguous
    dirt spaces they excavated. Each space in the largest cluster is worth one VP." The starting
    settlement counts as dirt and excavated; resource spaces break a cluster."""
    s = new(game, rules)
    p = s.players[0]
    board = s.static.board          # bioluminescent map, settlement at (3..4, 6..7)
    assert board.kinds[board.cell(5, 7)] == "dirt" and board.kinds[board.cell(5, 6)] == "iron"
    # Settlement (4) + (5,7) dirt + (2,7) dirt: one cluster of 6.
    p.exc |= cell(board, 5, 7) | cell(board, 2, 7)
    assert largest_dirt_cluster(board, p.exc, p.built) == 6
    # An excavated iron space does not add, and a separate dirt group does not join.
    p.exc |= cell(board, 5, 6) | cell(board, 0, 0)
    assert largest_dirt_cluster(board, p.exc, p.built) == 6
    assert s.hooks[0].final_scoring(s, p) == [("calling", 6)]


def test_forest_and_peak_are_dirt_spaces(game, rules):
    """Appendix B: "Forest spaces are considered dirt spaces" and "The Peak is considered a dirt
    space" (for "excavate 1 dirt space" and the traits that count dirt spaces)."""
    s = new(game, rules, map="underground_forest")
    board = s.static.board
    assert board.forest and board.forest & board.dirt == board.forest
    s2 = new(game, rules, map="snowy_summit")
    assert s2.static.board.peak & s2.static.board.dirt


def test_calling_forest_and_peak_break_a_cluster(game, rules):
    """Appendix A, The Dustwhiskers, Calling: "Spaces that contain a resource (or spaces unique
    to the player's map), as well as spaces that have not been excavated, cannot be included and
    can break up a cluster."  Forest spaces and the Peak are the spaces unique to a map."""
    s = new(game, rules, map="underground_forest")
    p, board = s.players[0], s.static.board
    # (0,3) (0,4) (0,5) dirt, (1,3) forest, (2,3) dirt: one chain of 5 if forest counted.
    assert [board.kinds[board.cell(x, y)] for x, y in ((0, 3), (0, 4), (0, 5), (1, 3), (2, 3))] \
        == ["dirt", "dirt", "dirt", "forest", "dirt"]
    for x, y in ((0, 3), (0, 4), (0, 5), (1, 3), (2, 3)):
        p.exc |= cell(board, x, y)
    assert s.hooks[0].final_scoring(s, p) == [("calling", 4)]      # the settlement's 4
    s = new(game, rules, map="snowy_summit")
    p, board = s.players[0], s.static.board
    chain = ((7, 0), (7, 1), (6, 1), (5, 1), (4, 1), (8, 1))        # the Peak, then 5 dirt
    assert board.kinds[board.cell(7, 0)] == "peak"
    assert all(board.kinds[board.cell(x, y)] == "dirt" for x, y in chain[1:])
    for x, y in chain:
        p.exc |= cell(board, x, y)
    assert s.hooks[0].final_scoring(s, p) == [("calling", 5)]
    # The other reading (forest and Peak as dirt in the cluster) is a switch in the rules data.
    old = game.load_rules(sets=["factions.dustwhiskers.calling.unique_spaces_break_clusters=0"]).model
    s = game.new_game(old, [Seat("dustwhiskers", "random"), Seat("ironclads", "random")], 1,
                      map="snowy_summit")
    s.players[0].exc |= p.exc
    assert s.hooks[0].final_scoring(s, s.players[0]) == [("calling", 6)]


def _card_with_iron(rules, kind):
    cards = rules.workshops if kind == "workshop" else rules.forges
    return next(c for c in cards if c.cost.iron >= 1 and (c.cost.gold or c.cost.gem or kind == "workshop"))


def test_level1_left_workshop_over_two_dirt_costs_one_iron_less(game, rules):
    """Appendix A, The Dustwhiskers, Level 1 trait (left): "When the player constructs a workshop
    over 2 or more dirt spaces, the construction cost is reduced by 1 iron." """
    s = new(game, rules)
    p = s.players[0]
    board = s.static.board
    card = _card_with_iron(rules, "workshop")
    fps = s.static.footprint["workshop"]
    dirty = next(fp for fp in fps if (fp & board.dirt).bit_count() >= 2)
    clean = next(fp for fp in fps if (fp & board.dirt).bit_count() <= 1)
    base = [card.cost.iron, card.cost.gold, card.cost.gem]
    assert s.build_cost(p, "workshop", -1, card, dirty) == base        # trait not taken
    p.traits.append("dustwhiskers_1l")
    assert s.build_cost(p, "workshop", -1, card, dirty) == [base[0] - 1] + base[1:]
    assert s.build_cost(p, "workshop", -1, card, clean) == base
    # "The trait can reduce ... the cost added by the market": +iron slot, card without iron.
    assert discounted([1, 2, 0], 1, 0) == [0, 2, 0]
    assert discounted([0, 2, 0], 1, 0) == [0, 2, 0]      # no iron to take off
    # Forges are not discounted by this trait.
    forge = _card_with_iron(rules, "forge")
    ffp = next(fp for fp in s.static.footprint["forge"] if (fp & board.dirt).bit_count() >= 3)
    assert s.build_cost(p, "forge", -1, forge, ffp) == [forge.cost.iron, forge.cost.gold, forge.cost.gem]


def test_level2_left_forge_on_three_dirt_one_iron_and_one_any_less(game, rules):
    """Appendix A, The Dustwhiskers, Level 2 trait (left): "When the player constructs a forge on
    at least 3 dirt spaces, pay 1 fewer iron and 1 fewer resource of any kind." """
    s = new(game, rules)
    p = s.players[0]
    board = s.static.board
    p.traits.append("dustwhiskers_2l")
    forge = _card_with_iron(rules, "forge")
    base = [forge.cost.iron, forge.cost.gold, forge.cost.gem]
    fps = s.static.footprint["forge"]
    dirty = next(fp for fp in fps if (fp & board.dirt).bit_count() >= 3)
    clean = next(fp for fp in fps if (fp & board.dirt).bit_count() <= 2)
    got = s.build_cost(p, "forge", -1, forge, dirty)
    assert got == discounted(base, 1, 1) and sum(got) == sum(base) - 2 and got[0] <= base[0] - 1
    assert s.build_cost(p, "forge", -1, forge, clean) == base
    # "1 fewer resource of any kind": the rarest one (never worse for the player).
    assert discounted([2, 1, 1], 1, 1) == [1, 1, 0]
    assert discounted([2, 1, 0], 1, 1) == [1, 0, 0]
    assert discounted([2, 0, 0], 1, 1) == [0, 0, 0]


def test_level1_right_production_excavates_one_dirt_space(game, rules):
    """Appendix A, The Dustwhiskers, Level 1 trait (right): "Production phase action: Excavate 1
    dirt space." (every production phase)."""
    s = new(game, rules)
    p = s.players[0]
    board = s.static.board
    p.traits.append("dustwhiskers_1r")
    p.activated = set()
    force(s, ("produce", 0))
    s.apply(("activate", "t:dustwhiskers_1r:0"))
    assert s.stack[-1] == ("space", 0, "dirt", "production")
    digs = [a[1] for a in s.legal_actions() if a[0] == "dig"]
    assert digs and all(m.bit_count() == 1 and m & board.dirt for m in digs)
    p.activated = set()
    force(s, ("produce", 0))
    assert ("activate", "t:dustwhiskers_1r:0") in s.legal_actions()


def test_level2_right_two_dirt_spaces_at_end_of_excavation(game, rules):
    """Appendix A, The Dustwhiskers, Level 2 trait (right): "At the end of the excavation phase,
    the player may excavate 2 dirt spaces." """
    s = new(game, rules, n=1)
    p = s.players[0]
    p.traits.append("dustwhiskers_2r")
    for _ in range(3):                      # the three cards of round 1
        assert s.stack[-1][0] == "excavate"
        s.apply(("skip",))
    assert s.stack[-1] == ("space", 0, "dirt", "trait")
    s.apply(next(a for a in s.legal_actions() if a[0] == "dig"))
    assert s.stack[-1] == ("space", 0, "dirt", "trait")
    assert ("skip",) in s.legal_actions()   # "may"
    s.apply(("skip",))
    assert s.stack[-1][0] == "construct"


def test_level3_left_one_vp_per_dirt_space_built_over(game, rules):
    """Appendix A, The Dustwhiskers, Level 3 trait (left): "At the end of the game, the player
    gains 1 VP for each dirt space they have constructed over." (the settlement is not built by
    the player)."""
    s = new(game, rules)
    p = s.players[0]
    board = s.static.board
    fp = next(f for f in s.static.footprint["workshop"] if (f & board.dirt).bit_count() == 3)
    p.buildings.append(("workshop", rules.workshops[0].id, fp))
    p.built |= fp
    p.traits.append("dustwhiskers_3l")
    out = dict(s.hooks[0].final_scoring(s, p))
    assert out["traits"] == 3


def test_level3_right_dirt_or_single_space_may_become_2x1(game, rules):
    """Appendix A, The Dustwhiskers, Level 3 trait (right): "When a player would excavate a dirt
    space, they may excavate a 2x1 space instead. When a player would excavate 1 space of any
    kind, they may excavate a 2x1 space instead." """
    s = new(game, rules)
    p = s.players[0]
    board = s.static.board
    for frame in (("space", 0, "dirt", "t"), ("space", 0, "any", "t"), ("excavate", 0, "1x1", "t")):
        force(s, frame)
        assert max(m.bit_count() for m in dig_masks(s)) == 1
    p.traits.append("dustwhiskers_3r")
    force(s, ("space", 0, "dirt", "t"))
    digs = [a[1] for a in s.legal_actions() if a[0] == "dig"]
    assert max(m.bit_count() for m in digs) == 2
    assert all(m & board.dirt for m in digs)          # the 2x1 replaces a dirt space
    force(s, ("space", 0, "any", "t"))
    assert max(a[1].bit_count() for a in s.legal_actions() if a[0] == "dig") == 2
    force(s, ("excavate", 0, "1x1", "t"))
    two = [m for m in dig_masks(s) if m.bit_count() == 2]
    assert two
    apply_dig(s, two[0])
    assert p.exc & two[0] == two[0]


def test_level3_right_one_space_of_any_kind_includes_resource_spaces(game, rules):
    """Appendix A, The Dustwhiskers, Level 3 trait (right): "When a player would excavate 1 space
    of any kind, they may excavate a 2x1 space instead."  "Of any kind" takes in "Excavate 1
    gold / iron / gem space" (workshops w05, w16, w17, w22, w34, forge f27): the 2x1 holds a
    space of the named kind that could be excavated alone."""
    s = new(game, rules, map="snowy_summit")
    p = s.players[0]
    board = s.static.board
    p.traits.append("dustwhiskers_3r")
    p.exc = board.full & ~board.blocked & ~board.peak & ~(board.iron | board.gold | board.gem)
    for kind in ("iron", "gold", "gem"):
        force(s, ("space", 0, kind, "t"))
        digs = [a[1] for a in s.legal_actions() if a[0] == "dig"]
        singles = {m for m in digs if m.bit_count() == 1}
        pairs = [m for m in digs if m.bit_count() == 2]
        assert singles and pairs, kind
        assert all(m & board.kind_mask(kind) & ~p.exc for m in pairs)
    # Without the trait a named space stays one space.
    p.traits.remove("dustwhiskers_3r")
    force(s, ("space", 0, "iron", "t"))
    assert max(a[1].bit_count() for a in s.legal_actions() if a[0] == "dig") == 1



def test_random_games_keep_invariants(random_games_ok):
    """Events (DESIGN.md): score events sum to the final score, resources never go negative,
    with the Dustwhiskers in every seat position, 1-4 players, every map."""
    assert random_games_ok("dustwhiskers", n_games=16, seed=200) > 0


def test_level3_left_built_dirt_in_the_largest_cluster_scores_twice(game, rules):
    """Appendix A, The Dustwhiskers, Level 3 trait (left), its worked reading (RB:185-186):
    "If a player has a building on dirt spaces that are a part of their largest cluster, each
    of those building spaces will score VPs twice"; "Excavated dirt spaces that have a
    building constructed on them, but are not within the largest cluster, still score 1 VP."
    A workshop inside the cluster joined to the settlement and one far away: the calling
    counts the inside one's dirt, the trait counts both."""
    from engine.games.glimmerdeep.board import components

    s = new(game, rules, map="underground_forest")
    b = s.static.board
    p = s.players[0]
    h = s.hooks[0]
    p.traits = ["dustwhiskers_3l"]
    dirt = b.dirt & ~b.forest & ~b.peak
    fps = s.static.footprint["workshop"]
    inside = max((f for f in fps if not f & b.settlement and not b.neighbours(f) & b.settlement
                  and b.grow(b.grow(f)) & b.settlement), key=lambda f: (f & dirt).bit_count())
    far = max((f for f in fps if not b.grow(b.grow(f)) & (inside | b.settlement)),
              key=lambda f: (f & dirt).bit_count())
    link = b.neighbours(b.settlement) & b.neighbours(inside) & dirt
    p.exc = b.settlement | inside | far | link
    for f in (inside, far):
        p.built |= f
        p.buildings.append(("workshop", rules.workshops[0].id, f))
    out = dict(h.final_scoring(s, p))
    big = max(components(b, (p.exc | p.built) & dirt), key=lambda c: c.bit_count())
    vp = rules.factions["dustwhiskers"].calling["vp_per_space"]
    assert out["calling"] == big.bit_count() * vp            # the largest cluster
    assert out["traits"] == ((inside | far) & b.dirt).bit_count()   # every built dirt space
    assert (inside & big).bit_count() > 0                    # these score in both: twice
    assert not (far & big) and (far & b.dirt).bit_count() > 0   # outside: still 1 VP each
