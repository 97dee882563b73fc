"""Harvest, Mine, Entertain (rulebook "The 7 Actions", "Building Connectivity"): the
automatic improvement buildings of an activation fire, then one connected group of owned,
finished, staffed buildings of that activation produces.  Also what a building yields when it
is turned over ("Start of Your Turn" 3, `flip_yield`)."""

from __future__ import annotations

from .payment import FOOD, MATERIAL, gain_track

ACT_KINDS = ("harvest", "mine", "entertain")


def start_activation(s, p, kind: str) -> None:
    """A Harvest, Mine or Entertain order.  The Tectonics (focus): "Each time you use a Mine
    activation, gain +1 reputation" (the order itself, staffed mine or not)."""
    automatic(s, p, kind)
    if kind == "mine":
        mine_bonus(s, p)
    if activation_groups(s, p, kind):
        s.stack.append(("activate", p.seat, kind))


def mine_bonus(s, p) -> None:
    """The Tectonics (focus): "Each time you use a Mine activation, gain +1 reputation": a
    Mine order, and a mine turned over and activated (`flip_yield`, like the Enigmas' +1)."""
    if s.rules.modules.focus and s.rules.corporations[p.corp].bonus == "mine_rep":
        s.score(p, "focus", 1)


def operate(s, p, bd) -> bool:
    """Energy (advanced): "An energy icon means the building also requires the player to pay 1
    energy to be operated ... also gives you 2 energy when activated"; "no energy means no
    activation".  Pays the energy and gains the energy icon's; False when it cannot run."""
    if not s.rules.modules.energy:
        return True
    if bd.energy_cost:
        if p.energy < bd.energy_cost:
            return False
        p.energy -= bd.energy_cost
    s.gain_energy(p, bd.energy_gain)
    return True


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
        if operate(s, p, bd):
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


def _produce(s, p, bd) -> None:
    """One staffed building produces: its gain, and pollution ("LOWER the morale cube 1
    down, never passing the 1st left most morale space"; not with the no-pollution ability)."""
    s.gain(p, bd.gain)
    if bd.morale_loss and p.ability != "no_pollution":
        p.morale = max(0, p.morale - bd.morale_loss)


def _production_bonus(s, p, kind: str) -> None:
    """The Enigmas (focus): "Each time you gain Food from FARMS & Material from MINES, gain +1
    ... per activation, not per building"."""
    if s.rules.modules.focus and kind in ("harvest", "mine") \
            and s.rules.corporations[p.corp].bonus == "production":
        i = FOOD if kind == "harvest" else MATERIAL
        p.res[i], p.pt = gain_track(p.res[i], p.pt, 1, s.rules.game.pt_value)


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
    ran = False
    for sp in grp:
        bd = b[s.bld[sp]]
        if operate(s, p, bd):
            _produce(s, p, bd)
            ran = True
    if ran:
        _production_bonus(s, p, kind)


def flip_yield(s, p, sp: int) -> None:
    """Start of Your Turn 3: "Gain what the building yields. It can be resources (Material,
    Food or increase morale), an action (trade twice) or instant gain ... Some buildings only
    open up a new ability, like to gain Trade Goods when certain action is activated."
    A Harvest, Mine or Entertain building yields its gain once (a worker-operated one only
    with a worker on it, an automatic improvement only when its condition holds: the
    Irrigation System's "4 (completion bonus)"); the Merchant Guild gives a Trade on two
    spaces (+1 reputation); other buildings only become active (move, build, trade bonuses,
    social buildings).  A mine that yields is a Mine activation: the Tectonics' +1 as well
    as the Enigmas' +1 (focus)."""
    bd = s.st.b[s.bld[sp]]
    kind = bd.activation
    if kind in ACT_KINDS:
        if bd.needs_worker and sp not in p.workers:
            return
        if bd.requires_terrain and not s.has_terrain_building(p.seat, bd.requires_terrain):
            return
        if operate(s, p, bd):
            _produce(s, p, bd)
            _production_bonus(s, p, kind)
            if kind == "mine":
                mine_bonus(s, p)
    elif kind == "trade" and bd.trade_twice:
        s.gain(p, bd.gain, "activations")
        s.stack.append(("trade", p.seat, 2))


LEGAL = {"activate": _l_activate}
APPLY = {"activate": _a_activate}
