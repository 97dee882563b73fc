"""The Shellwrights (rulebook Appendix A), each test citing the section it checks."""

import random

from engine.core.protocol import Seat
from engine.games.glimmerdeep.board import bits
from engine.games.glimmerdeep.factions.shellwrights import footprint_resources
from engine.games.glimmerdeep.state import GEM, GOLD, IRON

MAPS = ("bioluminescent", "trade_routes", "snowy_summit", "underground_forest")


def new(game, rules, n=2, map="bioluminescent", seed=1):
    fac = ["shellwrights", "dustwhiskers", "ironclads", "gildtails"][:n]
    s = game.new_game(rules, [Seat(f, "random") for f in fac], seed, map=map)
    p = s.players[0]
    p.exc = s.static.board.full & ~s.static.board.blocked
    p.res = [50, 50, 50]
    return s, p


def free_fp(s, p, kind, pred=lambda fp: True):
    """A standard footprint where a building may stand without touching another."""
    for fp in s.static.footprint[kind]:
        if s.standard_site_ok(p, fp) and pred(fp):
            return fp
    raise AssertionError("no footprint")


def build(s, p, kind, fp, tag=""):
    card = s.static.cards[kind]["w01" if kind == "workshop" else "f01"]
    s.construct(p, kind, -1, card, fp, tag)


def combo_vp(rules, combo):
    c = rules.factions["shellwrights"].calling
    return c["combo_vp"][list(c["combos"]).index(combo)]


def test_calling_circles_each_combination_once(game, rules):
    """Appendix A, The Shellwrights, Calling: "Each time you construct a building over one of the
    combinations of resources pictured on your faction sheet, circle that combination. End of
    Game: Gain VP for each circled combination of resources." (combinations assumed; exact match)"""
    s, p = new(game, rules, map="underground_forest")
    board = s.static.board
    hook = s.hooks[0]
    assert hook.final_scoring(s, p) == [("calling", 0)]
    fp = free_fp(s, p, "workshop", lambda f: footprint_resources(board, f) == (1, 1, 0))
    build(s, p, "workshop", fp)
    assert hook.final_scoring(s, p) == [("calling", combo_vp(rules, (1, 1, 0)))]
    fp2 = free_fp(s, p, "workshop", lambda f: footprint_resources(board, f) == (1, 1, 0))
    build(s, p, "workshop", fp2)                       # the same combination: circled already
    assert hook.final_scoring(s, p) == [("calling", combo_vp(rules, (1, 1, 0)))]
    fp3 = free_fp(s, p, "workshop", lambda f: footprint_resources(board, f) == (2, 0, 0))
    build(s, p, "workshop", fp3)
    assert hook.final_scoring(s, p) == [("calling", combo_vp(rules, (1, 1, 0)) + combo_vp(rules, (2, 0, 0)))]
    fp4 = free_fp(s, p, "workshop", lambda f: footprint_resources(board, f) == (0, 0, 0))
    before = p.fx["sw_circled"]
    build(s, p, "workshop", fp4)                       # only dirt: no combination
    assert p.fx["sw_circled"] == before


def test_calling_contains_reading_switch(game, rules):
    """Appendix A, The Shellwrights, Calling, the alternative reading (calling.match = "contains"):
    a footprint over more resources circles the best uncircled combination it contains."""
    s, p = new(game, rules)
    board = s.static.board
    hook = s.hooks[0]
    hook.exact = False
    fp = free_fp(s, p, "workshop", lambda f: footprint_resources(board, f) == (2, 1, 0))
    build(s, p, "workshop", fp)
    assert hook.final_scoring(s, p) == [("calling", combo_vp(rules, (2, 1, 0)))]


def test_level1_left_adjacent_once_per_kind(game, rules):
    """Appendix A, The Shellwrights, Level 1 trait (left): "You may construct a workshop adjacent
    to one or more buildings. (Perform only once per game.)  You may construct a forge adjacent to
    one or more buildings. (Perform only once per game.)" """
    s, p = new(game, rules)
    board = s.static.board
    touching = [fp for fp, _t in s.sites(p, "workshop") if board.neighbours(fp) & p.built]
    assert touching == []                              # base rule: "Not adjacent"
    p.traits = ["shellwrights_1l"]
    touching = [fp for fp, _t in s.sites(p, "workshop") if board.neighbours(fp) & p.built]
    assert touching
    build(s, p, "workshop", touching[0])
    assert "sw_adj:workshop" in p.used
    assert not [fp for fp, _t in s.sites(p, "workshop") if board.neighbours(fp) & p.built]
    assert [fp for fp, _t in s.sites(p, "forge") if board.neighbours(fp) & p.built]


