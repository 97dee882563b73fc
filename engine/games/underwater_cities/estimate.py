"""A quick estimate of what an effect is worth to a seat, for the greedy bot's card and slot
choices (bots.action_values): every part valued on its own without playing it out, a
build or upgrade by the best placement found by `evaluate` (computed once per kind and
decision).  It only ranks the options: the best few are then played out (bots.py).
"""

from __future__ import annotations

from .building import place
from .network import BUILDINGS, KIND_CODE, building_sites, city_sites, tunnel_sites
from .payment import build_cost
from .triggers import TARGET_KINDS

CARD_VALUE = 0.55
FED_STEP = 0.7
SPECIAL_VALUE = 1.8


class Estimator:
    def __init__(self, s, seat: int, evaluate, rv, prods: int):
        self.s = s
        self.seat = seat
        self.p = s.players[seat]
        self.evaluate = evaluate
        self.base = evaluate(s, seat)
        self.rv = rv
        self.prods = prods
        self._build: dict[str, list[float]] = {}
        self._upgrade: list[float] | None = None

    # ------------------------------------------------------------------ values
    def res_value(self, vec) -> float:
        rv = self.rv
        return vec[0] * rv[0] + vec[1] * rv[1] + vec[2] * rv[2] + vec[3] * rv[3] + vec[4] * rv[4]

    def gain_value(self, g, k: int = 1) -> float:
        return k * (self.res_value(g.vec()) + g.points + g.cards * CARD_VALUE
                    + g.federation * FED_STEP)

    def build_deltas(self, kind: str) -> list[float]:
        """What placing one `kind` adds to `evaluate` at each distinct site (best first),
        before paying for it."""
        hit = self._build.get(kind)
        if hit is not None:
            return hit
        s, p = self.s, self.p
        g = s.geo
        if kind == "tunnel":
            sites = tunnel_sites(g, p) if s.supply[0] > 0 else []
        elif kind in KIND_CODE:
            bonus = s.st.bonus[p.board]
            seen, sites = set(), []
            for b in building_sites(g, p):
                key = b if g.cell_bld + b in bonus else (g.bsite_city[b], -1)
                if key not in seen:
                    seen.add(key)
                    sites.append(b)
        else:
            sites = city_sites(g, p) if s.supply[1 if kind == "white_city" else 2] > 0 else []
        out = []
        for site in sites:
            nxt = s.clone(log=False)
            place(nxt, nxt.players[self.seat], kind, site)
            nxt.stack = []
            out.append(self.evaluate(nxt, self.seat) - self.base)
        out.sort(reverse=True)
        self._build[kind] = out
        return out

    def upgrade_deltas(self) -> list[float]:
        if self._upgrade is None:
            from .upgrades import raise_structure
            s, p = self.s, self.p
            g = s.geo
            opts = [("tunnel", t) for t in range(g.nt) if p.tun >> t & 1 and not p.tun_up >> t & 1]
            seen = set()
            for b, code in enumerate(p.bld):
                if code and not p.bup >> b & 1:
                    key = (code, g.bsite_city[b])
                    if key not in seen:
                        seen.add(key)
                        opts.append((BUILDINGS[code - 1], b))
            out = []
            for kind, site in opts:
                nxt = s.clone(log=False)
                raise_structure(nxt, nxt.players[self.seat], kind, site)
                out.append(self.evaluate(nxt, self.seat) - self.base)
            out.sort(reverse=True)
            self._upgrade = out
        return self._upgrade

    # ------------------------------------------------------------------ parts
    def effect_value(self, parts, depth: int = 0) -> float:
        return sum(self.part_value(part, depth) for part in parts)

    def part_value(self, part, depth: int = 0) -> float:
        s, p = self.s, self.p
        from .effects import gain_times
        from .network import holds
        if part.when is not None and not holds(s, p, part.when):
            return 0.0
        k = part.kind
        if k == "gain":
            return self.gain_value(part.gain, gain_times(s, p, part))
        if k == "build":
            best = 0.0
            for kind in TARGET_KINDS[part.what]:
                cost = self.res_value(build_cost(s, p, kind, part))
                deltas = self.build_deltas(kind)
                total = 0.0
                for j in range(min(part.count, len(deltas))):
                    v = deltas[j] - cost
                    if v <= 0:
                        break
                    total += v * (1.0 if j == 0 else 0.8)
                best = max(best, total)
            return best
        if k == "upgrade":
            price = self.res_value(part.cost.vec() if part.cost is not None
                                   else s.st.upgrade_cost)
            deltas = self.upgrade_deltas()
            return sum(max(0.0, d - price) for d in deltas[:part.count])
        if k == "action_card":
            if depth > 1:
                return 0.8
            cards = s.st.cards
            vals = sorted((self.effect_value(cards[i].effect, depth + 1)
                           for i in p.actions if i not in p.used), reverse=True)
            return sum(vals[:part.count])
        if k == "special":
            return SPECIAL_VALUE if (s.sface or s.sdeck) else 0.0
        if k == "trade":
            per = self.gain_value(part.gain) - self.res_value(part.cost.vec())
            if per <= 0:
                return 0.0
            cost = part.cost.vec()
            times = part.count
            for j in range(5):
                if cost[j]:
                    times = min(times, p.res[j] // cost[j])
            return per * max(times, 0)
        if k == "pick":
            vals = sorted((self.gain_value(g) for g in part.gains), reverse=True)
            return sum(vals[:part.count])
        if k == "either":
            return max(self.effect_value(opt, depth) for opt in part.options)
        if k == "refresh":
            cards = s.st.cards
            return max((self.effect_value(cards[i].effect, depth + 1) for i in p.used),
                       default=0.0)
        if k == "slot_action":
            if depth > 1:
                return 0.0
            from .effects import slot_action_options
            opts = slot_action_options(s, p, part)
            price = self.res_value(part.cost.vec()) if part.cost is not None else 0.0
            return max((self.effect_value(s.st.slots[i].effect, depth + 1) for i in opts),
                       default=price) - price
        if k == "symbiosis":
            from .effects import symbiosis_options
            return 2.0 * self.prods if symbiosis_options(s, p, part) else 0.0
        if k == "produce":
            from .effects import produce_options
            return 1.0 if produce_options(s, p, part) else 0.0
        return 0.0

    # ------------------------------------------------------------------ cards
    def card_value(self, inst: int) -> float:
        """What playing card `inst` on a matching slot is worth (its effect, or claiming)."""
        s, p = self.s, self.p
        st = s.st
        card = st.cards[inst]
        price = 0.0
        if st.special[inst]:
            if p.res[0] < card.cost:
                return 0.0
            price = card.cost * self.rv[0]
        t = card.type
        if t == "instant":
            v = self.effect_value(card.effect)
        elif t == "action":
            v = self.effect_value(card.effect) * (0.9 + 0.7 * max(0, self.prods - 1))
            if len(p.actions) >= s.rules.game.action_card_limit:
                weakest = min(self.effect_value(st.cards[i].effect) for i in p.actions)
                v = max(0.0, v - weakest * max(1, self.prods - 1))
        elif t == "production":
            from .effects import gain_times
            v = sum(self.gain_value(part.gain, max(1, gain_times(s, p, part)))
                    for part in card.effect) * self.prods
        elif t == "end":
            from .scoring import part_points
            v = 0.0
            for part in card.effect:
                if part.kind == "trade":
                    v += 0.5 * part.gain.points * part.count
                else:
                    v += max(part_points(s, p, part), 0.6 * (part.gain.points or 2))
        else:
            v = 0.8 + 0.35 * max(0.0, s.st.rounds - s.round)
        return v - price
