"""Figures of the Runs page: win rate by faction, points by category."""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go

from .common import (CATEGORY_COLOR, FACTION_COLOR, FAIR_SHARE_COLOR, _column, _empty_figure,
                     white)


def faction_win_rate_bar(factions: Any, title: str = "Win rate by faction") -> go.Figure:
    """Bars of win rate per faction, with the fair share (1 / players) as a dashed line.

    ``factions`` has the columns ``faction``, ``win_rate``, ``games`` and optionally
    ``fair_share`` and ``mean_score`` (shown on hover).
    """
    if len(factions) == 0:
        return _empty_figure(title, "No games stored for this run yet")
    names = [str(f) for f in _column(factions, "faction")]
    rates = [float(r) for r in _column(factions, "win_rate")]
    games = _column(factions, "games")
    columns = set(factions.columns)
    scores = _column(factions, "mean_score") if "mean_score" in columns else [None] * len(names)
    fig = go.Figure(
        go.Bar(
            name="win rate",
            x=names,
            y=rates,
            marker_color=FACTION_COLOR,
            customdata=list(zip(games, scores, strict=True)),
            hovertemplate=(
                "<b>%{x}</b><br>win rate %{y:.1%}<br>player-games %{customdata[0]}"
                "<br>mean score %{customdata[1]:.1f}<extra></extra>"
            ),
            text=[f"{r:.0%}" for r in rates],
            textposition="outside",
        )
    )
    if "fair_share" in columns:
        shares = [s for s in _column(factions, "fair_share") if s is not None]
        if shares:
            fair = sum(shares) / len(shares)
            fig.add_hline(
                y=fair,
                line_dash="dash",
                line_color=FAIR_SHARE_COLOR,
                annotation_text=f"fair share {fair:.0%}",
                annotation_position="top right",
            )
    top = max(rates + [0.0])
    white(fig).update_layout(
        title=title,
        xaxis_title="faction",
        yaxis={"title": "win rate", "tickformat": ".0%", "range": [0, max(0.05, top * 1.2)]},
        showlegend=False,
        margin={"t": 60, "b": 40, "l": 60, "r": 20},
    )
    return fig


def category_points_bar(
    categories: Any, value: str = "points_per_player_game",
    title: str = "Points per player-game by category",
) -> go.Figure:
    """Horizontal bars of score points per category (largest on top).

    ``categories`` has ``category`` and the ``value`` column (default: points per
    player-game); ``share`` is shown on hover when present.
    """
    if len(categories) == 0:
        return _empty_figure(title, "No score events stored for this run yet")
    names = [str(c) for c in _column(categories, "category")]
    values = [0.0 if v is None else float(v) for v in _column(categories, value)]
    share = (
        _column(categories, "share") if "share" in set(categories.columns) else [None] * len(names)
    )
    order = sorted(range(len(names)), key=lambda i: values[i])  # plotly draws bottom-up
    fig = go.Figure(
        go.Bar(
            name=value.replace("_", " ").replace("player game", "player-game"),
            orientation="h",
            y=[names[i] for i in order],
            x=[values[i] for i in order],
            customdata=[share[i] for i in order],
            marker_color=CATEGORY_COLOR,
            hovertemplate="<b>%{y}</b><br>%{x:.2f}<br>share %{customdata:.1%}<extra></extra>",
        )
    )
    white(fig).update_layout(
        title=title,
        xaxis_title=value.replace("_", " "),
        yaxis_title="category",
        showlegend=False,
        margin={"t": 60, "b": 40, "l": 100, "r": 20},
    )
    return fig
