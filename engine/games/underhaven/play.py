"""Underhaven: setup and rounds split into small decisions (rulebook "Gameplay Overview").

A round is an agenda of tasks (one turn per player, then the round end).  A task may push
decision frames on a stack; the top frame says who is to move and what is legal.  A turn is:
start of turn (income, take back, flip and activate last turn's buildings), choose a card,
then one order at a time (each order may push its own decisions: one move step, one
building, one specialist source, one trade...), the right-side support whenever the player
asks for it (or at the end), then clean-up.
"""

from __future__ import annotations

import random

from engine.core.cache import PerRulesCache
from engine.core.events import NULL_LOG, EventLog
from engine.core.frames import FrameMachine
from engine.core.rng import chance_rng

from . import scoring
from .board import geometry, rotated
from .state import FOOD, MATERIAL, MONEY, Player, gain_track, pay_track

ACT_KINDS = ("harvest", "mine", "entertain")
MAP_ID = "octagons"          # the base game's map (Crooked Caverns: `rules.crooked_maps`)


class Static:
    """What does not change during a game with this rules object, player count and map
    (`key` = (player count, map id))."""

    __slots__ = ("rules", "n", "geo", "layout", "b", "tiles", "n_regular", "cards", "spaces",
                 "missions", "colour_corp", "abilities", "gaps", "board", "crooked", "placements",
                 "tunnel_ids", "touching", "social", "for_terrain")

    def __init__(self, rules, key):
        n, map_id = key
        self.rules = rules
        self.n = n
        # Crooked Caverns: the map is one of the crooked layouts, with no outer edge.
        self.crooked = map_id != MAP_ID
        self.board = rules.crooked_maps[map_id] if self.crooked else rules.board
        self.layout = self.board.layouts[str(n)]
        if self.crooked:
            self.geo = geometry(self.board, self.layout.lines, self.layout, outer_edge=False)
        else:
            self.geo = geometry(rules.board, self.layout.lines)
        # Where each tile type can lie (tunnel types by id; "trapezoid": every face of a gap).
        self.tunnel_ids = [t.id for t in rules.tunnels]
        self.placements = {t.id: self.geo.placements(t.arms, t.span) for t in rules.tunnels}
        self.placements["trapezoid"] = self.geo.placements(("NW", "NE", "SE", "SW"), 1)
        # shape -> space -> indices of the placements connecting that space (in order).
        self.touching = {}
        for shape, pl in self.placements.items():
            idx: dict[int, list[int]] = {}
            for i, (_g, _r, _gaps, spaces) in enumerate(pl):
                for x in spaces:
                    idx.setdefault(x, []).append(i)
            self.touching[shape] = idx
        mods = rules.modules
        self.b = {b.id: b for b in rules.buildings
                  if not b.advanced or (mods.advanced_buildings and (mods.energy or not b.gain.energy))}
        self.tiles = list(rules.octagons) + list(rules.start_tiles)
        self.n_regular = len(rules.octagons)
        self.cards = {c.id: c for c in rules.market_cards}
        for corp in rules.corporations.values():
            for c in corp.cards:
                self.cards[c.id] = c
        self.spaces = {t.id: t for t in rules.trade_spaces
                       if t.module == "basic" or (t.module == "energy" and mods.energy)
                       or (t.module == "corp_locations" and mods.corp_locations)}
        self.missions = {m.id: m for m in rules.missions}
        self.colour_corp = {c.colour: cid for cid, c in rules.corporations.items()}
        self.social = {bid for bid, bd in self.b.items() if bd.activation == "consultant"}
        # terrain -> the supply buildings (not starting, count > 0) that may stand on it, in order.
        self.for_terrain: dict[str, list] = {}
        for bid, bd in self.b.items():
            if not bd.starting and bd.count != 0:
                for terr in dict.fromkeys(bd.terrains):
                    self.for_terrain.setdefault(terr, []).append((bid, bd))
        self.abilities = [a.id for a in rules.abilities]
        self.gaps = self.geo.useful_gaps()


static_for = PerRulesCache(Static)  # (rules, (player count, map)) -> Static


