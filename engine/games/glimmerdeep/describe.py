"""Move-log text: (action, detail, cell) for each decision, for the moves table and Replay."""

from __future__ import annotations

from .board import bits


def describe(s, action, frame=None) -> tuple[str, str, int | None]:
    """(action, detail, cell) for the move log and replays."""
    frame = frame or (s.stack[-1] if s.stack else ("", -1))
    kind = action[0]
    board = s.static.board
    if kind == "dig":   # the spaces' labels, lowest space first (`bits`, inlined)
        labels = s.static.labels
        mask = action[1]
        if not mask:
            raise ValueError("a dig of no space")
        low = mask & -mask
        first = low.bit_length() - 1
        names = [labels[first]]
        mask ^= low
        while mask:
            low = mask & -mask
            names.append(labels[low.bit_length() - 1])
            mask ^= low
        what = frame[2] if len(frame) > 2 else ""
        name = "excavate_space" if frame[0] == "space" else "excavate"
        return name, f"{what} " + " ".join(names), first
    if kind == "anchor":
        # The first of a card's two decisions (excavation.py): a space the card will dig, the
        # placement chosen next.  Logged as the card's excavation (the same option keys as its
        # digs, so what a decision offered reads as before) at no cell: no space is dug yet.
        return "excavate", f"{frame[2]} from {s.static.labels[action[1]]}", None
    if kind == "skip":
        return "skip", str(frame[2]) if len(frame) > 2 else "", None
    if kind == "build":
        cid = s.market[action[1]][action[2]] if action[2] >= 0 else "deck top"
        return "choose_building", f"{action[1]} slot {action[2]} {cid}", None
    if kind == "site":
        if action[1] & ~board.full:  # off the map: the Deepdelvers' faction sheet
            return "construct", f"{frame[2]} on the faction sheet {action[2]}".strip(), None
        cells = list(bits(action[1]))
        return "construct", f"{frame[2]} at {board.xy(cells[0])[0]},{board.xy(cells[0])[1]} {action[2]}".strip(), cells[0]
    if kind == "activate":
        return "activate", action[1], None
    if kind == "trait":
        return "trait", f"level {frame[2]} {action[1]}", None
    return kind, " ".join(str(a) for a in action[1:]), None
