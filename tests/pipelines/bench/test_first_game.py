"""A big run starts as fast as a small one (issue 31): the plan and the chunks are made as they
are played, so `delve simulate` stores its first game within the same few seconds at 1,000 and
at 1,000,000 planned games, and the run's row is written before any game is played, so a run
killed at any moment can be resumed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import duckdb

from pipelines.bench.startup import FIRST_GAME_GOAL, first_game_seconds


def test_the_first_game_is_stored_as_soon_at_a_million_planned_games():
    small, row_small = first_game_seconds("glimmerdeep", 1_000)
    big, row_big = first_game_seconds("glimmerdeep", 1_000_000)
    assert row_small and row_big
    # 097fdb9 planned every game and chunk first: ~1 minute before the first game at 1,000,000
    assert big <= FIRST_GAME_GOAL * small + 2.0, (small, big)


def test_a_run_killed_before_its_first_game_can_be_resumed(tmp_path):
    db = str(tmp_path / "k.duckdb")
    args = [sys.executable, "-m", "delve", "simulate", "glimmerdeep", "--games", "120",
            "--players", "2", "--bots", "random", "--jobs", "1", "--seed", "4", "--db", db,
            "--no-progress"]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    run, t0 = None, time.perf_counter()
    while run is None and time.perf_counter() - t0 < 120:
        time.sleep(0.05)
        try:
            with duckdb.connect(db, read_only=True) as con:
                row = con.execute("SELECT run_id FROM runs").fetchone()
                run = row[0] if row else None
        except duckdb.Error:
            pass
    os.kill(proc.pid, signal.SIGKILL)                   # no chance to clean up
    proc.wait()
    assert run is not None, "the run's row never appeared"
    with duckdb.connect(db, read_only=True) as con:
        stored = con.execute("SELECT count(*) FROM games").fetchone()[0]
    assert stored < 120
    done = subprocess.run([sys.executable, "-m", "delve", "simulate", "--resume", run, "--db", db,
                           "--no-progress"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-800:]
    with duckdb.connect(db, read_only=True) as con:
        n, distinct = con.execute("SELECT count(*), count(DISTINCT game_id) FROM games").fetchone()
        status = con.execute("SELECT status FROM runs").fetchone()[0]
    assert n == distinct == 120 and status == "done"
