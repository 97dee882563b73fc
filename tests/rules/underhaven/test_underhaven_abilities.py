"""The Special Abilities, Corporations' Focus (advanced) and the rules data."""

from engine.games.underhaven.orders import open_slots

from uh_helpers import explore, only, put, take, whole

SITE = 8   # N space of octagon 2


def _site(s, terrain="greenery"):
    explore(s, 2, (terrain, "mine", "water", "tech"))
    p = s.players[0]
    p.workers[0] = SITE
    return p


def test_building_needs_less_food(make_state):
    """"When you build, you always build with 2 less Food.\""""
    s = make_state()
    p = _site(s)
    p.ability = "less_food"
    p.res, p.pt = [2, 0, 1], 0             # Small Farm: 1 Material, 2 Money, 1 Food
    only(s, ("build", 0))
    s.apply(("b", "small_farm", SITE))
    assert p.res == [0, 0, 0]


def test_gain_reputation_when_you_build(make_state):
    s = make_state()
    p = _site(s)
    p.ability = "build_rep"
    p.res = [5, 5, 5]
    rep = p.rep
    only(s, ("build", 0))
    s.apply(("b", "small_farm", SITE))
    assert p.rep == rep + 2


def test_build_one_morale_higher(make_state):
    """"you can build 1 step higher than your current morale status indicates": one step of
    the track ("The cost to increase morale 1 step are any 2 resources"), not one level (the
    levels 1/2/3 stand on positions 1/3/5, assumed)."""
    s = make_state()
    p = _site(s, "mine")
    p.res, p.pt, p.morale = [5, 5, 5], 1, 0
    s.players[1].spec_home = 2
    assert s.morale_steps(p, 1) == 1
    p.ability = "morale_plus"
    assert [s.morale_steps(p, lv) for lv in (1, 2, 3)] == [0, 2, 4]
    p.morale = 1
    assert [s.morale_steps(p, lv) for lv in (1, 2, 3)] == [0, 1, 3]


def test_build_once_per_turn_without_a_specialist(make_state):
    s = make_state()
    p = _site(s)
    p.ability = "skip_specialist"
    p.res, p.pt = [5, 5, 5], 0
    only(s, ("build", 0))
    s.apply(("b", "large_farm", SITE))
    assert ("src", "skip", -1) in s.legal_actions()
    s.apply(("src", "skip", -1))
    assert "skip_specialist" in p.used
    assert ("src", "skip", -1) not in s.legal_actions()


def test_trade_three_resources_for_a_power_token_once_per_round(make_state):
    s = make_state()
    p = s.players[0]
    p.ability = "pt_trade"
    p.slot, p.markers, p.used_slots, p.support_pending = p.hand[0], 3, (), False
    p.res, p.pt = [3, 1, 0], 0
    only(s, ("order", 0))
    s.apply(("pt_trade",))
    s.apply(("lose", "money", "money", "money"))
    assert p.pt == 1 and sum(p.res) == 1
    assert ("pt_trade",) not in s.legal_actions()
    from engine.games.underhaven.turn import _t_turn
    _t_turn(s, ("turn", 0))                   # the next round
    assert "pt_trade" not in p.used


def test_arrange_activation_cubes_freely(make_state):
    s = make_state()
    p = s.players[0]
    p.markers, p.used_slots = 3, ()
    p.ability = "free_arrangement"
    assert len(open_slots(p)) == 6


def test_draw_three_keep_one_when_buying_a_card(make_state):
    """"When you buy an activation card, instead of choosing from the market you can draw 3
    from the draw pile & choose 1 to keep. Place the rest under." """
    s = make_state()
    p = s.players[0]
    p.ability = "card_draw3"
    p.pt = 2
    top3 = s.card_deck[-3:][::-1]
    only(s, ("trade", 0, 1))
    s.apply(("space", "card"))
    s.apply(("draw3",))
    assert {a[1] for a in s.legal_actions()} == set(top3)
    s.apply(("keep", top3[1]))
    assert top3[1] in p.hand and top3[1] in p.secret
    assert s.card_deck[:2] == [c for c in top3 if c != top3[1]][::-1] or \
        set(s.card_deck[:2]) == {top3[0], top3[2]}


def test_tunnel_requirement_skipped(make_state):
    s = make_state()
    p = s.players[0]
    p.pt = 2
    only(s, ("tile", 0))
    near = {a[2] for a in whole(s) if a[0] == "tile"}
    p.ability = "tunnel_anywhere"
    anywhere = {a[2] for a in whole(s) if a[0] == "tile"}
    assert near < anywhere and anywhere == set(s.st.gaps) - set(s.gap)


def test_focus_terrain_and_adjacency_reputation(game, rules, make_state):
    """Corporations' Focus, the Deltas: "Each time they build a MAGMA building, gain 3
    reputation ... Each time they build a new MAGMA building adjacent to another player's
    building, gain +2"; a rival building next to it gives them +2."""
    full = game.load_rules(sets=["modules.focus=true"]).model
    s = make_state(rules_=full)
    p, q = s.players[0], s.players[1]         # deltas (magma), threecees (water)
    explore(s, 2, ("magma", "water", "mine", "tech"))
    put(s, 9, "amusement_park", 1)            # E space: a rival's water building
    p.workers[0] = SITE
    p.res, p.pt = [5, 5, 5], 1
    rep, qrep = p.rep, q.rep
    only(s, ("build", 0))
    s.apply(("b", "goods_smelter", SITE))
    s.apply(("src", "own", -1))               # the Deltas' own Engineer
    assert s.bld[SITE] == "goods_smelter"
    assert p.rep == rep + 3 + 2
    assert q.rep == qrep + 3                  # the Threecees' water building got a neighbour


