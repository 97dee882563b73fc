"""The Gildtails (rulebook Appendix A), each test citing the section it checks."""

import random

from engine.core.protocol import Seat
from engine.games.glimmerdeep.board import bits
from engine.games.glimmerdeep.factions.gildtails import ROWS, calling_vp
from engine.games.glimmerdeep.state import GEM, GOLD, IRON

MAPS = ("bioluminescent", "trade_routes", "snowy_summit", "underground_forest")


def force(s, frame):
    s.stack = [frame]


def new(game, rules, n=2, map="bioluminescent", seed=1):
    fac = ["gildtails", "ironclads", "deepdelvers", "dustwhiskers"][:n]
    return game.new_game(rules, [Seat(f, "random") for f in fac], seed, map=map)


def gold_cells(s, p, k):
    return [1 << c for c in bits(s.static.board.gold & ~p.exc)][:k]


def test_calling_rows_that_beat_the_previous_row_and_rounds_of_four(rules):
    """Appendix A, The Gildtails, Calling: "For each row on the faction sheet that the player has
    crossed out more gold icons than in the previous row, gain the VP shown. For each round in
    which the player crossed out at least 4 icons, gain 4 VP." """
    c = rules.factions["gildtails"].calling
    inc = c["increase_vp"]
    assert calling_vp(c, [0, 0, 0, 0, 0]) == 0
    # rows 1, 2, 2, 4, 5: rows 2, 4, 5 beat their previous row; rows 4 and 5 reach 4 icons.
    assert calling_vp(c, [1, 2, 2, 4, 5]) == inc[0] + inc[1] + inc[3] + inc[4] + 2 * c["threshold_vp"]
    assert calling_vp(c, [4, 3, 3, 3, 3]) == inc[0] + c["threshold_vp"]


def test_calling_crosses_one_icon_per_gold_space_in_the_current_round(game, rules):
    """Appendix A, The Gildtails, Calling: "When the player excavates a gold space during any
    phase: Cross off the leftmost uncrossed gold icon for that round ... If they excavate more
    than one gold space in the same excavate action, they cross off a number of gold icons equal
    to the number of gold spaces excavated." """
    s = new(game, rules)
    p = s.players[0]
    g = gold_cells(s, p, 12)
    s.excavate(p, g[0] | g[1], "test")
    assert p.fx[ROWS] == [2, 0, 0, 0, 0]
    s.round = 3
    s.excavate(p, g[2], "test")
    assert p.fx[ROWS] == [2, 0, 1, 0, 0]
    cap = rules.factions["gildtails"].calling["icons_per_round"]
    s.excavate(p, g[3] | g[4] | g[5] | g[6] | g[7] | g[8] | g[9], "test")
    assert p.fx[ROWS][2] == cap
    assert s.hooks[0].final_scoring(s, p) == [("calling", calling_vp(rules.factions["gildtails"].calling, p.fx[ROWS]))]


def test_level1_left_two_gold_space_excavations_once_per_game(game, rules):
    """Appendix A, The Gildtails, Level 1 trait (left): "Excavate 1 gold space." twice; "Each of
    these actions can be performed only once per game." """
    s = new(game, rules, map="trade_routes")
    p = s.players[0]
    board = s.static.board
    g = gold_cells(s, p, 1)[0]
    p.exc |= board.neighbours(g) & ~board.gold & ~board.blocked   # a gold space within reach
    p.traits.append("gildtails_1l")
    p.activated = set()
    force(s, ("produce", 0))
    s.apply(("activate", "t:gildtails_1l:0"))
    assert s.stack[-1] == ("space", 0, "gold", "production")
    s.apply(next(a for a in s.legal_actions() if a[0] == "dig"))
    assert p.res[GOLD] == 1 and p.fx[ROWS][0] == 1
    p.activated = set()
    force(s, ("produce", 0))
    keys = {a[1] for a in s.legal_actions() if a[0] == "activate"}
    assert "t:gildtails_1l:0" not in keys and "t:gildtails_1l:1" in keys


def test_level1_right_only_one_conversion_once_per_game_at_any_time(game, rules):
    """Appendix A, The Gildtails, Level 1 trait (right): "At any time: Input (1 iron + 1 gem):
    Output (4 gold) / Input (2 gold): Output (2 iron + 2 gems). Only one: Perform only one of
    these actions, and only once per game." (offered in production and on a construction turn)."""
    s = new(game, rules)
    p = s.players[0]
    p.traits.append("gildtails_1r")
    p.res = [1, 2, 1]
    s.passed = set()
    force(s, ("construct", 0))
    acts = s.legal_actions()
    assert ("gt_convert", "t:gildtails_1r:0") in acts and ("gt_convert", "t:gildtails_1r:1") in acts
    s.apply(("gt_convert", "t:gildtails_1r:0"))
    assert p.res == [0, 6, 0]
    assert s.stack[-1] == ("construct", 0)          # still this player's turn
    assert not [a for a in s.legal_actions() if a[0] == "gt_convert"]
    p.activated = set()
    force(s, ("produce", 0))
    assert not [a for a in s.legal_actions() if a[0] == "activate" and "gildtails_1r" in a[1]]


