"""Specialists & Building: Hire & Use Specialists, A Few Things About Specialists, the
Luxury Villa and the University.  Audit items D2, D3, D4, D5, D8, D11, D18, N6."""

from engine.games.underhaven.turn import _t_turn

from uh_helpers import explore, only, put

OCT = 2
SITE = 4 * OCT


def _site(s, terrain, seat=0):
    explore(s, OCT, (terrain, "mine", "water", "greenery"))
    p = s.players[seat]
    p.workers[0] = SITE
    return p


def _complete(s):
    """Take the first source at every specialist decision of the pending build."""
    while s.stack and s.stack[-1][0] == "spec":
        s.apply(s.legal_actions()[0])


def test_no_specialist_is_granted_for_free(make_state):
    """D2. Every needed specialist is sourced ("If you do not have an engineer, 1 needs to be
    hired either from the yellow player or from the Corp board"): one free Super serves one
    skill only.  Yellow player, Plasma Processor (yellow + blue), Super 0 held by the blue
    player, Super 1 free: the Super may not be spent on yellow, where the own Engineer does."""
    s = make_state(n=4)
    p = _site(s, "magma")
    p.ability = "build_rep"
    s.super_holder, s.super_die = [3, -1], [1, 1]
    s.players[3].supers = [0]
    s.players[3].spec_home = 0
    p.res, p.pt, p.morale = [5, 0, 1], 2, 0
    only(s, ("build", 0))
    assert ("b", "plasma_processor", SITE) in s.legal_actions()
    s.apply(("b", "plasma_processor", SITE))
    yellow = s.legal_actions()
    assert ("src", "super", 1) not in yellow and ("src", "own", -1) in yellow
    s.apply(("src", "own", -1))
    assert s.legal_actions() == [("src", "super", 1)]      # blue: the only source
    s.apply(("src", "super", 1))
    assert s.bld[SITE] == "plasma_processor" and p.supers == [1]
    assert "skip_specialist" not in p.used


def test_a_build_needing_an_unobtainable_specialist_is_not_offered(make_state):
    """D2. No source for blue (the blue player's specialists and both Supers busy, no
    overbid possible without a power token): the Plasma Processor is not offered at all."""
    s = make_state(n=4)
    p = _site(s, "magma")
    s.super_holder = [1, 1]
    s.players[1].supers = [0, 1]
    s.players[3].spec_home = 0
    p.res, p.pt, p.morale = [5, 5, 5], 0, 2
    only(s, ("build", 0))
    assert not any(a[0] == "b" and a[1] == "plasma_processor" for a in s.legal_actions())


def test_each_super_specialist_at_its_own_price(make_state):
    """D3. "Place a cube in your colour beside the Super ... pay Money as there are dots":
    with dice 3 and 1 both Supers are offered; the cheaper one costs 1 Money and 1 reputation."""
    s = make_state()
    p = _site(s, "greenery")
    s.super_die = [3, 1]
    s.players[1].spec_home = 0               # no red to hire
    p.res, p.pt = [5, 5, 5], 1
    only(s, ("build", 0))
    s.apply(("b", "large_farm", SITE))       # red & yellow
    opts = s.legal_actions()
    assert ("src", "super", 0) in opts and ("src", "super", 1) in opts
    rep = p.rep
    s.apply(("src", "super", 1))
    assert p.rep == rep - 1 and s.super_holder == [-1, 0]


def test_a_held_super_covers_any_specialist_of_a_later_build(make_state):
    """D4. "Same goes for the Super Specialist. If you had both of them & two build actions,
    they would substitute for any needed specialist for a build during the SAME turn": a
    Super hired for red in the first build serves blue in the second one."""
    s = make_state(n=4)
    explore(s, OCT, ("greenery", "water", "mine", "tech"))
    p = s.players[0]
    p.workers[:2] = [SITE, SITE + 1]
    s.players[1].spec_home = 0               # no red, no blue to hire
    s.players[3].spec_home = 0
    p.res, p.pt = [5, 5, 5], 4
    only(s, ("build", 0))
    s.apply(("b", "large_farm", SITE))       # red (Super 0) & yellow (own)
    s.apply(("src", "super", 0))
    s.apply(("src", "own", -1))
    only(s, ("build", 0))
    s.apply(("b", "irrigation_system", SITE + 1))   # red & blue
    first = s.legal_actions()
    assert ("src", "held", 0) in first
    s.apply(("src", "held", 0))              # the held Super is red here ...
    assert ("src", "held", 0) not in s.legal_actions()   # ... and not blue as well
    assert ("src", "super", 1) in s.legal_actions()


