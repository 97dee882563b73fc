"""`delve ladder` and `delve tune` on a small budget (the statistical ladders are benchmarks,
README "Skill ladder"; here: the rungs, the runs they write, the intervals and the verdict)."""

from __future__ import annotations

import json

import duckdb

from pipelines.ladder.ladder import ladder_rungs, per_seat_games, stored_ladder
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
    per_seat = per_seat_games("toy", 8, 2)
    assert per_seat >= 4 and per_seat % cycle("toy", 2) == 0
    con = duckdb.connect(str(db), read_only=True)
    runs = con.execute("SELECT label, config, bots, n_games, seed FROM runs ORDER BY run_id"
                       ).fetchall()
    con.close()
    assert len(runs) == 4                          # 2 rungs x 2 seats
    cfgs = [json.loads(c) for _l, c, _b, _n, _s in runs]
    lid = cfgs[0]["ladder"]["id"]
    assert all(r[0] == f"ladder {lid}" and r[3] == per_seat for r in runs)
    assert {(c["ladder"]["rung"], c["ladder"]["seat"]) for c in cfgs} == {(1, 0), (1, 1),
                                                                            (2, 0), (2, 1)}
    assert {r[2] for r in runs} == {"greedy,random", "random,greedy", "mcts:8,greedy",
                                    "greedy,mcts:8"}
    # duplicate deals: a seat's run has the same seed in every rung
    assert {(c["ladder"]["seat"], s) for (_l, _c, _b, _n, s), c in zip(runs, cfgs)} == {
        (0, 3), (1, 4)}
    stored = stored_ladder(Store(db), lid)
    assert [(r["spec"], r["below"], r["games"]) for r in stored] == [
        ("greedy", "random", 2 * per_seat), ("mcts:8", "greedy", 2 * per_seat)]


def cycle(game_id: str, players: int) -> int:
    from engine.core.registry import get_game
    from pipelines.run import seating
    g = get_game(game_id)
    return seating.make_design(list(g.factions(g.load_rules().model)), players, 0).cycle


def test_a_rung_holds_the_same_deals_and_every_faction_equally_often_at_its_seat(tmp_path, cli):
    """The rungs are paired game by game (the same seed, map and factions at every seat), and
    the rung's seat holds every faction equally often (whole seating cycles)."""
    db = tmp_path / "l.duckdb"
    res = cli("ladder", "toy", "--players", 2, "--games", 6, "--specs",
              "random,greedy,mcts:6,mcts:12", "--vs", "greedy", "--seed", 11, "--db", db)
    assert res.exit_code == 0, res.output
    con = duckdb.connect(str(db), read_only=True)
    rows = con.execute(
        "SELECT json_extract(r.config, '$.ladder.rung')::INT, "
        "json_extract(r.config, '$.ladder.seat')::INT AS seat, g.game_id, g.seed, g.map, "
        "list(p.faction ORDER BY p.seat) FROM runs r JOIN games g USING (run_id) "
        "JOIN players p USING (run_id, game_id) GROUP BY ALL ORDER BY 1, 2, 3").fetchall()
    held = con.execute(
        "SELECT p.faction, count(*) FROM runs r JOIN players p USING (run_id) "
        "WHERE p.seat = json_extract(r.config, '$.ladder.seat')::INT "
        "AND json_extract(r.config, '$.ladder.rung')::INT = 1 GROUP BY 1").fetchall()
    con.close()
    deals = {}
    for rung, seat, game, seed, mp, factions in rows:
        deals.setdefault(rung, []).append((seat, game, seed, mp, tuple(factions)))
    assert sorted(deals) == [1, 2, 3] and deals[1] == deals[2] == deals[3]
    assert len(deals[1]) >= 6
    assert len({n for _f, n in held}) == 1, held     # every faction equally often
    # with --vs greedy: greedy itself plays random; the search rungs play greedy, the upper
    # one tested by its paired gain over the lower on the same deals
    lid = json.loads(duckdb.connect(str(db), read_only=True).execute(
        "SELECT any_value(config) FROM runs").fetchone()[0])["ladder"]["id"]
    stored = stored_ladder(Store(db), lid)
    assert [(r["spec"], r["below"], r["against"]) for r in stored] == [
        ("greedy", "random", "fair share"), ("mcts:6", "greedy", "fair share"),
        ("mcts:12", "greedy", "mcts:6 (paired)")]
    assert "mcts:6 (paired)" in res.output


