"""Issue 6, fault test 4: a game that raises (injected through the rules' test-only
`testing.raise_in_games`, off by default) is reported with its seed and the command that
reproduces it; the other games are written intact, and the run is marked `failed` for it
alone.  `delve replay` raises the same error again; resuming plays only the missing game."""

from __future__ import annotations

import pytest

from engine.core.play import InjectedFault
from engine.core.rng import game_seed
from pipeline_helpers import assert_aggregates_exact, dump, e2e_setup, only_run_id
from pipelines.store import connect_read

FAIL = 3


def _fault_variant(tmp_path, games=(FAIL,)):
    path = tmp_path / "raise.toml"
    path.write_text(f"[testing]\nraise_in_games = {list(games)}\nafter_steps = 4\n")
    return path


def _minus(rows, game_id):
    """The rows of every game but `game_id` (game_id is the first column of every table)."""
    return {t: [r for r in v if r[0] != game_id] for t, v in rows.items()}


@pytest.mark.parametrize("game,players,bots", [("toy", 3, "greedy,random,random"), e2e_setup()])
def test_a_failing_game_is_reported_and_the_others_are_written(tmp_path, cli, game, players,
                                                               bots):
    args = ("simulate", game, "--games", 8, "--players", players, "--bots", bots,
            "--seed", 5, "--chunk-size", 4, "--no-progress")
    clean, bad = tmp_path / "clean.duckdb", tmp_path / "bad.duckdb"
    assert cli(*args, "--db", clean).exit_code == 0
    res = cli(*args, "--variant", _fault_variant(tmp_path), "--db", bad)
    run_id = only_run_id(bad)
    assert res.exit_code == 1, res.output
    seed = game_seed(5, FAIL)
    assert f"game {FAIL} (seed {seed}): InjectedFault" in res.stderr
    assert f"delve replay {run_id} {FAIL} --db {bad}" in res.stderr
    assert "the other 7 games are written" in res.stderr and "Traceback" not in res.output
    with connect_read(bad) as con:
        status, error, done = con.execute("SELECT status, error, games_done FROM runs").fetchone()
        ids = [r[0] for r in con.execute("SELECT game_id FROM games ORDER BY game_id").fetchall()]
    assert status == "failed" and done == 7 and ids == [0, 1, 2, 4, 5, 6, 7]
    assert f"game {FAIL} (seed {seed}) raised InjectedFault" in error
    assert dump(bad) == _minus(dump(clean), FAIL)  # the others are intact, row for row
    assert_aggregates_exact(bad)                   # and their aggregates exact (issue 16)

    # The reproduce command raises the same error again, from the game's seed.
    with pytest.raises(InjectedFault, match=f"game {FAIL} \\(seed {seed}\\)"):
        cli("replay", run_id, FAIL, "--db", bad)
    # Resuming plays only the missing game: it raises again, nothing is duplicated.
    res = cli("simulate", "--resume", run_id, "--db", bad, "--no-progress")
    assert res.exit_code == 1 and f"game {FAIL} (seed {seed})" in res.stderr
    with connect_read(bad) as con:
        assert con.execute("SELECT count(*), count(DISTINCT game_id) FROM games").fetchone() \
            == (7, 7)
    assert_aggregates_exact(bad)


def test_the_fault_flag_is_off_by_default_and_changes_no_rules_hash(cli):
    from engine.core.registry import get_game
    game = get_game("glimmerdeep")
    rules = game.load_rules()
    assert rules.model.testing.raise_in_games == ()
    assert "testing" not in rules.canonical
    res = cli("rules", "glimmerdeep", "--diff-only")
    assert f"# rules hash: {rules.hash}" in res.stdout
