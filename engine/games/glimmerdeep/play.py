"""Glimmerdeep: the round, split into small decisions (rulebook "Gameplay").

A round is an agenda of tasks (excavation per player, construction, production per player,
faction trait choice, market adjustment, round end).  A task may push decision frames on a
stack; the top frame says who is to move and what is legal.  Simultaneous phases are resolved
player by player in turn order (they do not interact).
"""

from __future__ import annotations

from engine.core.errors import IllegalAction
from engine.core.cache import PerRulesCache
from engine.core.events import NULL_LOG, EventLog
from engine.core.frames import FrameMachine
from engine.core.rng import chance_rng

from . import scoring
from .board import (Board, bits, build_board, footprints, placement_table, rectangle_fit,
                    shape_placements)
from .economy import settle
from .factions import FactionPlay, faction_play
from .state import GEM, GOLD, IRON, Player

KINDS = ("workshop", "forge")
EXTRA = {"iron": (1, 0, 0), "gold": (0, 1, 0), "gem": (0, 0, 1), "none": (0, 0, 0)}


class _Static:
    """What does not change during a game: board, shapes, cards, market costs."""

    __slots__ = ("rules", "board", "shapes", "cards", "extra", "footprint", "placements",
                 "categories", "fits", "outposts", "labels")

    def __init__(self, rules, map_id: str):
        self.rules = rules
        gmap = next(m for m in rules.maps if m.id == map_id)
        self.board: Board = build_board(gmap)
        self.shapes = {s.id: s for s in rules.shapes}
        self.cards = {"workshop": {c.id: c for c in rules.workshops},
                      "forge": {c.id: c for c in rules.forges}}
        self.extra = tuple(EXTRA[e] for e in rules.market.extra_costs)
        self.footprint = {"workshop": footprints(self.board, tuple(rules.game.workshop_footprint)),
                          "forge": footprints(self.board, tuple(rules.game.forge_footprint))}
        self.placements = {sid: shape_placements(self.board, s) for sid, s in self.shapes.items()}
        self.fits = {"workshop": rectangle_fit(self.board, tuple(rules.game.workshop_footprint)),
                     "forge": rectangle_fit(self.board, tuple(rules.game.forge_footprint))}
        self.outposts = outpost_mask(self.board)
        # "x,y" of each space, for the move log.
        self.labels = tuple(f"{x},{y}" for x, y in map(self.board.xy, range(len(self.board.kinds))))


static_for = PerRulesCache(_Static)  # (rules, map_id) -> _Static


def cost_tuple(c) -> tuple[int, int, int]:
    return (c.iron, c.gold, c.gem)


