"""Test helpers for an excavation card's two decisions (RULES.md, "Small decisions: the
excavation in two steps"): the first offers an anchor per frontier space (or the one dig of an
anchor that has only one), the second the digs through the anchor chosen.  The rules tests
assert what a card may dig; these walk both decisions to list and to make a dig.

They never clone the state (a clone shares the players' records copy-on-write, which would
leave a test's `p = s.players[0]` behind at the next move): the second decision is listed with
its frame pushed for the moment, as applying the anchor pushes it."""

from __future__ import annotations


def second_decision(s, anchor: tuple) -> list[tuple]:
    """The legal list of the decision applying `anchor` (an `("anchor", cell)` of the
    excavation card on top of `s`) leads to."""
    frame = s.stack[-1]
    assert frame[0] == "excavate" and anchor in s.legal_actions()
    s.stack.append(("excavate_at", frame[1], frame[2], frame[3], anchor[1]))
    try:
        return s.legal_actions()
    finally:
        s.stack.pop()


def dig_actions(s) -> list[tuple]:
    """Every `("dig", mask)` the decision on top of `s` leads to: its own digs and, through each
    anchor it offers, the second decision's digs (two or more, digs only), anchors in order."""
    out = []
    for a in s.legal_actions():
        if a[0] == "dig":
            out.append(a)
        elif a[0] == "anchor":
            second = second_decision(s, a)
            assert len(second) >= 2 and all(b[0] == "dig" for b in second)
            out.extend(second)
    return out


def dig_masks(s) -> list[int]:
    return [a[1] for a in dig_actions(s)]


def apply_dig(s, mask: int) -> None:
    """Dig `mask` from the decision on top of `s`: at once when it is offered there, else
    through the anchor whose second decision offers it."""
    legal = s.legal_actions()
    if ("dig", mask) in legal:
        s.apply(("dig", mask))
        return
    for a in legal:
        if a[0] == "anchor" and ("dig", mask) in second_decision(s, a):
            s.apply(a)
            assert s.stack[-1][0] == "excavate_at"
            s.apply(("dig", mask))
            return
    raise AssertionError(f"no way to dig {mask:#x} from {s.stack[-1]}")
