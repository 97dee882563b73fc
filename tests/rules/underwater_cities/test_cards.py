"""Rulebook "Cards": instant effects, claiming, action cards (one use per era, the Limit of
Four, the Personal Assistant), Special cards and where discarded cards go."""

from uwc_helpers import card_inst, claim, give, hand, only, res, settle


def _play(s, seat, cid, slot, first="card_first"):
    hand(s, seat, [cid])
    s.apply(("play", cid))
    s.apply(("slot", slot))
    if s.stack and s.stack[-1][0] == "order":
        s.apply((first,))


def test_instant_card_is_discarded_after_its_effect(make_state):
    """Instant Effects: "these cards are discarded to the discard pile on the main board.\""""
    s = make_state()
    _play(s, 0, "e1_kelp_harvest", "r_science")
    inst = card_inst(s, "e1_kelp_harvest", free=False)
    assert s.st.card_id[inst] == "e1_kelp_harvest"
    assert any(s.st.card_id[i] == "e1_kelp_harvest" for i in s.discard)


def test_matching_card_of_another_type_is_claimed(make_state):
    """Claiming a Card: "if its color matches your chosen action slot, you claim the card
    ... If the color of the card does not match ... It goes to the discard pile.\""""
    s = make_state()
    _play(s, 0, "e1_toll_booth", "y_steel")          # yellow production card, yellow slot
    p = s.players[0]
    assert [s.st.card_id[i] for i in p.claimed] == ["e1_toll_booth"]
    t = make_state()
    _play(t, 0, "e1_toll_booth", "g_assist")         # green slot: no claim
    assert t.players[0].claimed == ()


def test_action_card_one_use_per_era_restored_after_production(make_state):
    """Action Cards: "Each action card is limited to one use per era ... At the end of the
    era, after Production, all action cards are restored\""""
    s = make_state()
    inst = claim(s, 0, "e1_steel_press")             # gain 2 steelplast
    only(s, ("use_action", 0, 1, "slot"))
    assert ("use", "e1_steel_press") in s.legal_actions()
    s.apply(("use", "e1_steel_press"))
    assert inst in s.players[0].used
    only(s, ("use_action", 0, 1, "slot"))
    assert ("use", "e1_steel_press") not in s.legal_actions()
    from engine.games.underwater_cities.turn import _t_era_end
    _t_era_end(s, ("era_end",))
    assert not s.players[0].used


def test_action_card_usable_on_the_turn_it_is_claimed(make_state):
    """"It is legal to use an action card even on the turn in which you claimed it.\""""
    s = make_state()
    _play(s, 0, "e1_steel_press", "r_special")       # red action card, red slot (action+special)
    assert s.stack[-1][0] in ("parts", "use_action")
    while s.stack and s.stack[-1][0] == "parts":
        s.apply(next(a for a in s.legal_actions() if a == ("part", 0)))
    assert ("use", "e1_steel_press") in s.legal_actions()


def test_personal_assistant_gains_steelplast_or_credit(make_state):
    """Personal Assistant: "When you use the action, you decide whether to gain 1 steelplast
    or 1 credit.\""""
    s = make_state()
    res(s, 0)
    only(s, ("use_action", 0, 1, "slot"))
    s.apply(("use", "assistant"))
    assert s.legal_actions() == [("option", 0), ("option", 1)]
    s.apply(("option", 0))
    assert s.players[0].res[2] == 1


