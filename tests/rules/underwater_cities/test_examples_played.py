"""The rulebook's worked examples that the re-audit found tested only from a built position
or by calling an engine function directly (re-audit section 6): each is played here as a
sequence of decisions through `state.apply` from a set-up position.  The board pictures
(the pieces already built) stay set-up positions; every turn, slot, build, round end,
Production and final scoring happens through the real API.  RB:n = line n of
shared/rulebooks/underwater_cities.txt.  Seats 0-3 hold the boards embassy, reef, trench
and vent (conftest)."""

from test_production import _example_board
from test_scoring import _example as _final_example
from uwc_helpers import building, city, claim, hand, res, site, tunnel


def _play(s, seat, cid, slot):
    """`seat` to move at its card decision: play `cid` from its hand on `slot` (an action:
    ("slot", id), ("clone", id) or ("always",))."""
    assert s.to_move() == seat
    while s.stack[-1][0] == "discard":               # down to the hand limit: keep `cid`
        s.apply(next(a for a in s.legal_actions() if a[1] != cid))
    s.apply(("play", cid))
    s.apply(slot)


def _always(s):
    """The seat to move plays its first card on the always-available slot (2 cards, 2
    credits: no decision)."""
    seat = s.to_move()
    while s.stack[-1][0] == "discard":
        s.apply(s.legal_actions()[0])
    _play(s, seat, s.legal_actions()[0][1], ("always",))
    assert s.to_move() != seat or s.stack[-1][0] in ("card", "discard")


def _log_mark(s):
    return len(s.log.s_points)


def _points_since(s, mark, seat):
    out = {}
    for st, c, pts in zip(s.log.s_seat[mark:], s.log.s_category[mark:],
                          s.log.s_points[mark:]):
        if st == seat:
            out[c] = out.get(c, 0) + pts
    return out


def _to_round(s, rnd):
    """Every seat plays the always-available slot until round `rnd` starts."""
    while s.round < rnd:
        _always(s)
    assert s.phase == "actions" and s.stack[-1][0] in ("card", "discard")


def _play_round_out(s, seat):
    """Play the always-available slot to the end of the round; return `seat`'s resources
    and the score-log mark just before the round's last decision (the one that ends the
    round: Production, the end of the era or final scoring follow it)."""
    rnd = s.round
    while True:
        before, mark = list(s.players[seat].res), _log_mark(s)
        _always(s)
        if s.round != rnd or s.is_over():
            return before, mark


def test_rb280_step_by_step_the_first_tunnel_opens_a_site_for_the_second(make_state):
    """RB:278-280 "You build your tunnels, buildings, and cities one-at-a-time. For example,
    if you choose this action slot, you first build one tunnel on a legal tunnel site and
    this could open up one or more new legal sites for the second tunnel."  Seat 0 plays a
    yellow card on the red "build 2 tunnels" slot: t7 (c9-c10) is not a legal site until
    t8 (c10-c11, at the starting city) is built; then it is, and it is built."""
    s = make_state(n=3)
    p = s.players[0]
    hand(s, 0, ["e1_supply_drop"])
    res(s, 0, credits=2, steelplast=2)
    _play(s, 0, "e1_supply_drop", ("slot", "r_tunnels"))     # a mismatch: no card effect
    first = {a[2] for a in s.legal_actions() if a[0] == "build"}
    assert site(s, "t8") in first and site(s, "t7") not in first
    s.apply(("build", "tunnel", site(s, "t8")))
    second = {a[2] for a in s.legal_actions() if a[0] == "build"}
    assert site(s, "t7") in second
    s.apply(("build", "tunnel", site(s, "t7")))
    assert p.tun == 1 << site(s, "t8") | 1 << site(s, "t7")
    assert s.to_move() == 1


def test_rb305_a_city_built_with_biomatter(make_state):
    """RB:305 "A nonsymbiotic city normally costs 2 steelplast, 1 kelp, and 1 credit. But you
    could build it with 1 steelplast, 2 biomatter, and 1 credit."  Seat 0, with exactly
    that, plays a yellow card on the red "city and building" slot and builds the city."""
    s = make_state(n=3)
    p = s.players[0]
    hand(s, 0, ["e1_supply_drop"])
    res(s, 0, credits=1, steelplast=1, biomatter=2)
    _play(s, 0, "e1_supply_drop", ("slot", "r_city_building"))
    assert s.legal_actions() == [("part", 0), ("part", 1)]
    s.apply(("part", 0))                             # the city first
    cities = [a for a in s.legal_actions() if a[0] == "build"]
    assert ("build", "white_city", site(s, "c10")) in cities
    s.apply(("build", "white_city", site(s, "c10")))
    assert p.cmask >> site(s, "c10") & 1
    assert p.res == [0, 0, 0, 0, 0]                  # 1 steelplast, 2 biomatter, 1 credit
    assert s.to_move() == 1                          # nothing left for the building


