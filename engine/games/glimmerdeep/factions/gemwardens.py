"""The Gemwardens (rulebook Appendix A): they never excavate gems, start with one more gem and
score the gems they have "explored".  Interpretations: gemwardens.md."""

from __future__ import annotations

from ..economy import PayOptions
from ..state import GEM
from . import FactionPlay, register

GEM_COVERS_TWO = PayOptions(gem_covers_two=True)


def explored_gems(board, exc: int) -> int:
    """"Explored" gems: gem spaces not excavated but adjacent to an excavated space."""
    return (board.gem & ~exc & board.neighbours(exc)).bit_count()


@register("gemwardens")
class Gemwardens(FactionPlay):

    def __init__(self, rules, faction_id):
        super().__init__(rules, faction_id)
        self.explored_vp = tuple(self.data.calling["explored_vp"])
        self.no_dig = tuple(self.data.cannot_excavate)
        t = self.traits
        self.t2l, self.t2r = "gemwardens_2l", "gemwardens_2r"
        self.t3l, self.t3r = "gemwardens_3l", "gemwardens_3r"
        self.min_gem = int(t[self.t2l].params.get("min_gem_output", 1))
        self.extra_n = int(t[self.t2l].params.get("extra_activations", 1))
        self.gem_per_adj = int(t[self.t2r].params.get("gems_per_adjacent_gem", 1))
        self.forge_vp = int(t[self.t3l].params.get("forge_vp_per_gem", 1))

    # --- "The Gemwardens cannot excavate gem spaces." ------------------------------------
    def forbidden(self, st, p) -> int:
        board = st.static.board
        m = 0
        for kind in self.no_dig:
            m |= board.kind_mask(kind)
        return m

    # --- level 3 right: each gem spent covers two gems of one cost ----------------------
    def pay_options(self, st, p, context):
        if self.t3r in p.traits:
            return GEM_COVERS_TWO
        return super().pay_options(st, p, context)

    # --- level 2 right: gems for adjacent gem spaces when constructing -------------------
    def constructed(self, st, p, kind, card, site, slot, tag):
        if self.t2r in p.traits:
            board = st.static.board
            p.res[GEM] += self.gem_per_adj * (board.neighbours(site) & board.gem).bit_count()

    # --- level 2 left: one extra activation of a gem-producing workshop ------------------
    def production_extras(self, st, p):
        if self.t2l not in p.traits:
            return []
        if sum(1 for k in p.activated if k.startswith("gw2:")) >= self.extra_n:
            return []
        cards = st.static.cards["workshop"]
        out = []
        for i, (kind, cid, _fp) in enumerate(p.buildings):
            if kind != "workshop":
                continue
            card = cards[cid]
            if card.output.gem >= self.min_gem:
                c = card.input
                out.append((f"gw2:b{i}", (c.iron, c.gold, c.gem), card.output))
        return out

    def activated(self, st, p, key, kind, card, effect):
        if key.startswith("gw2:"):
            kind, cid, _fp = p.buildings[int(key[5:])]
            card = st.static.cards[kind][cid]
        if kind is None or self.t3l not in p.traits:
            return effect
        if kind == "forge":
            # "When you activate a forge, gain 1 VP for each gem spent" (printed gem input only).
            vp = self.forge_vp * card.input.gem
            if vp:
                p.vp += vp
                st.score(p, "vp_track", vp)
            return effect
        if "gw3l" not in p.used and (effect.iron or effect.gold):
            # Once per game: the player chooses whether this activation uses the replacement.
            st.stack.append(("fx", p.seat, "gw3l", kind, card.id))
            return None
        return effect

    def frame_actions(self, st, p, frame):
        return [("gw3l", "gems"), ("gw3l", "keep")]

    def frame_apply(self, st, p, frame, action):
        effect = st.static.cards[frame[3]][frame[4]].output
        if action[1] == "gems":
            p.used.add("gw3l")
            effect = effect.model_copy(update={"iron": 0, "gold": 0,
                                               "gem": effect.gem + effect.iron + effect.gold})
        st.gain(p, effect, "production")

    # --- calling ---------------------------------------------------------------------------
    def final_scoring(self, st, p):
        n = explored_gems(st.static.board, p.exc)
        table = self.explored_vp
        return [("calling", table[min(n, len(table) - 1)])]

