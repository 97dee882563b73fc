"""The move log's text (rulebook vocabulary): (action, detail, cell) for each decision."""

from __future__ import annotations

from .build import build_mode


def describe(s, action, frame=None) -> tuple[str, str, int | None]:
    """(action, detail, cell) for the move log and replays.  The text of the most frequent
    decisions is a function of what the key below names, so it is worked out once per key and
    rules (`Static.said`): an order of the card in the console, a step of a worker, a card."""
    frame = frame or (s.stack[-1] if s.stack else ("", -1))
    f = frame[0]
    if f == "order":
        key = (f, s.players[frame[1]].slot, action)
    elif f == "card" or (f == "move" and action[0] != "fly"):
        key = (f, action)
    else:
        return said(s, action, frame)
    hit = s.st.said.get(key)
    if hit is None:
        hit = s.st.said[key] = said(s, action, frame)
    return hit


def said(s, action, frame) -> tuple[str, str, int | None]:
    """(action, detail, cell) of `action` at decision `frame`, worked out."""
    f = frame[0]
    k = action[0]
    if k == "pt_trade":                  # the ability, offered at several decisions
        return k, "", None
    if f == "order":
        if k in ("order", "postpone"):     # chosen now; a postponed one is carried out last
            o = s.st.cards[s.players[frame[1]].slot].rows[action[1]][action[2]]
            return k, f"row {action[1] + 1} {o.kind}", None
        return k, " ".join(map(str, action[1:])), None
    if f == "move":
        if k in ("step", "explore", "jump"):
            return f"move_{k}", f"worker {action[1]} to {action[2]}", action[2]
        if k == "jump_from":             # where it jumps is the next decision (jump_to)
            return "move_jump_from", f"worker {action[1]}", None
        if k == "fly":
            return "consultant_fly", s.bld[action[1]] or "", action[1]
        return "move_end", "", None
    if f == "jump_to":
        if k == "jump":
            return "move_jump", f"worker {action[1]} to {action[2]}", action[2]
        return "move_jump_octagon", f"worker {frame[2]} to octagon {action[1]}", None
    if f == "rotate":
        o = frame[2] >> 2
        return "explore_rotate", f"{s.st.tiles[s.tile[o]].id} r{action[1]}", frame[2]
    if f == "build":
        if k == "b":                     # the Molds' second build of the same order: molds_build
            name = "molds_build" if build_mode(frame) == "second" else "build"
            return name, action[1], action[2]
        return "build_none", "", None
    if f == "spec":
        return "specialist", f"{frame[4][0]} {action[1]} {action[2]}", frame[3]
    if f == "activate":
        return f"activate_{frame[2]}", "", action[1] if k == "group" else None
    if f == "claim_mission":
        return "mission_space_claim", action[1], None
    if f == "upgrade" and k == "upgrade":
        return "upgrade", action[2], action[1]
    if f == "pub" and k == "deal":
        return "pub_deal", f"{s.bld[action[1]]} of seat {s.owner[action[1]]}", action[1]
    if f in ("trade", "corp"):
        return f, action[1] if k == "space" else "none", None
    if f in ("tile", "tile_at", "start_tunnel"):
        name = "start_tunnel" if f == "start_tunnel" else "tile"
        if k == "tile_kind":             # where it is laid is the next decision (tile_at)
            return "tile_kind", action[1], None
        if k == "tile_gap":
            return "tile_gap", f"{action[1]} at gap {action[2]}", None
        if k == "tile":
            return name, f"{action[1]} r{action[3]}", action[2]
        return name, "none", None
    if f == "start":
        sl = s.st.layout.slot_sets[action[1]][action[2]]
        o = sl.line * s.st.board.columns + sl.col
        return "start_octagon", f"set {action[1] + 1}", 4 * o
    if f == "start_rot":
        return "start_rotate", f"r{action[1]}", 4 * frame[2]
    return f if f == k else f"{f}_{k}", " ".join(map(str, action[1:])), None
