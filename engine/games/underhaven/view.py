"""The board at a state, for the Replay page (`Game.board_view`).

One shared board (rulebook "Setup"): one entry per occupied map cell.  A space of an explored
octagon shows its terrain, or the building on it with its owner ("unfinished" until it is
flipped, "Building"); face-down octagons show nothing (their terrain is unknown); a gap shows
the tunnel or trapezoid tile laid there with the seat that laid it; an entrance shows the seat
that entered there.  Workers are added to their cell's label ("2 workers of seat 1"); a cell with
nothing else on it takes its workers' seat as owner when they all belong to one seat.
"""

from __future__ import annotations

from collections import Counter


def board_view(state) -> list[tuple[int, int | None, str]]:
    geo = state.st.geo
    cells: dict[int, list] = {}   # cell -> [owner, label]
    for o in range(geo.n_oct):
        if state.tile[o] < 0 or not state.explored[o]:
            continue
        for d in range(4):
            sp = 4 * o + d
            if state.bld[sp] is not None:
                owner = state.owner[sp]
                cells[sp] = [owner if owner >= 0 else None,
                             state.bld[sp] + ("" if state.done[sp] else " (unfinished)")]
            else:
                cells[sp] = [None, state.terr[sp] or "?"]
    for g, (kind, seat, _spaces) in sorted(state.gap.items()):
        cells[g] = [seat, kind]
    for p in state.players:
        if p.entrance >= 0:
            cells[p.entrance] = [p.seat, "entrance"]
    only_workers: set[int] = set()
    for p in state.players:
        for cell, n in sorted(Counter(c for c in p.workers if c >= 0).items()):
            who = f"{n} worker{'s' if n > 1 else ''} of seat {p.seat}"
            if cell not in cells:
                cells[cell] = [p.seat, who]
                only_workers.add(cell)
                continue
            entry = cells[cell]
            if cell in only_workers and entry[0] != p.seat:
                entry[0] = None   # workers of several seats share it
            entry[1] = f"{entry[1]} · {who}"
    return [(c, owner, label) for c, (owner, label) in sorted(cells.items())]
