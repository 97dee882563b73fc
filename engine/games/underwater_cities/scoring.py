"""Final scoring (rulebook "Final Scoring", "Scoring Your Network", "Scoring your
Resources", "End of the Game") and the result.

In order: the brown metropolis (if connected), the end-scoring cards (resources spent "as
well as possible": the conversions are chosen together with what the leftover resources
are worth), every connected city by the building types next to it, then biomatter sold for
2 credits and 1 point per 4 credits, kelp, science or steelplast.  Ties: the play order set
at the end of the final round.  Every point is one score event with a category.
"""

from __future__ import annotations

from engine.core.cache import remember
from engine.core.protocol import SeatResult

from .effects import gain_times
from .network import bits, count_of, net

CATEGORIES = ("production", "cards", "federation", "metropolis", "cities", "resources",
              "feeding", "contracts", "other")
LABELS = {
    "production": "Production", "cards": "End-scoring cards", "federation": "Federation track",
    "metropolis": "Brown metropolis", "cities": "Cities", "resources": "Resources",
    "feeding": "Feeding (unfed cities)", "contracts": "Government contracts",
    "other": "Other in-game points",
}


def part_points(s, p, part) -> int:
    """Points of one end-scoring `gain` part (a count, or a table of counts)."""
    if part.table:
        k = count_of(s, p, part.per)
        best = 0
        for at_least, pts in part.table:
            if k >= at_least:
                best = max(best, pts)
        return best
    return part.gain.points * gain_times(s, p, part)


def brown_points(s, p) -> int:
    g = s.geo
    h = g.brown
    if h < 0 or not p.metro_on >> h & 1 or p.metros[h] < 0:
        return 0
    return sum(part_points(s, p, part) for part in s.st.metros[p.metros[h]].end)


def city_points(s, p) -> int:
    n = net(s.geo, p)
    if n.city_pts is None:
        table = s.rules.final.city_points
        n.city_pts = sum(table[(kinds >> 1 & 1) + (kinds >> 2 & 1) + (kinds >> 3 & 1)]
                         for _c, kinds in n.types)
    return n.city_pts


def leftover_points(s, res) -> int:
    f = s.rules.final
    total = res[0] + res[1] + res[2] + res[3] + res[4] * f.biomatter_credits
    return total // f.resources_per_point


def end_parts(s, p) -> tuple[tuple, tuple]:
    """The claimed end-scoring cards' counting parts and conversions [(cost, points, max
    times)] (remembered per set of claimed cards)."""
    cache = s.st.end_cache
    hit = cache.get(p.claimed)
    if hit is None:
        counting, trades = [], []
        cards = s.st.cards
        for inst in p.claimed:
            card = cards[inst]
            if card.type != "end":
                continue
            for part in card.effect:
                if part.kind == "trade":
                    trades.append((part.cost.vec(), part.gain.points, part.count))
                else:
                    counting.append(part)
        hit = remember(cache, p.claimed, (tuple(counting), tuple(trades)), 4096)
    return hit


def end_cards(s, p) -> tuple[int, tuple]:
    """(points of the end cards' counting parts, their conversions)."""
    counting, trades = end_parts(s, p)
    return sum(part_points(s, p, part) for part in counting), trades


def best_conversions(s, res, trades, exact: bool = True) -> tuple[int, list[int]]:
    """The conversions (times of each trade) that maximise their points plus the leftover
    resources' points: (total points, times).  `exact`: search every combination (final
    scoring); else take the trades greedily, best points per resource first (bots)."""
    if not trades:
        return leftover_points(s, res), []
    if not exact:
        res = list(res)
        times = [0] * len(trades)
        order = sorted(range(len(trades)), key=lambda i: -trades[i][1] / max(1, sum(trades[i][0])))
        pts = 0
        for i in order:
            cost, gain, cap = trades[i]
            k = cap
            for j in range(5):
                if cost[j]:
                    k = min(k, res[j] // cost[j])
            if k > 0:
                for j in range(5):
                    res[j] -= cost[j] * k
                times[i] = k
                pts += gain * k
        return pts + leftover_points(s, res), times
    best = [-1, []]
    n = len(trades)
    times = [0] * n

    def dfs(i, res, pts):
        if i == n:
            total = pts + leftover_points(s, res)
            if total > best[0]:
                best[0], best[1] = total, times.copy()
            return
        cost, gain, cap = trades[i]
        k = 0
        cur = list(res)
        while True:
            times[i] = k
            dfs(i + 1, cur, pts + gain * k)
            if k >= cap or any(r < c for r, c in zip(cur, cost)):
                break
            cur = [r - c for r, c in zip(cur, cost)]
            k += 1
        times[i] = 0

    dfs(0, list(res), 0)
    return best[0], best[1]


def final_scoring(s) -> None:
    for seat in s.tie_order:
        p = s.players[seat]
        s.score(p, "metropolis", brown_points(s, p))
        fixed, trades = end_cards(s, p)
        _, times = best_conversions(s, p.res, trades)
        spent = fixed
        for (cost, gain, _cap), k in zip(trades, times):
            for j in range(5):
                p.res[j] -= cost[j] * k
            spent += gain * k
        s.score(p, "cards", spent)
        s.score(p, "cities", city_points(s, p))
        s.score(p, "resources", leftover_points(s, p.res))


def result(s) -> list[SeatResult]:
    totals = s.log.totals(s.n)
    pos = {seat: i for i, seat in enumerate(s.tie_order)}
    keys = [(totals[i], -pos[i]) for i in range(s.n)]
    out = []
    for i in range(s.n):
        rank = 1 + sum(1 for k in keys if k > keys[i])
        out.append(SeatResult(seat=i, score=totals[i], breakdown=s.log.breakdown(i), rank=rank,
                              won=s.over and rank == 1, tiebreak=(-pos[i],)))
    return out


def connected_metros(s, p) -> list[int]:
    return [p.metros[h] for h in bits(p.metro_on) if p.metros[h] >= 0]
