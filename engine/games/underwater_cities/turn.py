"""The round, the turn and the eras (rulebook "Game Play", "A Round", "Action Slots and Card
Effects", "The Always-available Slot", "The Action-cloning Tile", "End of Turn", "End of
the Round", "End of the Era", "Hand Limit Summary").

A round: every player takes `turns_per_round` turns in the round's play order.  A turn:
discard down to the hand limit, play a card ("play", id), choose a slot ("slot", id), the
always-available slot ("always",) or, with 4 players, pay for the cloning tile and share a
slot another player holds ("clone", id); on a colour match choose whether the card or the
slot resolves first ("card_first",) / ("slot_first",) — never interleaved — then draw 1.
The round ends with the next play order from the Federation track; after the last round of
an era comes Production and the end of the era.
"""

from __future__ import annotations

from . import production, scoring
from .cards import dispose, resolve_card, take_from_hand
from .contracts import check_contracts
from .effects import effect_usable, push_effect
from .federation import next_order
from .payment import affordable, pay
from .state import UWCState
from .triggers import fire


def _t_discards(s, task):
    """Discard down to the hand limit (at the start of a turn and of each era)."""
    _t, seat, phase = task
    s.phase = phase
    p = s.players[seat]
    if len(p.hand) > s.hand_limit(p):
        s.stack.append(("discard", seat))


def _l_discard(s, frame):
    p = s.players[frame[1]]
    ids = s.st.card_id
    return sorted({("discard", ids[i]) for i in p.hand})


def _a_discard(s, frame, action):
    seat = frame[1]
    p = s.players[seat]
    dispose(s, take_from_hand(p, s.st.card_id, action[1]))
    if len(p.hand) > s.hand_limit(p):
        s.stack.append(("discard", seat))


def _t_round_start(s, task):
    s.phase = "actions"
    tasks = [("turn", seat) for _ in range(s.rules.game.turns_per_round) for seat in s.order]
    tasks.append(("round_end",))
    s.agenda.extend(reversed(tasks))


def _t_turn(s, task):
    seat = task[1]
    s.phase = "actions"
    s.turn = [seat, -1, -2, False, 0]
    p = s.players[seat]
    s.stack.append(("card", seat))
    if len(p.hand) > s.hand_limit(p):
        s.stack.append(("discard", seat))


# ---------------------------------------------------------------------------- the card
def _l_card(s, frame):
    p = s.players[frame[1]]
    if not p.hand:
        return [("no_card",)]
    ids = s.st.card_id
    return sorted({("play", ids[i]) for i in p.hand})


def _a_card(s, frame, action):
    seat = frame[1]
    p = s.players[seat]
    s.turn[1] = take_from_hand(p, s.st.card_id, action[1]) if action[0] == "play" else -1
    s.stack.append(("slot", seat))


# ---------------------------------------------------------------------------- the slot
def slot_options(s, seat: int) -> list[tuple]:
    """The slots `seat` may choose: unoccupied ones it can use at least in part, the
    always-available slot, and with the cloning tile a slot occupied by another player.
    With `switches.slot_after_card`, a slot of the played card's colour that the card,
    resolved first, would make usable is offered too (rulebook "Action Slots and Card
    Effects": "you may resolve the card's effect before or after you perform the slot's
    action"; "you are not allowed to choose an action slot without using at least part of
    its effect").  Likewise a slot of another colour is judged after the mismatch trigger
    (a permanent card's gain, paid when the slot is chosen, before it resolves: RB:413
    "triggered effects, which are resolved immediately")."""
    p = s.players[seat]
    slots = s.st.slots
    cloning = (s.n in s.rules.game.cloning_players and s.cloned < 0
               and affordable(p, s.rules.game.cloning_cost.vec()))
    inst = s.turn[1] if s.turn[0] == seat else -1
    colour = (s.st.cards[inst].colour
              if inst >= 0 and s.rules.switches.slot_after_card else None)
    mismatch = colour is not None and any(ab.kind == "on_mismatch" for _i, ab in p.abilities)
    free, clone_ids, later, other = set(), [], [], []
    for i, slot in enumerate(slots):
        occ = s.occ[i]
        if not occ:
            if effect_usable(s, p, slot.effect):
                free.add(i)
            elif slot.colour == colour:
                later.append(i)
            elif mismatch:
                other.append(i)
        elif cloning and seat not in occ:
            clone_ids.append(i)
    if later:
        free |= usable_after_card(s, seat, inst, later, False)
    if other:
        free |= usable_after_mismatch(s, seat, other, False)
    shared, later, other = set(), [], []
    if clone_ids:
        saved = p.res.copy()
        pay(p, s.rules.game.cloning_cost.vec())
        try:
            for i in clone_ids:
                if effect_usable(s, p, slots[i].effect):
                    shared.add(i)
                elif slots[i].colour == colour:
                    later.append(i)
                elif mismatch:
                    other.append(i)
        finally:
            p.res[:] = saved
        if later:
            shared |= usable_after_card(s, seat, inst, later, True)
        if other:
            shared |= usable_after_mismatch(s, seat, other, True)
    out = [("slot", slot.id) for i, slot in enumerate(slots) if i in free]
    out.append(("always",))
    out += [("clone", slot.id) for i, slot in enumerate(slots) if i in shared]
    return out


