"""The turn and the round (rulebook "Gameplay Overview", "Start of Your Turn" 1-3, "Rounds &
End of the Game"): the agenda of tasks a round runs, the start of a turn (income, take back,
turn over the buildings built last turn), the orders (orders.py) and the postponed ones,
clean-up, the round end and the turn die."""

from __future__ import annotations

from . import focus, scoring
from .flip import flip
from .orders import do_order, do_support
from .payment import MONEY, gain_track
from .rules import PLAYER_COUNTS
from .specialists import take_back


def _t_round_start(s, task) -> None:
    s.phase = "turn"
    s.star_round = False
    tasks = []
    for seat in s.turn_order():
        tasks += [("turn", seat), ("card", seat), ("orders", seat), ("postponed", seat),
                  ("late_support", seat), ("end_turn", seat)]
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
    take_back(s, p)
    p.used.discard("pt_trade")           # once per round (= once in each of one's turns)
    # 3. Turn over and activate the buildings built last turn.
    flip(s, p)
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


def _t_postponed(s, task) -> None:
    """The orders chosen but postponed ("Some of the actions can be postponed to the end of a
    player's turn"), carried out after the last order, in the order chosen."""
    p = s.players[task[1]]
    if not p.postponed:
        return
    (r, k), p.postponed = p.postponed[0], p.postponed[1:]
    if p.postponed:
        s.agenda.append(("postponed", p.seat))
    s.claim_missions(p)
    do_order(s, p, s.st.cards[p.slot].rows[r][k])


def _t_late_support(s, task) -> None:
    p = s.players[task[1]]
    if p.support_pending:
        do_support(s, p)


def _t_end_turn(s, task) -> None:
    """Clean up: missions claimed, the card to the discard, missions and cards refilled."""
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


def max_rounds(rules) -> int:
    return max(rules.turn_die.track_rounds[str(n)] for n in PLAYER_COUNTS
               if str(n) in rules.turn_die.track_rounds)


TASKS = {"round_start": _t_round_start, "turn": _t_turn, "card": _t_card, "orders": _t_orders,
         "postponed": _t_postponed, "late_support": _t_late_support, "end_turn": _t_end_turn,
         "round_end": _t_round_end}
