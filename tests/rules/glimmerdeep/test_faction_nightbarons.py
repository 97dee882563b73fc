"""The Nightbarons (rulebook Appendix A), each test citing the section it checks."""

import random

from engine.core.protocol import Seat
from engine.games.glimmerdeep.state import IRON

MAPS = ("bioluminescent", "trade_routes", "snowy_summit", "underground_forest")


def new(game, rules, n=2, map="bioluminescent", seed=1):
    fac = ["nightbarons", "dustwhiskers", "ironclads", "gildtails"][:n]
    s = game.new_game(rules, [Seat(f, "random") for f in fac], seed, map=map)
    p = s.players[0]
    p.exc = s.static.board.full & ~s.static.board.blocked
    p.res = [30, 30, 30]
    return s, p


def construct_turn(s, seat=0):
    s.phase = "construction"
    s.passed = set()
    s.stack = [("construct", seat)]


def build_from(s, kind, slot):
    s.apply(("build", kind, slot))
    s.apply(s.legal_actions()[0])


def test_calling_influence_and_values(game, rules):
    """Appendix A, The Nightbarons, Calling: "if you construct a building from the +[Gold] column
    of the market, you will add a tick mark inside the +[Gold] Market Influence box, then cross out
    the lowest unmarked space in the Market Values for +[Gem] and +[Iron]." """
    s, p = new(game, rules)
    gold_slot = list(rules.market.extra_costs).index("gold")
    construct_turn(s)
    build_from(s, "workshop", gold_slot)
    assert p.fx["nb_ticks"] == [0, 1, 0, 0]
    assert p.fx["nb_cross"] == [1, 0, 1]
    none_slot = list(rules.market.extra_costs).index("none")
    construct_turn(s)
    build_from(s, "forge", none_slot)
    assert p.fx["nb_ticks"] == [0, 1, 0, 1]
    assert p.fx["nb_cross"] == [2, 1, 2]


def test_calling_end_of_game_ticks_times_lowest_unmarked(game, rules):
    """Appendix A, The Nightbarons, Calling: "At the end of the game, score VP for each
    +[Resource] type equal to [the number of tick marks in its Market Influence box] times [the
    lowest unmarked space in its Market Value column]." (values assumed; None has no column: 0)"""
    s, p = new(game, rules)
    vals = rules.factions["nightbarons"].calling["values"]
    p.fx["nb_ticks"] = [2, 1, 1, 3]
    p.fx["nb_cross"] = [3, 4, 2]
    want = 2 * vals[0][3] + 1 * vals[1][4] + 1 * vals[2][2] + 3 * 0
    assert s.hooks[0].final_scoring(s, p) == [("calling", want)]
    p.fx["nb_cross"] = [99, 0, 0]                     # all crossed out: the last space counts
    assert s.hooks[0].calling_vp(p) == 2 * vals[0][-1] + vals[1][0] + vals[2][0]


def test_level1_left_none_value_and_deck_tops(game, rules):
    """Appendix A, The Nightbarons, Level 1 trait (left): "Increase the Market Value of the "None"
    category to 1. During the construction phase, you may construct the top cards of the workshop
    and forge decks. They have no additional market resource cost." """
    s, p = new(game, rules)
    p.fx["nb_ticks"] = [0, 0, 0, 2]
    assert s.hooks[0].calling_vp(p) == 0
    construct_turn(s)
    assert ("nb_top", "workshop") not in s.legal_actions()
    p.traits = ["nightbarons_1l"]
    assert s.hooks[0].calling_vp(p) == 2
    top = s.decks["forge"][-1]
    n_deck = len(s.decks["forge"])
    market = list(s.market["forge"])
    card = s.static.cards["forge"][top]
    p.res = [card.cost.iron, card.cost.gold, card.cost.gem]   # exactly the printed cost
    acts = s.legal_actions()
    assert ("nb_top", "forge") in acts
    s.apply(("nb_top", "forge"))
    assert s.stack[-1] == ("site", 0, "forge", -1)
    s.apply(s.legal_actions()[0])
    assert p.buildings[-1][1] == top and p.res == [0, 0, 0]
    assert len(s.decks["forge"]) == n_deck - 1 and top not in s.decks["forge"]
    assert s.market["forge"] == market                # the market is untouched
    assert p.fx["nb_ticks"] == [0, 0, 0, 2]           # not "from the market": no tick
    assert s.stack[-1] == ("construct", 1)            # the turn passed on


def test_calling_deck_top_build_is_not_from_the_market(game, rules):
    """Appendix A, The Nightbarons, Calling: "Each time you construct a building from the
    market: Increase the Market Influence ... Increase the Market Values ... for other
    resources".  A deck-top card (Level 1 left) is not taken from the market: no tick, no value
    crossed out, and no level 3 right VP (it rewards constructions that add a tick)."""
    s, p = new(game, rules)
    p.traits = ["nightbarons_1l", "nightbarons_3r"]
    construct_turn(s)
    s.apply(("nb_top", "workshop"))
    s.apply(s.legal_actions()[0])
    assert p.fx["nb_ticks"] == [0, 0, 0, 0] and p.fx["nb_cross"] == [0, 0, 0]
    assert p.vp == 0
    # Switchable: the reading that counts a deck top as a "None" construction.
    old = game.load_rules(sets=['factions.nightbarons.traits.nightbarons_1l.params.deck_top_counts_as="none"'])
    s, p = new(game, old.model)
    p.traits = ["nightbarons_1l"]
    construct_turn(s)
    s.apply(("nb_top", "workshop"))
    s.apply(s.legal_actions()[0])
    assert p.fx["nb_ticks"] == [0, 0, 0, 1] and p.fx["nb_cross"] == [1, 1, 1]


