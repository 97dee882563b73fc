"""Start of Your Turn 3 (turn over & activate), Activate your Corporation (postponed orders),
Rounds (the starting-player location), clean-up.  Audit items D1, D6, D7, D12."""

from engine.games.underhaven.turn import _t_turn

from uh_helpers import explore, only, put

OCT = 2
SITE = 4 * OCT          # N space of octagon 2


def _money_die(s):
    """The turn die showing its Money face (+2 Money), so that only the flip changes Food,
    Material and morale."""
    s.die_cycle = (0, 0, 0, 0)
    s.die_idx = 0


def _built(s, bid, terrains, seat=0, worker=True):
    """`bid` built last turn on SITE (face down), with the builder's worker still on it."""
    explore(s, OCT, terrains)
    p = s.players[seat]
    put(s, SITE, bid, seat, done=False)
    p.unfinished = [SITE]
    if worker:
        p.workers[0] = SITE
    _money_die(s)
    s.stack, s.agenda = [], []
    return p


def test_turn_over_and_activate_gives_the_farms_yield(make_state):
    """D1. "3. Turn over & activate all newly built buildings ... 1st, gain the reputation
    shown on the building ... Gain what the building yields. It can be resources (Material,
    Food or increase morale)": a Small Farm with its worker on it gives its 2 Food."""
    s = make_state()
    p = _built(s, "small_farm", ("greenery", "mine", "water", "tech"))
    p.res = [0, 0, 0]
    rep = p.rep
    _t_turn(s, ("turn", 0))
    assert s.done[SITE] and p.rep == rep + 2
    assert p.res[1] == 2                     # Food: the farm's yield
    assert p.res[2] == 0


def test_turn_over_and_activate_mine_pollutes_and_needs_its_worker(make_state):
    """D1. A Large Mine turned over yields 5 Material and pollutes ("Some buildings give
    negative morale when activated"); without a worker on it ("Required for all production
    buildings to gain resources, needs to be on the building upon activation") it yields
    nothing but its reputation."""
    s = make_state()
    p = _built(s, "large_mine", ("mine", "mine", "water", "tech"))
    p.res, p.morale = [0, 0, 0], 2
    _t_turn(s, ("turn", 0))
    assert p.res[2] == 5 and p.morale == 1
    s2 = make_state()
    q = _built(s2, "large_mine", ("mine", "mine", "water", "tech"), worker=False)
    q.res, q.morale = [0, 0, 0], 2
    _t_turn(s2, ("turn", 0))
    assert q.res[2] == 0 and q.morale == 2 and s2.done[SITE]


def test_building_example_irrigation_completion_bonus(make_state):
    """D1, the Building Example: "we will gain 1 Money (income) & 4 (completion bonus) when
    the building is completed" (Irrigation System: "+4 Food if you have a farm"; the player
    has its starting farm)."""
    s = make_state()
    p = _built(s, "irrigation_system", ("water", "mine", "greenery", "tech"), worker=False)
    explore(s, 3, ("greenery", "mine", "water", "tech"))
    put(s, 12, "start_farm", 0)
    p.res = [0, 0, 0]
    _t_turn(s, ("turn", 0))
    assert p.res[1] == 4


def test_turn_over_merchant_guild_trades_twice(make_state):
    """D1. "It can be ... an action (trade twice)": a Merchant Guild turned over gives its +1
    reputation and a Trade on two spaces."""
    s = make_state()
    p = _built(s, "merchant_guild", ("water", "mine", "greenery", "tech"))
    rep = p.rep
    _t_turn(s, ("turn", 0))
    assert p.rep == rep + 4 + 1
    assert s.stack[-1] == ("trade", 0, 2)


def test_turn_over_reputation_only_reading(game, make_state):
    """The other reading, `readings.flip = "reputation"`: only the reputation and one-time
    gains."""
    s = make_state(rules_=game.load_rules(sets=["readings.flip=reputation"]).model)
    p = _built(s, "small_farm", ("greenery", "mine", "water", "tech"))
    p.res = [0, 0, 0]
    _t_turn(s, ("turn", 0))
    assert p.res[1] == 0 and s.done[SITE]


def _example_turn(s):
    """The Round Activation Example's card (deltas_1: Gain 3 Food or Build / Harvest or Mine /
    Trade or Build), with a worker on the starting farm and another on an empty greenery
    space, no Food: a Small Farm (1 Material, 2 Money, 1 Food) cannot be built yet."""
    p = s.players[0]
    explore(s, 3, ("greenery", "mine", "water", "tech"))
    farm = 12
    put(s, farm, "start_farm", 0)
    explore(s, OCT, ("greenery", "mine", "water", "tech"))
    p.workers[:2] = [farm, SITE]
    p.slot, p.markers, p.used_slots, p.support_pending = "deltas_1", 3, (), False
    p.res, p.pt = [2, 0, 1], 0
    s.stack, s.agenda = [("order", 0)], [("end_turn", 0), ("late_support", 0), ("postponed", 0)]
    return p


