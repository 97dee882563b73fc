"""The 7 Actions, Building Connectivity, Trade, The Corp (rulebook sections)."""

from engine.games.underhaven.activate import activation_groups
from engine.games.underhaven.orders import open_slots

from uh_helpers import explore, only, put


def test_move_explores_stops_and_rotates(make_state):
    """Move: "When we move to a new unexplored Octagon, we stop ... Flip the unexplored
    octagon over ... rotate it as you see fit"; 6 moves shared among the workers."""
    s = make_state()
    p = s.players[0]
    p.mv_left, p.mv_stopped, p.mv_jet = 6, (), False
    only(s, ("move", 0))
    explores = [a for a in s.legal_actions() if a[0] == "explore"]
    steps = [a for a in s.legal_actions() if a[0] == "step"]
    assert steps
    # Walk a worker until it can explore.
    while not explores:
        s.apply(steps[0])
        explores = [a for a in s.legal_actions() if a[0] == "explore"]
        steps = [a for a in s.legal_actions() if a[0] == "step"]
    left = p.mv_left
    w, dest = explores[0][1], explores[0][2]
    s.apply(explores[0])
    assert s.stack[-1][0] == "rotate"
    s.apply(s.legal_actions()[-1])
    assert s.explored[dest >> 2] and s.terr[dest] is not None
    assert p.mv_left == left - 1 and w in p.mv_stopped
    assert not any(a[0] in ("step", "explore") and a[1] == w for a in s.legal_actions())


def test_tunnel_costs_one_move_and_connects(make_state):
    """"You can move through a Tunnel with 1 MOVE, the length of the tunnel does not
    matter"; a gap tile connects the spaces facing it (assumed geometry)."""
    s = make_state(n=4)
    geo = s.st.geo
    o1, o2 = 6, 12                       # (1, 1) and (2, 2): diagonal neighbours
    explore(s, o1, ("greenery",) * 4)
    explore(s, o2, ("greenery",) * 4)
    gap = geo.space_gap[4 * o1 + 1]      # the SE gap of o1 faces W of o2
    assert 4 * o2 + 3 in geo.faces(gap)
    assert not s.connected(4 * o1 + 1, 4 * o2 + 3)
    s.lay_tile("three_way", 0, (gap,), geo.faces(gap))
    assert s.connected(4 * o1 + 1, 4 * o2 + 3)
    assert 4 * o2 + 3 in s.neighbours(4 * o1 + 1)


def test_connected_activation_runs_all_owned_staffed_buildings(make_state):
    """Building Connectivity: "with a single activation ... ALL buildings of the SAME TYPE"
    that are connected, owned and have a worker present."""
    s = make_state()
    p = s.players[0]
    explore(s, 2, ("greenery",) * 4)
    for sp in (8, 9, 10):
        put(s, sp, "small_farm", 0)
    p.workers[:3] = [8, 9, 7 * 4]
    groups = activation_groups(s, p, "harvest")
    assert [8, 9] in groups and all(10 not in g for g in groups)   # 10 is unstaffed
    p.res = [0, 0, 0]
    only(s, ("activate", 0, "harvest"))
    s.apply(("group", 8))
    assert p.res[1] == 4                 # 2 + 2 Food


def test_pollution_and_the_no_morale_penalty_ability(make_state):
    """Mines that pollute lower morale 1; the special ability avoids it."""
    s = make_state()
    p = s.players[0]
    explore(s, 2, ("mine",) * 4)
    put(s, 8, "large_mine", 0)
    p.workers[0] = 8
    p.morale = 2
    only(s, ("activate", 0, "mine"))
    s.apply(("group", 8))
    assert p.morale == 1
    p.ability = "no_pollution"
    only(s, ("activate", 0, "mine"))
    s.apply(("group", 8))
    assert p.morale == 1


def test_trade_bumping_gives_the_bumped_player_two_reputation(make_state):
    """Trade: "If a Professional from another player is present he will be bumped out. If
    that happens, HE gains 2 reputation & is returned to his player board.\""""
    s = make_state()
    p, q = s.players[0], s.players[1]
    s.occ["goods_for_pt"] = 1
    q.pros_free = 1
    p.tg = 4
    rep = q.rep
    only(s, ("trade", 0, 1))
    s.apply(("space", "goods_for_pt"))
    assert q.rep == rep + 2 and q.pros_free == 2 and s.occ["goods_for_pt"] == 0
    assert p.tg == 2 and s.stack[-1][0] == "again"
    pt = p.pt
    s.apply(("again",))                  # as many trades on the same spot as affordable
    assert p.tg == 0 and p.pt == pt + 1


def test_university_lets_the_markers_go_anywhere(make_state):
    """University: "players can now adjust their activation tokens ... use 2 activations in
    the SAME row & then completely skip another row", still all 3 tokens."""
    s = make_state()
    p = s.players[0]
    p.markers, p.used_slots = 3, ()
    assert open_slots(p) == [(0, 0), (0, 1)]
    p.university = True
    assert len(open_slots(p)) == 6
    p.used_slots, p.markers = ((0, 0), (0, 1)), 1
    assert open_slots(p) == [(1, 0), (1, 1), (2, 0), (2, 1)]


