"""The "by skill tier" view (issue 13): the Factions page shows each faction's win rate per
tier of a `delve simulate --tiers` group with intervals and the paired changes; the Runs page
shows a run's tier; the paired-difference flags on a known frame."""

from __future__ import annotations

from pathlib import Path

import duckdb
import polars as pl
import pytest
from dashfix import APP, _delve
from streamlit.testing.v1 import AppTest

from dashboard.queries.tiers import paired_flags, run_tier


@pytest.fixture(scope="module")
def tiers_db(tmp_path_factory) -> tuple[Path, list[str]]:
    db = tmp_path_factory.mktemp("tiers") / "tiers.duckdb"
    _delve("simulate", "glimmerdeep", "--games", "8", "--players", "2", "--tiers",
           "random,greedy", "--db", str(db), "--no-progress")
    con = duckdb.connect(str(db), read_only=True)
    runs = [r[0] for r in con.execute("SELECT run_id FROM runs ORDER BY created_at").fetchall()]
    con.close()
    return db, runs


def _page(db, monkeypatch, page, **params):
    monkeypatch.setenv("DELVE_DB", str(db))
    at = AppTest.from_file(str(APP), default_timeout=60)
    for k, v in params.items():
        at.query_params[k] = v
    if page != "runs":
        at.switch_page(f"app_pages/{page}.py")
    return at.run()


def test_factions_page_shows_the_tiers_side_by_side(tiers_db, monkeypatch):
    db, runs = tiers_db
    at = _page(db, monkeypatch, "factions", run=runs[1])
    assert not at.exception
    table = at.get_by_key("tier_table").dataframe[0].value
    assert list(dict.fromkeys(table["tier"])) == ["random", "greedy"]
    assert (table["low"] <= table["rate"]).all() and (table["rate"] <= table["high"]).all()
    shifts = at.get_by_key("tier_shift_table").dataframe[0].value
    assert set(zip(shifts["tier_a"], shifts["tier_b"])) == {("random", "greedy")}
    assert "By skill tier" in "\n".join(m.value for m in at.markdown)


def test_runs_page_shows_the_tier(tiers_db, monkeypatch):
    db, runs = tiers_db
    at = _page(db, monkeypatch, "runs", run=runs[1])
    assert not at.exception
    assert any("skill tier `greedy`" in c.value for c in at.caption)


def test_run_tier_reads_the_config():
    assert run_tier({"config": '{"tier": "mcts:200"}'}) == "mcts:200"
    assert run_tier({"config": '{"ladder": {"spec": "mcts:100", "below": "greedy"}}'}) == \
        "ladder: mcts:100 over greedy"
    assert run_tier({"config": "{}"}) is None


def test_paired_flags_mark_significant_growth_and_shrinkage():
    frame = pl.DataFrame({
        "tier_a": ["g", "g", "g"], "tier_b": ["m", "m", "m"], "faction": ["a", "b", "c"],
        "n": [400, 400, 400], "rate_a": [0.30, 0.40, 0.25], "rate_b": [0.45, 0.26, 0.26],
        "diff": [0.15, -0.14, 0.01], "low": [0.1, -0.2, -0.04], "high": [0.2, -0.08, 0.06],
        "p": [0.0001, 0.001, 0.7], "fair_share": [0.25] * 3})
    out = paired_flags(frame).sort("faction")
    assert out["flag"].to_list() == ["grows", "shrinks", ""]
    assert out["p_holm"].to_list() == pytest.approx([0.0003, 0.002, 0.7])


def test_tier_shifts_are_the_comparisons_own_numbers(tiers_db):
    """Stats audit N5: the Tiers page used a normal interval (`[0, 0]` when no game changed) and
    a z-test, counted ties whole, and Holm within one tier pair; its rows are now
    `pipelines.lab.compare`'s (exact McNemar, Newcombe, 1/k ties), Holm over all rows."""
    from pipelines.lab.compare import compare
    from dashboard.queries.tiers import tier_shifts
    db, runs = tiers_db
    shifts = tier_shifts(str(db), runs[0], version="t")
    cmp = compare(str(db), runs[0], runs[1], heatmap=False).table.filter(
        (pl.col("kind") == "faction") & (pl.col("metric") == "win_rate"))
    first = shifts.filter(pl.col("tier_a") == shifts["tier_a"][0]).filter(
        pl.col("tier_b") == shifts["tier_b"][0]).sort("faction")
    assert first["diff"].to_list() == pytest.approx(cmp.sort("key")["diff"].to_list())
    assert first["low"].to_list() == pytest.approx(cmp.sort("key")["low"].to_list())
    assert (shifts["low"] < shifts["high"]).all()          # never a [d, d] interval


def test_report_has_the_tier_section(tiers_db, tmp_path):
    from dashboard.report.html import write_report
    db, runs = tiers_db
    out = write_report(db, runs[0], tmp_path / "r.html")
    html = out.read_text(encoding="utf-8")
    assert "By skill tier" in html and "greedy" in html
