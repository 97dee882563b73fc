"""Production Phase (rulebook "Production Phase"; Appendix B, Trade Routes outposts).

Each player activates, in any order and each at most once per phase, their workshops and
forges, their production-phase trait actions and (Trade Routes) the outposts they have reached:
pay the input, gain the output.  `gain` is the one place an output (resources, VP on the
track, excavations) is gained, for activations and traits alike.  `produce` is the decision."""

from __future__ import annotations

from engine.core.errors import IllegalAction

from .board import connected_outposts
from .state import GEM, GOLD, IRON, Player, cost_tuple


class Production:
    """State methods: what may be activated now, and gaining an output."""

    def gain(self, p: Player, effect, source: str) -> None:
        """Gain an effect's output: resources, VP on the track, excavations (pushed as frames)."""
        p.res[IRON] += effect.iron
        p.res[GOLD] += effect.gold
        p.res[GEM] += effect.gem
        if effect.vp:
            p.vp += effect.vp
            self.score(p, "vp_track", effect.vp)
        for kind in reversed(effect.excavate_space):
            self.stack.append(("space", p.seat, kind, source))
        for sid in reversed(effect.excavate):
            self.stack.append(("excavate", p.seat, sid, source))

    def activatables(self, p: Player) -> list[tuple[str, tuple[int, int, int], object, str | None, object]]:
        """(key, input need, effect, building kind, card) this player may activate now."""
        return list(self.each_activatable(p))

    def each_activatable(self, p: Player):
        """`activatables` one by one (the hooks it asks have no side effects, so a caller
        looking for one key may stop early)."""
        hook = self.hooks[p.seat]
        cards = self.static.cards
        for i, (kind, cid, _fp) in enumerate(p.buildings):
            key = f"b{i}"
            if key in p.activated:
                continue
            card = cards[kind][cid]
            need = hook.activation_input(self, p, kind, card, list(cost_tuple(card.input)))
            yield (key, tuple(need), card.output, kind, card)
        if self.static.board.outposts:
            conn = connected_outposts(self.static.board, p.exc)
            gmap = next(m for m in self.rules.maps if m.id == self.map_id)
            for j, cell in enumerate(self.static.board.outposts):
                key = f"o{j}"
                if key not in p.activated and conn >> j & 1:
                    op = gmap.outposts[j]
                    yield (key, cost_tuple(op.input), op.output, None, None)
        faction = self.rules.factions[p.faction]
        for t in faction.traits:
            if t.id not in p.traits:
                continue
            for k, act in enumerate(t.actions):
                if act.when not in ("production", "any"):
                    continue
                key = f"t:{t.id}:{k}"
                if key in p.activated or (act.once_per_game and key in p.used):
                    continue
                if t.params.get("only_one") and any(u.startswith(f"t:{t.id}:") for u in p.used):
                    continue
                yield (key, cost_tuple(act.input), act.output, None, None)
        for key, need, effect in hook.production_extras(self, p):
            if key not in p.activated:
                yield (key, tuple(need), effect, None, None)


# ====================================================================== task
def t_production(s, task) -> None:
    s.phase = "production"
    p = s.players[task[1]]
    p.activated = set()
    s.stack.append(("produce", p.seat))


# ====================================================================== frame
def l_produce(s, frame):
    p = s.players[frame[1]]
    out = [("activate", key) for key, need, _e, _k, _c in s.activatables(p) if s.can_pay(p, need)]
    out.append(("done",))
    return out


def a_produce(s, frame, action):
    if action[0] == "done":
        return
    p = s.players[frame[1]]
    key = action[1]
    for k, need, effect, kind, card in s.each_activatable(p):
        if k == key:
            break
    else:  # pragma: no cover - legality was checked
        raise IllegalAction(key)
    s.stack.append(("produce", p.seat))
    s.pay(p, need)
    p.activated.add(key)
    if key.startswith("t:"):
        p.used.add(key)
    effect = s.hooks[p.seat].activated(s, p, key, kind, card, effect)
    if effect is not None:
        s.gain(p, effect, "production")


LEGAL = {"produce": l_produce}
APPLY = {"produce": a_produce}
TASKS = {"production": t_production}
