"""The Resources and Payment for Building (rulebook sections of the same names)."""

from engine.games.underhaven.payment import gain_track, pay_track


def test_payment_for_building_overflow_at_six_gives_a_power_token():
    """"Our Food bar is currently at 4. This farm gives us 3 Food ... We gain 1 bead (counted
    as the 6), then we go down to 0 ... we move the bar up 1 more, as we gained a total of 7."""
    assert gain_track(4, 0, 3, 6) == (1, 1)
    # Round Activation Example, The 2nd Activation: at 4, +2 Food -> 1 Power Token, Food 0.
    assert gain_track(4, 0, 2, 6) == (0, 1)
    assert gain_track(5, 2, 13, 6) == (0, 5)


def test_payment_for_building_power_token_makes_change():
    """"A payment for 4 Material is needed, our resource bar for Material is at 0 ... 1 bead is
    returned ... The bead's value is 6 in this exchange, so 2 Material is gained back.\""""
    assert pay_track(0, 1, 4, 6) == (2, 0)
    assert pay_track(0, 0, 4, 6) is None
    assert pay_track(5, 0, 4, 6) == (1, 0)      # the track covers it: no token spent


def test_payment_for_building_power_token_pays_six_and_more_whole():
    """"if a cost for each basic resource is 8, we would just pay 3 Power Tokens; 1 for each
    basic resource needed, above 5"; "6 Money ... We spend 1 of our Power Tokens ... We don't
    move the top slider.\""""
    assert pay_track(0, 3, 8, 6) == (0, 2)
    assert pay_track(2, 1, 6, 6) == (2, 0)


def test_building_example_payment_resource_by_resource(make_state):
    """Building Example step 3: 2 Money for the Supers + 4 Money = 6 Money paid with one Power
    Token, 3 Food paid with another (3 Food back), 2 Material from the track; step 4: one
    morale step for any 2 resources (taken from the Food given back)."""
    s = make_state()
    p = s.players[0]
    p.res = [0, 0, 2]   # money, food, material
    p.pt = 2
    after = s.afford(p, 6, 3, 2, 0, 0)
    assert after == ([0, 3, 0], 0)
    res, pt = s.afford(p, 6, 3, 2, 0, 1)
    assert (res, pt) == ([0, 1, 0], 0)
    assert s.afford(p, 6, 3, 3, 0, 0) is None   # a third token would be needed


def test_morale_step_paid_with_the_resources_the_player_chooses(make_state):
    """Audit turn 3 ND4.  "The cost to increase morale 1 step are any 2 resources" (RB:891);
    "we can also just pay the required cost as can be seen between each morale step on our
    player board; either resources or power tokens" (RB:595).  The player chooses the two
    (before: always one at a time from the fullest track): here both from Material, leaving
    Money and Food; a power token for the whole step is also offered."""
    from uh_helpers import explore

    s = make_state(factions=("tectonics", "deltas"))
    p = s.players[0]
    explore(s, 2, ("greenery", "mine", "water", "tech"))
    p.workers[0] = 8
    p.res, p.pt, p.morale = [5, 4, 5], 1, 0          # Food Generator: 3 / 3 / 2, morale 1
    s.stack, s.agenda = [("build", 0)], []
    s.apply(("b", "food_generator", 8))
    while s.stack and s.stack[-1][0] == "spec":
        s.apply(s.legal_actions()[0])                # the Tectonics' own green specialist
    assert s.stack[-1] == ("morale", 0, 1) and p.res == [2, 2, 2]
    opts = s.legal_actions()
    assert ("pay", "material", "material") in opts and ("pay", "money", "food") in opts
    assert ("pay", "pt") in opts and len(opts) == 7
    s.apply(("pay", "material", "material"))
    assert (p.res, p.pt, p.morale, s.bld[8]) == ([2, 2, 0], 1, 1, "food_generator")
    assert not s.stack


def test_morale_steps_offered_only_while_the_rest_stays_payable(make_state):
    """ND4: two steps due with 2 resources on the tracks and 1 power token: a step paid by the
    token leaves the tracks for the other; tracks first leave the token; every option
    offered can be completed."""
    s = make_state()
    p = s.players[0]
    p.res, p.pt, p.morale = [1, 0, 1], 1, 0
    s.stack, s.agenda = [("morale", 0, 2)], []
    assert s.legal_actions() == [("pay", "money", "material"), ("pay", "pt")]
    s.apply(("pay", "pt"))
    assert s.legal_actions() == [("pay", "money", "material")]
    s.apply(("pay", "money", "material"))
    assert (p.res, p.pt, p.morale) == ([0, 0, 0], 0, 2)