PROBE_BUDGET = 64     # decisions of the card's resolution explored (then: not usable)


def usable_after_card(s, seat: int, inst: int, candidates: list[int], cloning: bool) -> set:
    """The candidate slots (indices) that card `inst`, played on one of them (same colour)
    and resolved first, would leave usable at least in part: the card's resolution is
    played out on a copy (the match trigger, the Special card's payment, claiming, every
    decision of its effect), up to PROBE_BUDGET decisions."""
    root = s.clone(log=False)
    p = root.players[seat]
    if cloning:
        pay(p, s.rules.game.cloning_cost.vec())
    fire(root, p, "on_match", colour=s.st.cards[inst].colour)
    root.stack = []
    root.agenda = [("probe_end",), ("resolve_card", seat, inst)]
    root._advance()
    slots = s.st.slots
    found: set = set()
    todo = [root]
    budget = PROBE_BUDGET
    while todo and len(found) < len(candidates):
        st = todo.pop()
        if st.over:
            q = st.players[seat]
            found.update(i for i in candidates
                         if i not in found and effect_usable(st, q, slots[i].effect))
            continue
        for a in reversed(st.legal_actions()):
            if budget <= 0:
                break
            budget -= 1
            nxt = st.clone(log=False)
            nxt.apply(a)
            todo.append(nxt)
    return found


def usable_after_mismatch(s, seat: int, candidates: list[int], cloning: bool) -> set:
    """The candidate slots (indices, not of the card's colour) that the seat's mismatch
    triggers, paid when the slot is chosen (`_a_slot`), leave usable at least in part."""
    root = s.clone(log=False)
    p = root.players[seat]
    if cloning:
        pay(p, s.rules.game.cloning_cost.vec())
    fire(root, p, "on_mismatch")
    slots = s.st.slots
    return {i for i in candidates if effect_usable(root, p, slots[i].effect)}


def _t_probe_end(s, task):
    """The end of a card's resolution played out by `usable_after_card` (a copy)."""
    s.over = True


def _l_slot(s, frame):
    return slot_options(s, frame[1])


def slot_index(s, slot_id: str) -> int:
    for i, slot in enumerate(s.st.slots):
        if slot.id == slot_id:
            return i
    raise KeyError(slot_id)


def _a_slot(s, frame, action):
    seat = frame[1]
    p = s.players[seat]
    inst = s.turn[1]
    if action[0] == "always":
        i = -1
        colour = None
    else:
        i = slot_index(s, action[1])
        if action[0] == "clone":
            pay(p, s.rules.game.cloning_cost.vec())
            s.cloned = seat
        s.occ[i] += (seat,)
        colour = s.st.slots[i].colour
    s.turn[2] = i
    card = s.st.cards[inst] if inst >= 0 else None
    match = card is not None and colour is not None and card.colour == colour
    s.turn[3] = match
    if match:
        fire(s, p, "on_match", colour=colour)
        if effect_usable(s, p, s.st.slots[i].effect):
            s.stack.append(("order", seat))
        else:   # chosen because the card, resolved first, makes it usable
            _a_order(s, ("order", seat), ("card_first",))
        return
    if inst >= 0:
        dispose(s, inst)
        if colour is not None:
            fire(s, p, "on_mismatch")
    s.agenda.append(("end_turn", seat))
    s.agenda.append(("resolve_slot", seat, i))