class UnderhavenState(FrameMachine):
    """The protocol state of DESIGN.md."""

    # ------------------------------------------------------------------ construction
    @classmethod
    def new(cls, rules, seats, seed: int, map_id: str, log: bool = True) -> "UnderhavenState":
        s = cls()
        g = rules.game
        s.rules = rules
        s.n = n = len(seats)
        s.st = st = static_for(rules, (n, map_id))
        s.map_id = map_id
        s.rng = chance_rng(seed)
        s.log = EventLog(enabled=log)
        s.round = 1
        s.step = 0
        s.phase = "setup"
        s.ended_by = None
        s.over = False
        s.stack = []
        s.agenda = []
        geo = st.geo
        rng = s.rng
        # Octagons face down (setup 1): a random regular tile on every octagon of the layout.
        regular = list(range(st.n_regular))
        rng.shuffle(regular)
        s.tile = [-1] * geo.n_oct
        for o in range(geo.n_oct):
            if geo.octagon_ok[o]:
                s.tile[o] = regular.pop()
        s.box = regular
        s.explored = [False] * geo.n_oct
        s.terr = [None] * geo.n_space
        s.bld = [None] * geo.n_space
        s.owner = [-1] * geo.n_space
        s.done = [False] * geo.n_space
        s.gap = {}
        s.supply = {bid: b.count for bid, b in st.b.items()}
        # Corp board (setup 3): missions, market, supers with dice at 1, turn die, start player.
        s.mission_deck = [m.id for m in rules.missions]
        rng.shuffle(s.mission_deck)
        s.mission_discard = []
        s.missions = [s.mission_deck.pop() if s.mission_deck else None
                      for _ in range(g.missions_face_up)]
        s.card_deck = [c.id for c in rules.market_cards]
        rng.shuffle(s.card_deck)
        s.market = [s.card_deck.pop() if s.card_deck else None for _ in range(g.market_cards)]
        s.super_die = [1] * g.super_specialists
        s.super_holder = [-1] * g.super_specialists
        s.occ = {}
        s.mission_memo = {}      # seat -> what its last mission check saw, see claim_missions
        s.owned_memo = ((), {})  # (owner, {seat: its spaces}), see `owned`
        s.social_memo = ((), (), [])   # (bld, done, social sites), see `social_sites`
        top = rng.randrange(6)
        north = rng.choice([f for f in range(6) if f not in (top, 5 - top)])
        side = min(f for f in range(6) if f not in (top, 5 - top, north, 5 - north))
        s.die_cycle = (top, side, 5 - top, 5 - side)
        s.die_idx = 0
        s.die_left = rules.turn_die.track_rounds[str(n)] - 1
        s.star_round = False
        s.first_seat = rng.randrange(n)
        s.next_first = -1
        # Unused specialists (setup 5): the reserve of colours no player uses.
        used = {rules.corporations[seat.faction].colour for seat in seats}
        per = g.specialists_per_player or n
        s.reserve = {}
        if n < 4:
            free = [c for c in ("yellow", "red", "green", "blue") if c not in used]
            for c in free:
                s.reserve[c] = 2 if n == 2 else 3
        # Players (setup 6 and "Player Board Setup").
        abilities = list(st.abilities)
        rng.shuffle(abilities)
        starts = list(range(st.n_regular, len(st.tiles)))
        rng.shuffle(starts)
        s.start_tile = []
        start_bld = [b for b in rules.buildings if b.starting and b.id in st.b]
        rng.shuffle(start_bld)
        s.start_bld_pool = [b.id for b in start_bld]
        deck = [c.id for c in rules.start_cards if not c.advanced or rules.modules.energy]
        rng.shuffle(deck)
        s.dealt = []
        s.players = []
        for i, seat in enumerate(seats):
            corp = rules.corporations[seat.faction]
            p = Player(i, seat.faction, corp.colour)
            p.ability = abilities[i % len(abilities)]
            p.pt = 0 if rules.modules.raw_start else g.start_pt
            p.consultants = p.cons_free = g.start_consultants
            p.pros_free = g.professionals
            p.spec_total = p.spec_home = per
            p.hand = [c.id for c in corp.cards]
            p.trapezoids = [t.id for t in corp.trapezoids]
            p.rep = 0
            s.players.append(p)
            s.start_tile.append(starts.pop())
            s.dealt.append(tuple(deck.pop() for _ in range(g.start_cards_dealt) if deck))
        s.start_card_deck = deck
        if st.crooked:
            # Crooked Caverns: "For a larger setup, use the remaining Starting tiles": they lie
            # face down on random positions off the start slots (their regular octagons go
            # back to the box); whoever explores one claims its printed building.
            C = st.board.columns
            slots = {sl.line * C + sl.col for grp in st.layout.slot_sets for sl in grp}
            free = [o for o in range(geo.n_oct) if geo.octagon_ok[o] and o not in slots]
            for o in rng.sample(free, min(len(starts), len(free))):
                s.box.append(s.tile[o])
                s.tile[o] = starts.pop()
        # The tunnel tiles on the Corp board (setup 3 D), by type.
        s.tunnel_supply = {t.id: t.count for t in rules.tunnels}
        s.loan_cubes = [0] * len(g.loan_tiers)
        s.slot_sets_left = list(range(len(st.layout.slot_sets)))
        for p in s.players:
            s.score(p, "start", g.start_reputation)
        order = s.turn_order()
        tasks = [("keep", seat) for seat in order]
        tasks += [("place_start", seat) for seat in reversed(order)]
        tasks.append(("round_start",))
        s.agenda = tasks[::-1]
        s._advance()
        return s

    def clone(self, log: bool = True) -> "UnderhavenState":
        s = UnderhavenState.__new__(UnderhavenState)
        s.__dict__.update(self.__dict__)
        s.players = [p.clone() for p in self.players]
        s.stack = self.stack.copy()
        s.agenda = self.agenda.copy()
        s.tile = self.tile.copy()
        s.box = self.box.copy()
        s.explored = self.explored.copy()
        s.terr = self.terr.copy()
        s.bld = self.bld.copy()
        s.owner = self.owner.copy()
        s.done = self.done.copy()
        s.gap = self.gap.copy()
        s.tunnel_supply = self.tunnel_supply.copy()
        s.supply = self.supply.copy()
        s.mission_deck = self.mission_deck.copy()
        s.mission_discard = self.mission_discard.copy()
        s.missions = self.missions.copy()
        s.card_deck = self.card_deck.copy()
        s.market = self.market.copy()
        s.super_die = self.super_die.copy()
        s.super_holder = self.super_holder.copy()
        s.occ = self.occ.copy()
        s.reserve = self.reserve.copy()
        s.start_tile = self.start_tile.copy()
        s.start_bld_pool = self.start_bld_pool.copy()
        s.dealt = self.dealt.copy()
        s.start_card_deck = self.start_card_deck.copy()
        s.slot_sets_left = self.slot_sets_left.copy()
        s.loan_cubes = self.loan_cubes.copy()
        if log:
            s.log = self.log.copy()
            if self.rng is not None:
                s.rng = random.Random()
                s.rng.setstate(self.rng.getstate())
        else:
            s.log = NULL_LOG
            s.rng = None
        return s

    def _chance(self) -> random.Random:
        """The game's chance stream; a lookahead copy (no stream) uses a fixed one, since what
        it would draw is hidden anyway."""
        if self.rng is None:
            self.rng = random.Random(self.step)
        return self.rng

    # ------------------------------------------------------------------ protocol
    def describe_move(self, action, frame):
        return describe(self, action, frame)

    def result(self):
        return scoring.result(self)

    @property
    def seat_abilities(self) -> list[str]:
        """The special ability of each seat (logged on `players.ability`)."""
        return [p.ability for p in self.players]

    def describe(self, action):
        return describe(self, action)

    def turn_order(self) -> list[int]:
        return [(self.first_seat + i) % self.n for i in range(self.n)]

    def _advance(self) -> None:
        while not self.stack and not self.over and self.agenda:
            task = self.agenda.pop()
            _TASKS[task[0]](self, task)

    # ------------------------------------------------------------------ economy
    def score(self, p: Player, category: str, points: int) -> None:
        if points:
            p.rep += points
            self.log.score(self.step, self.round, p.seat, category, points)

    def gain(self, p: Player, g, category: str = "activations", times: int = 1) -> None:
        """Gain a Goods bundle (tracks overflow into power tokens)."""
        pv = self.rules.game.pt_value
        mods = self.rules.modules
        corp = self.rules.corporations[p.corp]
        for i, amt in enumerate((g.money, g.food, g.material)):
            if amt:
                p.res[i], p.pt = gain_track(p.res[i], p.pt, amt * times, pv)
        p.pt += g.pt * times
        if g.tg:
            p.tg += g.tg * times + (1 if mods.focus and corp.bonus == "trade_goods" else 0)
        if g.energy and mods.energy:
            p.energy += g.energy * times + (1 if mods.focus and corp.bonus == "energy" else 0)
        if g.morale:
            p.morale = min(self.rules.morale.track, p.morale + g.morale * times)
        if g.rep:
            self.score(p, category, g.rep * times)

    def afford(self, p: Player, money: int, food: int, material: int, pt: int, steps: int) -> tuple | None:
        """The resources after paying (money, food, material individually, then power tokens,
        then `steps` morale steps), or None.  Pure: `p` is not changed."""
        pv = self.rules.game.pt_value
        res = p.res.copy()
        tok = p.pt
        for i, amt in ((MONEY, money), (FOOD, food), (MATERIAL, material)):
            r = pay_track(res[i], tok, amt, pv)
            if r is None:
                return None
            res[i], tok = r
        if tok < pt:
            return None
        tok -= pt
        cost = self.rules.morale.step_cost
        for _ in range(steps):
            for _k in range(cost):
                i = largest_track(res)
                if res[i] > 0:
                    res[i] -= 1
                elif tok > 0:   # a power token pays a whole morale step (assumed)
                    tok -= 1
                    break
                else:
                    return None
        return res, tok

    def morale_steps(self, p: Player, level: int) -> int:
        """Morale steps to buy to meet a building's requirement (0-3)."""
        if level <= 0:
            return 0
        if p.ability == "morale_plus":
            level -= self._ability_value("morale_plus")
        if level <= 0:
            return 0
        need = self.rules.morale.levels[min(level, 3)]
        return max(0, need - p.morale)

    def _ability_value(self, aid: str) -> int:
        for a in self.rules.abilities:
            if a.id == aid:
                return a.value
        return 0

    # ------------------------------------------------------------------ board queries
    def neighbours(self, cell: int):
        """Touching cells, and the spaces a tile in this space's gap connects it to (a tile
        is one move "whatever its length").  A sequence to read, not to change (often the
        static tuple of touching cells itself)."""
        geo = self.st.geo
        near = geo.nb[cell]
        if cell < geo.n_space:
            tile = self.gap.get(geo.space_gap[cell])
            if tile is not None and cell in tile[2]:
                return list(near) + [x for x in tile[2] if x != cell and x not in near]
        return near

    def connected(self, a: int, b: int) -> bool:
        geo = self.st.geo
        if b in geo.nb[a]:
            return True
        tile = self.gap.get(geo.space_gap[a]) if a < geo.n_space else None
        return tile is not None and a in tile[2] and b in tile[2]

    def lay_tile(self, kind: str, seat: int, gaps, spaces) -> None:
        """A tunnel or trapezoid tile on `gaps` (one, or a run of outer-edge gaps for a long
        tunnel), connecting `spaces`: `gap[g] = (kind, seat, spaces)`."""
        spaces = tuple(spaces)
        for g in gaps:
            self.gap[g] = (kind, seat, spaces)

    def group(self, space: int, pred) -> list[int]:
        """Spaces connected to `space` (touching or through a tile) whose building satisfies
        `pred(space)`."""
        seen = {space}
        todo = [space]
        n_space = self.st.geo.n_space
        while todo:
            x = todo.pop()
            for y in self.neighbours(x):
                if y < n_space and y not in seen and pred(y):
                    seen.add(y)
                    todo.append(y)
        return sorted(seen)

    def owned(self, seat: int) -> list[int]:
        """The spaces where `seat` has a building, in order (a list to read, not to change).
        Asked many times per decision; remembered while the owners stay equal (`owned_memo`:
        a copy of `owner` and the lists computed for it)."""
        memo = self.owned_memo
        if memo[0] != self.owner:
            memo = self.owned_memo = (self.owner.copy(), {})
        hit = memo[1].get(seat)
        if hit is None:
            hit = memo[1][seat] = [sp for sp, o in enumerate(self.owner) if o == seat]
        return hit

    def social_sites(self) -> list[int]:
        """The finished social buildings (a consultant may fly there), in space order (a list
        to read, not to change); remembered while the buildings stay equal (`social_memo`)."""
        memo = self.social_memo
        if memo[0] != self.bld or memo[1] != self.done:
            social, done = self.st.social, self.done
            sites = [sp for sp, bid in enumerate(self.bld) if bid in social and done[sp]]
            memo = self.social_memo = (self.bld.copy(), done.copy(), sites)
        return memo[2]

    def has_terrain_building(self, seat: int, terrain: str) -> bool:
        b = self.st.b
        return any(o == seat and self.done[sp] and terrain in b[self.bld[sp]].terrains
                   and self.terr[sp] == terrain for sp, o in enumerate(self.owner))

    def explore(self, o: int, r: int) -> None:
        tile = self.st.tiles[self.tile[o]]
        self.explored[o] = True
        for d, t in enumerate(rotated(tile.spaces, r)):
            self.terr[4 * o + d] = t

    # ------------------------------------------------------------------ missions
    def claim_missions(self, p: Player) -> None:
        """Missions are claimed any time in your turn, no action needed: claimed as soon as
        fulfilled (the reputation is instant).

        Whether a mission is fulfilled depends only on the seat's buildings, their terrain and
        the tiles (scoring.mission_done), so the missions already found unfulfilled on a board
        equal to this one (compared by value) are not checked again (`mission_memo`)."""
        mine = self.owned(p.seat)
        terr = self.terr
        board = (mine, [terr[x] for x in mine], self.gap)
        seen = self.mission_memo.get(p.seat)
        same = seen is not None and seen[0] == board
        known = seen[1] if same else frozenset()
        if known.issuperset(self.missions):          # (`known` holds None: an empty slot)
            return
        unfulfilled = set()
        for i, mid in enumerate(self.missions):
            if mid is None or mid in known:
                continue
            m = self.st.missions[mid]
            if scoring.mission_done(self, p.seat, m, mine):
                self.score(p, "missions", m.rep)
                self.missions[i] = None
                self.mission_discard.append(mid)
                if self.log.enabled:
                    self.log.move(self.step, self.round, self.phase, p.seat, "claim_mission", mid, None)
            else:
                unfulfilled.add(mid)
        self.mission_memo = {**self.mission_memo, p.seat: (     # a new dict: clones share the old
            seen[0] if same else (mine, board[1], self.gap.copy()), known | unfulfilled | {None})}

    def refill(self) -> None:
        """Clean up: refill missions (reshuffling the discard when the deck is empty) and the
        activation card market."""
        for i, mid in enumerate(self.missions):
            if mid is None:
                if not self.mission_deck and self.mission_discard:
                    self.mission_deck = self.mission_discard
                    self.mission_discard = []
                    self._chance().shuffle(self.mission_deck)
                if self.mission_deck:
                    self.missions[i] = self.mission_deck.pop()
        for i, cid in enumerate(self.market):
            if cid is None and self.card_deck:
                self.market[i] = self.card_deck.pop()

    # ------------------------------------------------------------------ turn die
    def roll_die(self) -> None:
        """"Roll" the turn die to the next side and one space forward (never past the end)."""
        if self.die_left > 0:
            self.die_idx = (self.die_idx + 1) % 4
            self.die_left -= 1

    def die_face(self):
        return self.rules.turn_die.faces[self.die_cycle[self.die_idx]]