def test_level1_right_workshop_footprints(game, rules):
    """Appendix A, The Shellwrights, Level 1 trait (right): "When you construct a Workshop: Use
    this 1+2 footprint. (Perform only once per game.) Use this 1x3 footprint. (Perform only once
    per game.)" (1+2 read as an L of three spaces)"""
    s, p = new(game, rules)
    assert {t for _fp, t in s.sites(p, "workshop")} == {""}
    p.traits = ["shellwrights_1r"]
    sites = s.sites(p, "workshop")
    assert {t for _fp, t in sites} == {"", "1p2", "1x3"}
    assert all(fp.bit_count() == 3 for fp, t in sites if t)
    line = next(fp for fp, t in sites if t == "1x3")
    xs = {s.static.board.xy(c) for c in bits(line)}
    assert len({x for x, _ in xs}) == 1 or len({y for _, y in xs}) == 1
    assert {t for _fp, t in s.sites(p, "forge")} == {""}
    # Through the site frame, then once per game.
    s.stack = [("site", 0, "workshop", 3)]
    s.phase = "construction"
    assert ("site", line, "1x3") in s.legal_actions()
    s.apply(("site", line, "1x3"))
    assert p.buildings[-1][2] == line
    assert {t for _fp, t in s.sites(p, "workshop")} == {"", "1p2"}


def test_level2_right_forge_footprints(game, rules):
    """Appendix A, The Shellwrights, Level 2 trait (right): "When you construct a Forge: Use this
    1+2 footprint. (Perform only once per game.) Use this 1x3 footprint. (Perform only once per
    game.)" """
    s, p = new(game, rules)
    p.traits = ["shellwrights_2r"]
    sites = s.sites(p, "forge")
    assert {t for _fp, t in sites} == {"", "1p2", "1x3"}
    ell = next(fp for fp, t in sites if t == "1p2")
    build(s, p, "forge", ell, "1p2")
    assert {t for _fp, t in s.sites(p, "forge")} == {"", "1x3"}
    assert {t for _fp, t in s.sites(p, "workshop")} == {""}


def test_level2_left_excavate_adjacent_space(game, rules):
    """Appendix A, The Shellwrights, Level 2 trait (left): "When you construct a building,
    excavate 1 space adjacent to the building just constructed." """
    s, p = new(game, rules)
    board = s.static.board
    p.traits = ["shellwrights_2l"]
    fp = free_fp(s, p, "workshop", lambda f: not board.neighbours(f) & board.blocked)
    p.exc = board.settlement | fp
    s.stack = [("produce", 0)]                          # any frame to return to
    build(s, p, "workshop", fp)
    assert s.stack[-1] == ("fx", 0, "sw_dig", fp)
    acts = s.legal_actions()
    digs = [a[1] for a in acts if a[0] == "dig"]
    assert sorted(digs) == sorted(1 << c for c in bits(board.neighbours(fp)))
    assert ("skip",) in acts
    target = next(d for d in digs if d & board.iron)
    iron = p.res[IRON]
    s.apply(("dig", target))
    assert p.exc & target and p.res[IRON] == iron + 1


def test_level3_left_resources_under_footprint(game, rules):
    """Appendix A, The Shellwrights, Level 3 trait (left): "When you construct a building, for
    each resource space within its footprint, gain one of those resources." """
    s, p = new(game, rules)
    board = s.static.board
    p.traits = ["shellwrights_3l"]
    fp = free_fp(s, p, "forge", lambda f: sum(footprint_resources(board, f)) >= 3)
    i, g, e = footprint_resources(board, fp)
    before = list(p.res)
    build(s, p, "forge", fp)
    cost = s.static.cards["forge"]["f01"].cost
    assert p.res == [before[IRON] - cost.iron + i, before[GOLD] - cost.gold + g, before[GEM] - cost.gem + e]


def test_level3_right_one_excavated_space_suffices(game, rules):
    """Appendix A, The Shellwrights, Level 3 trait (right): "Only 1 space within its footprint
    must be excavated. Spaces within a building footprint that are not excavated are not
    considered to be excavated. You can excavate spaces within a building footprint that have not
    been excavated." """
    s, p = new(game, rules)
    board = s.static.board
    p.exc = board.settlement
    assert s.sites(p, "workshop") == []
    p.traits = ["shellwrights_3r"]
    sites = s.sites(p, "workshop")
    assert sites == []      # every footprint touching the settlement is adjacent to it
    far = next(f for f in s.static.footprint["workshop"]
               if not f & board.blocked and not board.grow(f) & board.settlement)
    cell = next(bits(far))
    p.exc |= 1 << cell
    sites = [fp for fp, _t in s.sites(p, "workshop")]
    assert sites and all(fp & p.exc for fp in sites)
    fp = sites[0]
    build(s, p, "workshop", fp)
    assert p.exc & fp == 1 << cell                     # the others stay unexcavated
    s.stack = [("excavate", 0, "1x1", "card")]
    p.exc |= board.neighbours(fp) & ~board.blocked      # reach the footprint's other spaces
    digs = {a[1] for a in s.legal_actions() if a[0] == "dig"}
    assert all(1 << c in digs for c in bits(fp & ~p.exc))



def test_random_games_keep_invariants(random_games_ok):
    """Events (DESIGN.md): score events sum to the final score, resources never go negative,
    with the Shellwrights in every seat position, 1-4 players, every map."""
    assert random_games_ok("shellwrights", n_games=16, seed=800) > 0
