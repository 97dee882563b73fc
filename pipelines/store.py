"""The DuckDB store: the tables of the database contract (DESIGN.md) and how they are written.

Concurrency.  DuckDB lets one process write a file while no other process has it open, so the
simulation never holds the file: every write is one short transaction (open, insert Arrow
batches, commit, close) and a lock conflict is retried with backoff.  Readers (the dashboard,
notebooks) use `connect_read`, which opens read-only with the same retry, and close as soon as
their query is done.  The games completed since the last write are written in one transaction,
so a reader sees each game either complete (games, players, moves, score events) or not at
all, and `runs.games_done` always equals the games present.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterator

import duckdb
import pyarrow as pa

from engine.core.errors import DelveError

DEFAULT_DB = "data/delve.duckdb"

# Column order and types of every table.  Names are a public interface: add, never rename.
SCHEMA: dict[str, tuple[tuple[str, str], ...]] = {
    "runs": (
        ("run_id", "VARCHAR"), ("created_at", "TIMESTAMP"), ("game", "VARCHAR"),
        ("label", "VARCHAR"), ("variant", "VARCHAR"), ("rules_hash", "VARCHAR"),
        ("rules", "JSON"), ("config", "JSON"), ("seed", "BIGINT"), ("n_games", "INTEGER"),
        ("status", "VARCHAR"), ("engine_version", "VARCHAR"), ("finished_at", "TIMESTAMP"),
        ("error", "VARCHAR"), ("n_players", "INTEGER"), ("bots", "VARCHAR"),
        ("factions", "VARCHAR"), ("map", "VARCHAR"), ("sets", "JSON"),
        ("games_done", "INTEGER"), ("wall_s", "DOUBLE"),
        ("paired_with", "VARCHAR"), ("sweep_id", "VARCHAR"),  # what-if lab (pipelines/paired.py)
    ),
    "games": (
        ("run_id", "VARCHAR"), ("game_id", "INTEGER"), ("seed", "UBIGINT"),
        ("n_players", "INTEGER"), ("map", "VARCHAR"), ("rounds", "INTEGER"),
        ("steps", "INTEGER"), ("first_seat", "INTEGER"), ("winner_seat", "INTEGER"),
        ("ended_by", "VARCHAR"), ("wall_ms", "DOUBLE"),
    ),
    "players": (
        ("run_id", "VARCHAR"), ("game_id", "INTEGER"), ("seat", "INTEGER"),
        ("faction", "VARCHAR"), ("bot", "VARCHAR"), ("score", "INTEGER"), ("rank", "INTEGER"),
        ("won", "BOOLEAN"), ("ability", "VARCHAR"),
        ("held_cards", "VARCHAR"),  # cards the seat held, space-separated ids (Game state.held_cards)
    ),
    "moves": (
        ("run_id", "VARCHAR"), ("game_id", "INTEGER"), ("step", "INTEGER"), ("round", "INTEGER"),
        ("phase", "VARCHAR"), ("seat", "INTEGER"), ("action", "VARCHAR"), ("detail", "VARCHAR"),
        ("cell", "INTEGER"),
    ),
    "score_events": (
        ("run_id", "VARCHAR"), ("game_id", "INTEGER"), ("step", "INTEGER"),
        ("round", "INTEGER"), ("seat", "INTEGER"), ("category", "VARCHAR"),
        ("points", "INTEGER"),
    ),
    "map_cells": (
        ("game", "VARCHAR"), ("map", "VARCHAR"), ("cell", "INTEGER"), ("x", "INTEGER"),
        ("y", "INTEGER"), ("kind", "VARCHAR"),
    ),
}

_ARROW = {"VARCHAR": pa.string(), "INTEGER": pa.int32(), "BIGINT": pa.int64(),
          "UBIGINT": pa.uint64(), "DOUBLE": pa.float64(), "BOOLEAN": pa.bool_(),
          "TIMESTAMP": pa.timestamp("us"), "JSON": pa.string()}

# The batch columns a worker produces (everything but run_id, which the writer adds).
BATCH_TABLES = ("games", "players", "moves", "score_events")

# Primary keys: a game (and each of its seats) can be in a run only once, so a resumed or
# re-sent chunk can never duplicate one.  Moves and score events are written in the same
# transaction as their game's row, so the games key covers them too.
PRIMARY_KEYS: dict[str, tuple[str, ...]] = {
    "runs": ("run_id",),
    "games": ("run_id", "game_id"),
    "players": ("run_id", "game_id", "seat"),
    "map_cells": ("game", "map", "cell"),
}


class StoreError(DelveError):
    """The database cannot be written (disk full, read-only, damaged, an old incompatible
    schema).  Not the user's input, so exit code 1; the message names the file."""

    exit_code = 1


