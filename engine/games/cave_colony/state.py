"""The state of a cave-colony game: flat lists of ints indexed by seat or cell, cheap to clone.

Per seat (the four colonies, in clockwise turn order): the worker (alive, cell, oxygen,
carried gems, traits, equipment, energy and movement crystals), the colony card being built
(with the gems on it), the completed colony cards, the oxygen on the colony tile and every
trait and equipment card the seat ever held.  The zone: the tile type and open sides of every
cell and the gems lying on it.  The tile bag (counts per tile type: it is shaken, not ordered),
the five decks (top = last) with, for every card in them, the seats that know it is there.

The decision stack (engine/core/frames.py): frames `(kind, seat, ...)`; the agenda: tasks
`(kind, seat, ...)` run when no decision is pending (turn.py).  Section modules register the
frame kinds they own with `@legal(kind)` / `@apply(kind)` and tasks with `@task(kind)`.
"""

from __future__ import annotations


from engine.core.frames import FrameMachine

from . import cards as C

LEGAL: dict = {}
APPLY: dict = {}
TASKS: dict = {}
NC = 5                       # gem colours


def legal(kind):
    def deco(fn):
        LEGAL[kind] = fn
        return fn
    return deco


def apply(kind):
    def deco(fn):
        APPLY[kind] = fn
        return fn
    return deco


def task(kind):
    def deco(fn):
        TASKS[kind] = fn
        return fn
    return deco


_LISTS = ("tile", "mask", "cgem", "bag", "gem_supply", "colony_oxy", "alive", "pos", "oxy",
          "carry", "ecrys", "mcrys", "card", "card_up", "oncard", "colony_mods", "mods",
          "traits", "equip", "eq_uses", "eq_up", "done", "past", "stack", "agenda", "finish",
          "removed")


class CaveState(FrameMachine):
    LEGAL = LEGAL
    APPLY = APPLY

    # ------------------------------------------------------------------ copying
    def clone(self, log: bool = True) -> "CaveState":
        s = CaveState.__new__(CaveState)
        d = s.__dict__
        d.update(self.__dict__)
        for name in _LISTS:
            d[name] = d[name].copy()
        s.deck = [x.copy() for x in self.deck]
        s.known = [x.copy() for x in self.known]
        self.copy_log_and_chance(s, log)
        return s


    # ------------------------------------------------------------------ protocol
    def _advance(self) -> None:
        while not self.stack and not self.over:
            t = self.agenda.pop()
            TASKS[t[0]](self, t)

    def describe_move(self, action, frame):
        from .describe import describe_move
        return describe_move(self, action, frame)

    def describe(self, action):
        return self.describe_move(action, self.stack[-1]) if self.stack else (str(action), "", None)

    def result(self):
        from .scoring import result
        return result(self)

    @property
    def held_cards(self) -> list[list[tuple[str, str]]]:
        """Per seat, every trait and equipment card the seat's workers held during the game
        (kind, card id), in the order they were first taken; kinds "positive_trait",
        "negative_trait", "equipment"."""
        ids = self.st.cards.ids
        out = []
        for s in range(self.n):
            cards = self.past[s] + self.traits[s] + tuple((C.EQUIPMENT, e) for e in self.equip[s])
            out.append([(C.KIND_NAMES[k], ids[k][i]) for k, i in dict.fromkeys(cards)])
        return out

    @property
    def seat_colours(self) -> list[str]:
        return list(self.colour)

    # ------------------------------------------------------------------ helpers
    def then(self, *tasks) -> None:
        """Run `tasks` next, in this order (before what the agenda already holds)."""
        self.agenda.extend(reversed(tasks))

    def roll(self, faces) -> int:
        return faces[self.chance().randrange(len(faces))]

    def max_oxygen(self, seat: int) -> int:
        return max(1, self.rules.worker.max_oxygen + self.mods[seat][C.MAX_OXYGEN])

    def upkeep(self, seat: int) -> int:
        return max(0, self.rules.worker.upkeep + self.mods[seat][C.UPKEEP])

    def cost(self, seat: int, which: int) -> int:
        """Energy for one action: move (never below 1), collect, spend, use (never below 0)."""
        base, least = self.st.base_cost[which]
        c = base + self.mods[seat][which]
        return c if c > least else least

    def available(self) -> int:
        """Energy the worker whose turn it is can still spend (with "once" boosts, its
        energy crystals too)."""
        if self.once:
            return self.energy + self.ecrys[self.cur]
        return self.energy

    def pay(self, amount: int) -> None:
        if amount <= self.energy:
            self.energy -= amount
            return
        rest = amount - self.energy       # "once" boosts: crystals pay the rest, back to supply
        self.energy = 0
        self.ecrys[self.cur] -= rest
        self.ecrys_supply += rest

    def refresh_mods(self, seat: int) -> None:
        """The seat's worker modifiers: traits + equipment passives + colony rewards."""
        t = self.st.cards
        vecs = [self.colony_mods[seat]]
        vecs.extend(t.trait_mods[kind][i] for kind, i in self.traits[seat])
        vecs.extend(t.equip_mods[i] for i in self.equip[seat])
        self.mods[seat] = vecs[0] if len(vecs) == 1 else tuple(map(sum, zip(*vecs)))

    def gain_oxygen(self, seat: int, n: int) -> int:
        """Up to `n` oxygen from the supply, no more than the worker's maximum."""
        k = max(0, min(n, self.max_oxygen(seat) - self.oxy[seat], self.oxy_supply))
        self.oxy[seat] += k
        self.oxy_supply -= k
        return k

    def refill(self, seat: int) -> None:
        """Oxygen to the maximum: first the oxygen spent onto the colony tile, then the
        supply (rulebook "Colony": "a place where the Worker can gain all Oxygen back")."""
        want = self.max_oxygen(seat) - self.oxy[seat]
        if want <= 0:
            return
        k = min(want, self.colony_oxy[seat])
        self.colony_oxy[seat] -= k
        self.oxy[seat] += k
        self.gain_oxygen(seat, want - k)

    def home(self, seat: int) -> int:
        return self.colony_cell[seat]

    def draw(self, kind: int) -> int:
        """The top card of a deck, or -1 if it is empty."""
        d = self.deck[kind]
        if not d:
            return -1
        self.known[kind].pop()
        return d.pop()

    def bottom(self, kind: int, card: int, known_by: int) -> None:
        """A card to the bottom of its deck; `known_by`: bitmask of the seats that know it."""
        self.deck[kind].insert(0, card)
        self.known[kind].insert(0, known_by)

    def stop_turn(self, seat: int) -> None:
        """End the current turn at once (an anomaly's cave-in, a completed game in play-out)."""
        if self.stack and self.stack[-1][0] == "act" and self.stack[-1][1] == seat:
            self.stack.pop()
            self.then(("end_turn", seat))
