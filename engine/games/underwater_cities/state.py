"""The state of a game of Underwater Cities: flat, cheap to clone.

Cards are integers (instances: every physical card of the era decks, the Special cards and
the Personal Assistants has one index into `Static.cards`); a player's board is a few masks
and one list; decks are lists (the top is the end).  The decision stack (engine.core.frames)
holds small tuples; the modules of this package fill `UWCState.LEGAL` / `APPLY` / `AUTO`.
"""

from __future__ import annotations


from engine.core.cache import PerRulesCache
from engine.core.frames import FrameMachine

from .network import geo

CREDITS, KELP, STEELPLAST, SCIENCE, BIOMATTER = range(5)
RES_NAMES = ("credits", "kelp", "steelplast", "science", "biomatter")


# A decision with only one of these options is no decision: it is settled without asking.
_FORCED = frozenset(("stop", "skip", "part", "option"))
# Frames that always offer a real choice (never none, never only "stop"): not checked.
_DECISIONS = frozenset(("card", "slot", "order", "pay", "limit", "use_dropped", "pay_special",
                        "discard", "special", "special_keep", "pick", "build_at"))


class Static:
    """What does not change in a game with these rules and this player count."""

    def __init__(self, rules, n: int):
        self.rules = rules
        self.n = n
        self.geo = geo(rules)
        side = next((sid for sid, sd in sorted(rules.sides.items()) if n in sd.players), None)
        self.side_id = side
        self.slots = rules.sides[side].slots if side else ()
        cards, era_of = [], []
        self.era_insts: dict[int, list[int]] = {1: [], 2: [], 3: []}
        for e, deck in ((1, rules.era1), (2, rules.era2), (3, rules.era3)):
            for c in deck:
                for _ in range(c.copies):
                    self.era_insts[e].append(len(cards))
                    cards.append(c)
                    era_of.append(e)
        self.cheap_specials, self.dear_specials = [], []
        for c in rules.specials:
            for _ in range(c.copies):
                (self.dear_specials if c.cost >= 3 else self.cheap_specials).append(len(cards))
                cards.append(c)
                era_of.append(0)
        self.assistants = []
        for _ in range(n):
            self.assistants.append(len(cards))
            cards.append(rules.game.assistant)
            era_of.append(-1)
        self.cards = cards
        self.era_of = era_of
        self.card_id = [c.id for c in cards]
        self.special = [e == 0 for e in era_of]
        self.metros = rules.metropolises
        self.brown = [i for i, m in enumerate(self.metros) if m.colour == "brown"]
        self.blue = [i for i, m in enumerate(self.metros) if m.colour == "blue"]
        g = self.geo
        self.bonus = {bid: {g.cell_of_id[sid]: gain for sid, gain in b.bonuses.items()}
                      for bid, b in rules.boards.items()}
        c = rules.costs
        self.cost = {"tunnel": c.tunnel.vec(), "white_city": c.white_city.vec(),
                     "symbiotic_city": c.symbiotic_city.vec(), "farm": c.farm.vec(),
                     "desal": c.desal.vec(), "lab": c.lab.vec()}
        self.upgrade_cost = c.upgrade.vec()
        self.bio_for = tuple(i for i, r in enumerate(RES_NAMES) if r in c.biomatter_for)
        self.rounds = sum(rules.game.rounds_per_era)
        ends, total = [], 0
        for r in rules.game.rounds_per_era:
            total += r
            ends.append(total)
        self.era_end_rounds = tuple(ends)
        self.symbiotic_supply = rules.supply.symbiotic_cities.get(str(n), 0)
        self.end_cache: dict = {}      # claimed cards -> their end-scoring parts (scoring)
        self.prod_cache: dict = {}     # (claimed, metropolises) -> production parts
        self.eval_cache: dict = {}     # what bots.evaluate reads of a seat -> its value


static_for = PerRulesCache(Static)


class Player:
    """One player's board, resources, hand and claimed cards."""

    __slots__ = ("seat", "board", "res", "points", "hand", "public", "claimed", "actions",
                 "used", "under", "specials_paid", "cmask", "smask", "bld", "bup", "tun",
                 "tun_up", "net", "fed", "fed_stamp", "metros", "metro_on", "abilities",
                 "hand_bonus", "contracts")

    def __init__(self, seat: int, board: str, n_bsites: int):
        self.seat = seat
        self.board = board
        self.res = [0, 0, 0, 0, 0]
        self.points = 0              # mirrors the score events (never below 0)
        self.hand: list[int] = []    # sorted card instances
        # Containers that change rarely are immutable (replaced, never changed in place),
        # so that a copy of the state shares them.
        self.public: frozenset = frozenset()   # cards in hand all know (face-up Specials)
        self.claimed: tuple = ()        # permanent, production and end-scoring cards
        self.actions: tuple = ()        # action cards (the Personal Assistant among them)
        self.used: frozenset = frozenset()     # action cards used this era (rotated)
        self.under: tuple = ()          # paid instant Special cards kept under the board
        self.specials_paid = 0
        self.cmask = 0               # built city sites
        self.smask = 0               # symbiotic ones
        self.bld = (0,) * n_bsites   # building code per building site (0: empty)
        self.bup = 0                 # upgraded building sites
        self.tun = 0                 # built tunnel sites
        self.tun_up = 0              # upgraded tunnels
        self.net = None              # network memo (network.Net), reset on any change
        self.fed = 0                 # Federation position: 0 below the track, k = k-th space
        self.fed_stamp = 0           # higher: on top of a stack
        self.metros: tuple[int, ...] = ()   # metropolis tile on each hexagon
        self.metro_on = 0            # hexagons connected (instant effect taken)
        self.abilities: tuple = ()   # (instance, Ability) of claimed permanent cards
        self.hand_bonus = 0
        self.contracts: tuple = ()

    def clone(self) -> "Player":
        p = Player.__new__(Player)
        p.seat = self.seat
        p.board = self.board
        p.res = self.res.copy()
        p.points = self.points
        p.hand = self.hand.copy()
        p.public = self.public
        p.claimed = self.claimed
        p.actions = self.actions
        p.used = self.used
        p.under = self.under
        p.specials_paid = self.specials_paid
        p.cmask = self.cmask
        p.smask = self.smask
        p.bld = self.bld
        p.bup = self.bup
        p.tun = self.tun
        p.tun_up = self.tun_up
        p.net = self.net             # immutable once built: shared
        p.fed = self.fed
        p.fed_stamp = self.fed_stamp
        p.metros = self.metros
        p.metro_on = self.metro_on
        p.abilities = self.abilities
        p.hand_bonus = self.hand_bonus
        p.contracts = self.contracts
        return p


