"""Move-log text: (action, detail, cell) for each decision, for the moves table and Replay."""

from __future__ import annotations

from .board import bits


def describe(s, action, frame=None) -> tuple[str, str, int | None]:
    """(action, detail, cell) for the move log and replays."""
    frame = frame or (s.stack[-1] if s.stack else ("", -1))
    kind = action[0]
    board = s.static.board
    if kind == "dig":
        cells = list(bits(action[1]))
        what = frame[2] if len(frame) > 2 else ""
        name = "excavate" if frame[0] == "excavate" else "excavate_space"
        labels = s.static.labels
        return name, f"{what} " + " ".join([labels[c] for c in cells]), cells[0]
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
