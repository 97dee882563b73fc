"""The Ironclads (rulebook Appendix A): VP rows for excavating several iron spaces at once;
iron pays for gold and gems.  See ironclads.md for the assumed parts."""

from __future__ import annotations

from ..economy import BASE, PayOptions
from ..state import GEM, GOLD, IRON
from . import FactionPlay, register

T1L, T1R, T2R, T3L, T3R = ("ironclads_1l", "ironclads_1r", "ironclads_2r", "ironclads_3l",
                           "ironclads_3r")
ROWS = "ic_rows"        # fx: for each filled calling row, the column circled (0 left, 1 right)


def calling_vp(calling: dict, circled: list[int]) -> int:
    rows = calling["rows"]
    return sum(rows[i][col] for i, col in enumerate(circled[: len(rows)]))


@register("ironclads")
class Ironclads(FactionPlay):

    def __init__(self, rules, faction_id: str):
        super().__init__(rules, faction_id)
        c = self.data.calling
        self.n_rows = len(c["rows"])
        self.left_min, self.right_min = c["left_min"], c["right_min"]
        self.per_gold = self.traits[T1L].params["iron_per_gold"]
        self.per_gem = self.traits[T1R].params["iron_per_gem"]
        self._opts = {(a, b): PayOptions(iron_per_gold=self.per_gold if a else 0,
                                         iron_per_gem=self.per_gem if b else 0)
                      for a in (False, True) for b in (False, True)}
        self._opts[(False, False)] = BASE
        self.p2r = self.traits[T2R].params
        self.mult = self.traits[T3L].params["multiplier"]

    def setup(self, st, p) -> None:
        p.fx[ROWS] = []

    def pay_options(self, st, p, context: str) -> PayOptions:
        """Level 1: "Whenever the player would need to pay 1 gold ... may instead pay 2 iron"
        (left) / "... 1 gem ... may instead pay 3 iron" (right), in every payment."""
        return self._opts[(T1L in p.traits, T1R in p.traits)]

    def excavated(self, st, p, new: int, counts, source: str) -> None:
        n_iron = counts[0]
        if n_iron >= self.left_min and len(p.fx[ROWS]) < self.n_rows:
            p.fx[ROWS].append(1 if n_iron >= self.right_min else 0)
        if n_iron and T3L in p.traits:
            p.res[IRON] += n_iron * (self.mult - 1)

    def activated(self, st, p, key, kind, card, effect):
        """Level 3 right (assumed): +iron when activating an own workshop or forge; outposts
        are not player buildings (Appendix B, Additional Map Rules)."""
        if T3R in p.traits and kind in ("workshop", "forge"):
            p.res[IRON] += self.traits[T3R].params["iron_per_activation"]
        return effect

    def constructed(self, st, p, kind: str, card, site: int, slot: int, tag: str) -> None:
        if T2R in p.traits and (site & st.static.board.iron).bit_count() >= self.p2r["min_iron"]:
            prm = self.p2r
            p.res[IRON] += prm["iron"]
            p.res[GOLD] += prm["gold"]
            p.res[GEM] += prm["gem"]
            if prm["vp"]:
                p.vp += prm["vp"]
                st.score(p, "vp_track", prm["vp"])

    def dig_value(self, st, p, new: int) -> float:
        """Bot heuristic: a multi-iron excavation circles the next calling row."""
        n_iron = (new & st.static.board.iron).bit_count()
        row = len(p.fx.get(ROWS, ()))
        if n_iron < self.left_min or row >= self.n_rows:
            return 0.0
        return float(self.data.calling["rows"][row][1 if n_iron >= self.right_min else 0])

    def final_scoring(self, st, p) -> list[tuple[str, int]]:
        return [("calling", calling_vp(self.data.calling, p.fx[ROWS]))]
