"""Issue 6, fault tests 1 and 2: SIGKILL of `delve simulate` mid-run, and one joblib worker
killed mid-run.  Resuming plays exactly the missing games: the games table then holds exactly
N games, none twice, and every row equals an uninterrupted run of the same seed."""

from __future__ import annotations

import os
import signal

import psutil
import pytest

from faults_helpers import (KILL_ARGS, KILL_GAMES, clean_run, counts, run, run_state, start,
                           wait_for_games)
from pipeline_helpers import aggregate_rows, assert_aggregates_exact, dump

GAMES, ARGS = KILL_GAMES, KILL_ARGS     # faults_helpers: why greedy and how long


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    """The rows of an uninterrupted run of the same seed, and its aggregates (issue 16)."""
    db = tmp_path_factory.mktemp("clean") / "clean.duckdb"
    clean_run(db)
    return dump(db), aggregate_rows(db)


def _resume_and_compare(db, run_id, clean, via=("simulate", "--resume")):
    clean_rows, clean_aggregates = clean
    assert_aggregates_exact(db)            # the partial aggregates equal the games stored
    res = run(*via, run_id, "--db", db, "--no-progress")
    assert res.returncode == 0, res.stderr
    assert counts(db, run_id) == (GAMES, GAMES)          # exactly N, no duplicates
    assert run_state(db)[1:] == ("done", GAMES)
    assert dump(db) == clean_rows                          # the same rows as a clean run
    assert_aggregates_exact(db)
    assert aggregate_rows(db) == clean_aggregates          # and the same aggregates


def test_sigkill_of_simulate_then_resume_gives_the_uninterrupted_rows(tmp_path, clean):
    db = tmp_path / "killed.duckdb"
    proc = start("simulate", *ARGS, "--jobs", 1, "--db", db)
    try:
        run_id, status, done = wait_for_games(proc, db, at_least=12)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    run_id, status, done = run_state(db)
    assert proc.returncode == -signal.SIGKILL
    assert status == "running" and 12 <= done < GAMES, (status, done)
    assert counts(db, run_id) == (done, done)              # each stored game whole and once
    _resume_and_compare(db, run_id, clean)


def _loky_workers(pid: int) -> list[psutil.Process]:
    out = []
    for child in psutil.Process(pid).children(recursive=True):
        try:
            cmd = " ".join(child.cmdline())
        except psutil.Error:
            continue
        if "loky" in cmd and "resource_tracker" not in cmd:
            out.append(child)
    return out


def test_a_killed_worker_is_named_and_resume_completes(tmp_path, clean):
    db = tmp_path / "worker.duckdb"
    proc = start("simulate", *ARGS, "--jobs", 2, "--db", db)
    try:
        # As early as a chunk is stored: the workers play ahead of the parent's writes (one
        # write per chunk of 4, each with the aggregates), so by the time a loaded machine shows
        # 12 games they may have played all 320 and sit idle, and the run ends cleanly.
        wait_for_games(proc, db, at_least=4)
        workers = _loky_workers(proc.pid)
        assert workers, "no loky worker process found"
        for worker in workers:  # every worker: one that sits idle between tasks may be replaced
            os.kill(worker.pid, signal.SIGKILL)
        out, err = proc.communicate(timeout=300)  # slow under a loaded suite, not a hang
    finally:
        if proc.poll() is None:
            proc.kill()
    run_id, status, done = run_state(db)
    if proc.returncode == 0:  # pragma: no cover - the run ended before the kill landed
        pytest.fail("the run finished before the worker was killed; raise GAMES")
    assert proc.returncode == 1, err
    assert "worker process died" in err and "TerminatedWorkerError" in err, err
    assert f"delve simulate --resume {run_id}" in err
    assert "Traceback" not in err
    assert status == "failed" and done < GAMES
    assert counts(db, run_id) == (done, done)
    _resume_and_compare(db, run_id, clean, via=("resume",))  # the older command still works
