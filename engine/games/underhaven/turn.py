"""The turn and the round (rulebook "Gameplay Overview", "Start of Your Turn" 1-4, "The Right
Side Bonus", "Activate your Corporation", "Rounds & End of the Game"): the agenda of tasks a
round runs, the start of a turn (income, take back, turn over the buildings built last turn),
the card choice, the orders and the support, clean-up, the round end and the turn die."""

from __future__ import annotations

from . import focus, scoring
from .activate import ACT_KINDS, start_activation
from .build import start_build
from .corp import do_loan, loan_actions, loan_options, start_corp
from .move import start_move
from .payment import MONEY, gain_track, largest_track
from .rules import PLAYER_COUNTS
from .trade import start_trade


def _t_round_start(s, task) -> None:
    s.phase = "turn"
    s.star_round = False
    tasks = []
    for seat in s.turn_order():
        tasks += [("turn", seat), ("card", seat), ("orders", seat), ("late_support", seat),
                  ("end_turn", seat)]
    tasks.append(("round_end",))
    s.agenda = tasks[::-1]


def _t_turn(s, task) -> None:
    """Start of your turn, steps 1-3."""
    p = s.players[task[1]]
    g = s.rules.game
    mods = s.rules.modules
    # 1. The turn die reward and 1 Money per building (finished or not).
    s.gain(p, s.die_face())
    n_b = s.owner.count(p.seat)
    if n_b:
        p.res[MONEY], p.pt = gain_track(p.res[MONEY], p.pt, n_b * g.income_per_building, g.pt_value)
    if mods.reputational_income and mods.focus:
        s.score(p, "focus", g.focus_income_rep * focus.focus_adjacent_rivals(s, p.seat))
    # 2. Take back professionals, specialists and consultants.
    p.pros_free = g.professionals
    for sid in [k for k, v in s.occ.items() if v == p.seat]:
        del s.occ[sid]
    p.cons_free = p.consultants
    p.cons_landed = []
    p.spec_home += p.spec_busy
    p.spec_busy = 0
    for owner in p.hired:
        o = s.players[owner]
        o.spec_home += 1
        o.hired_out -= 1
    p.hired = []
    for k in p.supers:
        s.super_holder[k] = -1
        s.super_die[k] = min(6, s.super_die[k] + 1)
    p.supers = []
    p.turn_colours = set()
    p.used.discard("skip_specialist")    # once per turn
    p.used.discard("pt_trade")           # once per round (= once in each of one's turns)
    # 3. Turn over and activate the buildings built last turn.
    for sp in p.unfinished:
        s.done[sp] = True
        b = s.st.b[s.bld[sp]]
        s.score(p, "buildings", b.rep)
        if b.activation == "one_time":
            if b.specialist_gain:
                s.stack.append(("gain_spec", p.seat, b.specialist_gain))
            if b.units:
                s.stack.append(("unit", p.seat, b.units, sp))
        if b.free_arrangement:
            p.university = True
    p.unfinished = []
    s.claim_missions(p)


def _t_card(s, task) -> None:
    p = s.players[task[1]]
    if len(p.hand) < 2:
        p.hand += p.discard
        p.discard = []
    s.stack.append(("card", p.seat))


def _t_orders(s, task) -> None:
    p = s.players[task[1]]
    if p.markers > 0:
        s.stack.append(("order", p.seat))


def _t_late_support(s, task) -> None:
    p = s.players[task[1]]
    if p.support_pending:
        _do_support(s, p)


def _t_end_turn(s, task) -> None:
    p = s.players[task[1]]
    s.claim_missions(p)
    if p.slot is not None:
        p.discard.append(p.slot)
        p.slot = None
    p.markers = 0
    p.used_slots = ()
    s.refill()


def _t_round_end(s, task) -> None:
    if s.die_left <= 0:
        s.phase = "final"
        scoring.final_scoring(s)
        s.over = True
        s.ended_by = "turn_die_stars" if s.round < s.rules.turn_die.track_rounds[str(s.n)] else "turn_die"
        return
    if not s.star_round:
        s.roll_die()
    s.first_seat = s.next_first if s.next_first >= 0 else (s.first_seat + 1) % s.n
    s.next_first = -1
    s.round += 1
    s.agenda = [("round_start",)]


def _l_unit(s, frame):
    p = s.players[frame[1]]
    g = s.rules.game
    out = []
    if len(p.workers) < g.max_workers:
        out.append(("worker",))
    if p.consultants < g.max_consultants:
        out.append(("consultant",))
    return out or [("none",)]


