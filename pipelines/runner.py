"""Execution: chunks of games in a joblib pool (loky or Dask), one writer (this process).

Each task plays a chunk of games and returns columnar Arrow batches (`game_id` = the game's
index in the run).  The parent is the only writer: it collects chunks as they complete (in any
order) and writes what it has at most every `flush_s` seconds, each time in one short
transaction that opens and closes the file, so readers are never locked out for long and see
each game whole or not at all.  The rows are the same whatever the number of workers, the chunk
size or the backend; only `wall_ms`, `created_at` and the run id differ between two runs of the
same plan.
"""

from __future__ import annotations

import json
import sys
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timezone

import pyarrow as pa

import engine
from engine.core.errors import DelveError
from engine.core.play import play_game
from engine.core.rules import validate

from .plan import GameSpec, Plan, default_chunk_size, import_game
from .store import BATCH_TABLES, Store, to_arrow


@dataclass(frozen=True)
class ChunkTask:
    game_id: str
    modules: tuple[str, ...]
    rules_hash: str
    rules_json: str
    specs: tuple[GameSpec, ...]
    log_moves: bool = True


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


def play_chunk(task: ChunkTask) -> dict[str, pa.Table]:
    """Play every game of a chunk; return one Arrow table per batch table (no run_id)."""
    game = import_game(task.game_id, task.modules)
    model = _worker_rules(task)
    cols: dict[str, dict[str, list]] = {
        t: {name: [] for name in _batch_columns(t)} for t in BATCH_TABLES}
    for spec in task.specs:
        rec = play_game(game, model, list(spec.seats), spec.seed, map=spec.map, log=task.log_moves)
        g = cols["games"]
        g["game_id"].append(spec.index)
        for k in ("seed", "n_players", "map", "rounds", "steps", "first_seat", "winner_seat",
                  "ended_by", "wall_ms"):
            g[k].append(rec.game[k])
        p = cols["players"]
        for row in rec.players:
            p["game_id"].append(spec.index)
            for k in ("seat", "faction", "bot", "score", "rank", "won"):
                p[k].append(row[k])
        for table, data in (("moves", rec.moves), ("score_events", rec.scores)):
            n = len(data["step"])
            c = cols[table]
            c["game_id"].extend([spec.index] * n)
            for k, v in data.items():
                c[k].extend(v)
    return {t: to_arrow(t, cols[t]) for t in BATCH_TABLES}


def _batch_columns(table: str) -> list[str]:
    from .store import SCHEMA
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

    @property
    def games_per_s(self) -> float:
        return self.n_games / self.wall_s if self.wall_s > 0 else float("inf")


def new_run_id(game_id: str) -> str:
    stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
    return f"{game_id}-{stamp}-{uuid.uuid4().hex[:6]}"


def iter_results(tasks: list[ChunkTask], *, jobs: int = 1, backend: str = "loky",
                 scheduler: str | None = None, client=None):
    """Yield each chunk's batches as it completes (any order)."""
    if not tasks:
        return
    if backend == "dask":
        own = client is None
        client = client or dask_client(scheduler)
        try:
            yield from _iter_dask(tasks, client)
        finally:
            if own:
                client.close()
        return
    if jobs <= 1 or len(tasks) == 1:
        for task in tasks:
            yield play_chunk(task)
        return
    from joblib import Parallel, delayed
    par = Parallel(n_jobs=jobs, backend="loky", return_as="generator_unordered")
    yield from par(delayed(play_chunk)(t) for t in tasks)


