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
    from pathlib import Path
    sources = sorted(Path(charts.__file__).parent.glob("*.py"))
    assert len(sources) >= 7
    for path in sources:
        assert "import streamlit" not in path.read_text(encoding="utf-8"), path
    for mod in [charts, *(v for v in vars(charts).values() if isinstance(v, types.ModuleType))]:
        names = [v.__name__ for v in vars(mod).values() if isinstance(v, types.ModuleType)]
        assert not [m for m in names if m.startswith("streamlit")]


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


# --- the analysis pages' builders ------------------------------------------------------------

RATES = pl.DataFrame({
    "faction": ["dwarves", "goblins"], "games": [100, 100], "wins": [50, 10],
    "fair_share": [0.25, 0.25], "rate": [0.5, 0.1], "low": [0.4, 0.05], "high": [0.6, 0.17],
    "p_holm": [1e-6, 0.001], "significant": [True, True],
})


def test_faction_win_rates_draws_intervals_and_colours_the_significant_ones():
    fig = charts.faction_win_rates(RATES)
    fair, rate = fig.data
    assert list(fair.y) == pytest.approx([0.25, 0.25])
    assert list(rate.y) == pytest.approx([0.5, 0.1])
    assert list(rate.error_y.array) == pytest.approx([0.1, 0.07])
    assert list(rate.error_y.arrayminus) == pytest.approx([0.1, 0.05])
    assert list(rate.marker.color) == [charts.SIGNIFICANT_HIGH, charts.SIGNIFICANT_LOW]


def test_rate_with_interval_accepts_lists_and_empty_input():
    fig = charts.rate_with_interval(RATES.to_dicts(), "faction", "t")
    assert len(fig.data) == 2
    assert "No games" in charts.rate_with_interval([], "faction", "t").layout.annotations[0].text


def test_seat_win_rates_has_two_panels():
    seats = pl.DataFrame({"kind": ["seat", "seat", "turn order", "turn order"],
                          "position": [0, 1, 0, 1], "games": [10] * 4, "wins": [6, 4, 7, 3],
                          "fair_share": [0.5] * 4, "rate": [0.6, 0.4, 0.7, 0.3],
                          "low": [0.3, 0.2, 0.4, 0.1], "high": [0.8, 0.7, 0.9, 0.6],
                          "p_holm": [1.0] * 4, "significant": [False] * 4})
    fig = charts.seat_win_rates(seats)
    assert [t.xaxis for t in fig.data] == ["x", "x", "x2", "x2"]
    assert list(fig.data[3].y) == pytest.approx([0.7, 0.3])


def test_faction_matrix_marks_holm_significant_cells():
    frame = pl.DataFrame({"faction": ["a", "a", "b"], "opponent": ["b", "c", "a"],
                          "games": [50, 50, 50], "wins": [40, 12, 5], "fair_share": [0.25] * 3,
                          "rate": [0.8, 0.24, 0.1], "low": [0.67, 0.14, 0.04],
                          "high": [0.89, 0.37, 0.21], "p_value": [1e-9, 1.0, 0.01],
                          "p_holm": [3e-9, 1.0, 0.02], "significant": [True, False, True]})
    fig = charts.faction_matrix(frame)
    heat = fig.data[0]
    assert list(heat.x) == ["a", "b", "c"] and list(heat.y) == ["a", "b", "c"]
    assert heat.text[0][1] == "80% ▲" and heat.text[0][2] == "24%" and heat.text[1][0] == "10% ▼"
    assert heat.z[0][0] is None  # a faction never meets itself


def test_map_heatmap_draws_a_dense_grid_as_squares_at_their_coordinates():
    cells = pl.DataFrame({"cell": [0, 1, 2, 3], "x": [0, 1, 0, 1], "y": [0, 0, 1, 1],
                          "kind": ["dirt", "gem", "iron", "gold"]})
    fig = charts.map_heatmap(cells, [{"cell": 1, "moves": 5}, {"cell": 2, "moves": 2}], "moves")
    heat = fig.data[0]
    assert isinstance(heat, go.Heatmap)
    assert [list(r) for r in heat.z] == [[0.0, 5.0], [2.0, 0.0]]
    assert heat.text[0][1] == "ge"
    assert fig.layout.yaxis.scaleanchor == "x" and fig.layout.yaxis.autorange == "reversed"


