"""The Corp action (rulebook "The 7 Actions": The Corp) and the advanced "Corp Board
Locations": The Coward's Loan and "Seeking new talent" (residential upgrades).  The Corp
spaces are placed on and exchanged like the trade spaces (trade.py)."""

from __future__ import annotations

from .trade import can_trade, place_pro


def start_corp(s, p) -> None:
    s.stack.append(("corp", p.seat))


def _l_corp(s, frame):
    """The Corp spaces a free professional may take (not one where its own already stands)."""
    p = s.players[frame[1]]
    out = [("space", sid) for sid, sp in s.st.spaces.items()
           if sp.corp and s.occ.get(sid) != p.seat and p.pros_free > 0 and _corp_space_ok(s, p, sp)]
    out.append(("none",))
    return out


def _corp_space_ok(s, p, sp) -> bool:
    if sp.kind == "upgrade":
        return p.pt >= s.rules.readings.upgrade_pt and bool(upgrade_options(s, p))
    if sp.kind == "loan":
        return False                     # taken with any action, not with The Corp
    return can_trade(s, p, sp)


def _loan_space(s):
    """The Coward's Loan location: the first trade space of kind "loan"."""
    return s.st.space_of_kind.get("loan")


def loan_options(s, p) -> list[tuple]:
    """Advanced Corp board locations, The Coward's Loan: "Players can spend any of their 3
    actions to take a loan" (a professional on the star loan space, a cube under a tier);
    repaying costs the power tokens plus 1 action, 2 actions or the whole turn."""
    g = s.rules.game
    out = []
    sid = _loan_space(s)
    if sid is not None and p.markers > 0 and p.pros_free > 0 and s.occ.get(sid) != p.seat:
        for t in range(len(g.loan_tiers)):
            if s.loan_cubes[t] < g.loan_cubes:
                out.append(("loan", t))
    for t in sorted(set(p.loans)):
        need = g.loan_repay_actions[t] if t < len(g.loan_repay_actions) else 1
        if p.pt >= g.loan_tiers[t][0] and p.markers >= need and (need < 3 or p.markers == 3):
            out.append(("repay", t))
    return out


def loan_actions(s, action) -> int:
    """The orders a loan action spends: 1 to take one; 1, 2 or 3 (the whole turn) to repay."""
    g = s.rules.game
    t = action[1]
    if action[0] == "loan":
        return 1
    return g.loan_repay_actions[t] if t < len(g.loan_repay_actions) else 1


def do_loan(s, p, action) -> None:
    """Take or repay a loan (the orders it spends are covered by the turn, `loan_actions`)."""
    g = s.rules.game
    t = action[1]
    if action[0] == "loan":
        place_pro(s, p, _loan_space(s))
        p.pt += g.loan_tiers[t][0]
        p.loans.append(t)
        s.loan_cubes[t] += 1
    else:
        p.pt -= g.loan_tiers[t][0]
        p.loans.remove(t)
        s.loan_cubes[t] -= 1


def upgrade_options(s, p) -> list[tuple]:
    """"Seeking new talent": small -> large residential building (3 workers), large -> Luxury
    Villa (needs the University; a specialist of your choice), "at NO COST" (or, the other
    reading, "trade in Power Tokens for Residential building upgrades": `readings.upgrade_pt`
    power tokens)."""
    out = []
    for frm, to in s.rules.game.upgrades:
        if s.supply.get(to, 0) <= 0 or frm not in s.st.b:
            continue
        if s.st.b[to].specialist_gain and not p.university:
            continue
        for sp in s.owned(p.seat):
            if s.bld[sp] == frm and s.done[sp]:
                out.append(("upgrade", sp, to))
    return out


def _l_upgrade(s, frame):
    return upgrade_options(s, s.players[frame[1]]) or [("none",)]


def _a_upgrade(s, frame, action):
    if action[0] == "none":
        return
    p = s.players[frame[1]]
    sp, to = action[1], action[2]
    p.pt -= s.rules.readings.upgrade_pt
    s.supply[s.bld[sp]] += 1
    s.supply[to] -= 1
    s.bld[sp] = to
    bd = s.st.b[to]
    if bd.specialist_gain:
        s.stack.append(("gain_spec", p.seat, bd.specialist_gain))
    g = s.rules.game
    for _ in range(bd.units):
        if len(p.workers) < g.max_workers:
            p.workers.append(sp)


LEGAL = {"corp": _l_corp, "upgrade": _l_upgrade}
APPLY = {"upgrade": _a_upgrade}
