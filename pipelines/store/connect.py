"""Opening the database: one connection helper, with the lock retry, for writers and readers.

DuckDB lets one process write a file while no other process has it open.  The simulation never
holds the file between writes, and readers (the dashboard, notebooks) open it read-only only for
the length of a query; whoever finds it locked retries with a short, jittered backoff instead of
failing.  `retrying_connect` is that loop, used by the writer (`Store.write`), by
`connect_read` and by the dashboard's queries; a waiting writer goes first ("writers first").
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import time
from pathlib import Path
from typing import Iterator

import duckdb

from engine.core.errors import DelveError

from .schema import DEFAULT_DB


class StoreError(DelveError):
    """The database cannot be written (disk full, read-only, damaged, an old incompatible
    schema).  Not the user's input, so exit code 1; the message names the file."""

    exit_code = 1


def _jitter() -> float:
    """Uniform in [0, 1) from the OS, so no seeded generator is touched."""
    return int.from_bytes(os.urandom(2), "little") / 65536.0


def is_lock_error(exc: BaseException) -> bool:
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


# --- writers first -------------------------------------------------------------------------
# Readers that open the file back to back (two dashboards refreshing a live run every 2 s on a
# loaded machine) can hold it nearly all the time, and a writer that only retries would starve:
# a stopping simulation could not even write its status (stop 37's CI: a run SIGTERMed while two
# dashboards watched it stayed "running", then "stalled").  So a writer that finds the file held
# says so in a flag file beside it (`<db>.writer-waiting`, its mtime refreshed at every retry),
# and a reader about to open the file waits while that flag is fresh, for at most
# READER_YIELD_S: readers already inside finish their query, no new one starts, and the writer
# gets the file as soon as they are out.  A flag left by a killed writer goes stale in
# WAITING_FRESH_S and is then ignored.
WAITING_FRESH_S = 2.0
READER_YIELD_S = 10.0


def writer_waiting_flag(path: str | os.PathLike) -> Path:
    """The flag file a writer waiting for `path` keeps fresh (`retrying_connect`)."""
    return Path(f"{path}.writer-waiting")


def _writer_waiting(flag: Path) -> bool:
    try:
        return time.time() - flag.stat().st_mtime < WAITING_FRESH_S
    except OSError:
        return False


def _yield_to_writer(flag: Path, deadline: float) -> None:
    """A reader's wait while a writer is waiting for the file (never past `deadline`)."""
    until = min(deadline, time.monotonic() + READER_YIELD_S)
    while _writer_waiting(flag) and time.monotonic() < until:
        time.sleep(0.02 + 0.03 * _jitter())


class _WaitingFlag:
    """A writer's flag: raised (created or touched) at each failed attempt, dropped when the
    writer is in or gives up.  A directory that cannot take the flag only loses the priority."""

    def __init__(self, path: str):
        self.flag, self.raised = writer_waiting_flag(path), False

    def raise_(self) -> None:
        with contextlib.suppress(OSError):
            self.flag.touch()
            self.raised = True

    def drop(self) -> None:
        if self.raised:
            with contextlib.suppress(OSError):
                self.flag.unlink()
            self.raised = False


def retrying_connect(path: str, *, read_only: bool, timeout: float) -> duckdb.DuckDBPyConnection:
    """Open `path` (read-only, or with the writer's settings), retrying for `timeout` seconds
    while another process holds the file; then the lock error is raised.  A reader first waits
    while a writer is waiting for the file; a writer raises that flag while it waits."""
    deadline = time.monotonic() + timeout
    delay = 0.002
    config = {} if read_only else WRITE_CONFIG
    flag = _WaitingFlag(path)
    try:
        while True:
            if read_only:
                _yield_to_writer(flag.flag, deadline)
            try:
                return duckdb.connect(path, read_only=read_only, config=config)
            except duckdb.Error as exc:
                if not is_lock_error(exc) or time.monotonic() > deadline:
                    raise
            if not read_only:
                flag.raise_()
            time.sleep(delay * (0.5 + _jitter()))
            delay = min(delay * 1.6, 0.1)
    finally:
        flag.drop()