def arrow_schema(table: str, *, with_run_id: bool = False) -> pa.Schema:
    cols = SCHEMA[table]
    if not with_run_id:
        cols = tuple(c for c in cols if c[0] != "run_id")
    return pa.schema([(name, _ARROW[typ]) for name, typ in cols])


def to_arrow(table: str, columns: dict[str, list]) -> pa.Table:
    """Columns (dict of lists) -> an Arrow table with the contract's types.  A column added
    to the schema that the producer does not give is NULL."""
    schema = arrow_schema(table, with_run_id="run_id" in columns)
    n = len(next(iter(columns.values()), []))
    return pa.table({f.name: pa.array(columns[f.name], type=f.type) if f.name in columns
                     else pa.nulls(n, type=f.type) for f in schema}, schema=schema)


def _jitter() -> float:
    """Uniform in [0, 1) from the OS, so no seeded generator is touched."""
    return int.from_bytes(os.urandom(2), "little") / 65536.0


def _is_lock_error(exc: BaseException) -> bool:
    text = str(exc).lower()
    return isinstance(exc, duckdb.Error) and ("lock" in text or "conflicting" in text)


# Settings of the writer's connections (readers keep DuckDB's defaults).  Measured on the
# simulation's batches (PERFORMANCE.md, "The writer"):
# - threads 1: the writer shares the cores with the workers; DuckDB's parallel insert and
#   checkpoint cost 25-60% more CPU for these batch sizes and gain no wall time when both
#   cores are playing games;
# - checkpoint at commit, without the WAL (checkpoint threshold 1 KB, skip-WAL threshold 0):
#   a commit writes its rows to the file once, instead of to the WAL at commit and again to
#   the file at the checkpoint that closing runs anyway (5-14% less CPU per write).  Readers
#   cannot open the file before it is closed, so they see the same as before; a commit that
#   fails (disk full) leaves the file as it was before the transaction (checked by
#   tests/pipelines/test_faults_storage.py), and a small write (the run's status) can still
#   succeed in the space the failed checkpoint freed, where a WAL could not grow;
# - storage format v1.3.0 for a database this creates (an existing file keeps its own): its
#   string compression costs the checkpoint about 25% less CPU on the moves table, with the
#   same file size and read speed; DuckDB >= 1.3 reads it (pyproject requires it).
WRITE_CONFIG = {"threads": 1, "checkpoint_threshold": "1KB",
                "auto_checkpoint_skip_wal_threshold": 0,
                "storage_compatibility_version": "v1.3.0"}


def _retrying_connect(path: str, *, read_only: bool, timeout: float) -> duckdb.DuckDBPyConnection:
    deadline = time.monotonic() + timeout
    delay = 0.002
    config = {} if read_only else WRITE_CONFIG
    while True:
        try:
            return duckdb.connect(path, read_only=read_only, config=config)
        except duckdb.Error as exc:
            if not _is_lock_error(exc) or time.monotonic() > deadline:
                raise
        time.sleep(delay * (0.5 + _jitter()))
        delay = min(delay * 1.6, 0.1)


@contextlib.contextmanager
def connect_read(db: str | os.PathLike, timeout: float = 60.0) -> Iterator[duckdb.DuckDBPyConnection]:
    """A short read-only connection for readers (dashboard, notebooks, tests).

    Retries while a writer holds the file, so a reader never sees a lock error; close it soon
    (use it as a context manager) so the writer is not kept waiting.
    """
    path = str(db)
    if not Path(path).is_file():
        raise DelveError(f"Database '{path}' does not exist: run `delve simulate ... --db {path}` first")
    con = _retrying_connect(path, read_only=True, timeout=timeout)
    try:
        yield con
    finally:
        con.close()