def largest_track(res) -> int:
    """The index of the largest of the three resource tracks, the first one on a tie (what
    `max(range(3), key=res.__getitem__)` gives, without a call per track)."""
    a, b, c = res
    if a >= b and a >= c:
        return 0
    return 1 if b >= c else 2


# ====================================================================== tasks
def _t_keep(s: UnderhavenState, task) -> None:
    if s.dealt[task[1]]:
        s.stack.append(("keep", task[1]))


def _t_place_start(s: UnderhavenState, task) -> None:
    s.stack.append(("start", task[1]))


def _t_round_start(s: UnderhavenState, task) -> None:
    s.phase = "turn"
    s.star_round = False
    tasks = []
    for seat in s.turn_order():
        tasks += [("turn", seat), ("card", seat), ("orders", seat), ("late_support", seat),
                  ("end_turn", seat)]
    tasks.append(("round_end",))
    s.agenda = tasks[::-1]


def _t_turn(s: UnderhavenState, task) -> None:
    """Start of your turn, steps 1-3."""
    p = s.players[task[1]]
    g = s.rules.game
    mods = s.rules.modules
    # 1. The turn die reward and 1 Money per building (finished or not).
    s.gain(p, s.die_face())
    n_b = s.owner.count(p.seat)
    if n_b:
        p.res[MONEY], p.pt = gain_track(p.res[MONEY], p.pt, n_b * g.income_per_building, g.pt_value)
    if mods.reputational_income and mods.focus:
        s.score(p, "focus", g.focus_income_rep * scoring.focus_adjacent_rivals(s, p.seat))
    # 2. Take back professionals, specialists and consultants.
    p.pros_free = g.professionals
    for sid in [k for k, v in s.occ.items() if v == p.seat]:
        del s.occ[sid]
    p.cons_free = p.consultants
    p.cons_landed = []
    p.spec_home += p.spec_busy
    p.spec_busy = 0
    for owner in p.hired:
        o = s.players[owner]
        o.spec_home += 1
        o.hired_out -= 1
    p.hired = []
    for k in p.supers:
        s.super_holder[k] = -1
        s.super_die[k] = min(6, s.super_die[k] + 1)
    p.supers = []
    p.turn_colours = set()
    p.used.discard("skip_specialist")    # once per turn
    p.used.discard("pt_trade")           # once per round (= once in each of one's turns)
    # 3. Turn over and activate the buildings built last turn.
    for sp in p.unfinished:
        s.done[sp] = True
        b = s.st.b[s.bld[sp]]
        s.score(p, "buildings", b.rep)
        if b.activation == "one_time":
            if b.specialist_gain:
                s.stack.append(("gain_spec", p.seat, b.specialist_gain))
            if b.units:
                s.stack.append(("unit", p.seat, b.units, sp))
        if b.free_arrangement:
            p.university = True
    p.unfinished = []
    s.claim_missions(p)


def _t_card(s: UnderhavenState, task) -> None:
    p = s.players[task[1]]
    if len(p.hand) < 2:
        p.hand += p.discard
        p.discard = []
    s.stack.append(("card", p.seat))


def _t_orders(s: UnderhavenState, task) -> None:
    p = s.players[task[1]]
    if p.markers > 0:
        s.stack.append(("order", p.seat))


def _t_late_support(s: UnderhavenState, task) -> None:
    p = s.players[task[1]]
    if p.support_pending:
        _do_support(s, p)


def _t_end_turn(s: UnderhavenState, task) -> None:
    p = s.players[task[1]]
    s.claim_missions(p)
    if p.slot is not None:
        p.discard.append(p.slot)
        p.slot = None
    p.markers = 0
    p.used_slots = ()
    s.refill()


def _t_round_end(s: UnderhavenState, task) -> None:
    if s.die_left <= 0:
        s.phase = "final"
        scoring.final_scoring(s)
        s.over = True
        s.ended_by = "turn_die_stars" if s.round < s.rules.turn_die.track_rounds[str(s.n)] else "turn_die"
        return
    if not s.star_round:
        s.roll_die()
    s.first_seat = s.next_first if s.next_first >= 0 else (s.first_seat + 1) % s.n
    s.next_first = -1
    s.round += 1
    s.agenda = [("round_start",)]


