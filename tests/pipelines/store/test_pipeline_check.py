"""`delve check`: the database contract's invariants as SQL, on a real Glimmerdeep run."""

import duckdb


def test_check_passes_on_a_fresh_run_and_catches_a_broken_score(cli, tmp_path):
    db = tmp_path / "d.duckdb"
    res = cli("simulate", "glimmerdeep", "--games", 6, "--players", 3, "--bots", "greedy,random,random",
              "--seed", 3, "--db", db, "--no-progress")
    assert res.exit_code == 0, res.output
    res = cli("check", "--db", db)
    assert res.exit_code == 0, res.output
    assert res.output.count("ok  ") == 5  # the contract's 4 invariants and the aggregates
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
    # the changed score no longer matches the aggregates kept from the written rows (issue 16)
    assert lines["aggregates"].startswith("FAIL") and "agg_seats" in lines["aggregates"]


def test_a_game_in_which_nobody_scored_needs_no_score_events(cli, tmp_path):
    """A cave-colony game stopped at its turn limit with no colony card completed has no score
    events (a zero is no event): done_games_complete accepts it, and still flags a game whose
    players scored but whose score events are missing; players.held_cards is filled."""
    db = tmp_path / "c.duckdb"
    res = cli("simulate", "cave_colony", "--games", 4, "--players", 2, "--seed", 1,
              "--set", "game.turn_limit=3", "--db", db, "--no-progress")
    assert res.exit_code == 0, res.output
    con = duckdb.connect(str(db))
    assert con.execute("SELECT count(*) FROM score_events").fetchone() == (0,)
    assert con.execute("SELECT count(*) FROM players WHERE held_cards LIKE 'pos_% neg_% eq_%'"
                       ).fetchone() == (8,)
    con.close()
    res = cli("check", "--db", db)
    assert res.exit_code == 0, res.output
    con = duckdb.connect(str(db))
    con.execute("UPDATE players SET score = 1 WHERE game_id = 1 AND seat = 0")
    con.close()
    res = cli("check", "--db", db)
    lines = {line.split()[1]: line for line in res.output.splitlines()}
    assert res.exit_code == 1 and lines["done_games_complete"].startswith("FAIL")