def test_validation_is_holm_corrected_and_a_chain_from_the_bottom():
    from pipelines.ladder.ladder import Rung, strongest, validate
    strong = Rung(1, "greedy", "random", games=400, wins=300.0)     # 75% against 50% fair
    weak = Rung(2, "mcts:8", "greedy", games=400, wins=190.0)       # below the fair share
    top = Rung(3, "mcts:16", "mcts:8", games=400, wins=260.0)
    validate([strong, weak, top], 0.5, None)
    assert strong.validated and not weak.validated and not top.validated   # the chain broke
    assert strongest([strong, weak, top]) == "greedy"
    assert strong.p_holm >= strong.p_value and weak.p_holm == 1.0
    # a rung just significant on its own is not after Holm over three rungs
    a = Rung(1, "greedy", "random", games=400, wins=221.0)
    from pipelines.stats import rate_test
    assert rate_test(221.0, 400, 0.5) < 0.05
    validate([a, Rung(2, "x", "y", games=400, wins=200.0), Rung(3, "z", "w", games=400,
                                                                 wins=200.0)], 0.5, None)
    assert not a.validated and a.p_holm > 0.05


def test_with_vs_a_later_rung_is_validated_by_its_paired_gain():
    from pipelines.ladder.ladder import Rung, paired_gain, validate
    keys = [(s, g, 100 + g) for s in range(2) for g in range(100)]
    first = Rung(1, "mcts:8", "greedy", games=200, wins=130.0,
                 credits={k: 1.0 if i % 20 < 13 else 0.0 for i, k in enumerate(keys)})
    # the second wins every deal the first won, and 40 more: a paired gain of +20 points
    more = dict(first.credits)
    extra = [k for k, v in more.items() if v == 0.0][:40]
    more.update({k: 1.0 for k in extra})
    second = Rung(2, "mcts:16", "greedy", games=200, wins=sum(more.values()), credits=more)
    n, d, lo, hi, p = paired_gain(first.credits, second.credits)
    assert n == 200 and abs(d - 0.20) < 1e-12 and 0 < lo < d < hi and p < 1e-6
    validate([first, second], 0.5, "greedy")
    assert first.against == "fair share" and second.against == "mcts:8 (paired)"
    assert first.validated and second.validated
    # the same share without pairs (older ladders) falls back to the fair share
    lone = Rung(2, "mcts:16", "greedy", games=200, wins=120.0)
    validate([Rung(1, "mcts:8", "greedy", games=200, wins=130.0), lone], 0.5, "greedy")
    assert lone.against == "fair share" and lone.validated


def test_ladder_specs_must_be_bots(tmp_path, cli):
    res = cli("ladder", "toy", "--specs", "random", "--db", tmp_path / "x.duckdb")
    assert res.exit_code == 2 and "--specs" in res.output
    res = cli("ladder", "toy", "--specs", "random,nosuchbot", "--db", tmp_path / "x.duckdb")
    assert res.exit_code == 2 and "--specs" in res.output
    assert not (tmp_path / "x.duckdb").exists()


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


def test_the_tiers_table_keeps_long_tier_names_apart(tmp_path, cli):
    """A tier spec longer than a column (`greedy` then a tuned search's spec) is still
    separated from its neighbour in the header, and the rows line up under it."""
    spec = "mcts:6/c=1.0/depth=0/widen=4"
    res = cli("simulate", "toy", "--players", 2, "--games", 2, "--tiers", f"greedy,{spec}",
              "--seed", 4, "--no-progress", "--db", tmp_path / "t.duckdb")
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    head = next(x for x in lines if x.startswith("faction"))
    assert head.split() == ["faction", "greedy", spec]          # not "greedymcts:6/..."
    rows = lines[lines.index(head) + 1:]
    assert rows and all(len(r) == len(head) for r in rows if r.strip())


def test_tiers_must_be_distinct_bots(tmp_path, cli):
    res = cli("simulate", "toy", "--tiers", "greedy,greedy", "--db", tmp_path / "x.duckdb")
    assert res.exit_code == 2 and "--tiers" in res.output


