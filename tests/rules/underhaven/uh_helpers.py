"""Helpers shared by the Underhaven rule tests."""


def explore(s, o, terrains):
    """Turn octagon `o` face up with the given N, E, S, W terrains."""
    s.explored[o] = True
    for d, t in enumerate(terrains):
        s.terr[4 * o + d] = t


def put(s, sp, bid, seat, done=True):
    s.bld[sp] = bid
    s.owner[sp] = seat
    s.done[sp] = done


def only(s, frame):
    """Make `frame` the only pending decision (nothing scheduled after it)."""
    s.stack = [frame]
    s.agenda = []
    return s
