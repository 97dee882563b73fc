"""How fast the CLI answers (issue 16): `delve --help`, `delve games` and `delve simulate`'s
time to its first game, each in a fresh interpreter, wall and CPU seconds (the CPU time of the
child, from `resource.getrusage`, moves much less with the machine's load than the wall)."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _timed(args: list[str], env: dict | None = None) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "delve", *args], capture_output=True,
                          text=True, timeout=600, env=env)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"delve {' '.join(args)} failed: {done.stderr.strip()[-500:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def startup_times(game_id: str | None, players: int) -> list[tuple[str, float, float]]:
    """(what, wall s, CPU s): `delve --help`, `delve games`, and (with a shipped `game_id`)
    `delve simulate GAME --games 1` with one worker from process start to exit: its imports,
    the plan, the first game, its write and the summary, an upper bound of the time to the
    first game."""
    with tempfile.TemporaryDirectory() as cache:
        # `delve games` reads its listing from a cache (engine/core/listing.py): the first call
        # after a change of Delve's code or rules imports every game, later calls none
        env = {**os.environ, "DELVE_CACHE_DIR": cache}
        cold = _timed(["games"], env)
        out = [("delve --help", *_timed(["--help"])), ("delve games", *_timed(["games"], env)),
               ("delve games (first call: empty cache)", *cold)]
    if game_id is None:
        return out
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "first.duckdb")
        out.append((f"delve simulate {game_id} --games 1 (to exit)",
                    *_timed(["simulate", game_id, "--games", "1", "--players", str(players),
                             "--bots", "random", "--jobs", "1", "--db", db, "--no-progress"])))
    return out


FIRST_GAME_GOAL = 1.5   # the time to the first stored game at 1,000,000 planned / at 1,000


def _games_stored(db: str) -> int:
    """Games in the file so far, 0 while it is missing, empty or held by the writer."""
    import duckdb
    if not Path(db).exists():
        return 0
    try:
        with duckdb.connect(db, read_only=True) as con:
            return int(con.execute("SELECT count(*) FROM games").fetchone()[0])
    except duckdb.Error:
        return 0


def first_game_seconds(game_id: str, planned: int, players: int = 4, jobs: int = 2,
                       timeout: float = 300.0) -> tuple[float, bool]:
    """Seconds from starting `delve simulate GAME --games PLANNED` (random bots, `jobs`
    workers, a fresh interpreter) to its first game stored in the file, polled every 0.1 s;
    then the run is stopped (SIGTERM: it keeps what it stored, resumable).  Also whether the
    run's row was there no later than its first game."""
    import signal
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "first.duckdb")
        t0 = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "delve", "simulate", game_id, "--games",
                                 str(planned), "--players", str(players), "--bots", "random",
                                 "--jobs", str(jobs), "--seed", "1", "--db", db,
                                 "--no-progress"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            while _games_stored(db) == 0:
                if proc.poll() is not None:
                    raise RuntimeError(f"delve simulate exited before a game was stored: "
                                       f"{proc.stderr.read()[-500:]}")
                if time.perf_counter() - t0 > timeout:
                    raise RuntimeError(f"no game stored within {timeout:.0f} s")
                time.sleep(0.1)
            seconds = time.perf_counter() - t0
        finally:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
        import duckdb
        with duckdb.connect(db, read_only=True) as con:
            has_run = con.execute("SELECT count(*) FROM runs").fetchone()[0] == 1
        return seconds, has_run
