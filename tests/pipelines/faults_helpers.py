"""Helpers of the fault tests: `delve` in a subprocess, waiting for a run to make progress."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
# `python -c` running the CLI with the tests' toy game registered too (as conftest does).
CLI = ("import sys; sys.path.insert(0, {here!r}); import toygame; "
       "from delve.cli import main; main()").format(here=str(HERE))


def delve(*args) -> list[str]:
    return [sys.executable, "-c", CLI, *[str(a) for a in args]]


def start(*args) -> subprocess.Popen:
    return subprocess.Popen(delve(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def run(*args, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(delve(*args), capture_output=True, text=True, timeout=timeout)


def run_state(db) -> tuple[str, str, int] | None:
    """(run_id, status, games_done) of the only run, or None before it exists."""
    from pipelines.store import connect_read
    if not Path(db).exists():
        return None
    try:
        with connect_read(db, timeout=10) as con:
            row = con.execute("SELECT run_id, status, coalesce(games_done, 0) FROM runs").fetchone()
    except Exception:  # the file exists but its tables are not there yet
        return None
    return row


def wait_for_games(proc: subprocess.Popen, db, at_least: int, timeout: float = 120):
    """Wait (bounded) until the run has stored `at_least` games; fail clearly if the process
    ends first or the deadline passes."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = run_state(db)
        if state is not None and state[2] >= at_least:
            return state
        if proc.poll() is not None:
            out, err = proc.communicate()
            raise AssertionError(f"simulate ended (exit {proc.returncode}) before storing "
                                 f"{at_least} games: {err[-2000:]}")
        time.sleep(0.05)
    proc.kill()
    raise AssertionError(f"no {at_least} games stored within {timeout}s")


def counts(db, run_id) -> tuple[int, int]:
    from pipelines.store import connect_read
    with connect_read(db) as con:
        return con.execute("SELECT count(*), count(DISTINCT game_id) FROM games WHERE run_id = ?",
                           [run_id]).fetchone()


# The kill tests' run (test_faults_kill.py, store/test_lagging_aggregates.py): long enough
# that the kill lands mid-run on a quiet machine too.  Greedy bots: a random game plays faster
# than the parent writes its chunk (--flush-seconds 0 writes every chunk), so with random bots
# the workers could finish every game while the parent was still writing the backlog, and the
# kill found them idle (fresh-clone CI, stops 21 and 22).  160 greedy games play about 20 s on
# one worker, the kill lands after 4 to 12 stored games.
KILL_GAMES = 160
KILL_ARGS = ("glimmerdeep", "--games", KILL_GAMES, "--players", 4, "--bots", "greedy", "--seed",
             61, "--chunk-size", 4, "--flush-seconds", 0, "--no-progress")


def clean_run(db):
    """An uninterrupted run of the kill tests' seed in `db`, on 2 workers."""
    res = run("simulate", *KILL_ARGS, "--jobs", 2, "--db", db)
    assert res.returncode == 0, res.stderr
