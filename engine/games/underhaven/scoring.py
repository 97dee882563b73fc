"""Underhaven scoring (rulebook "Scoring": reputation gained through the game, End Game
Scoring steps 1-6) as pure functions, and the result.  Every point is one score event with a
category, so a player's breakdown always sums to the final score."""

from __future__ import annotations

from engine.core.protocol import SeatResult

CATEGORIES = (
    "start",            # the cube starts on the 5 space
    "buildings",        # reputation when a building is completed
    "activations",      # reputation from activations (Merchant Guild, turbines)
    "cards",            # market activation cards giving reputation when played (advanced cards)
    "social",           # owner of a social building when a rival consultant lands
    "missions",
    "bumps",            # a professional bumped off the Corp board
    "corp",             # The Corp action (goods, power tokens, energy into reputation)
    "abilities",        # special abilities ("Gain reputation when you build")
    "focus",            # corporations' focus and reputational income (advanced)
    "hiring",           # Corp super specialists (negative)
    "end_specialists",  # end scoring 1
    "end_majorities",   # end scoring 2
    "end_clusters",     # end scoring 3
    "end_singles",      # end scoring 4
    "end_trapezoids",   # end scoring 5
    "end_resources",    # end scoring 6
    "loans",            # The Coward's Loan cubes left at the end (advanced, negative)
)


# ---------------------------------------------------------------- pure end-scoring steps
def specialists_rep(unlocked: int, per: int, cap: int) -> int:
    """1. 4 for each unlocked extra specialist, at most 12."""
    return min(unlocked * per, cap)


def majorities(counts: list[list[int]]) -> list[int]:
    """2. Per seat, octagons where it owns strictly more buildings than anyone else.
    `counts[o][seat]` = buildings of seat on octagon o."""
    n = len(counts[0]) if counts else 0
    out = [0] * n
    for row in counts:
        top = max(row) if row else 0
        if top > 0 and row.count(top) == 1:
            out[row.index(top)] += 1
    return out


def cluster_value(reps: list[int], card_bonus: int, trapezoid_bonus: int, cap: int) -> int:
    """3. A connected cluster of same-type buildings: (building reputation + matching card
    bonuses + trapezoid bonuses) times the number of connected buildings, at most `cap`
    (the `cap` best buildings count)."""
    if len(reps) < 2:
        return 0
    k = min(len(reps), cap)
    return (sum(sorted(reps, reverse=True)[:k]) + card_bonus + trapezoid_bonus) * k


def resources_rep(total: int, per: int) -> int:
    """6. 1 reputation for each 5 resources."""
    return total // per


def trapezoid_end(kind: str, value: int, unlocked: int, n_majorities: int, n_buildings: int) -> int:
    """5. A trapezoid tile's end bonus (e.g. +4 for each unlocked specialist)."""
    if kind == "per_specialist":
        return value * unlocked
    if kind == "per_majority":
        return value * n_majorities
    if kind == "per_building":
        return value * n_buildings
    if kind == "flat":
        return value
    return 0


# ---------------------------------------------------------------- board queries
def clusters(s, seat: int, cubes: bool = False) -> list[tuple[str, list[int]]]:
    """Connected groups of the seat's buildings of one terrain type (touching or tunnel).
    With `cubes`, rivals' buildings carrying the seat's Low Light Pub deal cube join its
    groups of their terrain (every group still holds at least one own building)."""
    seen: set[int] = set()
    out = []
    mine = set(s.players[seat].cubes) if cubes else set()
    for sp in s.owned(seat):
        if sp in seen:
            continue
        t = s.terr[sp]
        grp = s.group(sp, lambda x, t=t: (s.owner[x] == seat or x in mine) and s.terr[x] == t)
        seen.update(grp)
        out.append((t, grp))
    return out


