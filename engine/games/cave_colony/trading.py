"""Rulebook "Trading": "At any point of time in a game, even when it is not your turn, you may
trade Resources/Equipment with another worker who rests on the same tile as your Worker. The
ONLY time you cannot engage in a trade is when one of the Workers that would be involved is in
any sort of conflict (Equipment/Anomaly/Fight)" (RB:141).

Bots cannot negotiate, so trading is a fixed-rate rule, switched by `[trading]` (on by default):
an offer is one exchange, which the other worker answers ("accept",) or ("decline",) (its own
decision: the greedy bot accepts when its heuristic gains).  Offers are made
- on the worker's own turn, between actions (never during a fight, an anomaly or a discovery),
  at most `offers_per_turn` to each other worker a turn;
- off its turn (`off_turn`): when a turn ends, before the dice pass, every other worker that
  rests on a tile with another worker may make one offer, in turn order (a "trade window"
  decision: an offer or ("pass",)).  No worker is in a conflict then.
    ("offer", seat, give, get)  give, get: a gem colour 0-4, 5 for one oxygen, or
                                ("eq", slot) for an equipment card in that slot
        gem for gem (`gem_for_gem`): one gem of a colour for one of another colour;
        equipment (`equipment`): one of the offerer's equipment cards for one gem, or one gem
            for one of the other worker's revealed (face-up) equipment cards; a traded card is
            revealed (it changes hands on the table);
        gem for oxygen (`gem_for_oxygen`, off by default: RB:137 sets "Resource" apart from
            "Oxygen", and RB:141 trades "Resources/Equipment").
Both the offer and the answer are moves in the log.  Trades cost no energy.
"""

from __future__ import annotations

from .state import NC, apply, legal, task

OXYGEN = NC


def offer_options(s, seat: int, per_turn: bool = True) -> list[tuple]:
    """The offers `seat`'s worker may make to the workers on its tile (`per_turn`: within the
    turn's `offers_per_turn` to each)."""
    tr = s.rules.trading
    if not tr.enabled or not s.alive[seat]:
        return []
    cell = s.pos[seat]
    out = []
    mine = s.carry[seat * NC: seat * NC + NC]
    for t in range(s.n):
        if t == seat or not s.alive[t] or s.pos[t] != cell:
            continue
        if per_turn and s.offered.count(t) >= tr.offers_per_turn:
            continue
        theirs = s.carry[t * NC: t * NC + NC]
        if tr.gem_for_gem:
            out.extend(("offer", t, g, h) for g in range(NC) if mine[g]
                       for h in range(NC) if h != g and theirs[h])
        if tr.equipment:
            wanted = [h for h in range(NC) if theirs[h]]
            out.extend(("offer", t, ("eq", i), h) for i in range(len(s.equip[seat]))
                       for h in wanted)
            up = s.eq_up[t]
            out.extend(("offer", t, g, ("eq", j)) for g in range(NC) if mine[g]
                       for j in range(len(s.equip[t])) if up >> j & 1)
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
    s.phase = "actions" if seat == s.cur else "trade"
    if a[0] != "accept":
        return
    _move(s, seat, t, give)
    _move(s, t, seat, get)


def _move(s, frm: int, to: int, what) -> None:
    if isinstance(what, tuple):                    # ("eq", slot): an equipment card
        _hand_over(s, frm, to, what[1])
    elif what == OXYGEN:
        s.oxy[frm] -= 1
        s.oxy[to] += 1
    else:
        s.carry[frm * NC + what] -= 1
        s.carry[to * NC + what] += 1


def _hand_over(s, frm: int, to: int, slot: int) -> None:
    """The equipment card in `frm`'s `slot` goes to `to`, face up, with the uses left on it."""
    card, used = s.equip[frm][slot], s.eq_uses[frm][slot]
    s.equip[frm] = s.equip[frm][:slot] + s.equip[frm][slot + 1:]
    s.eq_uses[frm] = s.eq_uses[frm][:slot] + s.eq_uses[frm][slot + 1:]
    up = s.eq_up[frm]
    s.eq_up[frm] = (up & ((1 << slot) - 1)) | ((up >> (slot + 1)) << slot)
    if frm == s.cur:        # this turn's uses are kept by slot: the later slots move down
        mask = s.eq_turn
        s.eq_turn = (mask & ((1 << slot) - 1)) | ((mask >> (slot + 1)) << slot)
    s.equip[to] = s.equip[to] + (card,)
    s.eq_uses[to] = s.eq_uses[to] + (used,)
    s.eq_up[to] |= 1 << (len(s.equip[to]) - 1)
    s.refresh_mods(frm)
    s.refresh_mods(to)


# -- off the worker's turn: the trade window when a turn ends ---------------------------------------

@task("trade_window")
def trade_window(s, t) -> None:
    """After `active`'s turn, the other workers (from the next seat on, from the k-th) that rest
    on a tile with another worker may each make one offer."""
    _, active, k = t
    if not s.rules.trading.enabled or not s.rules.trading.off_turn or s.over:
        return
    for j in range(k, s.n):
        seat = (active + j) % s.n
        if offer_options(s, seat, per_turn=False):
            s.phase = "trade"
            s.stack.append(("window", seat, active, j))
            return


@legal("window")
def window_options(s, frame):
    return offer_options(s, frame[1], per_turn=False) + [("pass",)]


@apply("window")
def window(s, frame, a) -> None:
    _, seat, active, j = frame
    s.then(("trade_window", active, j + 1))
    if a[0] == "offer":
        _, t, give, get = a
        s.stack.append(("answer", t, seat, give, get))
