"""The move log: (action, detail, cell) for every decision.  Card, Special card and slot ids
are words of the detail (design checks count an entry as chosen when its id is one); the
cell is the player-board site a build, upgrade or conversion uses (map_cells)."""

from __future__ import annotations

from .building import cell_of

_RES = ("credits", "kelp", "steelplast", "science", "biomatter")

ACTION_LABELS = {
    "discard": "Discard a card", "play": "Play a card", "no_card": "Play no card",
    "slot": "Choose an action slot", "always": "Always-available slot",
    "clone": "Action-cloning tile", "card_first": "Card first", "slot_first": "Slot first",
    "build": "Build", "build_kind": "Choose what to build", "stop": "Stop", "skip": "Skip", "pay": "Pay (choice)",
    "upgrade": "Upgrade", "upgrade_built": "Upgrade what was just built",
    "use": "Use an action card", "drop": "Discard an action card (limit of four)",
    "decline": "Do not claim", "use_dropped": "Use the discarded action card",
    "pay_special": "Pay for a Special card", "decline_special": "Do not pay (Special card)",
    "special": "Take a face-up Special card", "special_top": "Take the top Special card",
    "special_look": "Look at 3 Special cards", "keep": "Keep a Special card",
    "part": "Resolve a part next", "option": "Choose an option", "trade": "Trade",
    "pick": "Pick a resource", "refresh": "Restore an action card",
    "slot_action": "Perform a slot's action", "symbiosis": "Turn a city symbiotic",
    "produce": "Produce one structure",
}


def _pay(v) -> str:
    return " ".join(f"{_RES[i]}={v[i]}" for i in range(5) if v[i])


def option_word(effect) -> str:
    """An either-or option in one word, as the design checks count it: `or_` and its parts
    (`or_build_tunnel`, `or_gain_science`, `or_upgrade`; a gain by the first thing it gives)."""
    words = []
    for part in effect:
        if part.kind in ("build", "upgrade", "produce") and part.what != "structure":
            words.append(f"{part.kind}_{part.what}")
        elif part.kind == "gain":
            given = [k for k in ("federation", "cards", "points", *_RES) if getattr(part.gain, k)]
            words.append("gain_" + (given[0] if given else "nothing"))
        else:
            words.append(part.kind)
    return "or_" + "_".join(words)


def describe(s, action, frame) -> tuple[str, str, int | None]:
    st = s.st
    g = s.geo
    kind = frame[0] if frame else ""
    a0 = action[0]
    ids = st.card_id
    if kind == "discard":
        return "discard", action[1], None
    if kind == "card":
        if a0 == "no_card":
            return "no_card", "", None
        c = next(st.cards[i] for i in s.players[frame[1]].hand if ids[i] == action[1])
        return "play", f"{action[1]} {c.colour} {c.type}", None
    if kind == "slot":
        inst = s.turn[1]
        colour = "none"
        if a0 != "always":
            slot = next(sl for sl in st.slots if sl.id == action[1])
            colour = slot.colour
            match = inst >= 0 and st.cards[inst].colour == colour
            return a0, f"{action[1]} {colour} {'match' if match else 'mismatch'}", None
        return "always", "", None
    if kind == "order":
        return a0, "", None
    if kind == "upgrade_it":
        if a0 == "skip":
            return "skip", "upgrade_built", None
        return "upgrade_built", f"{frame[2]} {g.cell_id[cell_of(g, frame[2], frame[3])]}", \
            cell_of(g, frame[2], frame[3])
    if a0 == "build_kind":          # what; the site's row ("build") has the cell
        return "build_kind", action[1], None
    if a0 in ("build", "upgrade"):
        return a0, f"{action[1]} {g.cell_id[cell_of(g, action[1], action[2])]}", \
            cell_of(g, action[1], action[2])
    if kind == "pay":
        return "pay", _pay(action[1:]), None
    if kind == "use_action":
        return ("use", action[1], None) if a0 == "use" else ("skip", "action_card", None)
    if kind == "limit":
        if a0 == "drop":
            return "drop", f"{action[1]} {'used' if action[2] else 'available'}", None
        return "decline", ids[frame[2]], None
    if kind == "use_dropped":
        return ("use_dropped" if a0 == "use" else "skip"), ids[frame[2]], None
    if kind == "pay_special":
        return ("pay_special" if a0 == "pay" else "decline_special"), ids[frame[2]], None
    if kind == "special":
        if a0 == "skip":
            return "skip", "special", None
        if a0 == "take":
            return "special", action[1], None
        if a0 == "top":
            return "special_top", ids[s.sdeck[-1]] if s.sdeck else "", None
        return "special_look", "", None
    if kind == "special_keep":
        return "keep", action[1], None
    if kind == "parts":
        return "part", frame[2][action[1]].kind, None
    if kind == "either":
        return "option", f"{option_word(frame[2].options[action[1]])} {action[1]}", None
    if kind == "trade":
        return a0, "trade", None
    if kind == "pick":
        if a0 == "stop":
            return "stop", "pick", None
        gain = frame[2].gains[action[1]]
        return "pick", _pay(gain.vec()) or "cards/points", None
    if kind == "refresh":
        return ("refresh", action[1], None) if a0 == "refresh" else ("skip", "refresh", None)
    if kind == "slot_action":
        return ("slot_action", action[1], None) if a0 == "slot" else ("skip", "slot_action", None)
    if kind == "symbiosis":
        if a0 == "skip":
            return "skip", "symbiosis", None
        return "symbiosis", g.city_ids[action[1]], g.cell_city + action[1]
    if kind == "produce":
        if a0 == "skip":
            return "skip", "produce", None
        c = cell_of(g, action[1], action[2])
        return "produce", f"{action[1]} {g.cell_id[c]}", c
    return a0, kind, None
