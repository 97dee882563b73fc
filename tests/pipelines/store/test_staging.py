"""Issue 18: a notebook (or any process) holding the database never locks a simulation out.

DuckDB lets no process write a file another process holds open, even read-only.  With a real
second process holding the file: `delve simulate` says within a few seconds that it is waiting
and which process holds it, keeps playing, parks its finished games on disk (bounded memory),
writes them all once the file is free — the same rows as a run nobody disturbed — and a run
that dies while games are parked gets them back when resumed."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import pyarrow as pa

from faults_helpers import run, start
from pipeline_helpers import dump, only_run_id
from pipelines.run.plan import make_plan
from pipelines.run.execute import make_tasks, play_chunk
from pipelines.store import Store, connect_read
from pipelines.store.staging import PatientWriter, recover_staged, staging_dir

# The holder tries the file until it gets in: a running simulation holds it for moments at a
# time while it writes (stop 33's CI: one try, made while the writer held it, failed the test).
HOLD = """
import sys, time
import duckdb
until = time.monotonic() + 60
while True:
    try:
        con = duckdb.connect(sys.argv[1], read_only=True)
        break
    except duckdb.IOException:
        if time.monotonic() > until:
            raise
        time.sleep(0.01)
print('held', flush=True)
sys.stdin.readline()
con.close()
"""


def _hold(db: Path) -> subprocess.Popen:
    """A second process with the database open read-only (as a notebook would) until told."""
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(db)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "held"
    return proc


def _release(proc: subprocess.Popen) -> None:
    proc.stdin.write("\n")
    proc.stdin.flush()
    proc.wait(timeout=30)


ARGS = ("simulate", "toy", "--games", "240", "--players", "3", "--bots", "greedy,random,random",
        "--seed", "5", "--chunk-size", "10", "--flush-seconds", "0.1", "--no-progress")


def test_simulate_waits_for_a_held_database_says_who_holds_it_and_loses_nothing(tmp_path):
    db = tmp_path / "held.duckdb"
    Store(db).ensure_schema()
    holder = _hold(db)
    lines: list[tuple[float, str]] = []
    t0 = time.monotonic()
    sim = start(*ARGS, "--db", db)
    reader = threading.Thread(target=lambda: [lines.append((time.monotonic() - t0, ln))
                                              for ln in sim.stderr], daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + 120
        while not any("Waiting for the database" in ln for _, ln in lines):
            assert sim.poll() is None, f"simulate ended while the file was held: {lines}"
            assert time.monotonic() < deadline, "no word of the wait"
            time.sleep(0.05)
        when, said = next((t, ln) for t, ln in lines if "Waiting for the database" in ln)
        assert f"PID {holder.pid}" in said          # DuckDB names the holder; so do we
        # within a few seconds of the first write attempt (process start-up included)
        assert when < 30, when
        # the games go on and are parked on disk, not held in memory
        parked = staging_dir(db, "x").parent
        while not list(parked.glob("*/*.done")):
            assert sim.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        assert sim.poll() is None                   # still waiting, not failed
    finally:
        _release(holder)
    sim.wait(timeout=300)
    reader.join(timeout=10)
    assert sim.returncode == 0, lines
    assert any("free again" in ln for _, ln in lines)
    assert not parked.exists() or not any(parked.iterdir())   # the staging folder is cleared
    run_id = only_run_id(db)
    with connect_read(db) as con:
        assert con.execute("SELECT status, games_done FROM runs").fetchone() == ("done", 240)
    # the same rows as an undisturbed run of the same plan
    ref = tmp_path / "ref.duckdb"
    done = run(*ARGS, "--db", ref)
    assert done.returncode == 0, done.stderr
    assert dump(db, run_id) == dump(ref, only_run_id(ref))


def _batch(plan, first: int, n: int) -> dict[str, pa.Table]:
    task = make_tasks(plan, n, True)[first // n]
    out = play_chunk(task)
    out.pop("failures")
    return out


def test_games_parked_by_a_run_that_died_are_written_when_it_resumes(tmp_path):
    db = tmp_path / "died.duckdb"
    plan = make_plan("toy", n_games=20, n_players=3, seed=2)
    store = Store(db, lock_timeout=5)
    said: list[str] = []
    writer = PatientWriter(store, "r1", say=said.append, notice_s=0.2)
    writer.create({"run_id": "r1", "game": "toy", "n_games": 20})
    assert writer.flush(_batch(plan, 0, 10)) == 10          # the file is free: written
    holder = _hold(db)
    try:
        assert writer.flush(_batch(plan, 10, 10)) == 0      # held: parked on disk
        time.sleep(0.3)
        writer.flush(None)                                  # still held: the user is told
        assert writer.parked_games == 10
        assert any(f"PID {holder.pid}" in s for s in said)
    finally:
        _release(holder)
    del writer                                              # the process "dies" here
    assert len(list(staging_dir(db, "r1").glob("*.done"))) == 1
    assert recover_staged(Store(db), "r1") == 10
    assert not staging_dir(db, "r1").exists()
    with connect_read(db) as con:
        ids = [r[0] for r in con.execute("SELECT game_id FROM games ORDER BY 1").fetchall()]
    assert ids == list(range(20))
    # recovering again (a crash right after the write, before the folder was removed) adds nothing
    assert recover_staged(Store(db), "r1") == 0


def test_a_run_stopped_while_a_reader_holds_the_file_waits_for_it_and_stops_cleanly(tmp_path):
    """A SIGTERM that lands while another process reads the file (a dashboard's query takes
    moments, more on a loaded machine) is an ordinary stop once the reader lets go within
    `STOP_WAIT_S`: exit 130, the run marked failed (resumable), every finished game written,
    nothing left staged.  (Stop 23's CI: the stop tried the file for 0.25 s only, found a
    dashboard reading, and left the run "running" with its last games staged.)"""
    import signal

    from faults_helpers import run_state
    from pipelines.store.staging import STOP_WAIT_S

    db = tmp_path / "stop.duckdb"
    sim = start("simulate", "toy", "--games", "200000", "--players", "3", "--seed", "5",
                "--chunk-size", "10", "--flush-seconds", "0.1", "--no-progress", "--db", db)
    try:
        deadline = time.monotonic() + 120
        while not ((st := run_state(db)) and st[2] >= 20):
            assert sim.poll() is None, sim.stderr.read()
            assert time.monotonic() < deadline
            time.sleep(0.1)
        holder = _hold(db)
        try:
            sim.send_signal(signal.SIGTERM)
            time.sleep(min(3.0, STOP_WAIT_S / 3))       # the stop finds the file held
            assert sim.poll() is None                   # ... and waits for it
        finally:
            _release(holder)
        assert sim.wait(timeout=120) == 130, sim.stderr.read()
    finally:
        if sim.poll() is None:
            sim.kill()
            sim.wait()
    run_id, status, done = run_state(db)
    with connect_read(db) as con:
        error, games = con.execute("SELECT error, (SELECT count(*) FROM games) FROM runs"
                                   ).fetchone()
    assert status == "failed" and "interrupted (SIGTERM): resumable" in error, error
    assert games == done > 20
    assert not staging_dir(db, run_id).exists()
