"""The Underhaven state: each corporation's board (`Player`) and the shared table
(`UnderhavenState`: the octagons, buildings and tiles, the Corp board, the decks, the
decision stack).  What it holds is described in engine/games/underhaven/RULES.md; setup.py
builds it, decisions.py installs the decision tables (frame kind -> legal / apply)."""

from __future__ import annotations


from engine.core.frames import FrameMachine

from . import missions, payment, scoring
from .board import rotated
from .describe import describe
from .payment import gain_track


_ABILITY_VALUES: dict = {}    # id(rules) -> (rules, ability id -> value)


class Player:
    """One corporation's board, meeting room and supply."""

    __slots__ = ("seat", "corp", "colour", "ability", "res", "pt", "tg", "energy", "morale", "rep",
                 "workers", "consultants", "cons_free", "cons_landed", "pros_free",
                 "spec_total", "spec_home", "spec_busy", "hired_out", "hired", "perm",
                 "turn_colours", "hand", "discard", "slot", "secret", "bought", "trapezoids",
                 "start_buildings", "unfinished", "university", "entrance", "used",
                 "markers", "used_slots", "support_pending", "mv_left", "mv_stopped",
                 "mv_jet", "mv_crawl", "supers", "loans", "owed", "cubes", "postponed",
                 "free_hires", "spec_owed", "borrowed", "held")

    def __init__(self, seat: int, corp: str, colour: str):
        self.seat = seat
        self.corp = corp
        self.colour = colour
        self.ability = ""
        self.res = [0, 0, 0]          # money, food, material tracks (0-5)
        self.pt = 0                   # power tokens
        self.tg = 0                   # trade goods
        self.energy = 0
        self.morale = 0
        self.rep = 0                  # reputation so far (mirrors the score events)
        self.workers: list[int] = []  # cell of each worker
        self.consultants = 0
        self.cons_free = 0            # in the meeting room
        self.cons_landed: list[int] = []   # social buildings landed on this turn
        self.pros_free = 0
        self.spec_total = 0           # own-colour specialists still owned
        self.spec_home = 0            # of those, in the meeting room
        self.spec_busy = 0            # own specialists used by me this turn
        self.hired_out = 0            # my specialists hired by others (cubes on my board)
        self.hired: list[int] = []    # seats whose specialist I hired (returned next turn)
        self.supers: list[int] = []   # Corp super specialists I hold
        self.perm: list[str] = []     # permanent recruits (other colours), unlocked specialists
        self.turn_colours: set[str] = set()   # specialist skills at my disposal this turn
        self.hand: list[str] = []
        self.discard: list[str] = []
        self.slot: str | None = None  # the activation card in the console
        self.secret: set[str] = set() # cards drawn unseen by others
        self.bought: list[str] = []   # market cards owned (end-scoring bonuses)
        self.trapezoids: list[str] = []
        self.start_buildings: list[str] = []
        self.unfinished: list[int] = []   # spaces built last turn (flipped next turn)
        self.university = False
        self.entrance = -1
        self.used: set[str] = set()   # once-per-turn / once-per-round ability marks
        self.markers = 0              # activation markers left this turn
        self.used_slots: tuple = ()   # (row, side) already covered
        self.support_pending = False
        self.mv_left = 0
        self.mv_stopped: tuple = ()   # worker indices that explored (stopped) this Move
        self.mv_jet = False
        self.mv_crawl = False         # the Lava Crawler's energy paid in this Move (advanced)
        self.loans: list[int] = []    # loan tiers taken (advanced)
        self.owed: tuple | None = None    # Construction Molds: the first build's deferred cost
        self.cubes: list[int] = []    # Low Light Pub: rivals' buildings carrying my deal cube
        self.postponed: tuple = ()    # (row, side) orders chosen, carried out at the turn's end
        self.free_hires = 0           # hires this turn that cost no Money (free-specialist icon)
        self.spec_owed = 0            # own specialists taken as permanent recruits while away
        self.borrowed: list[int] = [] # owners whose busy specialist I took by an overbid
        self.held: list[str] = []     # missions claimed for myself (missions space "claim")

    def clone(self) -> "Player":
        p = Player.__new__(Player)
        p.seat = self.seat
        p.corp = self.corp
        p.colour = self.colour
        p.ability = self.ability
        p.res = self.res.copy()
        p.pt = self.pt
        p.tg = self.tg
        p.energy = self.energy
        p.morale = self.morale
        p.rep = self.rep
        p.workers = self.workers.copy()
        p.consultants = self.consultants
        p.cons_free = self.cons_free
        p.cons_landed = self.cons_landed.copy()
        p.pros_free = self.pros_free
        p.spec_total = self.spec_total
        p.spec_home = self.spec_home
        p.spec_busy = self.spec_busy
        p.hired_out = self.hired_out
        p.hired = self.hired.copy()
        p.perm = self.perm.copy()
        p.turn_colours = self.turn_colours.copy()
        p.hand = self.hand.copy()
        p.discard = self.discard.copy()
        p.slot = self.slot
        p.secret = self.secret.copy()
        p.bought = self.bought.copy()
        p.trapezoids = self.trapezoids.copy()
        p.start_buildings = self.start_buildings.copy()
        p.unfinished = self.unfinished.copy()
        p.university = self.university
        p.entrance = self.entrance
        p.used = self.used.copy()
        p.markers = self.markers
        p.used_slots = self.used_slots
        p.support_pending = self.support_pending
        p.mv_left = self.mv_left
        p.mv_stopped = self.mv_stopped
        p.mv_jet = self.mv_jet
        p.mv_crawl = self.mv_crawl
        p.supers = self.supers.copy()
        p.loans = self.loans.copy()
        p.owed = self.owed
        p.cubes = self.cubes.copy()
        p.postponed = self.postponed
        p.free_hires = self.free_hires
        p.spec_owed = self.spec_owed
        p.borrowed = self.borrowed.copy()
        p.held = self.held.copy()
        return p

    def resources_total(self) -> int:
        """Everything counted by end scoring step 6 (tracks, power tokens, goods, energy)."""
        return sum(self.res) + self.pt + self.tg + self.energy


