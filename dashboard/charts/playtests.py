"""Figures of the Playtests page: human games beside the bot tiers (pipelines/playtests)."""

from __future__ import annotations

from typing import Any

import numpy as np
import plotly.graph_objects as go

from .common import PALETTE, _empty_figure, _layout, _rows
from .tiers import tier_win_rates

HUMAN_COLOR = "#111111"


def playtest_win_rates(rates: Any, fair: float, title: str = "Win rate by faction: your "
                       "playtests (exact 95% intervals) and each bot tier (Wilson)") -> go.Figure:
    """The tiers' grouped-points chart, with the playtests as the first group."""
    rows = [{"tier": r["source"], "faction": r["faction"], "rate": r["rate"], "low": r["low"],
             "high": r["high"], "fair_share": fair} for r in _rows(rates)]
    if not rows:
        return _empty_figure(title, "No decided playtest in this selection")
    return tier_win_rates(rows, title)


def playtest_scores(human: list[float], tier_scores: Any,
                    title: str = "Final scores: share of seats at or below each score") -> go.Figure:
    """Empirical distribution functions: the playtests' seats against each tier's."""
    if not human:
        return _empty_figure(title, "No playtest in this selection")
    fig = go.Figure()
    xs = np.sort(np.asarray(human, dtype=float))
    fig.add_trace(go.Scatter(x=xs, y=np.arange(1, len(xs) + 1) / len(xs), mode="lines",
                             line={"shape": "hv", "width": 3, "color": HUMAN_COLOR},
                             name=f"playtests ({len(xs)} seats)"))
    rows = _rows(tier_scores)
    tiers = list(dict.fromkeys(r["tier"] for r in rows))
    for i, t in enumerate(tiers):
        part = sorted((float(r["score"]), float(r["n"])) for r in rows if r["tier"] == t)
        x = [p[0] for p in part]
        n = np.cumsum([p[1] for p in part])
        fig.add_trace(go.Scatter(x=x, y=n / n[-1], mode="lines", line={"shape": "hv",
                                 "color": PALETTE[i % len(PALETTE)]}, name=f"{t} ({int(n[-1]):,} seats)"))
    fig.update_yaxes(tickformat=".0%", title_text="seats at or below", range=[0, 1.02])
    fig.update_xaxes(title_text="final score")
    return _layout(fig, title, legend={"orientation": "h", "y": -0.25})


def playtest_category_shares(shares: Any, title: str = "Where the points come from: "
                             "share of all points by category") -> go.Figure:
    rows = _rows(shares)
    if not rows:
        return _empty_figure(title, "No playtest noted its score categories")
    sources = list(dict.fromkeys(r["source"] for r in rows))
    cats = list(dict.fromkeys(r["category"] for r in rows))
    fig = go.Figure()
    for i, s in enumerate(sources):
        part = {r["category"]: r["share"] for r in rows if r["source"] == s}
        fig.add_trace(go.Bar(x=cats, y=[part.get(c, 0.0) for c in cats], name=s,
                             marker_color=HUMAN_COLOR if s == "playtests" else PALETTE[(i - 1) % len(PALETTE)]))
    fig.update_layout(barmode="group")
    fig.update_yaxes(tickformat=".0%", title_text="share of points")
    return _layout(fig, title, legend={"orientation": "h", "y": -0.25})
