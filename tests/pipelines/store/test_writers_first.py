"""Writers first (pipelines/store/connect.py): readers opening the file back to back cannot
starve a writer, and a flag left by a killed writer does not hold readers up.

Stop 37's CI: a simulation SIGTERMed while two dashboards refreshed it on a loaded machine
found the file held for the whole of its 15 s stop and left the run "running" (then
"stalled"), because readers that only retry always got in before the writer's next try."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import duckdb

from pipelines.store.connect import (READER_YIELD_S, WAITING_FRESH_S, WriterInstance,
                                     connect_read, writer_waiting_flag)

# A reader as a dashboard on a busy machine is: open through the store's retry loop, hold the
# file for a query, close, open again at once.  Two of them, overlapping, hold it all the time.
READER = """
import sys, time
from pipelines.store.connect import retrying_connect
print('reading', flush=True)
until = time.monotonic() + float(sys.argv[2])
while time.monotonic() < until:
    con = retrying_connect(sys.argv[1], read_only=True, timeout=60)
    time.sleep(0.15)
    con.close()
"""


def _readers(db: Path, n: int, seconds: float) -> list[subprocess.Popen]:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[3])}
    procs = []
    for _ in range(n):
        procs.append(subprocess.Popen([sys.executable, "-c", READER, str(db), str(seconds)],
                                      stdout=subprocess.PIPE, text=True, env=env))
        assert procs[-1].stdout.readline().strip() == "reading"
        time.sleep(0.07)        # staggered: one is always inside
    return procs


def test_a_writer_gets_the_file_from_readers_that_open_it_back_to_back(tmp_path):
    db = tmp_path / "busy.duckdb"
    with duckdb.connect(str(db)) as con:
        con.execute("CREATE TABLE t (x INTEGER)")
    procs = _readers(db, 2, seconds=40)
    try:
        time.sleep(1.0)
        duck = WriterInstance()
        t0 = time.monotonic()
        for i in range(3):          # three writes, as a stopping run's last flushes
            con = duck.attach(str(db), timeout=20)
            con.execute("INSERT INTO t VALUES (?)", [i])
            duck.detach(con)
        waited = time.monotonic() - t0
        duck.discard()
        assert waited < 3 * (READER_YIELD_S + 1), waited
        assert not writer_waiting_flag(db).exists()        # dropped once the writer is in
        for p in procs:
            assert p.poll() is None                        # the readers went on reading
    finally:
        for p in procs:
            p.kill()
            p.wait()
    with connect_read(db) as con:
        assert con.execute("SELECT count(*) FROM t").fetchone()[0] == 3


def test_a_flag_left_by_a_killed_writer_goes_stale_and_readers_ignore_it(tmp_path):
    db = tmp_path / "flag.duckdb"
    with duckdb.connect(str(db)) as con:
        con.execute("CREATE TABLE t AS SELECT 1 AS x")
    flag = writer_waiting_flag(db)
    flag.touch()
    old = time.time() - 2 * WAITING_FRESH_S
    os.utime(flag, (old, old))
    t0 = time.monotonic()
    with connect_read(db) as con:
        assert con.execute("SELECT x FROM t").fetchone()[0] == 1
    assert time.monotonic() - t0 < WAITING_FRESH_S          # no wait for a stale flag
    flag.touch()                                              # a fresh one: the reader waits,
    t0 = time.monotonic()                                     # until it goes stale
    with connect_read(db) as con:
        assert con.execute("SELECT x FROM t").fetchone()[0] == 1
    assert WAITING_FRESH_S * 0.8 < time.monotonic() - t0 < READER_YIELD_S + 1