def test_rb343_advancing_two_from_space_two(make_state):
    """RB:341-343 "If you advance when you are already on space 1, put your marker atop any
    others on space 1 and score 1 point for each space you were supposed to advance.
    Example: Orange takes an action allowing her to advance 2 spaces. She moves ahead only 1
    space ... she scores 2 points: 1 for moving onto that space and 1 for 'advancing' off
    the track. Her marker is placed atop any other markers that are already on space 1."
    Orange is seat 1, on space 2; seat 0 is already on space 1.  Orange takes the green
    "advance 2" slot; at the round's end she plays first, ahead of seat 0."""
    s = make_state(n=4)
    orange = s.players[1]
    for q, fed in zip(s.players, (4, 3, 0, 0)):      # space 1, space 2, below, below
        q.fed = fed
    _always(s)                                       # seat 0
    hand(s, 1, ["e1_kelp_harvest"])                  # red: a mismatch on a green slot
    before, mark = orange.points, _log_mark(s)
    _play(s, 1, "e1_kelp_harvest", ("slot", "g_federation"))
    assert orange.fed == 4                           # one space, to space 1
    assert orange.points - before == 2
    assert _points_since(s, mark, 1) == {"federation": 2}
    _play_round_out(s, 0)
    assert s.round == 2 and s.order == [1, 0, 2, 3]  # atop seat 0 on space 1


def test_rb453_end_of_round_order(make_state):
    """RB:449-453 "Reorder the play-order markers according to the order of the markers on
    the Federation track ... If markers are in a stack, each marker is ahead of any markers
    below it. Among markers below space A, relative play order does not change ...
    Example: It is the end of round 2. Black and Blue did not advance on the Federation
    track, so they will go last in round 3. Their relative order does not change, so Black
    will play ahead of Blue. On space 2, the tiebreaker is the order of the stack. Because
    Orange is on top, Orange will go first."  Round 1 is played (everyone on the
    always-available slot); round 2's order is seats 3, 2, 1, 0: Black = 3, Green = 2,
    Blue = 1, Orange = 0.  Green and Orange each advance 3 spaces (to space 2), Orange
    after Green; Black and Blue do not advance."""
    s = make_state(n=4)
    _to_round(s, 2)
    black, green, blue, orange = 3, 2, 1, 0
    assert s.order == [black, green, blue, orange]
    assert all(q.fed == 0 for q in s.players)        # below the track (RB:451)
    hand(s, green, ["e1_kelp_harvest", "e1_lobbyist", "e1_supply_drop"])
    hand(s, orange, ["e1_supply_drop", "e1_delegation", "e1_kelp_harvest"])
    res(s, orange, credits=1)                        # the cloning tile's credit
    # Turn 1: Green on the green "advance 2" slot, Orange shares it with the cloning tile.
    _always(s)                                       # Black
    _play(s, green, "e1_kelp_harvest", ("slot", "g_federation"))
    _always(s)                                       # Blue
    _play(s, orange, "e1_supply_drop", ("clone", "g_federation"))
    assert s.players[green].fed == s.players[orange].fed == 2
    # Turn 2: each plays a card that advances 1 on a slot of its colour.
    _always(s)
    _play(s, green, "e1_lobbyist", ("slot", "y_steel"))          # yellow on yellow
    s.apply(("card_first",))
    _always(s)
    _play(s, orange, "e1_delegation", ("slot", "r_science"))     # red on red
    s.apply(("card_first",))                 # no building to upgrade: the 2 science
    assert s.players[orange].res[3] == 2 and s.to_move() != orange
    assert s.players[green].fed == s.players[orange].fed == 3    # space 2
    assert s.players[black].fed == s.players[blue].fed == 0
    _play_round_out(s, black)                                    # turn 3: no advance
    assert s.round == 3
    assert s.order == [orange, green, black, blue]
    assert all(q.fed == 0 for q in s.players)


