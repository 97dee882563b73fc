"""The single writer: how runs and their games are written to the database.

The simulation never holds the file: every write is one short transaction (attach the file to
the writer's in-memory DuckDB instance, insert Arrow batches, commit, detach) through
`connect.WriterInstance`.  The games completed since the last write are
written in one transaction, so a reader sees each game either complete (games, players, moves,
score events) or not at all, and `runs.games_done` always equals the games present.

The aggregates (pipelines.store.aggregates) lag the raw rows by at most one catch-up (issue 31):
each write lists its games in `agg_pending`, in the raw rows' transaction, and a write at
least `CATCH_UP_S` after the last catch-up (the run's first write, and always its last one,
which finishes it) aggregates exactly the pending games and empties the list.  A resume, and
the first write of any later process on the file, catch up what a killed run left pending.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
import time
from collections import Counter
from datetime import datetime, timezone
from typing import Iterator

import duckdb
import pyarrow as pa

from . import aggregates
from .connect import StoreError, WriterInstance, check_db_path, connect_read, is_lock_error
from .schema import (BATCH_TABLES, PLAYTEST_KEYS, PLAYTEST_SCHEMA, PRIMARY_KEYS, SCHEMA, to_arrow,
                     to_arrow_subset)

#: The contract's tables and the aggregates the writer maintains beside them (issue 16).
_TABLES = {**SCHEMA, **PLAYTEST_SCHEMA, **aggregates.SCHEMA}
_KEYS = {**PRIMARY_KEYS, **PLAYTEST_KEYS, **aggregates.PRIMARY_KEYS}
#: Catch-ups of a run between two compactions of its aggregates' delta rows.
COMPACT_EVERY = 64
#: Seconds between two catch-ups of a run's aggregates (its first write and its last one always
#: catch up): the aggregates' statements cost a write about as much as its raw rows and its
#: commit together (PERFORMANCE.md, "The writer's share on 2 workers"), so they run in one
#: write of six at the default interval instead of every one; the live pages lag the games
#: stored by at most this long.
CATCH_UP_S = 30.0
#: The least time the file stays free between two writes of this process: a reader (the
#: dashboard, a notebook) polling it retries every 0.1 s or so (connect.retrying_connect), and
#: a run whose writes come back to back (`--flush-seconds 0`, or chunks arriving faster than
#: they are written on a loaded machine) would otherwise hold the file from one write to the
#: next and lock readers out until it ends (DESIGN.md: simulations must not hold the file
#: between chunks in a way that locks the dashboard out).  Runs at the default flush interval
#: write at least 0.5 s apart and never wait for it.
READER_WINDOW_S = 0.05


class DatabaseHeld(StoreError):
    """Another process held the file for longer than the writer waited; `lock` is DuckDB's
    error, which names that process when it can."""

    def __init__(self, message: str, holder: BaseException):
        super().__init__(message)
        self.lock = holder


def _now() -> datetime:
    return datetime.now(timezone.utc).replace(tzinfo=None)


class Store:
    """The single writer.  Holds no connection between writes."""

    def __init__(self, db: str | os.PathLike, *, lock_timeout: float = 300.0):
        self.path = check_db_path(db)
        self.lock_timeout = lock_timeout
        self._ready = False
        self.write_s = 0.0   # time spent in write transactions (open, insert, commit, close)
        self.write_cpu_s = 0.0  # CPU time of this thread in them (DuckDB runs in it: threads 1)
        self.writes = 0      # write transactions
        # the writing thread's CPU seconds by part of the write transactions ("attach", "raw
        # rows", "aggregates", "commit" with its checkpoint, "detach"; `delve bench` prints
        # them); what write_cpu_s has beyond their sum is the statements between them
        self.write_parts: Counter[str] = Counter()
        self.last_write = 0.0  # time.monotonic() of the last write transaction's end
        self._lock = threading.RLock()  # the heartbeat thread writes between the batches
        self._main_writes = 0  # write transactions open in the main thread
        self.deferred = None   # a signal's action held back until the main thread's write ends
        self._deltas: dict[str, int] = {}  # run -> catch-ups since its aggregates' compaction
        self._caught_up: dict[str, float] = {}  # run -> time.monotonic() of its last catch-up
        self._duck = WriterInstance()  # the in-memory instance the file is attached to per write

    # -- connections -------------------------------------------------------------------------
    @contextlib.contextmanager
    def write(self, timeout: float | None = None) -> Iterator[duckdb.DuckDBPyConnection]:
        """One short write transaction: open (retrying on lock for `timeout` seconds, default
        the store's `lock_timeout`, then DuckDB's lock error is raised), yield, commit, close.

        A failure of the file itself (disk full, read-only, I/O error) rolls the transaction
        back, so the games written before stay whole, and raises StoreError naming the file."""
        main = threading.current_thread() is threading.main_thread()
        wait = self.last_write + READER_WINDOW_S - time.monotonic()
        if wait > 0:  # the file stays free a moment between two writes (READER_WINDOW_S)
            time.sleep(wait)
        with self._lock:
            self._main_writes += main
            try:
                with self._write(timeout) as con:
                    yield con
            finally:
                self._main_writes -= main
        if main and not self._main_writes and self.deferred is not None:
            action, self.deferred = self.deferred, None
            action()  # e.g. raise the SIGTERM that arrived during the transaction

    @property
    def writing(self) -> bool:
        """Whether the main thread is inside a write transaction: a signal handler then
        defers its action (`deferred`) to the transaction's end, so DuckDB is never
        interrupted mid-query (its "Query interrupted" would replace the signal)."""
        return self._main_writes > 0

    @contextlib.contextmanager
    def _write(self, timeout: float | None = None) -> Iterator[duckdb.DuckDBPyConnection]:
        t0, c0 = time.perf_counter(), time.thread_time()
        try:
            if not self._ready:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.part("attach"):
                con = self._duck.attach(str(self.path),
                                        timeout=self.lock_timeout if timeout is None else timeout)
        except duckdb.Error as exc:
            if is_lock_error(exc):  # still held after the wait (pipelines.store.staging waits)
                raise DatabaseHeld(f"{self._io_error(exc)} Another process holds the file.",
                                   holder=exc) from exc
            if isinstance(exc, (duckdb.IOException, duckdb.PermissionException)):
                raise self._io_error(exc) from None
            raise
        except (duckdb.IOException, duckdb.PermissionException, OSError) as exc:
            raise self._io_error(exc) from None
        try:
            if not self._ready:
                self._create(con)
                self._ready = True
            con.begin()
            try:
                yield con
            except BaseException:
                with contextlib.suppress(duckdb.Error):
                    con.rollback()
                raise
            try:
                with self.part("commit"):   # with its checkpoint (WRITE_CONFIG)
                    con.commit()
            except (duckdb.TransactionException, duckdb.FatalException) as exc:
                # the commit's checkpoint (or a WAL) cannot be written, e.g. the disk is full:
                # the file keeps its last checkpoint, without this transaction
                if isinstance(exc, duckdb.FatalException):  # it invalidated the instance
                    self._duck.discard()
                raise self._io_error(exc) from None
        except (duckdb.IOException, duckdb.PermissionException, OSError) as exc:
            raise self._io_error(exc) from None
        except duckdb.FatalException:
            self._duck.discard()
            raise
        finally:
            with self.part("detach"):
                self._duck.detach(con)
            self.write_s += time.perf_counter() - t0
            self.write_cpu_s += time.thread_time() - c0
            self.writes += 1
            self.last_write = time.monotonic()

    @contextlib.contextmanager
    def part(self, name: str) -> Iterator[None]:
        """Add the writing thread's CPU time in the block to `write_parts[name]`."""
        c0 = time.thread_time()
        try:
            yield
        finally:
            self.write_parts[name] += time.thread_time() - c0

    def _io_error(self, exc: BaseException) -> StoreError:
        text = " ".join(str(exc).split())
        if isinstance(exc, OSError) and exc.strerror:
            text = exc.strerror
        return StoreError(f"Cannot write to database '{self.path}' (--db): {text}. The "
                          f"transaction was rolled back: the games written before are intact.")

    @contextlib.contextmanager
    def read(self) -> Iterator[duckdb.DuckDBPyConnection]:
        # under the writer's lock: DuckDB refuses a read-only connection in this process
        # while the heartbeat thread holds a write one (another configuration)
        with self._lock, connect_read(self.path, timeout=self.lock_timeout) as con:
            yield con

    def _create(self, con: duckdb.DuckDBPyConnection) -> None:
        """Create the tables, or bring an older database up to date: add the columns added
        since (NULL in its old rows) and the primary keys.  Old rows are never rewritten, and
        it is one transaction: a database that cannot be upgraded is left as it was."""
        con.begin()
        try:
            for table, cols in _TABLES.items():
                key = _KEYS.get(table)
                pk = f", PRIMARY KEY ({', '.join(key)})" if key else ""
                con.execute(f"CREATE TABLE IF NOT EXISTS {table} ("  # constants, not input
                            + ", ".join(f"{n} {t}" for n, t in cols) + pk + ")")
                have = {r[0] for r in con.execute(
                    "SELECT column_name FROM information_schema.columns WHERE table_name = ?",
                    [table]).fetchall()}
                for name, typ in cols:  # older databases get the added columns
                    if name not in have:
                        con.execute(f"ALTER TABLE {table} ADD COLUMN {name} {typ}")
                if key and not con.execute(
                        "SELECT count(*) FROM duckdb_constraints() WHERE table_name = ? "
                        "AND constraint_type = 'PRIMARY KEY'", [table]).fetchone()[0]:
                    self._add_key(con, table, key)
            # what a killed writer left pending (the next open catches up; exact whoever does)
            with self.part("aggregates"):
                for run_id in aggregates.pending_runs(con):
                    aggregates.catch_up(con, run_id)
        except BaseException:
            with contextlib.suppress(duckdb.Error):
                con.rollback()
            raise
        con.commit()

    def _add_key(self, con, table: str, key: tuple[str, ...]) -> None:
        cols = ", ".join(key)
        dup = con.execute(f"SELECT {cols}, count(*) FROM {table} GROUP BY ALL "
                          f"HAVING count(*) > 1 LIMIT 1").fetchone()
        if dup is not None:
            example = ", ".join(f"{k}={v!r}" for k, v in zip(key, dup))
            raise StoreError(
                f"Database '{self.path}' (--db) was written by an older Delve without keys and "
                f"its table '{table}' holds duplicate rows ({example}: {dup[-1]} times), so the "
                f"key ({cols}) cannot be added. Nothing was changed: simulate into a new --db, or "
                f"delete the duplicates of that run first.")
        con.execute(f"ALTER TABLE {table} ADD PRIMARY KEY ({cols})")

    def ensure_schema(self) -> None:
        with self.write():
            pass

    # -- writes ------------------------------------------------------------------------------
    @staticmethod
    def _insert(con, table: str, data: pa.Table, run_id: str | None = None) -> None:
        if data.num_rows == 0:
            return
        names = [n for n, _ in SCHEMA[table] if n in data.column_names]
        con.register("delve_batch", data)
        try:
            if run_id is not None:
                cols = ", ".join(["run_id", *names])
                con.execute(f"INSERT INTO {table} ({cols}) SELECT ?, {', '.join(names)} "
                            f"FROM delve_batch", [run_id])
            else:
                cols = ", ".join(names)
                con.execute(f"INSERT INTO {table} ({cols}) SELECT {cols} FROM delve_batch")
        finally:
            con.unregister("delve_batch")

    def create_run(self, row: dict, *, map_cells: tuple[str, list] | None = None,
                   timeout: float | None = None) -> None:
        """Insert the run's row; with `map_cells` = (game id, cells), the game's map cells
        not yet present in the same transaction (one write instead of two)."""
        with self.write(timeout) as con:
            self._create_run(con, row, map_cells)

    def _create_run(self, con, row: dict, map_cells: tuple[str, list] | None) -> None:
        row = dict(row)
        row.setdefault("created_at", _now())
        row.setdefault("status", "running")
        row.setdefault("games_done", 0)
        for key in ("rules", "config", "sets"):
            if key in row and not isinstance(row[key], str):
                row[key] = json.dumps(row[key], sort_keys=True)
        cols = [n for n, _ in SCHEMA["runs"] if n in row]
        data = to_arrow_subset("runs", {c: [row[c]] for c in cols})
        self._insert(con, "runs", data)
        aggregates.mark(con, row["run_id"])  # its aggregates are kept from its first game
        if map_cells is not None:
            self._map_cells(con, *map_cells)

    def write_batch(self, run_id: str, batch: dict[str, pa.Table] | None, *,
                    finish: dict | None = None, staged=None, create: tuple | None = None,
                    timeout: float | None = None) -> int:
        """Write the games of one or more chunks (all four tables) in one transaction; returns
        games written.  `finish` (status, error, wall_s: the arguments of `finish_run`) also
        ends the run in the same transaction, so the last games and the run's status are
        written together (one write instead of two).  `staged` (a `staging.Staged`) adds the
        games parked on disk while the file was held, `create` = (row, map_cells) the run's
        row not yet written (pipelines.store.staging)."""
        n = (batch["games"].num_rows if batch is not None else 0) + (staged.games if staged else 0)
        with self.write(timeout) as con:
            if create is not None:
                self._create_run(con, *create)
            for table in BATCH_TABLES:
                try:
                    with self.part("raw rows"):
                        if staged is not None:
                            staged.insert_table(con, table, run_id)
                        if batch is not None:
                            self._insert(con, table, batch[table], run_id)
                except duckdb.ConstraintException as exc:
                    raise StoreError(
                        f"Run '{run_id}' already has some of these games in '{self.path}' "
                        f"({' '.join(str(exc).split())}): is another process resuming the same "
                        f"run? Nothing of this chunk was written.") from None
            self._add_aggregates(con, run_id, batch, staged)
            con.execute("UPDATE runs SET games_done = coalesce(games_done, 0) + ?, "
                        "heartbeat_at = ? WHERE run_id = ?", [n, _now(), run_id])
            if finish is not None:
                self._finish(con, run_id, **finish)   # catches up: the run's last write
        return n

    def _add_aggregates(self, con, run_id: str, batch, staged) -> None:
        """The games being written are listed as pending in their transaction, and caught up
        with the games pending before them when a catch-up is due (issue 31)."""
        if not aggregates.is_maintained(con, run_id):
            return
        with self.part("pending"):
            if staged is not None and staged.files["games"]:
                con.execute("INSERT INTO agg_pending SELECT ?, game_id FROM "
                            "read_parquet(?, union_by_name = true)",
                            [run_id, [str(p) for p in staged.files["games"]]])
            if batch is not None:
                aggregates.pend(con, run_id, batch["games"].column("game_id"))
        last = self._caught_up.get(run_id)
        if last is None or time.monotonic() - last >= CATCH_UP_S:
            self._catch_up(con, run_id)

    def _catch_up(self, con, run_id: str, *, compact: bool = True) -> int:
        """Aggregate the run's pending games (in the caller's transaction)."""
        with self.part("aggregates"):
            n = aggregates.catch_up(con, run_id)
            self._caught_up[run_id] = time.monotonic()
            if n:
                self._deltas[run_id] = self._deltas.get(run_id, 0) + 1
                if compact and self._deltas[run_id] >= COMPACT_EVERY:
                    aggregates.compact(con, run_id)
                    self._deltas[run_id] = 0
        return n

    def finish_run(self, run_id: str, status: str, *, error: str | None = None,
                   wall_s: float | None = None) -> None:
        try:
            with self.write() as con:
                self._finish(con, run_id, status, error=error, wall_s=wall_s)
        except DatabaseHeld:
            raise
        except StoreError:
            if status == "done":
                raise
            # a failing run (e.g. the disk is full) must still take its status: without the
            # catch-up, whose pending games the resume or the next open aggregates
            with self.write() as con:
                self._finish(con, run_id, status, error=error, wall_s=wall_s, catch_up=False)

    def _finish(self, con, run_id: str, status: str, *, error: str | None = None,
                wall_s: float | None = None, catch_up: bool = True) -> None:
        con.execute("UPDATE runs SET status = ?, error = ?, finished_at = ?, wall_s = ? "
                    "WHERE run_id = ?", [status, error, _now(), wall_s, run_id])
        if catch_up:  # the run's last write: nothing stays pending
            self._catch_up(con, run_id, compact=False)
            self._caught_up.pop(run_id, None)
        if status == "done" and aggregates.is_maintained(con, run_id):
            # one row per key from now on (not when failing: a full disk must still take the
            # status; a failed run's delta rows are as exact, only more of them)
            with self.part("aggregates"):
                aggregates.compact(con, run_id)
            self._deltas.pop(run_id, None)

    def rebuild_aggregates(self, run_id: str) -> None:
        """Recompute a run's aggregates from its raw rows (a run written before they existed,
        or by an older definition), in one transaction."""
        with self.write() as con:
            aggregates.rebuild(con, run_id)

    def reopen_run(self, run_id: str, *, map_cells: tuple[str, list] | None = None,
                   writer: dict | None = None) -> set[int]:
        """Mark a run 'running' again; returns the game ids it already has (each complete).
        `map_cells` as in `create_run`; `writer` (host, pid, heartbeat_at: the resuming
        process, `liveness.writer_identity`) is stamped on the row."""
        with self.write() as con:
            if map_cells is not None:
                self._map_cells(con, *map_cells)
            if not aggregates.is_maintained(con, run_id):  # written before them: catch up now
                aggregates.rebuild(con, run_id)
            else:  # the games a killed writer left pending (issue 31)
                self._catch_up(con, run_id)
            con.execute("UPDATE runs SET status = 'running', error = NULL, finished_at = NULL "
                        "WHERE run_id = ?", [run_id])
            if writer is not None:
                con.execute("UPDATE runs SET host = ?, pid = ?, heartbeat_at = ? WHERE run_id = ?",
                            [writer["host"], writer["pid"], writer["heartbeat_at"], run_id])
            done = {r[0] for r in con.execute("SELECT game_id FROM games WHERE run_id = ?",
                                              [run_id]).fetchall()}
            con.execute("UPDATE runs SET games_done = ? WHERE run_id = ?", [len(done), run_id])
        return done

    def heartbeat(self, run_id: str, timeout: float = 0.25) -> None:
        """The writer is alive: refresh the heartbeat of its running run.  It tries the file
        for `timeout` seconds only: it holds the store's lock meanwhile, and a heartbeat
        waiting out a held file would stall the main thread's writes (which park their games
        while the file is held, pipelines.store.staging); a missed beat is retried."""
        with self.write(timeout=timeout) as con:
            con.execute("UPDATE runs SET heartbeat_at = ? WHERE run_id = ? AND status = 'running'",
                        [_now(), run_id])

    def ensure_map_cells(self, game_id: str, cells) -> int:
        """Insert the map cells of maps not yet present for this game; returns rows written."""
        if not cells:
            return 0
        with self.write() as con:
            return self._map_cells(con, game_id, cells)

    def _map_cells(self, con, game_id: str, cells) -> int:
        if not cells:
            return 0
        have = {r[0] for r in con.execute(
            "SELECT DISTINCT map FROM map_cells WHERE game = ?", [game_id]).fetchall()}
        new = [c for c in cells if c.map not in have]
        if not new:
            return 0
        data = to_arrow("map_cells", {
            "game": [game_id] * len(new), "map": [c.map for c in new],
            "cell": [c.cell for c in new], "x": [c.x for c in new], "y": [c.y for c in new],
            "kind": [c.kind for c in new]})
        self._insert(con, "map_cells", data)
        return len(new)

    # -- reads -------------------------------------------------------------------------------
    def run_row(self, run_id: str) -> dict | None:
        with self.read() as con:
            cur = con.execute("SELECT * FROM runs WHERE run_id = ?", [run_id])
            row = cur.fetchone()
            if row is None:
                return None
            return dict(zip([d[0] for d in cur.description], row))