def test_limit_of_four_discard_to_claim_and_use_the_discarded(make_state):
    """Limit of Four: "If you already have 4, then you must discard one before you claim a
    new action card ... If you make room for a new action card by discarding one that is
    available, you may immediately use the discarded action.\""""
    s = make_state()
    for cid in ("e1_steel_press", "e1_kelp_tender", "e1_depot"):
        claim(s, 0, cid)
    p = s.players[0]
    assert len(p.actions) == 4                       # with the Personal Assistant
    res(s, 0)
    _play(s, 0, "e1_workshop", "y_steel")            # a fifth action card
    assert s.stack[-1][0] == "limit"
    opts = s.legal_actions()
    assert ("drop", "assistant", 0) in opts and ("decline",) in opts
    s.apply(("drop", "e1_kelp_tender", 0))
    assert s.legal_actions() == [("use",), ("skip",)]
    s.apply(("use",))
    ids = [s.st.card_id[i] for i in p.actions]
    assert "e1_workshop" in ids and "e1_kelp_tender" not in ids and len(ids) == 4
    assert p.res[1] == 1 + 2                         # y_steel's kelp + the dropped card's 2


def test_special_card_pays_its_cost_or_returns_to_the_bottom(make_state):
    """Special Cards: "If it matches, then it has an effect only if you pay the cost ...
    If you choose not to pay to play the Special card, return it to the bottom of the
    Special card deck.\""""
    s = make_state()
    hand(s, 0, [])
    inst = give(s, 0, "sp_emergency_rations")        # green, 1 credit: 3 kelp
    res(s, 0, credits=1)
    s.apply(("play", "sp_emergency_rations"))
    s.apply(("slot", "g_assist"))                    # green: an action card, 1 steelplast
    s.apply(("card_first",))
    assert s.legal_actions() == [("pay",), ("decline",)]
    s.apply(("decline",))
    assert s.sdeck[0] == inst and s.players[0].res[1] == 0      # no kelp
    t = make_state()
    hand(t, 0, [])
    inst = give(t, 0, "sp_emergency_rations")
    res(t, 0, credits=1)
    t.apply(("play", "sp_emergency_rations"))
    t.apply(("slot", "g_assist"))
    t.apply(("card_first",))
    t.apply(("pay",))
    p = t.players[0]
    assert p.res[0] == 0 and p.res[1] == 3 and p.under == (inst,) and p.specials_paid == 1


def test_discarded_three_credit_special_leaves_the_game(make_state):
    """"Three-credit Special cards have no way to re-enter play ... if one is discarded, you
    can return it to the box.\""""
    from engine.games.underwater_cities.cards import dispose
    s = make_state()
    dear = s.sface[0]
    s.sface.remove(dear)
    dispose(s, dear)
    assert dear in s.sbox
    cheap = s.sdeck.pop()
    dispose(s, cheap)
    assert s.sdeck[0] == cheap


def test_taking_a_special_card_three_ways(make_state):
    """Drawing Special Cards: a three-credit card (not replaced), the top card of the deck,
    or the top card to the bottom and keep 1 of the next 3, the others to the bottom."""
    s = make_state()
    only(s, ("special", 0))
    opts = s.legal_actions()
    assert ("top",) in opts and ("look",) in opts
    assert sum(1 for a in opts if a[0] == "take") == len({s.st.card_id[i] for i in s.sface})
    face = list(s.sface)
    s.apply(next(a for a in opts if a[0] == "take"))
    assert len(s.sface) == len(face) - 1
    only(s, ("special", 0))
    top = s.sdeck[-1]
    s.apply(("top",))
    assert top in s.players[0].hand and top in s.players[0].public
    only(s, ("special", 0))
    deck = list(s.sdeck)
    s.apply(("look",))
    seen = s.stack[-1][2]
    assert list(seen) == deck[-2:-5:-1]
    s.apply(s.legal_actions()[0])
    kept = next(i for i in seen if i in s.players[0].hand)
    assert kept not in s.players[0].public
    assert sorted(s.sdeck[:3]) == sorted([deck[-1]] + [i for i in seen if i != kept])
    settle(s)


