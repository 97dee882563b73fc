"""Issue 16: the pages read per-run aggregate tables that the writer keeps beside the raw rows,
and every figure is the same, to the last bit, as computed from the raw tables.

On the real mixed database (`sim_db`: two Glimmerdeep runs with greedy and random seats and a
run of every other registered game), every query helper of the Runs, Factions, Scoring and
Map pages is computed twice, from the aggregates and from the raw tables, for every filter
(player count, map, bot; on the map page also faction and outcome), and the frames compared
with polars ``equals``.  The sums the raw SQL used to accumulate in floating point (tied wins,
fair shares, the within-game differences) are now exact in both paths; a second test shows
they agree with the old floating-point formulation to its own rounding and with the exact
fractions computed in Python.
"""

from __future__ import annotations

import math
import shutil
from fractions import Fraction
from pathlib import Path

import duckdb
import polars as pl
import pytest
import streamlit as st
from dashfix import sim_runs

from dashboard import queries
from dashboard.queries import core, factions, scoring


def _runs(db: Path) -> list[str]:
    return sorted(sim_runs(db).values())


def _both(monkeypatch, fn, *args, **kwargs):
    """fn(...) from the raw tables, then from the aggregates (caches cleared before each)."""
    out = []
    for flag in (False, True):
        st.cache_data.clear()
        monkeypatch.setattr(core, "aggregated", lambda db, run_id, _f=flag: _f)
        out.append(fn(*args, **kwargs))
    monkeypatch.undo()
    st.cache_data.clear()
    return out


