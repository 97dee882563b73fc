"""Figure of a skill ladder (Runs page): each rung's win rate with its interval."""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go

from .common import FAIR_SHARE_COLOR, NEUTRAL, PALETTE, _empty_figure, _layout, _num, _rows

#: A validated rung's colour (green: beats the rung below); the others are NEUTRAL.
VALIDATED = PALETTE[2]


def ladder_win_rates(frame: Any, title: str = "Skill ladder: each rung's win rate against the "
                                              "rung below (95% Wilson intervals)") -> go.Figure:
    """One point per rung, bottom first (x = "SPEC over BELOW"), error bars = the Wilson
    interval, a validated rung in green (VALIDATED), the fair share as a dashed line."""
    rows = _rows(frame)
    if not rows:
        return _empty_figure(title, "This run is not a rung of a ladder (delve ladder)")
    xs = [f"{r['spec']} over {r['below']}" for r in rows]
    ys = [_num(r["rate"]) for r in rows]
    fig = go.Figure(go.Scatter(
        x=xs, y=ys, mode="markers", showlegend=False,
        marker={"size": 11, "color": [VALIDATED if r["validated"] else NEUTRAL
                                      for r in rows]},
        customdata=[["validated" if r["validated"] else "not validated", r["games"]]
                    for r in rows],
        hovertemplate="%{x}: %{y:.1%} of %{customdata[1]} games (%{customdata[0]})<extra></extra>",
        error_y={"type": "data", "symmetric": False,
                 "array": [(_num(r["high"]) or 0) - (y or 0) for r, y in zip(rows, ys)],
                 "arrayminus": [(y or 0) - (_num(r["low"]) or 0) for r, y in zip(rows, ys)]}))
    fair = _num(rows[0].get("fair_share"))
    if fair is not None:
        fig.add_hline(y=fair, line_dash="dash", line_color=FAIR_SHARE_COLOR,
                      annotation_text="fair share")
    fig.update_yaxes(tickformat=".0%", title_text="win rate", range=[0, 1.05])
    return _layout(fig, title)
