"""Corporations' Focus (advanced, rulebook "Corporations' Focus", "Reputational Income"):
reputation for focus-terrain buildings and their adjacency to rivals.  The corporation
bonuses (+1 energy, +1 production, +1 reputation per Mine, +1 trade goods) are applied where
the resource is gained (state.gain, activate.py)."""

from __future__ import annotations


def focus_on_build(s, p, site: int) -> None:
    """Advanced "Corporations' Focus": reputation for building on the focus terrain, for a
    new focus building next to a rival's building, and for rivals whose focus building the
    new one touches."""
    corp = s.rules.corporations[p.corp]
    geo = s.st.geo
    rivals_next = {s.owner[y] for y in geo.nb[site] if y < geo.n_space and s.owner[y] not in (-1, p.seat)}
    if s.terr[site] == corp.focus_terrain:
        s.score(p, "focus", corp.focus_build_rep)
        if rivals_next:
            s.score(p, "focus", corp.focus_adjacent_rival_rep)
    for q in s.players:
        if q.seat == p.seat:
            continue
        qc = s.rules.corporations[q.corp]
        if any(y < geo.n_space and s.owner[y] == q.seat and s.terr[y] == qc.focus_terrain
               for y in geo.nb[site]):
            s.score(s.writable_player(q.seat), "focus", qc.focus_rival_adjacent_rep)


def focus_adjacent_rivals(s, seat: int) -> int:
    """Reputational income: the seat's focus buildings touching a rival's building."""
    corp = s.rules.corporations[s.players[seat].corp]
    geo = s.st.geo
    n = 0
    for sp, o in enumerate(s.owner):
        if o == seat and s.terr[sp] == corp.focus_terrain:
            if any(y < geo.n_space and s.owner[y] not in (-1, seat) for y in geo.nb[sp]):
                n += 1
    return n
