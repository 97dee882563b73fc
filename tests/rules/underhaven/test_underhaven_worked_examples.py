"""The rulebook's worked examples, each played as one sequence of decisions through the game's
own API (`state.apply`; the agenda runs the turn's tasks): the Round Activation Example and the
Building Example that ends it (RB:820-895, one turn of a yellow player), and the End Game
Scoring example (RB:816-818) taken to the end of a game.  The position each starts from is
set on the state (the printed figures are not in the text); every step after it is a decision.
"""

import pytest

from engine.games.underhaven import scoring

from uh_helpers import example_91_board, explore, put

EXAMPLE_TILE = ("water", "greenery", "residential", "mine")   # "a mix of four terrain types"


def _example_table(game, make_state, workers: int):
    """A 3-player game at the start of the Deltas' (yellow) turn in round 1, their entrance on
    the west side of their starting octagon `o`, the starting farm on its N space (2 moves
    from the entrance), the octagon to the right face down (the tile with the text's four
    terrains), three workers at the entrance, 4 Food, 2 Material, 3 power tokens, a
    consultant in the meeting room, and the example card (deltas_1, free move) in hand."""
    rules = game.load_rules(sets=[f"buildings.irrigation_system.workers={workers}"]).model
    for order in (("deltas", "threecees", "tectonics"), ("threecees", "deltas", "tectonics"),
                  ("threecees", "tectonics", "deltas")):
        s = make_state(n=3, factions=order, rules_=rules)
        seat = order.index("deltas")
        p = s.players[seat]
        geo = s.st.geo
        col, line, edge = geo.entrances[p.entrance - geo.entrance_base]
        o = line * s.st.board.columns + col
        if edge == "W" and col + 1 < s.st.board.columns and not s.explored[o + 1] \
                and s.tile[o + 1] >= 0:
            break
    else:
        pytest.fail("no 3-player setup puts the Deltas on a west entrance")
    for sp in range(4 * o, 4 * o + 4):          # the printed start building: on N, a farm
        if s.owner[sp] == seat:
            s.bld[sp], s.owner[sp] = None, -1
    explore(s, o, ("greenery", "tech", "water", "residential"))
    put(s, 4 * o, "start_farm", seat)
    s.tile[o + 1] = next(i for i, t in enumerate(s.st.tiles) if tuple(t.spaces) == EXAMPLE_TILE)
    p.workers = [p.entrance] * 3                # "Our 3 workers are waiting outside"
    p.hand = ["deltas_1"] + [c for c in p.hand if c != "deltas_1"]
    p.res, p.pt, p.tg, p.morale = [3, 4, 2], 3, 0, 0
    p.consultants, p.cons_free = 1, 1
    s.first_seat = seat
    s.die_cycle, s.die_idx = (0, 0, 0, 0), 0    # the turn die on its Money face
    # the turn's agenda: card, orders, postponed orders, support, clean-up; then the next
    # turn's start (income, take back, turn over) and its card choice
    s.stack = [("card", seat)]
    s.agenda = [("card", seat), ("turn", seat), ("end_turn", seat), ("late_support", seat),
                ("postponed", seat), ("orders", seat)]
    return s, seat, o


