"""The Deepdelvers (rulebook Appendix A), each test citing the section it checks."""

import random

import pytest

from engine.core.protocol import Seat
from engine.games.glimmerdeep.board import bits
from engine.games.glimmerdeep.factions.deepdelvers import SHEET, calling_vp, sheet_offset
from engine.games.glimmerdeep.state import GEM, GOLD, IRON
from glim_digs import apply_dig, dig_actions, dig_masks

MAPS = ("bioluminescent", "trade_routes", "snowy_summit", "underground_forest")


def force(s, frame):
    s.stack = [frame]


def new(game, rules, n=2, map="bioluminescent", seed=1):
    fac = ["deepdelvers", "dustwhiskers", "ironclads", "gildtails"][:n]
    return game.new_game(rules, [Seat(f, "random") for f in fac], seed, map=map)


def choose_trait(s, seat, level, side):
    force(s, ("trait", seat, level))
    s.apply(("trait", side))


def test_calling_rows_and_columns_score_when_complete(rules):
    """Appendix A, The Deepdelvers, Calling: "They will earn VPs at the end of game by having rows
    and columns on this map completely excavated, with larger rows and columns being worth more VPs."
    Assumed sheet 6 x 4: a row (6 spaces) 5 VP, a column (4 spaces) 3 VP."""
    c = rules.factions["deepdelvers"].calling
    w, h = c["width"], c["height"]
    assert w > h and min(c["row_vp"]) > max(c["col_vp"])   # larger lines are worth more
    row0 = (1 << w) - 1
    col0 = sum(1 << (y * w) for y in range(h))
    assert calling_vp(c, 0) == 0
    assert calling_vp(c, row0) == c["row_vp"][0]
    assert calling_vp(c, row0 | col0) == c["row_vp"][0] + c["col_vp"][0]
    assert calling_vp(c, (row0 | col0) & ~1) == 0                     # one space missing breaks both
    assert calling_vp(c, (1 << (w * h)) - 1) == sum(c["row_vp"]) + sum(c["col_vp"])


def test_calling_vp_scored_in_calling_category(game, rules):
    """Appendix A, The Deepdelvers, Calling: VP "at the end of game" for completed rows."""
    s = new(game, rules)
    p = s.players[0]
    p.fx[SHEET] = (1 << 6) - 1
    assert s.hooks[0].final_scoring(s, p) == [("calling", 5)]


def test_calling_sheet_choice_after_each_flip_forced_on_third(game, rules):
    """Appendix A, The Deepdelvers, Calling: "After drawing an excavation card, the player can
    choose to excavate that shape on both their map sheet and their faction sheet ... If the
    player chose not to excavate on their faction sheet before drawing their third excavation
    card, they must use the shape on that card to excavate on the faction sheet." """
    s = new(game, rules)
    p = s.players[0]
    assert s.to_move() == 0
    frame = s.stack[-1]
    assert frame[:3] == ("fx", 0, "dd_sheet") and frame[3] == p.deck[0] and frame[4] == "choose"
    assert ("later",) in s.legal_actions()
    s.apply(("later",))
    assert s.stack[-1][0] == "excavate"           # the map excavation of card 1
    s.apply(("skip",))
    assert s.stack[-1][:3] == ("fx", 0, "dd_sheet") and s.stack[-1][4] == "choose"
    s.apply(("later",))
    s.apply(("skip",))
    frame = s.stack[-1]
    assert frame[:3] == ("fx", 0, "dd_sheet") and frame[4] == "last" and frame[3] == p.deck[2]
    acts = s.legal_actions()
    assert ("later",) not in acts and ("skip",) not in acts     # must excavate on the sheet
    a = acts[0]
    s.apply(a)
    assert p.fx[SHEET] == a[1] and a[1].bit_count() >= 1
    # The placement is a part of the card's shape on the 6 x 4 sheet.
    assert a[1] < 1 << 24


