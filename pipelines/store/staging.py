"""Finished games kept safe while another process holds the database (a notebook, a DuckDB CLI).

DuckDB lets no process write a file that another process holds open, even read-only.  The
simulation must not stall on that: `PatientWriter` tries each write briefly; when the file is
held it parks the finished games on disk as Parquet files (`<db>.staging/<run_id>/`, one file
per table and write), frees their memory, says once — within `NOTICE_S` seconds — that it is
waiting and which process holds the file (DuckDB's lock error names it), and goes on playing.
The next write that gets the file takes the parked files and the new games in one transaction
(DuckDB reads the Parquet files itself, never through Python lists) and deletes them.  A run
killed meanwhile keeps them: `delve simulate --resume RUN` writes them first
(`recover_staged`), so finished games are never lost and never held in memory without bound.
"""

from __future__ import annotations

import json
import re
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import pyarrow as pa
import pyarrow.parquet as pq

from . import aggregates
from .schema import BATCH_TABLES, SCHEMA
from .writer import DatabaseHeld

#: Seconds a write may wait for the file before the games are parked and the run goes on.
TRY_S = 0.25
#: Seconds of waiting after which the user is told (once per wait).
NOTICE_S = 2.0
#: Seconds a stopping run (Ctrl-C, SIGTERM) waits for the file before it parks its last games:
#: a dashboard or a script reading holds it for moments, a notebook for as long as it likes.
STOP_WAIT_S = 15.0

_HOLDER = re.compile(r"held in (?P<exe>.+?) \(PID (?P<pid>\d+)\)")


def lock_holder(exc: BaseException) -> str | None:
    """'PID 1234, /usr/bin/python3' from DuckDB's lock error, when it names the process."""
    m = _HOLDER.search(str(exc))
    if not m:
        return None
    return f"PID {m['pid']}, {m['exe']}"


def staging_dir(db: str | Path, run_id: str) -> Path:
    path = Path(db)
    return path.with_name(path.name + ".staging") / run_id


@dataclass
class Staged:
    """The parked writes of one run: Parquet files per table, and how many games they hold."""

    dir: Path
    files: dict[str, list[Path]] = field(default_factory=lambda: {t: [] for t in BATCH_TABLES})
    games: int = 0
    seq: int = 0

    @classmethod
    def load(cls, dir: Path) -> "Staged":
        """What an earlier process parked (complete writes only: a write's `.done` marker is
        written after its four files, so a file of a write interrupted midway is ignored)."""
        st = cls(dir)
        for marker in sorted(dir.glob("*.done")):
            stem = marker.stem
            for t in BATCH_TABLES:
                st.files[t].append(dir / f"{stem}-{t}.parquet")
            st.games += int(json.loads(marker.read_text())["games"])
            st.seq = max(st.seq, int(stem) + 1)
        return st

    def park(self, batch: dict[str, pa.Table]) -> int:
        self.dir.mkdir(parents=True, exist_ok=True)
        stem = f"{self.seq:06d}"
        for t in BATCH_TABLES:
            path = self.dir / f"{stem}-{t}.parquet"
            pq.write_table(batch[t], path)
            self.files[t].append(path)
        n = batch["games"].num_rows
        (self.dir / f"{stem}.done").write_text(json.dumps({"games": n}))
        self.seq += 1
        self.games += n
        return n

    def clear(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)
        parent = self.dir.parent
        if parent.is_dir() and not any(parent.iterdir()):
            parent.rmdir()
        self.files = {t: [] for t in BATCH_TABLES}
        self.games = 0

    def insert_table(self, con, table: str, run_id: str) -> None:
        """Insert the parked files of `table` (inside the caller's transaction)."""
        paths = [str(p) for p in self.files[table]]
        if paths:
            names = [n for n, _ in SCHEMA[table] if n != "run_id"]
            con.execute(f"INSERT INTO {table} (run_id, {', '.join(names)}) "
                        f"SELECT ?, {', '.join(names)} FROM read_parquet(?, union_by_name = true)",
                        [run_id, paths])


