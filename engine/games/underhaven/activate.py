"""Harvest, Mine, Entertain (rulebook "The 7 Actions", "Building Connectivity"): the
automatic improvement buildings of an activation fire, then one connected group of owned,
finished, staffed buildings of that activation produces."""

from __future__ import annotations

from .payment import FOOD, MATERIAL, gain_track

ACT_KINDS = ("harvest", "mine", "entertain")


def start_activation(s, p, kind: str) -> None:
    """A Harvest, Mine or Entertain order."""
    automatic(s, p, kind)
    if activation_groups(s, p, kind):
        s.stack.append(("activate", p.seat, kind))


def automatic(s, p, kind: str) -> None:
    """Automatic (no worker) buildings fire when their activation is used."""
    b = s.st.b
    for sp in s.owned(p.seat):
        if not s.done[sp]:
            continue
        bd = b[s.bld[sp]]
        if bd.activation != kind or bd.needs_worker:
            continue
        if bd.requires_terrain and not s.has_terrain_building(p.seat, bd.requires_terrain):
            continue
        s.gain(p, bd.gain, "activations")


def activation_groups(s, p, kind: str) -> list[list[int]]:
    """Connected groups of this player's finished, staffed buildings of one activation type
    ("Building Connectivity": one activation runs all of them)."""
    b = s.st.b
    staffed = set(p.workers)

    def ok(sp):
        bid = s.bld[sp]
        if bid is None or s.owner[sp] != p.seat or not s.done[sp]:
            return False
        bd = b[bid]
        return bd.activation == kind and bd.needs_worker and sp in staffed

    groups, seen = [], set()
    for sp in sorted(staffed):
        if sp < s.st.geo.n_space and sp not in seen and ok(sp):
            grp = s.group(sp, ok)
            seen.update(grp)
            groups.append(grp)
    return groups


def _l_activate(s, frame):
    p = s.players[frame[1]]
    return [("group", g[0]) for g in activation_groups(s, p, frame[2])] or [("none",)]


def _a_activate(s, frame, action):
    if action[0] == "none":
        return
    p = s.players[frame[1]]
    kind = frame[2]
    grp = next(g for g in activation_groups(s, p, kind) if g[0] == action[1])
    b = s.st.b
    mods = s.rules.modules
    corp = s.rules.corporations[p.corp]
    for sp in grp:
        bd = b[s.bld[sp]]
        s.gain(p, bd.gain)
        if bd.morale_loss and p.ability != "no_pollution":
            p.morale = max(0, p.morale - bd.morale_loss)
    if mods.focus:
        if corp.bonus == "production" and kind in ("harvest", "mine"):
            i = FOOD if kind == "harvest" else MATERIAL
            p.res[i], p.pt = gain_track(p.res[i], p.pt, 1, s.rules.game.pt_value)
        if corp.bonus == "mine_rep" and kind == "mine":
            s.score(p, "focus", 1)


LEGAL = {"activate": _l_activate}
APPLY = {"activate": _a_activate}