def test_rb423_425_metropolises_by_one_or_both_tunnels(make_state):
    """RB:421-425 "To connect this metropolis, you need to build a tunnel on the adjacent
    tunnel site.  To connect this metropolis, you need to build tunnels on both adjacent
    tunnel sites.  The metropolis tiles offer various benefits that apply only if the
    metropolis is connected ... The blue ones either have an instant effect or ...".
    Seat 0's board: blue_east (Kelp Market, +2 kelp) needs t18 only; blue_south (Foundry,
    +3 steelplast) needs t19 and t20.  Already built: t15, t11 (to c3) and t8, t7 (to
    c9).  Seat 0 plays the "build 2 tunnels" slot (t18, t20), then on its next turn the
    yellow "tunnel or Federation" slot (t19)."""
    s = make_state(n=3)
    p = s.players[0]
    g = s.geo
    east, south = g.hex_ids.index("blue_east"), g.hex_ids.index("blue_south")
    tiles = list(p.metros)
    tiles[east] = next(i for i, m in enumerate(s.st.metros) if m.id == "mu_kelp_market")
    tiles[south] = next(i for i, m in enumerate(s.st.metros) if m.id == "mu_foundry")
    p.metros = tuple(tiles)
    for t in ("t15", "t11", "t8", "t7"):
        tunnel(s, 0, t)
    hand(s, 0, ["e1_supply_drop"])
    res(s, 0, credits=3, steelplast=2)
    _play(s, 0, "e1_supply_drop", ("slot", "r_tunnels"))
    s.apply(("build", "tunnel", site(s, "t18")))
    assert p.metro_on >> east & 1 and p.res[1] == 2              # one tunnel: connected
    s.apply(("build", "tunnel", site(s, "t20")))
    assert not p.metro_on >> south & 1 and p.res[2] == 0         # one of two: not yet
    _always(s)
    _always(s)
    hand(s, 0, ["e1_kelp_harvest"])
    res(s, 0, credits=1, steelplast=1)
    _play(s, 0, "e1_kelp_harvest", ("slot", "y_tunnel_or_federation"))
    s.apply(("option", 0))                                       # the tunnel
    s.apply(("build", "tunnel", site(s, "t19")))
    assert p.metro_on >> south & 1 and p.res[2] == 3             # both: the Foundry's 3
    assert s.to_move() == 1


def test_rb497_513_production_example(make_state):
    """RB:497-513 the Production example: "1 The two farms produce 2 kelp. The upgraded
    farm also produces 1 point. 2 The two desalination plants produce 2 credits ... 3 Two
    upgraded laboratories at the same city produce 3 steelplast and 2 science.  Three
    tunnels are adjacent to cities, so they produce 3 credits. One is upgraded, so it also
    produces 1 point. 4 The fourth tunnel ... produces nothing ... 5 The symbiotic city ...
    produces 2 points. 6 The production card produces 1 credit. 7 One metropolis ...
    produces 2 points. 8 ... Only two are connected, so the player pays 2 kelp. 9 The
    unconnected city is ignored."  Rounds 1-3 are played; the example board is set up on
    the board of round 4's first player; round 4, the last of Era I, is played out, and
    the decision that ends it brings Production."""
    s = make_state(n=4)
    _to_round(s, 4)
    seat = s.order[0]                                # not the last to move in round 4
    _example_board(s, seat)
    p = s.players[seat]
    res(s, seat, kelp=2)
    before, mark = _play_round_out(s, seat)
    assert s.round == 5                                          # Era II
    gained = [a - b for a, b in zip(p.res, before)]
    assert gained == [2 + 3 + 1, 2 - 2, 3, 2, 0]
    assert _points_since(s, mark, seat) == {"production": 1 + 1 + 2 + 2}


def test_rb586_594_final_scoring_example(make_state):
    """RB:586-594 the Final Scoring example: "1. ... 2 full sets of qualifying upgraded
    structures, so the metropolis gives 8 points.  2. ... She spends 6 science to buy 9
    points. She spends two pairs of kelp and steelplast to buy 2 points. This is 11 total
    points from end-scoring cards.  3. ... In total, her cities give her 21 points.  4. ...
    Total credits is 25, which converts to 6 points. 1 credit is left over".  Rounds 1-9
    are played; the example board is set up on the board of round 10's first player;
    round 10, the last, is played out: Production, then the game's final scoring.  That
    seat starts round 10 with resources that its three turns on the always-available slot
    (+6 credits) and Production turn into the example's 16 credits, 2 kelp, 4 steelplast,
    7 science and 3 biomatter.  Production (game.toml [production]): 6 tunnels next to
    cities (+6 credits, 3 of them upgraded +3 points), upgraded farms at c11 and c7 (+2
    kelp, +2 points), the farm at c2 (+1 kelp), upgraded desalination plants at c11, c7,
    c3 (+3 credits, +3 biomatter), upgraded laboratories at c11, c7, c3 (+3 science, +3
    steelplast); 5 connected cities eat 5 kelp."""
    s = make_state(n=4)
    _to_round(s, s.st.rounds)
    seat = s.order[0]                                # not the last to move in round 10
    _final_example(s, seat)
    p = s.players[seat]
    res(s, seat, credits=16 - 6 - 9, kelp=2 - 3 + 5, steelplast=4 - 3, science=7 - 3,
        biomatter=3 - 3)
    _before, mark = _play_round_out(s, seat)
    assert s.is_over()
    pts = _points_since(s, mark, seat)
    assert pts.pop("production") == 3 + 2
    assert pts == {"metropolis": 8, "cards": 11, "cities": 21, "resources": 6}
    assert p.res == [16, 0, 2, 1, 3]                 # what was left before selling: 25
