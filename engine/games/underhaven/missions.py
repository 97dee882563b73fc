"""The Missions (rulebook "The Missions"): claimed as soon as fulfilled during one's own turn,
and the clean-up refill of the face-up missions and the activation card market."""

from __future__ import annotations

from functools import lru_cache

from . import scoring


def claim_missions(s, p) -> None:
    """Missions are claimed any time in your turn, no action needed: claimed as soon as
    fulfilled (the reputation is instant): the face-up ones and those the player claimed for
    itself at the missions space (`readings.missions_space = "claim"`).

    Whether a mission is fulfilled depends only on the seat's own buildings, their terrains
    and the tiles (mission_done), so the missions already found unfulfilled on an equal board
    of the seat (compared by value: its spaces with a building, their terrains, every tile)
    are not checked again (`mission_memo`); others' buildings do not matter."""
    mine = s.owned(p.seat)
    terr = s.terr
    board = (mine, [terr[x] for x in mine])
    seen = s.mission_memo.get(p.seat)
    if seen is not None and seen[0] == board and seen[1] == s.gap:
        known = seen[2]
        if known.issuperset(s.missions) and known.issuperset(p.held):   # (None: an empty slot)
            return
    else:
        known = frozenset()
    unfulfilled = set()
    for i, mid in [(i, mid) for i, mid in enumerate(s.missions)] + [(-1, h) for h in p.held]:
        if mid is None or mid in known:
            continue
        m = s.st.missions[mid]
        if mission_done(s, p.seat, m, mine):
            s.score(p, "missions", m.rep)
            if i >= 0:
                s.missions[i] = None
            else:
                p.held.remove(mid)
            s.mission_discard.append(mid)
            if s.log.enabled:
                s.log.move(s.step, s.round, s.phase, p.seat, "claim_mission", mid, None)
        else:
            unfulfilled.add(mid)
    s.mission_memo = {**s.mission_memo, p.seat: (     # a new dict: clones share the old
        board, s.gap.copy(), known | unfulfilled | {None})}


def refill_missions(s) -> None:
    """"New mission cards are drawn and revealed, if any taken, at the END of current
    player's turn"; "If the mission deck is depleted, shuffle the discard pile into a new
    draw pile"."""
    for i, mid in enumerate(s.missions):
        if mid is None:
            if not s.mission_deck and s.mission_discard:
                s.mission_deck = s.mission_discard
                s.mission_discard = []
                s.chance().shuffle(s.mission_deck)
            if s.mission_deck:
                s.missions[i] = s.mission_deck.pop()


def refill(s) -> None:
    """Clean up: "if any Activation & Mission cards were bought or taken, refill the empty
    spaces" (the missions, then the activation card market)."""
    refill_missions(s)
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
    if m.kind == "layout":
        return layout_done(s, seat, m.pattern, mine)
    return False


def orientations(pattern) -> list[tuple[tuple[str, ...], ...]]:
    """"The placement layout can be left, right, up, down or mirrored": the pattern turned a
    quarter at a time, each also mirrored (the distinct ones)."""
    out = []
    cur = tuple(tuple(r) for r in pattern)
    for _ in range(4):
        for g in (cur, tuple(r[::-1] for r in cur)):
            if g not in out:
                out.append(g)
        cur = tuple(zip(*cur[::-1]))     # a quarter turn clockwise
    return out


def _stretch(n: int, gaps: set[int]) -> tuple[list[int], list[int]]:
    """For rows (or columns) 0..n-1 of which `gaps` are "gap" lines: the kept lines, and for
    each kept line the index of the last gap run before it (-1: none)."""
    runs = []
    run = -1
    kept = []
    for i in range(n):
        if i in gaps:
            if i - 1 not in gaps:
                run += 1
        else:
            kept.append(i)
            runs.append(run)
    return kept, runs