class GlimmerdeepState(FrameMachine):
    """The protocol state of DESIGN.md."""

    def __init__(self):
        pass  # built by new_game / clone

    # ------------------------------------------------------------------ construction
    @classmethod
    def new(cls, rules, seats, seed: int, map_id: str, log: bool = True) -> "GlimmerdeepState":
        s = cls()
        s.rules = rules
        s.static = static_for(rules, map_id)
        s.map_id = map_id
        s.n = len(seats)
        s.rng = chance_rng(seed)
        s.log = EventLog(enabled=log)
        s.round = 1
        s.step = 0
        s.phase = "setup"
        s.first_seat = 0
        s.start_seat = 0
        s.ended_by = None
        s.over = False
        s.stack: list[tuple] = []
        s.agenda: list[tuple] = []      # reversed: next task at the end
        s.passed: set[int] = set()
        s.hooks = [faction_play(rules, seat.faction) for seat in seats]
        board = s.static.board
        # Market board (setup steps 4 and 5): shuffled decks, slots filled.
        s.decks = {}
        s.market = {}
        for kind, cards in (("workshop", rules.workshops), ("forge", rules.forges)):
            deck = [c.id for c in cards]
            s.rng.shuffle(deck)
            s.decks[kind] = deck
            s.market[kind] = [None] * rules.market.slots
            for i in range(rules.market.slots - 1, -1, -1):
                s.market[kind][i] = deck.pop() if deck else None
        s.solo_deck = []
        if s.n == 1 and rules.solo_cards:
            s.solo_deck = [c.id for c in rules.solo_cards]
            s.rng.shuffle(s.solo_deck)
        # Players: map with the starting settlement excavated, a shuffled excavation deck.
        deck_cards = [sh.id for sh in rules.shapes for _ in range(sh.copies)]
        s.players = []
        for i, seat in enumerate(seats):
            p = Player(i, seat.faction)
            p.exc = board.settlement
            p.built = board.settlement
            deck = list(deck_cards)
            s.rng.shuffle(deck)
            p.deck = deck
            if s.n == 1:
                # Solo Variant: "There are no additional starting resources when playing solo."
                p.res = [rules.solo.start.iron, rules.solo.start.gold, rules.solo.start.gem]
            else:
                su = rules.factions[seat.faction].setup
                p.res[IRON] += su.iron
                p.res[GOLD] += su.gold
                p.res[GEM] += su.gem
            s.players.append(p)
        for i, p in enumerate(s.players):
            s.hooks[i].setup(s, p)
        s._start_round()
        s._advance()
        return s

    def clone(self, log: bool = True) -> "GlimmerdeepState":
        """An independent copy; with log=False it records nothing (lookahead copies)."""
        s = GlimmerdeepState.__new__(GlimmerdeepState)
        s.__dict__.update(self.__dict__)
        s.players = [p.clone() for p in self.players]
        s.stack = self.stack.copy()
        s.agenda = self.agenda.copy()
        s.passed = self.passed.copy()
        s.market = {k: v.copy() for k, v in self.market.items()}
        s.decks = {k: v.copy() for k, v in self.decks.items()}
        s.solo_deck = self.solo_deck.copy()
        s.log = self.log.copy() if log else NULL_LOG
        s.rng = None  # chance is settled at setup; a copy never shuffles
        return s

    # ------------------------------------------------------------------ protocol
    def describe_move(self, action, frame):
        return describe(self, action, frame)

    def result(self):
        return scoring.result(self)

    def describe(self, action) -> tuple[str, str, int | None]:
        return describe(self, action)

    # ------------------------------------------------------------------ agenda
    def _start_round(self) -> None:
        order = self.turn_order()
        tasks: list[tuple] = [("round_start",)]
        for seat in order:
            for k in range(self.rules.game.excavations_per_round):
                tasks.append(("flip", seat, k))
            tasks.append(("excavation_end", seat))
        tasks.append(("construction",))
        for seat in order:
            tasks.append(("production", seat))
        if self.round <= self.rules.game.trait_rounds:
            for seat in order:
                tasks.append(("trait", seat, self.round))
        tasks.append(("market_adjust",))
        tasks.append(("round_end",))
        self.agenda = tasks[::-1]

    def turn_order(self) -> list[int]:
        return [(self.first_seat + i) % self.n for i in range(self.n)]

    def _advance(self) -> None:
        while not self.stack and not self.over:
            if not self.agenda:
                self._start_round()
            task = self.agenda.pop()
            _TASKS[task[0]](self, task)

    # ------------------------------------------------------------------ logging
    def score(self, p: Player, category: str, points: int) -> None:
        self.log.score(self.step, self.round, p.seat, category, points)

    # ------------------------------------------------------------------ shared mechanisms
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

    def forbidden(self, p: Player) -> int:
        return self.static.board.blocked | self.hooks[p.seat].forbidden(self, p)

    def reach(self, p: Player) -> int:
        if self.hooks[p.seat].reach_anywhere(self, p):
            return self.static.board.full
        return self.static.board.grow(p.exc)

    def excavate(self, p: Player, new: int, source: str) -> None:
        """Mark new spaces excavated and gain their resources ("When Excavating")."""
        board = self.static.board
        new &= ~p.exc
        if not new:
            return
        p.exc |= new
        counts = ((new & board.iron).bit_count(), (new & board.gold).bit_count(),
                  (new & board.gem).bit_count())
        p.res[IRON] += counts[0]
        p.res[GOLD] += counts[1]
        p.res[GEM] += counts[2]
        if board.peak and p.peak is None and p.exc & board.peak:
            self._check_peak(p)
        self.hooks[p.seat].excavated(self, p, new, counts, source)

    def _check_peak(self, p: Player) -> None:
        """Snowy Summit: the Peak counts once a path from the settlement reaches it."""
        board = self.static.board
        comp = settlement_component(board, p.exc)
        if comp & board.peak:
            p.peak = 2 * p.flips + (1 if self.phase == "production" else 0)

    def pay(self, p: Player, need, context: str = "activate") -> bool:
        opt = self.hooks[p.seat].pay_options(self, p, context)
        r = settle(p.res, tuple(need), opt)
        if r is None:
            return False
        p.res = r
        return True

    def can_pay(self, p: Player, need, context: str = "activate") -> bool:
        return settle(p.res, tuple(need), self.hooks[p.seat].pay_options(self, p, context)) is not None

    def market_cost(self, kind: str, slot: int) -> list[int]:
        card = self.static.cards[kind][self.market[kind][slot]]
        ex = self.static.extra[slot]
        return [card.cost.iron + ex[0], card.cost.gold + ex[1], card.cost.gem + ex[2]]

    def take_from_market(self, kind: str, slot: int) -> None:
        """Remove a card, shift the rest right to cover the gap, refill the leftmost slot."""
        row = self.market[kind]
        del row[slot]
        row.insert(0, self.decks[kind].pop() if self.decks[kind] else None)
        # Cards shift right past any empty slot (an empty deck leaves gaps on the left).
        cards = [c for c in row if c is not None]
        self.market[kind] = [None] * (len(row) - len(cards)) + cards

    def standard_site_ok(self, p: Player, fp: int, need_excavated: bool = True,
                         allow_adjacent: bool = False) -> bool:
        board = self.static.board
        if fp & p.built or fp & board.blocked:
            return False
        if need_excavated and fp & ~p.exc:
            return False
        others = p.built | self.static.outposts
        if not allow_adjacent and board.neighbours(fp) & others:
            return False
        if allow_adjacent and board.neighbours(fp) & self.static.outposts:
            return False
        return True

    def sites(self, p: Player, kind: str) -> list[tuple[int, str]]:
        hook = self.hooks[p.seat]
        space = hook.site_space(self, p, kind)
        if space is not None:  # every rectangle tested at once
            out = [(fp, "") for fp in self.static.fits[kind].inside(space)]
        else:
            out = []
            for fp in self.static.footprint[kind]:
                ok = hook.site_ok(self, p, kind, fp, "")
                if ok is None:
                    ok = self.standard_site_ok(p, fp)
                if ok:
                    out.append((fp, ""))
        for fp, tag in hook.sites(self, p, kind):
            ok = hook.site_ok(self, p, kind, fp, tag)
            if ok is None:
                ok = self.standard_site_ok(p, fp)
            if ok:
                out.append((fp, tag))
        return out

    def standard_site_space(self, p: Player) -> int:
        """standard_site_ok for every rectangle at once: all its spaces excavated, none blocked
        or built on, no side touching a building or an outpost, i.e. it lies inside the
        excavated spaces that are neither built on nor next to a building or an outpost."""
        board = self.static.board
        return p.exc & ~board.blocked & ~board.grow((p.built | self.static.outposts) & board.full)

    def build_cost(self, p: Player, kind: str, slot: int, card, site: int) -> list[int]:
        if slot >= 0:
            cost = self.market_cost(kind, slot)
        else:
            cost = list(cost_tuple(card.cost))
        return self.hooks[p.seat].construction_discount(self, p, kind, card, site, cost)

    def affordable_sites(self, p: Player, kind: str, slot: int, card) -> list[tuple[int, str]]:
        return [(fp, tag) for fp, tag in self.sites(p, kind)
                if self.can_pay(p, self.build_cost(p, kind, slot, card, fp), "construct")]

    def construct(self, p: Player, kind: str, slot: int, card, fp: int, tag: str) -> None:
        """Pay, draw the footprint, take the card, shift and refill the market."""
        cost = self.build_cost(p, kind, slot, card, fp)
        if not self.pay(p, cost, "construct"):
            raise IllegalAction("cannot pay for the building")  # checked before; defensive
        p.built |= fp
        p.buildings.append((kind, card.id, fp))
        if slot < 0 and self.decks[kind] and self.decks[kind][-1] == card.id:
            self.decks[kind].pop()  # built from the top of the deck (Nightbarons level 1)
        if self.n == 1 and self.solo_deck:
            # Solo: after *each* construction (a deck-top card too) a solo market card.
            self._solo_market_card(kind, slot)
        elif slot >= 0:
            self.take_from_market(kind, slot)
        self.hooks[p.seat].constructed(self, p, kind, card, fp, slot, tag)

    def _solo_market_card(self, kind: str, slot: int) -> None:
        """Solo Variant: after each construction, before shifting, remove the cards the solo
        market card shows, then shift right and refill."""
        card_id = self.solo_deck.pop()
        card = next(c for c in self.rules.solo_cards if c.id == card_id)
        if slot >= 0:
            self.market[kind][slot] = None
        for k, remove in (("workshop", card.remove_workshops), ("forge", card.remove_forges)):
            for i in remove:
                if 0 <= i < len(self.market[k]):
                    self.market[k][i] = None
            row = [c for c in self.market[k] if c is not None]
            while len(row) < len(self.market[k]) and self.decks[k]:
                row.insert(0, self.decks[k].pop())
            self.market[k] = [None] * (len(self.market[k]) - len(row)) + row
        if not self.solo_deck:
            self.solo_deck = [c.id for c in self.rules.solo_cards]  # reshuffled in order (assumed)

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


