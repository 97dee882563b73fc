"""What the figure builders share: colours, the layout, the interval-with-marks chart.

No Streamlit here, so tests (and the HTML report) call these directly. Inputs are the
aggregated frames from ``dashboard.queries`` (polars or pandas; only columns are read).
"""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go
import plotly.io as pio

FACTION_COLOR = "#4C78A8"
FAIR_SHARE_COLOR = "#E45756"
CATEGORY_COLOR = "#54A24B"


def _column(frame: Any, name: str) -> list[Any]:
    """A column as a plain list, for polars and pandas frames alike."""
    column = frame[name]
    return column.to_list() if hasattr(column, "to_list") else list(column)


def white(fig: go.Figure) -> go.Figure:
    """Give ``fig`` the ``plotly_white`` template, cheaply.

    Setting ``template="plotly_white"`` through ``update_layout`` makes plotly validate the
    whole template again (a few thousand properties, about 25 ms per figure on an idle
    machine: the largest fixed cost of a page's render, issue 16).  The registered template is
    valid already, so it is assigned with the layout's validation off, as plotly itself does
    for the default template (``BaseFigure._initialize_layout_template``): the layout then
    holds a copy of the template's JSON, the same values as before."""
    layout = fig.layout
    validate = layout._validate
    layout._validate = False
    try:
        layout.template = pio.templates["plotly_white"]
    finally:
        layout._validate = validate
    return fig


def _empty_figure(title: str, message: str) -> go.Figure:
    fig = white(go.Figure())
    fig.update_layout(
        title=title,
        xaxis={"visible": False},
        yaxis={"visible": False},
        annotations=[
            {"text": message, "showarrow": False, "xref": "paper", "yref": "paper",
             "x": 0.5, "y": 0.5, "font": {"size": 16}}
        ],
    )
    return fig



#: A fixed qualitative palette: a faction gets the colour of its position in sorted order, so
#: two exports of the same run draw identical figures.
PALETTE = ("#4C78A8", "#F58518", "#54A24B", "#E45756", "#72B7B2", "#EECA3B", "#B279A2",
           "#FF9DA6", "#9D755D", "#BAB0AC", "#1F3A5F", "#A0522D", "#2E8B57", "#8B0000",
           "#20B2AA", "#B8860B", "#6A5ACD", "#C71585", "#556B2F", "#4B4B4B")
SIGNIFICANT_HIGH = "#C0392B"
SIGNIFICANT_LOW = "#2471A3"
NEUTRAL = "#7F8C8D"


def _rows(frame: Any) -> list[dict[str, Any]]:
    """Rows as dicts, for polars and pandas frames and lists of dicts alike."""
    if isinstance(frame, list):
        return frame
    if hasattr(frame, "iter_rows"):
        return list(frame.iter_rows(named=True))
    return frame.to_dict("records")


def _num(value: Any) -> float | None:
    if value is None:
        return None
    try:
        value = float(value)
    except (TypeError, ValueError):
        return None
    return None if value != value else value  # NaN -> None


def color_of(names: list[str]) -> dict[str, str]:
    """A stable colour per name (sorted order), cycling the palette."""
    return {n: PALETTE[i % len(PALETTE)] for i, n in enumerate(sorted(set(names)))}


def _layout(fig: go.Figure, title: str, **extra: Any) -> go.Figure:
    white(fig).update_layout(title=title,
                             margin={"t": 60, "b": 50, "l": 70, "r": 20}, **extra)
    return fig


def _mark_color(row: dict[str, Any], p0_key: str = "fair_share") -> str:
    if not row.get("significant"):
        return NEUTRAL
    rate, p0 = _num(row.get("rate")), _num(row.get(p0_key))
    if rate is None or p0 is None:
        return NEUTRAL
    return SIGNIFICANT_HIGH if rate > p0 else SIGNIFICANT_LOW


def rate_with_interval(frame: Any, label: str, title: str, label_title: str | None = None
                       ) -> go.Figure:
    """Win rates as points with their 95% interval, the fair share as a dashed line per row.

    ``frame`` has the columns ``label``, ``rate``, ``low``, ``high``, ``games``, ``wins``,
    ``fair_share`` and ``significant`` (the exact binomial test rejects the fair share after
    Holm's correction; the drawn interval is the row's own 95% interval, not an adjusted one);
    significant rows are coloured red (above) or blue (below).
    """
    rows = [r for r in _rows(frame) if _num(r.get("rate")) is not None]
    if not rows:
        return _empty_figure(title, "No games for this selection")
    names = [str(r[label]) for r in rows]
    rates = [_num(r["rate"]) for r in rows]
    fig = go.Figure()
    fig.add_trace(go.Scatter(
        name="fair share", x=names, y=[_num(r.get("fair_share")) for r in rows],
        mode="markers", marker={"symbol": "line-ew-open", "size": 28, "color": FAIR_SHARE_COLOR,
                                "line": {"width": 2}},
        hovertemplate="fair share %{y:.1%}<extra></extra>"))
    fig.add_trace(go.Scatter(
        name="win rate (95% interval)", x=names, y=rates, mode="markers",
        marker={"size": 11, "color": [_mark_color(r) for r in rows]},
        error_y={"type": "data", "symmetric": False,
                 "array": [_num(r["high"]) - _num(r["rate"]) for r in rows],
                 "arrayminus": [_num(r["rate"]) - _num(r["low"]) for r in rows],
                 "color": "#555", "thickness": 1.5, "width": 6},
        customdata=[[r["wins"], r["games"], _num(r["low"]), _num(r["high"]),
                     _num(r.get("p_holm"))] for r in rows],
        hovertemplate=("<b>%{x}</b><br>win rate %{y:.1%} (95% CI %{customdata[2]:.1%} – "
                       "%{customdata[3]:.1%})<br>%{customdata[0]} wins in %{customdata[1]} "
                       "player-games<br>Holm p = %{customdata[4]:.3g}<extra></extra>")))
    top = max([_num(r["high"]) or 0 for r in rows] + [0.05])
    return _layout(fig, title, xaxis_title=label_title or label,
                   yaxis={"title": "win rate", "tickformat": ".0%", "range": [0, min(1, top * 1.15)]},
                   legend={"orientation": "h", "y": -0.2})