def test_level1_right_at_any_time_includes_the_excavation_phase(game, rules):
    """Appendix A, The Gildtails, Level 1 trait (right): "At any time: Input (1 iron + 1 gem):
    Output (4 gold) / Input (2 gold): Output (2 iron + 2 gems)": also in the excavation phase,
    before placing an excavation card (the card waits)."""
    s = game.new_game(rules, [Seat("gildtails", "random"), Seat("ironclads", "random")], 1,
                      map="bioluminescent")
    p = s.players[0]
    p.traits = ["gildtails_1r"]
    p.res = [1, 2, 1]
    card = s.stack[-1]
    assert card[0] == "excavate" and card[3] == "card" and s.phase == "excavation"
    acts = s.legal_actions()
    assert ("gt_convert", "t:gildtails_1r:0") in acts and ("gt_convert", "t:gildtails_1r:1") in acts
    s.apply(("gt_convert", "t:gildtails_1r:1"))
    assert p.res == [3, 0, 3] and s.stack[-1] == card
    assert not [a for a in s.legal_actions() if a[0] == "gt_convert"]   # only one, once


def test_level1_right_in_production(game, rules):
    """Appendix A, The Gildtails, Level 1 trait (right): 2 gold -> 2 iron + 2 gems."""
    s = new(game, rules)
    p = s.players[0]
    p.traits.append("gildtails_1r")
    p.res = [0, 2, 0]
    p.activated = set()
    force(s, ("produce", 0))
    s.apply(("activate", "t:gildtails_1r:1"))
    assert p.res == [2, 0, 2]
    p.activated = set()
    p.res = [5, 5, 5]
    force(s, ("produce", 0))
    assert not [a for a in s.legal_actions() if a[0] == "activate" and "gildtails_1r" in a[1]]


def test_level2_left_two_gold_spaces_one_extra_gold(game, rules):
    """Appendix A, The Gildtails, Level 2 trait (left): "When the player excavates at least 2 gold
    spaces in a single excavate action: Gain 1 extra gold." """
    s = new(game, rules)
    p = s.players[0]
    p.traits.append("gildtails_2l")
    g = gold_cells(s, p, 3)
    s.excavate(p, g[0], "test")
    assert p.res[GOLD] == 1
    s.excavate(p, g[1] | g[2], "test")
    assert p.res[GOLD] == 4


def test_level2_right_gold_as_gems_when_constructing_and_gold_column_vp(game, rules):
    """Appendix A, The Gildtails, Level 2 trait (right): "When you construct a building, you may
    spend gold as gems. When you construct from the +gold market column, gain 2 VP." """
    s = new(game, rules)
    p = s.players[0]
    p.res = [0, 2, 0]
    assert not s.can_pay(p, (0, 0, 2), "construct")
    p.traits.append("gildtails_2r")
    assert s.can_pay(p, (0, 0, 2), "construct")
    assert not s.can_pay(p, (0, 0, 2), "activate")     # construction only
    # Build from the +gold slot.
    slot = list(rules.market.extra_costs).index("gold")
    board = s.static.board
    fp = next(f for f in s.static.footprint["workshop"]
              if not f & (board.blocked | board.settlement) and not board.neighbours(f) & board.settlement)
    p.exc |= fp
    p.res = [20, 20, 20]
    card = s.static.cards["workshop"][s.market["workshop"][slot]]
    s.construct(p, "workshop", slot, card, fp, "")
    assert p.vp == 2 and s.log.breakdown(0)["vp_track"] == 2
    slot_none = list(rules.market.extra_costs).index("none")
    fp2 = next(f for f in s.static.footprint["workshop"]
               if not f & (board.blocked | board.settlement | p.built)
               and not board.neighbours(f) & p.built)
    p.exc |= fp2
    card = s.static.cards["workshop"][s.market["workshop"][slot_none]]
    s.construct(p, "workshop", slot_none, card, fp2, "")
    assert p.vp == 2


def test_level3_left_double_gold_and_double_gold_vp(game, rules):
    """Appendix A, The Gildtails, Level 3 trait (left): "The player gains double gold from every
    gold space they excavate." "End of the game: ... Instead of gaining 1 VP for every 2 gold,
    they gain 2 VP for every 2 gold." """
    s = new(game, rules)
    p = s.players[0]
    p.traits.append("gildtails_3l")
    g = gold_cells(s, p, 1)
    s.excavate(p, g[0], "test")
    assert p.res[GOLD] == 2
    p.res = [0, 5, 0]
    out = dict(s.hooks[0].final_scoring(s, p))
    assert out["traits"] == 2                     # 5 gold: 2 VP base (resources) + 2 VP trait


def test_level3_right_vp_for_gold_spent_activating(game, rules):
    """Appendix A, The Gildtails, Level 3 trait (right) (missing; assumed from Appendix B's
    "gold and iron Level 3 traits that generate VP ... based on activating buildings"): 1 VP
    per gold in an own building's activation input; outposts do not trigger it."""
    s = game.new_game(rules, [Seat("gildtails"), Seat("ironclads")], 3, map="trade_routes")
    p = s.players[0]
    p.traits.append("gildtails_3r")
    card = next(c for c in rules.forges if c.input.gold >= 1)
    p.buildings.append(("forge", card.id, 0))
    p.res = [10, 10, 10]
    p.activated = set()
    s.phase = "production"
    force(s, ("produce", 0))
    vp0 = p.vp
    s.apply(("activate", "b0"))
    assert p.vp - vp0 == card.input.gold + card.output.vp
    # An outpost activation is not a building activation.
    board = s.static.board
    p.exc = board.full & ~board.blocked
    gmap = next(m for m in rules.maps if m.id == "trade_routes")
    j = next(i for i, o in enumerate(gmap.outposts) if o.input.gold >= 1)
    vp1 = p.vp
    s.apply(("activate", f"o{j}"))
    assert p.vp - vp1 == gmap.outposts[j].output.vp


def test_random_games_keep_invariants(random_games_ok):
    """Events (DESIGN.md): score events sum to the final score, resources never go negative,
    with the Gildtails in every seat position, 1-4 players, every map."""
    assert random_games_ok("gildtails", n_games=16, seed=500) > 0
