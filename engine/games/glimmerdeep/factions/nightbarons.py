"""The Nightbarons (rulebook Appendix A): Market Influence x Market Value for each +[Resource]
column of the market they construct from, and market manipulation.  Interpretations:
nightbarons.md."""

from __future__ import annotations

from . import FactionPlay, register

KINDS = ("workshop", "forge")
CATS = ("iron", "gold", "gem", "none")
CAT_INDEX = {c: i for i, c in enumerate(CATS)}


@register("nightbarons")
class Nightbarons(FactionPlay):

    def __init__(self, rules, faction_id):
        super().__init__(rules, faction_id)
        cal = self.data.calling
        self.values = tuple(tuple(v) for v in cal["values"])      # iron, gold, gem columns
        if len(self.values) != 3 or not all(self.values):
            raise ValueError(f"factions.{faction_id}.calling.values: three non-empty columns expected")
        self.none_value = int(cal.get("none_value", 0))
        t = self.traits
        self.t1l, self.t1r, self.t2l, self.t2r, self.t3l, self.t3r = (
            f"nightbarons_{x}" for x in ("1l", "1r", "2l", "2r", "3l", "3r"))
        self.l1_none_value = int(t[self.t1l].params.get("none_value", 1))
        self.deck_top_cat = str(t[self.t1l].params.get("deck_top_counts_as", ""))   # D5 reading
        self.swap_kinds = tuple(str(t[self.t1r].params.get("kinds", "workshop,forge")).split(","))
        self.mkt_acts = int(t[self.t2l].params.get("activations", 1))
        self.bswap_kinds = tuple(str(t[self.t2r].params.get("kinds", "workshop,forge")).split(","))
        self.none_space = str(t[self.t3l].params.get("none_space", "dirt"))
        self.vp_per_cat = int(t[self.t3r].params.get("vp_per_category", 1))

    # --- calling bookkeeping ---------------------------------------------------------------
    def setup(self, st, p):
        p.fx["nb_ticks"] = [0, 0, 0, 0]      # Market Influence: iron, gold, gem, none
        p.fx["nb_cross"] = [0, 0, 0]         # Market Value spaces crossed out: iron, gold, gem

    def market_value(self, p, cat: int) -> int:
        if cat == 3:
            return max(self.none_value, self.l1_none_value if self.t1l in p.traits else 0)
        col = self.values[cat]
        return col[min(p.fx["nb_cross"][cat], len(col) - 1)]

    def calling_vp(self, p) -> int:
        return sum(p.fx["nb_ticks"][c] * self.market_value(p, c) for c in range(4))

    def constructed(self, st, p, kind, card, site, slot, tag):
        if slot >= 0:
            cat = CAT_INDEX[st.rules.market.extra_costs[slot]]
        else:
            # Level 1 left: the top card of a building deck.
            deck = st.decks[kind]
            if deck and deck[-1] == card.id:
                deck.pop()
            if self.deck_top_cat not in CAT_INDEX:
                return
            cat = CAT_INDEX[self.deck_top_cat]
        ticks = p.fx["nb_ticks"]
        ticks[cat] += 1
        cross = p.fx["nb_cross"]
        for c in range(3):
            if c != cat:
                cross[c] += 1
        if self.t3r in p.traits:
            vp = self.vp_per_cat * sum(1 for n in ticks if n)
            if vp:
                p.vp += vp
                st.score(p, "vp_track", vp)

    # --- construction-turn extras: deck tops and swaps -------------------------------------
    def construct_extras(self, st, p):
        out = []
        traits = p.traits
        if self.t1l in traits:
            cards = st.static.cards
            for kind in KINDS:
                deck = st.decks[kind]
                if deck and st.affordable_sites(p, kind, -1, cards[kind][deck[-1]]):
                    out.append(("nb_top", kind))
        if self.t1r in traits:
            for kind in self.swap_kinds:
                if f"nb_swap:{kind}" in p.used:
                    continue
                row = st.market[kind]
                filled = [i for i, c in enumerate(row) if c is not None]
                for a in range(len(filled)):
                    for b in range(a + 1, len(filled)):
                        if row[filled[a]] != row[filled[b]]:
                            out.append(("nb_swap", kind, filled[a], filled[b]))
        if self.t2r in traits:
            for kind in self.bswap_kinds:
                if f"nb_bswap:{kind}" in p.used:
                    continue
                row = st.market[kind]
                for i, (k, _cid, _fp) in enumerate(p.buildings):
                    if k != kind:
                        continue
                    for slot, c in enumerate(row):
                        if c is not None:
                            out.append(("nb_bswap", kind, i, slot))
        return out

    def apply_extra(self, st, p, action):
        kind = action[1]
        if action[0] == "nb_top":
            st.stack.pop()          # the construction turn continues as this construction
            p.fx["deck_top_card"] = st.decks[kind][-1]
            st.stack.append(("site", p.seat, kind, -1))
        elif action[0] == "nb_swap":
            row = st.market[kind]
            i, j = action[2], action[3]
            row[i], row[j] = row[j], row[i]
            p.used.add(f"nb_swap:{kind}")
        elif action[0] == "nb_bswap":
            i, slot = action[2], action[3]
            row = st.market[kind]
            k, cid, fp = p.buildings[i]
            p.buildings[i] = (k, row[slot], fp)
            row[slot] = cid
            p.used.add(f"nb_bswap:{kind}")
        else:  # pragma: no cover
            raise ValueError(action)

    # --- level 3 left: excavate one space per Market Influence tick ------------------------
    def excavation_end(self, st, p):
        if self.t3l not in p.traits:
            return
        ticks = p.fx["nb_ticks"]
        for c in (3, 2, 1, 0):      # pushed last first: iron spaces resolve first
            kind = self.none_space if c == 3 else CATS[c]
            for _ in range(ticks[c]):
                st.stack.append(("space", p.seat, kind, "trait"))

    # --- level 2 left: activate a building of the market -----------------------------------
    def production_extras(self, st, p):
        if self.t2l not in p.traits:
            return []
        if sum(1 for k in p.activated if k.startswith("nb_mkt:")) >= self.mkt_acts:
            return []
        out = []
        cards = st.static.cards
        for kind in KINDS:
            for slot, cid in enumerate(st.market[kind]):
                if cid is not None:
                    card = cards[kind][cid]
                    c = card.input
                    out.append((f"nb_mkt:{kind}:{slot}", (c.iron, c.gold, c.gem), card.output))
        return out

    # --- calling ---------------------------------------------------------------------------
    def final_scoring(self, st, p):
        return [("calling", self.calling_vp(p))]
