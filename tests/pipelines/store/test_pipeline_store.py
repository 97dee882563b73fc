"""The DuckDB store: the contract's tables, Arrow inserts, path validation, read retry."""

from __future__ import annotations

import datetime as dt

import duckdb
import pytest

from engine.core.errors import DelveError
from engine.core.protocol import MapCell
from pipelines.store import SCHEMA, Store, check_db_path, connect_read, resolve_run, to_arrow

CONTRACT = {
    "runs": "run_id created_at game label variant rules_hash rules config seed n_games status "
            "engine_version",
    "games": "run_id game_id seed n_players map rounds steps first_seat winner_seat ended_by wall_ms",
    "players": "run_id game_id seat faction bot score rank won",
    "moves": "run_id game_id step round phase seat action detail cell",
    "score_events": "run_id game_id step round seat category points",
    "map_cells": "game map cell x y kind",
}


def _batch(game_ids=(0, 1)):
    g = {"game_id": [], "seed": [], "n_players": [], "map": [], "rounds": [], "steps": [],
         "first_seat": [], "winner_seat": [], "ended_by": [], "wall_ms": []}
    p = {k: [] for k in ("game_id", "seat", "faction", "bot", "score", "rank", "won")}
    m = {k: [] for k in ("game_id", "step", "round", "phase", "seat", "action", "detail", "cell")}
    s = {k: [] for k in ("game_id", "step", "round", "seat", "category", "points")}
    for gid in game_ids:
        for k, v in dict(game_id=gid, seed=2**64 - 1 - gid, n_players=2, map="m", rounds=1,
                         steps=2, first_seat=0, winner_seat=None, ended_by="rounds",
                         wall_ms=1.5).items():
            g[k].append(v)
        for seat in (0, 1):
            for k, v in dict(game_id=gid, seat=seat, faction=f"f{seat}", bot="random", score=3,
                             rank=1, won=True).items():
                p[k].append(v)
            for k, v in dict(game_id=gid, step=seat + 1, round=1, phase="dig", seat=seat,
                             action="dig", detail="", cell=None if seat else 7).items():
                m[k].append(v)
            for cat, pts in (("dig", 1), ("coins", 2)):
                for k, v in dict(game_id=gid, step=seat + 1, round=1, seat=seat, category=cat,
                                 points=pts).items():
                    s[k].append(v)
    return {"games": to_arrow("games", g), "players": to_arrow("players", p),
            "moves": to_arrow("moves", m), "score_events": to_arrow("score_events", s)}


def test_contract_columns_exist_with_these_names(tmp_path):
    """DESIGN.md, 'The database contract': the public columns exist under these names."""
    db = tmp_path / "d.duckdb"
    Store(db).ensure_schema()
    with connect_read(db) as con:
        for table, cols in CONTRACT.items():
            have = {r[0] for r in con.execute(
                "SELECT column_name FROM information_schema.columns WHERE table_name = ?",
                [table]).fetchall()}
            assert set(cols.split()) <= have, table


def test_round_trip_on_a_real_file(tmp_path):
    db = tmp_path / "sub" / "d.duckdb"  # missing directories are created on first write
    store = Store(db)
    store.create_run({"run_id": "r1", "game": "toy", "label": "t", "variant": "base",
                      "rules_hash": "abc", "rules": {"a": 1}, "config": {"jobs": 1}, "seed": 5,
                      "n_games": 2, "engine_version": "0.1.0"})
    assert store.write_batch("r1", _batch()) == 2
    store.ensure_map_cells("toy", [MapCell("m", 0, 0, 0, "dirt"), MapCell("m", 1, 1, 0, "iron")])
    assert store.ensure_map_cells("toy", [MapCell("m", 0, 0, 0, "dirt")]) == 0  # already there
    store.finish_run("r1", "done", wall_s=1.0)
    row = store.run_row("r1")
    assert row["status"] == "done" and row["games_done"] == 2 and row["seed"] == 5
    assert isinstance(row["created_at"], dt.datetime) and row["finished_at"] >= row["created_at"]
    with connect_read(db) as con:
        assert con.execute("SELECT rules->>'a', config->>'jobs' FROM runs").fetchone() == ("1", "1")
        assert con.execute("SELECT count(*), max(seed) FROM games WHERE run_id = 'r1'").fetchone() \
            == (2, 2**64 - 1)
        assert con.execute("SELECT count(*) FROM players").fetchone() == (4,)
        assert con.execute("SELECT count(*), count(cell) FROM moves").fetchone() == (4, 2)
        assert con.execute("SELECT sum(points) FROM score_events").fetchone() == (12,)
        assert con.execute("SELECT count(*) FROM map_cells").fetchone() == (2,)
        assert con.execute("SELECT winner_seat FROM games LIMIT 1").fetchone() == (None,)
    assert resolve_run(db, "latest")["run_id"] == "r1"
    assert resolve_run(db, "r")["run_id"] == "r1"
    with pytest.raises(DelveError, match="Unknown run 'zz'"):
        resolve_run(db, "zz")


def test_a_failed_chunk_write_leaves_nothing(tmp_path):
    """A chunk is one transaction: a reader sees a game complete or not at all."""
    db = tmp_path / "d.duckdb"
    store = Store(db)
    store.ensure_schema()
    batch = _batch()
    with pytest.raises(RuntimeError):
        with store.write() as con:
            Store._insert(con, "games", batch["games"], "r1")
            raise RuntimeError("boom")
    with connect_read(db) as con:
        assert con.execute("SELECT count(*) FROM games").fetchone() == (0,)


def test_schema_has_every_contract_table():
    assert set(CONTRACT) <= set(SCHEMA)


@pytest.mark.parametrize("case", ["directory", "parent_is_file", "not_duckdb"])
def test_unwritable_db_paths_are_named(tmp_path, case):
    if case == "directory":
        bad = tmp_path
    elif case == "parent_is_file":
        (tmp_path / "afile").write_text("x")
        bad = tmp_path / "afile" / "d.duckdb"
    else:
        bad = tmp_path / "notes.duckdb"
        bad.write_text("these are my notes, not a database" * 3)
    with pytest.raises(DelveError) as err:
        check_db_path(bad)
    assert str(bad) in str(err.value)


def test_connect_read_waits_for_the_writer(tmp_path):
    """A reader that finds the file locked by another process retries instead of failing."""
    import subprocess
    import sys
    import time

    db = tmp_path / "d.duckdb"
    Store(db).ensure_schema()
    holder = subprocess.Popen([sys.executable, "-c",
                               "import duckdb, sys, time; c = duckdb.connect(sys.argv[1]); "
                               "print('held', flush=True); time.sleep(1.0); c.close()", str(db)],
                              stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "held"
    with pytest.raises(duckdb.IOException):
        duckdb.connect(str(db), read_only=True)
    t0 = time.perf_counter()
    with connect_read(db, timeout=30) as con:
        assert con.execute("SELECT count(*) FROM runs").fetchone() == (0,)
    assert time.perf_counter() - t0 > 0.2
    holder.wait(10)


def test_connect_read_names_a_missing_database(tmp_path):
    with pytest.raises(DelveError, match="does not exist"):
        with connect_read(tmp_path / "nope.duckdb"):
            pass
