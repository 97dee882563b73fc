"""Rulebook "Trading": "At any point of time in a game, even when it is not your turn, you may
trade Resources/Equipment with another worker who rests on the same tile as your Worker. The
ONLY time you cannot engage in a trade is when one of the Workers that would be involved is in
any sort of conflict (Equipment/Anomaly/Fight)".

Bots cannot negotiate, so trading is a fixed-rate rule, switched by `[trading]` (off by
default): on its turn, between actions (never during a fight, an anomaly or a discovery), a
worker may offer another worker on its tile one exchange, at most `offers_per_turn` offers to
each worker a turn:
    ("offer", seat, give, get)  give, get: a gem colour 0-4, or 5 for one oxygen
        gem for gem (`gem_for_gem`): one gem of a colour for one of another colour;
        gem for oxygen (`gem_for_oxygen`): one gem for one oxygen, either way.
The other seat answers ("accept",) or ("decline",) (its own decision: the greedy bot accepts
when its heuristic gains).  Both the offer and the answer are moves in the log.  Trades cost no
energy; equipment is not traded (assumed).
"""

from __future__ import annotations

from .state import NC, apply, legal

OXYGEN = NC


def offer_options(s, seat: int) -> list[tuple]:
    tr = s.rules.trading
    if not tr.enabled:
        return []
    cell = s.pos[seat]
    out = []
    mine = s.carry[seat * NC: seat * NC + NC]
    for t in range(s.n):
        if t == seat or not s.alive[t] or s.pos[t] != cell:
            continue
        if s.offered.count(t) >= tr.offers_per_turn:
            continue
        theirs = s.carry[t * NC: t * NC + NC]
        if tr.gem_for_gem:
            out.extend(("offer", t, g, h) for g in range(NC) if mine[g]
                       for h in range(NC) if h != g and theirs[h])
        if tr.gem_for_oxygen:
            if s.oxy[t] > 1 and s.oxy[seat] < s.max_oxygen(seat):
                out.extend(("offer", t, g, OXYGEN) for g in range(NC) if mine[g])
            if s.oxy[seat] > 1 and s.oxy[t] < s.max_oxygen(t):
                out.extend(("offer", t, OXYGEN, h) for h in range(NC) if theirs[h])
    return out


def offer(s, seat: int, a: tuple) -> None:
    _, t, give, get = a
    s.offered = s.offered + (t,)
    s.phase = "trade"
    s.stack.append(("answer", t, seat, give, get))


@legal("answer")
def answer_options(s, frame):
    return [("accept",), ("decline",)]


@apply("answer")
def answer(s, frame, a) -> None:
    _, t, seat, give, get = frame
    s.phase = "actions"
    if a[0] != "accept":
        return
    _move(s, seat, t, give)
    _move(s, t, seat, get)


def _move(s, frm: int, to: int, what: int) -> None:
    if what == OXYGEN:
        s.oxy[frm] -= 1
        s.oxy[to] += 1
    else:
        s.carry[frm * NC + what] -= 1
        s.carry[to * NC + what] += 1
