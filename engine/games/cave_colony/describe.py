"""The move log: (action, detail, cell) for every decision.

Card and tile ids appear as words of the detail when they are chosen (so `delve checks` counts
them); a card set aside is written `rejected=<id>` (another word).  The cell is where the
worker is or goes: the Map page shows where workers explore, collect, fight and die.
"""

from __future__ import annotations

from . import cards as C
from .rules import COLOURS
from .zone import SIDES, sides_text

OXYGEN = 5


def _what(x, s=None, seat=None) -> str:
    if isinstance(x, tuple) and s is not None:     # ("eq", slot) of `seat`'s equipment
        return s.st.cards.ids[C.EQUIPMENT][s.equip[seat][x[1]]]
    return COLOURS[x] if isinstance(x, int) and 0 <= x < 5 else ("oxygen" if x == OXYGEN else str(x))


def _offer(s, seat: int, a) -> tuple[str, str, int | None]:
    _, t, give, get = a
    return ("offer", f"to={s.colour[t]} give={_what(give, s, seat)} get={_what(get, s, t)}",
            s.pos[seat])


def describe_move(s, a, frame) -> tuple[str, str, int | None]:
    kind = frame[0]
    seat = frame[1]
    ids = s.st.cards.ids
    cell = s.pos[seat]
    if kind == "act":
        act = a[0]
        if act == "move":
            dest = s.st.zone.nbr[cell][a[1]]
            how = "explore" if s.tile[dest] < 0 else "move"
            return how, f"{SIDES[a[1]]} energy={s.energy}", dest
        if act == "collect":
            return "collect", COLOURS[a[1]], cell
        if act == "spend":
            return "spend", f"{COLOURS[a[1]]} {ids[C.COLONY][s.card[seat]]}", cell
        if act == "use":
            card = s.equip[seat][a[1]]
            u = s.st.cards.equip_use[card]
            detail = f"{ids[C.EQUIPMENT][card]} {u.kind}"
            if len(a) > 3:
                detail += f" {COLOURS[a[3]]}"
            target = a[2] if len(a) > 2 else (s.home(seat) if u.kind == "recall" else cell)
            return "use", detail, target
        if act == "fight":
            return "fight", f"vs={s.colour[a[1]]}", cell
        if act == "offer":
            return _offer(s, seat, a)
        return "end", f"energy={s.energy}", cell
    if kind == "colony_pick":
        rest = " ".join(f"rejected={ids[C.COLONY][c]}" for c in frame[2] if c != a[1])
        return "colony_card", f"{ids[C.COLONY][a[1]]} {rest}".strip(), s.home(seat)
    if kind == "trait_pick":
        _, _, k, seen, unseen = frame
        keep, other = (seen, unseen) if a[1] == "seen" else (unseen, seen)
        return "trait", f"{ids[k][keep]} {a[1]} rejected={ids[k][other]}", s.home(seat)
    if kind == "equip_pick":
        rest = " ".join(f"rejected={ids[C.EQUIPMENT][c]}" for c in frame[2] if c != a[1])
        return "equipment", f"{ids[C.EQUIPMENT][a[1]]} {rest}".strip(), s.home(seat)
    if kind == "tile_pick":
        return "tile", s.st.tile_ids[a[1]], frame[2]
    if kind == "orient":
        return "place", f"{s.st.tile_ids[frame[3]]} {sides_text(a[1])}", frame[2]
    if kind == "attack":
        return "attack", f"{a[1]} vs={s.colour[frame[2]]}", cell
    if kind == "steal":
        _, winner, loser, att, dfn = frame
        return "steal", f"{_what(a[1])} from={s.colour[loser]} rolls={att}:{dfn}", s.pos[winner]
    if kind == "anomaly":
        return "anomaly", ids[C.ANOMALY][a[1]], cell
    if kind == "die":
        carried = sum(s.carry[seat * 5: seat * 5 + 5])
        return "die", f"gems={carried}", cell
    if kind == "answer":
        _, t, frm, give, get = frame
        return (a[0], f"from={s.colour[frm]} give={_what(give, s, frm)} get={_what(get, s, t)}",
                s.pos[t])
    if kind == "window":
        return _offer(s, seat, a) if a[0] == "offer" else ("pass", "trade window", cell)
    return str(a[0]), "", cell
