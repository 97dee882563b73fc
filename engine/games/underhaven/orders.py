"""The card and its orders (rulebook "Start of Your Turn" 4, "The Right Side Bonus", "Activate
your Corporation"): the activation card chosen, one order per row in row order (any three
with the University), the right-side support at any time, orders postponed to the end of the
turn, and what else an order may be spent on (the starting-player location, a loan) or what
may be done between orders (the "3 resources for 1 PT" ability)."""

from __future__ import annotations

from itertools import combinations_with_replacement

from .activate import ACT_KINDS, start_activation
from .build import start_build
from .corp import do_loan, loan_actions, loan_options, start_corp
from .move import start_move
from .payment import TRACKS, pt_trade_ok
from .trade import first_player_space, place_pro, start_trade

PT_TRADE_KINDS = TRACKS + ("tg", "energy")     # "any 3 resources" (power tokens excluded)


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
    p.postponed = ()
    p.support_pending = True
    if s.st.cards[action[1]].support.kind == "free_specialist":
        do_support(s, p)     # a permission for the whole turn: never worse taken at once


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


def may_postpone(s, order) -> bool:
    """"Some of the actions can be postponed to the end of a player's turn ... The Build
    action takes the longest time" (`readings.postpone`: any action, only Build, none).  A
    gain is no action: it is never postponed."""
    reading = s.rules.readings.postpone
    if reading == "any":
        return order.kind not in ("gain", "free_specialist")
    return reading == "build" and order.kind == "build"


def slot_options(s, p) -> list[tuple]:
    """The orders of the card in the console that the markers may take now, carried out at
    once ("order") or postponed ("postpone"); the same order in two open slots is one option."""
    rows = s.st.cards[p.slot].rows
    if free_arrangement(p):              # the same order in two open slots: one option
        seen = set()
        slots = []
        for r, k in open_slots(p):
            key = (rows[r][k].kind, rows[r][k].gain)
            if key not in seen:
                seen.add(key)
                slots.append((r, k))
    else:
        slots = open_slots(p)
    out = [("order", r, k) for r, k in slots]
    out += [("postpone", r, k) for r, k in slots if may_postpone(s, rows[r][k])]
    return out


def _l_order(s, frame):
    p = s.players[frame[1]]
    # slot_options is a function of the card, the markers left, the orders covered and the
    # arrangement rule: remembered per rules (`Static.slot_options`)
    key = (p.slot, p.markers, p.used_slots, free_arrangement(p))
    known = s.st.slot_options.get(key)
    if known is None:
        known = s.st.slot_options[key] = tuple(slot_options(s, p))
    out = list(known)
    if p.support_pending:
        out.append(("support",))
    if _first_player_ok(s, p):
        out.append(("first_player",))
    if s.rules.modules.corp_locations:
        out += loan_options(s, p)
    if pt_trade_ok(s, p):
        out.append(("pt_trade",))
    return out


def _first_player_ok(s, p) -> bool:
    """"Any player can become the starting player, using any activation, by placing their
    Professional in the Starting player location" (`readings.first_player =
    "any_activation"`: an order spent on it; "trade": a Trade space only)."""
    if s.rules.readings.first_player != "any_activation" or p.markers <= 0 or p.pros_free <= 0:
        return False
    sid = first_player_space(s)
    return sid is not None and s.occ.get(sid) != p.seat


def _a_order(s, frame, action):
    p = s.players[frame[1]]
    s.claim_missions(p)
    kind = action[0]
    if kind == "support":
        if p.markers > 0:
            s.stack.append(("order", p.seat))
        do_support(s, p)
        return
    if kind == "pt_trade":
        s.stack.append(("order", p.seat))
        s.stack.append(("pt_trade", p.seat))
        return
    if kind in ("loan", "repay", "first_player"):
        if kind == "first_player":
            _cover(p, 1)
            place_pro(s, p, first_player_space(s))
            s.next_first = p.seat
        else:
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
    if kind == "postpone":
        p.postponed = p.postponed + ((r, k),)
    else:
        do_order(s, p, s.st.cards[p.slot].rows[r][k])


def _cover(p, n: int) -> None:
    """Spend `n` activation markers without an order (the next open orders are covered)."""
    for _ in range(n):
        slots = open_slots(p)
        if not slots:
            return
        p.markers -= 1
        p.used_slots = p.used_slots + (slots[0],)


# "You can lose any 3 resources in exchange for 1 PT once per round" (RB:292) names no
# timing: besides the `order` decision it is offered at the player's decisions where a
# payment is chosen: a Build's building (a postponed one included), a Trade or Corp space and
# its repetition (`again`), and the Low Light Pub's deal (`pub`, paid in power tokens).
# decisions.py wraps these kinds with the two functions below.
PT_TRADE_AT = ("build", "trade", "corp", "again", "pub")


def offer_pt_trade(legal):
    """`legal` of a decision in PT_TRADE_AT, with the ability's `pt_trade` option."""
    def with_pt_trade(s, frame):
        out = legal(s, frame)
        return out + [("pt_trade",)] if pt_trade_ok(s, s.players[frame[1]]) else out
    return with_pt_trade


def take_pt_trade(apply):
    """`apply` of a decision in PT_TRADE_AT: `pt_trade` trades first, then the same
    decision comes back (its options now with the power token)."""
    def or_pt_trade(s, frame, action):
        if action[0] != "pt_trade":
            return apply(s, frame, action)
        s.stack.append(frame)
        s.stack.append(("pt_trade", frame[1]))
    return or_pt_trade


def _l_pt_trade(s, frame):
    """"You can lose any 3 resources in exchange for 1 PT once per round": which three (the
    basic tracks, trade goods, energy; one decision)."""
    p = s.players[frame[1]]
    have = {"money": p.res[0], "food": p.res[1], "material": p.res[2], "tg": p.tg,
            "energy": p.energy}
    n = s.ability_value("pt_trade")
    out = []
    for combo in combinations_with_replacement(PT_TRADE_KINDS, n):
        if all(combo.count(k) <= have[k] for k in set(combo)):
            out.append(("lose",) + combo)
    return out


def _a_pt_trade(s, frame, action):
    p = s.players[frame[1]]
    p.used.add("pt_trade")
    for k in action[1:]:
        if k == "tg":
            p.tg -= 1
        elif k == "energy":
            p.energy -= 1
        else:
            p.res[TRACKS.index(k)] -= 1
    p.pt += 1


def do_support(s, p) -> None:
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
    elif kind == "free_specialist":      # "Use a Player's Specialist for free"
        p.free_hires += 1


LEGAL = {"card": _l_card, "order": _l_order, "pt_trade": _l_pt_trade}
APPLY = {"card": _a_card, "order": _a_order, "pt_trade": _a_pt_trade}