_TASKS = {"keep": _t_keep, "place_start": _t_place_start, "round_start": _t_round_start,
          "turn": _t_turn, "card": _t_card, "orders": _t_orders, "late_support": _t_late_support,
          "end_turn": _t_end_turn, "round_end": _t_round_end}


# ====================================================================== setup frames
def _l_keep(s, frame):
    return [("return", c) for c in dict.fromkeys(s.dealt[frame[1]])]


def _a_keep(s, frame, action):
    p = s.players[frame[1]]
    cards = list(s.dealt[frame[1]])
    cards.remove(action[1])
    s.dealt[frame[1]] = ()
    s.start_card_deck.insert(0, action[1])
    by_id = {c.id: c for c in s.rules.start_cards}
    for cid in cards[: s.rules.game.start_cards_kept]:
        c = by_id[cid]
        s.gain(p, c.gain, "start")
        p.workers += [-1] * c.workers   # placed at the entrance with the others
        if c.start_building and s.start_bld_pool:
            p.start_buildings.append(s.start_bld_pool.pop())


def _l_start(s, frame):
    out = []
    for k in s.slot_sets_left:
        for j, _sl in enumerate(s.st.layout.slot_sets[k]):
            out.append(("slot", k, j))
    return out


def _a_start(s, frame, action):
    sl = s.st.layout.slot_sets[action[1]][action[2]]
    o = sl.line * s.st.board.columns + sl.col
    s.slot_sets_left.remove(action[1])
    s.box.append(s.tile[o])        # the replaced octagon goes back to the box unseen
    s.tile[o] = s.start_tile[frame[1]]
    s.explored[o] = True            # face up: the player looks at it while rotating
    s.stack.append(("start_rot", frame[1], o, s.st.geo.entrance_cell(sl.col, sl.line, sl.edge)))


def _l_start_rot(s, frame):
    return [("rot", r) for r in range(4)]


def _a_start_rot(s, frame, action):
    seat, o, ent = frame[1], frame[2], frame[3]
    p = s.players[seat]
    g = s.rules.game
    tile = s.st.tiles[s.tile[o]]
    s.explore(o, action[1])
    sp = 4 * o + (tile.start_space + action[1]) % 4
    s.bld[sp] = tile.start_building
    s.owner[sp] = seat
    s.done[sp] = True
    p.entrance = ent
    p.workers = [ent] * (g.start_workers + len(p.workers))
    if s.rules.start_tunnel.reading == "setup":
        s.stack.append(("start_tunnel", seat, o))


def _l_start_tunnel(s, frame):
    """The starting tunnel tile (setup 6, assumed reading): laid free right after the
    starting octagon, connecting one of its spaces."""
    kind = s.rules.start_tunnel.tile
    mine = range(4 * frame[2], 4 * frame[2] + 4)
    return [("tile", kind, g, r) for g, r, gaps, spaces in s.st.placements[kind]
            if any(x in mine for x in spaces) and not any(x in s.gap for x in gaps)] or [("none",)]


def _a_start_tunnel(s, frame, action):
    if action[0] == "tile":
        _lay(s, frame[1], action[1], action[1], action[2], action[3])


# ====================================================================== turn frames
def _l_unit(s, frame):
    p = s.players[frame[1]]
    g = s.rules.game
    out = []
    if len(p.workers) < g.max_workers:
        out.append(("worker",))
    if p.consultants < g.max_consultants:
        out.append(("consultant",))
    return out or [("none",)]


def _a_unit(s, frame, action):
    p = s.players[frame[1]]
    if action[0] == "worker":
        p.workers.append(frame[3])
    elif action[0] == "consultant":
        p.consultants += 1
        p.cons_free += 1
    if frame[2] > 1 and action[0] != "none":
        s.stack.append(("unit", frame[1], frame[2] - 1, frame[3]))


def spec_sources(s, p) -> list[str]:
    """Colours a player may gain as a permanent specialist (University, Luxury Villa)."""
    if len(p.perm) >= s.rules.game.blockers:
        return []
    out = []
    for c in ("yellow", "red", "green", "blue"):
        if c == p.colour or c in p.perm:
            continue
        if s.reserve.get(c, 0) > 0:
            out.append(c)
            continue
        for q in s.players:
            if q.colour == c and q.spec_home > 0 and q.spec_total > 1:
                out.append(c)
                break
    return out


def _l_gain_spec(s, frame):
    return [("spec", c) for c in spec_sources(s, s.players[frame[1]])] or [("none",)]


def _a_gain_spec(s, frame, action):
    if action[0] == "none":
        return
    p = s.players[frame[1]]
    c = action[1]
    if s.reserve.get(c, 0) > 0:
        s.reserve[c] -= 1
    else:
        q = next(q for q in s.players if q.colour == c)
        q.spec_home -= 1
        q.spec_total -= 1
    p.perm.append(c)
    p.turn_colours.add(c)
    if frame[2] > 1:
        s.stack.append(("gain_spec", frame[1], frame[2] - 1))


def _l_card(s, frame):
    return [("card", c) for c in sorted(set(s.players[frame[1]].hand))]


def _a_card(s, frame, action):
    p = s.players[frame[1]]
    p.hand.remove(action[1])
    p.secret.discard(action[1])
    p.slot = action[1]
    s.score(p, "cards", s.st.cards[action[1]].play_rep)   # "From Activation cards"
    p.markers = 3
    p.used_slots = ()
    p.support_pending = True


def free_arrangement(p) -> bool:
    return p.university or p.ability == "free_arrangement"


def open_slots(p) -> list[tuple[int, int]]:
    """The (row, side) orders the markers may still take: one per row in row order, or any
    uncovered order with the University / the free-arrangement ability."""
    if p.markers <= 0:
        return []
    if free_arrangement(p):
        return [(r, k) for r in range(3) for k in range(2) if (r, k) not in p.used_slots]
    row = 3 - p.markers
    return [(row, 0), (row, 1)]


def _l_order(s, frame):
    p = s.players[frame[1]]
    if free_arrangement(p):              # the same order in two open slots: one option
        rows = s.st.cards[p.slot].rows
        out = []
        seen = set()
        for r, k in open_slots(p):
            key = (rows[r][k].kind, rows[r][k].gain)
            if key not in seen:
                seen.add(key)
                out.append(("order", r, k))
    else:
        out = [("order", r, k) for r, k in open_slots(p)]
    if p.support_pending:
        out.append(("support",))
    if s.rules.modules.corp_locations:
        out += _loan_options(s, p)
    if p.ability == "pt_trade" and "pt_trade" not in p.used and sum(p.res) >= s._ability_value("pt_trade"):
        out.append(("pt_trade",))
    return out


def _a_order(s, frame, action):
    p = s.players[frame[1]]
    s.claim_missions(p)
    if action[0] == "support":
        if p.markers > 0:
            s.stack.append(("order", p.seat))
        _do_support(s, p)
        return
    if action[0] == "pt_trade":
        p.used.add("pt_trade")
        for _ in range(s._ability_value("pt_trade")):
            i = largest_track(p.res)
            p.res[i] -= 1
        p.pt += 1
        s.stack.append(("order", p.seat))
        return
    if action[0] in ("loan", "repay"):
        _do_loan(s, p, action)
        if p.markers > 0:
            s.stack.append(("order", p.seat))
        return
    r, k = action[1], action[2]
    p.markers -= 1
    p.used_slots = p.used_slots + ((r, k),)
    if p.markers > 0:
        s.stack.append(("order", p.seat))
    do_order(s, p, s.st.cards[p.slot].rows[r][k])


def _loan_space(s):
    return next((sid for sid, sp in s.st.spaces.items() if sp.kind == "loan"), None)