def _l_order(s, frame):
    return [("card_first",), ("slot_first",)]


def _a_order(s, frame, action):
    seat = frame[1]
    i, inst = s.turn[2], s.turn[1]
    s.agenda.append(("end_turn", seat))
    if action[0] == "card_first":
        s.agenda.append(("resolve_slot", seat, i))
        s.agenda.append(("resolve_card", seat, inst))
    else:
        s.agenda.append(("resolve_card", seat, inst))
        s.agenda.append(("resolve_slot", seat, i))


def _t_resolve_slot(s, task):
    _t, seat, i = task
    effect = s.rules.game.always_slot if i < 0 else s.st.slots[i].effect
    push_effect(s, seat, effect, "slot" if i >= 0 else "always")


def _t_resolve_card(s, task):
    resolve_card(s, task[1], task[2])


def _t_end_turn(s, task):
    """"At the end of your turn you always draw 1 card.\""""
    seat = task[1]
    p = s.players[seat]
    s.draw(p, s.rules.game.turn_draw)
    check_contracts(s, p)
    s.turns_done += 1
    s.turn = [-1, -1, -2, False, 0]


# ---------------------------------------------------------------------------- round and era
def _t_round_end(s, task):
    """Return the tiles, reorder from the Federation track, markers below the track, advance
    the era marker; Production after the era's last round."""
    s.occ = [() for _ in s.occ]
    s.cloned = -1
    s.order = next_order(s)
    s.tie_order = s.order.copy()
    for p in s.players:
        p.fed = 0
    if s.round in s.st.era_end_rounds:
        last = s.round >= s.st.rounds
        tasks = [("production",), ("final_scoring",) if last else ("era_end",)]
        s.agenda.extend(reversed(tasks))
    else:
        s.round += 1
        s.agenda.append(("round_start",))


def _t_production(s, task):
    s.phase = "production"
    for seat in s.order:
        production.produce(s, s.players[seat])
    for seat in s.order:
        production.feed(s, s.players[seat])
    for seat in s.order:
        check_contracts(s, s.players[seat])


def _t_era_end(s, task):
    """Restore the action cards, remove the old era's deck and discards, the next era's
    deck, draw `era_draw` and keep the hand limit (rulebook "End of the Era")."""
    for p in s.players:
        p.used = frozenset()
    old = s.era
    s.box_known.extend(s.discard)
    s.discard = []
    s.box_hidden.extend(s.decks[old])
    s.decks[old] = []
    s.era = old + 1
    s.round += 1
    s.phase = "era_change"
    for seat in s.order:
        s.draw(s.players[seat], s.rules.game.era_draw)
    tasks = [("discards", seat, "era_change") for seat in s.order]
    tasks.append(("round_start",))
    s.agenda.extend(reversed(tasks))


def _t_final_scoring(s, task):
    s.phase = "final_scoring"
    scoring.final_scoring(s)
    s.over = True
    s.ended_by = "game_end"
    s.stack.clear()


UWCState.LEGAL.update(discard=_l_discard, card=_l_card, slot=_l_slot, order=_l_order)
UWCState.APPLY.update(discard=_a_discard, card=_a_card, slot=_a_slot, order=_a_order)
UWCState.TASKS.update(discards=_t_discards, round_start=_t_round_start, turn=_t_turn,
                      resolve_slot=_t_resolve_slot, resolve_card=_t_resolve_card,
                      end_turn=_t_end_turn, round_end=_t_round_end, production=_t_production,
                      era_end=_t_era_end, final_scoring=_t_final_scoring,
                      probe_end=_t_probe_end)
