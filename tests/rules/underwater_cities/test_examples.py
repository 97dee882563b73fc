"""The rulebook's worked examples that had no test of their own (audit turn 3, section 6),
each played as one sequence of decisions through `state.apply`.  RB:n = line n of
shared/rulebooks/underwater_cities.txt."""

from uwc_helpers import claim, hand, res, site


def _card_on(s, cid, slot):
    """Seat 0, its only card `cid`, plays it on `slot`."""
    hand(s, 0, [cid])
    s.apply(("play", cid))
    s.apply(("slot", slot))


def test_rb116_use_one_of_your_action_cards_and_gain_1_steelplast(make_state):
    """RB:116 "Example: If you choose this action slot, you may use one of your action cards
    and gain 1 steelplast." (the green slot g_assist; RB:120 "It is legal to use an action
    card even on the turn in which you claimed it" is tested in test_cards.py)."""
    s = make_state(n=3)
    p = s.players[0]
    press = claim(s, 0, "e1_steel_press")            # action card: +2 steelplast
    res(s, 0)
    _card_on(s, "e1_kelp_harvest", "g_assist")       # red card: ignored on a green slot
    assert p.res[2] == 1                             # the slot's steelplast at once
    assert set(s.legal_actions()) == {("use", "assistant"), ("use", "e1_steel_press"),
                                      ("skip",)}    # "you may": one of them, or none
    s.apply(("use", "e1_steel_press"))
    assert p.res[2] == 1 + 2
    assert p.used == frozenset({press})              # rotated: used this era
    assert s.to_move() == 1                          # one action card only: the turn is over


def test_rb118_instant_card_on_a_green_slot_uses_an_action_card(make_state):
    """RB:118 "Example: If you play this instant-effect card on a green slot, you may use
    one of your action cards before or after performing the slot's action." (Field Trial,
    green, RB:84 "resolve the card before or after"); on a slot of another colour it is
    ignored (RB:84)."""
    for order in ("card_first", "slot_first"):
        s = make_state(n=3)
        p = s.players[0]
        claim(s, 0, "e1_steel_press")
        res(s, 0)
        _card_on(s, "e1_field_trial", "g_federation")    # green: advance 2
        assert s.legal_actions() == [("card_first",), ("slot_first",)]
        s.apply((order,))
        assert s.stack[-1][0] == "use_action"
        s.apply(("use", "e1_steel_press"))
        assert p.res[2] >= 2 and p.fed > 0               # both the card and the slot
        assert s.to_move() == 1
    t = make_state(n=3)
    claim(t, 0, "e1_steel_press")
    res(t, 0)
    _card_on(t, "e1_field_trial", "y_steel")             # yellow: the card is ignored
    assert t.players[0].used == frozenset() and t.to_move() == 1


def test_rb158_a_three_credit_special_card_is_taken_then_paid_for(make_state):
    """RB:150-158: "The only way to get one is to use the action slot marked like this ...
    The Special card remains in your hand. It can be played just like any other card ... If
    it matches, then it has an effect only if you pay the cost ... Example: The player must
    pay 3 credits to play this card if she wants its special benefit."  Seat 0 takes a
    face-up 3-credit card on the Special slot, the others take the always-available slot,
    and on its next turn seat 0 plays it on a slot of its colour and pays 3 credits."""
    s = make_state(n=3)
    p = s.players[0]
    ids = s.st.card_id
    dear = min((i for i in s.sface if s.st.cards[i].type != "instant"), key=lambda i: ids[i])
    card = s.st.cards[dear]                          # claimed when paid: no instant gains
    assert card.cost == 3
    res(s, 0, credits=3)
    _card_on(s, "e1_supply_drop", "r_special")       # yellow card: ignored
    s.apply(("part", 1))                             # the Special card first
    s.apply(("take", ids[dear]))
    assert dear in p.hand and dear not in s.sface
    s.apply(("skip",))                               # no action card
    for seat in (1, 2):
        assert s.to_move() == seat
        s.apply(s.legal_actions()[0])                # play a card
        s.apply(("always",))
    assert s.to_move() == 0
    if s.stack[-1][0] == "discard":                  # 4 cards: down to 3, keep the Special
        s.apply(next(a for a in s.legal_actions() if a[1] != ids[dear]))
    s.apply(("play", ids[dear]))
    slot = {"green": "g_assist", "red": "r_science", "yellow": "y_steel"}[card.colour]
    s.apply(("slot", slot))
    s.apply(("card_first",))
    assert s.legal_actions() == [("pay",), ("decline",)]
    credits = p.res[0]
    s.apply(("pay",))
    assert p.res[0] == credits - 3 and p.specials_paid == 1
    assert dear in p.claimed + p.actions             # claimed in the usual way (RB:170)


def test_rb182_build_only_the_tunnel_of_a_city_and_tunnel_slot(make_state):
    """RB:182 "It is legal to use only part of an action or card effect. For example, if an
    action slot allows you to build a city and a tunnel, you can choose to build only the
    tunnel, if you wish." (the yellow slot y_tunnel_city)."""
    s = make_state(n=3)
    p = s.players[0]
    res(s, 0, credits=5, kelp=2, steelplast=5)       # enough for both
    _card_on(s, "e1_kelp_harvest", "y_tunnel_city")  # red card: ignored
    assert s.legal_actions() == [("part", 0), ("part", 1)]
    s.apply(("part", 0))                             # the tunnel
    s.apply(next(a for a in s.legal_actions() if a[0] == "build"))
    assert ("stop",) in s.legal_actions()            # the city may be left out
    s.apply(("stop",))
    assert p.tun.bit_count() == 1 and p.cmask.bit_count() == 1   # the starting city only
    assert s.to_move() == 1


def test_rb415_417_a_site_bonus_pays_for_the_second_tunnel(make_state):
    """RB:413-417 "These bonuses are triggered effects, which are resolved immediately, even
    in the middle of an action: Example: ... You choose the action that allows you to build 2
    tunnels. You pay 1 steelplast and 1 credit to build on this site and immediately gain 1
    steelplast.  You may use this steelplast (and 1 more credit) to build your second
    tunnel."  Board Trench Works: tunnel site t8, next to the starting city, carries +1
    steelplast."""
    s = make_state(n=3, boards=("trench", "reef", "vent"))
    p = s.players[0]
    res(s, 0, credits=2, steelplast=1)               # one tunnel's worth of steelplast
    _card_on(s, "e1_supply_drop", "r_tunnels")       # yellow card: ignored on a red slot
    s.apply(("build", "tunnel", site(s, "t8")))
    assert p.res[:3] == [1, 0, 1]                    # paid 1 + 1, gained 1 steelplast
    second = [a for a in s.legal_actions() if a[0] == "build"]
    assert second                                    # the bonus pays the second tunnel
    s.apply(second[0])
    assert p.tun.bit_count() == 2 and p.res[:3] == [0, 0, 0]
    assert s.to_move() == 1