def _loan_options(s, p) -> list[tuple]:
    """Advanced Corp board locations, The Coward's Loan: "Players can spend any of their 3
    actions to take a loan" (a professional on the star loan space, a cube under a tier);
    repaying costs the power tokens plus 1 action, 2 actions or the whole turn."""
    g = s.rules.game
    out = []
    sid = _loan_space(s)
    if sid is not None and p.markers > 0 and p.pros_free > 0 and s.occ.get(sid) != p.seat:
        for t in range(len(g.loan_tiers)):
            if s.loan_cubes[t] < g.loan_cubes:
                out.append(("loan", t))
    for t in sorted(set(p.loans)):
        need = g.loan_repay_actions[t] if t < len(g.loan_repay_actions) else 1
        if p.pt >= g.loan_tiers[t][0] and p.markers >= need and (need < 3 or p.markers == 3):
            out.append(("repay", t))
    return out


def _cover(p, n: int) -> None:
    """Spend `n` activation markers without an order (the next open orders are covered)."""
    for _ in range(n):
        slots = open_slots(p)
        if not slots:
            return
        p.markers -= 1
        p.used_slots = p.used_slots + (slots[0],)


def _do_loan(s, p, action) -> None:
    g = s.rules.game
    t = action[1]
    if action[0] == "loan":
        _cover(p, 1)
        _place_pro(s, p, _loan_space(s))
        p.pt += g.loan_tiers[t][0]
        p.loans.append(t)
        s.loan_cubes[t] += 1
    else:
        _cover(p, g.loan_repay_actions[t] if t < len(g.loan_repay_actions) else 1)
        p.pt -= g.loan_tiers[t][0]
        p.loans.remove(t)
        s.loan_cubes[t] -= 1


def _do_support(s, p) -> None:
    p.support_pending = False
    do_order(s, p, s.st.cards[p.slot].support)


def do_order(s, p, order) -> None:
    kind = order.kind
    if kind == "gain":
        s.gain(p, order.gain)
    elif kind == "move":
        bonus = sum(s.st.b[s.bld[sp]].move_bonus for sp in s.owned(p.seat) if s.done[sp])
        p.mv_left = s.rules.game.move_points + bonus
        p.mv_stopped = ()
        p.mv_jet = False
        s.stack.append(("move", p.seat))
    elif kind in ACT_KINDS:
        _automatic(s, p, kind)
        if activation_groups(s, p, kind):
            s.stack.append(("activate", p.seat, kind))
    elif kind == "trade":
        guild = any(s.st.b[s.bld[sp]].trade_twice for sp in s.owned(p.seat) if s.done[sp])
        _automatic(s, p, "trade")
        s.stack.append(("trade", p.seat, 2 if guild else 1))
    elif kind == "build":
        molds = [s.st.b[s.bld[sp]].build_twice_money for sp in s.owned(p.seat)
                 if s.done[sp] and s.st.b[s.bld[sp]].build_twice_money >= 0]
        if molds:                        # Construction Molds: "Build x2, -2 Money"
            s.stack.append(("build", p.seat, min(molds), "second"))
            s.stack.append(("build", p.seat, 0, "first"))   # paid with the second build
        else:
            s.stack.append(("build", p.seat))
    elif kind == "corp":
        s.stack.append(("corp", p.seat))


def _automatic(s, p, kind: str) -> None:
    """Automatic (no worker) buildings fire when their activation is used."""
    b = s.st.b
    for sp in s.owned(p.seat):
        if not s.done[sp]:
            continue
        bd = b[s.bld[sp]]
        if bd.activation != kind or bd.needs_worker:
            continue
        if bd.requires_terrain and not s.has_terrain_building(p.seat, bd.requires_terrain):
            continue
        s.gain(p, bd.gain, "activations")


# ---------------------------------------------------------------- move
def _l_move(s, frame):
    p = s.players[frame[1]]
    out = []
    if p.mv_left > 0:
        geo = s.st.geo
        n_space, tile, explored, stopped = geo.n_space, s.tile, s.explored, p.mv_stopped
        seen = set()
        for w, cell in enumerate(p.workers):
            if cell < 0 or cell in seen or w in stopped:
                continue
            seen.add(cell)
            for dest in s.neighbours(cell):
                if dest >= n_space:
                    if dest == p.entrance:
                        out.append(("step", w, dest))
                    continue
                o = dest >> 2
                if tile[o] >= 0:
                    out.append(("step" if explored[o] else "explore", w, dest))
            if p.mv_jet:
                for dest in range(geo.n_space):
                    if s.terr[dest] is not None and dest != cell and dest not in geo.nb[cell]:
                        out.append(("jump", w, dest))
            elif cell < n_space and s.terr[cell] == "magma" and _has_magma_travel(s, p):
                for dest in range(geo.n_space):     # Lava Crawler: magma to magma, 1 move
                    if s.terr[dest] == "magma" and dest != cell and dest not in geo.nb[cell]:
                        out.append(("jump", w, dest))
        if p.cons_free > 0:
            out += [("fly", sp) for sp in s.social_sites() if sp not in p.cons_landed]
    out.append(("end",))
    return out


def _has_magma_travel(s, p) -> bool:
    return any(s.done[sp] and s.st.b[s.bld[sp]].magma_travel for sp in s.owned(p.seat))


def _a_move(s, frame, action):
    p = s.players[frame[1]]
    kind = action[0]
    if kind == "end":
        p.mv_left = 0
        return
    p.mv_left -= 1
    s.stack.append(("move", p.seat))
    if kind in ("step", "jump"):
        p.workers[action[1]] = action[2]
    elif kind == "explore":
        p.workers[action[1]] = action[2]
        p.mv_stopped = p.mv_stopped + (action[1],)
        s.stack.append(("rotate", p.seat, action[2]))
    elif kind == "fly":
        sp = action[1]
        p.cons_free -= 1
        p.cons_landed.append(sp)
        bd = s.st.b[s.bld[sp]]
        s.gain(p, bd.gain, "activations")
        if bd.jetpack:
            p.mv_jet = True
        owner = s.owner[sp]
        if owner != p.seat:
            s.score(s.players[owner], "social", bd.owner_rep)
        if bd.deal_pt and p.pt >= bd.deal_pt and pub_targets(s, p):
            s.stack.append(("pub", p.seat, sp))       # The Low Light Pub: a deal


def _l_rotate(s, frame):
    o = frame[2] >> 2
    tile = s.st.tiles[s.tile[o]]
    out, seen = [], set()
    for r in range(4):
        key = (rotated(tile.spaces, r), (tile.start_space + r) % 4 if tile.start_building else -1)
        if key not in seen:
            seen.add(key)
            out.append(("rot", r))
    return out


def _a_rotate(s, frame, action):
    o = frame[2] >> 2
    s.explore(o, action[1])
    tile = s.st.tiles[s.tile[o]]
    if s.tile[o] >= s.st.n_regular and tile.start_building:
        # Crooked Caverns: a remaining starting tile's printed building is a "free" building
        # for the player who turns it over (assumed).
        sp = 4 * o + (tile.start_space + action[1]) % 4
        if s.bld[sp] is None:
            s.bld[sp] = tile.start_building
            s.owner[sp] = frame[1]
            s.done[sp] = True


def pub_targets(s, p) -> list[int]:
    """The Low Light Pub: "place their cube on a building they don't own": any rival's
    building not carrying the player's cube yet (it counts once it joins one of the player's
    networks of the same type, see scoring.clusters)."""
    return [sp for sp, o in enumerate(s.owner) if o not in (-1, p.seat) and sp not in p.cubes]


def _l_pub(s, frame):
    p = s.players[frame[1]]
    price = s.st.b[s.bld[frame[2]]].deal_pt
    if p.pt < price:
        return [("none",)]
    return [("deal", sp) for sp in pub_targets(s, p)] + [("none",)]


def _a_pub(s, frame, action):
    """No negotiation in a simulation: the deal is the rulebook's fallback, "the price is 3
    PT. Not possible to deny": the power tokens go to the building's owner."""
    if action[0] == "none":
        return
    p = s.players[frame[1]]
    price = s.st.b[s.bld[frame[2]]].deal_pt
    sp = action[1]
    p.pt -= price
    s.players[s.owner[sp]].pt += price
    p.cubes.append(sp)