def test_level1_right_swap_market_cards_once_per_kind(game, rules):
    """Appendix A, The Nightbarons, Level 1 trait (right): "Swap the position of two workshop
    cards in the market. (Perform only once per game.) Swap the position of two forge cards in the
    market. (Perform only once per game.) Note: These may be used only when it's your turn during
    the construction phase, before you construct a building." """
    s, p = new(game, rules)
    p.traits = ["nightbarons_1r"]
    construct_turn(s)
    row = list(s.market["workshop"])
    s.apply(("nb_swap", "workshop", 0, 3))
    assert s.market["workshop"] == [row[3], row[1], row[2], row[0]]
    assert s.stack[-1] == ("construct", 0)            # still this player's turn
    acts = s.legal_actions()
    assert not [a for a in acts if a[:2] == ("nb_swap", "workshop")]
    assert [a for a in acts if a[:2] == ("nb_swap", "forge")]
    s.phase = "production"
    s.stack = [("produce", 0)]
    assert not [a for a in s.legal_actions() if a[0] == "nb_swap"]   # construction phase only


def test_level2_left_activate_market_building(game, rules):
    """Appendix A, The Nightbarons, Level 2 trait (left): "During the production phase, you may
    activate one building in the market as though you had constructed it." """
    s, p = new(game, rules)
    p.traits = ["nightbarons_2l"]
    s.phase = "production"
    p.activated = set()
    s.stack = [("produce", 0)]
    keys = [a[1] for a in s.legal_actions() if a[0] == "activate"]
    assert len([k for k in keys if k.startswith("nb_mkt:")]) == 8
    cid = s.market["forge"][3]
    card = s.static.cards["forge"][cid]
    before, vp = list(p.res), p.vp
    s.apply(("activate", "nb_mkt:forge:3"))
    assert p.vp == vp + card.output.vp
    assert p.res[IRON] <= before[IRON] - card.input.iron + card.output.iron
    assert not [a for a in s.legal_actions() if a[0] == "activate" and a[1].startswith("nb_mkt:")]
    assert cid in s.market["forge"]                   # it stays in the market


def test_level2_right_swap_constructed_with_market(game, rules):
    """Appendix A, The Nightbarons, Level 2 trait (right): "Swap one of your constructed workshops
    with one in the market. (Perform only once per game.) Swap one of your constructed forges with
    one in the market. (Perform only once per game.)" """
    s, p = new(game, rules)
    p.traits = ["nightbarons_2r"]
    fp = next(f for f in s.static.footprint["workshop"] if s.standard_site_ok(p, f))
    p.buildings = [("workshop", "w01", fp)]
    construct_turn(s)
    assert not [a for a in s.legal_actions() if a[:2] == ("nb_bswap", "forge")]   # no forge
    market_card = s.market["workshop"][2]
    s.apply(("nb_bswap", "workshop", 0, 2))
    assert p.buildings[0] == ("workshop", market_card, fp)
    assert s.market["workshop"][2] == "w01"
    assert not [a for a in s.legal_actions() if a[0] == "nb_bswap"]
    assert p.fx["nb_ticks"] == [0, 0, 0, 0]           # a swap is not a construction


def test_level3_left_excavate_per_influence_tick(game, rules):
    """Appendix A, The Nightbarons, Level 3 trait (left): "At the end of the excavation phase: For
    each tick mark in each Market Influence category: Excavate a corresponding [Resource space]."
    (a None tick: a dirt space, assumed)"""
    s, p = new(game, rules)
    p.fx["nb_ticks"] = [1, 2, 0, 1]
    s.stack = []
    s.hooks[0].excavation_end(s, p)
    assert s.stack == []
    p.traits = ["nightbarons_3l"]
    s.hooks[0].excavation_end(s, p)
    kinds = [f[2] for f in reversed(s.stack)]
    assert kinds == ["iron", "gold", "gold", "dirt"]
    assert all(f[0] == "space" and f[1] == 0 for f in s.stack)


def test_level3_right_vp_per_influence_category(game, rules):
    """Appendix A, The Nightbarons, Level 3 trait (right) is missing from the rulebook; assumed:
    when constructing from the market, gain 1 VP per Market Influence category with a tick."""
    s, p = new(game, rules)
    p.traits = ["nightbarons_3r"]
    p.fx["nb_ticks"] = [1, 0, 2, 0]
    gold_slot = list(rules.market.extra_costs).index("gold")
    construct_turn(s)
    build_from(s, "workshop", gold_slot)
    assert p.vp == 3 and s.log.breakdown(0)["vp_track"] == 3
    construct_turn(s)
    build_from(s, "workshop", gold_slot)
    assert p.vp == 6



def test_random_games_keep_invariants(random_games_ok):
    """Events (DESIGN.md): score events sum to the final score, resources never go negative,
    with the Nightbarons in every seat position, 1-4 players, every map."""
    assert random_games_ok("nightbarons", n_games=16, seed=700) > 0
