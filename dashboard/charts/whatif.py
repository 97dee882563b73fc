"""Pure Plotly figure builders of the What-if page (tests call them without Streamlit)."""

from __future__ import annotations

import plotly.graph_objects as go
import polars as pl

DIFF_COLORS = {True: "#c0392b", False: "#7f8c8d"}


def diff_forest(table: pl.DataFrame, metric: str, title: str) -> go.Figure:
    """B - A per faction and seat; the bars are simultaneous 95% intervals over each row's
    family (Bonferroni: `low_sim`, `high_sim` of pipelines.lab.compare), as strict as the
    family's Holm marks (audit N7); red rows are significant after Holm; the hover gives the
    row's own 95% interval too."""
    rows = table.filter(pl.col("metric") == metric)
    labels = [f"{k}: {v}" for k, v in zip(rows["kind"], rows["key"])]
    diff = rows["diff"].to_list()
    sim = "low_sim" in rows.columns
    lo = rows["low_sim" if sim else "low"].to_list()
    hi = rows["high_sim" if sim else "high"].to_list()
    fig = go.Figure()
    fig.add_trace(go.Scatter(
        x=diff, y=labels, mode="markers",
        marker=dict(color=[DIFF_COLORS[bool(s)] for s in rows["significant"]], size=9),
        error_x=dict(type="data", symmetric=False,
                     array=[h - d for h, d in zip(hi, diff)],
                     arrayminus=[d - v for v, d in zip(lo, diff)]),
        customdata=list(zip(rows["low"].to_list(), rows["high"].to_list(), lo, hi)),
        hovertemplate=("%{y}: %{x:.3f} (95% interval %{customdata[0]:.3f} to %{customdata[1]:.3f}; "
                       "simultaneous %{customdata[2]:.3f} to %{customdata[3]:.3f})<extra></extra>"),
        name="B - A"))
    fig.add_vline(x=0, line_dash="dash", line_color="#555")
    what = "simultaneous 95% interval over the family" if sim else "95% interval"
    fig.update_layout(title=title, xaxis_title=f"{metric.replace('_', ' ')}: B - A ({what})",
                      yaxis=dict(autorange="reversed"), height=120 + 26 * len(labels),
                      margin=dict(l=10, r=10, t=40, b=40), showlegend=False)
    if metric == "win_rate":
        fig.update_xaxes(tickformat=".0%")
    return fig


def category_diff_bar(categories: pl.DataFrame) -> go.Figure:
    d = categories["diff"].to_list()
    fig = go.Figure(go.Bar(
        x=categories["category"].to_list(), y=d,
        error_y=dict(type="data", symmetric=False,
                     array=[h - x for h, x in zip(categories["high"].to_list(), d)],
                     arrayminus=[x - lo for lo, x in zip(categories["low"].to_list(), d)])))
    fig.update_layout(title="Points per player-game by category: B - A",
                      yaxis_title="points (95% interval)", margin=dict(l=10, r=10, t=40, b=40))
    return fig


def heatmap_diff(heat: pl.DataFrame, map_id: str, map_name: str | None = None) -> go.Figure:
    """Moves per game on each cell of one map: B - A; a cell whose change is beyond noise
    (`compare.heatmap_noise`: Holm over the cells) carries a dot, the hover its standard
    error."""
    sub = heat.filter((pl.col("map") == map_id) & pl.col("x").is_not_null())
    lim = max([abs(v) for v in sub["diff"].to_list()] + [1e-9])
    noise = "se" in sub.columns
    marks = ["●" if s else "" for s in sub["significant"].to_list()] if noise else None
    fig = go.Figure(go.Heatmap(
        x=sub["x"].to_list(), y=sub["y"].to_list(), z=sub["diff"].to_list(),
        colorscale="RdBu", reversescale=True, zmin=-lim, zmax=lim,
        colorbar=dict(title="B - A"), text=marks, texttemplate="%{text}" if noise else None,
        customdata=sub["se"].to_list() if noise else None,
        hovertemplate=("x %{x}, y %{y}: %{z:+.3f} ± %{customdata:.3f} moves/game<extra></extra>"
                       if noise else "x %{x}, y %{y}: %{z:+.3f} moves/game<extra></extra>")))
    fig.update_layout(title=f"Move heatmap difference on {map_name or map_id} "
                            "(moves per game, B - A; ● beyond noise)",
                      yaxis=dict(autorange="reversed", scaleanchor="x"),
                      margin=dict(l=10, r=10, t=40, b=10))
    return fig


def sweep_lines(table: pl.DataFrame, param: str) -> go.Figure:
    """Each faction's win rate against the swept value, with 95% intervals and the fair share."""
    fig = go.Figure()
    for faction in sorted(set(table["faction"].to_list())):
        sub = table.filter(pl.col("faction") == faction).sort("value")
        wr = sub["win_rate"].to_list()
        fig.add_trace(go.Scatter(
            x=sub["value"].to_list(), y=wr, mode="lines+markers", name=faction,
            error_y=dict(type="data", symmetric=False,
                         array=[h - w for h, w in zip(sub["high"].to_list(), wr)],
                         arrayminus=[w - lo for lo, w in zip(sub["low"].to_list(), wr)])))
    if table.height:
        fig.add_hline(y=float(table["fair"][0]), line_dash="dash", line_color="#555",
                      annotation_text="fair share")
    fig.update_layout(title=f"Win rate against {param}", xaxis_title=param,
                      yaxis_title="win rate (95% interval)", yaxis_tickformat=".0%",
                      margin=dict(l=10, r=10, t=40, b=40))
    return fig
