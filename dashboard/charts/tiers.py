"""Figures of the "by skill tier" view: each faction's win rate per tier, side by side."""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go

from .common import FAIR_SHARE_COLOR, PALETTE, _empty_figure, _layout, _num, _rows


def tier_win_rates(frame: Any, title: str = "Win rate by faction at each skill tier "
                                           "(95% intervals)") -> go.Figure:
    """Grouped points: x = faction, one trace per tier, error bars = the Wilson interval."""
    rows = _rows(frame)
    if not rows:
        return _empty_figure(title, "This run is not part of a tiers group (delve simulate --tiers)")
    tiers = list(dict.fromkeys(r["tier"] for r in rows))
    factions = sorted({r["faction"] for r in rows})
    fig = go.Figure()
    for i, tier in enumerate(tiers):
        part = {r["faction"]: r for r in rows if r["tier"] == tier}
        xs = [f for f in factions if f in part]
        ys = [_num(part[f]["rate"]) for f in xs]
        fig.add_trace(go.Scatter(
            x=xs, y=ys, mode="markers", name=tier, offsetgroup=str(i),
            marker={"size": 9, "color": PALETTE[i % len(PALETTE)]},
            error_y={"type": "data", "symmetric": False,
                     "array": [(_num(part[f]["high"]) or 0) - (y or 0) for f, y in zip(xs, ys)],
                     "arrayminus": [(y or 0) - (_num(part[f]["low"]) or 0) for f, y in zip(xs, ys)]}))
    fair = _num(rows[0].get("fair_share"))
    if fair is not None:
        fig.add_hline(y=fair, line_dash="dash", line_color=FAIR_SHARE_COLOR,
                      annotation_text="fair share")
    fig.update_layout(scattermode="group")
    fig.update_yaxes(tickformat=".0%", title_text="win rate")
    return _layout(fig, title, legend={"orientation": "h", "y": -0.2, "title": "tier"})
