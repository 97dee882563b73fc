"""What a seat sees (`Game.observe`) and the board at a state, for the Replay page
(`Game.board_view`).

One shared board (rulebook "Setup"): one entry per occupied map cell.  A space of an explored
octagon shows its terrain, or the building on it with its owner ("unfinished" until it is
flipped, "Building"); face-down octagons show nothing (their terrain is unknown); a gap shows
the tunnel or trapezoid tile laid there with the seat that laid it; an entrance shows the seat
that entered there.  Workers are added to their cell's label ("2 workers of seat 1"); a cell with
nothing else on it takes its workers' seat as owner when they all belong to one seat.
"""

from __future__ import annotations

from collections import Counter


def observe(state, seat: int):
    """What `seat` may see: the table, but not the face-down octagons (which tile lies where),
    the order of the mission and activation decks, the starting octagons and starting cards
    dealt to others, nor the cards others drew unseen (draw 3 keep 1)."""
    obs = state.clone(log=False)
    hidden = [o for o, t in enumerate(obs.tile) if t >= 0 and not obs.explored[o]]
    pool = sorted([obs.tile[o] for o in hidden] + obs.box)
    for o, t in zip(hidden, pool):
        obs.tile[o] = t
    obs.box = pool[len(hidden):]
    others = [i for i in range(obs.n) if i != seat]
    placed = {obs.tile[o] for o in range(len(obs.tile)) if obs.explored[o]}
    unplaced = [i for i in others if obs.start_tile[i] not in placed]
    spool = sorted(obs.start_tile[i] for i in unplaced)
    for i, t in zip(unplaced, spool):
        obs.start_tile[i] = t
    pending = [i for i in others if obs.dealt[i]]
    cards = sorted([c for i in pending for c in obs.dealt[i]] + obs.start_card_deck)
    k = 0
    for i in pending:
        m = len(obs.dealt[i])
        obs.dealt[i] = tuple(cards[k:k + m])
        k += m
    obs.start_card_deck = cards[k:]
    obs.mission_deck = sorted(obs.mission_deck)
    secret = sorted(c for i in others for c in obs.players[i].secret)
    obs.card_deck = sorted(obs.card_deck + secret)
    for i in others:
        p = obs.players[i]
        if p.secret:
            p = obs.writable_player(i)   # its own record (the observation shares the state's)
            p.hand = sorted(c for c in p.hand if c not in p.secret)
            p.bought = [c for c in p.bought if c not in p.secret]
            p.secret = set()
        hand = sorted(p.hand)
        if hand != p.hand:
            obs.writable_player(i).hand = hand
    obs.start_bld_pool = sorted(obs.start_bld_pool)
    return obs


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
