"""Issue 6, fault test 5: a read-only database, a full disk (a tiny tmpfs), a database from an
older schema: each gets a clear error (or is upgraded in place), and nothing is corrupted:
the games stored before stay whole and readable, and `delve check` passes on them."""

from __future__ import annotations

import contextlib
import subprocess

import duckdb
import pytest

from faults_helpers import counts, run_state
from pipeline_helpers import only_run_id
from pipelines.store import SCHEMA, connect_read


@contextlib.contextmanager
def tmpfs(path, size: str):
    """A tiny filesystem of its own at `path` (root with CAP_SYS_ADMIN, as on CI); skipped
    with the precise reason where mounting is not allowed."""
    path.mkdir()
    res = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)],
                         capture_output=True, text=True)
    if res.returncode != 0:
        pytest.skip(f"cannot mount a {size} tmpfs to simulate a full or read-only disk "
                    f"(`mount` exit {res.returncode}: {res.stderr.strip()}); needs root with "
                    f"CAP_SYS_ADMIN")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], capture_output=True)


def _remount(path, opts: str):
    subprocess.run(["mount", "-o", f"remount,{opts}", str(path)], check=True)


def _all_rows(db):
    with connect_read(db) as con:
        return {t: sorted(con.execute(f"SELECT * FROM {t}").fetchall(), key=repr)
                for t in SCHEMA}


def test_a_read_only_database_is_refused_and_kept(tmp_path, cli):
    with tmpfs(tmp_path / "ro", "64m") as mnt:
        db = mnt / "d.duckdb"
        assert cli("simulate", "toy", "--games", 4, "--players", 2, "--db", db,
                   "--no-progress").exit_code == 0
        before = _all_rows(db)
        _remount(mnt, "ro")
        res = cli("simulate", "toy", "--games", 4, "--players", 2, "--db", db, "--no-progress")
        assert res.exit_code == 2, res.output
        assert str(db) in res.stderr and "Read-only file system" in res.stderr
        assert "Traceback" not in res.output
        assert _all_rows(db) == before            # still readable, unchanged
        assert cli("check", "--db", db).exit_code == 0


def test_a_full_disk_stops_cleanly_keeps_whole_games_and_resumes(tmp_path, cli):
    games = 300
    with tmpfs(tmp_path / "full", "7m") as mnt:  # 4m before the aggregates' 11 tables (issue 16)
        db = mnt / "d.duckdb"
        res = cli("simulate", "glimmerdeep", "--games", games, "--bots", "random", "--seed", 2,
                  "--flush-seconds", 0, "--chunk-size", 10, "--db", db, "--no-progress")
        assert res.exit_code == 1, res.output
        assert "No space left on device" in res.stderr and str(db) in res.stderr
        assert "games written before are intact" in res.stderr
        run_id = only_run_id(db)
        assert f"delve simulate --resume {run_id}" in res.stderr
        assert "Traceback" not in res.output
        _, status, done = run_state(db)
        assert status == "failed" and 0 < done < games
        assert counts(db, run_id) == (done, done)   # only whole games, each once
        assert cli("check", "--db", db).exit_code == 0
        _remount(mnt, "size=256m")                   # room again: resume finishes the run
        res = cli("simulate", "--resume", run_id, "--db", db, "--no-progress")
        assert res.exit_code == 0, res.output
        assert counts(db, run_id) == (games, games) and run_state(db)[1] == "done"
        assert cli("check", "--db", db).exit_code == 0


OLD_SCHEMA = {  # an older Delve: fewer columns, no keys
    "runs": "run_id VARCHAR, created_at TIMESTAMP, game VARCHAR, label VARCHAR, variant VARCHAR, "
            "rules_hash VARCHAR, rules JSON, config JSON, seed BIGINT, n_games INTEGER, "
            "status VARCHAR, engine_version VARCHAR",
    "games": "run_id VARCHAR, game_id INTEGER, seed UBIGINT, n_players INTEGER, map VARCHAR, "
             "rounds INTEGER, steps INTEGER, first_seat INTEGER, winner_seat INTEGER, "
             "wall_ms DOUBLE",
    "players": "run_id VARCHAR, game_id INTEGER, seat INTEGER, faction VARCHAR, bot VARCHAR, "
               "score INTEGER, rank INTEGER, won BOOLEAN",
}


def _old_db(path, duplicate: bool = False):
    con = duckdb.connect(str(path))
    for table, cols in OLD_SCHEMA.items():
        con.execute(f"CREATE TABLE {table} ({cols})")
    con.execute("INSERT INTO runs VALUES ('old-run', now()::TIMESTAMP, 'toy', 'old', 'base', "
                "'h', '{}', '{}', 1, 2, 'done', '0.0.1')")
    for g in (0, 1) + ((1,) if duplicate else ()):
        con.execute("INSERT INTO games VALUES ('old-run', ?, 7, 2, 'm', 4, 10, 0, 1, 1.0)", [g])
    con.close()


def test_an_older_schema_is_upgraded_in_place_and_its_rows_kept(tmp_path, cli):
    db = tmp_path / "old.duckdb"
    _old_db(db)
    res = cli("simulate", "toy", "--games", 3, "--players", 2, "--db", db, "--no-progress")
    assert res.exit_code == 0, res.output
    with connect_read(db) as con:
        assert con.execute("SELECT game_id, seed, steps, ended_by FROM games WHERE run_id = "
                           "'old-run' ORDER BY game_id").fetchall() == [(0, 7, 10, None),
                                                                        (1, 7, 10, None)]
        assert con.execute("SELECT label, status, games_done FROM runs WHERE run_id = "
                           "'old-run'").fetchone() == ("old", "done", None)
        assert con.execute("SELECT count(*) FROM games").fetchone() == (5,)
    con = duckdb.connect(str(db))
    with pytest.raises(duckdb.ConstraintException):  # the key was added
        con.execute("INSERT INTO games (run_id, game_id) VALUES ('old-run', 1)")
    con.close()


def test_an_older_database_with_duplicates_gets_a_clear_error_and_is_left_alone(tmp_path, cli):
    db = tmp_path / "dup.duckdb"
    _old_db(db, duplicate=True)
    with connect_read(db) as con:
        cols_before = con.execute("SELECT table_name, column_name FROM information_schema.columns "
                                  "ORDER BY ALL").fetchall()
    before = {t: sorted(duckdb.connect(str(db), read_only=True).execute(
        f"SELECT * FROM {t}").fetchall(), key=repr) for t in OLD_SCHEMA}
    res = cli("simulate", "toy", "--games", 3, "--players", 2, "--db", db, "--no-progress")
    assert res.exit_code == 1, res.output
    assert "duplicate rows" in res.stderr and "'games'" in res.stderr and str(db) in res.stderr
    assert "Traceback" not in res.output
    with connect_read(db) as con:  # nothing changed: no column, no run, no game added
        assert con.execute("SELECT table_name, column_name FROM information_schema.columns "
                           "ORDER BY ALL").fetchall() == cols_before
        assert {t: sorted(con.execute(f"SELECT * FROM {t}").fetchall(), key=repr)
                for t in OLD_SCHEMA} == before