def outpost_mask(board: Board) -> int:
    m = 0
    for c in board.outposts:
        m |= 1 << c
    return m


def settlement_component(board: Board, exc: int) -> int:
    comp = board.settlement & exc
    while True:
        nxt = board.grow(comp) & exc
        if nxt == comp:
            return comp
        comp = nxt


def connected_outposts(board: Board, exc: int) -> int:
    """Bitmask over outposts reached by an uninterrupted excavated path from the settlement."""
    reach = board.grow(settlement_component(board, exc))
    out = 0
    for j, c in enumerate(board.outposts):
        if reach >> c & 1:
            out |= 1 << j
    return out


# ====================================================================== tasks
def _t_round_start(s: GlimmerdeepState, task) -> None:
    s.phase = "excavation"
    for seat in s.turn_order():
        s.hooks[seat].round_start(s, s.players[seat])


def _t_flip(s: GlimmerdeepState, task) -> None:
    s.phase = "excavation"
    p = s.players[task[1]]
    if p.deck_pos >= len(p.deck):
        return
    shape_id = p.deck[p.deck_pos]
    p.deck_pos += 1
    p.flips += 1
    s.stack.append(("excavate", p.seat, shape_id, "card"))
    s.hooks[p.seat].after_flip(s, p, shape_id, task[2])


