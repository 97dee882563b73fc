"""Issue 17, liveness: a running run records its writer (host, pid) and a heartbeat the writer
refreshes; `delve runs` and `delve check` tell a live run from a stalled one and say how to
resume it; a resumed or finished run is never shown as stalled.  With a real SIGKILL."""

from __future__ import annotations

import datetime as dt
import os
import signal
import socket
import time

from faults_helpers import counts, run, run_state, start, wait_for_games

from pipelines.store import Store, connect_read
from pipelines.store.liveness import STALL_AFTER_S, Liveness, liveness, stalled_text

GAMES = 160
ARGS = ("glimmerdeep", "--games", GAMES, "--players", 4, "--bots", "random", "--seed", 61,
        "--chunk-size", 4, "--flush-seconds", 0, "--no-progress")


def _row(db, run_id) -> dict:
    with connect_read(db) as con:
        cur = con.execute("SELECT * FROM runs WHERE run_id = ?", [run_id])
        return dict(zip([d[0] for d in cur.description], cur.fetchone()))


def _kill(proc):
    if proc.poll() is None:
        proc.kill()
        proc.wait()


def test_sigkilled_run_is_stalled_with_the_resume_command_then_resumed_is_not(tmp_path, cli):
    db = tmp_path / "live.duckdb"
    proc = start("simulate", *ARGS, "--jobs", 1, "--db", db)
    try:
        run_id, _, _ = wait_for_games(proc, db, at_least=8)
        row = _row(db, run_id)
        assert (row["host"], row["pid"]) == (socket.gethostname(), proc.pid)  # who writes it
        assert liveness(row) == Liveness("running")
        listed = cli("runs", "--db", db)
        assert f"{run_id}" in listed.stdout and "stalled" not in listed.stdout
        assert " running " in listed.stdout
        checked = cli("check", "--db", db)
        assert checked.exit_code == 0 and "live_run" in checked.stdout, checked.stdout

        # resuming a run that is still written would play its games twice: refused
        twice = run("simulate", "--resume", run_id, "--db", db, "--no-progress")
        assert twice.returncode == 2 and "still being written" in twice.stderr, twice.stderr

        proc.send_signal(signal.SIGKILL)                       # a real SIGKILL, mid-run
        proc.wait(timeout=30)
    finally:
        _kill(proc)
    _, status, done = run_state(db)
    assert status == "running" and done < GAMES              # the row still says running...
    live = liveness(_row(db, run_id))
    assert live.stalled and f"process {proc.pid}" in live.reason   # ...but it is stalled

    listed = cli("runs", "--db", db)
    line = next(ln for ln in listed.stdout.splitlines() if ln.startswith(run_id + " "))
    assert " stalled " in line and f"{done}/{GAMES}" in line
    assert (f"{run_id}: stalled since " in listed.stdout
            and f"resume with `delve simulate --resume {run_id} --db {db}`" in listed.stdout)
    checked = cli("check", "--db", db)
    assert checked.exit_code == 0, checked.stdout              # no invariant is broken
    assert "stalled_run" in checked.stdout and "stalled since" in checked.stdout

    resumed = start("simulate", "--resume", run_id, "--db", db, "--no-progress")
    try:  # while it resumes: a new writer, a fresh heartbeat, never stalled
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and resumed.poll() is None:
            row = _row(db, run_id)
            if row["pid"] == resumed.pid:
                assert not liveness(row).stalled
                break
            time.sleep(0.05)
        out, err = resumed.communicate(timeout=300)
    finally:
        _kill(resumed)
    assert resumed.returncode == 0, err
    assert counts(db, run_id) == (GAMES, GAMES)
    row = _row(db, run_id)
    assert row["status"] == "done" and liveness(row) == Liveness("done")
    listed = cli("runs", "--db", db)
    assert "stalled" not in listed.stdout and " done " in listed.stdout


def test_sigterm_leaves_a_failed_resumable_run_never_stalled(tmp_path):
    db = tmp_path / "term.duckdb"
    proc = start("simulate", *ARGS, "--jobs", 1, "--db", db)
    try:
        run_id, _, _ = wait_for_games(proc, db, at_least=4)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        _kill(proc)
    row = _row(db, run_id)
    assert row["status"] == "failed" and "resumable" in row["error"]
    assert liveness(row) == Liveness("failed")
    assert f"delve simulate --resume {run_id}" in err
    assert counts(db, run_id)[0] == row["games_done"]          # never half-written


def test_the_writer_refreshes_the_heartbeat_between_batches(tmp_path):
    """A chunk longer than the heartbeat interval does not make the writer look dead."""
    from pipelines.run.execute import _Heartbeat
    store = Store(tmp_path / "beat.duckdb")
    old = dt.datetime(2020, 1, 1)
    store.create_run({"run_id": "r", "game": "toy", "n_games": 1, "status": "running",
                      "host": socket.gethostname(), "pid": os.getpid(), "heartbeat_at": old})
    with _Heartbeat(store, "r", every=0.2):
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and store.run_row("r")["heartbeat_at"] == old:
            time.sleep(0.05)
    beat = store.run_row("r")["heartbeat_at"]
    assert beat > old and liveness(store.run_row("r")) == Liveness("running")
    store.finish_run("r", "done")
    store.heartbeat("r")                                      # a late beat changes nothing
    assert store.run_row("r")["heartbeat_at"] == beat


def test_a_silent_writer_on_another_host_is_stalled_after_the_stated_time():
    now = dt.datetime(2026, 1, 1, 12, 0, 0)
    row = {"status": "running", "host": "elsewhere", "pid": 1,
           "heartbeat_at": now - dt.timedelta(seconds=STALL_AFTER_S - 5)}
    assert liveness(row, now=now) == Liveness("running")
    late = dict(row, heartbeat_at=now - dt.timedelta(seconds=STALL_AFTER_S + 5))
    live = liveness(late, now=now)
    assert live.stalled and live.since == late["heartbeat_at"] and "no heartbeat" in live.reason
    assert stalled_text("R", live).startswith("stalled since 2026-01-01 11:58:55 UTC (")
    assert stalled_text("R", live).endswith("resume with `delve simulate --resume R`")
    assert liveness(dict(late, status="done"), now=now) == Liveness("done")
    assert liveness({"status": "running", "heartbeat_at": None}) == Liveness("running")  # old Delve


def test_a_state_names_the_status_it_was_read_from():
    from pipelines.store.liveness import Liveness
    assert [Liveness(s).status for s in ("running", "stalled", "done", "failed")] == \
        ["running", "running", "done", "failed"]
