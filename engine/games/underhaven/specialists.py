"""Specialists (rulebook "Specialists & Building": Hire & Use Specialists, A Few Things About
Specialists): the ways to source a specialist skill for a build (own, professional, hire, Corp
Super Specialist, the skip ability, overbid) and permanent specialists (University, Luxury
Villa)."""

from __future__ import annotations

from .payment import MONEY, gain_track


def spec_need(s, p, bd) -> list[str]:
    """Specialist skills still to source for a building (reuse within the turn is free)."""
    return [c for c in bd.specialists if c not in p.turn_colours and c not in p.perm]


def source_options(s, p, colour: str) -> list[tuple]:
    """(source, arg, money, pt, rep) ways to get one specialist of `colour`."""
    out = []
    g = s.rules.game
    if colour == p.colour:
        if p.spec_home > 0:
            out.append(("own", -1, 0, 0, 0))
        if p.pros_free > 0:
            out.append(("pro", -1, 0, 0, 0))
    for q in s.players:
        if q.seat != p.seat and q.colour == colour and q.spec_home > 0 and q.hired_out < g.hire_slots:
            out.append(("hire", q.seat, g.hire_cost, 0, 0))
    for k, holder in enumerate(s.super_holder):
        if holder == -1:
            d = s.super_die[k]
            money, rep = d, g.super_rep_loss[d - 1]
            if p.ability == "super_cap" and d > s.ability_value("super_cap"):
                money, rep = s.ability_value("super_cap"), 1
            out.append(("super", k, money, 0, rep))
            break                        # the two supers are interchangeable when both free
    if p.ability == "skip_specialist" and "skip_specialist" not in p.used:
        out.append(("skip", -1, 0, 0, 0))
    if not out:                          # OVERBID when every source is occupied
        owner = next((q.seat for q in s.players if q.colour == colour and q.seat != p.seat), -1)
        out.append(("overbid", owner, 0, g.overbid_pt, 0))
    return out


def cheapest(opts) -> tuple[int, int]:
    best = min(opts, key=lambda o: (o[3], o[2], o[4]))
    return best[2], best[3]


def spec_sources(s, p) -> list[str]:
    """Colours a player may gain as a permanent specialist (University, Luxury Villa)."""
    if len(p.perm) >= s.rules.game.blockers:
        return []
    out = []
    for c in ("yellow", "red", "green", "blue"):
        if c == p.colour or c in p.perm:
            continue
        if s.reserve.get(c, 0) > 0:
            out.append(c)
            continue
        for q in s.players:
            if q.colour == c and q.spec_home > 0 and q.spec_total > 1:
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
        q = next(q for q in s.players if q.colour == c)
        q.spec_home -= 1
        q.spec_total -= 1
    p.perm.append(c)
    p.turn_colours.add(c)
    if frame[2] > 1:
        s.stack.append(("gain_spec", frame[1], frame[2] - 1))


def take_source(s, p, src: str, arg: int) -> tuple[int, int, int]:
    """Take one specialist source for a build: (Money, power tokens, professionals) it adds
    to the build's bill.  Hiring pays the owner at once; a super's reputation is lost at once."""
    g = s.rules.game
    money = pt = pros = 0
    if src == "own":
        p.spec_home -= 1
        p.spec_busy += 1
    elif src == "pro":
        pros += 1
    elif src == "hire":
        q = s.players[arg]
        q.spec_home -= 1
        q.hired_out += 1
        p.hired.append(arg)
        money += g.hire_cost
        q.res[MONEY], q.pt = gain_track(q.res[MONEY], q.pt, g.hire_cost, g.pt_value)
    elif src == "super":
        d = s.super_die[arg]
        m, rep = d, g.super_rep_loss[d - 1]
        if p.ability == "super_cap" and d > s.ability_value("super_cap"):
            m, rep = s.ability_value("super_cap"), 1
        s.super_holder[arg] = p.seat
        p.supers.append(arg)
        money += m
        s.score(p, "hiring", -rep)
    elif src == "overbid":
        pt += g.overbid_pt
        if arg >= 0:
            s.players[arg].pt += g.overbid_pt
    elif src in ("skip", "skip_forced"):
        p.used.add("skip_specialist")
    return money, pt, pros


LEGAL = {"gain_spec": _l_gain_spec}
APPLY = {"gain_spec": _a_gain_spec}
