"""The Missions (rulebook "The Missions"): claimed as soon as fulfilled during one's own turn,
and the clean-up refill of the face-up missions and the activation card market."""

from __future__ import annotations

from . import scoring


def claim_missions(s, p) -> None:
    """Missions are claimed any time in your turn, no action needed: claimed as soon as
    fulfilled (the reputation is instant).

    Whether a mission is fulfilled depends only on the seat's buildings, their terrain and
    the tiles (mission_done), so the missions already found unfulfilled on a board
    equal to this one (compared by value) are not checked again (`mission_memo`)."""
    mine = s.owned(p.seat)
    terr = s.terr
    board = (mine, [terr[x] for x in mine], s.gap)
    seen = s.mission_memo.get(p.seat)
    same = seen is not None and seen[0] == board
    known = seen[1] if same else frozenset()
    if known.issuperset(s.missions):          # (`known` holds None: an empty slot)
        return
    unfulfilled = set()
    for i, mid in enumerate(s.missions):
        if mid is None or mid in known:
            continue
        m = s.st.missions[mid]
        if mission_done(s, p.seat, m, mine):
            s.score(p, "missions", m.rep)
            s.missions[i] = None
            s.mission_discard.append(mid)
            if s.log.enabled:
                s.log.move(s.step, s.round, s.phase, p.seat, "claim_mission", mid, None)
        else:
            unfulfilled.add(mid)
    s.mission_memo = {**s.mission_memo, p.seat: (     # a new dict: clones share the old
        seen[0] if same else (mine, board[1], s.gap.copy()), known | unfulfilled | {None})}


def refill(s) -> None:
    """Clean up: refill missions (reshuffling the discard when the deck is empty) and the
    activation card market."""
    for i, mid in enumerate(s.missions):
        if mid is None:
            if not s.mission_deck and s.mission_discard:
                s.mission_deck = s.mission_discard
                s.mission_discard = []
                s._chance().shuffle(s.mission_deck)
            if s.mission_deck:
                s.missions[i] = s.mission_deck.pop()
    for i, cid in enumerate(s.market):
        if cid is None and s.card_deck:
            s.market[i] = s.card_deck.pop()


def mission_done(s, seat: int, m, mine: list[int] | None = None) -> bool:
    """Whether the seat fulfils mission `m` on the board as it stands (`mine`: the seat's
    spaces with a building, if already known)."""
    terrains = m.terrains
    if mine is None:
        mine = s.owned(seat)
    if m.kind == "own":
        return sum(1 for sp in mine if not terrains or s.terr[sp] in terrains) >= m.count
    if m.kind == "octagons":
        return len({sp >> 2 for sp in mine}) >= m.count
    if m.kind == "pair":
        a, b = terrains[0], terrains[1]
        for x in mine:
            if s.terr[x] != a:
                continue
            for y in mine:
                if y != x and s.terr[y] == b and s.connected(x, y):
                    return True
        return False
    if m.kind == "cluster":
        # A cluster is made of the seat's buildings of one terrain: with fewer buildings on
        # the mission's terrains than it asks, none can be big enough.
        if sum(1 for sp in mine if not terrains or s.terr[sp] in terrains) < m.count:
            return False
        return any(len(grp) >= m.count and (not terrains or t in terrains)
                   for t, grp in scoring.clusters(s, seat))
    return False