def test_calling_only_once_per_excavation_phase(game, rules):
    """Appendix A, The Deepdelvers, Calling: "the player must excavate once (and only once) on
    their faction map": after using card 1 on the sheet, cards 2 and 3 offer no sheet excavation;
    the next round offers it again."""
    s = new(game, rules, n=1)
    p = s.players[0]
    full = [a for a in s.legal_actions() if a[0] == "sheet"]
    biggest = max(full, key=lambda a: a[1].bit_count())
    s.apply(biggest)
    assert p.fx[SHEET] == biggest[1] and p.fx["dd_round"] == 1
    s.apply(("skip",))                                # map excavation, card 1
    for _ in range(2):
        assert s.stack[-1][0] == "excavate"          # cards 2 and 3: no sheet frame
        s.apply(("skip",))
    # Play the rest of round 1 by passing, then round 2 offers the choice again.
    while s.round == 1:
        acts = s.legal_actions()
        s.apply(next((a for a in acts if a[0] in ("pass", "done", "skip")), acts[0]))
    assert s.stack[-1][:3] == ("fx", 0, "dd_sheet") and s.stack[-1][4] == "choose"


def test_calling_sheet_excavations_follow_the_adjacency_rule(game, rules):
    """Appendix A, The Deepdelvers, Calling: "a secondary, smaller map on their faction sheet",
    dug with the excavation cards, so the Excavating Rules hold there: "Adjacent: The first space
    must be adjacent to a space that has already been excavated".  The sheet has no starting
    settlement, so its first excavation may go anywhere; later ones touch an excavated sheet
    space, unless Level 2 (right): "Excavations do not have to be adjacent to an excavated
    space." (RULES.md, "The Deepdelvers' faction sheet")."""
    s = new(game, rules)
    p, hook = s.players[0], s.hooks[0]
    sheet = hook.sheet
    force(s, ("fx", 0, "dd_sheet", "line3", "choose"))
    first = [a[1] for a in s.legal_actions() if a[0] == "sheet"]
    assert any(m & 1 << 23 for m in first) and any(m & 1 for m in first)  # opposite corners
    p.fx[SHEET] = 1                                   # the top-left space excavated
    later = [a[1] for a in s.legal_actions() if a[0] == "sheet"]
    assert later and all(m & sheet.grow(1) for m in later)
    assert not any(m & 1 << 23 for m in later)
    p.traits.append("deepdelvers_2r")
    lifted = [a[1] for a in s.legal_actions() if a[0] == "sheet"]
    assert any(m & 1 << 23 for m in lifted) and len(lifted) > len(later)
    # The other reading (every sheet excavation anywhere) is a switch in the rules data.
    free = game.load_rules(sets=["factions.deepdelvers.calling.sheet_adjacent=0"]).model
    s = new(game, free)
    s.players[0].fx[SHEET] = 1
    force(s, ("fx", 0, "dd_sheet", "line3", "choose"))
    assert any(a[1] & 1 << 23 for a in s.legal_actions() if a[0] == "sheet")


def test_level1_left_one_shape_on_map_other_on_sheet(game, rules):
    """Appendix A, The Deepdelvers, Level 1 trait (left): "Immediately: The player may excavate
    one of the indicated shapes on their map and the other shape on their faction sheet." """
    s = new(game, rules)
    p = s.players[0]
    prm = rules.factions["deepdelvers"].traits[0].params
    choose_trait(s, 0, 1, "left")
    assert s.stack[-1] == ("fx", 0, "dd_pick")
    assert set(s.legal_actions()) == {("map", prm["shape_a"]), ("map", prm["shape_b"])}
    s.apply(("map", prm["shape_a"]))
    assert s.stack[-1] == ("excavate", 0, prm["shape_a"], "trait")
    digs = dig_actions(s)
    exc0 = p.exc
    apply_dig(s, digs[0][1])
    assert p.exc != exc0
    assert s.stack[-1] == ("fx", 0, "dd_sheet", prm["shape_b"], "may")
    acts = s.legal_actions()
    assert ("skip",) in acts                          # "may"
    best = max((a for a in acts if a[0] == "sheet"), key=lambda a: a[1].bit_count())
    assert best[1].bit_count() == len(next(sh for sh in rules.shapes if sh.id == prm["shape_b"]).cells)
    s.apply(best)
    assert p.fx[SHEET] == best[1]
    assert p.fx["dd_round"] == 0          # not the excavation phase's own sheet excavation