def test_orders_postponed_to_the_end_of_the_turn(make_state):
    """D6. "Some of the actions can be postponed to the end of a player's turn"; the example:
    "let's choose the BUILD action. But we will carry that out last" (row 1 Build), then the
    row-2 Harvest gives the Food the build needs."""
    s = make_state()
    p = _example_turn(s)
    assert ("postpone", 0, 1) in s.legal_actions()
    s.apply(("postpone", 0, 1))
    assert p.markers == 2 and p.postponed == ((0, 1),) and s.stack[-1] == ("order", 0)
    s.apply(("order", 1, 0))                 # Harvest: the starting farm gives 2 Food
    s.apply(s.legal_actions()[0])
    assert p.res[1] == 2
    s.apply(("order", 2, 0))                 # Trade: nothing
    while s.stack[-1][0] in ("trade",):
        s.apply(("none",))
    assert s.stack[-1] == ("build", 0)       # the postponed Build, at the end of the turn
    assert ("b", "small_farm", SITE) in s.legal_actions()
    s.apply(("b", "small_farm", SITE))
    assert s.bld[SITE] == "small_farm"


def test_postpone_reading_none(game, make_state):
    """`readings.postpone = "none"`: every order is carried out when chosen."""
    s = make_state(rules_=game.load_rules(sets=["readings.postpone=none"]).model)
    _example_turn(s)
    assert not any(a[0] == "postpone" for a in s.legal_actions())


def test_starting_player_location_with_any_activation(make_state):
    """D7. "Any player can become the starting player, using any activation, by placing their
    Professional in the Starting player location on the Corp board during their turn"; the
    change "takes place in the following round"."""
    s = make_state()
    p = _example_turn(s)
    opts = s.legal_actions()
    assert ("first_player",) in opts
    pros = p.pros_free
    s.apply(("first_player",))
    assert s.next_first == 0 and p.pros_free == pros - 1 and p.markers == 2
    assert s.occ["first_player"] == 0
    only(s, ("trade", 0, 1))
    p.pt = 3
    assert ("space", "first_player") not in s.legal_actions()


def test_missions_space_does_not_refill_the_card_market(make_state):
    """D12. "New mission cards are drawn and revealed, if any taken, at the END of current
    player's turn"; "Clean up; if any Activation & Mission cards were bought or taken, refill
    the empty spaces": the missions space replaces the missions, the activation card market
    waits for the clean-up."""
    s = make_state()
    p = s.players[0]
    p.pt = 3
    s.market[0] = None
    only(s, ("trade", 0, 1))
    s.apply(("space", "missions"))
    assert None not in s.missions
    assert s.market[0] is None
    s.refill()
    assert s.market[0] is not None


def test_turn_over_a_mine_pays_the_tectonics_and_the_enigmas_bonus(game, make_state):
    """Audit turn 3 ND5.  With `readings.flip = "activate"` a mine turned over with its worker
    is a Mine activation: the Tectonics' "Each time you use a Mine activation, gain +1
    reputation" (RB:962) is paid like the Enigmas' "+1 ... per activation" (RB:957)
    (before: only the Enigmas' was); without the worker neither is."""
    full = game.load_rules(sets=["modules.focus=true"]).model
    large_mine = next(b for b in full.buildings if b.id == "large_mine")
    for worker in (True, False):
        s = make_state(factions=("tectonics", "deltas"), rules_=full)
        p = _built(s, "large_mine", ("mine", "mine", "water", "tech"), worker=worker)
        p.res, p.morale = [0, 0, 0], 2
        rep = p.rep
        _t_turn(s, ("turn", 0))
        assert p.rep - rep == large_mine.rep + (1 if worker else 0)
        assert p.res[2] == (5 if worker else 0)
        s = make_state(factions=("enigmas", "deltas"), rules_=full)
        p = _built(s, "large_mine", ("mine", "mine", "water", "tech"), worker=worker)
        p.res, p.pt, p.morale = [0, 0, 0], 0, 2
        rep = p.rep
        _t_turn(s, ("turn", 0))
        assert p.rep - rep == large_mine.rep
        assert (p.res[2], p.pt) == ((0, 1) if worker else (0, 0))    # 5 + 1 = 6: a power token
