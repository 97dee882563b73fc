"""Build, Specialists & Building, Hire & Use Specialists (rulebook sections)."""

import pytest

from engine.core.errors import IllegalAction

from uh_helpers import explore, only

OCT = 2            # an octagon in the middle of the first line (not a start octagon here)
SITE = 4 * OCT     # its N space


def _at_site(s, seat=0, terrain="greenery", workers=1):
    explore(s, OCT, (terrain, "mine", "water", "tech"))
    p = s.players[seat]
    for i in range(workers):
        p.workers[i] = SITE
    return p


def test_build_needs_a_worker_present_and_matching_terrain(make_state):
    """Build: "We can only build on terrain that has been Explored & has 1 of our workers
    present" and "only a building from the MATCHING building group"."""
    s = make_state()
    p = _at_site(s)
    p.res, p.pt = [5, 5, 5], 5
    only(s, ("build", 0))
    opts = s.legal_actions()
    assert ("b", "small_farm", SITE) in opts
    assert not any(a[0] == "b" and a[1] == "small_mine" for a in opts)
    p.workers[0] = p.entrance
    assert s.legal_actions() == [("none",)]


def test_build_lays_the_building_face_down_and_flips_it_next_turn(make_state):
    """Start of Your Turn 3: "Turn over & activate all newly built buildings ... gain the
    reputation shown on the building"; 1 Money per building, finished or not (step 1)."""
    s = make_state()
    p = _at_site(s)
    p.res, p.pt = [2, 1, 1], 0
    only(s, ("build", 0))
    s.apply(("b", "small_farm", SITE))
    assert s.bld[SITE] == "small_farm" and not s.done[SITE] and p.res == [0, 0, 0]
    rep = p.rep
    money = p.res[0]
    from engine.games.underhaven.turn import _t_turn
    n_buildings = sum(1 for o in s.owner if o == 0)
    _t_turn(s, ("turn", 0))
    assert s.done[SITE] and p.rep == rep + 2
    die = s.die_face()
    assert p.res[0] == money + n_buildings + die.money


def test_hire_from_another_player_costs_three_money_to_the_owner(make_state):
    """Hire from others: "pay 3 Money to the corporation that has the required specialist";
    the yellow player (Deltas) has its own Engineer."""
    s = make_state()                       # seat 0 deltas (yellow), seat 1 threecees (red)
    p, q = _at_site(s), s.players[1]
    p.res, p.pt = [5, 5, 5], 2
    q.res = [0, 0, 0]
    only(s, ("build", 0))
    s.apply(("b", "large_farm", SITE))     # needs red & yellow
    frame = s.stack[-1]
    assert frame[0] == "spec" and frame[4][0] == "red"
    assert ("src", "hire", 1) in s.legal_actions()
    s.apply(("src", "hire", 1))
    assert q.res[0] == 3 and q.spec_home == 1 and q.hired_out == 1 and p.hired == [1]
    # yellow: the player's own Engineer (or a professional of its own type)
    assert ("src", "own", -1) in s.legal_actions() and ("src", "pro", -1) in s.legal_actions()
    s.apply(("src", "own", -1))
    assert s.bld[SITE] == "large_farm"
    # Returned at the start of the hirer's next turn.
    from engine.games.underhaven.turn import _t_turn
    _t_turn(s, ("turn", 0))
    assert q.spec_home == 2 and q.hired_out == 0 and p.hired == []


def test_at_most_two_of_a_players_specialists_hired_at_a_time(make_state):
    """"There needs to be a vacant space for your cube marker ... (Max 2 can be hired)\""""
    s = make_state(n=3)
    p, q = _at_site(s), s.players[1]
    q.hired_out = 2
    p.res, p.pt = [5, 5, 5], 3
    only(s, ("build", 0))
    s.apply(("b", "large_farm", SITE))
    assert not any(a[1] == "hire" for a in s.legal_actions())


