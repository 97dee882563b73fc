"""`Game.board_view` for Underhaven: what lies on the shared board at a state (the Replay page
draws it). Rulebook: each player lays a starting octagon and attaches their entrance
("PLACE YOUR ENTRANCE BESIDE THE OUTER EDGE OF THE PLACED TILE! CLAIM THE BUILDING, MARK IT
WITH YOUR CUBE TO INDICATE OWNERSHIP!"); workers start on the tunnel entrance ("Each player
takes 3 workers & places them on their Tunnel Entrance tile"); face-down octagons are turned
up when explored; tunnel and trapezoid tiles lie on the gaps."""

from __future__ import annotations

import random
from collections import Counter

from uh_helpers import explore, put


def test_after_setup_the_start_octagons_entrances_and_workers_are_on_the_board(game, make_state):
    s = make_state(n=2)
    view = {c: (seat, lab) for c, seat, lab in game.board_view(s)}
    assert len(view) == len(game.board_view(s))                   # one entry per cell
    geo = s.st.geo
    for p in s.players:
        n = len(p.workers)
        assert view[p.entrance] == (p.seat, f"entrance · {n} workers of seat {p.seat}")
        own = [c for c, (seat, lab) in view.items() if c < geo.n_space and seat == p.seat]
        assert len(own) == 1 and s.bld[own[0]] in view[own[0]][1]  # the claimed start building
    for c, (seat, lab) in view.items():
        if c < geo.n_space:
            assert s.explored[c >> 2]                              # face down: not listed
            if s.bld[c] is None:
                assert seat is None and lab.split(" · ")[0] == s.terr[c]


def test_buildings_tiles_and_workers_are_labelled_with_their_owner(game, make_state):
    s = make_state(n=2)
    o = next(o for o in range(s.st.geo.n_oct) if s.tile[o] >= 0 and not s.explored[o])
    explore(s, o, ("water", "magma", "greenery", "tech"))
    put(s, 4 * o, "small_farm", 1, done=False)
    s.players[0].workers.append(4 * o + 1)
    s.players[1].workers.append(4 * o + 1)
    g = s.st.gaps[0]
    s.lay_tile("straight", 0, (g,), s.st.geo.faces(g)[:2])
    view = {c: (seat, lab) for c, seat, lab in game.board_view(s)}
    assert view[4 * o] == (1, "small_farm (unfinished)")
    assert view[4 * o + 1] == (None, "magma · 1 worker of seat 0 · 1 worker of seat 1")
    assert view[4 * o + 2] == (None, "greenery")
    assert view[g] == (0, "straight")


def test_a_seeded_game_matches_the_state(game, make_state):
    s = make_state(n=3, seed=4)
    rng = random.Random(4)
    cells = {c.cell for c in game.map_cells(s.rules) if c.map == s.map_id}
    for n_steps in range(600):
        if s.is_over():
            break
        s.apply(rng.choice(s.legal_actions()))
        if n_steps % 50:
            continue
        view = {c: (seat, lab) for c, seat, lab in game.board_view(s)}
        assert set(view) <= cells
        n_space = s.st.geo.n_space
        spaces = {c for c in view if c < n_space}
        assert spaces >= {sp for sp in range(n_space) if s.explored[sp >> 2]}
        for sp in range(n_space):
            if s.bld[sp] is not None:
                assert view[sp][0] == (s.owner[sp] if s.owner[sp] >= 0 else None)
                assert view[sp][1].startswith(s.bld[sp])
        for g, (kind, seat, _spaces) in s.gap.items():
            assert view[g][0] == seat and view[g][1].startswith(kind)
        for p in s.players:
            for cell, n in Counter(c for c in p.workers if c >= 0).items():
                assert f"{n} worker{'s' if n > 1 else ''} of seat {p.seat}" in view[cell][1]
