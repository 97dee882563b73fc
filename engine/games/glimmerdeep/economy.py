"""Paying costs: resource substitution ("Additional Rules: Resource Substitutions") and the
faction payment options.  Payments are settled by a fixed order that spends the least valuable
resource that may pay (RULES.md, "Settling payments")."""

from __future__ import annotations

from dataclasses import dataclass

from .state import GEM, GOLD, IRON


@dataclass(frozen=True)
class PayOptions:
    iron_per_gold: int = 0      # Ironclads level 1 left: 2 iron for 1 gold
    iron_per_gem: int = 0       # Ironclads level 1 right: 3 iron for 1 gem
    gold_as_gem: bool = False   # Gildtails level 2 right (construction only)
    gem_covers_two: bool = False  # Gemwardens level 3 right


BASE = PayOptions()


def settle(res: list[int], need: tuple[int, int, int], opt: PayOptions = BASE) -> list[int] | None:
    """The supply after paying `need` (iron, gold, gem), or None if it cannot be paid.

    Base rules: a gem need is paid with gems; a gold need with gold, then gems; an iron need
    with iron, then gold, then gems.  Faction options slot in by value."""
    ni, ng, ne = need
    if not (ni or ng or ne):
        return res
    r = res.copy()
    # Gem need.
    if ne:
        if opt.gold_as_gem:
            use = min(r[GOLD], ne)
            r[GOLD] -= use
            ne -= use
        if ne:
            if opt.gem_covers_two:
                use = min(r[GEM], (ne + 1) // 2)
                ne = max(0, ne - 2 * use)
            else:
                use = min(r[GEM], ne)
                ne -= use
            r[GEM] -= use
        if ne:
            if not opt.iron_per_gem or r[IRON] < ne * opt.iron_per_gem:
                return None
            r[IRON] -= ne * opt.iron_per_gem
    # Gold need.
    if ng:
        use = min(r[GOLD], ng)
        r[GOLD] -= use
        ng -= use
        if ng and opt.iron_per_gold:
            # Spare iron beyond what the iron need will take.
            spare = max(0, r[IRON] - ni)
            k = min(ng, spare // opt.iron_per_gold)
            r[IRON] -= k * opt.iron_per_gold
            ng -= k
        if ng:
            use = min(r[GEM], ng)
            r[GEM] -= use
            ng -= use
        if ng:
            return None
    # Iron need.
    if ni:
        for kind in (IRON, GOLD, GEM):
            use = min(r[kind], ni)
            r[kind] -= use
            ni -= use
            if not ni:
                break
        if ni:
            return None
    return r
