"""charts.py: pure figure builders, called without Streamlit."""

from __future__ import annotations

import types

import pandas as pd
import plotly.graph_objects as go
import polars as pl
import pytest

from dashboard import charts

FACTIONS = pl.DataFrame(
    {
        "faction": ["dwarves", "goblins", "kobolds"],
        "games": [4, 4, 4],
        "wins": [2, 1, 1],
        "win_rate": [0.5, 0.25, 0.25],
        "fair_share": [1 / 3, 1 / 3, 1 / 3],
        "mean_score": [16.5, 14.0, 14.0],
    }
)
CATEGORIES = pl.DataFrame(
    {
        "category": ["gems", "endgame", "excavation"],
        "points": [100, 48, 30],
        "points_per_player_game": [8.5, 4.0, 2.5],
        "share": [0.56, 0.27, 0.17],
    }
)


def test_charts_module_does_not_import_streamlit():
    source = open(charts.__file__, encoding="utf-8").read()
    assert "import streamlit" not in source
    modules = [v.__name__ for v in vars(charts).values() if isinstance(v, types.ModuleType)]
    assert not [m for m in modules if m.startswith("streamlit")]


def test_faction_win_rate_bar_has_one_bar_trace_with_the_rates():
    fig = charts.faction_win_rate_bar(FACTIONS)
    assert isinstance(fig, go.Figure)
    assert len(fig.data) == 1
    bar = fig.data[0]
    assert isinstance(bar, go.Bar)
    assert list(bar.x) == ["dwarves", "goblins", "kobolds"]
    assert list(bar.y) == pytest.approx([0.5, 0.25, 0.25])
    assert [row[0] for row in bar.customdata] == [4, 4, 4]
    assert [row[1] for row in bar.customdata] == pytest.approx([16.5, 14.0, 14.0])
    assert fig.layout.yaxis.tickformat == ".0%"


def test_faction_win_rate_bar_draws_the_fair_share_line():
    fig = charts.faction_win_rate_bar(FACTIONS)
    lines = [s for s in fig.layout.shapes if s.type == "line"]
    assert len(lines) == 1
    assert lines[0].y0 == pytest.approx(1 / 3)
    assert lines[0].y1 == pytest.approx(1 / 3)
    assert "fair share 33%" in [a.text for a in fig.layout.annotations]


def test_faction_win_rate_bar_without_fair_share_has_no_line():
    fig = charts.faction_win_rate_bar(FACTIONS.drop("fair_share"))
    assert len(fig.layout.shapes) == 0


def test_faction_win_rate_bar_accepts_pandas():
    fig = charts.faction_win_rate_bar(FACTIONS.to_pandas())
    assert list(fig.data[0].y) == pytest.approx([0.5, 0.25, 0.25])


def test_faction_win_rate_bar_empty_frame_gives_a_message_not_an_error():
    fig = charts.faction_win_rate_bar(FACTIONS.clear())
    assert len(fig.data) == 0
    assert "No games stored" in fig.layout.annotations[0].text


def test_category_points_bar_is_horizontal_and_sorted_largest_on_top():
    fig = charts.category_points_bar(CATEGORIES)
    assert len(fig.data) == 1
    bar = fig.data[0]
    assert isinstance(bar, go.Bar)
    assert bar.orientation == "h"
    # plotly draws categories bottom-up, so the largest comes last
    assert list(bar.y) == ["excavation", "endgame", "gems"]
    assert list(bar.x) == pytest.approx([2.5, 4.0, 8.5])
    assert list(bar.customdata) == pytest.approx([0.17, 0.27, 0.56])


def test_category_points_bar_can_show_totals():
    fig = charts.category_points_bar(pd.DataFrame(CATEGORIES.to_dict(as_series=False)),
                                     value="points")
    assert list(fig.data[0].x) == pytest.approx([30, 48, 100])
    assert fig.layout.xaxis.title.text == "points"


def test_category_points_bar_empty_frame():
    fig = charts.category_points_bar(CATEGORIES.clear())
    assert len(fig.data) == 0
    assert "No score events" in fig.layout.annotations[0].text