def dask_client(scheduler: str | None, timeout: str = "5s"):
    """A client of the Dask scheduler at `scheduler`; DelveError naming it if unreachable."""
    if not scheduler:
        raise DelveError("--backend dask needs --scheduler ADDRESS (e.g. tcp://127.0.0.1:8786)")
    try:
        from dask.distributed import Client
    except ImportError:  # pragma: no cover
        raise DelveError("--backend dask needs dask[distributed] installed") from None
    try:
        return Client(scheduler, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise DelveError(f"Cannot reach the Dask scheduler '{scheduler}' (--scheduler): "
                         f"{exc}") from None


def _iter_dask(tasks, client):
    from joblib import Parallel, delayed, parallel_config
    with parallel_config(backend="dask", client=client):
        par = Parallel(n_jobs=-1, return_as="generator_unordered")
        yield from par(delayed(play_chunk)(t) for t in tasks)


def make_tasks(plan: Plan, chunk_size: int, log_moves: bool) -> list[ChunkTask]:
    return [ChunkTask(plan.game.id, plan.game_modules, plan.rules.hash, plan.rules_payload,
                      tuple(chunk), log_moves) for chunk in plan.chunks(chunk_size)]


def run_plan(plan: Plan, store: Store, *, jobs: int = 1, chunk_size: int | None = None,
             backend: str = "loky", scheduler: str | None = None, log_moves: bool = True,
             label: str = "", config: dict | None = None, progress: bool = True,
             run_id: str | None = None, flush_s: float = 0.5,
             resume: bool = False) -> RunSummary:
    """Create the run row, play every chunk, write the completed chunks at most every
    `flush_s` seconds (one short transaction each), mark the run done (or failed).

    With `resume=True`, `run_id` names an existing run: the games it already has are skipped,
    so a run killed part-way and resumed has each game exactly once."""
    chunk_size = chunk_size or default_chunk_size(plan.n_games, jobs)
    run_id = run_id or new_run_id(plan.game.id)
    client = dask_client(scheduler) if backend == "dask" else None  # fail before writing
    try:
        if resume:
            done = store.reopen_run(run_id)
            plan.specs = [s for s in plan.specs if s.index not in done]
        else:
            store.create_run(_run_row(plan, run_id, label, config))
        tasks = make_tasks(plan, chunk_size, log_moves)
        return _run(plan, store, tasks, run_id, client, jobs=jobs, backend=backend,
                    scheduler=scheduler, progress=progress, flush_s=flush_s)
    finally:
        if client is not None:
            client.close()


def _run_row(plan: Plan, run_id: str, label: str, config: dict | None) -> dict:
    return {
        "run_id": run_id, "game": plan.game.id, "label": label, "variant": plan.variant_name,
        "rules_hash": plan.rules.hash, "rules": plan.rules_payload, "config": config or {},
        "seed": plan.run_seed, "n_games": plan.n_games, "status": "running",
        "engine_version": engine.__version__, "n_players": plan.n_players,
        "bots": ",".join(plan.bots), "factions": ",".join(plan.factions), "map": plan.map,
        "sets": list(plan.sets)}


def _concat(batches: list[dict[str, pa.Table]]) -> dict[str, pa.Table]:
    if len(batches) == 1:
        return batches[0]
    return {t: pa.concat_tables([b[t] for b in batches]) for t in BATCH_TABLES}


def _run(plan, store, tasks, run_id, client, *, jobs, backend, scheduler, progress,
         flush_s) -> RunSummary:
    summary = RunSummary(run_id, len(plan.specs), 0.0)
    t0 = time.perf_counter()
    bar = None
    pending: list[dict[str, pa.Table]] = []
    last_flush = time.monotonic()

    def flush():
        nonlocal last_flush
        if pending:
            store.write_batch(run_id, _concat(pending))
            pending.clear()
        last_flush = time.monotonic()

    try:
        store.ensure_map_cells(plan.game.id, list(plan.game.map_cells(plan.rules.model)))
        from tqdm import tqdm
        bar = tqdm(total=len(plan.specs), unit="game", desc=run_id, file=sys.stderr,
                   disable=not progress, dynamic_ncols=True, smoothing=0.1)
        for batch in iter_results(tasks, jobs=jobs, backend=backend, scheduler=scheduler,
                                  client=client):
            pending.append(batch)
            if time.monotonic() - last_flush >= flush_s:
                flush()
            players = batch["players"]
            for faction, won in zip(players.column("faction").to_pylist(),
                                    players.column("won").to_pylist()):
                summary.seats[faction] += 1
                summary.wins[faction] += bool(won)
            bar.update(batch["games"].num_rows)
        flush()
    except BaseException as exc:
        summary.status = "failed"
        summary.wall_s = time.perf_counter() - t0
        if bar is not None:
            bar.close()
        text = "interrupted (KeyboardInterrupt)" if isinstance(exc, KeyboardInterrupt) \
            else f"{type(exc).__name__}: {exc}"
        try:
            flush()  # the games completed so far are kept (each one whole)
        except Exception:  # pragma: no cover - the original error matters more
            pass
        try:
            store.finish_run(run_id, "failed", error=text, wall_s=summary.wall_s)
        finally:
            raise
    bar.close()
    summary.wall_s = time.perf_counter() - t0
    store.finish_run(run_id, "done", wall_s=summary.wall_s)
    return summary
