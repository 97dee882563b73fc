"""The end scoring as it stands, for the bots' heuristic (bots.evaluate, the search leaf):
`end_points`, with the board's part remembered per board."""

from __future__ import annotations

from . import scoring


def end_points(s, seat: int) -> int:
    """`sum(scoring.end_breakdown(s, seat).values())`, the end scoring as it stands, with the
    board's part remembered: every step but the resources (step 6) reads only the buildings,
    terrains, tiles and the seat's cards, cubes, unlocked specialists and loans, which most
    decisions leave as they were, so a search or a lookahead asks for the same board again and
    again.  Step 6 is counted afresh (tests/games/underhaven check the sum against the rule)."""
    p = s.players[seat]
    st = s.st
    memo = _END.get(id(st))
    if memo is None or memo[0] is not st:
        if len(_END) >= 16:
            _END.clear()
        memo = _END[id(st)] = [st, {}, None]
    # The board (buildings, terrains, tiles) -> its seats' answers; the last board asked for
    # is kept as lists to compare with, so asking again (every seat at a search leaf) does not
    # build and hash its key again.
    gap = tuple(s.gap.items())
    last = memo[2]
    if last is not None and last[3] == gap and last[0] == s.owner and last[2] == s.bld \
            and last[1] == s.terr:
        table = last[4]
    else:
        boards = memo[1]
        bkey = (tuple(s.owner), tuple(s.terr), tuple(s.bld), gap)
        table = boards.get(bkey)
        if table is None:
            if len(boards) >= 20_000:
                boards.clear()
            table = boards[bkey] = {}
        memo[2] = (s.owner.copy(), s.terr.copy(), s.bld.copy(), gap, table)
    key = (seat, s.n, tuple(p.cubes), tuple(p.bought), len(p.perm), tuple(p.loans), p.corp)
    board = table.get(key)
    if board is None:
        maj = table.get("majorities")    # the board's step 2, for every seat
        if maj is None:
            maj = table["majorities"] = scoring.board_majorities(s)
        parts = scoring.end_breakdown(s, seat, maj)
        board = table[key] = sum(parts.values()) - parts["end_resources"]
    return board + scoring.resources_rep(p.resources_total(), s.rules.game.resources_per_rep)


_END: dict = {}