class PatientWriter:
    """The run's writes through a `Store`, never stalled by another process holding the file.

    `create` (the run row) and `flush` (games, optionally finishing the run) try the file for
    `TRY_S`; when it is held, the run row waits in memory (one row) and the games are parked
    on disk.  `flush(..., wait=True)` (the run's last write) waits for the file up to the
    store's `lock_timeout`, telling the user why.  `say` prints a line (through tqdm)."""

    def __init__(self, store, run_id: str, *, say: Callable[[str], None] = print,
                 try_s: float = TRY_S, notice_s: float = NOTICE_S):
        self.store = store
        self.run_id = run_id
        self.say = say
        self.try_s = try_s
        self.notice_s = notice_s
        self.staged = Staged(staging_dir(store.path, run_id))
        self.run_row: tuple[dict, tuple | None] | None = None   # (row, map_cells) not yet written
        self.waiting_since: float | None = None
        self.noticed = False
        self.holder: str | None = None
        self.waits = 0       # writes that found the file held

    @property
    def parked_games(self) -> int:
        return self.staged.games

    def create(self, row: dict, map_cells=None) -> None:
        """The run's row: written now if the file is free within `notice_s`, else later with
        the first write that gets it."""
        try:
            self.store.create_run(row, map_cells=map_cells, timeout=self.notice_s)
        except DatabaseHeld as exc:
            self.run_row = (row, map_cells)
            self._held(exc.lock, force_notice=True)

    def flush(self, batch: dict[str, pa.Table] | None, *, finish: dict | None = None,
              wait: bool = False, patience: float | None = None) -> int:
        """Write `batch` (and any parked games, and the run row if pending) in one transaction;
        returns the games written.  Without `wait`, a held file parks `batch` and returns 0
        (after retrying for `patience` seconds, when given: a stopping run's last write)."""
        if batch is not None and batch["games"].num_rows == 0:
            batch = None
        if batch is None and finish is None and not self.staged.games and self.run_row is None:
            return 0
        deadline = time.monotonic() + (self.store.lock_timeout if patience is None or wait
                                       else patience)
        while True:
            try:
                n = self.store.write_batch(self.run_id, batch, finish=finish, staged=self.staged,
                                           create=self.run_row, timeout=self.try_s)
            except DatabaseHeld as exc:
                self._held(exc.lock)
                if not (wait or patience) or time.monotonic() > deadline:
                    if batch is not None:
                        self.staged.park(batch)
                    if wait:
                        raise
                    return 0
                continue
            break
        written_parked = self.staged.games
        self.run_row = None
        if written_parked:
            self.staged.clear()
        if self.waiting_since is not None and self.noticed:
            self.say(f"The database '{self.store.path}' is free again: {n} games written "
                     f"({written_parked} of them from the staging folder).")
        self.waiting_since, self.noticed = None, False
        return n

    def park(self, batch: dict[str, pa.Table] | None) -> None:
        """Keep `batch` on disk without trying the file (a run stopping while it is held)."""
        if batch is not None and batch["games"].num_rows:
            self.staged.park(batch)

    def _held(self, exc: BaseException, force_notice: bool = False) -> None:
        now = time.monotonic()
        self.waits += 1
        if self.waiting_since is None:
            self.waiting_since = now - (self.notice_s if force_notice else 0.0)
        self.holder = lock_holder(exc) or self.holder
        if not self.noticed and now - self.waiting_since >= self.notice_s:
            self.noticed = True
            who = f" ({self.holder})" if self.holder else ""
            self.say(f"Waiting for the database '{self.store.path}': another process{who} has it "
                     f"open, and DuckDB lets no one write a file another process holds, even "
                     f"read-only (a notebook, the DuckDB CLI). The games go on; finished ones "
                     f"are kept safe in '{self.staged.dir}' and written as soon as the file is "
                     f"free. Close that connection to let them in.")


def recover_staged(store, run_id: str) -> int:
    """Write the games an earlier process parked for `run_id` (skipping any already stored);
    returns the games written.  Called when a run is resumed."""
    staged = Staged.load(staging_dir(store.path, run_id))
    if not staged.games:
        return 0
    with store.write() as con:
        con.execute("CREATE TEMP TABLE delve_have AS SELECT game_id FROM games WHERE run_id = ?",
                    [run_id])
        for table in BATCH_TABLES:
            names = [n for n, _ in SCHEMA[table] if n != "run_id"]
            con.execute(f"INSERT INTO {table} (run_id, {', '.join(names)}) "
                        f"SELECT ?, {', '.join(names)} FROM read_parquet(?, union_by_name = true) "
                        f"WHERE game_id NOT IN (SELECT game_id FROM delve_have)",
                        [run_id, [str(p) for p in staged.files[table]]])
        if aggregates.is_maintained(con, run_id):  # the games just ingested, same transaction
            con.execute("CREATE TEMP TABLE delve_new AS SELECT game_id FROM games "
                        "WHERE run_id = ? AND game_id NOT IN (SELECT game_id FROM delve_have)",
                        [run_id])
            aggregates.add(con, run_id, aggregates.subset_sources("delve_new"))
            con.execute("DROP TABLE delve_new")
        con.execute("DROP TABLE delve_have")
    n = staged.games
    staged.clear()
    return n
