"""queries.py against a real DuckDB file (the fixture database from conftest.py)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import duckdb
import pytest
from dashfix import DONE_LABEL, DONE_RUN, RUNNING_LABEL, RUNNING_RUN

from dashboard import queries, settings


def test_runs_overview_lists_runs_newest_first_with_games_stored(fixture_db: Path):
    runs = queries.runs_overview(str(fixture_db))
    assert runs.columns == list(queries.RUNS_COLUMNS)
    assert runs["run_id"].to_list() == [RUNNING_RUN, DONE_RUN]
    assert runs["label"].to_list() == [RUNNING_LABEL, DONE_LABEL]
    assert runs["status"].to_list() == ["running", "done"]
    assert runs["n_games"].to_list() == [10, 4]
    assert runs["games_stored"].to_list() == [2, 4]
    assert runs["rules_hash"].to_list() == [f"hash-{RUNNING_RUN}", f"hash-{DONE_RUN}"]
    assert runs["created_at"].to_list()[1] == dt.datetime(2024, 5, 1, 12, 0, 0)


def test_runs_overview_counts_zero_games_for_a_run_without_games(fixture_db: Path):
    con = duckdb.connect(str(fixture_db))
    con.execute(
        "INSERT INTO runs (run_id, created_at, game, label, n_games, status) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        ["run-0003", dt.datetime(2024, 6, 1), "glimmerdeep", "fresh", 5, "running"],
    )
    con.close()
    runs = queries.runs_overview(str(fixture_db))
    assert runs.row(0, named=True)["run_id"] == "run-0003"
    assert runs.row(0, named=True)["games_stored"] == 0


def test_runs_overview_of_a_database_without_tables_is_empty(tmp_path: Path):
    path = tmp_path / "bare.duckdb"
    duckdb.connect(str(path)).close()
    runs = queries.runs_overview(str(path))
    assert runs.is_empty()
    assert runs.columns == list(queries.RUNS_COLUMNS)


def test_runs_overview_of_empty_tables_is_empty(empty_db: Path):
    assert queries.runs_overview(str(empty_db)).is_empty()


def test_missing_database_raises_database_missing_and_creates_no_file(tmp_path: Path):
    path = tmp_path / "nope.duckdb"
    with pytest.raises(queries.DatabaseMissing):
        queries.runs_overview(str(path))
    assert not path.exists()


def test_a_file_that_is_not_duckdb_is_reported_as_unreadable(tmp_path: Path):
    path = tmp_path / "junk.duckdb"
    path.write_bytes(b"not a database" * 500)
    with pytest.raises(queries.DatabaseUnreadable):
        queries.runs_overview(str(path))


def test_missing_table_is_a_schema_mismatch(tmp_path: Path):
    path = tmp_path / "partial.duckdb"
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE runs (run_id VARCHAR)")
    con.close()
    with pytest.raises(queries.SchemaMismatch):
        queries.faction_summary(str(path), "x")


def test_faction_summary_win_rate_and_mean_score(fixture_db: Path):
    factions = queries.faction_summary(str(fixture_db), DONE_RUN)
    rows = {r["faction"]: r for r in factions.iter_rows(named=True)}
    assert set(rows) == {"dwarves", "goblins", "kobolds"}
    assert rows["dwarves"]["games"] == 4
    assert rows["dwarves"]["wins"] == 2
    assert rows["dwarves"]["win_rate"] == pytest.approx(0.5)
    assert rows["goblins"]["win_rate"] == pytest.approx(0.25)
    assert rows["kobolds"]["win_rate"] == pytest.approx(0.25)
    assert rows["dwarves"]["fair_share"] == pytest.approx(1 / 3)
    assert rows["dwarves"]["mean_score"] == pytest.approx(16.5)
    assert rows["goblins"]["mean_score"] == pytest.approx(14.0)
    assert factions["faction"].to_list()[0] == "dwarves"  # highest win rate first
    # every game has exactly one winner
    assert factions["wins"].sum() == 4


def test_faction_summary_only_reads_the_given_run(fixture_db: Path):
    factions = queries.faction_summary(str(fixture_db), RUNNING_RUN)
    assert factions["games"].sum() == 2 * 3
    assert queries.faction_summary(str(fixture_db), "no-such-run").is_empty()


def test_faction_summary_binds_the_run_id_as_a_parameter(fixture_db: Path):
    hostile = "x' OR '1'='1"
    assert queries.faction_summary(str(fixture_db), hostile).is_empty()


def test_points_by_category_sums_to_the_players_scores(fixture_db: Path):
    cats = queries.points_by_category(str(fixture_db), DONE_RUN)
    con = duckdb.connect(str(fixture_db), read_only=True)
    total_score = con.execute(
        "SELECT sum(score) FROM players WHERE run_id = ?", [DONE_RUN]
    ).fetchone()[0]
    con.close()
    assert cats["points"].sum() == total_score == 178
    rows = {r["category"]: r for r in cats.iter_rows(named=True)}
    assert rows["gems"]["points"] == 100
    assert rows["endgame"]["points_per_player_game"] == pytest.approx(48 / 12)
    assert cats["share"].sum() == pytest.approx(1.0)
    assert cats["category"].to_list() == ["gems", "endgame", "excavation"]


def test_read_frame_closes_its_connection_so_a_writer_can_open_the_file(fixture_db: Path):
    queries.runs_overview(str(fixture_db))
    # DuckDB refuses a read-write open next to a read-only one of the same file in the
    # same process; this succeeds only if the query helper let go of the file.
    con = duckdb.connect(str(fixture_db))
    con.execute("SELECT 1")
    con.close()


@pytest.mark.parametrize(
    ("argv", "env", "expected"),
    [
        (["--db", "a.duckdb"], {"DELVE_DB": "b.duckdb"}, "a.duckdb"),
        (["--db=a.duckdb"], {}, "a.duckdb"),
        ([], {"DELVE_DB": "b.duckdb"}, "b.duckdb"),
        ([], {}, "data/delve.duckdb"),
        (["-q", "--durations=5", "tests"], {}, "data/delve.duckdb"),
    ],
)
def test_database_path_from_command_line_then_env_then_default(argv, env, expected):
    assert settings.resolve_db_path(argv, env) == Path(expected)


def test_a_page_batch_shares_one_connection_and_releases_the_file(
        fixture_db: Path, monkeypatch: pytest.MonkeyPatch):
    opened = []
    real = queries.core._connect
    monkeypatch.setattr(queries.core, "_connect", lambda *a: opened.append(1) or real(*a))
    with queries.batch(fixture_db):
        queries.read_frame(fixture_db, "SELECT count(*) AS n FROM runs")
        queries.read_frame(fixture_db, "SELECT count(*) AS n FROM games")
        with queries.batch(fixture_db):  # nested: the same connection
            queries.read_frame(fixture_db, "SELECT 1 AS one")
    assert len(opened) == 1
    con = duckdb.connect(str(fixture_db))  # the batch is over: a writer gets the file
    con.close()
    queries.read_frame(fixture_db, "SELECT 1 AS one")
    queries.read_frame(fixture_db, "SELECT 1 AS one")
    assert len(opened) == 3  # outside a batch, one connection per query
