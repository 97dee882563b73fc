"""What a seat sees (`observe`), the map cells for heatmaps (`map_cells`) and the board at a
state for the Replay page (`board_view`).

`observe(state, seat)` keeps everything on the table but hides deck order: the excavation
decks are face down and the building decks show only their top card.

Glimmerdeep gives every player a map sheet of their own (rulebook "Setup": each player takes a
map sheet), so one map cell can carry one entry per seat: the settlement, each excavated space,
each building's footprint (labelled with its kind) and each outpost the seat has reached by an
uninterrupted excavated path (rulebook "Outposts").  Outposts nobody reached are neutral.
"""

from __future__ import annotations

from engine.core.protocol import MapCell

from .board import bits, build_board, connected_outposts


def observe(state, seat: int):
    """What `seat` may see: everything on the table, but no deck order (the excavation decks
    are face down; the building decks show only their top card)."""
    obs = state.clone(log=False)
    for p in obs.writable_players():
        rest = sorted(p.deck[p.deck_pos:])
        p.deck = p.deck[: p.deck_pos] + rest
    for kind, deck in obs.decks.items():
        if len(deck) > 1:
            obs.decks[kind] = sorted(deck[:-1]) + deck[-1:]
    obs.solo_deck = sorted(obs.solo_deck)
    return obs


def map_cells(rules) -> list[MapCell]:
    """Every space of every map, for the heatmaps (moves log their `cell`)."""
    out = []
    for m in rules.maps:
        board = build_board(m)
        for cell, kind in enumerate(board.kinds):
            x, y = board.xy(cell)
            out.append(MapCell(m.id, cell, x, y, kind))
    return out


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
