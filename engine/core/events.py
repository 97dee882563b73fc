"""Columnar event buffers: move events and score events, cheap to append and to copy."""

from __future__ import annotations

MOVE_COLUMNS = ("step", "round", "phase", "seat", "action", "detail", "cell")
SCORE_COLUMNS = ("step", "round", "seat", "category", "points")
_NAMES = tuple("m_" + c for c in MOVE_COLUMNS) + tuple("s_" + c for c in SCORE_COLUMNS)
_MAX_DEPTH = 8   # copies of copies before a copy joins its columns (bounds every read)


class EventLog:
    """Append-only columns.  With `enabled=False` moves are not recorded (scores always are,
    since the final breakdown is built from them).

    A copy shares what was written before it (`_base`, with the number of move and score rows
    it had then): the columns are only ever appended to, so that prefix never changes, whoever
    goes on writing.  The copy's own rows go to columns of its own; reading a column
    (`m_step`, `moves()`, `totals()`...) joins prefix and own rows once, after which the copy
    is a plain log.  So `copy()` costs the same at move 5 and at move 5,000."""

    __slots__ = ("enabled", "_base", "_base_m", "_base_s", "_depth") + tuple("_" + n for n in _NAMES)

    def __init__(self, enabled: bool = True):
        self.enabled = enabled
        self._base = None
        self._base_m = self._base_s = self._depth = 0
        self._m_step: list[int] = []
        self._m_round: list[int] = []
        self._m_phase: list[str] = []
        self._m_seat: list[int] = []
        self._m_action: list[str] = []
        self._m_detail: list[str] = []
        self._m_cell: list[int | None] = []
        self._s_step: list[int] = []
        self._s_round: list[int] = []
        self._s_seat: list[int] = []
        self._s_category: list[str] = []
        self._s_points: list[int] = []

    def move(self, step, rnd, phase, seat, action, detail="", cell=None):
        if self.enabled:
            self._m_step.append(step)
            self._m_round.append(rnd)
            self._m_phase.append(phase)
            self._m_seat.append(seat)
            self._m_action.append(action)
            self._m_detail.append(detail)
            self._m_cell.append(cell)

    def score(self, step, rnd, seat, category, points):
        if points:
            self._s_step.append(step)
            self._s_round.append(rnd)
            self._s_seat.append(seat)
            self._s_category.append(category)
            self._s_points.append(points)

    # ------------------------------------------------------------------ reading
    def _n_moves(self) -> int:
        return self._base_m + len(self._m_step)

    def _n_scores(self) -> int:
        return self._base_s + len(self._s_step)

    def _prefix(self, name: str, k: int) -> list:
        """The first `k` rows of column `name` as this log sees them (a new list)."""
        own = getattr(self, "_" + name)
        base = self._base
        if base is None:
            return own[:k]
        nb = self._base_m if name[0] == "m" else self._base_s
        if k <= nb:
            return base._prefix(name, k)
        return base._prefix(name, nb) + own[:k - nb]

    def _join(self) -> None:
        """Make the shared prefix this log's own (a plain log from then on)."""
        base = self._base
        if base is None:
            return
        for name in _NAMES:
            nb = self._base_m if name[0] == "m" else self._base_s
            setattr(self, "_" + name, base._prefix(name, nb) + getattr(self, "_" + name))
        self._base = None
        self._base_m = self._base_s = self._depth = 0

    def moves(self) -> dict[str, list]:
        self._join()
        return {"step": self._m_step, "round": self._m_round, "phase": self._m_phase,
                "seat": self._m_seat, "action": self._m_action, "detail": self._m_detail,
                "cell": self._m_cell}

    def scores(self) -> dict[str, list]:
        self._join()
        return {"step": self._s_step, "round": self._s_round, "seat": self._s_seat,
                "category": self._s_category, "points": self._s_points}

    def totals(self, n_seats: int) -> list[int]:
        self._join()
        out = [0] * n_seats
        for seat, pts in zip(self._s_seat, self._s_points):
            out[seat] += pts
        return out

    def breakdown(self, seat: int) -> dict[str, int]:
        self._join()
        out: dict[str, int] = {}
        for s, cat, pts in zip(self._s_seat, self._s_category, self._s_points):
            if s == seat:
                out[cat] = out.get(cat, 0) + pts
        return out

    def copy(self) -> "EventLog":
        new = EventLog.__new__(EventLog)
        new.enabled = self.enabled
        if self._base is not None and not self._m_step and not self._s_step:
            # nothing written since this log was copied: share its prefix directly
            new._base, new._base_m, new._base_s = self._base, self._base_m, self._base_s
            new._depth = self._depth
        else:
            if self._depth >= _MAX_DEPTH:
                self._join()
            new._base, new._base_m, new._base_s = self, self._n_moves(), self._n_scores()
            new._depth = self._depth + 1
        new._m_step, new._m_round, new._m_phase, new._m_seat = [], [], [], []
        new._m_action, new._m_detail, new._m_cell = [], [], []
        new._s_step, new._s_round, new._s_seat, new._s_category, new._s_points = [], [], [], [], []
        return new


def _column(name: str) -> property:
    own = "_" + name

    def get(self):
        if self._base is not None:
            self._join()
        return getattr(self, own)
    get.__doc__ = f"The whole `{name}` column (a list to read, not to change)."
    return property(get)


for _name in _NAMES:
    setattr(EventLog, _name, _column(_name))
del _name


class NullLog(EventLog):
    """A log that keeps nothing: for lookahead copies, whose events nobody reads."""

    def __init__(self):
        super().__init__(enabled=False)

    def score(self, step, rnd, seat, category, points):
        pass

    def copy(self) -> "NullLog":
        return self


NULL_LOG = NullLog()
