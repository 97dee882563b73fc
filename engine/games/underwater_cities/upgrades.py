"""Upgrading structures (rulebook "Upgrading Structures"): tunnels and buildings, usually for
1 science each unless a card says otherwise, never twice ("It is not possible to upgrade any
structure that is already upgraded")."""

from __future__ import annotations

from .network import BUILDINGS, KIND_CODE, bits
from .payment import pay, upgrade_payments
from .state import UWCState
from .triggers import TARGET_KINDS, fire


def options(s, p, part) -> list[tuple]:
    """Every ("upgrade", kind, site) of a built, not yet upgraded structure the part allows
    that the seat can pay for."""
    out = []
    kinds = TARGET_KINDS[part.what]
    if "tunnel" in kinds and upgrade_payments(s, p, "tunnel", part):
        out += [("upgrade", "tunnel", t) for t in bits(p.tun & ~p.tun_up)]
    payable = {k: bool(upgrade_payments(s, p, k, part)) for k in BUILDINGS if k in kinds}
    if any(payable.values()):
        bup = p.bup
        for b, code in enumerate(p.bld):
            if code and not bup >> b & 1:
                k = BUILDINGS[code - 1]
                if payable.get(k):
                    out.append(("upgrade", k, b))
    return out


def raise_structure(s, p, kind: str, site: int) -> None:
    if kind == "tunnel":
        p.tun_up |= 1 << site
    else:
        p.bup |= 1 << site
    p.net = None
    fire(s, p, "on_upgrade", kind=kind)


def do_upgrade(s, seat: int, kind: str, site: int, part) -> None:
    """Pay for one upgrade (a decision when there are several prices) and raise it."""
    p = s.players[seat]
    prices = upgrade_payments(s, p, kind, part)
    if len(prices) == 1:
        pay(p, prices[0])
        raise_structure(s, p, kind, site)
    else:
        s.stack.append(("pay", seat, tuple(prices), ("raise", kind, site)))


def _l_upgrade(s, frame):
    return options(s, s.players[frame[1]], frame[2]) + [("stop",)]


def _a_upgrade(s, frame, action):
    if action[0] == "stop":
        return
    _k, seat, part, left, src = frame
    if left > 1:
        s.stack.append(("upgrade", seat, part, left - 1, src))
    do_upgrade(s, seat, action[1], action[2], part)


assert set(KIND_CODE) == set(BUILDINGS)
UWCState.LEGAL.update(upgrade=_l_upgrade)
UWCState.APPLY.update(upgrade=_a_upgrade)
