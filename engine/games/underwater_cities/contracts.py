"""Government contracts (rulebook "Components": "8 government contracts", never explained
in our text).  A documented, switchable reading (switches.contracts, off by default):
`switches.contracts_drawn` contracts lie face up; a player who meets every condition of one
claims it at once (checked at the end of each turn and after each Production), keeps it and
gains its reward; each contract goes to one player."""

from __future__ import annotations

from .network import holds


def check_contracts(s, p) -> None:
    if not s.contracts:
        return
    rules = s.rules.contracts
    for entry in s.contracts:
        i, holder = entry
        if holder >= 0:
            continue
        c = rules[i]
        if all(holds(s, p, cond) for cond in c.needs):
            entry[1] = p.seat
            p.contracts = p.contracts + (i,)
            s.gain(p, c.reward, "contracts")