def test_ladder_show_prints_a_stored_ladder_again(tmp_path, cli):
    db = tmp_path / "l.duckdb"
    res = cli("ladder", "toy", "--players", 2, "--games", 4, "--specs", "random,greedy",
              "--seed", 2, "--db", db)
    assert res.exit_code == 0, res.output
    lid = res.output.split("\nladder ")[1].split()[0]
    table = res.output[res.output.index("\nrung "):]
    assert table.splitlines()[1].endswith("validated  no winner")
    assert table.splitlines()[2].startswith("greedy ")
    assert table.splitlines()[2].endswith(" 0 (0.0%)")      # toy games all end with a winner
    shown = cli("ladder", "toy", "--show", lid, "--db", db)
    assert shown.exit_code == 0, shown.output
    assert shown.output.splitlines()[0] == f"ladder {lid} of toy at 2 players <- {db}"
    assert shown.output[shown.output.index("\nrung "):] == table     # the same table, tested again
    res = cli("ladder", "toy", "--show", "nosuchid", "--db", db)
    assert res.exit_code == 2 and "--show" in res.output and "nosuchid" in res.output
    res = cli("ladder", "toy", "--show", lid, "--db", tmp_path / "none.duckdb")
    assert res.exit_code != 0 and "none.duckdb" in res.output
    assert not (tmp_path / "none.duckdb").exists()


def test_a_ladder_cut_short_is_resumed_to_the_same_table(tmp_path, cli, monkeypatch):
    """`delve ladder --resume ID`: a ladder interrupted in its second rung (one run failed,
    one never started) is finished with its own options, each game once, and gives the table
    of the ladder that was never interrupted."""
    from pipelines.run import execute as runner
    args = ("ladder", "toy", "--players", 2, "--games", 8, "--specs", "random,greedy,mcts:8",
            "--vs", "greedy", "--seed", 3)
    clean = cli(*args, "--db", tmp_path / "clean.duckdb")
    assert clean.exit_code == 0, clean.output
    table = clean.output[clean.output.index("\nrung "):]

    real, calls = runner.play_chunk, []

    def dies_in_the_second_rung(task):    # in its first run's second chunk
        if "mcts" in repr(task.specs):
            calls.append(task)
            if len(calls) == 2:
                raise KeyboardInterrupt
        return real(task)
    monkeypatch.setattr(runner, "play_chunk", dies_in_the_second_rung)
    db = tmp_path / "cut.duckdb"
    cut = cli(*args, "--db", db)
    assert cut.exit_code != 0
    monkeypatch.setattr(runner, "play_chunk", real)
    with duckdb.connect(str(db), read_only=True) as con:
        lid, = {json.loads(c)["ladder"]["id"] for c, in con.execute("SELECT config FROM runs"
                                                                    ).fetchall()}
        assert sorted(con.execute("SELECT status FROM runs").fetchall()) == [
            ("done",), ("done",), ("failed",)]            # seat 1 of rung 2 never started
        kept = con.execute("SELECT count(*) FROM games JOIN runs USING (run_id) "
                           "WHERE status = 'failed'").fetchone()[0]
        assert 0 < kept < per_seat_games("toy", 8, 2)     # seat 0 of rung 2 cut part-way

    wrong = cli("ladder", "glimmerdeep", "--resume", lid, "--db", db)
    assert wrong.exit_code != 0 and "toy" in wrong.output and "glimmerdeep" in wrong.output
    res = cli("ladder", "toy", "--resume", lid, "--db", db)
    assert res.exit_code == 0, res.output
    assert "resuming" in res.output
    assert res.output[res.output.index("\nrung "):] == table
    per_seat = per_seat_games("toy", 8, 2)
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT count(*), count(DISTINCT run_id) FROM runs "
                           "WHERE status = 'done'").fetchone() == (4, 4)
        assert con.execute("SELECT count(*), count(DISTINCT (run_id, game_id)) FROM games"
                           ).fetchone() == (4 * per_seat, 4 * per_seat)
    again = cli("ladder", "toy", "--resume", "nosuchid", "--db", db)
    assert again.exit_code != 0 and "nosuchid" in again.output


def test_games_no_seat_won_are_counted(tmp_path, cli):
    """A game stopped by the turn limit has no winner (DESIGN.md: `winner_seat` NULL): the
    ladder's rungs count them (`delve ladder` prints them, "no winner"), here on real cave-colony
    games cut after two turns, and on games that all end in a win."""
    from pipelines.ladder.ladder import undecided_games
    db = tmp_path / "t.duckdb"
    res = cli("simulate", "cave_colony", "--games", 4, "--players", 2, "--bots", "greedy",
              "--set", "game.turn_limit=2", "--db", db, "--no-progress")
    assert res.exit_code == 0, res.output
    res = cli("simulate", "toy", "--games", 3, "--players", 2, "--db", db, "--no-progress")
    assert res.exit_code == 0, res.output
    con = duckdb.connect(str(db), read_only=True)
    runs = dict(con.execute("SELECT game, run_id FROM runs").fetchall())
    con.close()
    assert undecided_games(Store(db), runs["cave_colony"]) == 4
    assert undecided_games(Store(db), runs["toy"]) == 0