def test_taking_the_special_card_of_a_slot_may_be_skipped(make_state):
    """RB:182 "It is legal to use only part of an action or card effect": on the slot "use 1
    action card and take 1 Special card" a player may use neither (audit turn 3 D4; old
    code: once chosen, a Special card had to be taken)."""
    s = make_state(n=3)
    hand(s, 0, ["e1_supply_drop"])                   # yellow: mismatches the red slot
    res(s, 0)
    s.apply(("play", "e1_supply_drop"))
    s.apply(("slot", "r_special"))
    kinds = []
    while s.to_move() == 0:
        kinds.append(s.stack[-1][0])
        legal = s.legal_actions()
        s.apply(next((a for a in legal if a[0] == "skip"), None) or ("part", 1))
    assert "special" in kinds
    p = s.players[0]
    assert not any(s.st.special[i] for i in p.hand)
    assert len(s.sface) == s.rules.supply.specials_face_up


def test_look_at_three_returns_the_other_two_in_either_order(make_state):
    """Drawing Special Cards: "Choose one of these 3 to keep and return the other 2 to the
    bottom of the deck in either order.\"  The player chooses the order (both are offered
    and the one named goes to the very bottom)."""
    for last_pos in (0, 1):
        s = make_state()
        only(s, ("special", 0))
        s.apply(("look",))
        seen = s.stack[-1][2]
        ids = s.st.card_id
        kept, others = seen[0], list(seen[1:])
        assert len(others) == 2 and ids[others[0]] != ids[others[1]]
        opts = s.legal_actions()
        assert ("keep", ids[kept], ids[others[0]]) in opts
        assert ("keep", ids[kept], ids[others[1]]) in opts
        last = others[last_pos]
        s.apply(("keep", ids[kept], ids[last]))
        assert s.sdeck[0] == last and s.sdeck[1] == others[1 - last_pos]
        assert kept in s.players[0].hand
        settle(s)


def test_mismatch_trigger_not_on_the_always_available_slot(make_state):
    """A permanent card that reacts to a card played on a slot of another colour does not
    react to the always-available slot (it has no colour).  Facts sheet section 7 [H]: the
    mismatch gives +1 steelplast (audit turn 3 D8: the card gave a credit)."""
    s = make_state()
    claim(s, 0, "e1_black_market_contacts")          # 1 steelplast on a mismatch
    res(s, 0)
    hand(s, 0, ["e1_kelp_harvest"])
    s.apply(("play", "e1_kelp_harvest"))
    s.apply(("always",))
    assert s.players[0].res[:3] == [2, 0, 0]         # the slot's 2 credits only
    t = make_state()
    claim(t, 0, "e1_black_market_contacts")
    res(t, 0)
    hand(t, 0, ["e1_kelp_harvest"])
    t.apply(("play", "e1_kelp_harvest"))
    t.apply(("slot", "y_steel"))                     # 2 steelplast, 1 kelp; red card
    assert t.players[0].res[:3] == [0, 1, 2 + 1]


def test_timing_example_action_card_pays_for_the_build(make_state):
    """Timing: "you can first use an action card which gives you for example 1 credit and
    then you can pay this credit and 1 science to build and immediately upgrade
    desalination plant.\""""
    s = make_state(boards=("vent", "embassy", "reef", "trench"))
    res(s, 0, science=1)
    hand(s, 0, ["e1_kelp_harvest"])
    s.apply(("play", "e1_kelp_harvest"))
    s.apply(("slot", "r_build_upgrade"))
    s.apply(("slot_first",))
    assert s.legal_actions() == [("part", 0), ("part", 1)] or s.stack[-1][0] == "use_action"
    if s.stack[-1][0] == "parts":
        s.apply(("part", 0))                         # the action card first
    s.apply(("use", "assistant"))
    s.apply(("option", 1))                           # 1 credit
    from uwc_helpers import site
    s.apply(("build", "desal", site(s, "c11b2")))
    s.apply(("upgrade",))
    p = s.players[0]
    assert p.bup >> site(s, "c11b2") & 1 and p.res[3] == 0
    assert p.res[:2] == [1, 2]                       # then the card: 1 credit, 2 kelp
