"""Issue 12 in `delve compare`: declared families (P6), per-game category intervals (P3),
exact McNemar and Newcombe's paired score interval, no bare [0, 0] (P8), same-seed runs
detected as paired and ties counted 1/k (P13)."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from scipy import stats as sps
from statsmodels.stats.contingency_tables import mcnemar

from pipelines.lab.compare import FAMILIES, compare, format_comparison, paired_proportions
from pipelines.stats import holm
from pipelines.store import connect_read


@pytest.fixture
def toy_pair(cli, tmp_path):
    db = tmp_path / "c.duckdb"
    res = cli("simulate", "toy", "--games", 90, "--players", 3, "--bots", "greedy,random,random",
              "--seed", 11, "--db", db, "--no-progress")
    assert res.exit_code == 0, res.output
    base = res.stdout.splitlines()[0]
    res = cli("simulate", "toy", "--paired-with", base, "--set", "factions.voles.bonus=4",
              "--db", db, "--no-progress")
    assert res.exit_code == 0, res.output
    return db, base, res.stdout.splitlines()[0]


def test_no_changed_game_gives_the_rule_of_three_not_a_proven_zero():
    """Audit P8: 'sd_d == 0 returns (m, m, m, p = 1)' -> '0.0% [0.0%, 0.0%]' read as a proven zero."""
    d, lo, hi, p, note = paired_proportions(100, 0.3, 0.3, 0, 0, 30, 0, 0, 70)
    assert d == 0 and lo == pytest.approx(-0.03) and hi == pytest.approx(0.03) and p == 1.0
    assert "no game changed" in note and "rule of three" in note


def test_paired_win_rate_p_is_the_exact_mcnemar_test():
    table = [[20, 9], [2, 69]]           # rows A won / lost, columns B won / lost
    n11, n10, n01, n00 = 20, 9, 2, 69
    n = 100
    pa, pb = (n11 + n10) / n, (n11 + n01) / n
    _, lo, hi, p, _ = paired_proportions(n, pa, pb, n01, n10, n11, n10, n01, n00)
    assert p == pytest.approx(mcnemar(table, exact=True).pvalue, abs=1e-12)
    assert lo < pb - pa < hi


def _coverage(n, p_up, p_down, reps, rng):
    """Coverage of Newcombe's interval for paired 0/1 outcomes: A wins w.p. .25, a game flips
    up w.p. p_up (A lost, B won) and down w.p. p_down (A won, B lost)."""
    true = p_up - p_down
    hits = 0
    for _ in range(reps):
        u = rng.random(n)
        up = u < p_up
        down = (u >= p_up) & (u < p_up + p_down)
        a_won = np.where(down, True, np.where(up, False, rng.random(n) < 0.25 / (1 - p_up - p_down)))
        b_won = np.where(up, True, np.where(down, False, a_won))
        n11 = int((a_won & b_won).sum()); n10 = int((a_won & ~b_won).sum())
        n01 = int((~a_won & b_won).sum()); n00 = n - n11 - n10 - n01
        _, lo, hi, _, _ = paired_proportions(n, a_won.mean(), b_won.mean(), n01, n10, n11, n10, n01, n00)
        hits += lo <= true <= hi
    return hits / reps


def test_paired_win_rate_interval_covers_where_the_t_interval_did_not():
    """Audit P8: the paired t covered 0.726 at n = 32, P(+1) = .03, P(-1) = .01 (0.893 at 75)."""
    rng = np.random.default_rng(12)
    assert _coverage(32, 0.03, 0.01, 3000, rng) >= 0.93
    assert _coverage(75, 0.03, 0.01, 2000, rng) >= 0.93
    assert _coverage(150, 0.05, 0.02, 1000, rng) >= 0.93


def test_families_are_declared_and_corrected_on_their_own(toy_pair):
    """Audit P6: one Holm family of faction x {win, score} + seat x {win, score}; categories and
    length uncorrected.  Now: five families, each Holm-corrected on its own, and named."""
    db, base, b = toy_pair
    c = compare(db, base, b, heatmap=False)
    assert set(c.table["family"]) == {"faction win rates", "faction scores", "seats"}
    for fam in ("faction win rates", "faction scores", "seats"):
        part = c.table.filter(pl.col("family") == fam)
        _, adj = holm(part["p"].to_list())
        assert part["p_holm"].to_list() == pytest.approx(adj, nan_ok=True)
    for frame, fam in ((c.categories, "categories"), (c.length, "game length")):
        assert set(frame["family"]) == {fam} and "p_holm" in frame.columns
        _, adj = holm(frame["p"].to_list())
        assert frame["p_holm"].to_list() == pytest.approx(adj, nan_ok=True)
    out = format_comparison(c)
    for fam in FAMILIES:
        assert f"family: {fam}" in out


def test_category_differences_use_one_value_per_game(toy_pair):
    """Audit P3: the category SE treated the seats of one game as independent (n = 3 x games)."""
    db, base, b = toy_pair
    c = compare(db, base, b, heatmap=False)
    with connect_read(db) as con:
        per_game = con.execute("""
            WITH pts AS (SELECT p.run_id, p.game_id, p.seat, coalesce(sum(e.points), 0) AS pts
                         FROM players p LEFT JOIN score_events e ON e.run_id = p.run_id
                              AND e.game_id = p.game_id AND e.seat = p.seat AND e.category = 'faction'
                         WHERE p.run_id IN (?, ?) GROUP BY ALL),
                 g AS (SELECT run_id, game_id, avg(pts) AS m FROM pts GROUP BY ALL)
            SELECT b.m - a.m FROM g a JOIN g b USING (game_id)
            WHERE a.run_id = ? AND b.run_id = ? ORDER BY game_id""", [base, b, base, b]).fetchall()
    d = np.array([x[0] for x in per_game], dtype=float)
    assert len(d) == 90
    row = c.categories.filter(pl.col("category") == "faction").row(0, named=True)
    half = sps.t.ppf(0.975, len(d) - 1) * d.std(ddof=1) / math.sqrt(len(d))
    assert row["diff"] == pytest.approx(d.mean())
    assert row["high"] - row["low"] == pytest.approx(2 * half)


def test_two_runs_with_the_same_seed_are_compared_as_paired(cli, tmp_path):
    """Audit P13: two runs with the same --seed, not launched with --paired-with, play the
    same games; compare detects it on the data."""
    db = tmp_path / "s.duckdb"
    ids = []
    for extra in ((), ("--set", "factions.voles.bonus=4")):
        res = cli("simulate", "toy", "--games", 40, "--players", 3, "--seed", 5, *extra,
                  "--db", db, "--no-progress")
        assert res.exit_code == 0, res.output
        ids.append(res.stdout.splitlines()[0])
    c = compare(db, *ids, heatmap=False)
    assert c.paired and "not declared paired" in c.why and c.n_pairs == 40


def test_a_tied_win_counts_one_kth_in_compare(toy_pair):
    db, base, b = toy_pair
    c = compare(db, base, b, heatmap=False)
    with connect_read(db) as con:
        n_games = con.execute("SELECT count(*) FROM games WHERE run_id = ?", [base]).fetchone()[0]
    rates = c.table.filter((pl.col("metric") == "win_rate") & (pl.col("kind") == "faction"))
    per_faction = rates["n_a"][0]
    # rates weighted by each faction's games sum to exactly one win per game
    assert float((rates["a"] * rates["n_a"]).sum()) == pytest.approx(n_games)
    assert per_faction > 0


def test_simultaneous_intervals_are_each_row_at_alpha_over_its_family(toy_pair):
    """Audit N7: each row also has its interval at 0.05 / m (m its family's rows), wider than
    its own 95% interval and the one a chart draws beside the family's Holm marks."""
    db, base, b = toy_pair
    c = compare(db, base, b, heatmap=False)
    rates = c.table.filter(pl.col("family") == "faction win rates")
    m = rates.height
    assert m > 1
    for r in rates.iter_rows(named=True):
        if r["note"]:                        # no game changed: the rule of three at 0.05 / m
            assert r["high_sim"] - r["diff"] == pytest.approx(min(1.0, -math.log(0.05 / m) / r["n_a"]))
            continue
        assert r["low_sim"] <= r["low"] <= r["diff"] <= r["high"] <= r["high_sim"]


def test_heatmap_differences_carry_their_noise(toy_pair):
    """Audit N10: the heatmap difference had no noise reference ('the top 5 cells are partly
    noise').  Each cell's B - A (moves per game) now has the standard error of its games'
    counts, a p-value, and a mark where Holm over the cells rejects; recomputed here from the
    moves table."""
    from pipelines.lab.compare import heatmap_noise
    db, base, b = toy_pair
    c = compare(db, base, b)
    heat = c.heatmap
    assert {"se", "p", "p_holm", "significant"} <= set(heat.columns) and heat.height
    with connect_read(db) as con:
        n = {r: con.execute("SELECT count(*) FROM games WHERE run_id = ?", [r]).fetchone()[0]
             for r in (base, b)}
        row = heat.sort("p").row(0, named=True)
        per_game = {r: np.array([con.execute(
            "SELECT count(*) FROM moves JOIN games USING (run_id, game_id) WHERE run_id = ? "
            "AND game_id = ? AND cell = ? AND map = ?",
            [r, g, row["cell"], row["map"]]).fetchone()[0] for g in range(n[r])], dtype=float)
            for r in (base, b)}
    se = math.sqrt(per_game[base].var(ddof=1) / n[base] + per_game[b].var(ddof=1) / n[b])
    assert row["diff"] == pytest.approx(per_game[b].mean() - per_game[base].mean())
    assert row["se"] == pytest.approx(se)
    assert row["p"] == pytest.approx(2 * sps.norm.sf(abs(row["diff"]) / se))
    assert heat["p_holm"].to_list() == pytest.approx(holm(heat["p"].to_list())[1])
    # the mark can fire: a cell that moves by 1 a game with little spread, beside noise
    frame = pl.DataFrame({"map": ["m", "m"], "cell": [1, 2], "x": [0, 1], "y": [0, 0],
                          "a": [0.1, 0.5], "b": [1.1, 0.55], "diff": [1.0, 0.05],
                          "var_a": [0.09, 0.25], "var_b": [0.09, 0.25], "na": [100, 100],
                          "nb": [100, 100]})
    marked = heatmap_noise(frame)
    assert marked["significant"].to_list() == [True, False]
    assert "beyond noise" in format_comparison(c)