def _equal(a, b) -> bool:
    if isinstance(a, pl.DataFrame):
        return a.schema == b.schema and a.equals(b)
    if isinstance(a, tuple):
        return all(_equal(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def _filters(db: Path, run: str) -> list[dict]:
    o = queries.filter_options(str(db), run)
    out = [{}, {"n_players": o["n_players"][0]}, {"bot": o["bots"][0]}]
    if o["maps"]:
        out.append({"map_id": o["maps"][0]})
        out.append({"map_id": o["maps"][-1], "bot": o["bots"][-1]})
    return out


PAGE_HELPERS = [queries.faction_rates, queries.score_quantiles, queries.seat_rates,
                queries.faction_matrix, queries.scoring_stats, queries.category_by_faction,
                queries.points_by_round, queries.winners_vs_losers, queries.games_count]


def test_the_sim_db_runs_are_aggregated_and_check_green(sim_db: Path):
    from pipelines.store.checks import run_checks
    con = duckdb.connect(str(sim_db), read_only=True)
    try:
        assert {r[0] for r in con.execute("SELECT run_id FROM agg_runs").fetchall()} \
            == set(_runs(sim_db))
    finally:
        con.close()
    results = {r.name: r for r in run_checks(sim_db)}
    assert results["aggregates"].violations == 0


def test_every_page_figure_equals_its_raw_computation(sim_db: Path, monkeypatch):
    """Factions, Scoring, Runs: every helper, every run, every filter: the same frame."""
    db, compared = str(sim_db), 0
    for run in _runs(sim_db):
        assert core.aggregated(db, run)
        for f in _filters(sim_db, run):
            for helper in PAGE_HELPERS:
                raw, agg = _both(monkeypatch, helper, db, run, **f)
                assert _equal(raw, agg), (run, helper.__name__, f, raw, agg)
                compared += 1
            game_filters = {k: v for k, v in f.items() if k != "bot"}
            raw, agg = _both(monkeypatch, queries.strength_model, db, run, **game_filters)
            assert _equal(raw, agg), (run, "strength_model", f)
        for helper in (queries.filter_options, queries.points_by_category, queries.run_details):
            raw, agg = _both(monkeypatch, helper, db, run)
            assert _equal(raw, agg), (run, helper.__name__)
    assert compared >= 9 * 3 * len(_runs(sim_db))


def test_runs_overview_counts_the_stored_games_from_the_aggregates(sim_db: Path, tmp_path: Path,
                                                                 monkeypatch):
    """The runs overview takes each aggregated run's games from agg_games and counts the raw
    games only of the runs without aggregates: the same frame as counting every raw game."""
    db = tmp_path / "mixed.duckdb"
    shutil.copy(sim_db, db)
    stale = _runs(sim_db)[0]
    con = duckdb.connect(str(db))
    try:
        con.execute("DELETE FROM agg_runs WHERE run_id = ?", [stale])  # read raw from now on
    finally:
        con.close()
    for path in (sim_db, db):
        st.cache_data.clear()
        agg = queries.runs_overview(str(path))
        monkeypatch.setenv("DELVE_AGGREGATES", "0")
        st.cache_data.clear()
        raw = queries.runs_overview(str(path))
        monkeypatch.delenv("DELVE_AGGREGATES")
        assert _equal(raw, agg) and agg["games_stored"].sum() > 0, (path, raw, agg)
    assert not core.aggregated(str(db), stale)
    st.cache_data.clear()


def test_every_map_figure_equals_its_raw_computation(sim_db: Path, monkeypatch):
    """Map: moves and points per cell and action, for every selection of players."""
    db, drawn = str(sim_db), 0
    for run in _runs(sim_db):
        o = queries.filter_options(db, run)
        for map_id in o["maps"][:3]:
            for sel in [{}, {"faction": o["factions"][0]}, {"won": True},
                        {"won": False, "bot": o["bots"][0]}, {"n_players": o["n_players"][0]}]:
                for points in (True, False):
                    raw, agg = _both(monkeypatch, queries.cell_action_counts, db, run, map_id,
                                     points=points, **sel)
                    assert _equal(raw, agg), (run, map_id, sel, points)
                    drawn += raw.height
    assert drawn > 0


# --- the exact sums against the old floating-point ones and the exact fractions -------------

OLD_WITHIN = """
WITH fg AS (SELECT g.* FROM games AS g WHERE g.run_id = $run),
fp AS (SELECT p.* FROM players AS p JOIN fg ON fg.game_id = p.game_id WHERE p.run_id = $run)
, ng AS (
    SELECT game_id, count(*) FILTER (WHERE won) AS nw, count(*) FILTER (WHERE NOT won) AS nl,
           avg(score) FILTER (WHERE won) - avg(score) FILTER (WHERE NOT won) AS total_d
    FROM fp GROUP BY game_id
    HAVING count(*) FILTER (WHERE won) > 0 AND count(*) FILTER (WHERE NOT won) > 0
), ev AS (
    SELECT s.game_id, s.category, sum(s.points) FILTER (WHERE fp.won) AS pw,
           sum(s.points) FILTER (WHERE NOT fp.won) AS pl
    FROM score_events AS s JOIN fp ON fp.game_id = s.game_id AND fp.seat = s.seat
    WHERE s.run_id = $run GROUP BY ALL
), cats AS (SELECT DISTINCT category FROM ev), per_game AS (
    SELECT c.category, ng.game_id,
           coalesce(ev.pw, 0) / ng.nw - coalesce(ev.pl, 0) / ng.nl AS d
    FROM ng CROSS JOIN cats AS c LEFT JOIN ev ON ev.game_id = ng.game_id AND ev.category = c.category
    UNION ALL
    SELECT '(total score)', game_id, total_d FROM ng
)
SELECT category::VARCHAR AS category, count(*)::BIGINT AS games,
       avg(d ORDER BY game_id)::DOUBLE AS mean, var_samp(d ORDER BY game_id)::DOUBLE AS var
FROM per_game GROUP BY category ORDER BY category
"""
OLD_RATES = """
WITH nw AS (SELECT game_id, count(*) FILTER (WHERE won) AS n_won FROM players
            WHERE run_id = $run GROUP BY game_id)
SELECT p.faction, sum(CASE WHEN p.won THEN 1.0 / nw.n_won ELSE 0.0 END)::DOUBLE AS wins,
       avg(1 / g.n_players::DECIMAL(18, 12))::DOUBLE AS fair_share
FROM players p JOIN games g USING (run_id, game_id) JOIN nw USING (game_id)
WHERE p.run_id = $run GROUP BY p.faction ORDER BY p.faction
"""


def _close(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)


def test_exact_sums_agree_with_the_old_float_sums_and_the_fractions(sim_db: Path):
    con = duckdb.connect(str(sim_db), read_only=True)
    try:
        for run in _runs(sim_db):
            new = scoring.within_game(core.read_frame(
                sim_db, scoring._WITHIN_GAME_AGG_SQL, {"run": run, "np": None, "map": None,
                                                       "bot": None}))
            old = con.execute(OLD_WITHIN, {"run": run}).pl()
            assert new["category"].to_list() == old["category"].to_list()
            for a, b in zip(new.iter_rows(named=True), old.iter_rows(named=True)):
                assert a["games"] == b["games"]
                assert _close(a["mean"], b["mean"]) and _close(a["var"], b["var"]), (a, b)
            # the total score's mean difference as an exact fraction, from the raw rows
            games = con.execute(
                "SELECT game_id, list(score) FILTER (WHERE won), list(score) FILTER (WHERE NOT won) "
                "FROM players WHERE run_id = ? GROUP BY game_id", [run]).fetchall()
            ds = [Fraction(sum(w), len(w)) - Fraction(sum(lo), len(lo)) for _, w, lo in games
                  if w and lo]
            total = new.filter(pl.col("category") == scoring.TOTAL_SCORE).row(0, named=True)
            assert total["mean"] == float(sum(ds) / len(ds))

            rates = core.read_frame(sim_db, factions._FACTION_RATES_AGG_SQL,
                                    {"run": run, "np": None, "map": None, "bot": None})
            old_rates = con.execute(OLD_RATES, {"run": run}).pl()
            for a, b in zip(rates.iter_rows(named=True), old_rates.iter_rows(named=True)):
                assert a["faction"] == b["faction"]
                assert _close(a["wins"], b["wins"]) and _close(a["fair_share"], b["fair_share"])
    finally:
        con.close()


def test_score_quantiles_from_counts_are_duckdbs_quantile_cont():
    """The frequency-table quantiles equal DuckDB's quantile_cont on the expanded sample, bit for
    bit, on many small and large samples (where the interpolation's rounding shows)."""
    import random
    rng = random.Random(16)
    con = duckdb.connect()
    for _ in range(60):
        n = rng.choice([1, 2, 3, 7, 8, 13, 20, 101, 997])
        scores = [rng.randint(-5, 60) for _ in range(n)]
        con.execute("CREATE OR REPLACE TABLE t AS SELECT 'f' AS faction, unnest(?) AS score",
                    [scores])
        want = con.execute(
            "SELECT faction::VARCHAR AS faction, count(*)::BIGINT AS n, "
            "avg(score)::DOUBLE AS mean, min(score)::DOUBLE AS min, "
            "quantile_cont(score, 0.05) AS p05, quantile_cont(score, 0.25) AS q1, "
            "quantile_cont(score, 0.5) AS median, quantile_cont(score, 0.75) AS q3, "
            "quantile_cont(score, 0.95) AS p95, max(score)::DOUBLE AS max "
            "FROM t GROUP BY faction").pl()
        freq = con.execute("SELECT faction, score, count(*)::BIGINT AS players FROM t "
                           "GROUP BY ALL ORDER BY score").pl()
        got = factions.quantiles_of_counts(freq)
        assert got.equals(want), (scores, got, want)


def test_an_old_database_falls_back_to_the_raw_tables_until_rebuilt(sim_db: Path, tmp_path,
                                                                    monkeypatch):
    """A database written before the aggregates: the pages read the raw tables (same figures);
    `delve aggregate` builds them; then `delve check` verifies them and the pages read them."""
    from click.testing import CliRunner

    from delve.cli import main

    db = tmp_path / "old.duckdb"
    shutil.copy(sim_db, db)
    run = _runs(db)[0]
    con = duckdb.connect(str(db))
    from pipelines.store.aggregates import AGGREGATES
    for agg in AGGREGATES:
        con.execute(f"DROP TABLE {agg.table}")
    con.execute("DROP TABLE agg_runs")
    con.close()
    st.cache_data.clear()
    assert not core.aggregated(str(db), run)
    before = queries.winners_vs_losers(str(db), run)
    res = CliRunner().invoke(main, ["aggregate", "--db", str(db)])
    assert res.exit_code == 0, res.output
    assert res.output.count("aggregated run") == len(_runs(db))
    res = CliRunner().invoke(main, ["check", "--db", str(db)])
    assert res.exit_code == 0 and "ok   aggregates" in res.output, res.output
    st.cache_data.clear()
    assert core.aggregated(str(db), run)
    assert queries.winners_vs_losers(str(db), run).equals(before)
    # a changed aggregate row is found by the check
    con = duckdb.connect(str(db))
    con.execute("UPDATE agg_cells SET moves = moves + 1 WHERE run_id = ? AND rowid = "
                "(SELECT min(rowid) FROM agg_cells WHERE run_id = ?)", [run, run])
    con.close()
    res = CliRunner().invoke(main, ["check", "--db", str(db)])
    assert res.exit_code == 1 and "FAIL aggregates" in res.output and "agg_cells" in res.output