def layout_done(s, seat: int, pattern, mine: list[int]) -> bool:
    """Mission layouts on the octagon grid: each terrain cell needs one of the seat's
    buildings of that terrain on that octagon ("any": any of its buildings), "-" an octagon
    between with no requirement, and a whole row or column of "gap" cells "means another
    octagon must be between (1 or more)"; any orientation or mirror (`layout_fits`).

    Each cell of a laid pattern is an octagon of its own, so a seat with fewer octagons of a
    terrain than the pattern has cells of it (or fewer octagons with a building than cells)
    cannot lay it anywhere: that is answered without trying every way (`layout_needs`)."""
    have = octagons_by_terrain(s, mine)
    if any(len(have.get(x, ())) < k for x, k in layout_needs(pattern)):
        return False
    return layout_fits(s, have, pattern)


def octagons_by_terrain(s, mine: list[int]) -> dict[str, set]:
    """terrain -> the octagons where the seat has a building of that terrain, and "any" ->
    every octagon where it has a building (`mine`: its spaces with a building)."""
    terr = s.terr
    have: dict[str, set] = {"any": set()}
    for sp in mine:
        o = sp >> 2
        have["any"].add(o)
        have.setdefault(terr[sp], set()).add(o)
    return have


def layout_fits(s, have: dict[str, set], pattern) -> bool:
    """Whether the pattern lies somewhere on the octagons `have` (octagons_by_terrain), in
    any orientation or mirror and lengthening of its gaps (`layout_shapes`: every way to lay
    the pattern, worked out once per pattern and grid)."""
    cols = s.st.board.columns
    lines = s.st.geo.n_oct // cols
    for offs in layout_shapes(pattern, lines, cols):
        x0, r0, c0 = offs[0]
        for o in have.get(x0, ()):
            l, c = divmod(o, cols)
            if all(0 <= l - r0 + r < lines and 0 <= c - c0 + cc < cols
                   and ((l - r0 + r) * cols + c - c0 + cc) in have.get(x, ())
                   for x, r, cc in offs[1:]):
                return True
    return False


@lru_cache(maxsize=256)
def layout_needs(pattern) -> tuple[tuple[str, int], ...]:
    """(terrain, cells of the pattern asking for it), with ("any", every terrain cell)."""
    cells = [x for row in pattern for x in row if x not in ("-", "gap")]
    need = {"any": len(cells)}
    for x in cells:
        if x != "any":
            need[x] = need.get(x, 0) + 1
    return tuple(need.items())


@lru_cache(maxsize=256)
def layout_shapes(pattern, lines: int, cols: int) -> tuple[tuple[tuple[str, int, int], ...], ...]:
    """Every way to lay a layout pattern on a grid of `lines` x `cols` octagons: for each
    orientation or mirror and each lengthening of its gap rows and columns (each gap run
    stands for 1 or more octagons, all runs together at most the grid), the pattern's
    terrain cells as (terrain, row, column) offsets, in pattern order."""
    out = []
    for pat in orientations(pattern):
        R, C = len(pat), len(pat[0])
        grow = {i for i in range(R) if all(x == "gap" for x in pat[i])}
        gcol = {c for c in range(C) if all(pat[i][c] == "gap" for i in range(R))}
        _kr, row_run = _stretch(R, grow)
        _kc, col_run = _stretch(C, gcol)
        rrun = dict(zip(_kr, row_run))
        crun = dict(zip(_kc, col_run))
        cells = [(x, i, c) for i in range(R) for c in range(C)
                 if (x := pat[i][c]) not in ("-", "gap")]
        n_rr = max(row_run, default=-1) + 1
        n_cr = max(col_run, default=-1) + 1
        for extra_r in _extras(n_rr, lines):
            for extra_c in _extras(n_cr, cols):
                out.append(tuple((x, i + sum(extra_r[:rrun[i] + 1]),
                                  c + sum(extra_c[:crun[c] + 1])) for x, i, c in cells))
    return tuple(out)


def _extras(n_runs: int, limit: int):
    """Every way to lengthen `n_runs` gap runs by 0.. `limit` octagons each (all runs total at
    most `limit`)."""
    if n_runs == 0:
        yield ()
        return
    for first in range(limit + 1):
        for rest in _extras(n_runs - 1, limit - first):
            yield (first,) + rest
