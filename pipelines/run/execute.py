"""Execution: chunks of games in a joblib pool (loky or Dask), one writer (this process).

Each task plays a chunk of games and returns columnar Arrow batches (`game_id` = the game's
index in the run).  The parent is the only writer: it collects chunks as they complete (in any
order) and writes what it has at most every `flush_s` seconds, each time in one short
transaction that opens and closes the file, so readers are never locked out for long and see
each game whole or not at all.  The rows are the same whatever the number of workers, the chunk
size or the backend; only `wall_ms`, `created_at` and the run id differ between two runs of the
same plan.

Faults.  Results stream in and are written as they come, so nothing completed is lost:
- a game that raises is reported with its seed and the command that reproduces it; the other
  games of its chunk and of the run are written, and the run is marked `failed` for it alone;
- Ctrl-C (or SIGTERM) stops cleanly: the completed games are written, the run is marked
  `failed` with an "interrupted (resumable)" error, and the message says how to resume;
- a worker process that dies stops the run the same way, with an error naming what happened;
- SIGKILL of this process leaves the run `running` with its completed games (each whole),
  and its heartbeat stops: `delve runs`, `delve check` and the Runs page then call it stalled
  (pipelines/store/liveness.py; this process refreshes the heartbeat every HEARTBEAT_S);
`delve simulate --resume RUN` then plays exactly the missing games, and the primary key on
(run_id, game_id) makes a duplicate impossible.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import signal
import sys
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timezone
from collections.abc import Sequence
from typing import Callable

import pyarrow as pa

import engine
from engine.core.errors import DelveError
from engine.core.play import play_game
from engine.core.rules import validate

from pipelines.run.plan import GameSpec, Plan, default_chunk_size, import_game, plan_from_run
from pipelines.store import BATCH_TABLES, Store, StoreError, resolve_run, to_arrow
from pipelines.store.liveness import HEARTBEAT_S, liveness, writer_identity
from pipelines.store.staging import STOP_WAIT_S, PatientWriter, recover_staged


class RunStopped(DelveError):
    """The run stopped before its end for a reason outside the user's input (a worker died):
    exit code 1; the message says what happened and how to resume."""

    exit_code = 1


@dataclass(frozen=True)
class ChunkTask:
    game_id: str
    modules: tuple[str, ...]
    rules_hash: str
    rules_json: str
    specs: tuple[GameSpec, ...]
    log_moves: bool = True


@dataclass(frozen=True)
class GameFailure:
    game_id: int
    seed: int
    error: str            # "ExceptionType: message"


_RULES_CACHE: dict[tuple[str, str], object] = {}


def _worker_rules(task: ChunkTask):
    """Rules are rebuilt once per worker (per rules hash) from the effective rules JSON."""
    key = (task.game_id, task.rules_hash)
    model = _RULES_CACHE.get(key)
    if model is None:
        game = import_game(task.game_id, task.modules)
        model = validate(game.rules_model, json.loads(task.rules_json))
        _RULES_CACHE[key] = model
    return model


def play_chunk(task: ChunkTask) -> dict:
    """Play every game of a chunk; return one Arrow table per batch table (no run_id), and
    under "failures" the games that raised (GameFailure), which are left out of the tables."""
    game = import_game(task.game_id, task.modules)
    model = _worker_rules(task)
    cols: dict[str, dict[str, list]] = {
        t: {name: [] for name in _batch_columns(t)} for t in BATCH_TABLES}
    failures: list[GameFailure] = []
    for spec in task.specs:
        try:
            rec = play_game(game, model, list(spec.seats), spec.seed, map=spec.map,
                            log=task.log_moves, game_index=spec.index)
        except Exception as exc:  # one game's bug must not lose the others
            failures.append(GameFailure(spec.index, spec.seed, f"{type(exc).__name__}: {exc}"))
            continue
        g = cols["games"]
        g["game_id"].append(spec.index)
        for k, col in g.items():
            if k != "game_id":
                col.append(rec.game.get(k))
        p = cols["players"]
        for row in rec.players:
            p["game_id"].append(spec.index)
            for k, col in p.items():
                if k != "game_id":
                    col.append(row.get(k))  # a column a game does not fill is NULL
        for table, data in (("moves", rec.moves), ("score_events", rec.scores)):
            n = len(data["step"])
            c = cols[table]
            c["game_id"].extend([spec.index] * n)
            for k, v in data.items():
                c[k].extend(v)
    out: dict = {t: to_arrow(t, cols[t]) for t in BATCH_TABLES}
    out["failures"] = failures
    return out


def _batch_columns(table: str) -> list[str]:
    from pipelines.store import SCHEMA
    return [n for n, _ in SCHEMA[table] if n != "run_id"]


# ---------------------------------------------------------------------------------------------

@dataclass
class RunSummary:
    run_id: str
    n_games: int
    wall_s: float
    wins: Counter = field(default_factory=Counter)     # faction -> wins (shared wins count)
    seats: Counter = field(default_factory=Counter)    # faction -> seats played
    status: str = "done"
    failures: list[GameFailure] = field(default_factory=list)
    games_written: int = 0
    decisions: int = 0
    write_s: float = 0.0   # time this process spent in write transactions (the writer)
    write_cpu_s: float = 0.0  # CPU time of the writer in them (DuckDB runs in its thread)
    writes: int = 0        # write transactions
    db: str = ""
    # the writer's CPU seconds by part of its transactions (Store.write_parts: attach, raw rows,
    # aggregates, commit, detach) over this run
    write_parts: dict = field(default_factory=dict)

    @property
    def games_per_s(self) -> float:
        return self.n_games / self.wall_s if self.wall_s > 0 else float("inf")

    @property
    def writer_share(self) -> float:
        return self.write_s / self.wall_s if self.wall_s > 0 else 0.0


def new_run_id(game_id: str) -> str:
    stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
    return f"{game_id}-{stamp}-{uuid.uuid4().hex[:6]}"


def resume_command(run_id: str, db) -> str:
    return f"delve simulate --resume {run_id} --db {db}"


def reproduce_command(run_id: str, game_id: int, db) -> str:
    return f"delve replay {run_id} {game_id} --db {db}"


def failure_report(summary: RunSummary) -> str:
    """The failing games with their seeds and the commands that reproduce them."""
    n = len(summary.failures)
    lines = [f"{n} game{'s' if n > 1 else ''} of run {summary.run_id} raised an error; the other "
             f"{summary.games_written} games are written and the run is marked 'failed' for "
             f"{'them' if n > 1 else 'it'} alone:"]
    for f in summary.failures[:20]:
        lines.append(f"  game {f.game_id} (seed {f.seed}): {f.error}")
        lines.append(f"    reproduce: {reproduce_command(summary.run_id, f.game_id, summary.db)}")
    if n > 20:
        lines.append(f"  ... and {n - 20} more (see runs.error)")
    return "\n".join(lines)


def iter_results(tasks: list[ChunkTask], *, jobs: int = 1, backend: str = "loky",
                 scheduler: str | None = None, client=None):
    """Each chunk's batches as it completes (any order).  With loky and several jobs the
    chunks are dispatched when this is called, so the caller can write (the run row) while
    the workers play; `close()` the iterator to stop them."""
    if tasks and backend != "dask" and jobs > 1 and len(tasks) > 1:
        from joblib import Parallel, delayed
        # batch_size=1: joblib's auto-batching would pair chunks, and a pair at the end of
        # the run leaves the other worker idle for twice as long.
        par = Parallel(n_jobs=jobs, backend="loky", return_as="generator_unordered",
                       batch_size=1)
        return par(delayed(play_chunk)(t) for t in tasks)
    return _iter_lazy(tasks, jobs=jobs, backend=backend, scheduler=scheduler, client=client)


def _iter_lazy(tasks, *, jobs, backend, scheduler, client):
    if not tasks:
        return
    if backend == "dask":
        own = client is None
        client = client or dask_client(scheduler, jobs=jobs)
        try:
            yield from _iter_dask(tasks, client)
        finally:
            if own:
                close_client(client)
        return
    for task in tasks:
        yield play_chunk(task)


def dask_client(scheduler: str | None, timeout: str = "5s", *, jobs: int = 1):
    """A client of the Dask scheduler at `scheduler`; DelveError naming it if unreachable.
    Without an address, a `LocalCluster` of `jobs` worker processes on loopback (127.0.0.1),
    closed with the client (`close_client`)."""
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:  # pragma: no cover
        raise DelveError("--backend dask needs dask[distributed] installed") from None
    if not scheduler:
        import logging
        cluster = LocalCluster(n_workers=max(1, jobs), threads_per_worker=1, processes=True,
                               host="127.0.0.1", protocol="tcp", dashboard_address=None,
                               silence_logs=logging.ERROR)
        client = Client(cluster, set_as_default=False)
        client._delve_cluster = cluster
        return client
    try:
        return Client(scheduler, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise DelveError(f"Cannot reach the Dask scheduler '{scheduler}' (--scheduler): "
                         f"{exc}") from None


def close_client(client) -> None:
    cluster = getattr(client, "_delve_cluster", None)
    client.close()
    if cluster is not None:
        cluster.close()


def _iter_dask(tasks, client):
    """The chunks on the cluster, as they complete.  Submitted to the client directly: joblib's
    Dask backend plays every chunk in this process when the cluster has a single worker
    thread (its n_jobs is then 1), so a one-worker cluster would never see a game."""
    from dask.distributed import as_completed
    futures = client.map(play_chunk, list(tasks), pure=False)
    try:
        for future in as_completed(futures, loop=client.loop):
            yield future.result()
    finally:
        client.cancel([f for f in futures if not f.done()])


# Guided chunks (no --chunk-size): full chunks (`default_chunk_size`) while there is plenty
# left, then each about 1/(TAIL_SPLIT x jobs) of the games left, down to 1/(TAIL_CHUNKS x jobs)
# of the run: the workers then finish within a small chunk of each other, instead of one
# playing a whole chunk alone at the end while the other core idles.
TAIL_SPLIT = 2
TAIL_CHUNKS = 48


def chunk_sizes(n_games: int, jobs: int, chunk_size: int | None = None) -> list[int]:
    """The sizes of the run's chunks, in order: `chunk_size` each if given, else guided."""
    if n_games <= 0:
        return []
    if chunk_size:
        full, rest = divmod(n_games, chunk_size)
        return [chunk_size] * full + ([rest] if rest else [])
    top = default_chunk_size(n_games, jobs)
    if jobs <= 1:  # one worker: nothing to balance
        return chunk_sizes(n_games, 1, top)
    low = min(top, -(-n_games // (jobs * TAIL_CHUNKS)))
    sizes, left = [], n_games
    while left:
        size = min(left, max(low, min(top, -(-left // (TAIL_SPLIT * jobs)))))
        sizes.append(size)
        left -= size
    return sizes


class Tasks(Sequence):
    """One task per chunk, `chunk_size` games each or (None) guided chunks for `jobs`, each made
    when it is dispatched: planning a million games costs the chunk sizes alone, so the first
    game is played as soon at 1,000,000 planned games as at 1,000 (issue 31)."""

    def __init__(self, plan: Plan, chunk_size: int | None, log_moves: bool, jobs: int = 1):
        self.plan, self.log_moves = plan, log_moves
        self.sizes = chunk_sizes(len(plan.specs), jobs, chunk_size)
        self.starts = list(itertools.accumulate(self.sizes, initial=0))

    def __len__(self) -> int:
        return len(self.sizes)

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self[j] for j in range(*k.indices(len(self)))]
        start, size = self.starts[k], self.sizes[k]
        plan = self.plan
        return ChunkTask(plan.game.id, plan.game_modules, plan.rules.hash, plan.rules_payload,
                         tuple(plan.specs[start:start + size]), self.log_moves)


def make_tasks(plan: Plan, chunk_size: int | None, log_moves: bool, *,
               jobs: int = 1) -> Tasks:
    """One task per chunk: `chunk_size` games each, or (None) guided chunks for `jobs`."""
    return Tasks(plan, chunk_size, log_moves, jobs)


def run_plan(plan: Plan, store: Store, *, jobs: int = 1, chunk_size: int | None = None,
             backend: str = "loky", scheduler: str | None = None, log_moves: bool = True,
             label: str = "", config: dict | None = None, progress: bool = True,
             run_id: str | None = None, flush_s: float = 0.5,
             resume: bool = False,
             on_batch: Callable[[RunSummary], None] | None = None) -> RunSummary:
    """Create the run row, play every chunk, write the completed chunks at most every
    `flush_s` seconds (one short transaction each), mark the run done (or failed).

    With `resume=True`, `run_id` names an existing run: the games it already has are skipped,
    so a run killed part-way and resumed has each game exactly once.  `on_batch` is called
    with the running summary after each chunk arrives (the bench samples memory there)."""
    run_id = run_id or new_run_id(plan.game.id)
    w0 = (store.write_s, store.write_cpu_s, store.writes, dict(store.write_parts))
    client = dask_client(scheduler, jobs=jobs) if backend == "dask" else None  # fail early
    cells = (plan.game.id, list(plan.game.map_cells(plan.rules.model)))
    try:
        with _sigterm_as_interrupt(store):
            t0 = time.perf_counter()
            try:
                if resume:  # the games already stored decide the tasks: reopen first
                    recover_staged(store, run_id)  # games parked by the interrupted process
                    done = store.reopen_run(run_id, map_cells=cells, writer=writer_identity())
                    plan.specs = [s for s in plan.specs if s.index not in done]
                tasks = make_tasks(plan, chunk_size, log_moves, jobs=jobs)
                writer = PatientWriter(store, run_id, say=_say)
                if not resume:
                    # the run's row first, so a run killed at any moment can be resumed (if
                    # another process holds the file, the row waits for the first write that can)
                    writer.create(_run_row(plan, run_id, label, config), map_cells=cells)
                results = iter_results(tasks, jobs=jobs, backend=backend,
                                       scheduler=scheduler, client=client)
            except KeyboardInterrupt as exc:  # stopped before the first chunk was collected
                _stopped_early(store, run_id, exc)
                raise
            with _Heartbeat(store, run_id):
                summary = _run(plan, writer, tasks, results, run_id, jobs=jobs,
                               progress=progress, flush_s=flush_s, t0=t0,
                               first_cost=store.write_s - w0[0], on_batch=on_batch)
    finally:
        if client is not None:
            close_client(client)
    summary.write_s = store.write_s - w0[0]
    summary.write_cpu_s = store.write_cpu_s - w0[1]
    summary.writes = store.writes - w0[2]
    summary.write_parts = {k: v - w0[3].get(k, 0.0) for k, v in store.write_parts.items()}
    return summary


def _stopped_early(store: Store, run_id: str, exc: KeyboardInterrupt) -> None:
    """Ctrl-C or SIGTERM while the run was being created or reopened: if its row exists, it is
    marked failed (resumable), never left `running`."""
    what = "SIGTERM" if isinstance(exc, _SigTerm) else "KeyboardInterrupt"
    with contextlib.suppress(Exception):
        if store.run_row(run_id) is None:
            exc.delve_message = "Interrupted before the run started: nothing was written."
            return
        kept = f"{store_games(store, run_id)} of {store_planned(store, run_id)} games are kept"
        store.finish_run(run_id, "failed", error=f"interrupted ({what}): resumable; {kept}")
        exc.delve_message = (f"Interrupted: {kept} in '{store.path}'; the run is marked "
                             f"resumable. Resume with: {resume_command(run_id, store.path)}")


class _Heartbeat:
    """A thread that refreshes the run's heartbeat every HEARTBEAT_S while no batch was
    written (a batch's write refreshes it too), so a long chunk is not taken for a dead
    writer.  It dies with this process: a SIGKILL stops the heartbeat."""

    def __init__(self, store: Store, run_id: str, every: float = HEARTBEAT_S):
        self.store, self.run_id, self.every = store, run_id, every
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._beat, name=f"heartbeat {run_id}",
                                       daemon=True)

    def _beat(self) -> None:
        while not self.stop.wait(self.every / 4):
            if time.monotonic() - self.store.last_write >= self.every:
                with contextlib.suppress(Exception):  # a busy file: the next beat retries
                    self.store.heartbeat(self.run_id)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join(timeout=30)
        return False


class _SigTerm(KeyboardInterrupt):
    """SIGTERM (a shutdown, `kill`) handled like Ctrl-C: stop cleanly, keep what is done."""


class _sigterm_as_interrupt:
    """SIGTERM raises _SigTerm in the main thread, once (a second one while stopping is
    ignored), and never inside a write transaction: there it waits for the commit."""

    def __init__(self, store: Store | None = None):
        self.store = store
        self.fired = False

    def _raise(self):
        raise _SigTerm("SIGTERM")

    def __enter__(self):
        self.old = None
        if threading.current_thread() is threading.main_thread():
            def handler(signum, frame):
                if self.fired:
                    return
                self.fired = True
                if self.store is not None and self.store.writing:
                    self.store.deferred = self._raise
                    return
                self._raise()
            self.old = signal.signal(signal.SIGTERM, handler)
        return self

    def __exit__(self, *exc):
        if self.old is not None:
            signal.signal(signal.SIGTERM, self.old)
        if self.store is not None:
            self.store.deferred = None
        return False


def _run_row(plan: Plan, run_id: str, label: str, config: dict | None) -> dict:
    return {
        "run_id": run_id, "game": plan.game.id, "label": label, "variant": plan.variant_name,
        "rules_hash": plan.rules.hash, "rules": plan.rules_payload,
        "config": {**(config or {}), "seating": plan.seating},
        "seed": plan.run_seed, "n_games": plan.n_games, "status": "running",
        "engine_version": engine.__version__, "n_players": plan.n_players,
        "bots": ",".join(plan.bots), "factions": ",".join(plan.factions), "map": plan.map,
        "sets": list(plan.sets), **writer_identity()}


def _concat(batches: list[dict]) -> dict[str, pa.Table]:
    if len(batches) == 1:
        return batches[0]
    return {t: pa.concat_tables([b[t] for b in batches]) for t in BATCH_TABLES}


def _worker_died(exc: BaseException) -> bool:
    names = {type(e).__name__ for e in _chain(exc)}
    return bool(names & {"TerminatedWorkerError", "BrokenProcessPool", "KilledWorker"})


def _chain(exc: BaseException):
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        yield exc
        exc = exc.__cause__ or exc.__context__


# The writer.  A write transaction has a large fixed cost, most of a write's cost in a run of
# a few thousand games (PERFORMANCE.md, "The writer, third pass": about 0.1-0.2 s of CPU on a
# quiet machine: the aggregates' ten statements, planned anew each time, 40-80 ms; the eleven
# aggregate tables at the commit's checkpoint, 35-55 ms; attaching the file, 5 ms) and DuckDB
# stores rows more cheaply in large transactions than in small ones (its vacuum rewrites the
# table's last partial row group of 122,880 rows at every checkpoint), so the parent writes
# what has arrived:
# - at most every `flush_s` and at least long enough after the last write for writing to stay
#   near WRITER_SHARE of the wall time, but never more than MAX_FLUSH_S after it, so readers
#   see progress;
# - and near the end of the run, as soon as writing what is pending would take about as long
#   as the workers still need for the games left (estimated from the last write's cost per
#   game and the run's rate so far): then that write overlaps their last chunks (which are
#   small: see `chunk_sizes`) instead of following them while the cores idle;
# - the last write holds only the last chunks and also marks the run done (one transaction).
# `flush_s=0` writes every chunk as soon as it arrives.
WRITER_SHARE = 0.02   # per write: with the first and the last writes the run stays near 4%
MAX_FLUSH_S = 5.0
WRITE_S_PER_GAME = 0.002   # the estimate before the first write has measured it


def _interval(cost: float, flush_s: float) -> float:
    return max(flush_s, min(MAX_FLUSH_S, cost * (1 / WRITER_SHARE - 1)))


class _Pending:
    """The chunks received and not yet written, and when to write them (see above)."""

    def __init__(self, n_games: int, flush_s: float, first_cost: float, t0: float):
        self.batches: list[dict] = []
        self.games = 0                  # games in self.batches
        self.n_games = n_games
        self.remaining = n_games        # games not yet received (played or failed)
        self.flush_s = flush_s
        self.interval = _interval(first_cost, flush_s) if flush_s > 0 else 0.0
        self.per_game = WRITE_S_PER_GAME
        self.t0 = t0
        self.last = time.perf_counter()

    def add(self, batch: dict, failed: int) -> None:
        n = batch["games"].num_rows
        if n:
            self.batches.append(batch)
            self.games += n
        self.remaining -= n + failed

    def due(self) -> bool:
        """Write now?  Never for the last chunk: the final write also finishes the run."""
        if not self.batches or self.remaining <= 0:
            return False
        now = time.perf_counter()
        if now - self.last >= self.interval:
            return True
        received = self.n_games - self.remaining
        workers_left_s = self.remaining * (now - self.t0) / max(1, received)
        return self.games * self.per_game >= workers_left_s

    def batch(self) -> dict[str, pa.Table]:
        return _concat(self.batches)

    def written(self, games: int, cost: float) -> None:
        """The batch was written (in `cost` seconds); if that raised, it stays pending."""
        self.batches = []
        self.games = 0
        if games:
            self.per_game = cost / games
            if self.flush_s > 0:  # keep the writer's share of the wall time near WRITER_SHARE
                self.interval = _interval(cost, self.flush_s)
        self.last = time.perf_counter()


def _say(text: str) -> None:
    """A line for the user on stderr, above the progress bar."""
    from tqdm import tqdm
    tqdm.write(text, file=sys.stderr)


def _progress_bar():
    """tqdm's notebook bar inside Jupyter, its text bar elsewhere (tqdm.auto decides)."""
    if "ipykernel" in sys.modules:
        from tqdm.auto import tqdm
        return tqdm
    from tqdm import tqdm
    return tqdm


def _run(plan, writer, tasks, results, run_id, *, jobs, progress, flush_s, t0,
         first_cost=0.0, on_batch=None) -> RunSummary:
    store = writer.store
    summary = RunSummary(run_id, len(plan.specs), 0.0, db=str(store.path))
    bar = None
    pending = _Pending(len(plan.specs), flush_s, first_cost, t0)

    def flush(finish: dict | None = None, wait: bool = False, patience: float | None = None):
        w0 = time.perf_counter()
        games = writer.flush(pending.batch() if pending.batches else None, finish=finish,
                             wait=wait, patience=patience)
        summary.games_written += games
        pending.written(games, time.perf_counter() - w0)
        if bar is not None and not bar.disable:
            bar.set_postfix_str(f"waiting for the database, {writer.parked_games} games staged"
                                if writer.parked_games else "", refresh=False)

    try:
        tqdm = _progress_bar()
        bar = tqdm(total=len(plan.specs), unit="game", desc=run_id, file=sys.stderr,
                   disable=not progress, dynamic_ncols=True, smoothing=0.1)
        for batch in results:
            failures = batch.get("failures") or []
            summary.failures.extend(failures)
            pending.add(batch, len(failures))
            if pending.due():
                flush()
            players = batch["players"]
            for faction, won in zip(players.column("faction").to_pylist(),
                                    players.column("won").to_pylist()):
                summary.seats[faction] += 1
                summary.wins[faction] += bool(won)
            summary.decisions += sum(batch["games"].column("steps").to_pylist())
            bar.update(batch["games"].num_rows + len(failures))
            if on_batch is not None:
                on_batch(summary)
        bar.close()
        summary.wall_s = time.perf_counter() - t0
        if summary.failures:
            summary.status = "failed"
            summary.failures.sort(key=lambda f: f.game_id)
            finish = {"status": "failed", "error": _failure_text(summary, store.path)}
        else:
            finish = {"status": "done", "error": None}
        flush(finish={**finish, "wall_s": summary.wall_s}, wait=True)
    except BaseException as exc:
        summary.status = "failed"
        summary.wall_s = time.perf_counter() - t0
        if bar is not None:
            bar.close()
        if not isinstance(exc, StoreError):
            try:  # the games completed so far are kept (each one whole, or staged): a reader
                # holding the file for a moment (a dashboard's query) is waited for
                flush(patience=STOP_WAIT_S)
            except Exception:  # pragma: no cover - the original error matters more
                pass
        if writer.parked_games:  # the file is still held: keep the rest on disk, not waiting
            writer.park(pending.batch() if pending.batches else None)
        _close(results)  # stop the workers still playing
        if writer.parked_games or writer.run_row is not None:
            held = (f"Run {run_id} stopped ({type(exc).__name__}: {exc}) while another process "
                    f"held '{store.path}': {summary.games_written} games are written and "
                    f"{writer.parked_games} are staged in '{writer.staged.dir}'. Once the file "
                    f"is free, resume with: {resume_command(run_id, store.path)} (it writes the "
                    f"staged games first).")
            if isinstance(exc, KeyboardInterrupt):   # still an interrupt (exit 130), with where
                exc.delve_message = held             # the games are
                raise
            raise StoreError(held) from exc
        kept = f"{store_games(store, run_id)} of {store_planned(store, run_id)} games are kept"
        resume = resume_command(run_id, store.path)
        if isinstance(exc, KeyboardInterrupt):
            what = "SIGTERM" if isinstance(exc, _SigTerm) else "KeyboardInterrupt"
            text = f"interrupted ({what}): resumable; {kept}"
            exc.delve_message = (f"Interrupted: {kept} in '{store.path}'; the run is marked "
                                 f"resumable. Resume with: {resume}")
        elif _worker_died(exc):
            text = f"a worker process died ({type(exc).__name__}): resumable; {kept}"
        else:
            text = f"{type(exc).__name__}: {exc}"
        try:
            store.finish_run(run_id, "failed", error=text, wall_s=summary.wall_s)
        except Exception:  # pragma: no cover - e.g. the disk is still full
            pass
        if _worker_died(exc) and not isinstance(exc, KeyboardInterrupt):
            raise RunStopped(
                f"A worker process died while playing run {run_id} ({type(exc).__name__}: "
                f"{' '.join(str(exc).split())[:300]}). This is not a fault of the games: the "
                f"process was killed (by a signal, the out-of-memory killer or a crash). {kept}; "
                f"resume with: {resume}") from exc
        if isinstance(exc, StoreError):
            raise StoreError(f"{exc} {kept}; once the database can be written again, resume "
                             f"with: {resume}") from None
        raise
    summary.wall_s = time.perf_counter() - t0
    return summary


def _close(results) -> None:
    close = getattr(results, "close", None)
    if close is not None:
        with contextlib.suppress(Exception):
            close()


def _failure_text(summary: RunSummary, db) -> str:
    parts = [f"game {f.game_id} (seed {f.seed}) raised {f.error}; reproduce: "
             f"{reproduce_command(summary.run_id, f.game_id, db)}" for f in summary.failures[:20]]
    more = len(summary.failures) - 20
    return "; ".join(parts) + (f"; and {more} more failing games" if more > 0 else "")


def store_games(store: Store, run_id: str) -> int:
    try:
        row = store.run_row(run_id)
        return int(row["games_done"] or 0) if row else 0
    except Exception:  # pragma: no cover - only used in messages
        return 0


def store_planned(store: Store, run_id: str) -> int | str:
    try:
        row = store.run_row(run_id)
        return int(row["n_games"]) if row else "?"
    except Exception:  # pragma: no cover
        return "?"


# ---------------------------------------------------------------------------------------------

def resume_run(db, run: str, *, jobs: int | None = None, progress: bool = True,
               backend: str = "loky", scheduler: str | None = None,
               flush_s: float = 0.5) -> tuple[dict, RunSummary]:
    """Finish a run that was interrupted: play exactly the games it does not have, with its
    stored rules and options.  Returns (the run row, the summary of the games played)."""
    row = resolve_run(db, run)
    if row["status"] == "done":
        raise DelveError(f"Run '{row['run_id']}' is already done: nothing to resume")
    live = liveness(row)
    if row["status"] == "running" and row.get("heartbeat_at") is not None and not live.stalled:
        raise DelveError(
            f"Run '{row['run_id']}' is still being written by process {row.get('pid')} on "
            f"{row.get('host')} (heartbeat at {row['heartbeat_at']:%H:%M:%S} UTC): resuming it "
            f"now would play its games twice. Stop that process first, or wait until the run "
            f"is stalled (no heartbeat for a minute).")
    plan = plan_from_run(row)
    cfg = json.loads(row["config"] or "{}")
    jobs = jobs or int(cfg.get("jobs", 1))
    summary = run_plan(plan, Store(db), jobs=jobs, chunk_size=cfg.get("chunk_size"),
                       backend=backend, scheduler=scheduler, log_moves=cfg.get("log_moves", True),
                       progress=progress, run_id=row["run_id"], resume=True, flush_s=flush_s)
    return row, summary


def reproduce_game(db, run: str, game_id: int):
    """Play game `game_id` of a stored run again from its seed, in this process, so that an
    error it raised is raised again here (with its traceback).  Returns the GameRecord."""
    row = resolve_run(db, run)
    plan = plan_from_run(row)
    spec = next((s for s in plan.specs if s.index == game_id), None)
    if spec is None:
        raise DelveError(f"Run '{row['run_id']}' has no game {game_id}: expected a game_id from "
                         f"0 to {row['n_games'] - 1}")
    cfg = json.loads(row["config"] or "{}")
    return spec, play_game(plan.game, plan.rules.model, list(spec.seats), spec.seed, map=spec.map,
                           log=cfg.get("log_moves", True), game_index=spec.index)
