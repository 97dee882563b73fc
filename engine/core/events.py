"""Columnar event buffers: move events and score events, cheap to append."""

from __future__ import annotations

MOVE_COLUMNS = ("step", "round", "phase", "seat", "action", "detail", "cell")
SCORE_COLUMNS = ("step", "round", "seat", "category", "points")


class EventLog:
    """Append-only columns.  With `enabled=False` moves are not recorded (scores always are,
    since the final breakdown is built from them)."""

    __slots__ = ("enabled", "m_step", "m_round", "m_phase", "m_seat", "m_action", "m_detail",
                 "m_cell", "s_step", "s_round", "s_seat", "s_category", "s_points")

    def __init__(self, enabled: bool = True):
        self.enabled = enabled
        self.m_step: list[int] = []
        self.m_round: list[int] = []
        self.m_phase: list[str] = []
        self.m_seat: list[int] = []
        self.m_action: list[str] = []
        self.m_detail: list[str] = []
        self.m_cell: list[int | None] = []
        self.s_step: list[int] = []
        self.s_round: list[int] = []
        self.s_seat: list[int] = []
        self.s_category: list[str] = []
        self.s_points: list[int] = []

    def move(self, step, rnd, phase, seat, action, detail="", cell=None):
        if self.enabled:
            self.m_step.append(step)
            self.m_round.append(rnd)
            self.m_phase.append(phase)
            self.m_seat.append(seat)
            self.m_action.append(action)
            self.m_detail.append(detail)
            self.m_cell.append(cell)

    def score(self, step, rnd, seat, category, points):
        if points:
            self.s_step.append(step)
            self.s_round.append(rnd)
            self.s_seat.append(seat)
            self.s_category.append(category)
            self.s_points.append(points)

    def moves(self) -> dict[str, list]:
        return {"step": self.m_step, "round": self.m_round, "phase": self.m_phase,
                "seat": self.m_seat, "action": self.m_action, "detail": self.m_detail,
                "cell": self.m_cell}

    def scores(self) -> dict[str, list]:
        return {"step": self.s_step, "round": self.s_round, "seat": self.s_seat,
                "category": self.s_category, "points": self.s_points}

    def totals(self, n_seats: int) -> list[int]:
        out = [0] * n_seats
        for seat, pts in zip(self.s_seat, self.s_points):
            out[seat] += pts
        return out

    def breakdown(self, seat: int) -> dict[str, int]:
        out: dict[str, int] = {}
        for s, cat, pts in zip(self.s_seat, self.s_category, self.s_points):
            if s == seat:
                out[cat] = out.get(cat, 0) + pts
        return out

    def copy(self) -> "EventLog":
        new = EventLog.__new__(EventLog)
        for name in self.__slots__:
            val = getattr(self, name)
            setattr(new, name, val if name == "enabled" else list(val))
        return new


class NullLog(EventLog):
    """A log that keeps nothing: for lookahead copies, whose events nobody reads."""

    def __init__(self):
        super().__init__(enabled=False)

    def score(self, step, rnd, seat, category, points):
        pass

    def copy(self) -> "NullLog":
        return self


NULL_LOG = NullLog()
