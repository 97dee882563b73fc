"""The Gemwardens (rulebook Appendix A), each test citing the section it checks."""

import random

from engine.core.protocol import Seat
from engine.games.glimmerdeep.board import bits
from engine.games.glimmerdeep.factions.gemwardens import explored_gems
from engine.games.glimmerdeep.state import GEM, GOLD, IRON

MAPS = ("bioluminescent", "trade_routes", "snowy_summit", "underground_forest")


def new(game, rules, n=2, map="bioluminescent", seed=1):
    fac = ["gemwardens", "dustwhiskers", "ironclads", "gildtails"][:n]
    return game.new_game(rules, [Seat(f, "random") for f in fac], seed, map=map)


def produce(s, seat=0):
    s.phase = "production"
    s.players[seat].activated = set()
    s.stack = [("produce", seat)]


def bit(s, x, y):
    return 1 << s.static.board.cell(x, y)


def test_setup_extra_gem(game, rules):
    """Appendix A, The Gemwardens, Gems: "they do start the game with an additional gem." """
    s = new(game, rules)
    assert s.players[0].res[GEM] == s.players[1].res[GEM] + 1 == 1


def test_cannot_excavate_gem_spaces(game, rules):
    """Appendix A, The Gemwardens, Gems: "The Gemwardens cannot excavate gem spaces." """
    s = new(game, rules)
    p = s.players[0]
    board = s.static.board
    p.exc = board.full & ~board.blocked & ~board.gem     # every gem space is within reach
    s.stack = [("excavate", 0, "tee4", "card")]
    digs = [a[1] for a in s.legal_actions() if a[0] == "dig"]
    assert digs == [] or all(not m & board.gem for m in digs)
    s.stack = [("space", 0, "gem", "production")]
    assert s.legal_actions() == [("skip",)]
    s.stack = [("space", 1, "gem", "production")]        # another faction may
    s.players[1].exc = p.exc
    assert len(s.legal_actions()) == board.gem.bit_count() + 1


def test_calling_explored_gems(game, rules):
    """Appendix A, The Gemwardens, Calling: '"Explored" gems are those that have not been
    excavated but are adjacent to an excavated space. They earn VP at the end of the game based
    on how many gems they have explored.' (VP table assumed.)"""
    s = new(game, rules)
    p = s.players[0]
    board = s.static.board
    table = rules.factions["gemwardens"].calling["explored_vp"]
    p.exc = board.settlement
    assert explored_gems(board, p.exc) == 0
    assert s.hooks[0].final_scoring(s, p) == [("calling", table[0])]
    p.exc |= bit(s, 1, 8) | bit(s, 0, 0)       # next to the gems at (0,8) and (0,1)
    assert explored_gems(board, p.exc) == 2
    assert s.hooks[0].final_scoring(s, p) == [("calling", table[2])]
    p.exc |= bit(s, 0, 8)                       # an excavated gem is not "explored"
    assert explored_gems(board, p.exc) == 1
    p.exc = board.full & ~board.gem             # all gems explored: the table's last entry caps it
    assert s.hooks[0].final_scoring(s, p) == [("calling", table[min(6, len(table) - 1)])]


def test_level1_left_production_actions(game, rules):
    """Appendix A, The Gemwardens, Level 1 trait (left): "Input (2 iron): Output (1 gem)" and
    "Excavate 1 iron space. (Perform only once per game.)" twice."""
    s = new(game, rules)
    p = s.players[0]
    p.traits = ["gemwardens_1l"]
    p.res = [4, 0, 0]
    produce(s)
    acts = s.legal_actions()
    assert ("activate", "t:gemwardens_1l:0") in acts
    s.apply(("activate", "t:gemwardens_1l:0"))
    assert p.res == [2, 0, 1]
    assert ("activate", "t:gemwardens_1l:0") not in s.legal_actions()   # once per phase
    s.apply(("activate", "t:gemwardens_1l:1"))
    assert s.stack[-1][:3] == ("space", 0, "iron")
    cells = [a[1] for a in s.legal_actions() if a[0] == "dig"]
    assert cells and all(m & s.static.board.iron for m in cells)
    s.apply(("dig", cells[0]))
    assert p.res[IRON] == 3
    # Next production phase: the converter again, the used excavation not, the other one yes.
    produce(s)
    acts = s.legal_actions()
    assert ("activate", "t:gemwardens_1l:0") in acts
    assert ("activate", "t:gemwardens_1l:1") not in acts
    assert ("activate", "t:gemwardens_1l:2") in acts


