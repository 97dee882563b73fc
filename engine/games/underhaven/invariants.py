"""What must hold after every step of an Underhaven game (`Game.invariants`, checked by the
conformance tests and the soak)."""

from __future__ import annotations

from .turn import max_rounds


def invariants(state) -> list[str]:
    bad = []
    g = state.rules.game
    for p in state.players:
        if min(p.res) < 0 or max(p.res) >= g.pt_value or p.pt < 0 or p.tg < 0 or p.energy < 0:
            bad.append(f"seat {p.seat}: resources out of range {p.res} pt={p.pt} tg={p.tg}")
        if not 0 <= p.morale <= state.rules.morale.track:
            bad.append(f"seat {p.seat}: morale {p.morale}")
        if len(p.workers) > g.max_workers or p.consultants > g.max_consultants:
            bad.append(f"seat {p.seat}: too many workers or consultants")
        if not 0 <= p.cons_free <= p.consultants or not 0 <= p.pros_free <= g.professionals:
            bad.append(f"seat {p.seat}: consultants/professionals out of range")
        if p.spec_home < 0 or p.hired_out > g.hire_slots or p.hired_out < 0:
            bad.append(f"seat {p.seat}: specialists out of range")
        if len(p.perm) > g.blockers or len(set(p.perm)) != len(p.perm) or p.colour in p.perm:
            bad.append(f"seat {p.seat}: permanent specialists {p.perm}")
        if p.rep != sum(state.log.breakdown(p.seat).values()):   # every log keeps the scores
            bad.append(f"seat {p.seat}: reputation {p.rep} != score events")
    for sp, bid in enumerate(state.bld):
        if bid is not None and (state.terr[sp] is None or state.owner[sp] < 0):
            bad.append(f"space {sp}: building {bid} off the explored board or without owner")
    if any(v < 0 for v in state.supply.values()):
        bad.append("building supply negative")
    if not 1 <= state.round <= max_rounds(state.rules):
        bad.append(f"round {state.round} out of range")
    if not all(1 <= d <= 6 for d in state.super_die):
        bad.append("super specialist die out of range")
    return bad
