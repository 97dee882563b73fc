"""`delve simulate` end to end: the contract's tables and invariants, run status, determinism
across job counts, chunk sizes and backends, replay."""

from __future__ import annotations

import json

import pytest

from pipeline_helpers import dump, e2e_setup, only_run_id
from pipelines.store import connect_read

GAME, PLAYERS, BOTS = e2e_setup()
N = 8


def simulate(cli, db, *extra, games=N, seed=7):
    res = cli("simulate", GAME, "--games", games, "--players", PLAYERS, "--bots", BOTS,
              "--seed", seed, "--db", db, "--no-progress", *extra)
    assert res.exit_code == 0, res.output
    return res


@pytest.fixture(scope="module")
def one_run(tmp_path_factory):
    from click.testing import CliRunner

    from delve.cli import main
    db = tmp_path_factory.mktemp("run") / "delve.duckdb"
    res = CliRunner().invoke(main, ["simulate", GAME, "--games", str(N), "--players",
                                    str(PLAYERS), "--bots", BOTS, "--seed", "7", "--db", str(db),
                                    "--no-progress", "--label", "first"],
                             catch_exceptions=False)
    assert res.exit_code == 0, res.output
    return db, res


def test_simulate_prints_the_run_id_and_a_summary(one_run):
    db, res = one_run
    run_id = only_run_id(db)
    assert res.stdout.splitlines()[0] == run_id
    assert f"{N} games of {GAME}" in res.stdout and "games/s" in res.stdout
    assert "win rate" in res.stdout


def test_the_run_row(one_run):
    db, _ = one_run
    with connect_read(db) as con:
        cur = con.execute("SELECT * FROM runs")
        row = dict(zip([d[0] for d in cur.description], cur.fetchone()))
    assert row["status"] == "done" and row["game"] == GAME and row["n_games"] == N
    assert row["variant"] == "base" and row["label"] == "first" and row["seed"] == 7
    assert len(row["rules_hash"]) == 16 and json.loads(row["rules"])
    config = json.loads(row["config"])
    assert config["games"] == N and config["bots"] == BOTS and config["jobs"] == 1
    assert row["engine_version"] and row["finished_at"] >= row["created_at"]
    assert row["games_done"] == N


def test_invariant_score_events_sum_to_the_score(one_run):
    """DESIGN.md invariant: for every (run_id, game_id, seat), sum(points) = players.score."""
    db, _ = one_run
    with connect_read(db) as con:
        bad = con.execute("""
            SELECT p.run_id, p.game_id, p.seat, p.score, coalesce(sum(e.points), 0) AS total
            FROM players p LEFT JOIN score_events e
              ON e.run_id = p.run_id AND e.game_id = p.game_id AND e.seat = p.seat
            GROUP BY ALL HAVING p.score <> coalesce(sum(e.points), 0)""").fetchall()
    assert bad == []


def test_invariant_every_game_of_a_done_run_is_complete(one_run):
    """DESIGN.md invariant: every game of a done run has its players, moves and score events."""
    db, _ = one_run
    with connect_read(db) as con:
        rows = con.execute("""
            SELECT g.game_id, g.n_players,
                   (SELECT count(*) FROM players p WHERE p.run_id = g.run_id AND p.game_id = g.game_id),
                   (SELECT count(*) FROM moves m WHERE m.run_id = g.run_id AND m.game_id = g.game_id),
                   (SELECT count(*) FROM score_events e WHERE e.run_id = g.run_id AND e.game_id = g.game_id),
                   g.steps
            FROM games g JOIN runs r USING (run_id) WHERE r.status = 'done'
            ORDER BY g.game_id""").fetchall()
    assert [r[0] for r in rows] == list(range(N))
    for gid, n_players, n_p, n_m, n_e, steps in rows:
        assert n_p == n_players and n_m > 0 and n_e > 0, gid
        assert n_m == steps, gid


def test_players_ranks_and_winners_agree(one_run):
    db, _ = one_run
    with connect_read(db) as con:
        assert con.execute("""
            SELECT count(*) FROM games g WHERE winner_seat IS NOT NULL AND NOT EXISTS (
              SELECT 1 FROM players p WHERE p.run_id = g.run_id AND p.game_id = g.game_id
                AND p.seat = g.winner_seat AND p.won AND p.rank = 1)""").fetchone() == (0,)


