"""Every decision and agenda task of an Underhaven game, and the module that offers and applies
it.  The tables are assembled here, in one place, so that the rulebook modules need not import
one another to reach a decision: a frame kind names its module's LEGAL / APPLY entry.

    setup:       keep, start, start_rot, start_tunnel          (setup.py)
    turn:        the agenda tasks; unit (turn over, flip.py)     (turn.py, flip.py)
    orders:      card, order, pt_trade (also in build, trade, corp, again, pub)    (orders.py)
    move:        move, jump_to, rotate, pub                    (move.py)
    activation:  activate                                      (activate.py)
    trade:       trade, again, buy, claim_mission; tile, tile_at   (trade.py, tunnels.py)
    the corp:    corp, upgrade                                 (corp.py)
    build:       build, spec; gain_spec                        (build.py, specialists.py)
    payment:     morale (which resources buy a morale step)    (payment.py)

A wide decision is asked in parts (issue 27): `tile_at` and `jump_to` are the later parts of
one tile laid and one jump (`FOLLOW_UPS`).
"""

from __future__ import annotations

from . import (activate, build, corp, flip, move, orders, payment, setup, specialists, trade,
               tunnels, turn)
from .state import UnderhavenState

_MODULES = (setup, turn, flip, orders, move, activate, trade, tunnels, corp, build,
            specialists, payment)


def _merge(table: str) -> dict:
    out: dict = {}
    for mod in _MODULES:
        for kind, fn in getattr(mod, table, {}).items():
            if kind in out:
                raise ValueError(f"decision kind '{kind}' defined twice ({mod.__name__})")
            out[kind] = fn
    return out


LEGAL = _merge("LEGAL")
APPLY = _merge("APPLY")
TASKS = _merge("TASKS")
for _kind in orders.PT_TRADE_AT:         # the "3 resources for 1 PT" ability, at any payment
    LEGAL[_kind] = orders.offer_pt_trade(LEGAL[_kind])
    APPLY[_kind] = orders.take_pt_trade(APPLY[_kind])

#: The frames that are the second part of one move of the same seat (where to lay the tile
#: chosen, where a worker jumps): the greedy lookahead values the first part by its best
#: completion, and the search may widen them narrowly (`MCTSParams.narrow`).
FOLLOW_UPS = ("tile_at", "jump_to")


def follow_up(s) -> bool:
    """Whether the decision pending is a later part of one move (`FOLLOW_UPS`)."""
    return bool(s.stack) and s.stack[-1][0] in FOLLOW_UPS


UnderhavenState.LEGAL = LEGAL
UnderhavenState.APPLY = APPLY
UnderhavenState.TASKS = TASKS
