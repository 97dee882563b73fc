"""Figures of the Scoring page: categories, rounds, winners against losers."""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go

from .common import NEUTRAL, SIGNIFICANT_HIGH, SIGNIFICANT_LOW, _empty_figure, _layout, _num, _rows, color_of


def category_stacked(frame: Any, title: str = "Mean points per player-game by category"
                     ) -> go.Figure:
    """Stacked bars: one bar per faction, one segment per score category (mean points)."""
    rows = _rows(frame)
    if not rows:
        return _empty_figure(title, "No score events for this selection")
    factions = sorted({str(r["faction"]) for r in rows})
    categories = sorted({str(r["category"]) for r in rows})
    colors = color_of(categories)
    value = {(str(r["faction"]), str(r["category"])): _num(r["mean"]) or 0.0 for r in rows}
    fig = go.Figure()
    for c in categories:
        fig.add_trace(go.Bar(name=c, x=factions, y=[value.get((f, c), 0.0) for f in factions],
                             marker_color=colors[c],
                             hovertemplate=f"<b>%{{x}}</b><br>{c}: %{{y:.2f}}<extra></extra>"))
    return _layout(fig, title, barmode="stack", xaxis_title="faction",
                   yaxis_title="mean points per player-game")


def category_boxes(frame: Any, title: str = "Points by category: distribution per faction"
                   ) -> go.Figure:
    """Grouped box plots (min–max whiskers) of each category's points per player-game, one
    box per faction within each category, from precomputed quantiles."""
    rows = _rows(frame)
    if not rows:
        return _empty_figure(title, "No score events for this selection")
    factions = sorted({str(r["faction"]) for r in rows})
    colors = color_of(factions)
    fig = go.Figure()
    for f in factions:
        part = sorted((r for r in rows if str(r["faction"]) == f), key=lambda r: str(r["category"]))
        fig.add_trace(go.Box(
            name=f, x=[str(r["category"]) for r in part], q1=[r["q1"] for r in part],
            median=[r["median"] for r in part], q3=[r["q3"] for r in part],
            lowerfence=[r["min"] for r in part], upperfence=[r["max"] for r in part],
            mean=[r["mean"] for r in part], marker_color=colors[f], boxpoints=False))
    return _layout(fig, title, boxmode="group", xaxis_title="category",
                   yaxis_title="points per player-game")


def round_curves(frame: Any, by: str = "faction",
                 title: str = "Cumulative points by round") -> go.Figure:
    """Mean cumulative points per player-game after each round: one curve per faction
    (``by="faction"``) or for winners and losers (``by="outcome"``)."""
    rows = _rows(frame)
    if not rows:
        return _empty_figure(title, "No score events for this selection")
    # re-aggregate over the other dimension with the weights n (rows hold per-group means)
    key = (lambda r: str(r["faction"])) if by == "faction" else (
        lambda r: "winners" if r["won"] else "losers")
    groups: dict[str, dict[int, float]] = {}
    weights: dict[str, dict[Any, int]] = {}
    for r in rows:
        g = key(r)
        weights.setdefault(g, {})[(r["faction"], r["won"])] = int(r["n"])
        groups.setdefault(g, {})
        groups[g][int(r["round"])] = groups[g].get(int(r["round"]), 0.0) + _num(r["points"]) * int(r["n"])
    names = sorted(groups)
    colors = color_of(names) if by == "faction" else {"winners": SIGNIFICANT_HIGH,
                                                       "losers": SIGNIFICANT_LOW}
    all_rounds = sorted({int(r["round"]) for r in rows})
    fig = go.Figure()
    for g in names:
        total_n = sum(weights[g].values()) or 1
        cum, ys = 0.0, []
        for rd in all_rounds:
            cum += groups[g].get(rd, 0.0) / total_n
            ys.append(cum)
        fig.add_trace(go.Scatter(name=g, x=all_rounds, y=ys, mode="lines+markers",
                                 line={"color": colors.get(g)},
                                 hovertemplate=f"<b>{g}</b><br>round %{{x}}: %{{y:.1f}} points"
                                               "<extra></extra>"))
    return _layout(fig, title, xaxis={"title": "round", "dtick": 1},
                   yaxis_title="mean cumulative points")


def winners_losers(frame: Any, title: str = "What separates winners from losers") -> go.Figure:
    """Within-game difference in points (winners − losers, averaged over games) per category
    with its 95% interval over games; Holm-significant differences are coloured."""
    rows = [r for r in _rows(frame) if _num(r.get("difference")) is not None]
    if not rows:
        return _empty_figure(title, "Needs both winners and losers")
    labels = [str(r["category"]) for r in rows]
    fig = go.Figure(go.Bar(
        x=[_num(r["difference"]) for r in rows], y=labels, orientation="h",
        marker_color=[(SIGNIFICANT_HIGH if _num(r["difference"]) > 0 else SIGNIFICANT_LOW)
                      if r.get("significant") else NEUTRAL for r in rows],
        error_x={"type": "data", "symmetric": False,
                 "array": [(_num(r["high"]) or _num(r["difference"])) - _num(r["difference"])
                           for r in rows],
                 "arrayminus": [_num(r["difference"]) - (_num(r["low"]) or _num(r["difference"]))
                                for r in rows], "color": "#333"},
        customdata=[[_num(r["winners"]), _num(r["losers"]), r["n_winners"], r["n_losers"]]
                    for r in rows],
        hovertemplate=("<b>%{y}</b><br>winners − losers: %{x:.2f}<br>winners %{customdata[0]:.2f}"
                       " (n=%{customdata[2]}), losers %{customdata[1]:.2f} (n=%{customdata[3]})"
                       "<extra></extra>")))
    return _layout(fig, title, xaxis_title="points: winners − losers (95% interval)",
                   yaxis={"autorange": "reversed"}, showlegend=False,
                   height=max(300, 32 * len(rows) + 120))