def test_map_heatmap_draws_scattered_spaces_as_markers_and_centres_differences():
    cells = pl.DataFrame({"cell": [0, 1, 2], "x": [0, 10, 25], "y": [0, 7, 3],
                          "kind": ["forest", "water", "mountain"]})
    fig = charts.map_heatmap(cells, [{"cell": 0, "v": -2.0}, {"cell": 2, "v": 1.0}], "v",
                             diverging=True)
    trace = fig.data[0]
    assert isinstance(trace, go.Scatter)
    assert list(trace.x) == [0, 10, 25] and list(trace.y) == [0, 7, 3]
    assert list(trace.marker.color) == pytest.approx([-2.0, 0.0, 1.0])
    assert trace.marker.cmid == 0 and trace.marker.cmin == -2.0


def test_map_heatmap_without_cells_says_so():
    fig = charts.map_heatmap(pl.DataFrame({"cell": [], "x": [], "y": [], "kind": []}), [], "v")
    assert "no map cells" in fig.layout.annotations[0].text


def test_board_at_step_counts_each_seats_moves_up_to_the_step():
    cells = [{"cell": c, "x": c % 2, "y": c // 2, "kind": "dirt"} for c in range(4)]
    moves = [{"step": 1, "seat": 0, "cell": 0}, {"step": 2, "seat": 1, "cell": 3},
             {"step": 3, "seat": 0, "cell": 0}, {"step": 4, "seat": 1, "cell": 1}]
    fig = charts.board_at_step(cells, moves, 3, ["s0", "s1"])
    heats = [t for t in fig.data if isinstance(t, go.Heatmap)]
    assert [list(r) for r in heats[0].z] == [[2.0, 0.0], [0.0, 0.0]]      # seat 0: cell 0 twice
    assert [list(r) for r in heats[1].z] == [[0.0, 0.0], [0.0, 1.0]]      # seat 1: step 4 not yet
    marks = [t for t in fig.data if isinstance(t, go.Scatter)]
    assert len(marks) == 1 and list(marks[0].x) == [0]  # step 3's cell, on seat 0's map


def test_score_race_is_cumulative_per_seat():
    fig = charts.score_race([{"step": 5, "seat": 0, "points": 3},
                             {"step": 9, "seat": 0, "points": 4}], ["a", "b"], 7)
    assert list(fig.data[0].y) == [0, 3, 7, 7] and list(fig.data[1].y) == [0, 0]


def test_scoring_builders():
    frame = pl.DataFrame({"faction": ["a", "a", "b", "b"], "category": ["x", "y", "x", "y"],
                          "n": [4] * 4, "mean": [1.0, 2.0, 3.0, 4.0], "var": [1.0] * 4,
                          "min": [0.0] * 4, "q1": [0.5] * 4, "median": [1.0] * 4,
                          "q3": [2.0] * 4, "max": [5.0] * 4})
    stacked = charts.category_stacked(frame)
    assert stacked.layout.barmode == "stack"
    assert [list(t.y) for t in stacked.data] == [[1.0, 3.0], [2.0, 4.0]]
    boxes = charts.category_boxes(frame)
    assert [t.name for t in boxes.data] == ["a", "b"]
    rounds = pl.DataFrame({"faction": ["a", "a", "a"], "won": [True, True, False],
                           "round": [1, 2, 1], "points": [2.0, 3.0, 1.0], "n": [1, 1, 3]})
    by_outcome = charts.round_curves(rounds, "outcome")
    curves = {t.name: list(t.y) for t in by_outcome.data}
    assert curves == {"losers": [1.0, 1.0], "winners": [2.0, 5.0]}
    by_faction = charts.round_curves(rounds, "faction")
    # one winner and three losers: the faction's curve weights them 1:3
    assert list(by_faction.data[0].y) == pytest.approx([(2 + 3 * 1) / 4, (2 + 3 * 1 + 3) / 4])


def test_figures_are_deterministic():
    assert charts.faction_win_rates(RATES).to_json() == charts.faction_win_rates(RATES).to_json()


def test_board_state_draws_a_shared_board_coloured_by_owner():
    cells = [{"cell": c, "x": c % 3, "y": c // 3, "kind": "space"} for c in range(6)]
    view = [(0, 0, "farm"), (4, 1, "mine · 2 workers of seat 1"), (5, None, "water")]
    fig = charts.board_state(cells, view, ["a", "b"], "Board", current=4)
    owned = {t.name: t for t in fig.data if t.mode == "markers+text"}
    assert set(owned) == {"a", "b", "neutral"}                      # one shared panel
    assert (list(owned["a"].x), list(owned["a"].y), list(owned["a"].text)) == ([0], [0], ["farm"])
    assert (list(owned["b"].x), list(owned["b"].y)) == ([1], [1])
    assert owned["b"].text == ("mine+",)                            # more lies there
    assert owned["b"].customdata[0][2] == "mine · 2 workers of seat 1"   # full label on hover
    assert owned["neutral"].marker.color == charts.NEUTRAL_COLOR
    assert owned["a"].marker.color != owned["b"].marker.color
    background = fig.data[0]
    assert len(background.x) == 6 and background.mode == "markers"  # every map cell
    outline = [t for t in fig.data if t.marker.symbol == "square-open"]
    assert len(outline) == 1 and (list(outline[0].x), list(outline[0].y)) == ([1], [1])


def test_board_state_draws_one_sheet_per_seat_when_seats_share_cells():
    cells = [{"cell": c, "x": c % 2, "y": c // 2, "kind": "dirt"} for c in range(4)]
    view = [(0, 0, "settlement"), (0, 1, "settlement"), (1, 1, "workshop"), (3, None, "outpost")]
    fig = charts.board_state(cells, view, ["a", "b"])
    titles = [a.text for a in fig.layout.annotations]
    assert titles == ["a's sheet", "b's sheet"]
    owned = [t for t in fig.data if t.mode == "markers+text"]
    # sheet a: its settlement and the neutral outpost; sheet b: settlement, workshop, outpost
    assert [(t.name, t.xaxis, len(t.x)) for t in owned] == [
        ("a", "x", 1), ("neutral", "x", 1), ("b", "x2", 2), ("neutral", "x2", 1)]
    assert sum(bool(t.showlegend) for t in owned) == 3              # each name once in the legend


def test_board_state_without_cells_says_so():
    fig = charts.board_state([], [(0, 0, "x")], ["a"])
    assert "no map" in fig.layout.annotations[0].text


def test_white_template_equals_plotly_validating_it():
    """charts.common.white sets the plotly_white template without plotly's re-validation (the
    largest fixed cost of a page, issue 16): the figure is the same as with update_layout's
    template="plotly_white", and it holds its own copy (editing it leaves the registry alone)."""
    import plotly.io as pio

    from dashboard.charts.common import white

    def scatter():
        return go.Figure(go.Scatter(x=[1, 2], y=[3, 4]))

    slow = scatter().update_layout(template="plotly_white", title="t")
    fast = white(scatter()).update_layout(title="t")
    assert fast.to_dict() == slow.to_dict()
    assert fast.layout._validate  # validation back on for the figure's own properties
    with pytest.raises(ValueError):
        fast.update_layout(no_such_property=1)
    fast.layout.template.layout.font.color = "#123456"
    assert pio.templates["plotly_white"].layout.font.color != "#123456"
    assert white(scatter()).to_dict() == scatter().update_layout(template="plotly_white").to_dict()


def test_board_at_step_draws_the_map_heatmaps_traces():
    """The Replay board draws map_heatmap's trace per seat (map_trace), not a figure each."""
    cells = [{"cell": c, "x": c % 2, "y": c // 2, "kind": "dirt"} for c in range(4)]
    fig = charts.board_at_step(cells, [{"step": 1, "seat": 0, "cell": 2}], 1, ["s0"])
    alone = charts.map_heatmap(cells, [{"cell": 2, "value": 1}], "value", "",
                               value_label="moves").data[0]
    drawn = fig.data[0].to_plotly_json()
    expected = alone.to_plotly_json()
    for key in ("zmin", "zmax", "showscale", "texttemplate", "colorbar", "xaxis", "yaxis"):
        drawn.pop(key, None), expected.pop(key, None)
    assert drawn == expected
