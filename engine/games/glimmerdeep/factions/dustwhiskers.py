"""The Dustwhiskers (rulebook Appendix A): VP for the largest cluster of excavated dirt spaces;
cheaper buildings on dirt, extra dirt digging.  See dustwhiskers.md."""

from __future__ import annotations

from ..board import components
from ..state import GEM, GOLD, IRON
from . import FactionPlay, register

T1L, T2L, T2R, T3L, T3R = ("dustwhiskers_1l", "dustwhiskers_2l", "dustwhiskers_2r",
                           "dustwhiskers_3l", "dustwhiskers_3r")


def cluster_spaces(board, unique_break: bool = True) -> int:
    """The spaces that may belong to a calling cluster: dirt and the settlement ("The player's
    starting settlement counts as dirt"), without the spaces unique to the map (forest, the
    Peak) when `unique_break` ("Spaces that contain a resource (or spaces unique to the
    player's map) ... cannot be included and can break up a cluster")."""
    return board.dirt & ~(board.forest | board.peak) if unique_break else board.dirt


def largest_dirt_cluster(board, exc: int, built: int, unique_break: bool = True) -> int:
    """Size of the largest side-connected cluster of excavated dirt spaces (spaces under
    buildings are excavated)."""
    mask = (exc | built) & cluster_spaces(board, unique_break)
    return max((c.bit_count() for c in components(board, mask)), default=0)


def discounted(cost: list[int], less_iron: int, less_any: int) -> list[int]:
    """Take `less_iron` iron off the cost, then `less_any` of any kind: the rarest first, which
    is never worse for the player (a gem pays for anything, gold for iron)."""
    c = list(cost)
    k = min(c[IRON], less_iron)
    c[IRON] -= k
    for _ in range(less_any):
        for r in (GEM, GOLD, IRON):
            if c[r]:
                c[r] -= 1
                break
    return c


@register("dustwhiskers")
class Dustwhiskers(FactionPlay):

    def __init__(self, rules, faction_id: str):
        super().__init__(rules, faction_id)
        self.discounts = [(tid, self.traits[tid].params) for tid in (T1L, T2L)]
        p3 = self.traits[T3R].params
        kinds = {k.strip() for k in p3["kinds"].split(",") if k.strip()}
        shapes = {k.strip() for k in p3["shapes"].split(",") if k.strip()}
        self.alt_from = {"1x1:" + k for k in kinds} | shapes
        self.alt_to = (p3["to_shape"],)
        self.end_actions = [a.output for a in self.traits[T2R].actions if a.when == "excavation_end"]
        self.unique_break = bool(self.data.calling.get("unique_spaces_break_clusters", 1))

    def excavation_end(self, st, p) -> None:
        """Level 2 right: "At the end of the excavation phase, the player may excavate 2 dirt
        spaces" (each space frame may be skipped)."""
        if T2R in p.traits:
            for out in self.end_actions:
                st.gain(p, out, "trait")

    def alt_shapes(self, st, p, shape_id: str, source: str) -> tuple[str, ...]:
        if T3R in p.traits and shape_id in self.alt_from:
            return self.alt_to
        return ()

    def construction_discount(self, st, p, kind: str, card, site: int, cost: list[int]) -> list[int]:
        for tid, prm in self.discounts:
            if tid in p.traits and kind == prm["kind"] \
                    and (site & st.static.board.dirt).bit_count() >= prm["min_dirt"]:
                cost = discounted(cost, prm["less_iron"], prm["less_any"])
        return cost

    def dig_value(self, st, p, new: int) -> float:
        """Bot heuristic: excavated dirt next to excavated dirt grows the largest cluster."""
        board = st.static.board
        dirt = cluster_spaces(board, self.unique_break)
        dirt_new = new & dirt
        return 0.8 * dirt_new.bit_count() if dirt_new & board.grow(p.exc & dirt) else 0.2 * dirt_new.bit_count()

    def final_scoring(self, st, p) -> list[tuple[str, int]]:
        board = st.static.board
        out = [("calling", largest_dirt_cluster(board, p.exc, p.built, self.unique_break)
                * self.data.calling["vp_per_space"])]
        if T3L in p.traits:
            under = 0
            for _k, _c, fp in p.buildings:
                under |= fp
            out.append(("traits", (under & board.dirt).bit_count() * self.traits[T3L].params["vp_per_space"]))
        return out
