"""Figures of the Factions page: win rates with intervals, seats, score boxes, the matrix,
the strength model."""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go

from .common import FAIR_SHARE_COLOR, PALETTE, _empty_figure, _layout, _num, _rows, color_of, rate_with_interval


def faction_win_rates(frame: Any, title: str = "Win rate by faction (95% intervals)") -> go.Figure:
    """Win rate per faction with its interval against the fair share 1/P."""
    return rate_with_interval(frame, "faction", title, "faction")


def seat_win_rates(frame: Any, title: str = "Win rate by seat and by turn order") -> go.Figure:
    """Win rate per table seat and per turn position (0 = the game's starting player), two
    panels."""
    from plotly.subplots import make_subplots

    rows = _rows(frame)
    if not rows:
        return _empty_figure(title, "No games for this selection")
    kinds = ["seat", "turn order"]
    fig = make_subplots(rows=1, cols=2, subplot_titles=["by table seat", "by turn order (0 = starting player)"],
                        shared_yaxes=True)
    for col, kind in enumerate(kinds, start=1):
        part = [r for r in rows if r["kind"] == kind]
        sub = rate_with_interval(part, "position", "", kind) if part else go.Figure()
        for trace in sub.data:
            trace.showlegend = col == 1
            trace.x = [str(x) for x in (trace.x or [])]
            fig.add_trace(trace, row=1, col=col)
    top = max([_num(r.get("high")) or 0 for r in rows] + [0.05])
    fig.update_yaxes(tickformat=".0%", range=[0, min(1, top * 1.15)])
    fig.update_yaxes(title_text="win rate", row=1, col=1)
    fig.update_xaxes(type="category")
    return _layout(fig, title, legend={"orientation": "h", "y": -0.2})


def score_boxes(quantiles: Any, title: str = "Final score by faction") -> go.Figure:
    """Box plots of the final score per faction from precomputed quantiles (whiskers at the
    5th and 95th percentiles, the mean as a dashed line)."""
    rows = _rows(quantiles)
    if not rows:
        return _empty_figure(title, "No games for this selection")
    names = [str(r["faction"]) for r in rows]
    colors = color_of(names)
    fig = go.Figure()
    for r, name in zip(rows, names, strict=True):
        fig.add_trace(go.Box(
            name=name, x=[name], q1=[r["q1"]], median=[r["median"]], q3=[r["q3"]],
            lowerfence=[r["p05"]], upperfence=[r["p95"]], mean=[r["mean"]],
            marker_color=colors[name], boxpoints=False,
            hovertemplate=f"<b>%{{x}}</b> ({r['n']} player-games)<extra></extra>"))
    return _layout(fig, title, showlegend=False, xaxis_title="faction", yaxis_title="final score")


def faction_matrix(frame: Any, title: str = "Head to head: how often the row faction finished "
                                            "above the column faction") -> go.Figure:
    """Heatmap of head-to-head shares: in the games both factions played, the share the row
    faction finished above the column faction (ties 1/2; 50% = an even matchup).  A ▲/▼ marks a
    pair whose exact binomial test against 1/2 rejects after Holm's correction over the pairs;
    the hover gives the cell's 95% interval and its simultaneous (Bonferroni) interval.  Pairs
    that never shared a table are grey and say so: nothing can be said about them."""
    rows = _rows(frame)
    if not rows:
        return _empty_figure(title, "No games for this selection")
    factions = sorted({str(r["faction"]) for r in rows} | {str(r["opponent"]) for r in rows})
    cell = {(str(r["faction"]), str(r["opponent"])): r for r in rows}
    z, text, custom, grey, grey_text = [], [], [], [], []
    for a in factions:
        zr, tr, cr, gr, gt = [], [], [], [], []
        for b in factions:
            r = cell.get((a, b))
            empty = a != b and (r is None or not r.get("games"))
            gr.append(1 if empty else None)
            gt.append("never met" if empty else "")
            if r is None or _num(r.get("rate")) is None:
                zr.append(None), tr.append(""), cr.append([0, 0, None, None, None, None])
                continue
            mark = ""
            if r.get("significant"):
                mark = " ▲" if _num(r["rate"]) > 0.5 else " ▼"
            zr.append(_num(r["rate"]))
            tr.append(f"{_num(r['rate']):.0%}{mark}")
            cr.append([r["wins"], r["games"], _num(r["low"]), _num(r["high"]),
                       _num(r.get("low_sim")), _num(r.get("high_sim"))])
        z.append(zr), text.append(tr), custom.append(cr), grey.append(gr), grey_text.append(gt)
    fig = go.Figure(go.Heatmap(
        z=z, x=factions, y=factions, text=text, texttemplate="%{text}", customdata=custom,
        colorscale="RdBu_r", zmid=0.5, zmin=0, zmax=1,
        colorbar={"title": "above", "tickformat": ".0%"},
        hovertemplate=("<b>%{y}</b> above %{x} in %{z:.1%} of their %{customdata[1]} shared games "
                       "(95% CI %{customdata[2]:.1%} – %{customdata[3]:.1%}; simultaneous "
                       "%{customdata[4]:.1%} – %{customdata[5]:.1%})<extra></extra>")))
    if any(v for row in grey for v in row):
        fig.add_trace(go.Heatmap(
            z=grey, x=factions, y=factions, text=grey_text, texttemplate="%{text}",
            colorscale=[[0, "#d0d0d0"], [1, "#d0d0d0"]], showscale=False, name="never met",
            hovertemplate=("<b>%{y}</b> and %{x} never sat at the same table in this selection: "
                           "nothing is known about this matchup<extra></extra>")))
    return _layout(fig, title, xaxis={"title": "opponent", "side": "bottom"},
                   yaxis={"title": "faction", "autorange": "reversed"})


def strength_forest(terms: Any, title: str = "Finishing-order strength: log-strength with 95% intervals"
                    ) -> go.Figure:
    """Forest plot of the strength model's terms (factions centred on 0 = average; seats and
    bots against their reference level; a seat with its own fixed bot is labelled with it)."""
    rows = _rows(terms)
    if not rows:
        return _empty_figure(title, "Not enough games to fit the model")
    labels = [f"{r['kind']}: {r['level']}" for r in rows]
    fig = go.Figure(go.Scatter(
        x=[_num(r["estimate"]) for r in rows], y=labels, mode="markers",
        marker={"size": 10, "color": [PALETTE[0] if r["kind"] == "faction" else PALETTE[1]
                                      for r in rows]},
        error_x={"type": "data", "symmetric": False,
                 "array": [_num(r["high"]) - _num(r["estimate"]) for r in rows],
                 "arrayminus": [_num(r["estimate"]) - _num(r["low"]) for r in rows],
                 "color": "#555"},
        customdata=[[_num(r["low"]), _num(r["high"]), _num(r.get("odds"))] for r in rows],
        hovertemplate=("<b>%{y}</b><br>log-strength %{x:.2f} (95% CI %{customdata[0]:.2f} – "
                       "%{customdata[1]:.2f})<br>strength ×%{customdata[2]:.2f}<extra></extra>")))
    fig.add_vline(x=0, line_dash="dash", line_color=FAIR_SHARE_COLOR)
    return _layout(fig, title, xaxis_title="log-strength (0 = average faction / reference seat)",
                   yaxis={"autorange": "reversed"}, height=max(320, 28 * len(rows) + 120),
                   showlegend=False)
