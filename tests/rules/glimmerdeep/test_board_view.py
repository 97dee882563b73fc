"""`Game.board_view` for Glimmerdeep: what each player's map sheet holds at a state (the
Replay page draws it). Every player excavates and builds on a map sheet of their own
(rulebook "Components": "8 dry-erase double-sided map sheets"; "excavate ... on their map
sheet"), and a Trade Route outpost counts for a player once "a player has excavated an
uninterrupted path (...) from the starting settlement to a space adjacent to the building"."""

from __future__ import annotations

import random

from engine.games.glimmerdeep.board import bits
from engine.games.glimmerdeep.board import connected_outposts


def _by_seat(view):
    out = {}
    for cell, seat, label in view:
        assert (cell, seat) not in out, "a cell is listed once per sheet"
        out[(cell, seat)] = label
    return out


def test_after_setup_each_sheet_holds_its_settlement(game, make_state):
    s = make_state(n=3, map="trade_routes")
    board = s.static.board
    view = _by_seat(game.board_view(s))
    for seat in range(3):
        mine = {c: lab for (c, st), lab in view.items() if st == seat}
        assert mine == {c: "settlement" for c in bits(board.settlement)}
    # nobody reached an outpost yet: every outpost is on the board, neutral
    assert {c for (c, st) in view if st is None} == set(board.outposts) and board.outposts
    assert all(lab == "outpost" for (c, st), lab in view.items() if st is None)


def test_a_seeded_game_matches_the_sheets_it_holds(game, make_state):
    s = make_state(n=4, map="trade_routes", seed=11)
    rng = random.Random(11)
    board = s.static.board
    cells = {c.cell for c in game.map_cells(s.rules) if c.map == s.map_id}
    for n_steps in range(400):
        if s.is_over():
            break
        s.apply(rng.choice(s.legal_actions()))
        if n_steps % 40:
            continue
        view = _by_seat(game.board_view(s))
        assert {c for c, _ in view} <= cells
        reached = 0
        for p in s.players:
            mine = {c: lab for (c, st), lab in view.items() if st == p.seat}
            built = {c: kind for kind, _card, fp in p.buildings for c in bits(fp)}
            conn = connected_outposts(board, p.exc)
            reached |= conn
            outposts = {c for j, c in enumerate(board.outposts) if conn >> j & 1}
            assert set(mine) == set(bits(p.exc)) | set(built) | outposts
            for c, lab in mine.items():
                want = ("outpost" if c in outposts else built.get(c) or
                        ("settlement" if board.settlement >> c & 1 else "excavated"))
                assert lab == want, (c, lab, want)
        neutral = {c for (c, st) in view if st is None}
        assert neutral == {c for j, c in enumerate(board.outposts) if not reached >> j & 1}
    assert any(p.buildings for p in s.players)   # the game got far enough to build


def test_a_reached_outpost_is_on_the_sheet_of_the_seat_that_reached_it(game, make_state):
    s = make_state(n=2, map="trade_routes")
    board = s.static.board
    p = s.players[0]
    p.exc = board.full & ~board.blocked        # seat 0 excavated everything it can
    view = _by_seat(game.board_view(s))
    for c in board.outposts:
        assert view[(c, 0)] == "outpost" and (c, 1) not in view and (c, None) not in view