def test_skip_ability_serves_one_build_per_turn(make_state):
    """D5. "You can build 1 building each turn without 1 needed specialist": after skipping
    red once, a second building needing red this turn must source it."""
    s = make_state()
    explore(s, OCT, ("greenery", "water", "mine", "tech"))
    p = s.players[0]
    p.ability = "skip_specialist"
    p.workers[:2] = [SITE, SITE + 1]
    p.res, p.pt = [5, 5, 5], 4
    only(s, ("build", 0))
    s.apply(("b", "large_farm", SITE))
    s.apply(("src", "skip", -1))             # red skipped
    _complete(s)
    assert "red" not in p.turn_colours
    only(s, ("build", 0))
    s.apply(("b", "irrigation_system", SITE + 1))
    assert s.stack[-1][0] == "spec" and s.stack[-1][4] == ("red", "blue")
    assert not any(a[1] == "skip" for a in s.legal_actions())


def _villa_built(s, university: bool):
    explore(s, OCT, ("residential", "tech", "water", "greenery"))
    p = s.players[0]
    put(s, SITE, "luxury_villa", 0, done=False)
    p.unfinished = [SITE]
    if university:
        put(s, SITE + 1, "university", 0)
        p.university = True
    s.stack, s.agenda = [], []
    _t_turn(s, ("turn", 0))
    return p


def test_luxury_villa_specialist_needs_a_university(make_state):
    """D8. "When a player builds the University building, they unlock the ability to gain
    permanent Specialists"; "University, unlocks the gain new Specialist ability"; the Villa
    upgrade "(Requires University)"."""
    s = make_state()
    _villa_built(s, university=False)
    assert not any(f[0] == "gain_spec" for f in s.stack)
    s2 = make_state()
    _villa_built(s2, university=True)
    assert any(f[0] == "gain_spec" for f in s2.stack)


def test_overbid_pays_the_holder_and_moves_the_specialist(make_state):
    """D11. "OVERBID: Pay any player that has the required players' specialist ... ONE Power
    Token ... Remove that specialist ... & move him to your meeting room. As with other
    Specialists (other than yours), they will return to their original location at the start
    of your next turn": the red specialists are hired by seat 2, both Supers busy."""
    s = make_state(n=3)                       # deltas (yellow), threecees (red), tectonics
    p, red, hirer = _site(s, "greenery"), s.players[1], s.players[2]
    red.spec_home, red.hired_out = 1, 2
    hirer.hired = [1, 1]
    s.super_holder = [2, 2]
    hirer.supers = [0, 1]
    p.res, p.pt = [5, 5, 5], 2
    only(s, ("build", 0))
    s.apply(("b", "large_farm", SITE))
    opts = s.legal_actions()
    assert ("src", "overbid", 2) in opts and ("src", "overbid", 1) not in opts
    pt = hirer.pt
    s.apply(("src", "overbid", 2))
    assert hirer.pt == pt + 1 and hirer.hired == [1] and p.hired == [1]
    _complete(s)
    _t_turn(s, ("turn", 0))                   # returned at my next turn to its owner
    assert red.spec_home == 2 and red.hired_out == 1


def test_permanent_specialist_taken_from_the_starting_supply(make_state):
    """D18. "Those Specialists are taken from the player's starting supply. In theory, if all
    players took 1 of your Specialists, you would end up with only 1": red can be taken while
    every red specialist is away (hired out); the one taken does not come back."""
    s = make_state(n=3)
    p, red = s.players[0], s.players[1]
    red.spec_home, red.hired_out = 0, 2
    s.players[2].hired = [1, 1]
    s.stack = [("gain_spec", 0, 1)]
    assert ("spec", "red") in s.legal_actions()
    s.apply(("spec", "red"))
    assert p.perm == ["red"] and red.spec_total == 2
    s.stack, s.agenda = [], []
    _t_turn(s, ("turn", 2))                   # the hirer returns both: only one comes home
    assert red.spec_home == 1 and red.hired_out == 0


def test_use_a_players_specialist_for_free(game, make_state):
    """N6. Icon Key: "Use a Player's Specialist for free": the card's support makes one hire
    of a rival's specialist this turn cost no Money (the owner gets none)."""
    s = make_state()
    card = next(c for c in s.rules.market_cards if c.support.kind == "free_specialist")
    p = _site(s, "greenery")
    q = s.players[1]
    p.hand.append(card.id)
    only(s, ("card", 0))
    s.apply(("card", card.id))
    assert p.free_hires == 1 and not p.support_pending
    p.res, p.pt = [5, 5, 5], 0                # 5 Money: the Large Farm alone
    q.res = [0, 0, 0]
    only(s, ("build", 0))
    s.apply(("b", "large_farm", SITE))
    s.apply(("src", "hire", 1))
    s.apply(("src", "own", -1))
    assert s.bld[SITE] == "large_farm" and q.res[0] == 0 and p.free_hires == 0
