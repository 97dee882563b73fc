"""Issue 29: a paired comparison grown until it is settled (`delve simulate GAME --paired-with A
--until-settled`): A and B grow together in whole seating cycles; a rules change that changes
nothing is shown unchanged within the margin, a strong one is shown changed, and the level of
every claim is Bonferroni over the planned looks and the factions."""

from __future__ import annotations

import json

from pipelines.store import connect_read


def _base(cli, db, games=24):
    res = cli("simulate", "toy", "--games", games, "--players", 3, "--bots", "greedy",
              "--seed", 4, "--db", db, "--no-progress")
    assert res.exit_code == 0, res.output
    return res.stdout.splitlines()[0]


def _grow(cli, db, base, *extra):
    res = cli("simulate", "toy", "--paired-with", base, "--until-settled", "--games", 24,
              "--max-games", 1200, "--db", db, "--no-progress", *extra)
    assert res.exit_code == 0, res.output
    return res


def test_a_change_that_changes_nothing_settles_as_unchanged(cli, tmp_path):
    db = tmp_path / "s.duckdb"
    base = _base(cli, db)
    res = _grow(cli, db, base, "--margin", 10)
    run_b = res.stdout.splitlines()[0]
    lines = res.stdout.splitlines()
    assert all("unchanged within the margin" in line for line in lines[1:4]), res.stdout
    assert "settled" in lines[4] and "NOT" not in lines[4]
    with connect_read(db) as con:
        (na,), (nb,) = (con.execute("SELECT count(*) FROM games WHERE run_id = ?", [r]).fetchone()
                        for r in (base, run_b))
        cfg = json.loads(con.execute("SELECT config FROM runs WHERE run_id = ?", [run_b]).fetchone()[0])
        paired = con.execute("SELECT paired_with FROM runs WHERE run_id = ?", [run_b]).fetchone()[0]
    assert na == nb > 24 and paired == base          # both grew, game for game
    s = cfg["until_settled"]
    assert s["paired"] and s["alpha_per_claim"] * s["looks_max"] * 3 <= 0.05 + 1e-12


def test_a_strong_change_settles_as_changed(cli, tmp_path):
    db = tmp_path / "c.duckdb"
    base = _base(cli, db)
    res = _grow(cli, db, base, "--set", "factions.voles.bonus=6")
    voles = next(line for line in res.stdout.splitlines() if line.startswith("voles"))
    assert "changed" in voles and "unchanged" not in voles and "+" in voles.split()[2]


def test_a_base_that_is_itself_paired_is_refused(cli, tmp_path):
    db = tmp_path / "r.duckdb"
    base = _base(cli, db)
    res = cli("simulate", "toy", "--paired-with", base, "--set", "factions.voles.bonus=1",
              "--db", db, "--no-progress")
    paired = res.stdout.splitlines()[0]
    res = cli("simulate", "toy", "--paired-with", paired, "--until-settled", "--db", db,
              "--no-progress")
    assert res.exit_code == 2 and "itself paired" in res.output