def test_level1_right_three_paid_excavations_once_per_game(game, rules):
    """Appendix A, The Deepdelvers, Level 1 trait (right): "Input (1 Iron): Output (Excavate 1x1)
    / Input (1 Gold): Output (Excavate 2x1) / Input (1 Gem): Output (Excavate 3x1). Each of these
    actions can be performed only once per game." """
    s = new(game, rules)
    p = s.players[0]
    p.traits.append("deepdelvers_1r")
    p.res = [1, 1, 1]
    p.activated = set()
    force(s, ("produce", 0))
    acts = s.legal_actions()
    keys = {a[1] for a in acts if a[0] == "activate"}
    assert {"t:deepdelvers_1r:0", "t:deepdelvers_1r:1", "t:deepdelvers_1r:2"} <= keys
    s.apply(("activate", "t:deepdelvers_1r:1"))
    assert p.res == [1, 0, 1]
    assert s.stack[-1] == ("excavate", 0, "2x1", "production")
    apply_dig(s, max(dig_masks(s), key=lambda m: m.bit_count()))
    p.activated = set()                               # a later production phase
    p.res = [5, 5, 5]
    force(s, ("produce", 0))
    keys = {a[1] for a in s.legal_actions() if a[0] == "activate"}
    assert "t:deepdelvers_1r:1" not in keys and "t:deepdelvers_1r:0" in keys


def test_level2_left_indicated_shape_excavated_immediately(game, rules):
    """Appendix A, The Deepdelvers, Level 2 trait (left): "Immediately: Excavate the indicated
    shape." (assumed: a 2x3 block)."""
    s = new(game, rules)
    p = s.players[0]
    choose_trait(s, 0, 2, "left")
    assert s.stack[-1] == ("excavate", 0, "deepdelvers_2l", "trait")
    digs = dig_masks(s)
    assert max(m.bit_count() for m in digs) == 6
    board = s.static.board
    six = next(m for m in digs if m.bit_count() == 6)
    apply_dig(s, six)
    assert p.exc & six == six
    assert p.res[IRON] == (six & board.iron).bit_count()


def test_level2_right_no_adjacency_and_1x1_production(game, rules):
    """Appendix A, The Deepdelvers, Level 2 trait (right): "Excavations do not have to be adjacent
    to an excavated space. Production-phase action: Excavate 1x1." """
    s = new(game, rules)
    p = s.players[0]
    board = s.static.board
    far = 0  # top-left corner area, far from the settlement
    force(s, ("excavate", 0, "1x1", "test"))
    assert ("dig", 1 << far) not in s.legal_actions() or board.blocked >> far & 1
    p.traits.append("deepdelvers_2r")
    reach_all = 0
    for a in s.legal_actions():
        if a[0] == "dig":
            reach_all |= a[1]
    assert reach_all == board.full & ~board.blocked & ~p.exc
    p.activated = set()
    force(s, ("produce", 0))
    s.apply(("activate", "t:deepdelvers_2r:0"))
    assert s.stack[-1] == ("excavate", 0, "1x1", "production")
    # Not once per game: available again in the next production phase.
    p.activated = set()
    force(s, ("produce", 0))
    assert ("activate", "t:deepdelvers_2r:0") in s.legal_actions()


def test_level3_left_entire_row_or_column(game, rules):
    """Appendix A, The Deepdelvers, Level 3 trait (left): "Immediately: Excavate an entire row or
    column on the map." """
    s = new(game, rules, map="trade_routes")
    p = s.players[0]
    board = s.static.board
    choose_trait(s, 0, 3, "left")
    assert s.stack[-1] == ("fx", 0, "dd_line")
    acts = s.legal_actions()
    w = board.width
    row5 = ((1 << w) - 1) << (5 * w)                  # row 5 touches the settlement (rows 6-7)
    want = row5 & ~board.blocked & ~p.exc
    assert ("line", want) in acts
    s.apply(("line", want))
    assert p.exc & row5 == row5 & ~board.blocked
    assert p.res[IRON] == (want & board.iron).bit_count()
    assert p.res[GOLD] == (want & board.gold).bit_count()
    assert p.res[GEM] == (want & board.gem).bit_count()


