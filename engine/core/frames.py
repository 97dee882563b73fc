"""The decision-stack state machine that games share.

A game's state keeps `stack`, a list of decision frames `(kind, seat, ...)`; the top frame says
who is to move and what is legal.  Each game supplies two tables, frame kind -> function:
`LEGAL[kind](state, frame) -> list of actions` and `APPLY[kind](state, frame, action)`, plus
`_advance()` (run its agenda until a decision is pending or the game is over) and
`describe_move(action, frame) -> (action, detail, cell)` for the move log.
"""

from __future__ import annotations

import random

from .errors import IllegalAction
from .events import NULL_LOG, EventLog
from .rng import chance_rng


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
        copy keeps no log and no stream (`chance()` then gives it a fixed one)."""
        if log:
            copy.log = self.log.copy()
            if self.rng is not None:
                copy.rng = random.Random()
                copy.rng.setstate(self.rng.getstate())
        else:
            copy.log = NULL_LOG
            copy.rng = None

    def chance(self) -> random.Random:
        """The game's chance stream; a lookahead copy (no stream) uses a fixed one, since what
        it would draw is hidden anyway (search bots determinise first)."""
        if self.rng is None:
            self.rng = random.Random(self.step)
        return self.rng

    def to_move(self) -> int:
        return self.stack[-1][1] if self.stack else -1

    def is_over(self) -> bool:
        return self.over

    def legal_actions(self) -> list[tuple]:
        if not self.stack:
            return []
        frame = self.stack[-1]
        return self.LEGAL[frame[0]](self, frame)

    def apply(self, action) -> None:
        self.apply_legal(action, None)

    def apply_legal(self, action, legal: list | None) -> None:
        """`apply`, given the list `legal_actions()` returned for this very decision (nothing
        changed since), so that the legality check need not compute it again.  An illegal
        action raises IllegalAction and leaves the state untouched."""
        if self.over or not self.stack:
            raise IllegalAction(f"the game is over; cannot apply {action!r}")
        frame = self.stack[-1]
        if legal is None:
            legal = self.LEGAL[frame[0]](self, frame)
        if action not in legal:
            raise IllegalAction(f"{action!r} is not legal for seat {frame[1]} in {frame[0]}")
        self.step += 1
        if self.log.enabled:
            name, detail, cell = self.describe_move(action, frame)
            self.log.move(self.step, self.round, self.phase, frame[1], name, detail, cell)
        self.stack.pop()
        self.APPLY[frame[0]](self, frame, action)
        self._advance()

    def describe_move(self, action, frame) -> tuple[str, str, int | None]:
        raise NotImplementedError

    def _advance(self) -> None:
        raise NotImplementedError