def card_bonus(s, seat: int, terrain: str) -> int:
    """The bought activation cards' bonuses for one icon (a terrain, or "starting")."""
    cards = s.st.cards
    return sum(cards[c].bonus for c in s.players[seat].bought if cards[c].bonus_terrain == terrain)


def icon_bonus(s, seat: int, terrain: str, spaces) -> int:
    """Steps 3 and 4: the cards "matching the icon" of a cluster or a single building: its
    terrain, and the starting-building icon when it holds a starting building (the scoring
    example's "single +5 bonus for his single starting bonus building (0 rep)")."""
    v = card_bonus(s, seat, terrain)
    if any(s.bld[x] in s.st.starting_ids for x in spaces):
        v += card_bonus(s, seat, "starting")
    return v


def _trapezoids(s, seat: int) -> dict:
    corp = s.rules.corporations[s.players[seat].corp]
    return {t.id: t for t in corp.trapezoids}


def board_majorities(s) -> list[int]:
    """Step 2 for every seat: the octagons where it owns strictly more buildings than anyone
    else (only the octagons with buildings can be majorities)."""
    counts: dict[int, list[int]] = {}
    for sp, o in enumerate(s.owner):
        if o >= 0:
            counts.setdefault(sp >> 2, [0] * s.n)[o] += 1
    return majorities(list(counts.values())) if counts else [0] * s.n


def end_breakdown(s, seat: int, maj: list[int] | None = None) -> dict[str, int]:
    """The end-scoring steps 1-6 for one seat, as they would score now (`maj`: the board's
    `board_majorities`, when already counted)."""
    g = s.rules.game
    p = s.players[seat]
    geo = s.st.geo
    unlocked = len(p.perm)
    out = {"end_specialists": specialists_rep(unlocked, g.specialist_rep, g.specialist_rep_max)}
    n_maj = (board_majorities(s) if maj is None else maj)[seat]
    out["end_majorities"] = n_maj * g.majority_rep
    traps = _trapezoids(s, seat)
    trap_gaps = {gc: tid for gc, (tid, owner, _sp) in s.gap.items() if owner == seat and tid in traps}
    trap_uses = dict.fromkeys(trap_gaps.values(), 0)
    b = s.st.b
    cl = singles = 0
    for terrain, grp in clusters(s, seat, cubes=True):
        if len(grp) >= 2:
            tb = 0
            faced = {geo.space_gap[x] for x in grp}
            for gc, tid in trap_gaps.items():
                if gc in faced and trap_uses[tid] < 2:
                    trap_uses[tid] += 1
                    tb += traps[tid].cluster_bonus
            cl += cluster_value([b[s.bld[x]].rep for x in grp], icon_bonus(s, seat, terrain, grp),
                                tb, g.cluster_max)
        else:
            singles += icon_bonus(s, seat, terrain, grp)
    out["end_clusters"] = cl
    out["end_singles"] = singles
    n_b = sum(1 for o in s.owner if o == seat)
    out["end_trapezoids"] = sum(trapezoid_end(traps[tid].end_kind, traps[tid].end_value, unlocked,
                                              n_maj, n_b) for tid in trap_gaps.values())
    out["end_resources"] = resources_rep(p.resources_total(), g.resources_per_rep)
    out["loans"] = -sum(g.loan_tiers[t][1] for t in p.loans)
    return out


def final_scoring(s) -> None:
    for p in s.players:
        for cat, pts in end_breakdown(s, p.seat).items():
            s.score(p, cat, pts)


def result(s) -> list[SeatResult]:
    totals = s.log.totals(s.n)
    keys = [(totals[i], s.players[i].resources_total()) for i in range(s.n)]
    best = max(keys)
    out = []
    for i in range(s.n):
        rank = 1 + sum(1 for k in keys if k > keys[i])
        out.append(SeatResult(seat=i, score=totals[i], breakdown=s.log.breakdown(i), rank=rank,
                              won=s.over and keys[i] == best, tiebreak=keys[i][1:]))
    return out
