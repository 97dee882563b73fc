"""`delve check`: the database contract's invariants as SQL, on a real Glimmerdeep run."""

import duckdb


def test_check_passes_on_a_fresh_run_and_catches_a_broken_score(cli, tmp_path):
    db = tmp_path / "d.duckdb"
    res = cli("simulate", "glimmerdeep", "--games", 6, "--players", 3, "--bots", "greedy,random,random",
              "--seed", 3, "--db", db, "--no-progress")
    assert res.exit_code == 0, res.output
    res = cli("check", "--db", db)
    assert res.exit_code == 0, res.output
    assert res.output.count("ok  ") == 4
    res = cli("check", "--db", db, "latest")
    assert res.exit_code == 0
    con = duckdb.connect(str(db))
    con.execute("UPDATE players SET score = score + 1 WHERE game_id = 2 AND seat = 1")
    # The primary key on games (run_id, game_id) makes a duplicate game impossible; the
    # games_once check still guards databases written before the key existed.
    try:
        con.execute("INSERT INTO games SELECT * FROM games WHERE game_id = 4")
        raise AssertionError("a duplicate game was accepted")
    except duckdb.ConstraintException:
        pass
    con.close()
    res = cli("check", "--db", db)
    assert res.exit_code == 1
    lines = {line.split()[1]: line for line in res.output.splitlines()}
    assert lines["score_sums"].startswith("FAIL") and "1 violations" in lines["score_sums"]
    assert lines["games_once"].startswith("ok")
    assert lines["move_cells_on_map"].startswith("ok")