def _a_unit(s, frame, action):
    p = s.players[frame[1]]
    if action[0] == "worker":
        p.workers.append(frame[3])
    elif action[0] == "consultant":
        p.consultants += 1
        p.cons_free += 1
    if frame[2] > 1 and action[0] != "none":
        s.stack.append(("unit", frame[1], frame[2] - 1, frame[3]))


def _l_card(s, frame):
    return [("card", c) for c in sorted(set(s.players[frame[1]].hand))]


def _a_card(s, frame, action):
    p = s.players[frame[1]]
    p.hand.remove(action[1])
    p.secret.discard(action[1])
    p.slot = action[1]
    s.score(p, "cards", s.st.cards[action[1]].play_rep)   # "From Activation cards"
    p.markers = 3
    p.used_slots = ()
    p.support_pending = True


def free_arrangement(p) -> bool:
    return p.university or p.ability == "free_arrangement"


def open_slots(p) -> list[tuple[int, int]]:
    """The (row, side) orders the markers may still take: one per row in row order, or any
    uncovered order with the University / the free-arrangement ability."""
    if p.markers <= 0:
        return []
    if free_arrangement(p):
        return [(r, k) for r in range(3) for k in range(2) if (r, k) not in p.used_slots]
    row = 3 - p.markers
    return [(row, 0), (row, 1)]


def _l_order(s, frame):
    p = s.players[frame[1]]
    if free_arrangement(p):              # the same order in two open slots: one option
        rows = s.st.cards[p.slot].rows
        out = []
        seen = set()
        for r, k in open_slots(p):
            key = (rows[r][k].kind, rows[r][k].gain)
            if key not in seen:
                seen.add(key)
                out.append(("order", r, k))
    else:
        out = [("order", r, k) for r, k in open_slots(p)]
    if p.support_pending:
        out.append(("support",))
    if s.rules.modules.corp_locations:
        out += loan_options(s, p)
    if p.ability == "pt_trade" and "pt_trade" not in p.used and sum(p.res) >= s.ability_value("pt_trade"):
        out.append(("pt_trade",))
    return out


def _a_order(s, frame, action):
    p = s.players[frame[1]]
    s.claim_missions(p)
    if action[0] == "support":
        if p.markers > 0:
            s.stack.append(("order", p.seat))
        _do_support(s, p)
        return
    if action[0] == "pt_trade":
        p.used.add("pt_trade")
        for _ in range(s.ability_value("pt_trade")):
            i = largest_track(p.res)
            p.res[i] -= 1
        p.pt += 1
        s.stack.append(("order", p.seat))
        return
    if action[0] in ("loan", "repay"):
        _cover(p, loan_actions(s, action))
        do_loan(s, p, action)
        if p.markers > 0:
            s.stack.append(("order", p.seat))
        return
    r, k = action[1], action[2]
    p.markers -= 1
    p.used_slots = p.used_slots + ((r, k),)
    if p.markers > 0:
        s.stack.append(("order", p.seat))
    do_order(s, p, s.st.cards[p.slot].rows[r][k])


def _cover(p, n: int) -> None:
    """Spend `n` activation markers without an order (the next open orders are covered)."""
    for _ in range(n):
        slots = open_slots(p)
        if not slots:
            return
        p.markers -= 1
        p.used_slots = p.used_slots + (slots[0],)


def _do_support(s, p) -> None:
    p.support_pending = False
    do_order(s, p, s.st.cards[p.slot].support)


def do_order(s, p, order) -> None:
    """Carry out one order (or a support): a gain at once, or the action's own decisions."""
    kind = order.kind
    if kind == "gain":
        s.gain(p, order.gain)
    elif kind == "move":
        start_move(s, p)
    elif kind in ACT_KINDS:
        start_activation(s, p, kind)
    elif kind == "trade":
        start_trade(s, p)
    elif kind == "build":
        start_build(s, p)
    elif kind == "corp":
        start_corp(s, p)


def max_rounds(rules) -> int:
    return max(rules.turn_die.track_rounds[str(n)] for n in PLAYER_COUNTS
               if str(n) in rules.turn_die.track_rounds)


TASKS = {"round_start": _t_round_start, "turn": _t_turn, "card": _t_card, "orders": _t_orders,
         "late_support": _t_late_support, "end_turn": _t_end_turn, "round_end": _t_round_end}
LEGAL = {"unit": _l_unit, "card": _l_card, "order": _l_order}
APPLY = {"unit": _a_unit, "card": _a_card, "order": _a_order}