def test_super_specialist_price_follows_the_die(make_state):
    """Corp Super Specialists: "pay Money as there are dots (1-6) & lose half of the dots as
    reputation (1, 2 or 3). Example: ... 4 on the die would cost 4 Money & -2 reputation";
    returned at the hirer's next turn, the die moves up 1 dot.  A source is offered only
    while the build stays payable."""
    s = make_state()
    p = _at_site(s)
    s.super_die = [4, 4]
    p.res, p.pt = [5, 5, 5], 0              # 5 Money: the building alone costs 5
    only(s, ("build", 0))
    assert ("b", "large_farm", SITE) not in s.legal_actions()   # 3 (hire) + 5 > 5
    p.pt = 1                                # one token pays a Money payment of 6 or more
    s.apply(("b", "large_farm", SITE))
    opts = s.legal_actions()
    assert ("src", "super", 0) in opts and ("src", "hire", 1) in opts
    rep_before = p.rep
    s.apply(("src", "super", 0))
    assert p.rep == rep_before - 2
    s.apply(("src", "own", -1))
    assert p.pt == 0 and s.bld[SITE] == "large_farm"   # 4 + 5 Money paid by one token
    from engine.games.underhaven.turn import _t_turn
    _t_turn(s, ("turn", 0))
    assert s.super_die[0] == 5 and s.super_holder[0] == -1


def test_max_cost_for_hiring_super_specialists_ability(make_state):
    """Special ability: "you never pay more than 3 Money; if higher than 3 you only lose 1
    reputation".  Die at 6: 3 Money and -1 instead of 6 Money and -3."""
    s = make_state()
    p = _at_site(s)
    p.ability = "super_cap"
    s.super_die = [6, 6]
    q = s.players[1]
    q.spec_home = 0                         # no red to hire
    p.res, p.pt = [5, 5, 5], 1
    rep = p.rep
    only(s, ("build", 0))
    s.apply(("b", "large_farm", SITE))
    s.apply(("src", "super", 0))
    assert p.rep == rep - 1


def test_overbid_when_every_specialist_is_occupied(make_state):
    """OVERBID: "Pay any player that has the required players' specialist OR the Corp Super
    Specialist ONE Power Token ... Remove that specialist (or Super Specialist) from that
    meeting room & move him to your meeting room" when both supers and the players'
    specialists are occupied: here the rival holds both Supers."""
    s = make_state()
    p, q = _at_site(s), s.players[1]
    q.spec_home = 0
    s.super_holder = [1, 1]
    q.supers = [0, 1]
    p.res, p.pt = [5, 5, 5], 2
    only(s, ("build", 0))
    s.apply(("b", "large_farm", SITE))
    assert s.legal_actions() == [("src", "overbid_super", 0), ("src", "overbid_super", 1)]
    q_pt = q.pt
    s.apply(("src", "overbid_super", 1))
    assert q.pt == q_pt + 1
    assert s.super_holder == [1, 0] and q.supers == [0] and p.supers == [1]


def test_same_specialist_serves_every_build_of_the_turn(make_state):
    """"Can I use the same specialist multiple times during the same turn? Yes you can!\""""
    s = make_state()
    p = _at_site(s)
    p.turn_colours = {"red"}
    p.res, p.pt = [5, 5, 5], 1
    only(s, ("build", 0))
    s.apply(("b", "large_farm", SITE))
    assert s.stack[-1][4] == ("yellow",)


def test_illegal_build_leaves_the_state_untouched(make_state):
    s = make_state()
    _at_site(s)
    only(s, ("build", 0))
    before = (s.step, list(s.bld))
    with pytest.raises(IllegalAction):
        s.apply(("b", "small_mine", SITE))
    assert (s.step, list(s.bld)) == before


def test_consultant_flies_in_as_a_missing_worker(make_state):
    """Build: "Our Consultant can also substitute a worker ... fly with his Jet Pack anywhere
    to a building site without any movement cost"; Merchant Guild needs 2 workers."""
    s = make_state()
    p = _at_site(s, terrain="water")
    p.res, p.pt = [5, 5, 5], 2
    p.cons_free, p.pros_free = 0, 0
    only(s, ("build", 0))
    assert not any(a[0] == "b" and a[1] == "merchant_guild" for a in s.legal_actions())
    p.cons_free = 1
    s.apply(("b", "merchant_guild", SITE))
    s.apply(s.legal_actions()[0])
    assert s.bld[SITE] == "merchant_guild" and p.cons_free == 0
