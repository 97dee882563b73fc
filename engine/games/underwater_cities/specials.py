"""Taking a Special card (rulebook "Drawing Special Cards"): a face-up 3-credit card (not
replaced), or the top card of the 1-2-credit deck (face up, so every player knows it), or
move the top card to the bottom, look at the next 3, keep 1 (only you know which) and return
the other 2 to the bottom (in the order drawn: assumed, RULES.md)."""

from __future__ import annotations

from .state import UWCState
from .triggers import fire


def _l_special(s, frame):
    ids = s.st.card_id
    out = sorted({("take", ids[i]) for i in s.sface})
    if s.sdeck:
        out.append(("top",))
    if len(s.sdeck) >= 2:
        out.append(("look",))
    return out


def _a_special(s, frame, action):
    seat = frame[1]
    p = s.players[seat]
    ids = s.st.card_id
    if action[0] == "take":
        inst = min(i for i in s.sface if ids[i] == action[1])
        s.sface.remove(inst)
        _keep(s, p, inst, public=True)
    elif action[0] == "top":
        _keep(s, p, s.sdeck.pop(), public=True)
    else:
        deck = s.sdeck
        deck.insert(0, deck.pop())
        seen = []
        for _ in range(min(3, len(deck) - 1)):
            seen.append(deck.pop())
        s.stack.append(("special_keep", seat, tuple(seen)))


def _keep(s, p, inst: int, public: bool) -> None:
    p.hand.append(inst)
    p.hand.sort()
    if public:
        p.public = p.public | {inst}
    fire(s, p, "on_special")


def _l_special_keep(s, frame):
    ids = s.st.card_id
    return sorted({("keep", ids[i]) for i in frame[2]})


def _a_special_keep(s, frame, action):
    seat, seen = frame[1], frame[2]
    ids = s.st.card_id
    inst = next(i for i in seen if ids[i] == action[1])
    for other in seen:
        if other != inst:
            s.sdeck.insert(0, other)
    _keep(s, s.players[seat], inst, public=False)


UWCState.LEGAL.update(special=_l_special, special_keep=_l_special_keep)
UWCState.APPLY.update(special=_a_special, special_keep=_a_special_keep)