# ---------------------------------------------------------------- harvest / mine / entertain
def activation_groups(s, p, kind: str) -> list[list[int]]:
    """Connected groups of this player's finished, staffed buildings of one activation type
    ("Building Connectivity": one activation runs all of them)."""
    b = s.st.b
    staffed = set(p.workers)

    def ok(sp):
        bid = s.bld[sp]
        if bid is None or s.owner[sp] != p.seat or not s.done[sp]:
            return False
        bd = b[bid]
        return bd.activation == kind and bd.needs_worker and sp in staffed

    groups, seen = [], set()
    for sp in sorted(staffed):
        if sp < s.st.geo.n_space and sp not in seen and ok(sp):
            grp = s.group(sp, ok)
            seen.update(grp)
            groups.append(grp)
    return groups


def _l_activate(s, frame):
    p = s.players[frame[1]]
    return [("group", g[0]) for g in activation_groups(s, p, frame[2])] or [("none",)]


def _a_activate(s, frame, action):
    if action[0] == "none":
        return
    p = s.players[frame[1]]
    kind = frame[2]
    grp = next(g for g in activation_groups(s, p, kind) if g[0] == action[1])
    b = s.st.b
    mods = s.rules.modules
    corp = s.rules.corporations[p.corp]
    for sp in grp:
        bd = b[s.bld[sp]]
        s.gain(p, bd.gain)
        if bd.morale_loss and p.ability != "no_pollution":
            p.morale = max(0, p.morale - bd.morale_loss)
    if mods.focus:
        if corp.bonus == "production" and kind in ("harvest", "mine"):
            i = FOOD if kind == "harvest" else MATERIAL
            p.res[i], p.pt = gain_track(p.res[i], p.pt, 1, s.rules.game.pt_value)
        if corp.bonus == "mine_rep" and kind == "mine":
            s.score(p, "focus", 1)


# ---------------------------------------------------------------- trade / the corp
def _space_ok(s, p, sp, corp: bool) -> bool:
    if sp.corp != corp or s.occ.get(sp.id) == p.seat or p.pros_free <= 0:
        return False
    return _can_trade(s, p, sp)


def _can_trade(s, p, sp) -> bool:
    k = sp.kind
    if k == "first_player":
        return True
    if k == "tile":
        return p.pt >= sp.pay.pt and next(_each_tile_option(s, p), None) is not None
    if k == "card":
        return p.pt >= sp.pay.pt and (any(c is not None for c in s.market) or bool(s.card_deck))
    if k == "missions":
        return p.pt >= sp.pay.pt and bool(s.mission_deck or s.mission_discard)
    if k == "upgrade":
        return bool(upgrade_options(s, p))
    if k == "loan":
        return False                     # taken with any action, not with Trade / The Corp
    return p.pt >= sp.pay.pt and p.tg >= sp.pay.tg and p.energy >= sp.pay.energy


def _l_trade(s, frame):
    p = s.players[frame[1]]
    out = [("space", sid) for sid, sp in s.st.spaces.items() if _space_ok(s, p, sp, False)]
    out.append(("none",))
    return out


def _l_corp(s, frame):
    p = s.players[frame[1]]
    out = [("space", sid) for sid, sp in s.st.spaces.items() if _space_ok(s, p, sp, True)]
    out.append(("none",))
    return out


def _place_pro(s, p, sid: str) -> None:
    """Place a professional; a rival's professional there is bumped (it gains 2 reputation
    and goes back to its board)."""
    other = s.occ.get(sid)
    if other is not None and other != p.seat:
        q = s.players[other]
        s.score(q, "bumps", s.rules.game.bump_rep)
        q.pros_free += 1
    s.occ[sid] = p.seat
    p.pros_free -= 1
    if s.st.spaces[sid].star:
        s.star_round = True
        s.roll_die()


def _a_trade(s, frame, action):
    if action[0] == "none":
        return
    p = s.players[frame[1]]
    if frame[0] == "trade" and frame[2] > 1:
        s.stack.append(("trade", p.seat, frame[2] - 1))
    sid = action[1]
    _place_pro(s, p, sid)
    _do_trade(s, p, sid)


def _do_trade(s, p, sid: str) -> None:
    sp = s.st.spaces[sid]
    k = sp.kind
    s.stack.append(("again", p.seat, sid))
    if k == "first_player":
        s.next_first = p.seat
        s.stack.pop()
        return
    p.pt -= sp.pay.pt
    p.tg -= sp.pay.tg
    p.energy -= sp.pay.energy
    if k == "tile":
        s.stack.append(("tile", p.seat))
    elif k == "card":
        if p.ability == "card_draw3" and s.card_deck:
            drawn = tuple(s.card_deck.pop() for _ in range(min(3, len(s.card_deck))))
            s.stack.append(("buy", p.seat, drawn))
        else:
            s.stack.append(("buy", p.seat, ()))
    elif k == "upgrade":
        s.stack.pop()                    # one upgrade per Corp action (assumed)
        s.stack.append(("upgrade", p.seat))
    elif k == "missions":
        for i, mid in enumerate(s.missions):
            if mid is not None:
                s.mission_discard.append(mid)
                s.missions[i] = None
        s.refill()
    else:
        s.gain(p, sp.get, "corp")


def _l_again(s, frame):
    p = s.players[frame[1]]
    sp = s.st.spaces[frame[2]]
    return ([("again",)] if _can_trade(s, p, sp) else []) + [("done",)]


def _a_again(s, frame, action):
    if action[0] == "again":
        _do_trade(s, s.players[frame[1]], frame[2])


def _tile_options(s, p) -> list[tuple]:
    """("tile", kind, anchor gap, orientation) for every tunnel type left in the supply and
    every trapezoid the player holds, on free gaps, connecting a space where the player has a
    worker ("your worker ... adjacent to the indicated building spot"), anywhere with the
    "Tunnel tile requirement skipped" ability."""
    return list(_each_tile_option(s, p))


def _each_tile_option(s, p):
    """`_tile_options` one at a time, in the same order (a trade space only asks whether
    there is one).  Only the placements connecting a worker's space are visited (the
    per-shape index `Static.touching`, in placement order)."""
    geo = s.st.geo
    anywhere = p.ability == "tunnel_anywhere"
    near = {c for c in p.workers if 0 <= c < geo.n_space}
    gap = s.gap
    kinds = [(k, k) for k in s.st.tunnel_ids if s.tunnel_supply.get(k, 0) > 0]
    kinds += [(k, "trapezoid") for k in sorted(set(p.trapezoids))]
    for kind, shape in kinds:
        placements = s.st.placements[shape]
        if anywhere:
            which = range(len(placements))
        else:
            touching = s.st.touching[shape]
            which = sorted({i for x in near for i in touching.get(x, ())})
        for i in which:
            g, r, gaps, _spaces = placements[i]
            if not any(x in gap for x in gaps):
                yield ("tile", kind, g, r)


def _l_tile(s, frame):
    return _tile_options(s, s.players[frame[1]]) or [("none",)]


def _a_tile(s, frame, action):
    if action[0] == "none":
        return
    p = s.players[frame[1]]
    kind = action[1]
    if kind in s.tunnel_supply:
        s.tunnel_supply[kind] -= 1
        shape = kind
    else:
        p.trapezoids.remove(kind)
        shape = "trapezoid"
    _lay(s, p.seat, kind, shape, action[2], action[3])


def _lay(s, seat: int, kind: str, shape: str, anchor: int, rot: int) -> None:
    for g, r, gaps, spaces in s.st.placements[shape]:
        if g == anchor and r == rot:
            s.lay_tile(kind, seat, gaps, spaces)
            return
    raise ValueError(f"no {shape} placement at gap {anchor} r{rot}")


def _l_buy(s, frame):
    if frame[2]:
        return [("keep", c) for c in frame[2]]
    return [("buy", i) for i, c in enumerate(s.market) if c is not None] or [("none",)]


def _a_buy(s, frame, action):
    p = s.players[frame[1]]
    if action[0] == "none":
        return
    if action[0] == "keep":
        cid = action[1]
        rest = [c for c in frame[2] if c != cid]
        s.card_deck[:0] = rest            # "Place the rest under"
        p.secret.add(cid)
    else:
        cid = s.market[action[1]]
        s.market[action[1]] = None
    p.hand.append(cid)
    p.bought.append(cid)