def test_level3_right_draws_card_excavates_map_and_sheet(game, rules):
    """Appendix A, The Deepdelvers, Level 3 trait (right): "Immediately: The player draws a card
    from the Excavation Deck, then excavates that shape on both the map and their faction sheet." """
    s = new(game, rules)
    p = s.players[0]
    pos, flips = p.deck_pos, p.flips
    top = p.deck[pos]
    choose_trait(s, 0, 3, "right")
    assert p.deck_pos == pos + 1 and p.flips == flips + 1
    assert s.stack[-1] == ("excavate", 0, top, "trait")
    s.apply(("skip",))
    assert s.stack[-1] == ("fx", 0, "dd_sheet", top, "extra")
    assert ("skip",) not in s.legal_actions() and ("later",) not in s.legal_actions()


def test_level3_right_construct_on_faction_sheet(game, rules):
    """Appendix A, The Deepdelvers, Level 3 trait (right): "Construction phase action: The player
    can construct buildings on the faction sheet, in addition to the map, following all typical
    construction rules." """
    s = new(game, rules)
    p = s.players[0]
    off = sheet_offset(s.static.board)
    p.fx[SHEET] = 0b1111 | 0b1111 << 6                 # a 4 x 2 block at the top left
    assert not [t for _fp, t in s.sites(p, "workshop") if t == "sheet"]   # trait not taken
    p.traits.append("deepdelvers_3r")
    sheet_sites = [fp for fp, t in s.sites(p, "workshop") if t == "sheet"]
    # 2x2 squares inside the 4 x 2 block: x = 0, 1, 2.
    assert sorted(fp >> off for fp in sheet_sites) == [0b11 | 0b11 << 6, 0b110 | 0b110 << 6,
                                                       0b1100 | 0b1100 << 6]
    # A forge (2x3) fits the 4 x 2 block as well (3 wide, 2 high): x = 0, 1.
    assert len([t for _fp, t in s.sites(p, "forge") if t == "sheet"]) == 2
    p.res = [20, 20, 20]
    p.buildings = []
    s.passed = set()
    force(s, ("construct", 0))
    build = next(a for a in s.legal_actions() if a[0] == "build" and a[1] == "workshop")
    s.apply(build)
    site = next(a for a in s.legal_actions() if a[2] == "sheet" and a[1] >> off == 0b11 | 0b11 << 6)
    built_map = p.built & s.static.board.full
    s.apply(site)
    assert p.buildings[-1][2] >> off == 0b11 | 0b11 << 6
    assert p.built & s.static.board.full == built_map          # the map is untouched
    # Typical rules: no side adjacency, so the square at x = 2 (touching x = 1) is now illegal,
    # and the one at x = 1 overlaps.
    left = [fp >> off for fp, t in s.sites(p, "workshop") if t == "sheet"]
    assert left == []
    # The building still counts as excavated for the calling; scoring by its own card works.
    assert s.hooks[0].final_scoring(s, p) == [("calling", 0)]


def _random_games(game, rules, n_games, faction):
    others = [f for f in ("deepdelvers", "dustwhiskers", "ironclads", "gildtails",
                          "shellwrights", "gemwardens") if f != faction and f in rules.factions]
    for i in range(n_games):
        rng = random.Random(i)
        n = 1 + i % 4
        fac = [faction] + others[: n - 1]
        s = game.new_game(rules, [Seat(f, "random") for f in fac], 500 + i, map=MAPS[i % 4])
        while not s.is_over():
            acts = s.legal_actions()
            assert acts
            s.apply(acts[rng.randrange(len(acts))])
            for p in s.players:
                assert min(p.res) >= 0
        res = s.result()
        for r, p in zip(res, s.players):
            assert r.score == sum(r.breakdown.values())
            assert r.breakdown.get("vp_track", 0) == p.vp



def test_random_games_keep_invariants(random_games_ok):
    """Events (DESIGN.md): score events sum to the final score, resources never go negative,
    with the Deepdelvers in every seat position, 1-4 players, every map."""
    assert random_games_ok("deepdelvers", n_games=16, seed=100) > 0
