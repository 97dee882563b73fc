"""Final scoring ("End of Game & Final Scoring", Appendix B) as pure functions, and the
result with its tie-breaks.  Every point is one score event with a category, so a player's
breakdown always sums to the final score."""

from __future__ import annotations

from engine.core.protocol import SeatResult

from .board import bits, connected_outposts

CATEGORIES = ("vp_track", "buildings", "resources", "map_objective", "calling", "traits")


def resources_vp(res: list[int], rates: dict) -> int:
    """1 VP for every 3 iron, every 2 gold, every gem (rates from the rules)."""
    return res[0] // rates["iron"] + res[1] // rates["gold"] + res[2] // rates["gem"]


def trade_routes_vp(n_connected: int, table: tuple[int, ...]) -> int:
    """Trade Routes end-of-game table: VP by the number of outposts connected."""
    return table[min(n_connected, len(table) - 1)]


def snowy_summit_vp(marks: list[int | None], tiers: tuple[int, ...], two_player_second: int) -> list[int]:
    """Snowy Summit: rank the written numbers lowest first; tied players occupy as many
    consecutive tiers and all take the first tier of their block.  Marks are doubled
    integers (7 1/2 -> 15).  A player who never reached the Peak gets nothing (assumed)."""
    n = len(marks)
    table = list(tiers)
    if n == 2 and len(table) >= 2:
        table[1] = two_player_second
    out = [0] * n
    ranked = sorted((m, i) for i, m in enumerate(marks) if m is not None)
    pos = 0
    while pos < len(ranked):
        block = [i for m, i in ranked if m == ranked[pos][0]]
        vp = table[pos] if pos < len(table) else 0
        for i in block:
            out[i] = vp
        pos += len(block)
    return out


def bioluminescent_vp(board, footprints: list[int], per_building: int) -> int:
    """4 VP for each building adjacent to a bioluminescent space."""
    return sum(per_building for fp in footprints if board.neighbours(fp) & board.biolum)


def forest_vp(board, exc: int, per_space: int) -> int:
    return (exc & board.forest).bit_count() * per_space


def map_objective(s) -> list[int]:
    board = s.static.board
    obj = s.rules.objectives
    kind = next(m.objective for m in s.rules.maps if m.id == s.map_id)
    if kind == "snowy_summit":
        return snowy_summit_vp([p.peak for p in s.players], obj.snowy_summit_tiers,
                               obj.snowy_summit_two_player_second)
    out = []
    for p in s.players:
        if kind == "bioluminescent":
            out.append(bioluminescent_vp(board, [fp for _k, _c, fp in p.buildings],
                                         obj.bioluminescent_vp_per_building))
        elif kind == "trade_routes":
            out.append(trade_routes_vp(connected_outposts(board, p.exc).bit_count(),
                                       obj.trade_routes_vp))
        else:
            out.append(forest_vp(board, p.exc, obj.forest_vp_per_space))
    return out


def final_scoring(s) -> None:
    """Tally the end-of-game categories as score events (the VP track is already logged)."""
    cards = s.static.cards
    objective = map_objective(s)
    for p in s.players:
        hook = s.hooks[p.seat]
        s.score(p, "buildings", sum(cards[k][c].vp for k, c, _fp in p.buildings))
        rates = hook.resource_rates(s, p, dict(s.rules.scoring.resources_per_vp))
        s.score(p, "resources", resources_vp(p.res, rates))
        s.score(p, "map_objective", objective[p.seat])
        for category, vp in hook.final_scoring(s, p):
            s.score(p, category, vp)


def result(s) -> list[SeatResult]:
    n = s.n
    totals = s.log.totals(n)
    breakdowns = [s.log.breakdown(i) for i in range(n)]
    keys = []
    for i in range(n):
        key = [totals[i]]
        for tb in s.rules.scoring.tiebreaks:
            key.append(breakdowns[i].get(tb, 0))
        keys.append(tuple(key))
    order = sorted(range(n), key=lambda i: keys[i], reverse=True)
    ranks = [0] * n
    for pos, i in enumerate(order):
        ranks[i] = pos + 1 if pos == 0 or keys[order[pos - 1]] != keys[i] else ranks[order[pos - 1]]
    if n == 1:
        won = [totals[0] > s.rules.solo.tiers[0][0]]
    else:
        won = [ranks[i] == 1 for i in range(n)]
    return [SeatResult(seat=i, score=totals[i], breakdown=breakdowns[i], rank=ranks[i],
                       won=won[i], tiebreak=keys[i][1:]) for i in range(n)]


def solo_tier(score: int, tiers) -> str | None:
    title = None
    for threshold, name in tiers:
        if score > threshold:
            title = name
    return title


__all__ = ["CATEGORIES", "bits"]