def _t_excavation_end(s: GlimmerdeepState, task) -> None:
    s.hooks[task[1]].excavation_end(s, s.players[task[1]])


def _t_construction(s: GlimmerdeepState, task) -> None:
    s.phase = "construction"
    s.passed = set()
    s.stack.append(("construct", s.first_seat))


def _t_production(s: GlimmerdeepState, task) -> None:
    s.phase = "production"
    p = s.players[task[1]]
    p.activated = set()
    s.stack.append(("produce", p.seat))


def _t_trait(s: GlimmerdeepState, task) -> None:
    s.phase = "traits"
    faction = s.rules.factions[s.players[task[1]].faction]
    if any(t.level == task[2] for t in faction.traits):
        s.stack.append(("trait", task[1], task[2]))


def _t_market_adjust(s: GlimmerdeepState, task) -> None:
    """Adjust the Market: discard the two rightmost, shift the rest right, refill the left."""
    s.phase = "market"
    k = s.rules.market.adjust_discard
    for kind in KINDS:
        row = [c for c in s.market[kind] if c is not None]
        row = row[: max(0, len(row) - k)]
        while len(row) < len(s.market[kind]) and s.decks[kind]:
            row.insert(0, s.decks[kind].pop())
        s.market[kind] = [None] * (len(s.market[kind]) - len(row)) + row


def _t_round_end(s: GlimmerdeepState, task) -> None:
    if s.round >= s.rules.game.rounds:
        s.phase = "final"
        scoring.final_scoring(s)
        s.over = True
        s.ended_by = "rounds"
        return
    s.first_seat = (s.first_seat + 1) % s.n
    s.round += 1


