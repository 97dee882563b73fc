"""Issue 12, P4: `delve report RUN --vs RUN_B` uses the same comparison as `delve compare`
(paired when the pair is paired); it used Welch on every pair, 1.2-3x wider on paired runs."""

from __future__ import annotations

from pathlib import Path

import polars as pl
from dashfix import _delve, sim_runs

from pipelines.lab.compare import compare


def test_the_report_comparison_is_the_paired_compare_table(sim_db_copy: Path):
    base = sim_runs(sim_db_copy)["baseline"]
    out = _delve("simulate", "glimmerdeep", "--paired-with", base, "--set",
                 "factions.ironclads.calling.rows=[[1,1],[1,2],[1,2],[2,3],[2,3],[2,4]]",
                 "--db", str(sim_db_copy), "--no-progress")
    paired = out.splitlines()[0]
    from dashboard import queries
    from dashboard.report.html import comparison_section
    a = queries.run_details(str(sim_db_copy), base)
    b = queries.run_details(str(sim_db_copy), paired)
    section = comparison_section(str(sim_db_copy), a, b)
    c = compare(str(sim_db_copy), base, paired, heatmap=False)
    assert c.paired
    assert any("PAIRED: paired game by game" in n for n in section.notes)
    columns, rows = section.tables[0]
    # the table in a reader's words (issue 31): plain column names, ids in words
    from dashboard.table_words import cell_words, label_of

    def col(name: str) -> int:
        return columns.index(label_of(name))

    from dashboard.labels import game_labels
    names = game_labels(a)

    def shown(v, labels=None):
        return cell_words(labels or {}, v)
    got = {(r[col("kind")], r[col("key")], r[col("metric")]):
           (r[col("low")], r[col("high")], r[col("family")]) for r in rows}
    # a faction row is named as the game names it ('deepdelvers' -> 'Deepdelvers'), a seat by number
    assert names["deepdelvers"] == "Deepdelvers"
    assert "Deepdelvers" in {k for _, k, _ in got} and "deepdelvers" not in {k for _, k, _ in got}
    for r in c.table.iter_rows(named=True):
        low, high, family = got[(shown(r["kind"]), shown(r["key"], names), shown(r["metric"]))]
        assert family == shown(r["family"])
        if r["low"] == r["low"]:   # not NaN
            assert low == format(r["low"], "+.3f") and high == format(r["high"], "+.3f")
    # the figure draws compare's intervals, not Welch's
    win = section.figures[0][1]
    fac = c.table.filter(pl.col("metric") == "win_rate")
    assert list(win.data[0].x) == fac["diff"].to_list()
