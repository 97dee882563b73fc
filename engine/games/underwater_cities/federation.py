"""The Federation track (rulebook "The Federation Track", "End of the Round").

Positions: 0 below the track, k = the k-th space from the back (data: federation.spaces,
from space 4 to space 1).  Advancing gains the bonus of every space entered; past the front
each step scores `past_front_points`; the marker goes on top of any stack it ends on.  The
next round's order: furthest ahead first, higher in a stack first, markers below the track
keep their relative order.
"""

from __future__ import annotations

from .triggers import fire


def advance(s, p, steps: int) -> None:
    fed = s.rules.federation
    spaces = fed.spaces
    top = len(spaces)
    for _ in range(steps):
        if p.fed < top:
            p.fed += 1
            sp = spaces[p.fed - 1]
            if not sp.gain.empty():
                s.gain(p, sp.gain, "federation")
            fire(s, p, "on_federation_space", space=sp.space)
        else:
            s.score(p, "federation", fed.past_front_points)
    s.fed_clock += 1
    p.fed_stamp = s.fed_clock


def next_order(s) -> list[int]:
    """The play order of the next round from the Federation track."""
    prev = {seat: i for i, seat in enumerate(s.order)}
    ahead = sorted((p for p in s.players if p.fed > 0), key=lambda p: (-p.fed, -p.fed_stamp))
    below = sorted((p for p in s.players if p.fed == 0), key=lambda p: prev[p.seat])
    return [p.seat for p in ahead] + [p.seat for p in below]


def space_number(s, pos: int) -> int:
    """The printed number of position `pos` (0: below the track)."""
    return s.rules.federation.spaces[pos - 1].space if pos > 0 else 0
