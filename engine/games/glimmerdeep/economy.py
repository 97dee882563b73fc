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


def _settle_base(r: list[int], ni: int, ng: int, ne: int, gem_covers_two: bool) -> list[int] | None:
    """Base substitution on a copy `r`: gem needs with gems; gold needs with gold, then gems;
    iron needs with iron, then gold, then gems."""
    if ne:
        use = min(r[GEM], (ne + 1) // 2) if gem_covers_two else min(r[GEM], ne)
        r[GEM] -= use
        ne = max(0, ne - (2 * use if gem_covers_two else use))
        if ne:
            return None
    if ng:
        for kind in (GOLD, GEM):
            use = min(r[kind], ng)
            r[kind] -= use
            ng -= use
        if ng:
            return None
    if ni:
        for kind in (IRON, GOLD, GEM):
            use = min(r[kind], ni)
            r[kind] -= use
            ni -= use
        if ni:
            return None
    return r


# What a resource left over is worth at the end (1 VP per 3 iron, 2 gold, 1 gem): the
# settlement keeps the most valuable supply.
_KEEP_VALUE = (2, 3, 6)


def settle(res: list[int], need: tuple[int, int, int], opt: PayOptions = BASE) -> list[int] | None:
    """The supply after paying `need` (iron, gold, gem), or None if it cannot be paid.

    Base rules: a gem need is paid with gems; a gold need with gold, then gems; an iron need
    with iron, then gold, then gems (never worse than any other split).  With faction options
    (iron for gold or gems, gold as gems) every split of the needs over the options is tried
    and the one leaving the most valuable supply is kept, so a payable cost is never refused."""
    ni, ng, ne = need
    if not (ni or ng or ne):
        return res
    if opt is BASE or not (opt.iron_per_gold or opt.iron_per_gem or opt.gold_as_gem):
        return _settle_base(res.copy(), ni, ng, ne, opt.gem_covers_two)
    best, best_key = None, None
    for a in range(ne + 1 if opt.gold_as_gem else 1):                 # gem needs paid with gold
        for b in range(ne - a + 1 if opt.iron_per_gem else 1):         # gem needs paid with iron
            for c in range(ng + 1 if opt.iron_per_gold else 1):        # gold needs paid with iron
                iron = b * opt.iron_per_gem + c * opt.iron_per_gold
                if a > res[GOLD] or iron > res[IRON]:
                    continue
                r = [res[IRON] - iron, res[GOLD] - a, res[GEM]]
                r = _settle_base(r, ni, ng - c, ne - a - b, opt.gem_covers_two)
                if r is not None:
                    key = (sum(v * w for v, w in zip(r, _KEEP_VALUE)), r[GEM], r[GOLD])
                    if best_key is None or key > best_key:
                        best, best_key = r, key
    return best


class Payment:
    """State methods: pay a cost with the player's faction payment options."""

    def pay(self, p, need, context: str = "activate") -> bool:
        opt = self.hooks[p.seat].pay_options(self, p, context)
        r = settle(p.res, tuple(need), opt)
        if r is None:
            return False
        p.res = r
        return True

    def can_pay(self, p, need, context: str = "activate") -> bool:
        return settle(p.res, tuple(need), self.hooks[p.seat].pay_options(self, p, context)) is not None