def upgrade_options(s, p) -> list[tuple]:
    """"Seeking new talent": small -> large residential building (3 workers), large -> Luxury
    Villa (needs the University; a specialist of your choice), at no cost."""
    out = []
    for frm, to in s.rules.game.upgrades:
        if s.supply.get(to, 0) <= 0 or frm not in s.st.b:
            continue
        if s.st.b[to].specialist_gain and not p.university:
            continue
        for sp in s.owned(p.seat):
            if s.bld[sp] == frm and s.done[sp]:
                out.append(("upgrade", sp, to))
    return out


def _l_upgrade(s, frame):
    return upgrade_options(s, s.players[frame[1]]) or [("none",)]


def _a_upgrade(s, frame, action):
    if action[0] == "none":
        return
    p = s.players[frame[1]]
    sp, to = action[1], action[2]
    s.supply[s.bld[sp]] += 1
    s.supply[to] -= 1
    s.bld[sp] = to
    bd = s.st.b[to]
    if bd.specialist_gain:
        s.stack.append(("gain_spec", p.seat, bd.specialist_gain))
    g = s.rules.game
    for _ in range(bd.units):
        if len(p.workers) < g.max_workers:
            p.workers.append(sp)


# ---------------------------------------------------------------- build
def build_sites(s, p) -> list[int]:
    geo = s.st.geo
    return sorted({c for c in p.workers if 0 <= c < geo.n_space and s.bld[c] is None
                   and s.terr[c] is not None})


def _spec_need(s, p, bd) -> list[str]:
    """Specialist skills still to source for a building (reuse within the turn is free)."""
    return [c for c in bd.specialists if c not in p.turn_colours and c not in p.perm]


def _source_options(s, p, colour: str) -> list[tuple]:
    """(source, arg, money, pt, rep) ways to get one specialist of `colour`."""
    out = []
    g = s.rules.game
    if colour == p.colour:
        if p.spec_home > 0:
            out.append(("own", -1, 0, 0, 0))
        if p.pros_free > 0:
            out.append(("pro", -1, 0, 0, 0))
    for q in s.players:
        if q.seat != p.seat and q.colour == colour and q.spec_home > 0 and q.hired_out < g.hire_slots:
            out.append(("hire", q.seat, g.hire_cost, 0, 0))
    for k, holder in enumerate(s.super_holder):
        if holder == -1:
            d = s.super_die[k]
            money, rep = d, g.super_rep_loss[d - 1]
            if p.ability == "super_cap" and d > s._ability_value("super_cap"):
                money, rep = s._ability_value("super_cap"), 1
            out.append(("super", k, money, 0, rep))
            break                        # the two supers are interchangeable when both free
    if p.ability == "skip_specialist" and "skip_specialist" not in p.used:
        out.append(("skip", -1, 0, 0, 0))
    if not out:                          # OVERBID when every source is occupied
        owner = next((q.seat for q in s.players if q.colour == colour and q.seat != p.seat), -1)
        out.append(("overbid", owner, 0, g.overbid_pt, 0))
    return out


def _cheapest(opts) -> tuple[int, int]:
    best = min(opts, key=lambda o: (o[3], o[2], o[4]))
    return best[2], best[3]


def _base_cost(s, p, bd) -> tuple[int, int, int, int]:
    food = bd.cost.food
    if p.ability == "less_food":
        food = max(0, food - s._ability_value("less_food"))
    return bd.cost.money, food, bd.cost.material, bd.cost.pt


def _workforce_ok(s, p, bd, site: int, pros_used: int) -> bool:
    here = p.workers.count(site)
    return here >= 1 and here + p.cons_free + p.pros_free - pros_used >= bd.workers


def build_feasible(s, p, bd, site: int, extra_money=0, extra_pt=0, colours=None, pros_used=0,
                   skip=None, owed=None) -> bool:
    """Whether the build can be completed, sourcing each remaining specialist the cheapest
    way (own, the once-per-turn skip, a professional, then the cheapest paid source).
    `owed`: the deferred cost of the first Construction Molds build, paid together."""
    pros = _build_plan(s, p, bd, extra_money, extra_pt, colours, pros_used, skip, owed)
    return pros is not None and _workforce_ok(s, p, bd, site, pros)


def _build_plan(s, p, bd, extra_money=0, extra_pt=0, colours=None, pros_used=0, skip=None,
                owed=None) -> int | None:
    """The part of `build_feasible` that does not depend on the site: the professionals used
    once each remaining specialist is sourced the cheapest way, or None when a specialist
    cannot be sourced or the build cannot be paid."""
    colours = _spec_need(s, p, bd) if colours is None else colours
    if skip is None:
        skip = p.ability == "skip_specialist" and "skip_specialist" not in p.used
    money, pt, pros = extra_money, extra_pt, pros_used
    for c in colours:
        opts = _source_options(s, p, c)
        kinds = {o[0] for o in opts}
        if "own" in kinds:
            continue
        if skip:
            skip = False
            continue
        if "pro" in kinds and p.pros_free - pros > 0:
            pros += 1
            continue
        paid = [o for o in opts if o[0] not in ("own", "pro", "skip")]
        if not paid:
            return None
        m, t = _cheapest(paid)
        money += m
        pt += t
    cost = _merge(_build_cost(s, p, bd, money, pt), owed)
    return pros if s.afford(p, *cost[:4], s.morale_steps(p, cost[4])) is not None else None


def _build_cost(s, p, bd, money: int, pt: int) -> tuple[int, int, int, int, int]:
    """(money, food, material, power tokens, morale level) of a build, with `money` and `pt`
    owed for its specialists."""
    bm, bf, bmat, bpt = _base_cost(s, p, bd)
    return money + bm, bf, bmat, pt + bpt, bd.morale


def _merge(cost, owed):
    """Construction Molds: "players only pay 3 PT (1 for each resource) to build 2
    buildings": the two builds' amounts of each resource are added and paid as one payment
    per resource (a power token then covers the whole sum); the higher morale level counts."""
    if owed is None:
        return cost
    return (cost[0] + owed[0], cost[1] + owed[1], cost[2] + owed[2], cost[3] + owed[3],
            max(cost[4], owed[4]))


def _pay(s, p, cost) -> None:
    """Pay resource by resource, then buy the missing morale."""
    steps = s.morale_steps(p, cost[4])
    paid = s.afford(p, *cost[:4], steps)
    if paid is None:                     # a source forced on the player made it unpayable
        paid = (p.res.copy(), p.pt)
        steps = 0
    p.res, p.pt = list(paid[0]), paid[1]
    p.morale += steps


def buildable(s, p, extra_money: int = 0, owed=None) -> list[tuple]:
    out = []
    sites = build_sites(s, p)
    if not sites:
        return out
    b = s.st.b
    plans: dict[str, int | None] = {}    # build_feasible, the site-independent part per building

    def feasible(bid, bd, site):
        if bid not in plans:
            plans[bid] = _build_plan(s, p, bd, extra_money, owed=owed)
        pros = plans[bid]
        return pros is not None and _workforce_ok(s, p, bd, site, pros)

    for site in sites:
        terr = s.terr[site]
        for bid, bd in s.st.for_terrain.get(terr, ()):    # not starting, count > 0, terrain
            if s.supply[bid] <= 0:
                continue
            if bd.one_per_player and any(s.bld[x] == bid for x in s.owned(p.seat)):
                continue
            if feasible(bid, bd, site):
                out.append(("b", bid, site))
        for bid in dict.fromkeys(p.start_buildings):
            bd = b[bid]
            if terr in bd.terrains and feasible(bid, bd, site):
                out.append(("b", bid, site))
    return out


def _build_mode(frame) -> str:
    """"" (a single build), "first" or "second" (the two builds of Construction Molds)."""
    return frame[3] if len(frame) > 3 else ""


def _owed(p, mode: str):
    return p.owed if mode == "second" else None


def _l_build(s, frame):
    p = s.players[frame[1]]
    extra = frame[2] if len(frame) > 2 else 0     # the second build of Construction Molds
    return buildable(s, p, extra, _owed(p, _build_mode(frame))) + [("none",)]


