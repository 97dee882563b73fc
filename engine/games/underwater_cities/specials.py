"""Taking a Special card (rulebook "Drawing Special Cards"): a face-up 3-credit card (not
replaced), or the top card of the 1-2-credit deck (face up, so every player knows it), or
move the top card to the bottom, look at the next 3, keep 1 (only you know which) and return
the other 2 to the bottom "in either order": ("keep", kept, last) names the card kept and the
one that goes to the very bottom.  Taking one may be skipped ("It is legal to use only part of
an action or card effect")."""

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
    out.append(("skip",))    # "It is legal to use only part of an action or card effect"
    return out


def _a_special(s, frame, action):
    seat = frame[1]
    p = s.players[seat]
    ids = s.st.card_id
    if action[0] == "skip":
        return
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
    """"Choose one of these 3 to keep and return the other 2 to the bottom of the deck in
    either order": the card kept and the one placed at the very bottom ("" if none)."""
    ids = s.st.card_id
    seen = frame[2]
    out = set()
    for k, i in enumerate(seen):
        others = seen[:k] + seen[k + 1:]
        out |= {("keep", ids[i], ids[o]) for o in others} if others else {("keep", ids[i], "")}
    return sorted(out)


def _a_special_keep(s, frame, action):
    seat, seen = frame[1], frame[2]
    ids = s.st.card_id
    _, kept, last = action
    inst = next(i for i in seen if ids[i] == kept)
    others = [i for i in seen if i != inst]
    if others:
        bottom = next(i for i in others if ids[i] == last)
        for other in others:
            if other != bottom:
                s.sdeck.insert(0, other)
        s.sdeck.insert(0, bottom)                # the very bottom
    _keep(s, s.players[seat], inst, public=False)


UWCState.LEGAL.update(special=_l_special, special_keep=_l_special_keep)
UWCState.APPLY.update(special=_a_special, special_keep=_a_special_keep)
