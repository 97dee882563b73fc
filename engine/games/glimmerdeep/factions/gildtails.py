"""The Gildtails (rulebook Appendix A): a row of gold icons per round on the faction sheet,
VP for rounds that beat the previous one and for rounds with 4+ icons.  See gildtails.md."""

from __future__ import annotations

from ..economy import BASE, PayOptions
from ..state import GOLD
from . import FactionPlay, register

T1R, T2L, T2R, T3L, T3R = ("gildtails_1r", "gildtails_2l", "gildtails_2r", "gildtails_3l",
                           "gildtails_3r")
ROWS = "gt_rows"        # fx: gold icons crossed out in each round's row


def calling_vp(calling: dict, rows: list[int]) -> int:
    """"For each row ... crossed out more gold icons than in the previous row, gain the VP
    shown.  For each round in which the player crossed out at least 4 icons, gain 4 VP.\""""
    inc = calling["increase_vp"]
    vp = 0
    prev = 0
    for r, n in enumerate(rows):
        if n > prev and r < len(inc):
            vp += inc[r]
        if n >= calling["threshold"]:
            vp += calling["threshold_vp"]
        prev = n
    return vp


@register("gildtails")
class Gildtails(FactionPlay):

    def __init__(self, rules, faction_id: str):
        super().__init__(rules, faction_id)
        c = self.data.calling
        self.cap = c["icons_per_round"]
        self.p2l = self.traits[T2L].params
        self.p2r = self.traits[T2R].params
        self.p3l = self.traits[T3L].params
        self.p3r = self.traits[T3R].params
        self.gold_col = {i for i, e in enumerate(rules.market.extra_costs) if e == self.p2r["column"]}
        self.build_opts = PayOptions(gold_as_gem=True)
        self.conv = [(f"t:{T1R}:{k}", a) for k, a in enumerate(self.traits[T1R].actions)
                     if a.when == "any"]

    def setup(self, st, p) -> None:
        p.fx[ROWS] = [0] * st.rules.game.rounds

    def excavated(self, st, p, new: int, counts, source: str) -> None:
        n_gold = counts[1]
        if not n_gold:
            return
        rows = p.fx[ROWS]
        r = min(st.round, len(rows)) - 1
        rows[r] = min(self.cap, rows[r] + n_gold)
        if T3L in p.traits:
            p.res[GOLD] += n_gold * (self.p3l["multiplier"] - 1)
        if T2L in p.traits and n_gold >= self.p2l["min_gold"]:
            p.res[GOLD] += self.p2l["extra_gold"]

    # --- level 3 right (assumed): VP for gold spent activating own buildings -----------------
    def activated(self, st, p, key, kind, card, effect):
        """Own workshops and forges only: trade-route outposts are not player buildings
        (Appendix B, Additional Map Rules)."""
        if T3R in p.traits and kind in ("workshop", "forge") and card.input.gold:
            vp = card.input.gold * self.p3r["vp_per_gold_input"]
            p.vp += vp
            st.score(p, "vp_track", vp)
        return effect

    # --- level 2 right: gold as gems when constructing; +2 VP from the +gold column ----------
    def pay_options(self, st, p, context: str) -> PayOptions:
        if context == "construct" and T2R in p.traits:
            return self.build_opts
        return BASE

    def constructed(self, st, p, kind: str, card, site: int, slot: int, tag: str) -> None:
        if T2R in p.traits and slot in self.gold_col and self.p2r["vp"]:
            p.vp += self.p2r["vp"]
            st.score(p, "vp_track", self.p2r["vp"])

    # --- level 1 right: "At any time" (production via the generic trait actions; here in the
    # excavation phase and on a construction turn, where paying for a building may need it) ---
    def _conv_open(self, p) -> bool:
        return T1R in p.traits and not any(u.startswith(f"t:{T1R}:") for u in p.used)

    def anytime_extras(self, st, p) -> list[tuple]:
        if not self._conv_open(p):
            return []
        return [("gt_convert", key) for key, a in self.conv
                if st.can_pay(p, (a.input.iron, a.input.gold, a.input.gem))]

    def construct_extras(self, st, p) -> list[tuple]:
        return self.anytime_extras(st, p)

    def apply_extra(self, st, p, action) -> None:
        key = action[1]
        act = next(a for k, a in self.conv if k == key)
        st.pay(p, (act.input.iron, act.input.gold, act.input.gem))
        p.used.add(key)
        st.gain(p, act.output, "trait")

    # --- end of game -----------------------------------------------------------------------
    def dig_value(self, st, p, new: int) -> float:
        """Bot heuristic: each gold space crosses out a calling icon (about 1 VP each)."""
        return 1.0 * (new & st.static.board.gold).bit_count()

    def final_scoring(self, st, p) -> list[tuple[str, int]]:
        out = [("calling", calling_vp(self.data.calling, p.fx[ROWS]))]
        if T3L in p.traits:
            per = st.rules.scoring.resources_per_vp["gold"]
            out.append(("traits", (p.res[GOLD] // per) * (self.p3l["end_vp_multiplier"] - 1)))
        return out