_TASKS = {"round_start": _t_round_start, "flip": _t_flip, "excavation_end": _t_excavation_end,
          "construction": _t_construction, "production": _t_production, "trait": _t_trait,
          "market_adjust": _t_market_adjust, "round_end": _t_round_end}


# ====================================================================== frames
def _dig_options(s: GlimmerdeepState, p: Player, masks) -> list[tuple]:
    """The placements of a shape that touch the player's reach, avoid forbidden spaces and
    mark at least one new space; placements gaining the same new spaces are one decision.

    Only placements covering a *frontier* space (reachable, not yet excavated, not forbidden)
    qualify: a placement is connected, so if it touches the reach (the excavation and its
    neighbours, or the whole map) and marks a new space, one of its new spaces is on the
    frontier.  The tests run on all placements at once (numpy); the selected placements keep
    their order, so the options keep theirs (first placement gaining each set of spaces).
    The last answer per shape is remembered (a bot that looks before it moves asks twice)."""
    extra = s.hooks[p.seat].forbidden(s, p)  # placements already avoid the map's blocked spaces
    reach = s.reach(p)
    table = placement_table(masks)
    inputs = (p.exc, extra, reach)
    last = table.last  # read once: the table may be shared by threads
    if last[0] == inputs:
        return list(last[1])
    keep = ~p.exc
    pick = table.touching(reach & keep & ~(s.static.board.blocked | extra))
    if extra:
        pick &= ~table.touching(extra)
    news = dict.fromkeys((table.objects[pick] & keep).tolist())
    news.pop(0, None)
    opts = [("dig", new) for new in news]
    table.last = (inputs, tuple(opts))  # a copy: callers extend their list
    return opts


def _l_excavate(s, frame):
    p = s.players[frame[1]]
    hook = s.hooks[p.seat]
    opts = _dig_options(s, p, s.static.placements[frame[2]])
    alts = hook.alt_shapes(s, p, frame[2], frame[3])
    if alts:  # the same spaces through another shape are the same decision (first kept)
        opts = list(dict.fromkeys(opts + [a for alt in alts
                                          for a in _dig_options(s, p, s.static.placements[alt])]))
    opts.append(("skip",))
    return opts


def _a_excavate(s, frame, action):
    if action[0] == "dig":
        s.excavate(s.players[frame[1]], action[1], frame[3])


def _l_space(s, frame):
    p = s.players[frame[1]]
    board = s.static.board
    cand = board.kind_mask(frame[2]) & s.reach(p) & ~p.exc & ~s.forbidden(p)
    opts = [("dig", 1 << c) for c in bits(cand)]
    hook = s.hooks[p.seat]
    for alt in hook.alt_shapes(s, p, "1x1:" + frame[2], frame[3]):
        for a in _dig_options(s, p, s.static.placements[alt]):
            if a not in opts and a[1] & cand:
                opts.append(a)
    opts.append(("skip",))
    return opts


_a_space = _a_excavate


def _l_construct(s, frame):
    p = s.players[frame[1]]
    out = []
    hook = s.hooks[p.seat]
    flat = type(hook).construction_discount is FactionPlay.construction_discount
    for kind in KINDS:
        sites = s.sites(p, kind)
        if not sites:
            continue
        for slot, cid in enumerate(s.market[kind]):
            if cid is None:
                continue
            if flat:  # the cost does not depend on the site
                if s.can_pay(p, s.market_cost(kind, slot), "construct"):
                    out.append(("build", kind, slot))
                continue
            card = s.static.cards[kind][cid]
            if any(s.can_pay(p, s.build_cost(p, kind, slot, card, fp), "construct")
                   for fp, _tag in sites):
                out.append(("build", kind, slot))
    out.extend(s.hooks[p.seat].construct_extras(s, p))
    out.append(("pass",))
    return out


def _next_constructor(s: GlimmerdeepState, seat: int) -> None:
    for i in range(1, s.n + 1):
        nxt = (seat + i) % s.n
        if nxt not in s.passed:
            s.stack.append(("construct", nxt))
            return