#: The name the writer's instance gives the attached file (its default catalog while attached).
WRITE_ALIAS = "delve_db"


class WriterInstance:
    """The writer's DuckDB instance, kept between writes *without* the file: an in-memory
    instance with `WRITE_CONFIG` that attaches the file for one write transaction and detaches
    it after (`attach` / `detach`), which closes the file and releases its lock exactly as
    closing a connection did.  Creating a DuckDB instance costs about 25-30 ms of CPU per
    write (buffer manager, catalog, settings); attaching the file 5 ms (PERFORMANCE.md, "The
    writer, third pass").  Each write gets its own connection (`cursor`), so its temporary
    tables and registered Arrow views end with it, and the heartbeat thread can write
    through the same instance (the store's lock serializes them).

    A fatal DuckDB error (a checkpoint that cannot be written: disk full) invalidates the whole
    instance: `discard` drops it and the next write starts a new one."""

    def __init__(self):
        self._root: duckdb.DuckDBPyConnection | None = None

    def _instance(self) -> duckdb.DuckDBPyConnection:
        if self._root is None:
            self._root = duckdb.connect(":memory:", config=WRITE_CONFIG)
        return self._root

    def attach(self, path: str, *, timeout: float) -> duckdb.DuckDBPyConnection:
        """A connection with `path` attached read-write and in use, retrying for `timeout`
        seconds while another process holds the file; then the lock error is raised."""
        deadline = time.monotonic() + timeout
        delay = 0.002
        con = self._instance().cursor()
        flag = _WaitingFlag(path)   # readers wait while it is fresh (writers first, above)
        try:
            while True:
                try:
                    con.execute(f"ATTACH '{_quote(path)}' AS {WRITE_ALIAS}")
                    con.execute(f"USE {WRITE_ALIAS}")
                    return con
                except duckdb.Error as exc:
                    if not is_lock_error(exc) or time.monotonic() > deadline:
                        with contextlib.suppress(duckdb.Error):
                            con.close()
                        if isinstance(exc, duckdb.FatalException):
                            self.discard()
                        raise
                flag.raise_()
                time.sleep(delay * (0.5 + _jitter()))
                delay = min(delay * 1.6, 0.1)
        finally:
            flag.drop()

    def detach(self, con: duckdb.DuckDBPyConnection) -> None:
        """Close the file (it checkpoints what a failed commit left, like closing did) and the
        write's connection.  If that fails the instance is discarded, which closes the file."""
        try:
            con.execute("USE memory")
            con.execute(f"DETACH {WRITE_ALIAS}")
        except duckdb.Error:
            self.discard()
        finally:
            with contextlib.suppress(duckdb.Error):
                con.close()

    def discard(self) -> None:
        root, self._root = self._root, None
        if root is not None:
            with contextlib.suppress(duckdb.Error):
                root.close()


def _quote(path: str) -> str:
    return path.replace("'", "''")


@contextlib.contextmanager
def connect_read(db: str | os.PathLike, timeout: float = 60.0) -> Iterator[duckdb.DuckDBPyConnection]:
    """A short read-only connection for readers (dashboard, notebooks, tests).

    Retries while a writer holds the file, so a reader never sees a lock error; close it soon
    (use it as a context manager) so the writer is not kept waiting.
    """
    path = str(db)
    if not Path(path).is_file():
        raise DelveError(f"Database '{path}' does not exist: run `delve simulate ... --db {path}` first")
    con = retrying_connect(path, read_only=True, timeout=timeout)
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




def resolve_run(db: str | os.PathLike, run: str, con=None) -> dict:
    """A run by id, unique id prefix, or 'latest'.  Raises DelveError if none or ambiguous.
    `con`: an open connection to `db` to read through (else a short read-only one)."""
    with (contextlib.nullcontext(con) if con is not None else connect_read(db)) as con:
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
