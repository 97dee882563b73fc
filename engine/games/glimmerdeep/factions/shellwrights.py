"""The Shellwrights (rulebook Appendix A): VP for the combinations of resource spaces under their
buildings, and flexible footprints.  Interpretations: shellwrights.md."""

from __future__ import annotations

from ..board import bits, custom_footprints
from ..state import GEM, GOLD, IRON
from . import FactionPlay, register


def footprint_resources(board, fp: int) -> tuple[int, int, int]:
    """(iron, gold, gem) spaces within a footprint."""
    return ((fp & board.iron).bit_count(), (fp & board.gold).bit_count(), (fp & board.gem).bit_count())


def _cells(flat) -> tuple[tuple[int, int], ...]:
    return tuple((flat[i], flat[i + 1]) for i in range(0, len(flat), 2))


@register("shellwrights")
class Shellwrights(FactionPlay):

    def __init__(self, rules, faction_id):
        super().__init__(rules, faction_id)
        cal = self.data.calling
        self.combos = tuple(tuple(c) for c in cal["combos"])
        self.combo_vp = tuple(cal["combo_vp"])
        self.exact = cal.get("match", "exact") == "exact"
        self.t1l, self.t2l, self.t3l, self.t3r = ("shellwrights_1l", "shellwrights_2l",
                                                  "shellwrights_3l", "shellwrights_3r")
        self.adj_kinds = tuple(str(self.traits[self.t1l].params.get("kinds", "workshop,forge")).split(","))
        # Alternative footprints: kind -> [(trait id, tag, cells)]
        self.alt = {"workshop": [], "forge": []}
        for tid in ("shellwrights_1r", "shellwrights_2r"):
            prm = self.traits[tid].params
            for key, val in prm.items():
                if key.startswith("fp_"):
                    self.alt[prm["kind"]].append((tid, key[3:], _cells(val)))
        self.dig_spaces = int(self.traits[self.t2l].params.get("spaces", 1))
        self.per_space = int(self.traits[self.t3l].params.get("per_space", 1))
        self.min_exc = int(self.traits[self.t3r].params.get("min_excavated", 1))

    # --- construction sites -----------------------------------------------------------------
    def sites(self, st, p, kind):
        out = []
        board = st.static.board
        space = self.site_space(st, p, kind)  # where site_ok accepts a footprint (None: ask it)
        for tid, tag, cells in self.alt[kind]:
            if tid in p.traits and f"sw_fp:{kind}:{tag}" not in p.used:
                fps = custom_footprints(board, cells)
                if space is not None:  # leave out those site_ok would refuse
                    fps = [fp for fp in fps if not fp & ~space]
                out.extend((fp, tag) for fp in fps)
        return out

    def site_space(self, st, p, kind):
        """site_ok for any footprint (standard or alternative) as one mask (level 3 right
        counts spaces, so it asks site_ok for each)."""
        if self.t3r in p.traits:
            return None
        if self.t1l in p.traits and kind in self.adj_kinds and f"sw_adj:{kind}" not in p.used:
            # Level 1 left: may touch buildings, still not built on and not next to an outpost.
            board = st.static.board
            return p.exc & ~board.blocked & ~p.built & ~board.grow(st.static.outposts)
        return st.standard_site_space(p)

    def site_ok(self, st, p, kind, fp, tag):
        traits = p.traits
        partial = self.t3r in traits
        if not (tag or partial or self.t1l in traits):
            return None  # the standard test (the common case: keep it cheap)
        board = st.static.board
        if fp & p.built or fp & board.blocked:
            return False
        if partial:
            # Level 3 right: "Only 1 space within its footprint must be excavated."
            if (fp & p.exc).bit_count() < self.min_exc:
                return False
        elif fp & ~p.exc:
            return False
        nb = board.neighbours(fp)
        if nb & st.static.outposts:
            return False
        if nb & p.built:
            # Level 1 left: once per game per kind, a building may touch others.
            return (self.t1l in traits and kind in self.adj_kinds
                    and f"sw_adj:{kind}" not in p.used)
        return True

    def constructed(self, st, p, kind, card, site, slot, tag):
        board = st.static.board
        if tag:
            p.used.add(f"sw_fp:{kind}:{tag}")
        if (self.t1l in p.traits and kind in self.adj_kinds
                and board.neighbours(site) & p.built & ~site):
            p.used.add(f"sw_adj:{kind}")        # the once-per-game adjacent construction
        counts = footprint_resources(board, site)
        # Calling: circle the combination of resources under this footprint.
        circled = p.fx.get("sw_circled", 0)
        best = -1
        for j, combo in enumerate(self.combos):
            if circled >> j & 1:
                continue
            if self.exact:
                hit = combo == counts
            else:
                hit = combo[0] <= counts[0] and combo[1] <= counts[1] and combo[2] <= counts[2]
            if hit and (best < 0 or self.combo_vp[j] > self.combo_vp[best]):
                best = j
        if best >= 0:
            p.fx["sw_circled"] = circled | 1 << best
        # Level 3 left: one resource per resource space within the footprint.
        if self.t3l in p.traits:
            p.res[IRON] += self.per_space * counts[0]
            p.res[GOLD] += self.per_space * counts[1]
            p.res[GEM] += self.per_space * counts[2]
        # Level 2 left: excavate 1 space adjacent to the building just constructed.
        if self.t2l in p.traits:
            for _ in range(self.dig_spaces):
                st.stack.append(("fx", p.seat, "sw_dig", site))

    # --- the adjacent-space excavation frame ----------------------------------------------
    def frame_actions(self, st, p, frame):
        board = st.static.board
        cand = board.neighbours(frame[3]) & ~p.exc & ~st.forbidden(p)
        out = [("dig", 1 << c) for c in bits(cand)]
        out.append(("skip",))
        return out

    def frame_apply(self, st, p, frame, action):
        if action[0] == "dig":
            st.excavate(p, action[1], "trait")

    # --- calling ---------------------------------------------------------------------------
    def final_scoring(self, st, p):
        circled = p.fx.get("sw_circled", 0)
        return [("calling", sum(vp for j, vp in enumerate(self.combo_vp) if circled >> j & 1))]
