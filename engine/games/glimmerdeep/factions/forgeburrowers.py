"""The Forgeburrowers (rulebook Appendix A): a smithy that grows each round, and bonuses when
they activate buildings.  Interpretations: forgeburrowers.md."""

from __future__ import annotations

from ..rules import Effect
from ..state import GEM, GOLD, IRON, RES_INDEX
from . import FactionPlay, register

BY_VALUE = (GEM, GOLD, IRON)   # most valuable first


def _reduce_one(need: list[int], allowed=(1, 1, 1)) -> list[int]:
    """Reduce the most valuable resource of `need` (among the allowed types) by one."""
    for r in BY_VALUE:
        if need[r] > 0 and allowed[r]:
            need = list(need)
            need[r] -= 1
            return need
    return need


@register("forgeburrowers")
class Forgeburrowers(FactionPlay):

    def __init__(self, rules, faction_id):
        super().__init__(rules, faction_id)
        cal = self.data.calling
        self.rows = tuple(RES_INDEX[r] for r in cal["rows"])
        self.n_inputs = int(cal["input_columns"])
        self.max_per_col = int(cal["max_per_column"])
        self.columns = tuple(cal["columns"])
        shape_ids = {s.id for s in rules.shapes}
        # cells[col][row] = (iron, gold, gem, vp, shape or "")
        self.cells = []
        for name in self.columns:
            grid = cal[name]
            shapes = cal.get(f"{name}_shapes", ("",) * len(self.rows))
            if len(grid) != len(self.rows) or len(shapes) != len(self.rows):
                raise ValueError(f"factions.{faction_id}.calling.{name}: one cell per row expected")
            col = []
            for r, cell in enumerate(grid):
                if shapes[r] and shapes[r] not in shape_ids:
                    raise ValueError(f"factions.{faction_id}.calling.{name}_shapes: unknown shape '{shapes[r]}'")
                col.append((cell[0], cell[1], cell[2], cell[3], shapes[r]))
            self.cells.append(tuple(col))
        self.ncols = len(self.columns)
        self.activations = int(cal.get("activations", 1))
        t = self.traits
        self.t1 = [(tid, t[tid].params) for tid in ("forgeburrowers_1l", "forgeburrowers_1r")]
        self.t2l, self.t2r = "forgeburrowers_2l", "forgeburrowers_2r"
        self.t3l, self.t3r = "forgeburrowers_3l", "forgeburrowers_3r"
        self.x_uses = int(t[self.t2r].params.get("uses", 2))
        self.x_reduce = int(t[self.t2r].params.get("reduce", 1))
        self.l3_reduce = int(t[self.t3l].params.get("reduce", 1))
        self.l3r_acts = int(t[self.t3r].params.get("smithy_activations", 2))
        self._effects: dict[int, Effect] = {}

    # --- the smithy: circling at the start of each round ----------------------------------
    def round_start(self, st, p):
        if self._circle_options(p):
            st.stack.append(("fx", p.seat, "fb_circle"))

    def _circle_options(self, p) -> list[tuple]:
        if sum(p.fx.get("fb_in", (0, 0, 0))) >= self.n_inputs:
            return []
        mask = p.fx.get("fb_bonus", 0)
        out = []
        for c in range(self.ncols):
            in_col = sum(1 for r in range(len(self.rows)) if mask >> (r * self.ncols + c) & 1)
            if in_col >= self.max_per_col:
                continue
            for r in range(len(self.rows)):
                if not mask >> (r * self.ncols + c) & 1:
                    out.append(("circle", r, c))
        return out

    def smithy_effect(self, mask: int) -> Effect:
        eff = self._effects.get(mask)
        if eff is None:
            tot = [0, 0, 0, 0]
            shapes = []
            for r in range(len(self.rows)):
                for c in range(self.ncols):
                    if mask >> (r * self.ncols + c) & 1:
                        cell = self.cells[c][r]
                        for k in range(4):
                            tot[k] += cell[k]
                        if cell[4]:
                            shapes.append(cell[4])
            eff = self._effects[mask] = Effect(iron=tot[0], gold=tot[1], gem=tot[2], vp=tot[3],
                                               excavate=tuple(shapes))
        return eff

    # --- production: the smithy and trait level 2 right ---------------------------------
    def production_extras(self, st, p):
        out = []
        mask = p.fx.get("fb_bonus", 0)
        if mask:
            n = self.l3r_acts if self.t3r in p.traits else self.activations
            need = tuple(p.fx["fb_in"])
            eff = self.smithy_effect(mask)
            for k in range(n):
                out.append(("smithy" if k == 0 else f"smithy{k + 1}", need, eff))
        if self.t2r in p.traits and p.fx.get("fbx_used", 0) < self.x_uses:
            cards = st.static.cards
            for i, (kind, cid, _fp) in enumerate(p.buildings):
                if f"b{i}" in p.activated:  # "only once per phase": it replaces, never adds
                    continue
                card = cards[kind][cid]
                out.append((f"fbx:b{i}", tuple(self._extra_need(st, p, kind, card)), card.output))
        return out

    def _extra_need(self, st, p, kind, card) -> list[int]:
        need = self.activation_input(st, p, kind, card, [card.input.iron, card.input.gold, card.input.gem])
        for _ in range(self.x_reduce):
            need = _reduce_one(need)
        return need

    # --- level 3 left: activation input reduced by a resource of the construction cost ----
    def activation_input(self, st, p, kind, card, need):
        if self.t3l in p.traits:
            allowed = (card.cost.iron, card.cost.gold, card.cost.gem)
            for _ in range(self.l3_reduce):
                need = _reduce_one(need, allowed)
        return need

    # --- level 2 right outside production: the excavation phase and construction turns ---
    def anytime_extras(self, st, p):
        if self.t2r not in p.traits or p.fx.get("fbx_used", 0) >= self.x_uses:
            return []
        cards = st.static.cards
        out = []
        for i, (kind, cid, _fp) in enumerate(p.buildings):
            if f"b{i}" in p.activated:  # "only once per phase"
                continue
            if st.can_pay(p, self._extra_need(st, p, kind, cards[kind][cid])):
                out.append(("fbx", i))
        return out

    def construct_extras(self, st, p):
        return self.anytime_extras(st, p)

    def apply_extra(self, st, p, action):
        kind, cid, _fp = p.buildings[action[1]]
        card = st.static.cards[kind][cid]
        st.pay(p, self._extra_need(st, p, kind, card))
        p.fx["fbx_used"] = p.fx.get("fbx_used", 0) + 1
        p.activated.add(f"b{action[1]}")
        effect = self._building_activated(st, p, kind, card, card.output)
        if effect is not None:
            st.gain(p, effect, "trait")

    # --- activation bonuses (levels 1 and 2 left) ------------------------------------------
    def activated(self, st, p, key, kind, card, effect):
        if key.startswith("fbx:b"):
            p.fx["fbx_used"] = p.fx.get("fbx_used", 0) + 1
            p.activated.add(key[4:])  # the building's one activation of this phase
            kind, cid, _fp = p.buildings[int(key[5:])]
            card = st.static.cards[kind][cid]
        if kind is None:
            return effect
        return self._building_activated(st, p, kind, card, effect)

    def _building_activated(self, st, p, kind, card, effect):
        frame = ("fx", p.seat, "fb_act", kind, card.id, ())
        if len(self._bonus_options(st, p, frame)) > 1:
            st.stack.append(frame)
            return None
        return effect

    def _bonus_options(self, st, p, frame) -> list[tuple]:
        kind, cid = frame[3], frame[4]
        out = []
        if kind == "workshop":
            for tid, _prm in self.t1:
                if tid in p.traits:
                    if "fb:res" not in p.used:
                        out.append(("fb", "res"))
                    if "fb:space" not in p.used:
                        out.append(("fb", "space"))
        if self.t2l in p.traits:
            eff = st.static.cards[kind][cid].output
            if "fb:double" not in p.used:
                amounts = (eff.iron, eff.gold, eff.gem)
                for r, name in enumerate(("iron", "gold", "gem")):
                    if amounts[r]:
                        out.append(("fb", "double", name))
            if "fb:twice" not in p.used and (eff.excavate or eff.excavate_space):
                out.append(("fb", "twice"))
        out.append(("fb", "done"))
        return out

    def _finish_activation(self, st, p, frame) -> None:
        kind, cid, applied = frame[3], frame[4], frame[5]
        eff = st.static.cards[kind][cid].output
        upd = {}
        for a in applied:
            if a.startswith("double:"):
                r = a[7:]
                upd[r] = 2 * getattr(eff, r)
            elif a == "twice":
                upd["excavate"] = eff.excavate * 2
                upd["excavate_space"] = eff.excavate_space * 2
        if upd:
            eff = eff.model_copy(update=upd)
        src = "production" if st.phase == "production" else "trait"
        st.gain(p, eff, src)
        if "space" in applied:
            for tid, prm in self.t1:
                if tid in p.traits:
                    st.stack.append(("space", p.seat, prm.get("space", "any"), src))

    # --- frames ----------------------------------------------------------------------------
    def frame_actions(self, st, p, frame):
        if frame[2] == "fb_circle":
            return self._circle_options(p) or [("circle_none",)]
        return self._bonus_options(st, p, frame)

    def frame_apply(self, st, p, frame, action):
        if frame[2] == "fb_circle":
            if action[0] == "circle":
                r, c = action[1], action[2]
                fin = list(p.fx.get("fb_in", (0, 0, 0)))
                fin[self.rows[r]] += 1
                p.fx["fb_in"] = fin
                p.fx["fb_bonus"] = p.fx.get("fb_bonus", 0) | 1 << (r * self.ncols + c)
            return
        name = action[1]
        if name == "done":
            self._finish_activation(st, p, frame)
            return
        if name == "res":
            for tid, prm in self.t1:
                if tid in p.traits:
                    for r, res in enumerate(("iron", "gold", "gem")):
                        p.res[r] += int(prm.get(res, 0))
            p.used.add("fb:res")
            tag = "res"
        elif name == "space":
            p.used.add("fb:space")
            tag = "space"
        elif name == "double":
            p.used.add("fb:double")
            tag = f"double:{action[2]}"
        else:  # twice
            p.used.add("fb:twice")
            tag = "twice"
        st.stack.append(frame[:5] + (frame[5] + (tag,),))
