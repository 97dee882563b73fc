"""Issue 17, the queue of launched work (dashboard/jobs.py), with real `delve` processes and
real signals: one queue, at most `limit` runs at once, the others wait in order; a queued
launch is cancelled without ever starting, a running one with SIGTERM (its games kept whole,
the run resumable, then resumed to the end); with a Dask scheduler configured the launched
simulations play on that cluster."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from dashboard.jobs import LaunchQueue
from pipelines.store import connect_read

SIM = ["simulate", "glimmerdeep", "--players", "4", "--bots", "random", "--no-progress"]
DEADLINE_S = 180


def _runs(db: Path) -> dict[str, dict]:
    """label -> the run's row and its games count."""
    if not db.exists():
        return {}
    try:
        with connect_read(db, timeout=10) as con:
            cur = con.execute("SELECT r.*, (SELECT count(*) FROM games g WHERE g.run_id = r.run_id) "
                              "AS stored, (SELECT count(DISTINCT game_id) FROM games g "
                              "WHERE g.run_id = r.run_id) AS distinct_games FROM runs r")
            names = [d[0] for d in cur.description]
            return {row["label"]: row for row in (dict(zip(names, r)) for r in cur.fetchall())}
    except Exception:  # the tables are not there yet
        return {}


def _until(cond, what: str, queue: LaunchQueue, limit: int, seen: list[int]):
    deadline = time.monotonic() + DEADLINE_S
    while time.monotonic() < deadline:
        running = queue.running()
        seen.append(running)
        assert running <= limit, f"{running} launches running at once (limit {limit})"
        value = cond()
        if value:
            return value
        time.sleep(0.05)
    logs = "\n".join(f"{j.describe()} [{j.state}]: {j.log_tail()}" for j in queue.jobs())
    raise AssertionError(f"timed out waiting for {what}:\n{logs}")


def test_one_at_a_time_cancel_queued_and_running_then_resume(tmp_path):
    db = tmp_path / "queue.duckdb"
    queue = LaunchQueue(limit=1)
    seen: list[int] = []
    try:
        a = queue.submit("sim", [*SIM, "--games", "60", "--chunk-size", "2", "--flush-seconds",
                                 "0", "--label", "A", "--db", str(db)], db)
        b = queue.submit("sim", [*SIM, "--games", "4", "--label", "B", "--db", str(db)], db)
        c = queue.submit("sim", [*SIM, "--games", "4", "--label", "C", "--db", str(db)], db)
        assert [j.state for j in (a, b, c)] == ["running", "queued", "queued"]
        assert (queue.position(b), queue.position(c)) == (1, 2)

        assert queue.cancel(b.id) and b.state == "cancelled"       # queued: dropped at once
        assert queue.position(c) == 1
        _until(lambda: _runs(db).get("A", {}).get("stored", 0) >= 4, "A's first games",
               queue, 1, seen)
        assert c.state == "queued"                                  # waits for the slot

        assert queue.cancel(a.id)                                   # running: SIGTERM
        _until(lambda: a.state == "cancelled", "A to stop", queue, 1, seen)
        _until(lambda: c.state in ("done", "failed"), "C to finish", queue, 1, seen)
        assert c.state == "done", c.log_tail()

        runs = _runs(db)
        assert "B" not in runs                                      # never started
        ra = runs["A"]
        assert ra["status"] == "failed" and "interrupted (SIGTERM): resumable" in ra["error"]
        assert 4 <= ra["stored"] == ra["distinct_games"] == ra["games_done"] < 60  # whole games
        assert runs["C"]["status"] == "done" and runs["C"]["stored"] == 4

        r = queue.submit("resume", ["simulate", "--resume", ra["run_id"], "--db", str(db),
                                    "--no-progress"], db)
        _until(lambda: r.state in ("done", "failed"), "the resume", queue, 1, seen)
        assert r.state == "done", r.log_tail()
        ra = _runs(db)["A"]
        assert ra["status"] == "done" and ra["stored"] == ra["distinct_games"] == 60
        assert max(seen) == 1
    finally:
        queue.shutdown()


def test_the_limit_lets_two_run_at_once_and_shutdown_stops_them_resumable(tmp_path):
    db1, db2, db3 = (tmp_path / f"{i}.duckdb" for i in range(3))
    queue = LaunchQueue(limit=2)
    seen: list[int] = []
    try:
        jobs = [queue.submit("sim", [*SIM, "--games", "400", "--chunk-size", "2",
                                     "--flush-seconds", "0", "--label", f"L{i}", "--db", str(d)],
                             d) for i, d in enumerate((db1, db2, db3))]
        assert [j.state for j in jobs] == ["running", "running", "queued"]
        _until(lambda: all(_runs(d).get(f"L{i}", {}).get("stored", 0) >= 2
                           for i, d in enumerate((db1, db2))), "both to play", queue, 2, seen)
    finally:
        queue.shutdown()        # what the server does when it stops
    assert [j.state for j in jobs] == ["cancelled"] * 3
    for i, d in enumerate((db1, db2)):
        row = _runs(d)[f"L{i}"]
        assert row["status"] == "failed" and "resumable" in row["error"]
        assert row["stored"] == row["distinct_games"] == row["games_done"]
    assert not db3.exists() or not _runs(db3)


def test_launched_runs_go_to_the_configured_dask_cluster(tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    import logging
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                       host="127.0.0.1", protocol="tcp", dashboard_address=None,
                                       silence_logs=logging.ERROR)
    client = distributed.Client(cluster, set_as_default=False)
    db = tmp_path / "dask.duckdb"
    queue = LaunchQueue(limit=1, backend="dask", scheduler=cluster.scheduler_address)
    before = client.run_on_scheduler(lambda dask_scheduler: dask_scheduler.transition_counter)
    try:
        job = queue.submit("sim", [*SIM, "--games", "6", "--chunk-size", "2", "--label", "D",
                                   "--db", str(db)], db)
        assert job.args[-4:] == ["--backend", "dask", "--scheduler", cluster.scheduler_address]
        _until(lambda: job.state in ("done", "failed"), "the dask run", queue, 1, [])
        assert job.state == "done", job.log_tail()
        row = _runs(db)["D"]
        assert row["status"] == "done" and row["stored"] == 6
        cfg = json.loads(row["config"])
        assert (cfg["backend"], cfg["scheduler"]) == ("dask", cluster.scheduler_address)
        played = client.run_on_scheduler(lambda dask_scheduler: dask_scheduler.transition_counter)
        assert played > before, (before, played)   # the cluster's scheduler ran the chunks
    finally:
        queue.shutdown()
        client.close()
        cluster.close()