def _a_build(s, frame, action):
    p = s.players[frame[1]]
    mode = _build_mode(frame)
    if action[0] == "none":
        if mode == "first" and s.stack and s.stack[-1][:2] == ("build", p.seat) \
                and _build_mode(s.stack[-1]) == "second":
            s.stack.pop()                # no first build: no second one either
        elif mode == "second" and p.owed is not None:
            _pay(s, p, p.owed)           # only one build: the first is paid alone
            p.owed = None
        return
    bid, site = action[1], action[2]
    bd = s.st.b[bid]
    # ("spec", seat, bid, site, colours left, money owed, pt owed, pros used, build mode)
    extra = frame[2] if len(frame) > 2 else 0
    _next_spec(s, p, bid, site, tuple(_spec_need(s, p, bd)), extra, 0, 0, mode)


def _next_spec(s, p, bid, site, colours, money, pt, pros, mode="") -> None:
    if colours:
        s.stack.append(("spec", p.seat, bid, site, colours, money, pt, pros, mode))
    else:
        _finish_build(s, p, bid, site, money, pt, pros, mode)


def _l_spec(s, frame):
    p = s.players[frame[1]]
    bid, site, colours, money, pt, pros, mode = frame[2:]
    bd = s.st.b[bid]
    owed = _owed(p, mode)
    skip = p.ability == "skip_specialist" and "skip_specialist" not in p.used
    out = []
    for src, arg, m, t, _rep in _source_options(s, p, colours[0]):
        if src == "pro" and p.pros_free - pros <= 0:
            continue
        if src == "skip":
            ok = build_feasible(s, p, bd, site, money, pt, list(colours[1:]), pros, skip=False,
                                owed=owed)
        else:
            ok = build_feasible(s, p, bd, site, money + m, pt + t, list(colours[1:]),
                                pros + (src == "pro"), skip=skip, owed=owed)
        if ok:
            out.append(("src", src, arg))
    return out or [("src", "skip_forced", -1)]


def _a_spec(s, frame, action):
    p = s.players[frame[1]]
    bid, site, colours, money, pt, pros, mode = frame[2:]
    src, arg = action[1], action[2]
    c = colours[0]
    g = s.rules.game
    if src == "own":
        p.spec_home -= 1
        p.spec_busy += 1
    elif src == "pro":
        pros += 1
    elif src == "hire":
        q = s.players[arg]
        q.spec_home -= 1
        q.hired_out += 1
        p.hired.append(arg)
        money += g.hire_cost
        q.res[MONEY], q.pt = gain_track(q.res[MONEY], q.pt, g.hire_cost, g.pt_value)
    elif src == "super":
        d = s.super_die[arg]
        m, rep = d, g.super_rep_loss[d - 1]
        if p.ability == "super_cap" and d > s._ability_value("super_cap"):
            m, rep = s._ability_value("super_cap"), 1
        s.super_holder[arg] = p.seat
        p.supers.append(arg)
        money += m
        s.score(p, "hiring", -rep)
    elif src == "overbid":
        pt += g.overbid_pt
        if arg >= 0:
            s.players[arg].pt += g.overbid_pt
    elif src in ("skip", "skip_forced"):
        p.used.add("skip_specialist")
    p.turn_colours.add(c)
    _next_spec(s, p, bid, site, colours[1:], money, pt, pros, mode)


def _finish_build(s, p, bid, site, money, pt, pros, mode="") -> None:
    """Pay resource by resource, buy the missing morale, fly in consultants and
    professionals for the missing workers, and lay the building face down.  The first build
    of Construction Molds is paid with the second one (`p.owed`)."""
    bd = s.st.b[bid]
    cost = _build_cost(s, p, bd, money, pt)
    if mode == "first":
        p.owed = cost
    else:
        _pay(s, p, _merge(cost, _owed(p, mode)))
        p.owed = None
    here = p.workers.count(site)
    missing = max(0, bd.workers - here)
    cons = min(missing, p.cons_free)
    p.cons_free -= cons
    p.pros_free = max(0, p.pros_free - pros - (missing - cons))
    s.bld[site] = bid
    s.owner[site] = p.seat
    s.done[site] = False
    if bd.starting:
        p.start_buildings.remove(bid)
    else:
        s.supply[bid] -= 1
    p.unfinished.append(site)
    if p.ability == "build_rep":
        s.score(p, "abilities", s._ability_value("build_rep"))
    if s.rules.modules.focus:
        scoring.focus_on_build(s, p, site)


# ====================================================================== tables
_LEGAL = {"keep": _l_keep, "start": _l_start, "start_rot": _l_start_rot, "unit": _l_unit,
          "start_tunnel": _l_start_tunnel,
          "gain_spec": _l_gain_spec, "card": _l_card, "order": _l_order, "move": _l_move,
          "rotate": _l_rotate, "activate": _l_activate, "trade": _l_trade, "corp": _l_corp,
          "again": _l_again, "tile": _l_tile, "buy": _l_buy, "build": _l_build, "spec": _l_spec,
          "upgrade": _l_upgrade, "pub": _l_pub}
_APPLY = {"keep": _a_keep, "start": _a_start, "start_rot": _a_start_rot, "unit": _a_unit,
          "start_tunnel": _a_start_tunnel,
          "gain_spec": _a_gain_spec, "card": _a_card, "order": _a_order, "move": _a_move,
          "rotate": _a_rotate, "activate": _a_activate, "trade": _a_trade, "corp": _a_trade,
          "again": _a_again, "tile": _a_tile, "buy": _a_buy, "build": _a_build, "spec": _a_spec,
          "upgrade": _a_upgrade, "pub": _a_pub}


# ====================================================================== describe
def describe(s: UnderhavenState, action, frame=None) -> tuple[str, str, int | None]:
    """(action, detail, cell) for the move log and replays."""
    frame = frame or (s.stack[-1] if s.stack else ("", -1))
    f = frame[0]
    k = action[0]
    if f == "move":
        if k in ("step", "explore", "jump"):
            return f"move_{k}", f"worker {action[1]} to {action[2]}", action[2]
        if k == "fly":
            return "consultant_fly", s.bld[action[1]] or "", action[1]
        return "move_end", "", None
    if f == "rotate":
        o = frame[2] >> 2
        return "explore_rotate", f"{s.st.tiles[s.tile[o]].id} r{action[1]}", frame[2]
    if f == "build":
        if k == "b":                     # the Molds' second build of the same order: molds_build
            name = "molds_build" if _build_mode(frame) == "second" else "build"
            return name, action[1], action[2]
        return "build_none", "", None
    if f == "spec":
        return "specialist", f"{frame[4][0]} {action[1]} {action[2]}", frame[3]
    if f == "activate":
        return f"activate_{frame[2]}", "", action[1] if k == "group" else None
    if f == "order":
        if k == "order":
            o = s.st.cards[s.players[frame[1]].slot].rows[action[1]][action[2]]
            return "order", f"row {action[1] + 1} {o.kind}", None
        return k, " ".join(map(str, action[1:])), None
    if f == "upgrade" and k == "upgrade":
        return "upgrade", action[2], action[1]
    if f == "pub" and k == "deal":
        return "pub_deal", f"{s.bld[action[1]]} of seat {s.owner[action[1]]}", action[1]
    if f in ("trade", "corp"):
        return f, action[1] if k == "space" else "none", None
    if f in ("tile", "start_tunnel"):
        return (f, f"{action[1]} r{action[3]}", action[2]) if k == "tile" else (f, "none", None)
    if f == "start":
        sl = s.st.layout.slot_sets[action[1]][action[2]]
        o = sl.line * s.st.board.columns + sl.col
        return "start_octagon", f"set {action[1] + 1}", 4 * o
    if f == "start_rot":
        return "start_rotate", f"r{action[1]}", 4 * frame[2]
    return f if f == k else f"{f}_{k}", " ".join(map(str, action[1:])), None

UnderhavenState.LEGAL = _LEGAL
UnderhavenState.APPLY = _APPLY
