"""The Ironclads (rulebook Appendix A), each test citing the section it checks."""

import random

from engine.core.protocol import Seat
from engine.games.glimmerdeep.board import bits
from engine.games.glimmerdeep.factions.ironclads import ROWS, calling_vp
from engine.games.glimmerdeep.state import GOLD, IRON
from glim_digs import apply_dig, dig_actions

MAPS = ("bioluminescent", "trade_routes", "snowy_summit", "underground_forest")


def force(s, frame):
    s.stack = [frame]


def new(game, rules, n=2, map="bioluminescent", seed=1):
    fac = ["ironclads", "gildtails", "deepdelvers", "dustwhiskers"][:n]
    return game.new_game(rules, [Seat(f, "random") for f in fac], seed, map=map)


def iron_cells(board, k, avoid=0):
    return [1 << c for c in bits(board.iron & ~avoid)][:k]


def test_calling_rows_left_for_two_right_for_three_iron(game, rules):
    """Appendix A, The Ironclads, Calling: "Starting with the 1st Row, whenever the player
    excavates: If they excavate 2 iron spaces, circle the VP bonus in the left column. If they
    excavate 3 or more iron spaces, circle the VP bonus in the right column." """
    s = new(game, rules)
    p = s.players[0]
    board = s.static.board
    cells = iron_cells(board, 10, p.exc)
    rows = rules.factions["ironclads"].calling["rows"]
    s.excavate(p, cells[0], "test")                        # 1 iron: nothing
    assert p.fx[ROWS] == []
    s.excavate(p, cells[1] | cells[2], "test")             # 2 iron: row 1, left
    assert p.fx[ROWS] == [0]
    s.excavate(p, cells[3] | cells[4] | cells[5], "test")  # 3 iron: row 2, right
    assert p.fx[ROWS] == [0, 1]
    s.excavate(p, cells[1] | cells[2], "test")             # already excavated: no new iron
    assert p.fx[ROWS] == [0, 1]
    assert s.hooks[0].final_scoring(s, p) == [("calling", rows[0][0] + rows[1][1])]


def test_calling_one_bonus_per_row_and_rows_run_out(rules):
    """Appendix A, The Ironclads, Calling: "For each row, only one VP bonus can be circled." """
    c = rules.factions["ironclads"].calling
    n = len(c["rows"])
    assert calling_vp(c, [1] * n) == sum(r[1] for r in c["rows"])
    assert calling_vp(c, [1] * (n + 3)) == sum(r[1] for r in c["rows"])


def test_calling_counts_production_excavations(game, rules):
    """Appendix A, The Ironclads, Calling: "These bonuses can be gained either during the
    excavation or production phase." """
    s = new(game, rules)
    p = s.players[0]
    board = s.static.board
    force(s, ("excavate", 0, "line3", "production"))
    best = max(dig_actions(s), key=lambda a: (a[1] & board.iron).bit_count())
    apply_dig(s, best[1])
    n = (best[1] & board.iron).bit_count()
    assert n >= 2 and p.fx[ROWS] == [1 if n >= 3 else 0]


def test_level1_left_two_iron_for_one_gold(game, rules):
    """Appendix A, The Ironclads, Level 1 trait (left): "Whenever the player would need to pay 1
    gold ... the player may instead pay 2 iron." Example: a forge needing 2 gold and 1 gem paid
    with 2 iron, 1 gold and 1 gem, or with 4 iron and 1 gem."""
    s = new(game, rules)
    p = s.players[0]
    p.res = [4, 0, 1]
    assert not s.can_pay(p, (0, 2, 1))
    p.traits.append("ironclads_1l")
    assert s.pay(p, (0, 2, 1)) and p.res == [0, 0, 0]
    p.res = [2, 1, 1]
    assert s.pay(p, (0, 2, 1), "construct") and p.res == [0, 0, 0]


def test_level1_left_two_iron_space_excavations_once_per_game(game, rules):
    """Appendix A, The Ironclads, Level 1 trait (left): "Production-phase action: Excavate 1 iron
    space. (Perform only once per game.)" (twice)."""
    s = new(game, rules)
    p = s.players[0]
    p.traits.append("ironclads_1l")
    p.activated = set()
    force(s, ("produce", 0))
    s.apply(("activate", "t:ironclads_1l:0"))
    assert s.stack[-1] == ("space", 0, "iron", "production")
    s.apply(next(a for a in s.legal_actions() if a[0] == "dig"))
    assert p.res[IRON] == 1
    p.activated = set()
    force(s, ("produce", 0))
    keys = {a[1] for a in s.legal_actions() if a[0] == "activate"}
    assert "t:ironclads_1l:0" not in keys and "t:ironclads_1l:1" in keys