def test_level1_right_production_actions(game, rules):
    """Appendix A, The Gemwardens, Level 1 trait (right): "Input (1 gold): Output (1 gem)" and
    "Excavate 1 gold space. (Perform only once per game.)" """
    s = new(game, rules)
    p = s.players[0]
    p.traits = ["gemwardens_1r"]
    p.res = [0, 1, 0]
    produce(s)
    s.apply(("activate", "t:gemwardens_1r:0"))
    assert p.res == [0, 0, 1]
    s.apply(("activate", "t:gemwardens_1r:1"))
    assert s.stack[-1][:3] == ("space", 0, "gold")
    s.apply(("skip",))
    produce(s)
    assert ("activate", "t:gemwardens_1r:1") not in s.legal_actions()


def test_level2_left_extra_workshop_activation(game, rules):
    """Appendix A, The Gemwardens, Level 2 trait (left): "During the production phase: Activate
    one of your workshops that has at least 1 gem in its production output. This is in addition
    to the single activation for each building." """
    s = new(game, rules)
    p = s.players[0]
    p.traits = ["gemwardens_2l"]
    p.buildings = [("workshop", "w06", 0), ("workshop", "w04", 0), ("workshop", "w29", 0)]
    p.res = [5, 0, 0]
    produce(s)
    acts = s.legal_actions()
    assert ("activate", "gw2:b0") in acts and ("activate", "gw2:b2") in acts
    assert ("activate", "gw2:b1") not in acts          # w04 makes gold, no gem
    s.apply(("activate", "b0"))
    assert p.res[GEM] == 1
    s.apply(("activate", "gw2:b0"))                    # the same workshop again
    assert p.res[GEM] == 2
    acts = s.legal_actions()
    assert not any(a[1].startswith("gw2:") for a in acts if a[0] == "activate")  # only one
    # w29's extra activation pays its input (1 iron).
    produce(s)
    s.apply(("activate", "gw2:b2"))
    assert p.res[IRON] == 4 and p.res[GEM] == 3


def test_level2_right_gems_for_adjacent_gem_spaces(game, rules):
    """Appendix A, The Gemwardens, Level 2 trait (right): "When you construct a building, gain
    1 gem for each adjacent gem space." """
    s = new(game, rules)
    p = s.players[0]
    board = s.static.board
    fp = max((f for f in s.static.footprint["forge"] if not f & (board.blocked | board.gem)),
             key=lambda f: (board.neighbours(f) & board.gem).bit_count())
    k = (board.neighbours(fp) & board.gem).bit_count()
    assert k >= 1
    p.exc = board.full & ~board.gem
    p.res = [9, 9, 0]
    card = s.static.cards["forge"]["f01"]
    s.construct(p, "forge", -1, card, fp, "")
    assert p.res[GEM] == 0                             # no trait, no gem
    p.traits = ["gemwardens_2r"]
    p.built = board.settlement
    p.buildings = []
    s.construct(p, "forge", -1, card, fp, "")
    assert p.res[GEM] == k