def test_map_cells_cover_the_maps_moves_point_at(one_run):
    db, _ = one_run
    with connect_read(db) as con:
        assert con.execute("SELECT count(*) FROM map_cells WHERE game = ?", [GAME]).fetchone()[0] > 0
        orphans = con.execute("""
            SELECT count(*) FROM moves m JOIN games g USING (run_id, game_id)
            WHERE m.cell IS NOT NULL AND NOT EXISTS (
              SELECT 1 FROM map_cells c WHERE c.game = ? AND c.map = g.map AND c.cell = m.cell)""",
                              [GAME]).fetchone()[0]
    assert orphans == 0


def test_factions_rotate_over_seats_in_the_database(one_run):
    db, _ = one_run
    with connect_read(db) as con:
        per_seat = con.execute("SELECT seat, count(DISTINCT faction) FROM players GROUP BY seat"
                               ).fetchall()
    assert all(n > 1 for _, n in per_seat)


def test_same_rows_whatever_the_jobs_and_chunk_size(tmp_path, cli, one_run):
    """DESIGN.md, Determinism: the same run seed gives the same rows whatever the number of
    workers or chunk size (only wall_ms, created_at and run_id differ)."""
    base_db, _ = one_run
    every_table = ("runs", "games", "players", "moves", "score_events", "map_cells")
    expected = dump(base_db, tables=every_table)
    for i, extra in enumerate([("--jobs", 2), ("--jobs", 2, "--chunk-size", 3),
                               ("--jobs", 1, "--chunk-size", 1)]):
        db = tmp_path / f"d{i}.duckdb"
        simulate(cli, db, *extra)
        got = dump(db, tables=every_table)
        for table in every_table:
            assert got[table] == expected[table], (table, extra)


def test_runs_in_one_database_stay_apart(tmp_path, cli):
    db = tmp_path / "d.duckdb"
    simulate(cli, db, games=3, seed=1)
    simulate(cli, db, games=3, seed=2)
    with connect_read(db) as con:
        assert con.execute("SELECT count(*), count(DISTINCT run_id) FROM runs").fetchone() == (2, 2)
        assert con.execute("SELECT count(*) FROM games").fetchone() == (6,)
        # map cells are written once per game and map
        assert con.execute("SELECT count(*) = count(DISTINCT (game, map, cell)) FROM map_cells"
                           ).fetchone() == (True,)


def test_no_log_moves_keeps_scores(tmp_path, cli):
    db = tmp_path / "d.duckdb"
    simulate(cli, db, "--no-log-moves", games=3)
    with connect_read(db) as con:
        assert con.execute("SELECT count(*) FROM moves").fetchone() == (0,)
        assert con.execute("SELECT count(*) FROM score_events").fetchone()[0] > 0


def test_replay_rebuilds_the_game_and_matches_the_log(one_run, cli):
    db, _ = one_run
    res = cli("replay", "--db", db, only_run_id(db), 3)
    assert res.exit_code == 0, res.output
    assert "OK:" in res.stdout and "MISMATCH" not in res.stdout
    assert len(res.stdout.splitlines()) > 5


