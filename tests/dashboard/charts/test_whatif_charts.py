"""The What-if page's pure figure builders (no Streamlit)."""

from __future__ import annotations

import polars as pl

from dashboard.charts import whatif as wc


def _table():
    return pl.DataFrame({"kind": ["faction", "faction", "seat"], "key": ["a", "b", "0"],
                         "metric": ["win_rate"] * 3, "diff": [0.1, -0.02, 0.0],
                         "low": [0.05, -0.06, -0.03], "high": [0.15, 0.02, 0.03],
                         "significant": [True, False, False]})


def test_diff_forest_draws_one_interval_per_row_and_marks_significant_ones():
    fig = wc.diff_forest(_table(), "win_rate", "t")
    tr = fig.data[0]
    assert list(tr.y) == ["faction: a", "faction: b", "seat: 0"]
    assert list(tr.error_x.array) == [0.04999999999999999, 0.04, 0.03]
    assert tr.marker.color[0] == wc.DIFF_COLORS[True] and tr.marker.color[1] == wc.DIFF_COLORS[False]


def test_sweep_lines_one_trace_per_faction_sorted_by_value():
    t = pl.DataFrame({"faction": ["x", "x", "y", "y"], "value": [2, 1, 1, 2],
                      "win_rate": [0.6, 0.4, 0.5, 0.5], "low": [0.5, 0.3, 0.4, 0.4],
                      "high": [0.7, 0.5, 0.6, 0.6], "fair": [0.5] * 4})
    fig = wc.sweep_lines(t, "p")
    assert [tr.name for tr in fig.data] == ["x", "y"]
    assert list(fig.data[0].x) == [1, 2] and list(fig.data[0].y) == [0.4, 0.6]


def test_heatmap_diff_uses_a_symmetric_scale():
    h = pl.DataFrame({"map": ["m", "m"], "cell": [0, 1], "x": [0, 1], "y": [0, 0],
                      "diff": [0.2, -0.5]})
    fig = wc.heatmap_diff(h, "m")
    assert fig.data[0].zmin == -0.5 and fig.data[0].zmax == 0.5


def test_diff_forest_draws_the_simultaneous_interval_when_the_table_has_one():
    """Audit N7: the bars are as strict as the family's marks (Bonferroni over the family);
    the row's own 95% interval stays in the hover."""
    t = _table().with_columns(low_sim=pl.Series([0.02, -0.09, -0.05]),
                              high_sim=pl.Series([0.18, 0.05, 0.05]))
    tr = wc.diff_forest(t, "win_rate", "t").data[0]
    assert [round(x, 6) for x in tr.error_x.arrayminus] == [0.08, 0.07, 0.05]
    assert "simultaneous" in wc.diff_forest(t, "win_rate", "t").layout.xaxis.title.text
    assert tuple(tr.customdata[0]) == (0.05, 0.15, 0.02, 0.18)