def test_level3_left_workshop_gems_once_and_forge_vp(game, rules):
    """Appendix A, The Gemwardens, Level 3 trait (left): "When you activate a workshop, replace
    each gold or iron in the output with a gem. (Perform only once per game.)  When you activate
    a forge, gain 1 VP for each gem spent. Only gain VP for gems printed as the activation cost." """
    s = new(game, rules)
    p = s.players[0]
    p.traits = ["gemwardens_3l"]
    p.buildings = [("workshop", "w18", 0), ("forge", "f35", 0), ("forge", "f01", 0), ("workshop", "w04", 0)]
    p.res = [10, 10, 3]
    produce(s)
    s.apply(("activate", "b0"))                        # w18: 1 iron -> 1 iron + 1 gold
    assert s.stack[-1][:3] == ("fx", 0, "gw3l")
    s.apply(("gw3l", "gems"))
    assert p.res == [9, 10, 5]                         # two gems instead of iron + gold
    s.apply(("activate", "b3"))                        # once per game: w04 gives its gold
    assert s.stack[-1] == ("produce", 0) and p.res[GOLD] == 11
    vp0 = p.vp
    s.apply(("activate", "b1"))                        # f35: 2 gems -> 6 VP (+2 for gems)
    assert p.vp == vp0 + 6 + 2
    s.apply(("activate", "b2"))                        # f01: iron + gold input, no gem
    assert p.vp == vp0 + 8 + 4
    totals = s.log.breakdown(0)
    assert totals["vp_track"] == p.vp


def test_level3_left_keep_choice_keeps_it_available(game, rules):
    """Appendix A, The Gemwardens, Level 3 trait (left): the replacement is optional and "Perform
    only once per game": declining it keeps it for a later workshop."""
    s = new(game, rules)
    p = s.players[0]
    p.traits = ["gemwardens_3l"]
    p.buildings = [("workshop", "w04", 0)]
    produce(s)
    s.apply(("activate", "b0"))
    s.apply(("gw3l", "keep"))
    assert p.res[GOLD] == 1 and "gw3l" not in p.used
    produce(s)
    s.apply(("activate", "b0"))
    assert s.stack[-1][:3] == ("fx", 0, "gw3l")


def test_level3_right_gem_covers_two(game, rules):
    """Appendix A, The Gemwardens, Level 3 trait (right): "Each gem you spend can cover the cost
    of two gems. Spending 1 gem cannot cover the cost of two separate activations or
    transactions." """
    s = new(game, rules)
    p = s.players[0]
    p.res = [0, 0, 1]
    assert not s.can_pay(p, (0, 0, 2))
    p.traits = ["gemwardens_3r"]
    assert s.can_pay(p, (0, 0, 2))
    assert not s.can_pay(p, (0, 0, 3))
    assert s.pay(p, (0, 0, 1)) and p.res[GEM] == 0
    assert not s.can_pay(p, (0, 0, 1))                 # the second gem of the first pay is gone
    p.res = [0, 0, 2]
    assert s.pay(p, (0, 0, 3)) and p.res[GEM] == 0



def test_random_games_keep_invariants(random_games_ok):
    """Events (DESIGN.md): score events sum to the final score, resources never go negative,
    with the Gemwardens in every seat position, 1-4 players, every map."""
    assert random_games_ok("gemwardens", n_games=16, seed=400) > 0

def test_explored_means_side_adjacent(game, rules):
    """"Excavating Rules: Adjacent: ... To be adjacent, the spaces must share a side, not just a
    corner." (used for "adjacent to an excavated space" in the Gemwardens' calling)"""
    s = new(game, rules)
    board = s.static.board
    nb = list(bits(board.neighbours(bit(s, 4, 4))))
    assert sorted(board.xy(c) for c in nb) == [(3, 4), (4, 3), (4, 5), (5, 4)]
    gem = next(bits(board.gem))
    x, y = board.xy(gem)
    diag = [(x + dx, y + dy) for dx in (-1, 1) for dy in (-1, 1)
            if 0 <= x + dx < board.width and 0 <= y + dy < board.height]
    assert not board.neighbours(sum(bit(s, a, b) for a, b in diag)) >> gem & 1   # corners only
    assert explored_gems(board, board.neighbours(1 << gem) & ~board.gem) >= 1