def test_the_corp_star_space_rolls_the_turn_die(make_state):
    """The Corp: "As this space has a star icon, roll the game cube to the next space";
    Rounds: a star used this round means the die does not move at the round's end."""
    s = make_state()
    p = s.players[0]
    p.pt = 4
    left, idx = s.die_left, s.die_idx
    only(s, ("corp", 0))
    s.apply(("space", "corp_pt"))
    assert s.die_left == left - 1 and s.die_idx == (idx + 1) % 4 and s.star_round
    assert p.pt == 2
    from engine.games.underhaven.turn import _t_round_end
    s.agenda = []
    _t_round_end(s, ("round_end",))
    assert s.die_left == left - 1        # no extra roll at the end of a star round
    s.star_round = False
    _t_round_end(s, ("round_end",))
    assert s.die_left == left - 2


def test_mission_claimed_and_refilled_at_the_end_of_the_turn(make_state):
    """The Missions: "When taken, instantly gain the reputation"; "New mission cards are
    drawn ... at the END of current player's turn"; "If the mission deck is depleted, shuffle
    the discard pile into a new draw pile"."""
    s = make_state()
    p = s.players[0]
    m = s.st.missions["mis01"]
    assert (m.kind, m.terrains, m.count, m.rep) == ("own", ("greenery",), 2, 3)
    explore(s, 2, ("greenery", "greenery", "water", "tech"))
    put(s, 8, "small_farm", 0)
    s.missions = ["mis01", "mis02", None, None]
    s.mission_deck = []
    s.mission_discard = ["mis20", "mis21", "mis22"]
    rep = p.rep
    s.claim_missions(p)
    assert s.missions[0] == "mis01" and p.rep == rep      # one greenery building only
    put(s, 9, "small_farm", 0)
    s.claim_missions(p)
    assert s.missions[0] is None and p.rep == rep + 3
    s.refill()
    assert None not in s.missions and len(s.mission_deck) == 1
    assert set(s.missions[:1] + s.missions[2:] + s.mission_deck) == {"mis01", "mis20", "mis21", "mis22"}


def test_consultant_landing_on_a_rivals_social_building(make_state):
    """Social Buildings: Corp Storage gives 1 Trade Goods + 1 Power Token; "The Owner ...
    gains 2 rep when the other players' Consultants land there"; costs 1 movement."""
    s = make_state()
    p, q = s.players[0], s.players[1]
    explore(s, 2, ("social", "mine", "water", "tech"))
    put(s, 8, "corp_storage", 1)
    p.mv_left, p.mv_stopped, p.mv_jet = 6, (), False
    p.cons_free = 1
    tg, pt, rep = p.tg, p.pt, q.rep
    only(s, ("move", 0))
    s.apply(("fly", 8))
    assert (p.tg, p.pt, q.rep, p.mv_left, p.cons_free) == (tg + 1, pt + 1, rep + 2, 5, 0)


def test_card_space_not_offered_nor_paid_when_the_market_is_empty(make_state):
    """Audit turn 3 ND2.  Icon Key (RB:1042): "Pay 2 power tokens to gain an activation card";
    Trade (RB:575): "a new Activation card, choose 1 from the market"; Gameplay Overview
    (RB:387): "Clean up; if any Activation & Mission cards were bought or taken, refill the
    empty spaces".  Once the market is bought out in a turn, the card space and its `again`
    are no longer offered (before: offered while the deck had cards, 2 PT for no card)."""
    s = make_state()
    p = s.players[0]
    p.ability = ""
    p.pt = 10
    assert any(c is not None for c in s.market) and len(s.card_deck) > 3
    only(s, ("trade", 0, 1))
    s.apply(("space", "card"))
    for _ in range(len([c for c in s.market if c is not None])):
        s.apply(s.legal_actions()[0])        # buy a market card
        if s.stack[-1][0] == "again" and any(c is not None for c in s.market):
            s.apply(("again",))
    assert all(c is None for c in s.market) and s.card_deck
    assert s.legal_actions() == [("done",)]  # no `again` for 2 PT and no card
    pt = p.pt
    s.apply(("done",))
    assert p.pt == pt
    only(s, ("trade", 0, 1))
    p.pros_free = 2
    assert ("space", "card") not in s.legal_actions()


def test_card_space_with_draw_three_and_an_empty_market(make_state):
    """ND2, the draw-3 ability ("instead of choosing from the market you can draw 3 from the
    draw pile"): with an empty market the card space stays open while the deck has cards,
    and only `draw3` is offered."""
    s = make_state()
    p = s.players[0]
    p.ability, p.pt = "card_draw3", 4
    s.market = [None] * len(s.market)
    only(s, ("trade", 0, 1))
    assert ("space", "card") in s.legal_actions()
    s.apply(("space", "card"))
    assert s.legal_actions() == [("draw3",)]
