"""The Missions: placement layouts and the missions trade space.  Audit item N3 and the §4
reading of the missions space."""

from engine.games.underhaven import missions

from uh_helpers import explore, only, put

LAYOUT = "mis32"         # two residential buildings in one line, one or more octagons between


def _board(s):
    for o in range(len(s.tile)):
        if s.tile[o] >= 0:
            explore(s, o, ("residential", "water", "greenery", "mine"))
    for sp in range(len(s.bld)):
        s.bld[sp], s.owner[sp] = None, -1


def test_mission_layout_needs_an_octagon_between(make_state):
    """N3. "If there is a space between the layout it means another octagon must be between
    (1 or more)": neighbouring octagons do not fulfil it, one or two between do."""
    s = make_state()
    _board(s)
    m = s.st.missions[LAYOUT]
    assert m.pattern == (("residential", "gap", "residential"),)
    put(s, 0, "small_building", 0)          # octagon 0 (column 0)
    put(s, 4, "small_building", 0)          # octagon 1: neighbours
    assert not missions.mission_done(s, 0, m)
    put(s, 12, "small_building", 0)         # octagon 3: two octagons between 0 and 3
    assert missions.mission_done(s, 0, m)


def test_mission_layout_any_orientation_or_mirror(make_state):
    """N3. "The placement layout can be left, right, up, down or mirrored": a vertical line
    (octagons 1 and 11, one line between) fulfils the horizontal layout; the diagonal
    pattern (water, then tech down-right) is fulfilled by tech up-right of the water."""
    s = make_state(n=3)
    _board(s)
    cols = s.st.board.columns
    put(s, 4 * 1, "small_building", 0)
    put(s, 4 * (1 + 2 * cols), "small_building", 0)
    assert missions.mission_done(s, 0, s.st.missions[LAYOUT])
    diag = s.st.missions["mis36"]
    assert diag.pattern == (("water", "-"), ("-", "tech"))
    assert set(missions.orientations(diag.pattern)) == {
        (("water", "-"), ("-", "tech")), (("-", "water"), ("tech", "-")),
        (("tech", "-"), ("-", "water")), (("-", "tech"), ("water", "-"))}
    water, tech = 1 * cols + 1, 0 * cols + 2          # (line 1, col 1) and (line 0, col 2)
    explore(s, water, ("water",) * 4)
    explore(s, tech, ("tech",) * 4)
    put(s, 4 * water, "amusement_park", 0)
    assert not missions.mission_done(s, 0, diag)
    put(s, 4 * tech, "ai_centre", 0)
    assert missions.mission_done(s, 0, diag)


def test_missions_space_claim_reading(game, make_state):
    """§4. The missions space: "replenish Mission cards" (Trade, the default) or "Pay 1 bead
    to claim a Mission card" (Icon Key, `readings.missions_space = "claim"`): the claimed
    mission is the player's own to fulfil, its face-up space refilled at the clean-up."""
    s = make_state(rules_=game.load_rules(sets=["readings.missions_space=claim"]).model)
    p = s.players[0]
    p.pt = 2
    target = s.missions[1]
    only(s, ("trade", 0, 1))
    s.apply(("space", "missions"))
    assert s.stack[-1] == ("claim_mission", 0)
    s.apply(("claim", target))
    assert p.held == [target] and s.missions[1] is None and p.pt == 1
    s.refill()
    assert s.missions[1] is not None and target not in s.missions


def test_missions_are_claimed_as_soon_as_fulfilled_whatever_was_checked_before(make_state):
    """"The Missions": claimed as soon as fulfilled in one's turn.  The check remembers what it
    found unfulfilled on the seat's own board (`mission_memo`): a rival's building does not
    make it look again, the seat's own building does, and a clone that builds claims while
    the original, which shares the memo, does not."""
    s = make_state()
    _board(s)
    s.missions = [LAYOUT] + [None] * (len(s.missions) - 1)   # the only face-up mission
    p = s.players[0]
    p.held = []
    rep0, rep = p.rep, s.st.missions[LAYOUT].rep
    put(s, 0, "small_building", 0)                    # octagon 0
    missions.claim_missions(s, p)
    assert LAYOUT in s.missions and p.rep == rep0     # one building: not fulfilled
    put(s, 8, "small_building", 1)                    # a rival's building, octagon 2
    missions.claim_missions(s, p)
    assert LAYOUT in s.missions
    c = s.clone()
    put(c, 12, "small_building", 0)                   # octagon 3: two octagons between
    missions.claim_missions(c, c.writable_player(0))   # (a move makes its record its own)
    assert LAYOUT not in c.missions and c.players[0].rep == rep0 + rep and rep > 0
    missions.claim_missions(s, p)                     # the original: still one building
    assert LAYOUT in s.missions and p.rep == rep0
    put(s, 12, "small_building", 0)
    missions.claim_missions(s, p)
    assert LAYOUT not in s.missions and p.rep == rep0 + rep
