"""Specialists (rulebook "Specialists & Building": Hire & Use Specialists, A Few Things About
Specialists): the ways to source a specialist skill for a build (own, professional, a Super
Specialist held this turn, hire, a Corp Super Specialist, the skip ability, overbid), taking
them back at the start of the next turn, and permanent specialists (University, Luxury
Villa)."""

from __future__ import annotations

from .payment import MONEY, gain_track

COLOURS = ("yellow", "red", "green", "blue")
SUPERS = ("held", "super", "overbid_super")      # sources that are a Super Specialist


def spec_need(s, p, bd) -> list[str]:
    """Specialist skills still to source for a building: a skill whose specialist is already
    in my meeting room this turn ("you can use a single specialist for all building
    requirements that occur during the same round") or a permanent recruit is free.  A
    skipped skill (the ability) or a Super Specialist's is not a specialist of that colour:
    a Super held this turn serves again as a source (`held`)."""
    return [c for c in bd.specialists if c not in p.turn_colours and c not in p.perm]


def super_price(s, p, k: int) -> tuple[int, int]:
    """(Money, reputation lost) to hire Super Specialist k: "pay Money as there are dots (1-6
    Money) & lose half of the dots as reputation"; the cap ability: "never pay more than 3
    Money; if higher than 3 you only lose 1 reputation"."""
    g = s.rules.game
    d = s.super_die[k]
    money, rep = d, g.super_rep_loss[d - 1]
    cap = s.ability_value("super_cap")
    if p.ability == "super_cap" and d > cap:
        money, rep = cap, 1
    return money, rep


def source_options(s, p, colour: str, used=(), skip_ok: bool | None = None) -> list[tuple]:
    """(source, arg, money, pt) ways to get one specialist of `colour` for a build; `used`:
    the Super Specialists already serving this build (one Super is one specialist).  A hire
    is listed at its price (a free hire of the turn is applied by the caller).  An overbid
    only when no specialist of that colour and no Super can be had otherwise (the skip
    ability is no specialist)."""
    g = s.rules.game
    if skip_ok is None:
        skip_ok = p.ability == "skip_specialist" and "skip_specialist" not in p.used
    out = []
    if colour == p.colour:
        if p.spec_home > 0:
            out.append(("own", -1, 0, 0))
        if p.pros_free > 0:
            out.append(("pro", -1, 0, 0))
    for k in p.supers:                   # "they would substitute for any needed specialist"
        if k not in used:
            out.append(("held", k, 0, 0))
    for q in s.players:
        if q.seat != p.seat and q.colour == colour and q.spec_home > 0 and q.hired_out < g.hire_slots:
            out.append(("hire", q.seat, g.hire_cost, 0))
    for k, holder in enumerate(s.super_holder):
        if holder == -1 and k not in used:    # each Super at its own die's price
            out.append(("super", k, super_price(s, p, k)[0], 0))
    if not out:                          # OVERBID when every source is occupied
        out = _overbid_options(s, p, colour, used)
    if skip_ok:
        out.append(("skip", -1, 0, 0))
    return out


def _overbid_options(s, p, colour: str, used=()) -> list[tuple]:
    """"Pay any player that has the required players' specialist OR the Corp Super Specialist
    ONE Power Token": every rival holding a specialist of that colour (hired, taken by an
    overbid, or its owner's own in use) or a Super Specialist; nobody (a colour no player
    holds, no Super in the game): the power token goes to the supply (assumed)."""
    g = s.rules.game
    out = []
    for q in s.players:
        if q.seat == p.seat:
            continue
        if any(s.players[o].colour == colour for o in q.hired + q.borrowed) \
                or (q.colour == colour and q.spec_busy > 0):
            out.append(("overbid", q.seat, 0, g.overbid_pt))
    for k, holder in enumerate(s.super_holder):
        if holder not in (-1, p.seat) and k not in used:
            out.append(("overbid_super", k, 0, g.overbid_pt))
    return out or [("overbid", -1, 0, g.overbid_pt)]