def test_rules_data_marks_every_entry_and_has_the_components(rules):
    """Game Components: 32 octagons (8 starting), 24 activation cards + 4 per player set,
    30 starting resource cards, 40 missions; 10 special abilities; 4 corporations."""
    assert len(rules.octagons) + len(rules.start_tiles) == 32 and len(rules.start_tiles) == 8
    assert len(rules.market_cards) == 24 and len(rules.start_cards) == 30
    assert len(rules.missions) == 40 and len(rules.abilities) == 10
    assert len(rules.corporations) == 4
    assert all(len(c.cards) == 4 for c in rules.corporations.values())
    groups = [rules.buildings, rules.octagons, rules.start_tiles, rules.market_cards,
              rules.start_cards, rules.missions, rules.abilities, rules.trade_spaces]
    for group in groups:
        assert all(e.source in ("rulebook", "assumed") for e in group)
    assert {b.id for b in rules.buildings} >= {"small_farm", "large_farm", "small_mine",
                                               "irrigation_system", "amusement_park",
                                               "merchant_guild", "small_building",
                                               "large_building", "luxury_villa", "corp_storage",
                                               "jetpack_magnifier", "university"}



def test_draw_three_is_a_choice_the_market_stays_open(make_state):
    """D10. "instead of choosing from the market you can draw 3": with the ability the
    market cards are still offered, drawing 3 is one more option."""
    s = make_state()
    p = s.players[0]
    p.ability = "card_draw3"
    p.pt = 2
    only(s, ("trade", 0, 1))
    s.apply(("space", "card"))
    opts = s.legal_actions()
    assert ("draw3",) in opts and ("buy", 0) in opts
    market0 = s.market[0]
    s.apply(("buy", 0))
    assert market0 in p.hand and s.market[0] is None


def test_any_three_resources_for_a_power_token(make_state):
    """D17. "You can lose any 3 resources in exchange for 1 PT once per round": the player
    chooses which, trade goods included."""
    s = make_state()
    p = s.players[0]
    p.ability = "pt_trade"
    p.slot, p.markers, p.used_slots, p.support_pending = p.hand[0], 3, (), False
    p.res, p.pt, p.tg, p.energy = [1, 0, 0], 0, 2, 0
    only(s, ("order", 0))
    assert ("pt_trade",) in s.legal_actions()          # 1 Money + 2 trade goods
    s.apply(("pt_trade",))
    assert s.legal_actions() == [("lose", "money", "tg", "tg")]
    s.apply(("lose", "money", "tg", "tg"))
    assert (p.res, p.tg, p.pt) == ([0, 0, 0], 0, 1)


def test_tectonics_reputation_for_every_mine_activation(game, make_state):
    """D13. The Tectonics (focus): "Each time you use a Mine activation, gain +1 reputation",
    with or without a staffed mine."""
    full = game.load_rules(sets=["modules.focus=true"]).model
    s = make_state(factions=("tectonics", "deltas"), rules_=full)
    p = s.players[0]
    p.slot, p.markers, p.used_slots, p.support_pending = "deltas_1", 3, ((0, 0),), False
    p.markers = 2
    rep = p.rep
    only(s, ("order", 0))
    s.apply(("order", 1, 1))                  # Mine, no mine building at all
    assert p.rep == rep + 1


def test_pt_trade_at_a_postponed_build_and_at_a_trade_space(make_state):
    """Audit turn 3 ND3.  "You can lose any 3 resources in exchange for 1 PT once per round"
    (RB:292) names no timing.  It is offered at the postponed Build (before: only between
    orders, so not once the last marker was placed), where its power token pays the 2 Money
    of a Small Farm; and at a Trade space, where it makes the 2-PT card space affordable."""
    s = make_state()
    p = _site(s)
    p.ability = "pt_trade"
    p.used.discard("pt_trade")
    p.slot, p.markers, p.used_slots, p.support_pending = "deltas_1", 3, (), False
    p.res, p.pt, p.tg, p.energy = [0, 1, 1], 0, 3, 0
    s.stack, s.agenda = [("order", 0)], [("end_turn", 0), ("late_support", 0), ("postponed", 0)]
    s.apply(("postpone", 0, 1))              # row 1: Build, carried out last
    s.apply(("order", 1, 0))                 # row 2: Harvest (no farm: nothing)
    s.apply(("order", 2, 0))                 # row 3: Trade
    assert s.stack[-1][0] == "trade"
    s.apply(("none",))
    assert s.stack[-1] == ("build", 0)       # the postponed Build: all markers placed
    opts = s.legal_actions()
    assert ("b", "small_farm", SITE) not in opts and ("pt_trade",) in opts
    s.apply(("pt_trade",))
    s.apply(("lose", "tg", "tg", "tg"))
    assert p.pt == 1 and s.stack[-1] == ("build", 0)
    assert ("pt_trade",) not in s.legal_actions()          # once per round
    s.apply(("b", "small_farm", SITE))
    assert s.bld[SITE] == "small_farm" and p.pt == 0 and p.res == [4, 0, 0]

    s = make_state()
    p = s.players[0]
    p.ability, p.pt, p.tg, p.res = "pt_trade", 1, 3, [0, 0, 0]
    p.used.discard("pt_trade")
    only(s, ("trade", 0, 1))
    assert ("space", "card") not in s.legal_actions()
    s.apply(("pt_trade",))
    s.apply(("lose", "tg", "tg", "tg"))
    assert s.stack[-1] == ("trade", 0, 1) and ("space", "card") in s.legal_actions()
