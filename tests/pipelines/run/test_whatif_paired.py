"""The what-if lab's paired runs and comparisons (issue 5: "Paired comparisons").

A paired run replays the base run's exact games (seeds, seats, maps) under new rules, so the
comparison is paired game by game; a variant identical to the base gives differences of
exactly zero, and a variant giving one faction a large bonus is detected as significant.
"""

from __future__ import annotations

import polars as pl
import pytest

from pipelines.lab.compare import compare
from pipelines.store import connect_read

from pipeline_helpers import glimmerdeep_ready


def _last_run(db) -> str:
    with connect_read(db) as con:
        return con.execute("SELECT run_id FROM runs ORDER BY created_at DESC, run_id DESC "
                           "LIMIT 1").fetchone()[0]


def _n_runs(db) -> int:
    with connect_read(db) as con:
        return con.execute("SELECT count(*) FROM runs").fetchone()[0]


def _games_and_seats(db, run_id):
    with connect_read(db) as con:
        games = con.execute("SELECT game_id, seed, map, n_players FROM games WHERE run_id = ? "
                            "ORDER BY game_id", [run_id]).fetchall()
        seats = con.execute("SELECT game_id, seat, faction, bot FROM players WHERE run_id = ? "
                            "ORDER BY game_id, seat", [run_id]).fetchall()
    return games, seats


@pytest.fixture
def toy_base(cli, tmp_path):
    db = tmp_path / "w.duckdb"
    res = cli("simulate", "toy", "--games", 90, "--players", 3, "--bots", "greedy,random,random",
              "--seed", 11, "--db", db, "--no-progress")
    assert res.exit_code == 0, res.output
    return db, res.stdout.splitlines()[0]


def test_paired_run_reuses_exactly_the_base_seeds_seats_and_maps(cli, toy_base):
    db, base = toy_base
    res = cli("simulate", "toy", "--paired-with", base, "--set", "costs.build=2", "--db", db,
              "--no-progress")
    assert res.exit_code == 0, res.output
    paired = res.stdout.splitlines()[0]
    assert _games_and_seats(db, paired) == _games_and_seats(db, base)
    with connect_read(db) as con:
        pw, sets, h_a, h_b = con.execute(
            "SELECT b.paired_with, b.sets, a.rules_hash, b.rules_hash FROM runs a, runs b "
            "WHERE a.run_id = ? AND b.run_id = ?", [base, paired]).fetchone()
    assert pw == base
    assert "costs.build=2" in sets
    assert h_a != h_b                              # the rules did change ...
    assert dump_scores(db, base) != dump_scores(db, paired)   # ... and so did the play


def dump_scores(db, run_id):
    with connect_read(db) as con:
        return con.execute("SELECT game_id, seat, score FROM players WHERE run_id = ? "
                           "ORDER BY ALL", [run_id]).fetchall()


def test_identical_variant_gives_intervals_containing_zero_in_every_row(cli, toy_base):
    db, base = toy_base
    res = cli("simulate", "toy", "--paired-with", base, "--set", "costs.build=3", "--db", db,
              "--no-progress")  # the base value: the same rules
    assert res.exit_code == 0, res.output
    c = compare(db, base, res.stdout.splitlines()[0])
    assert c.paired and c.n_pairs == 90
    for frame in (c.table, c.categories, c.length):
        assert frame.height > 0
        assert (frame["low"] <= 0).all() and (frame["high"] >= 0).all(), frame
    assert not c.table["significant"].any()
    assert (c.heatmap["diff"] == 0).all()


def test_independent_identical_rules_are_not_paired_and_show_no_significant_row(cli, toy_base):
    db, base = toy_base
    res = cli("simulate", "toy", "--games", 90, "--players", 3, "--bots", "greedy,random,random",
              "--seed", 12, "--db", db, "--no-progress")
    other = res.stdout.splitlines()[0]
    c = compare(db, base, other)
    assert not c.paired and "independent" in c.why
    assert not c.table["significant"].any()
    out = cli("compare", base, other, "--db", db).output
    assert "NOT PAIRED" in out


