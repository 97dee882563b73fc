"""Start of Your Turn 3, "Turn over & activate all newly built buildings": the buildings built
last turn are finished: their completion reputation, what they yield (activate.flip_yield)
and their one-time gains (residential workers or consultants, a specialist)."""

from __future__ import annotations

from .activate import flip_yield


def flip(s, p) -> None:
    """Turn over `p`'s buildings built last turn.  All are finished first (an improvement's
    condition and the University count buildings turned over at the same time), then each in
    building order: reputation, yield, one-time gains.  A Luxury Villa's specialist needs a
    University ("When a player builds the University building, they unlock the ability to
    gain permanent Specialists"; the Villa upgrade "(Requires University)")."""
    b = s.st.b
    unfinished, p.unfinished = p.unfinished, []
    for sp in unfinished:
        s.done[sp] = True
        if b[s.bld[sp]].free_arrangement:
            p.university = True
    activate = s.rules.readings.flip == "activate"
    for sp in unfinished:
        bd = b[s.bld[sp]]
        s.score(p, "buildings", bd.rep)
        if activate:
            flip_yield(s, p, sp)
        if bd.activation == "one_time":
            if bd.specialist_gain and p.university:
                s.stack.append(("gain_spec", p.seat, bd.specialist_gain))
            if bd.units:
                s.stack.append(("unit", p.seat, bd.units, sp))


def _l_unit(s, frame):
    """Residential buildings: "choose either a Worker OR a Consultant, with a large building
    combine in any mix" (one decision per unit; frame[3] is where a new worker stands)."""
    p = s.players[frame[1]]
    g = s.rules.game
    out = []
    if len(p.workers) < g.max_workers:
        out.append(("worker",))
    if p.consultants < g.max_consultants:
        out.append(("consultant",))
    return out or [("none",)]


def _a_unit(s, frame, action):
    p = s.players[frame[1]]
    if action[0] == "worker":
        p.workers.append(frame[3])
    elif action[0] == "consultant":
        p.consultants += 1
        p.cons_free += 1
    if frame[2] > 1 and action[0] != "none":
        s.stack.append(("unit", frame[1], frame[2] - 1, frame[3]))


LEGAL = {"unit": _l_unit}
APPLY = {"unit": _a_unit}