def take_source(s, p, src: str, arg: int, colour: str) -> tuple[int, int, int]:
    """Take one specialist source for a build: (Money, power tokens, professionals) it adds
    to the build's bill.  Hiring pays the owner at once (not a free hire); a Super's
    reputation is lost at once; an overbid pays the holder at once and moves the specialist
    (or Super) to my meeting room until my next turn."""
    g = s.rules.game
    money = pt = pros = 0
    if src == "own":
        p.spec_home -= 1
        p.spec_busy += 1
    elif src == "pro":
        pros += 1
    elif src == "hire":
        q = s.writable_player(arg)
        q.spec_home -= 1
        q.hired_out += 1
        p.hired.append(arg)
        if p.free_hires > 0:             # "Use a Player's Specialist for free"
            p.free_hires -= 1
        else:
            money += g.hire_cost
            q.res[MONEY], q.pt = gain_track(q.res[MONEY], q.pt, g.hire_cost, g.pt_value)
    elif src == "super":
        m, rep = super_price(s, p, arg)
        s.super_holder[arg] = p.seat
        p.supers.append(arg)
        money += m
        s.score(p, "hiring", -rep)
    elif src == "overbid":
        pt += g.overbid_pt
        if arg >= 0:
            q = s.writable_player(arg)
            q.pt += g.overbid_pt
            owner = next((o for o in q.hired if s.players[o].colour == colour), None)
            if owner is not None:
                q.hired.remove(owner)
                p.hired.append(owner)        # returned to its owner at my next turn
            else:
                owner = next((o for o in q.borrowed if s.players[o].colour == colour), None)
                if owner is not None:
                    q.borrowed.remove(owner)
                else:
                    owner = q.seat           # the owner's own specialist, in use this turn
                    q.spec_busy -= 1
                p.borrowed.append(owner)
    elif src == "overbid_super":
        pt += g.overbid_pt
        q = s.writable_player(s.super_holder[arg])
        q.pt += g.overbid_pt
        q.supers.remove(arg)
        s.super_holder[arg] = p.seat
        p.supers.append(arg)
    elif src == "skip":
        p.used.add("skip_specialist")
    if src not in SUPERS and src != "skip":
        p.turn_colours.add(colour)           # a specialist of that colour in my room
    return money, pt, pros


def _return_home(o) -> None:
    """One of `o`'s own specialists comes back to its meeting room (unless it was taken as a
    permanent recruit while away)."""
    if o.spec_owed > 0:
        o.spec_owed -= 1
    else:
        o.spec_home += 1


def take_back(s, p) -> None:
    """Start of Your Turn 2: my own specialists used last turn, the specialists I hired ("If
    you hired some other player's Specialist, return him/them back as well and take back any
    cubes") or took by an overbid, and the Super Specialists ("When the Super is returned,
    also take your cube & move the die up 1 dot")."""
    for _ in range(p.spec_busy):
        _return_home(p)
    p.spec_busy = 0
    for owner in p.hired:
        o = s.writable_player(owner)
        _return_home(o)
        o.hired_out -= 1
    p.hired = []
    for owner in p.borrowed:
        _return_home(s.writable_player(owner))
    p.borrowed = []
    for k in p.supers:
        s.super_holder[k] = -1
        s.super_die[k] = min(6, s.super_die[k] + 1)
    p.supers = []
    p.turn_colours = set()
    p.free_hires = 0
    p.used.discard("skip_specialist")    # once per turn


def spec_sources(s, p) -> list[str]:
    """Colours a player may gain as a permanent specialist (University, Luxury Villa): "Those
    Specialists are taken from the player's starting supply. In theory, if all players took 1
    of your Specialists, you would end up with only 1 for you to use" (so an owner keeps one;
    the one taken need not be in its meeting room); the reserve of an unused colour."""
    if len(p.perm) >= s.rules.game.blockers:
        return []
    out = []
    for c in COLOURS:
        if c == p.colour or c in p.perm:
            continue
        if s.reserve.get(c, 0) > 0:
            out.append(c)
            continue
        for q in s.players:
            if q.colour == c and q.spec_total > 1:
                out.append(c)
                break
    return out


def _l_gain_spec(s, frame):
    return [("spec", c) for c in spec_sources(s, s.players[frame[1]])] or [("none",)]


def _a_gain_spec(s, frame, action):
    if action[0] == "none":
        return
    p = s.players[frame[1]]
    c = action[1]
    if s.reserve.get(c, 0) > 0:
        s.reserve[c] -= 1
    else:
        q = s.writable_player(next(q.seat for q in s.players if q.colour == c))
        q.spec_total -= 1
        if q.spec_home > 0:              # one at home, else one away stays away for good
            q.spec_home -= 1
        else:
            q.spec_owed += 1
    p.perm.append(c)
    p.turn_colours.add(c)
    if frame[2] > 1:
        s.stack.append(("gain_spec", frame[1], frame[2] - 1))


LEGAL = {"gain_spec": _l_gain_spec}
APPLY = {"gain_spec": _a_gain_spec}
