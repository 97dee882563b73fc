"""The board at a state, for the Replay page (`Game.board_view`).

Glimmerdeep gives every player a map sheet of their own (rulebook "Setup": each player takes a
map sheet), so one map cell can carry one entry per seat: the settlement, each excavated space,
each building's footprint (labelled with its kind) and each outpost the seat has reached by an
uninterrupted excavated path (rulebook "Outposts").  Outposts nobody reached are neutral.
"""

from __future__ import annotations

from .board import bits
from .play import connected_outposts


def board_view(state) -> list[tuple[int, int | None, str]]:
    board = state.static.board
    out: list[tuple[int, int | None, str]] = []
    reached = 0
    for p in state.players:
        label: dict[int, str] = {c: "settlement" for c in bits(board.settlement)}
        for kind, _card, fp in p.buildings:
            for c in bits(fp):
                label[c] = kind
        for c in bits(p.exc):
            label.setdefault(c, "excavated")
        if board.outposts:
            conn = connected_outposts(board, p.exc)
            reached |= conn
            for j, c in enumerate(board.outposts):
                if conn >> j & 1:
                    label[c] = "outpost"
        out.extend((c, p.seat, label[c]) for c in sorted(label))
    out.extend((c, None, "outpost") for j, c in enumerate(board.outposts) if not reached >> j & 1)
    return out