def _a_construct(s, frame, action):
    seat = frame[1]
    p = s.players[seat]
    if action[0] == "pass":
        s.passed.add(seat)
        _next_constructor(s, seat)
    elif action[0] == "build":
        s.stack.append(("site", seat, action[1], action[2]))
    else:  # a faction extra (swaps) keeps the turn
        s.stack.append(("construct", seat))
        s.hooks[seat].apply_extra(s, p, action)


def _site_card(s, kind, slot, p):
    if slot >= 0:
        return s.static.cards[kind][s.market[kind][slot]]
    return s.static.cards[kind][p.fx["deck_top_card"]]


def _l_site(s, frame):
    p = s.players[frame[1]]
    kind, slot = frame[2], frame[3]
    card = _site_card(s, kind, slot, p)
    return [("site", fp, tag) for fp, tag in s.affordable_sites(p, kind, slot, card)]


def _a_site(s, frame, action):
    seat, kind, slot = frame[1], frame[2], frame[3]
    p = s.players[seat]
    card = _site_card(s, kind, slot, p)
    _next_constructor(s, seat)  # pushed first: building effects resolve before the next turn
    s.construct(p, kind, slot, card, action[1], action[2])


def _l_produce(s, frame):
    p = s.players[frame[1]]
    out = [("activate", key) for key, need, _e, _k, _c in s.activatables(p) if s.can_pay(p, need)]
    out.append(("done",))
    return out


def _a_produce(s, frame, action):
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


def _l_trait(s, frame):
    faction = s.rules.factions[s.players[frame[1]].faction]
    return [("trait", t.side) for t in faction.traits if t.level == frame[2]]


def _a_trait(s, frame, action):
    p = s.players[frame[1]]
    faction = s.rules.factions[p.faction]
    trait = next(t for t in faction.traits if t.level == frame[2] and t.side == action[1])
    p.traits.append(trait.id)
    for k, act in enumerate(trait.actions):
        if act.when == "immediate":
            s.gain(p, act.output, "trait")
    s.hooks[p.seat].trait_chosen(s, p, trait.id)


def _l_fx(s, frame):
    return s.hooks[frame[1]].frame_actions(s, s.players[frame[1]], frame)


def _a_fx(s, frame, action):
    s.hooks[frame[1]].frame_apply(s, s.players[frame[1]], frame, action)


_LEGAL = {"excavate": _l_excavate, "space": _l_space, "construct": _l_construct,
          "site": _l_site, "produce": _l_produce, "trait": _l_trait, "fx": _l_fx}
_APPLY = {"excavate": _a_excavate, "space": _a_space, "construct": _a_construct,
          "site": _a_site, "produce": _a_produce, "trait": _a_trait, "fx": _a_fx}


# ====================================================================== describe
def describe(s: GlimmerdeepState, action, frame=None) -> tuple[str, str, int | None]:
    """(action, detail, cell) for the move log and replays."""
    frame = frame or (s.stack[-1] if s.stack else ("", -1))
    kind = action[0]
    board = s.static.board
    if kind == "dig":
        cells = list(bits(action[1]))
        what = frame[2] if len(frame) > 2 else ""
        name = "excavate" if frame[0] == "excavate" else "excavate_space"
        labels = s.static.labels
        return name, f"{what} " + " ".join([labels[c] for c in cells]), cells[0]
    if kind == "skip":
        return "skip", str(frame[2]) if len(frame) > 2 else "", None
    if kind == "build":
        cid = s.market[action[1]][action[2]] if action[2] >= 0 else "deck top"
        return "choose_building", f"{action[1]} slot {action[2]} {cid}", None
    if kind == "site":
        if action[1] & ~board.full:  # off the map: the Deepdelvers' faction sheet
            return "construct", f"{frame[2]} on the faction sheet {action[2]}".strip(), None
        cells = list(bits(action[1]))
        return "construct", f"{frame[2]} at {board.xy(cells[0])[0]},{board.xy(cells[0])[1]} {action[2]}".strip(), cells[0]
    if kind == "activate":
        return "activate", action[1], None
    if kind == "trait":
        return "trait", f"level {frame[2]} {action[1]}", None
    return kind, " ".join(str(a) for a in action[1:]), None

GlimmerdeepState.LEGAL = _LEGAL
GlimmerdeepState.APPLY = _APPLY
