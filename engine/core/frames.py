"""The decision-stack state machine that games share.

A game's state keeps `stack`, a list of decision frames `(kind, seat, ...)`; the top frame says
who is to move and what is legal.  Each game supplies two tables, frame kind -> function:
`LEGAL[kind](state, frame) -> list of actions` and `APPLY[kind](state, frame, action)`, plus
`_advance()` (run its agenda until a decision is pending or the game is over) and
`describe_move(action, frame) -> (action, detail, cell)` for the move log.
"""

from __future__ import annotations

import random
import threading

from .errors import IllegalAction
from .events import EventLog
from .rng import chance_rng, draw_index


def copy_random(rng: random.Random) -> random.Random:
    """An independent `random.Random` at the same position of the same stream (its state
    copied, nothing reseeded: `Random()` would first seed itself from the OS)."""
    out = type(rng).__new__(type(rng))
    out.setstate(rng.getstate())
    return out


class _Meter(threading.local):
    """Forward-model calls made in this thread (every `apply` of every state): a search bot
    reads it around each iteration to charge what the iteration really applied, its
    heuristic's play on copies included (engine.bots.mcts).  Per thread, so a search is
    charged only its own calls whatever else runs beside it."""
    n = 0


_METER = _Meter()


def applies() -> int:
    """How many actions states have applied in this thread so far (a counter: read it before
    and after a call for the forward-model calls the call made)."""
    return _METER.n


class FrameMachine:
    LEGAL: dict = {}
    APPLY: dict = {}

    def start(self, seed: int, log: bool = True) -> None:
        """The fields every decision-stack game starts with: its own chance stream (from the
        game seed), the event log, round 1 of the setup phase, no decision pending."""
        self.rng = chance_rng(seed)
        self.log = EventLog(enabled=log)
        self.round = 1
        self.step = 0
        self.phase = "setup"
        self.ended_by = None
        self.over = False
        self.stack = []
        self.agenda = []

    def copy_log_and_chance(self, copy: "FrameMachine", log: bool) -> None:
        """The end of every clone: with `log`, the copy gets its own log and the same position
        of the chance stream (it plays on exactly as the original would); without, a lookahead
        copy keeps the scores so far but no moves (`EventLog.lookahead_copy`: its `result()` is
        right at the end of the game) and no stream (`chance()` then gives it a fixed one).

        The stream is copied on write: original and copy hold the same `random.Random` until
        one of them draws (`chance()`), which then draws from a copy of its own (same state,
        nothing reseeded), so a clone that never draws pays nothing for it."""
        if log:
            copy.log = self.log.copy()
            copy.rng = self.rng
            if self.rng is not None:
                self.rng_shared = copy.rng_shared = True
        else:
            copy.log = self.log.lookahead_copy()
            copy.rng = None
            copy.rng_seed = None

    rng_shared = False   # True while another state may hold this `rng` too (see chance())
    rng_seed = None      # with `rng` None: the seed of the stream to build at the first draw

    def seed_chance(self, seed: int) -> None:
        """Give this state the chance stream `random.Random(seed)`, built when it first draws
        (a search world that never draws never pays for seeding one)."""
        self.rng = None
        self.rng_seed = seed
        self.rng_shared = False

    def chance(self) -> random.Random:
        """The game's chance stream; a lookahead copy (no stream) uses a fixed one, since what
        it would draw is hidden anyway (search bots determinise first).  Draw only from the
        stream this returns (never from `self.rng` after a clone): it is this state's own."""
        rng = self.rng
        if rng is None:
            seed = self.rng_seed
            rng = self.rng = random.Random(self.step if seed is None else seed)
            self.rng_seed = None
            self.rng_shared = False
        elif self.rng_shared:
            rng = self.rng = copy_random(rng)
            self.rng_shared = False
        return rng

    # ------------------------------------------------------------------ players' records
    # A game may let clones share the players' records until one of them writes a record
    # (copy on write): its clone calls `share_players`, and every write to a record goes
    # through `writable_player(seat)` (or `writable_players()`).  `apply_legal` makes the
    # mover's record (frame[1]) writable before the frame's APPLY runs; a game's tasks and any
    # write to another seat's record ask for it themselves.  Reading `players[i]` is free.
    players_own = -1   # bitmask of the seats whose record this state alone holds (-1: all)

    def share_players(self, copy: "FrameMachine") -> None:
        """In a clone: `copy` shares every record with this state, both copy on write."""
        copy.players = self.players.copy()
        copy.players_own = self.players_own = 0

    def writable_player(self, seat: int):
        """The record of `seat`, this state's own (copied first if it may be shared)."""
        if self.players_own >> seat & 1:
            return self.players[seat]
        p = self.players[seat] = self.players[seat].clone()
        self.players_own |= 1 << seat
        return p

    def writable_players(self) -> list:
        """Every record, this state's own (a task that may touch anyone's)."""
        if self.players_own != -1:
            self.players = [p if self.players_own >> i & 1 else p.clone()
                            for i, p in enumerate(self.players)]
            self.players_own = -1
        return self.players

    def to_move(self) -> int:
        return self.stack[-1][1] if self.stack else -1

    def is_over(self) -> bool:
        return self.over

    def legal_actions(self) -> list[tuple]:
        if not self.stack:
            return []
        frame = self.stack[-1]
        return self.LEGAL[frame[0]](self, frame)

    def sample_legal(self, rng: random.Random):
        """`legal = self.legal_actions(); return legal[rng.randrange(len(legal))]`: what a
        uniform random bot picks, the same single draw from `rng` (a game may override it to
        draw without listing every option, e.g. Glimmerdeep's excavation)."""
        frame = self.stack[-1]
        legal = self.LEGAL[frame[0]](self, frame)
        return legal[draw_index(rng, len(legal))]   # = rng.randrange(len(legal))

    def apply(self, action) -> None:
        self.apply_legal(action, None)

    def apply_legal(self, action, legal: list | None) -> None:
        """`apply`, given the list `legal_actions()` returned for this very decision (nothing
        changed since), so that the legality check need not compute it again.  An illegal
        action raises IllegalAction and leaves the state untouched."""
        stack = self.stack
        if self.over or not stack:
            raise IllegalAction(f"the game is over; cannot apply {action!r}")
        frame = stack[-1]
        if legal is None:
            legal = self.LEGAL[frame[0]](self, frame)
        if action not in legal:
            raise IllegalAction(f"{action!r} is not legal for seat {frame[1]} in {frame[0]}")
        step = self.step = self.step + 1
        _METER.n += 1
        log = self.log
        seat = frame[1]
        if log.enabled:
            name, detail, cell = self.describe_move(action, frame)
            log.move(step, self.round, self.phase, seat, name, detail, cell)
        stack.pop()
        if not self.players_own >> seat & 1:
            self.writable_player(seat)
        self.APPLY[frame[0]](self, frame, action)
        self._advance()

    def describe_move(self, action, frame) -> tuple[str, str, int | None]:
        raise NotImplementedError

    def _advance(self) -> None:
        raise NotImplementedError
