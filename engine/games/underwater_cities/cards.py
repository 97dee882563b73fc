"""Cards (rulebook "Cards"): instant effects, claiming, permanent, action, production and
end-scoring cards, the Limit of Four, the Personal Assistant, Special cards' costs and where
every card goes when it leaves a hand.

- A matching instant card resolves, then goes to the discard pile (a paid instant Special
  card goes under the player board).  A matching card of another type is claimed.
- Action cards: one use per era each (rotated), at most `game.action_card_limit` of them
  counting the Personal Assistant; claiming one more first discards one (a decision, or
  decline the new card); discarding one still available lets you use it at once.
- A Special card takes effect only if its cost is paid (a decision); unpaid, mismatched or
  discarded, a 1-2-credit one goes to the bottom of its deck, a 3-credit one leaves the game.
"""

from __future__ import annotations

from .effects import effect_usable, push_effect
from .state import UWCState


def dispose(s, inst: int) -> None:
    """Where a card goes when it is discarded or not kept (rulebook "Discarding Special
    Cards", "End of the Era" step 4)."""
    st = s.st
    era = st.era_of[inst]
    if era == 0:
        if st.cards[inst].cost >= 3:
            s.sbox.append(inst)
        else:
            s.sdeck.insert(0, inst)      # the bottom of the Special deck
    elif era == s.era:
        s.discard.append(inst)
    else:   # a past era's card ("returned to that era's deck": out of the game), or the
        s.box_known.append(inst)         # Personal Assistant


def take_from_hand(p, ids, cid: str) -> int:
    """Remove the first card with id `cid` from the hand."""
    for k, inst in enumerate(p.hand):
        if ids[inst] == cid:
            del p.hand[k]
            p.public = p.public - {inst}
            return inst
    raise KeyError(cid)


def resolve_card(s, seat: int, inst: int) -> None:
    """A card played on a matching slot: pay a Special card's cost (a decision), then its
    effect or claim."""
    st = s.st
    p = s.players[seat]
    card = st.cards[inst]
    if st.special[inst]:
        if p.res[0] >= card.cost:
            s.stack.append(("pay_special", seat, inst))
        else:
            dispose(s, inst)
        return
    apply_card(s, seat, inst)


def apply_card(s, seat: int, inst: int) -> None:
    st = s.st
    p = s.players[seat]
    card = st.cards[inst]
    t = card.type
    if t == "instant":
        if st.special[inst]:
            p.under = p.under + (inst,)
        else:
            dispose(s, inst)
        push_effect(s, seat, card.effect, "card")
    elif t == "action":
        if len(p.actions) >= s.rules.game.action_card_limit:
            s.stack.append(("limit", seat, inst))
        else:
            p.actions = p.actions + (inst,)
    else:
        p.claimed = p.claimed + (inst,)
        if t == "permanent":
            ab = card.ability
            p.abilities = p.abilities + ((inst, ab),)
            if ab.kind == "hand_limit":
                p.hand_bonus += ab.amount


def _l_pay_special(s, frame):
    return [("pay",), ("decline",)]


def _a_pay_special(s, frame, action):
    _k, seat, inst = frame
    if action[0] == "decline":
        dispose(s, inst)
        return
    p = s.players[seat]
    p.res[0] -= s.st.cards[inst].cost
    p.specials_paid += 1
    apply_card(s, seat, inst)


# ---------------------------------------------------------------------------- action cards
def available_actions(p) -> list[int]:
    return [i for i in p.actions if i not in p.used]


def usable_actions(s, p, depth: int = 0) -> list[int]:
    """Available action cards whose effect can be used at least in part."""
    if depth > 1:
        return available_actions(p)
    cards = s.st.cards
    return [i for i in p.actions if i not in p.used
            and effect_usable(s, p, cards[i].effect, depth + 1)]


def _l_use_action(s, frame):
    p = s.players[frame[1]]
    ids = s.st.card_id
    return sorted({("use", ids[i]) for i in usable_actions(s, p)}) + [("skip",)]


def _a_use_action(s, frame, action):
    if action[0] == "skip":
        return
    _k, seat, left, src = frame
    p = s.players[seat]
    ids = s.st.card_id
    inst = min(i for i in usable_actions(s, p) if ids[i] == action[1])
    if left > 1:
        s.stack.append(("use_action", seat, left - 1, src))
    use_action(s, seat, inst)


def use_action(s, seat: int, inst: int) -> None:
    p = s.players[seat]
    p.used = p.used | {inst}
    push_effect(s, seat, s.st.cards[inst].effect, "action")


def _l_limit(s, frame):
    """Limit of Four: discard one of the action cards (used or not) to claim the new one, or
    do not claim it."""
    p = s.players[frame[1]]
    ids = s.st.card_id
    opts = sorted({("drop", ids[i], int(i in p.used)) for i in p.actions})
    return opts + [("decline",)]


def _a_limit(s, frame, action):
    _k, seat, inst = frame
    p = s.players[seat]
    if action[0] == "decline":
        if s.st.special[inst]:
            # Paid for, then not kept: like a dropped one, it does not count (facts sheet
            # section 3, brown tile 4; RB:170 a paid card is one "you keep").
            p.specials_paid -= 1
        dispose(s, inst)
        return
    ids = s.st.card_id
    _, cid, was_used = action
    old = min(i for i in p.actions if ids[i] == cid and int(i in p.used) == was_used)
    p.actions = tuple(i for i in p.actions if i != old)
    p.used = p.used - {old}
    if s.st.special[old]:
        # A claimed Special card was paid for; dropped, it no longer counts (facts sheet
        # section 3, brown tile 4: "It excludes Special action cards that were discarded").
        p.specials_paid -= 1
    dispose(s, old)
    p.actions = p.actions + (inst,)
    if not was_used and effect_usable(s, p, s.st.cards[old].effect):
        s.stack.append(("use_dropped", seat, old))


def _l_use_dropped(s, frame):
    """"If you make room for a new action card by discarding one that is available, you may
    immediately use the discarded action.\""""
    return [("use",), ("skip",)]


def _a_use_dropped(s, frame, action):
    if action[0] == "use":
        push_effect(s, frame[1], s.st.cards[frame[2]].effect, "action")


UWCState.LEGAL.update(pay_special=_l_pay_special, use_action=_l_use_action, limit=_l_limit,
                      use_dropped=_l_use_dropped)
UWCState.APPLY.update(pay_special=_a_pay_special, use_action=_a_use_action, limit=_a_limit,
                      use_dropped=_a_use_dropped)