def test_state_at_step_rebuilds_the_game_up_to_a_logged_move(one_run):
    """The Replay page's board: the state after move N is the seeded game replayed up to the
    decision that logged N; step 0 is the setup; the last step gives the stored final scores."""
    from pipelines.run.replay import board_at_step, state_at_step
    from pipelines.store import connect_read

    db, _ = one_run
    rid = only_run_id(db)
    with connect_read(db) as con:
        steps = [r[0] for r in con.execute("SELECT step FROM moves WHERE run_id = ? AND "
                                            "game_id = 2 ORDER BY step", [rid]).fetchall()]
        stored = [r[0] for r in con.execute("SELECT score FROM players WHERE run_id = ? AND "
                                             "game_id = 2 ORDER BY seat", [rid]).fetchall()]
    _game, start = state_at_step(db, rid, 2, 0)
    assert start.log.m_step == [] and not start.is_over()
    middle = steps[len(steps) // 2]
    _game, mid = state_at_step(db, rid, 2, middle)
    assert mid.log.m_step[-1] == middle and not mid.is_over()
    _game, end = state_at_step(db, rid, 2, steps[-1])
    assert end.is_over() and [r.score for r in end.result()] == stored
    view = board_at_step(db, rid, 2, middle)
    assert view["cells"] and all(len(c) == 3 for c in view["cells"])


def test_replay_reports_a_tampered_log(tmp_path, cli):
    import duckdb
    db = tmp_path / "d.duckdb"
    simulate(cli, db, games=2)
    con = duckdb.connect(str(db))
    con.execute("UPDATE moves SET action = 'cheat' WHERE game_id = 1 AND step = "
                "(SELECT min(step) FROM moves WHERE game_id = 1)")
    con.close()
    res = cli("replay", "--db", db, "latest", 1)
    assert res.exit_code == 1
    assert "MISMATCH" in res.stdout and "cheat" in res.stderr


def test_replay_of_an_unknown_game_id(one_run, cli):
    db, _ = one_run
    res = cli("replay", "--db", db, "latest", 999)
    assert res.exit_code == 2 and "no game 999" in res.stderr


def test_a_failing_run_is_marked_failed(tmp_path, monkeypatch):
    from pipelines.run import execute as runner
    from pipelines.run.plan import make_plan
    from pipelines.store import Store

    def boom(task):
        raise RuntimeError("engine exploded")
    monkeypatch.setattr(runner, "play_chunk", boom)
    store = Store(tmp_path / "d.duckdb")
    with pytest.raises(RuntimeError):
        runner.run_plan(make_plan("toy", n_games=2, n_players=2), store, progress=False)
    with connect_read(store.path) as con:
        assert con.execute("SELECT status, error FROM runs").fetchone() == (
            "failed", "RuntimeError: engine exploded")


def test_an_interrupted_run_is_marked_failed(tmp_path, monkeypatch):
    from pipelines.run import execute as runner
    from pipelines.run.plan import make_plan
    from pipelines.store import Store

    def interrupt(task):
        raise KeyboardInterrupt
    monkeypatch.setattr(runner, "play_chunk", interrupt)
    store = Store(tmp_path / "d.duckdb")
    with pytest.raises(KeyboardInterrupt):
        runner.run_plan(make_plan("toy", n_games=2, n_players=2), store, progress=False)
    with connect_read(store.path) as con:
        status, error = con.execute("SELECT status, error FROM runs").fetchone()
    assert status == "failed" and "KeyboardInterrupt" in error


def test_games_and_rules_commands(cli, tmp_path):
    res = cli("games")
    assert res.exit_code == 0 and "toy" in res.stdout and "moles" in res.stdout
    variant = tmp_path / "longer.toml"
    variant.write_text("[game]\nrounds = 6\n")
    res = cli("rules", "toy", "--variant", variant, "--set", "costs.build=2")
    assert res.exit_code == 0, res.output
    assert "~ game.rounds: 4 -> 6" in res.stdout and "~ costs.build: 3 -> 2" in res.stdout
    assert "# rules hash:" in res.stdout
    base = cli("rules", "toy", "--diff-only")
    assert "no differences" in base.stdout


def test_a_run_killed_part_way_and_resumed_has_each_game_once(tmp_path, cli, monkeypatch):
    """DESIGN.md invariant: a run killed part-way and resumed has each game exactly once."""
    from pipelines.run import execute as runner
    clean, broken = tmp_path / "clean.duckdb", tmp_path / "broken.duckdb"
    simulate(cli, clean, "--chunk-size", 2, games=6)
    real = runner.play_chunk
    calls = []

    def dies_on_the_third_chunk(task):
        calls.append(task)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(task)
    monkeypatch.setattr(runner, "play_chunk", dies_on_the_third_chunk)
    res = cli("simulate", GAME, "--games", 6, "--players", PLAYERS, "--bots", BOTS, "--seed", 7,
              "--chunk-size", 2, "--db", broken, "--no-progress")
    assert res.exit_code == 130
    with connect_read(broken) as con:
        assert con.execute("SELECT status, games_done FROM runs").fetchone() == ("failed", 4)
    monkeypatch.setattr(runner, "play_chunk", real)
    res = cli("resume", only_run_id(broken), "--db", broken, "--no-progress")
    assert res.exit_code == 0, res.output
    with connect_read(broken) as con:
        assert con.execute("SELECT status, games_done FROM runs").fetchone() == ("done", 6)
        assert con.execute("SELECT count(*), count(DISTINCT game_id) FROM games").fetchone() == (6, 6)
    assert dump(broken) == dump(clean)
    res = cli("resume", only_run_id(broken), "--db", broken)
    assert res.exit_code == 2 and "already done" in res.stderr


def test_a_run_with_only_set_changes_is_not_named_like_the_base_game():
    """Stats audit N10: `--set` alone stored the variant as "base", so the What-if run picker
    could not tell it from the base run."""
    from pipelines.run.plan import make_plan
    assert make_plan("glimmerdeep", n_games=1, n_players=4).variant_name == "base"
    named = make_plan("glimmerdeep", n_games=1, n_players=4, sets=("game.rounds=4",)).variant_name
    assert named == "base + game.rounds=4"
    long = make_plan("glimmerdeep", n_games=1, n_players=4, sets=tuple("game.rounds=4" for _ in range(9)))
    assert len(long.variant_name) == 80 and long.variant_name.endswith("…")
