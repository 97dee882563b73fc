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
    def n_moves(self) -> int:
        """The number of move rows logged so far."""
        return self._base_m + len(self._m_step)

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

    def lookahead_copy(self) -> "ScoreTally":
        """The log of a lookahead copy: this log's scores so far, no moves, nothing copied."""
        return ScoreTally(self, self._n_scores())

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


_SCORE_NAMES = tuple("s_" + c for c in SCORE_COLUMNS)


class ScoreTally:
    """The log of a lookahead copy (`clone(log=False)`): no moves, but every score event, so
    that a searched world that reaches the end of the game still has its scores (`result()`,
    `totals`, `breakdown` read them).  It shares the first `n` score rows of the log it was
    copied from (an `EventLog` or another tally: both only ever append, so that prefix never
    changes) and keeps its own rows after them; making one copies nothing.

    (A lookahead copy used to get a log that dropped every score: the end of a searched game
    then scored every seat 0, and its winner was decided by the tie-breaks.)"""

    __slots__ = ("_src", "_src_n", "_depth", "_own")
    enabled = False

    def __init__(self, src=None, src_n: int = 0, depth: int = 0):
        self._src, self._src_n, self._depth = src, src_n, depth
        self._own = None        # (step, round, seat, category, points) rows, made at the first

    def move(self, step, rnd, phase, seat, action, detail="", cell=None):
        pass

    def score(self, step, rnd, seat, category, points):
        if points:
            if self._own is None:
                self._own = []
            self._own.append((step, rnd, seat, category, points))

    def _n_scores(self) -> int:
        return self._src_n + (len(self._own) if self._own else 0)

    def score_rows(self, k: int | None = None) -> list[tuple]:
        """The first `k` score rows (all by default) as (step, round, seat, category, points)."""
        n = self._n_scores() if k is None else k
        src, nb = self._src, self._src_n
        if n <= nb:
            return _score_rows(src, n)
        return _score_rows(src, nb) + self._own[:n - nb]

    def copy(self) -> "ScoreTally":
        if self._depth >= _MAX_DEPTH:       # bound every read: start from a flat tally
            flat = ScoreTally()
            flat._own = self.score_rows()
            return ScoreTally(flat, len(flat._own), 1)
        return ScoreTally(self, self._n_scores(), self._depth + 1)

    lookahead_copy = copy

    def moves(self) -> dict[str, list]:
        return {c: [] for c in MOVE_COLUMNS}

    def scores(self) -> dict[str, list]:
        rows = self.score_rows()
        return {c: [r[i] for r in rows] for i, c in enumerate(SCORE_COLUMNS)}

    def totals(self, n_seats: int) -> list[int]:
        out = [0] * n_seats
        for _step, _rnd, seat, _cat, pts in self.score_rows():
            out[seat] += pts
        return out

    def breakdown(self, seat: int) -> dict[str, int]:
        out: dict[str, int] = {}
        for _step, _rnd, s, cat, pts in self.score_rows():
            if s == seat:
                out[cat] = out.get(cat, 0) + pts
        return out


def _score_rows(src, k: int) -> list[tuple]:
    if src is None or k == 0:
        return []
    if isinstance(src, ScoreTally):
        return src.score_rows(k)
    return list(zip(*(src._prefix(name, k) for name in _SCORE_NAMES)))
