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