class UWCState(FrameMachine):
    """The protocol state of DESIGN.md.  LEGAL / APPLY: decision frames; AUTO: frames that
    run without a decision (pushed so that they run after the frames above them)."""

    LEGAL: dict = {}
    APPLY: dict = {}
    AUTO: dict = {}
    TASKS: dict = {}

    def clone(self, log: bool = True) -> "UWCState":
        s = UWCState.__new__(UWCState)
        s.__dict__.update(self.__dict__)
        s.players = [p.clone() for p in self.players]
        s.stack = self.stack.copy()
        s.agenda = self.agenda.copy()
        s.order = self.order.copy()
        s.decks = {e: d.copy() for e, d in self.decks.items()}
        s.discard = self.discard.copy()
        s.box_known = self.box_known.copy()
        s.box_hidden = self.box_hidden.copy()
        s.sdeck = self.sdeck.copy()
        s.sface = self.sface.copy()
        s.sbox = self.sbox.copy()
        s.occ = self.occ.copy()         # tuples, replaced on change
        s.supply = self.supply.copy()
        s.tie_order = self.tie_order.copy()
        s.contracts = [c.copy() for c in self.contracts]
        s.turn = self.turn.copy()
        self.copy_log_and_chance(s, log)
        return s


    # ------------------------------------------------------------------ protocol
    def describe_move(self, action, frame):
        from .describe import describe
        return describe(self, action, frame)

    def describe(self, action):
        from .describe import describe
        return describe(self, action, self.stack[-1] if self.stack else None)

    def result(self):
        from .scoring import result
        return result(self)

    def _advance(self) -> None:
        """Run the agenda and the automatic frames until a decision is pending.  A decision
        frame whose only option is to stop, or the one usable part or option of an effect, is
        settled without asking (and not logged: it is no decision)."""
        stack, agenda = self.stack, self.agenda
        while not self.over:
            if stack:
                top = stack[-1]
                kind = top[0]
                auto = self.AUTO.get(kind)
                if auto is not None:
                    stack.pop()
                    auto(self, top)
                    continue
                if kind in _DECISIONS:
                    return
                legal = self.LEGAL[kind](self, top)
                if not legal:
                    stack.pop()
                    continue
                if len(legal) == 1 and legal[0][0] in _FORCED:
                    stack.pop()
                    self.APPLY[kind](self, top, legal[0])
                    continue
                return
            if not agenda:
                return
            task = agenda.pop()
            self.TASKS[task[0]](self, task)

    # ------------------------------------------------------------------ shared mechanisms
    def score(self, p: Player, category: str, points: int) -> None:
        """Every point is one score event; a loss never takes the score below 0 (rulebook
        "Feeding Cities": "just leave your scoring marker at 0")."""
        if points < 0:
            points = -min(p.points, -points)
        if points:
            p.points += points
            self.log.score(self.step, self.round, p.seat, category, points)

    def gain(self, p: Player, g, category: str = "other", times: int = 1) -> None:
        """Gain a rules.Gain (resources, cards, points, Federation steps) `times` over."""
        if times <= 0:
            return
        r = p.res
        r[0] += g.credits * times
        r[1] += g.kelp * times
        r[2] += g.steelplast * times
        r[3] += g.science * times
        r[4] += g.biomatter * times
        if g.points:
            self.score(p, category, g.points * times)
        if g.cards:
            self.draw(p, g.cards * times)
        if g.federation:
            from .federation import advance
            advance(self, p, g.federation * times)

    def draw(self, p: Player, k: int) -> None:
        """Draw from the current era deck; an empty deck is rebuilt from its discard pile
        (rulebook "The era deck is not limited")."""
        deck = self.decks[self.era]
        hand = p.hand
        for _ in range(k):
            if not deck:
                if not self.discard:
                    return
                deck.extend(self.discard)
                self.discard.clear()
                deck.sort()
                self.chance().shuffle(deck)
            c = deck.pop()
            hand.append(c)
        hand.sort()

    def hand_limit(self, p: Player) -> int:
        return self.rules.game.hand_limit + p.hand_bonus

    def card(self, inst: int):
        return self.st.cards[inst]