def check_db_path(db: str | os.PathLike) -> Path:
    """Validate a database path for writing before anything is written.

    Raises DelveError naming the path if it is a directory, if its directory is missing or not
    writable, or if an existing file is not a DuckDB database.  Creates nothing.
    """
    path = Path(db)
    if str(db) == "" or path.is_dir():
        raise DelveError(f"Database path '{db}' (--db) is a directory: expected a file path such as "
                         f"{DEFAULT_DB}")
    parent = path.parent if str(path.parent) else Path(".")
    # The nearest existing ancestor must be a writable directory (missing dirs are created later).
    anc = parent
    while not anc.exists() and anc != anc.parent:
        anc = anc.parent
    if not anc.is_dir():
        raise DelveError(f"Database path '{db}' (--db) is not writable: '{anc}' is not a directory")
    if path.exists():
        if not path.is_file():
            raise DelveError(f"Database path '{db}' (--db) is not a regular file")
        try:
            with open(path, "r+b"):
                pass
        except OSError as exc:
            raise DelveError(f"Database path '{db}' (--db) is not writable ({exc.strerror})") from None
        with open(path, "rb") as fh:
            head = fh.read(16)
        if len(head) >= 12 and head[8:12] != b"DUCK":
            raise DelveError(f"Database path '{db}' (--db) is not a DuckDB database file")
    else:
        probe_dir = anc if not parent.exists() else parent
        try:
            fd, probe = tempfile.mkstemp(prefix=".delve-probe-", dir=probe_dir)
            os.close(fd)
            os.unlink(probe)
        except OSError as exc:
            raise DelveError(f"Database path '{db}' (--db) is not writable: cannot create files in "
                             f"'{probe_dir}' ({exc.strerror})") from None
    return path


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

    # -- connections -------------------------------------------------------------------------
    @contextlib.contextmanager
    def write(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """One short write transaction: open (retrying on lock), yield, commit, close.

        A failure of the file itself (disk full, read-only, I/O error) rolls the transaction
        back, so the games written before stay whole, and raises StoreError naming the file."""
        t0, c0 = time.perf_counter(), time.thread_time()
        try:
            if not self._ready:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            con = _retrying_connect(str(self.path), read_only=False, timeout=self.lock_timeout)
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
                con.commit()
            except (duckdb.TransactionException, duckdb.FatalException) as exc:
                # the commit's checkpoint (or a WAL) cannot be written, e.g. the disk is full:
                # the file keeps its last checkpoint, without this transaction
                raise self._io_error(exc) from None
        except (duckdb.IOException, duckdb.PermissionException, OSError) as exc:
            raise self._io_error(exc) from None
        finally:
            with contextlib.suppress(duckdb.Error):
                con.close()
            self.write_s += time.perf_counter() - t0
            self.write_cpu_s += time.thread_time() - c0
            self.writes += 1

    def _io_error(self, exc: BaseException) -> StoreError:
        text = " ".join(str(exc).split())
        if isinstance(exc, OSError) and exc.strerror:
            text = exc.strerror
        return StoreError(f"Cannot write to database '{self.path}' (--db): {text}. The "
                          f"transaction was rolled back: the games written before are intact.")

    @contextlib.contextmanager
    def read(self) -> Iterator[duckdb.DuckDBPyConnection]:
        with connect_read(self.path, timeout=self.lock_timeout) as con:
            yield con

    def _create(self, con: duckdb.DuckDBPyConnection) -> None:
        """Create the tables, or bring an older database up to date: add the columns added
        since (NULL in its old rows) and the primary keys.  Old rows are never rewritten, and
        it is one transaction: a database that cannot be upgraded is left as it was."""
        con.begin()
        try:
            for table, cols in SCHEMA.items():
                key = PRIMARY_KEYS.get(table)
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

    def create_run(self, row: dict, *, map_cells: tuple[str, list] | None = None) -> None:
        """Insert the run's row; with `map_cells` = (game id, cells), the game's map cells
        not yet present in the same transaction (one write instead of two)."""
        row = dict(row)
        row.setdefault("created_at", _now())
        row.setdefault("status", "running")
        row.setdefault("games_done", 0)
        for key in ("rules", "config", "sets"):
            if key in row and not isinstance(row[key], str):
                row[key] = json.dumps(row[key], sort_keys=True)
        cols = [n for n, _ in SCHEMA["runs"] if n in row]
        data = to_arrow_subset("runs", {c: [row[c]] for c in cols})
        with self.write() as con:
            self._insert(con, "runs", data)
            if map_cells is not None:
                self._map_cells(con, *map_cells)

    def write_batch(self, run_id: str, batch: dict[str, pa.Table], *,
                    finish: dict | None = None) -> int:
        """Write the games of one or more chunks (all four tables) in one transaction; returns
        games written.  `finish` (status, error, wall_s: the arguments of `finish_run`) also
        ends the run in the same transaction, so the last games and the run's status are
        written together (one write instead of two)."""
        n = batch["games"].num_rows
        with self.write() as con:
            for table in BATCH_TABLES:
                try:
                    self._insert(con, table, batch[table], run_id)
                except duckdb.ConstraintException as exc:
                    raise StoreError(
                        f"Run '{run_id}' already has some of these games in '{self.path}' "
                        f"({' '.join(str(exc).split())}): is another process resuming the same "
                        f"run? Nothing of this chunk was written.") from None
            con.execute("UPDATE runs SET games_done = coalesce(games_done, 0) + ? WHERE run_id = ?",
                        [n, run_id])
            if finish is not None:
                self._finish(con, run_id, **finish)
        return n

    def finish_run(self, run_id: str, status: str, *, error: str | None = None,
                   wall_s: float | None = None) -> None:
        with self.write() as con:
            self._finish(con, run_id, status, error=error, wall_s=wall_s)

    @staticmethod
    def _finish(con, run_id: str, status: str, *, error: str | None = None,
                wall_s: float | None = None) -> None:
        con.execute("UPDATE runs SET status = ?, error = ?, finished_at = ?, wall_s = ? "
                    "WHERE run_id = ?", [status, error, _now(), wall_s, run_id])

    def reopen_run(self, run_id: str, *, map_cells: tuple[str, list] | None = None) -> set[int]:
        """Mark a run 'running' again; returns the game ids it already has (each complete).
        `map_cells` as in `create_run`."""
        with self.write() as con:
            if map_cells is not None:
                self._map_cells(con, *map_cells)
            con.execute("UPDATE runs SET status = 'running', error = NULL, finished_at = NULL "
                        "WHERE run_id = ?", [run_id])
            done = {r[0] for r in con.execute("SELECT game_id FROM games WHERE run_id = ?",
                                              [run_id]).fetchall()}
            con.execute("UPDATE runs SET games_done = ? WHERE run_id = ?", [len(done), run_id])
        return done

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


def to_arrow_subset(table: str, columns: dict[str, list]) -> pa.Table:
    types = dict(SCHEMA[table])
    return pa.table({n: pa.array(v, type=_ARROW[types[n]]) for n, v in columns.items()})


def resolve_run(db: str | os.PathLike, run: str) -> dict:
    """A run by id, unique id prefix, or 'latest'.  Raises DelveError if none or ambiguous."""
    with connect_read(db) as con:
        if run in ("latest", "last"):
            cur = con.execute("SELECT * FROM runs ORDER BY created_at DESC LIMIT 1")
        else:
            cur = con.execute("SELECT * FROM runs WHERE run_id = ? OR starts_with(run_id, ?) "
                              "ORDER BY run_id LIMIT 2", [run, run])
        rows = cur.fetchall()
        names = [d[0] for d in cur.description]
    exact = [r for r in rows if r[0] == run]
    if exact:
        rows = exact
    if not rows:
        raise DelveError(f"Unknown run '{run}' in database '{db}': see the runs table for run ids")
    if len(rows) > 1:
        raise DelveError(f"Run '{run}' is ambiguous in database '{db}': give more of the run id")
    return dict(zip(names, rows[0]))
