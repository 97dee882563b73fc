"""`delve ladder` and `delve tune` on a small budget (the statistical ladders are benchmarks,
README "Skill ladder"; here: the rungs, the runs they write, the intervals and the verdict)."""

from __future__ import annotations

import json

import duckdb

from pipelines.ladder.ladder import ladder_rungs, stored_ladder
from pipelines.ladder.match import wilson
from pipelines.ladder.tune import parse_grid
from pipelines.store import Store


def test_rungs_double_their_budget():
    assert ladder_rungs(50, 3) == ["random", "greedy", "mcts:50", "mcts:100", "mcts:200"]


def test_wilson_interval():
    lo, hi = wilson(50, 100)
    assert lo < 0.5 < hi and abs((lo + hi) / 2 - 0.5) < 1e-9
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


def test_grid_is_every_combination():
    assert parse_grid("c=0.3,1;depth=0,4") == [
        {"c": "0.3", "depth": "0"}, {"c": "0.3", "depth": "4"},
        {"c": "1", "depth": "0"}, {"c": "1", "depth": "4"}]


def test_ladder_command_writes_its_rungs_as_runs(tmp_path, cli):
    db = tmp_path / "l.duckdb"
    res = cli("ladder", "toy", "--players", 2, "--games", 8, "--budget", 8, "--rungs", 1,
              "--seed", 3, "--db", db)
    assert res.exit_code == 0, res.output
    assert "fair share 50.0%" in res.output
    assert "strongest validated rung:" in res.output
    lines = [ln for ln in res.output.splitlines() if ln.startswith(("greedy ", "mcts:8 "))]
    assert len(lines) == 2 and lines[1].split()[1] == "greedy"
    con = duckdb.connect(str(db), read_only=True)
    runs = con.execute("SELECT label, config, bots, n_games FROM runs ORDER BY run_id").fetchall()
    con.close()
    assert len(runs) == 4                          # 2 rungs x 2 seats
    cfgs = [json.loads(c) for _l, c, _b, _n in runs]
    lid = cfgs[0]["ladder"]["id"]
    assert all(r[0] == f"ladder {lid}" and r[3] == 4 for r in runs)
    assert {(c["ladder"]["rung"], c["ladder"]["seat"]) for c in cfgs} == {(1, 0), (1, 1),
                                                                            (2, 0), (2, 1)}
    assert {r[2] for r in runs} == {"greedy,random", "random,greedy", "mcts:8,greedy",
                                    "greedy,mcts:8"}
    stored = stored_ladder(Store(db), lid)
    assert [(r["spec"], r["below"], r["games"]) for r in stored] == [
        ("greedy", "random", 8), ("mcts:8", "greedy", 8)]


def test_ladder_rejects_a_bad_player_count(tmp_path, cli):
    res = cli("ladder", "toy", "--players", 9, "--db", tmp_path / "x.duckdb")
    assert res.exit_code == 2 and "--players 9" in res.output
    assert not (tmp_path / "x.duckdb").exists()


def test_tune_ranks_the_candidates(cli):
    res = cli("tune", "toy", "--players", 2, "--games", 4, "--budget", 6,
              "--grid", "c=0.3,1.0")
    assert res.exit_code == 0, res.output
    assert "mcts:6/c=0.3" in res.output and "mcts:6/c=1.0" in res.output
    assert "best: mcts:6/c=" in res.output


def test_tune_help_names_every_parameter_a_spec_can_override(cli):
    from engine.bots import OVERRIDES
    res = cli("tune", "--help")
    assert res.exit_code == 0, res.output
    text = " ".join(res.output.split())
    assert [k for k in OVERRIDES if k not in text] == []


def test_simulate_tiers_replays_the_same_games_at_each_tier(tmp_path, cli):
    db = tmp_path / "t.duckdb"
    res = cli("simulate", "toy", "--players", 2, "--games", 6, "--tiers", "random,mcts:6",
              "--seed", 4, "--no-progress", "--db", db)
    assert res.exit_code == 0, res.output
    con = duckdb.connect(str(db), read_only=True)
    runs = con.execute("SELECT run_id, bots, sweep_id, paired_with, "
                       "json_extract_string(config, '$.tier') FROM runs ORDER BY created_at"
                       ).fetchall()
    games = {r[0]: con.execute("SELECT seed, map FROM games WHERE run_id = ? ORDER BY game_id",
                               [r[0]]).fetchall() for r in runs}
    seats = {r[0]: con.execute("SELECT game_id, seat, faction FROM players WHERE run_id = ? "
                               "ORDER BY game_id, seat", [r[0]]).fetchall() for r in runs}
    con.close()
    assert [(r[1], r[4]) for r in runs] == [("random,random", "random"),
                                            ("mcts:6,mcts:6", "mcts:6")]
    assert runs[0][2] == runs[1][2] and runs[0][2].startswith("tiers-toy-")
    assert runs[1][3] == runs[0][0]
    a, b = runs[0][0], runs[1][0]
    assert games[a] == games[b] and seats[a] == seats[b]
    assert "random" in res.output and "mcts:6" in res.output
    # `delve compare` pairs two tiers game by game: the bot is the treatment, not a mismatch
    from pipelines.lab.compare import compare
    c = compare(db, a, b, heatmap=False)
    assert c.paired and c.n_pairs == 6, c.why
    assert "changes the bot in 12 seat(s)" in c.why


def test_tiers_must_be_distinct_bots(tmp_path, cli):
    res = cli("simulate", "toy", "--tiers", "greedy,greedy", "--db", tmp_path / "x.duckdb")
    assert res.exit_code == 2 and "--tiers" in res.output
