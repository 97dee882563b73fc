"""The round (rulebook "Gameplay", "Adjust the Market", "Round End", "End of Game").

A round is an agenda of tasks: excavation per player, construction, production per player,
the faction trait choice (rounds 1-3), market adjustment, round end.  A task may push
decision frames on a stack; the top frame says who is to move and what is legal.
Simultaneous phases are resolved player by player in turn order (they do not interact).
After round 5 the game goes to final scoring; before that the first-player token passes left.

`GlimmerdeepState` is the protocol state of DESIGN.md: the round's agenda and the decision
stack (engine.core.frames), with the phases' mechanisms mixed in from their modules
(excavation, construction, production, economy's payment)."""

from __future__ import annotations

from engine.core.frames import FrameMachine

from . import construction, excavation, production, scoring, traits
from .construction import KINDS, Construction
from .describe import describe
from .economy import Payment
from .excavation import Excavation
from .production import Production
from .state import Player


class GlimmerdeepState(Excavation, Construction, Production, Payment, FrameMachine):
    """The protocol state; built by setup.new_state or clone."""

    def __init__(self):
        pass  # built by setup.new_state / clone

    def clone(self, log: bool = True) -> "GlimmerdeepState":
        """An independent copy; with log=False it keeps the scores but no moves (lookahead
        copies: `EventLog.lookahead_copy`, so `result()` is right at the end).  The
        players' records are shared until one side writes one (`writable_player`: a move makes
        its mover's own, a task the records it touches); change a record only through it."""
        s = GlimmerdeepState.__new__(GlimmerdeepState)
        s.__dict__.update(self.__dict__)
        self.share_players(s)   # copy on write (engine.core.frames): a move copies what it writes
        s.stack = self.stack.copy()
        s.agenda = self.agenda.copy()
        s.passed = self.passed.copy()
        s.market = {k: v.copy() for k, v in self.market.items()}
        s.decks = {k: v.copy() for k, v in self.decks.items()}
        s.solo_deck = self.solo_deck.copy()
        s.log = self.log.copy() if log else self.log.lookahead_copy()
        s.rng = None  # chance is settled at setup; a copy never shuffles
        return s

    # ------------------------------------------------------------------ protocol
    def describe_move(self, action, frame):
        return describe(self, action, frame)

    def result(self):
        return scoring.result(self)

    def describe(self, action) -> tuple[str, str, int | None]:
        return describe(self, action)

    def sample_legal(self, rng):
        """`legal = self.legal_actions(); return legal[rng.randrange(len(legal))]`: the same
        single draw from `rng` and the same action (what a uniform random bot picks), where a
        decision can count its options and build only the one drawn (`SAMPLE`: an excavation
        card's ~125 placements); any other decision lists its options as usual."""
        frame = self.stack[-1]
        sample = SAMPLE.get(frame[0])
        if sample is not None:
            action = sample(self, frame, rng)
            if action is not None:
                return action
        return FrameMachine.sample_legal(self, rng)   # list the options, draw one

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
            if task[0] in SEAT_TASKS:       # the records a task may write (copy on write)
                self.writable_player(task[1])
            elif self.players_own != -1:
                self.writable_players()
            TASKS[task[0]](self, task)

    # ------------------------------------------------------------------ logging
    def score(self, p: Player, category: str, points: int) -> None:
        self.log.score(self.step, self.round, p.seat, category, points)


# ====================================================================== tasks
def t_round_start(s: GlimmerdeepState, task) -> None:
    s.phase = "excavation"
    for seat in s.turn_order():
        s.players[seat].activated = set()   # a new phase: "activated only once per phase"
        s.hooks[seat].round_start(s, s.players[seat])


def t_market_adjust(s: GlimmerdeepState, task) -> None:
    """Adjust the Market: discard the two rightmost, shift the rest right, refill the left."""
    s.phase = "market"
    k = s.rules.market.adjust_discard
    for kind in KINDS:
        row = [c for c in s.market[kind] if c is not None]
        row = row[: max(0, len(row) - k)]
        while len(row) < len(s.market[kind]) and s.decks[kind]:
            row.insert(0, s.decks[kind].pop())
        s.market[kind] = [None] * (len(s.market[kind]) - len(row)) + row


def t_round_end(s: GlimmerdeepState, task) -> None:
    """Rounds 1-4: the first player token passes left; round 5: final scoring."""
    if s.round >= s.rules.game.rounds:
        s.phase = "final"
        scoring.final_scoring(s)
        s.over = True
        s.ended_by = "rounds"
        return
    s.first_seat = (s.first_seat + 1) % s.n
    s.round += 1


# Tasks that touch only the record of the seat they name (task[1]); the others may touch any.
SEAT_TASKS = frozenset({"flip", "excavation_end", "production", "trait"})

TASKS = {"round_start": t_round_start, **excavation.TASKS, **construction.TASKS,
         **production.TASKS, **traits.TASKS, "market_adjust": t_market_adjust,
         "round_end": t_round_end}
GlimmerdeepState.LEGAL = {**excavation.LEGAL, **construction.LEGAL, **production.LEGAL,
                          **traits.LEGAL}
# Decisions that can draw a uniform random option without listing them all (sample_legal).
SAMPLE = {**excavation.SAMPLE}
GlimmerdeepState.APPLY = {**excavation.APPLY, **construction.APPLY, **production.APPLY,
                          **traits.APPLY}