def test_level1_right_three_iron_for_one_gem_and_one_iron_production(game, rules):
    """Appendix A, The Ironclads, Level 1 trait (right): "Whenever the player would need to pay 1
    gem ... may instead pay 3 iron." Example: 1 iron and 2 gems paid with 4 iron and 1 gem, or 7
    iron. "Production phase: During the production phase, gain 1 iron." """
    s = new(game, rules)
    p = s.players[0]
    p.traits.append("ironclads_1r")
    p.res = [7, 0, 0]
    assert s.pay(p, (1, 0, 2)) and p.res == [0, 0, 0]
    p.res = [4, 0, 1]
    assert s.pay(p, (1, 0, 2)) and p.res == [0, 0, 0]
    p.res = [6, 0, 0]
    assert not s.can_pay(p, (1, 0, 2))
    p.activated = set()
    force(s, ("produce", 0))
    s.apply(("activate", "t:ironclads_1r:0"))
    assert p.res == [7, 0, 0]


def test_level2_left_one_iron_excavates_2x1(game, rules):
    """Appendix A, The Ironclads, Level 2 trait (left): "Production-phase action: Input (1 iron):
    Output (Excavate 2x1)." """
    s = new(game, rules)
    p = s.players[0]
    p.traits.append("ironclads_2l")
    p.res = [1, 0, 0]
    p.activated = set()
    force(s, ("produce", 0))
    s.apply(("activate", "t:ironclads_2l:0"))
    assert p.res[IRON] == 0
    assert s.stack[-1] == ("excavate", 0, "2x1", "production")


def test_level2_right_building_over_iron_gains_vp(game, rules):
    """Appendix A, The Ironclads, Level 2 trait (right): "When the player constructs a building
    over at least 1 iron space:" (cut; assumed +2 VP on the VP track)."""
    s = new(game, rules)
    p = s.players[0]
    board = s.static.board
    fps = s.static.footprint["workshop"]
    with_iron = next(fp for fp in fps if fp & board.iron and not fp & (board.blocked | board.settlement)
                     and not board.neighbours(fp) & board.settlement)
    card = rules.workshops[0]
    p.traits.append("ironclads_2r")
    p.exc |= with_iron
    p.res = [20, 20, 20]
    s.construct(p, "workshop", -1, card, with_iron, "")
    vp = rules.factions["ironclads"].traits[3].params["vp"]
    assert p.vp == vp and s.log.breakdown(0).get("vp_track") == vp
    no_iron = next((fp for fp in fps if not fp & board.iron and not fp & board.blocked), None)
    if no_iron is not None:
        before = p.vp
        s.hooks[0].constructed(s, p, "workshop", card, no_iron, -1, "")
        assert p.vp == before


def test_level3_left_double_iron(game, rules):
    """Appendix A, The Ironclads, Level 3 trait (left) (missing; assumed): double iron from every
    iron space excavated."""
    s = new(game, rules)
    p = s.players[0]
    board = s.static.board
    c = iron_cells(board, 2, p.exc)
    s.excavate(p, c[0], "test")
    assert p.res[IRON] == 1
    p.traits.append("ironclads_3l")
    s.excavate(p, c[1], "test")
    assert p.res[IRON] == 3


def test_level3_right_iron_when_activating_buildings(game, rules):
    """Appendix A, The Ironclads, Level 3 trait (right) (missing; assumed from Appendix B's
    "gold and iron Level 3 traits that generate ... extra resources based on activating
    buildings"): +1 iron per own building activated; not for outposts."""
    s = game.new_game(rules, [Seat("ironclads"), Seat("gildtails")], 3, map="trade_routes")
    p = s.players[0]
    p.traits.append("ironclads_3r")
    card = next(c for c in rules.workshops if not (c.input.iron or c.input.gold or c.input.gem)
                and not c.output.excavate and not c.output.excavate_space)
    p.buildings.append(("workshop", card.id, 0))
    p.res = [0, 0, 0]
    p.activated = set()
    s.phase = "production"
    force(s, ("produce", 0))
    s.apply(("activate", "b0"))
    assert p.res[0] == card.output.iron + 1
    board = s.static.board
    p.exc = board.full & ~board.blocked
    p.res = [10, 10, 10]
    gmap = next(m for m in rules.maps if m.id == "trade_routes")
    from engine.games.glimmerdeep.economy import settle
    j = 0
    op = gmap.outposts[j]
    paid = settle(list(p.res), (op.input.iron, op.input.gold, op.input.gem),
                  s.hooks[0].pay_options(s, p, "activate"))
    s.apply(("activate", f"o{j}"))
    assert p.res[0] == paid[0] + op.output.iron  # no extra iron for an outpost



def test_random_games_keep_invariants(random_games_ok):
    """Events (DESIGN.md): score events sum to the final score, resources never go negative,
    with the Ironclads in every seat position, 1-4 players, every map."""
    assert random_games_ok("ironclads", n_games=16, seed=600) > 0