class UnderhavenState(FrameMachine):
    """The protocol state of DESIGN.md (built by setup.new_state)."""

    TASKS: dict = {}           # agenda task kind -> function (installed by decisions.py)

    def clone(self, log: bool = True) -> "UnderhavenState":
        """An independent copy (log=False: the scores but no moves, no chance stream: lookahead copies).  The
        players' records are shared until one side writes one: a move makes its mover's record
        its own, a task every record, and a write to another seat's record asks for it first
        (`writable_player`); change a record only through it."""
        s = UnderhavenState.__new__(UnderhavenState)
        s.__dict__.update(self.__dict__)
        self.share_players(s)   # copy on write (engine.core.frames): a move copies what it writes
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
        self.copy_log_and_chance(s, log)
        return s


    describe_move = describe    # (action, frame) -> the move log's (action, detail, cell)

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
            if self.players_own != -1:      # a task may touch any record (copy on write)
                self.writable_players()
            self.TASKS[task[0]](self, task)

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

    def gain_energy(self, p: Player, amount: int) -> None:
        """Energy gained from a building's energy icon (the Deltas' +1 with focus)."""
        if amount and self.rules.modules.energy:
            mods = self.rules.modules
            bonus = self.rules.corporations[p.corp].bonus == "energy" and mods.focus
            p.energy += amount + (1 if bonus else 0)

    def ability_value(self, aid: str) -> int:
        """The value of special ability `aid` in the rules (the first listed with that id;
        0 if none), from a table built once per rules object."""
        rules = self.rules
        memo = _ABILITY_VALUES.get(id(rules))
        if memo is None or memo[0] is not rules:
            table: dict[str, int] = {}
            for a in rules.abilities:
                table.setdefault(a.id, a.value)
            if len(_ABILITY_VALUES) >= 16:
                _ABILITY_VALUES.clear()
            memo = _ABILITY_VALUES[id(rules)] = (rules, table)
        return memo[1].get(aid, 0)

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

    def roll_die(self) -> None:
        """"Roll" the turn die to the next side and one space forward (never past the end)."""
        if self.die_left > 0:
            self.die_idx = (self.die_idx + 1) % 4
            self.die_left -= 1

    def die_face(self):
        return self.rules.turn_die.faces[self.die_cycle[self.die_idx]]

    # Payment for Building (payment.py) and The Missions (missions.py), as methods.
    afford = payment.afford
    morale_steps = payment.morale_steps
    claim_missions = missions.claim_missions
    refill = missions.refill
    refill_missions = missions.refill_missions