def test_a_large_faction_bonus_is_detected_as_significant(cli, toy_base):
    db, base = toy_base
    res = cli("simulate", "toy", "--paired-with", base, "--set", "factions.voles.bonus=12",
              "--db", db, "--no-progress")
    assert res.exit_code == 0, res.output
    c = compare(db, base, res.stdout.splitlines()[0])
    sig = c.significant_rows()
    voles = sig.filter((pl.col("key") == "voles") & (pl.col("metric") == "win_rate"))
    assert voles.height == 1 and voles["diff"][0] > 0.3 and voles["p_holm"][0] < 0.05
    cat = c.categories.filter(pl.col("category") == "faction")
    assert cat["diff"][0] == pytest.approx(12 / 3)   # +12 points for one seat in three
    out = cli("compare", base, res.stdout.splitlines()[0], "--db", db).output
    assert "PAIRED: paired game by game on 90 common games" in out
    assert "voles" in out and "*" in out


def test_paired_with_bad_input_exits_2_and_writes_nothing(cli, toy_base):
    db, base = toy_base
    before = _n_runs(db)
    for args, culprit in [
        (("--paired-with", "no-such-run"), "no-such-run"),
        (("--paired-with", base, "--set", "costs.nope=1"), "costs.nope"),
        (("--paired-with", base, "--set", "costs.build=-1"), "costs.build"),
        (("--paired-with", base, "--set", 'costs.build="x"'), "costs.build"),
        (("--paired-with", base, "--until-ci", "0.1"), "--until-ci"),
    ]:
        res = cli("simulate", "toy", *args, "--db", db, "--no-progress")
        assert res.exit_code == 2, res.output
        assert culprit in res.output
        assert "Traceback" not in res.output
    assert _n_runs(db) == before


@pytest.mark.skipif(not glimmerdeep_ready(), reason="glimmerdeep is not registered")
def test_glimmerdeep_paired_bonus_for_one_faction_is_significant(cli, tmp_path):
    """Glimmerdeep: starting resources ("Setup") for the Nightbarons only, paired on the
    same 48 games: their win rate rises significantly; the seats and seeds are the base's."""
    db = tmp_path / "g.duckdb"
    base = cli("simulate", "glimmerdeep", "--games", 48, "--seed", 5, "--db", db,
               "--no-progress", "--no-log-moves").stdout.splitlines()[0]
    patch = tmp_path / "rich_nightbarons.toml"
    patch.write_text("[factions.nightbarons.setup]\ngem = 12\niron = 6\n")
    res = cli("simulate", "glimmerdeep", "--paired-with", base, "--variant", patch, "--db", db,
              "--no-progress", "--no-log-moves")
    assert res.exit_code == 0, res.output
    b = res.stdout.splitlines()[0]
    assert _games_and_seats(db, b) == _games_and_seats(db, base)
    c = compare(db, base, b, heatmap=False)
    row = c.table.filter((pl.col("key") == "nightbarons") & (pl.col("metric") == "win_rate"))
    assert c.paired and row["significant"][0] and row["diff"][0] > 0.2


def test_a_run_of_the_older_seating_design_pairs_and_resumes_with_its_own_seats(cli, tmp_path):
    """Issue 29 (N6): a run planned with `--seating balanced-1` (the design of runs made before
    the neighbour-balanced one) records it; a paired run records the base's design, so
    re-planning either (resume, reproduce) gives the seats that were played."""
    import json

    from pipelines.run.plan import plan_from_run
    from pipelines.store import resolve_run
    db = tmp_path / "old.duckdb"
    res = cli("simulate", "toy", "--games", 12, "--players", 3, "--seed", 4, "--seating",
              "balanced-1", "--db", db, "--no-progress")
    assert res.exit_code == 0, res.output
    base = res.stdout.splitlines()[0]
    assert "seating (balanced-1)" in res.stdout
    res = cli("simulate", "toy", "--paired-with", base, "--set", "costs.build=2", "--db", db,
              "--no-progress")
    assert res.exit_code == 0, res.output
    paired = res.stdout.splitlines()[0]
    for run in (base, paired):
        row = resolve_run(db, run)
        assert json.loads(row["config"])["seating"] == "balanced-1"
        planned = [tuple(s.faction for s in sp.seats) for sp in plan_from_run(row).specs]
        seats = _games_and_seats(db, run)[1]
        stored = [tuple(f for gid, _, f, _ in seats if gid == g) for g in range(12)]
        assert planned == stored
