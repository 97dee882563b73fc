"""Issue 6, the writer: guided chunks, when the parent writes, few transactions per run, and the
writer's DuckDB settings; the rows stay the same whatever the chunking (DESIGN.md,
Determinism) and every write stays one transaction (DESIGN.md, the database contract)."""

from __future__ import annotations

import time

import duckdb
import pytest

from pipeline_helpers import dump
from pipelines.run import execute as runner
from pipelines.run.plan import default_chunk_size, make_plan
from pipelines.run.execute import _Pending, chunk_sizes, make_tasks, run_plan
from pipelines.store import Store, connect_read
from test_pipeline_store import _batch

EVERY_TABLE = ("runs", "games", "players", "moves", "score_events", "map_cells")


@pytest.mark.parametrize("n,jobs", [(1, 2), (3, 2), (10, 2), (300, 2), (1500, 2), (300, 8),
                                    (100_000, 2), (300, 1)])
def test_guided_chunks_cover_every_game_once_and_shrink_towards_the_end(n, jobs):
    sizes = chunk_sizes(n, jobs)
    assert sum(sizes) == n and min(sizes) >= 1
    assert max(sizes) <= default_chunk_size(n, jobs)            # never above the default
    assert sizes == sorted(sizes, reverse=True)                 # the small ones come last
    if jobs > 1:  # the last chunks are a 1/(TAIL_CHUNKS x jobs) share of the run, at most
        floor = min(default_chunk_size(n, jobs), -(-n // (jobs * runner.TAIL_CHUNKS)))
        assert sizes[-1] <= floor
        if 300 <= n <= 5000:  # (a long run's chunks are all the default, 50 games)
            assert sizes[-1] <= sizes[0] // 3


def test_a_given_chunk_size_is_kept():
    assert chunk_sizes(23, 2, 5) == [5, 5, 5, 5, 3]
    assert chunk_sizes(0, 2) == []
    plan = make_plan("toy", n_games=23, n_players=2)
    tasks = make_tasks(plan, None, True, jobs=2)
    assert [s.index for t in tasks for s in t.specs] == list(range(23))
    assert [len(t.specs) for t in make_tasks(plan, 5, True)] == [5, 5, 5, 5, 3]


def _run(db, *, jobs, chunk_size=None, n=12, flush_s=0.5):
    plan = make_plan("toy", n_games=n, n_players=3, bots="greedy,random,random", seed=9)
    return run_plan(plan, Store(db), jobs=jobs, chunk_size=chunk_size, progress=False,
                    flush_s=flush_s)


def test_guided_chunks_give_the_rows_of_one_game_per_chunk(tmp_path):
    """DESIGN.md, Determinism: the same rows whatever the workers and the chunking (here the
    guided chunks of two loky workers against one game per chunk in one process)."""
    _run(tmp_path / "a.duckdb", jobs=1, chunk_size=1)
    summary = _run(tmp_path / "b.duckdb", jobs=2)
    assert summary.status == "done" and summary.games_written == 12
    assert dump(tmp_path / "a.duckdb", tables=EVERY_TABLE) == \
        dump(tmp_path / "b.duckdb", tables=EVERY_TABLE)


def test_a_run_is_two_transactions_when_nothing_is_due(tmp_path, monkeypatch):
    """The run row and the map cells are one write; the games and the status another."""
    monkeypatch.setattr(_Pending, "due", lambda self: False)
    db = tmp_path / "d.duckdb"
    summary = _run(db, jobs=1, chunk_size=3)
    assert summary.writes == 2, summary.writes
    assert summary.write_s > 0 and summary.write_cpu_s > 0
    with connect_read(db) as con:
        assert con.execute("SELECT status, games_done, n_games FROM runs").fetchone() == \
            ("done", 12, 12)
        assert con.execute("SELECT count(*) FROM games").fetchone() == (12,)
        assert con.execute("SELECT count(*) FROM map_cells").fetchone()[0] > 0


def test_flush_seconds_zero_writes_every_chunk(tmp_path):
    summary = _run(tmp_path / "d.duckdb", jobs=1, chunk_size=3, flush_s=0)
    assert summary.writes == 1 + 4                # the run row, then one write per chunk


def test_the_last_games_and_the_status_are_one_transaction(tmp_path):
    db = tmp_path / "d.duckdb"
    store = Store(db)
    store.create_run({"run_id": "r1", "game": "toy", "n_games": 2}, map_cells=("toy", []))
    writes = store.writes
    store.write_batch("r1", _batch(), finish={"status": "done", "error": None, "wall_s": 2.0})
    assert store.writes == writes + 1
    row = store.run_row("r1")
    assert (row["status"], row["games_done"], row["wall_s"]) == ("done", 2, 2.0)
    assert row["finished_at"] is not None


def test_a_failing_last_write_leaves_the_run_running_and_its_games_out(tmp_path):
    """The games and the status are one transaction: if it fails, neither is written."""
    db = tmp_path / "d.duckdb"
    store = Store(db)
    store.create_run({"run_id": "r1", "game": "toy", "n_games": 4})
    store.write_batch("r1", _batch((0, 1)))
    with pytest.raises(Exception, match="already has some of these games"):
        store.write_batch("r1", _batch((1, 2)), finish={"status": "done", "error": None,
                                                        "wall_s": 1.0})
    row = store.run_row("r1")
    assert (row["status"], row["games_done"]) == ("running", 2)


def test_the_writer_settings_leave_no_wal_and_readers_see_every_commit(tmp_path):
    """Checkpoint at commit: once the writer closes, the file alone holds the data (no WAL for
    a reader to replay), and a database the writer creates is in storage format v1.3.0."""
    db = tmp_path / "d.duckdb"
    store = Store(db)
    store.create_run({"run_id": "r1", "game": "toy", "n_games": 2})
    store.write_batch("r1", _batch())
    assert not (tmp_path / "d.duckdb.wal").exists()
    with connect_read(db) as con:
        assert con.execute("SELECT count(*) FROM moves").fetchone() == (4,)
        tags = con.execute("SELECT tags FROM duckdb_databases() WHERE database_name = 'd'"
                           ).fetchone()[0]
    assert tags["storage_version"].startswith("v1.3")


def test_an_existing_database_keeps_its_storage_format(tmp_path):
    db = tmp_path / "old.duckdb"
    duckdb.connect(str(db)).close()      # DuckDB's default format
    store = Store(db)
    store.create_run({"run_id": "r1", "game": "toy", "n_games": 2})
    store.write_batch("r1", _batch())
    with connect_read(db) as con:
        tags = con.execute("SELECT tags FROM duckdb_databases() WHERE database_name = 'old'"
                           ).fetchone()[0]
        assert con.execute("SELECT count(*) FROM games").fetchone() == (2,)
    assert not tags["storage_version"].startswith("v1.3")


def test_pending_chunks_are_written_near_the_end_not_after_it():
    """The end-phase rule: write when writing the pending games would take about as long as
    the workers need for the games left; never hold back only to write the last chunk."""
    t0 = time.perf_counter() - 10.0                 # 10 s into the run
    pending = _Pending(100, flush_s=0.5, first_cost=0.0, t0=t0)
    pending.interval = 1e9                           # no periodic write in this test
    pending.per_game = 0.01                          # 10 ms to write a game
    pending.add(_batch(range(50)), failed=0)         # 50 of 100 games in 10 s: 10 s left
    assert not pending.due()                         # writing 50 games takes 0.5 s < 10 s
    pending.add(_batch(range(50, 97)), failed=0)     # 3 games left: 0.3 s of play
    assert pending.due()                             # 97 games take 0.97 s to write: now
    pending.written(97, 0.9)
    assert pending.games == 0 and not pending.due()
    pending.add(_batch(range(97, 99)), failed=1)     # the last chunk: the final write
    assert pending.remaining == 0 and not pending.due()


def test_pending_chunks_are_written_at_least_every_interval():
    pending = _Pending(100, flush_s=0.0, first_cost=0.0, t0=time.perf_counter())
    pending.add(_batch((0,)), failed=0)
    assert pending.due()                             # flush_s=0: every chunk
    pending = _Pending(100, flush_s=0.5, first_cost=0.01, t0=time.perf_counter())
    assert pending.interval == pytest.approx(max(0.5, 0.01 * (1 / runner.WRITER_SHARE - 1)))
    pending.written(10, 1000.0)                      # a very slow write
    assert pending.interval == runner.MAX_FLUSH_S    # readers still see progress


def test_bench_reports_the_writer_and_the_workers(tmp_path):
    """`delve bench` section 2: writer share (wall and CPU), writes, parent CPU, occupancy."""
    from pipelines.bench.engine import pipeline_run, report
    row = pipeline_run("toy", games=6, workers=1, players=3)
    assert row.writes >= 2 and 0 < row.write_cpu_s <= row.parent_cpu_s + 0.05
    assert 0 < row.occupancy <= 1.05 and row.play_s > 0
    lines: list[str] = []
    report(["toy"], games=2, players=3, seed=0, pipeline_games=6, long_games=0, peer=None,
           peer_seconds=1.0, repeat=2, echo=lines.append)
    text = "\n".join(lines)
    assert "fastest of 2 runs" in text and "occupancy" in text and "writer CPU" in text
    assert "2 workers / 1 worker" in text


def test_the_writer_counts_its_cpu_by_part(tmp_path):
    """Where the writer's CPU goes (issue 16's writer share): each write transaction's attach,
    raw rows, aggregates, commit (its checkpoint) and detach, within its CPU in all; the run's
    summary has its own increase, and `delve bench` prints it per game."""
    from pipelines.bench.engine import format_write_parts, pipeline_run
    store = Store(tmp_path / "w.duckdb")
    store.ensure_schema()
    before = dict(store.write_parts)
    summary = run_plan(make_plan("toy", n_games=6, n_players=3), store, jobs=1, progress=False)
    parts = summary.write_parts
    assert set(parts) >= {"attach", "raw rows", "aggregates", "commit", "detach"}
    assert min(parts.values()) > 0
    assert sum(parts.values()) <= summary.write_cpu_s + 1e-6
    assert {k: store.write_parts[k] - before.get(k, 0.0) for k in parts} == pytest.approx(parts)
    row = pipeline_run("toy", games=4, workers=1, players=3)
    text = format_write_parts(row)
    assert "ms per game by part" in text and "aggregates" in text and "commit" in text


def test_back_to_back_writes_leave_readers_a_window(tmp_path, monkeypatch):
    """DESIGN.md, the database contract: a simulation must not hold the file between chunks in
    a way that locks the dashboard out.  Writes that come back to back (`--flush-seconds 0`, a
    loaded machine) leave the file free for READER_WINDOW_S between the end of one and the
    start of the next (a reader retries about every 0.1 s), and nothing waits otherwise."""
    from pipelines.store import writer as store_writer
    monkeypatch.setattr(store_writer, "READER_WINDOW_S", 0.2)  # far above an empty write's cost
    store = Store(tmp_path / "gap.duckdb")
    store.ensure_schema()
    gaps = []
    for _ in range(3):
        ended = store.last_write
        with store.write():
            gaps.append(time.monotonic() - ended)
    assert min(gaps) >= 0.2
    time.sleep(0.25)                 # a write long after the last one does not wait
    t0 = time.monotonic()
    with store.write():
        assert time.monotonic() - t0 < 0.2
