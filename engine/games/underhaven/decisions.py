"""Every decision and agenda task of an Underhaven game, and the module that offers and applies
it.  The tables are assembled here, in one place, so that the rulebook modules need not import
one another to reach a decision: a frame kind names its module's LEGAL / APPLY entry.

    setup:       keep, start, start_rot, start_tunnel          (setup.py)
    turn:        the agenda tasks; unit (turn over, flip.py)     (turn.py, flip.py)
    orders:      card, order, pt_trade (also in build, trade, corp, again, pub)    (orders.py)
    move:        move, rotate, pub                             (move.py)
    activation:  activate                                      (activate.py)
    trade:       trade, again, buy, claim_mission; tile        (trade.py, tunnels.py)
    the corp:    corp, upgrade                                 (corp.py)
    build:       build, spec; gain_spec                        (build.py, specialists.py)
    payment:     morale (which resources buy a morale step)    (payment.py)
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

UnderhavenState.LEGAL = LEGAL
UnderhavenState.APPLY = APPLY
UnderhavenState.TASKS = TASKS