@pytest.mark.parametrize("workers", [1, 2])
def test_round_activation_and_building_example_rb820_895(game, make_state, workers):
    """Round Activation Example (RB:820-873) and Building Example (RB:874-895), one turn:
    - the card with the free move; "1st movement, we move 1 worker 2 spaces on the starting
      building"; "additional 4 movement to the octagon where we stop!"; "We do not have any
      movement left"; the tile rotated (water under the explorer: "we can still use the
      meeple to build something on the water tile this turn!");
    - "let's choose the BUILD action. But we will carry that out last";
    - Harvest: "we were at 4, so we move up to 6 ... we gain 1 Power Token ... move our FOOD
      marker down to 0";
    - Trade: "it costs 1 BEAD to buy any TUNNEL tile ... take one 3-way TUNNEL tile", laid
      between the starting octagon and the new one (the figure's exact gap is not in the
      text; in the assumed geometry the explorer's space and the farm face one gap);
    - the postponed Build: IRRIGATION SYSTEM on the water, "We hire BOTH Supers ... -2
      reputation"; "2 Money for the Supers & then ... 4 Money ... 1 of our Power Tokens ...
      We don't move the top slider"; "another Power Token ... we gain 3 back"; "2 Material
      ... lower it 2 down"; "The cost to increase morale 1 step are any 2 resources ... lower
      the slider down by 2"; with the example's "It requires 2 workers" the Consultant flies
      in as the 2nd worker (`workers = 2`; the table's 1 worker is the default reading);
    - the next turn: "we will gain 1 Money (income) & 4 (completion bonus)" (the Irrigation
      System's +4 Food with a farm) and "The die will be changed to 2 dots upon return"."""
    s, seat, o = _example_table(game, make_state, workers)
    p = s.players[seat]
    W, N, E = 4 * o + 3, 4 * o, 4 * o + 1
    right_w = 4 * (o + 1) + 3

    s.apply(("card", "deltas_1"))
    assert ("support",) in s.legal_actions()
    s.apply(("support",))                        # the free move, before the orders
    assert p.mv_left == 6
    s.apply(("step", 0, W))                      # worker 0: 2 moves onto the starting farm
    s.apply(("step", 0, N))
    s.apply(("step", 1, W))                      # worker 1: 4 moves into the octagon to the right
    s.apply(("step", 1, N))                      # (workers on one space are one choice: the
    s.apply(("step", 0, E))                      #  lower index walks on, the other stays)
    assert p.workers.count(N) == 1 and p.workers.count(E) == 1
    s.apply(("explore", p.workers.index(E), right_w))
    assert p.mv_left == 0                        # "We do not have any movement left"
    assert ("rot", 3) in s.legal_actions()
    s.apply(("rot", 3))                          # water under the explorer
    assert s.terr[right_w] == "water" and s.explored[o + 1]
    assert s.legal_actions() == [("end",)]       # "we stop (even if we have more movement)"
    s.apply(("end",))

    s.apply(("postpone", 0, 1))                  # row 1: Build, carried out last
    s.apply(("order", 1, 0))                     # row 2: Harvest
    s.apply(("group", N))                        # the starting farm: 2 Food
    assert (p.res[1], p.pt) == (0, 4)            # Food 4 + 2 = 6 -> a bead, Food 0

    s.apply(("order", 2, 0))                     # row 3: Trade
    s.apply(("space", "tile"))
    assert p.pt == 3                             # "it costs 1 BEAD to buy any TUNNEL tile"
    lays = [a for a in s.legal_actions() if a[0] == "tile" and a[1] == "three_way"]
    assert lays
    s.apply(next(a for a in lays if _joins(s, a, N, right_w)))
    assert s.connected(N, right_w)
    p = s.players[seat]                          # (a lookahead copy shared the record)
    s.apply(("done",))

    assert s.stack[-1] == ("build", seat)        # the postponed Build, at the turn's end
    assert ("b", "irrigation_system", right_w) in s.legal_actions()
    rep = p.rep
    s.apply(("b", "irrigation_system", right_w))
    for colour in ("red", "blue"):               # "We hire BOTH Supers from the Corp Board"
        assert s.stack[-1][0] == "spec" and s.stack[-1][4][0] == colour
        supers = [a for a in s.legal_actions() if a[1] == "super"]
        assert supers
        s.apply(supers[0])
    assert p.rep == rep - 2                      # "Uff, -2 reputation"
    assert s.stack[-1] == ("morale", seat, 1)    # "our morale is too low"
    assert (p.res, p.pt) == ([3, 3, 0], 1)       # Money slider kept, 3 Food back, Material 0
    assert p.cons_free == (0 if workers == 2 else 1)   # the Consultant as the 2nd worker
    assert s.bld[right_w] == "irrigation_system" and not s.done[right_w]
    assert sorted(s.super_holder) == [seat, seat]
    rep = p.rep
    s.apply(("pay", "food", "food"))             # "lower the slider down by 2": Food 3 -> 1
    assert p.morale == 1

    # That was the turn's last decision: clean-up, then the next turn starts (the agenda):
    # the die's 2 Money and 1 Money per building (the farm and the Irrigation System):
    # 3 + 2 + 2 = 7 -> a power token and 1; take back (the Supers' dice up to 2); the
    # Irrigation System turned over: its 3 reputation and "4 (completion bonus)" Food.
    assert s.stack[-1] == ("card", seat)
    assert s.done[right_w] and s.super_die == [2, 2] and s.super_holder == [-1, -1]
    assert p.rep == rep + s.st.b["irrigation_system"].rep
    assert (p.res, p.pt) == ([1, 1 + 4, 0], 1 + 1)


def _joins(s, action, a: int, b: int) -> bool:
    """Whether laying tile `action` connects spaces `a` and `b`."""
    nxt = s.clone(log=False)
    nxt.apply(action)
    return nxt.connected(a, b)


def test_scoring_example_91_played_to_the_end_rb816_818(game, rules, make_state):
    """End Game Scoring example (RB:816-818): "23 + 8 + 12 + 39 + 8 + 1 = 91 reputation",
    on the board of `test_underhaven_scoring.py`, reached by playing the last decision of
    the last round: the turn ends, the round ends on the last space of the turn die, and the
    game's own final scoring gives 91."""
    s, p = example_91_board(game, rules, make_state)
    p.hand, p.discard, p.slot = [], [], None
    s.score(p, "buildings", 23 - p.rep)         # "Atli has gained 23 reputation"
    s.die_left = 0                              # the turn die at the end of its track
    p.pros_free = 0                             # nothing left to trade: one decision, `none`
    s.stack = [("trade", 0, 1)]
    s.agenda = [("round_end",), ("end_turn", 0)]
    assert s.legal_actions() == [("none",)]
    s.apply(("none",))
    assert s.is_over()
    res = s.result()[0]
    b = res.breakdown
    assert (b["end_specialists"], b["end_majorities"], b["end_clusters"], b["end_singles"],
            b["end_resources"]) == (8, 12, 39, 8, 1)
    assert res.score == 91 == sum(b.values())
    assert scoring.end_breakdown(s, 0)["end_clusters"] == 39
