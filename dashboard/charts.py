"""Pure Plotly figure builders: DataFrame in, ``go.Figure`` out.

No Streamlit here, so tests (and the HTML report) call these directly. Inputs are the
aggregated frames from ``dashboard.queries`` (polars or pandas; only columns are read).
"""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go

FACTION_COLOR = "#4C78A8"
FAIR_SHARE_COLOR = "#E45756"
CATEGORY_COLOR = "#54A24B"


def _column(frame: Any, name: str) -> list[Any]:
    """A column as a plain list, for polars and pandas frames alike."""
    column = frame[name]
    return column.to_list() if hasattr(column, "to_list") else list(column)


def _empty_figure(title: str, message: str) -> go.Figure:
    fig = go.Figure()
    fig.update_layout(
        title=title,
        xaxis={"visible": False},
        yaxis={"visible": False},
        annotations=[
            {"text": message, "showarrow": False, "xref": "paper", "yref": "paper",
             "x": 0.5, "y": 0.5, "font": {"size": 16}}
        ],
        template="plotly_white",
    )
    return fig


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
    fig.update_layout(
        title=title,
        xaxis_title="faction",
        yaxis={"title": "win rate", "tickformat": ".0%", "range": [0, max(0.05, top * 1.2)]},
        template="plotly_white",
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
            name=value,
            orientation="h",
            y=[names[i] for i in order],
            x=[values[i] for i in order],
            customdata=[share[i] for i in order],
            marker_color=CATEGORY_COLOR,
            hovertemplate="<b>%{y}</b><br>%{x:.2f}<br>share %{customdata:.1%}<extra></extra>",
        )
    )
    fig.update_layout(
        title=title,
        xaxis_title=value.replace("_", " "),
        yaxis_title="category",
        template="plotly_white",
        showlegend=False,
        margin={"t": 60, "b": 40, "l": 100, "r": 20},
    )
    return fig


# --- shared helpers for the analysis pages ------------------------------------------------

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
    fig.update_layout(title=title, template="plotly_white",
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
    ``fair_share`` and ``significant`` (Holm-corrected: the interval excludes the fair share);
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


def faction_win_rates(frame: Any, title: str = "Win rate by faction (95% intervals)") -> go.Figure:
    """Win rate per faction with its interval against the fair share 1/P."""
    return rate_with_interval(frame, "faction", title, "faction")


def seat_win_rates(frame: Any, title: str = "Win rate by seat and by turn order") -> go.Figure:
    """Win rate per table seat and per turn position (0 = first player), two panels."""
    from plotly.subplots import make_subplots

    rows = _rows(frame)
    if not rows:
        return _empty_figure(title, "No games for this selection")
    kinds = ["seat", "turn order"]
    fig = make_subplots(rows=1, cols=2, subplot_titles=["by table seat", "by turn order (0 = first player)"],
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


def faction_matrix(frame: Any, title: str = "Win rate of faction (row) in games with opponent (column)"
                   ) -> go.Figure:
    """Heatmap of the win rate of each faction against each opponent; cells whose interval
    excludes the fair share after Holm's correction carry a ▲ (above) or ▼ (below)."""
    rows = _rows(frame)
    if not rows:
        return _empty_figure(title, "No games for this selection")
    factions = sorted({str(r["faction"]) for r in rows} | {str(r["opponent"]) for r in rows})
    cell = {(str(r["faction"]), str(r["opponent"])): r for r in rows}
    z, text, custom = [], [], []
    for a in factions:
        zr, tr, cr = [], [], []
        for b in factions:
            r = cell.get((a, b))
            if r is None or _num(r.get("rate")) is None:
                zr.append(None), tr.append(""), cr.append([0, 0, None, None])
                continue
            mark = ""
            if r.get("significant"):
                mark = " ▲" if _num(r["rate"]) > _num(r["fair_share"]) else " ▼"
            zr.append(_num(r["rate"]))
            tr.append(f"{_num(r['rate']):.0%}{mark}")
            cr.append([r["wins"], r["games"], _num(r["low"]), _num(r["high"])])
        z.append(zr), text.append(tr), custom.append(cr)
    fair = [_num(r.get("fair_share")) for r in rows if _num(r.get("fair_share")) is not None]
    mid = sum(fair) / len(fair) if fair else 0.25
    fig = go.Figure(go.Heatmap(
        z=z, x=factions, y=factions, text=text, texttemplate="%{text}", customdata=custom,
        colorscale="RdBu_r", zmid=mid, zmin=0, zmax=min(1.0, 2 * mid) if mid else 1,
        colorbar={"title": "win rate", "tickformat": ".0%"},
        hovertemplate=("<b>%{y}</b> with %{x} at the table<br>win rate %{z:.1%} (95% CI "
                       "%{customdata[2]:.1%} – %{customdata[3]:.1%})<br>%{customdata[0]} wins in "
                       "%{customdata[1]} games<extra></extra>")))
    return _layout(fig, title, xaxis={"title": "opponent", "side": "bottom"},
                   yaxis={"title": "faction", "autorange": "reversed"})


def strength_forest(terms: Any, title: str = "Strength model: log-strength with 95% intervals"
                    ) -> go.Figure:
    """Forest plot of the strength model's terms (factions centred on 0 = average; seats and
    bots against their reference level)."""
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


# --- scoring ------------------------------------------------------------------------------

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
    """Difference in mean points (winners − losers) per category with its 95% interval;
    Holm-significant differences are coloured."""
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


# --- maps ---------------------------------------------------------------------------------

def _is_dense_grid(xs: list[int], ys: list[int]) -> bool:
    """Cells on distinct integer positions filling most of their bounding box: a grid."""
    if not xs or len(set(zip(xs, ys))) != len(xs):
        return False
    if any(float(v) != int(v) for v in (*xs, *ys)):
        return False
    area = (max(xs) - min(xs) + 1) * (max(ys) - min(ys) + 1)
    return len(xs) >= 0.6 * area


def map_heatmap(cells: Any, values: Any, value: str = "moves", title: str = "Map",
                diverging: bool = False, value_label: str | None = None) -> go.Figure:
    """Draw a value per map cell with the game's own geometry from ``map_cells`` (x, y, kind).

    ``cells`` has ``cell``, ``x``, ``y``, ``kind``; ``values`` has ``cell`` and ``value``
    (cells without a value show 0). A dense integer grid is drawn as a heatmap of squares;
    any other layout (spaces on tiles, hexes...) as markers at their coordinates. ``diverging``
    centres the colour scale on 0 (differences between runs).
    """
    cell_rows = _rows(cells)
    if not cell_rows:
        return _empty_figure(title, "This game declares no map cells")
    by_cell = {r["cell"]: _num(r.get(value)) or 0.0 for r in _rows(values)}
    xs = [r["x"] for r in cell_rows]
    ys = [r["y"] for r in cell_rows]
    vals = [by_cell.get(r["cell"], 0.0) for r in cell_rows]
    kinds = [str(r["kind"]) for r in cell_rows]
    label = value_label or value
    scale = "RdBu_r" if diverging else "YlOrRd"
    span = max([abs(v) for v in vals] + [1e-9])
    color_args: dict[str, Any] = ({"zmid": 0, "zmin": -span, "zmax": span} if diverging
                                  else {"zmin": 0})
    hover = f"cell %{{customdata[0]}} (%{{customdata[1]}})<br>{label}: %{{customdata[2]:.3g}}<extra></extra>"
    if _is_dense_grid(xs, ys):
        x0, y0 = min(xs), min(ys)
        w, h = max(xs) - x0 + 1, max(ys) - y0 + 1
        z = [[None] * w for _ in range(h)]
        text = [[""] * w for _ in range(h)]
        custom = [[[None, "", None]] * w for _ in range(h)]
        for r, v, k in zip(cell_rows, vals, kinds, strict=True):
            z[r["y"] - y0][r["x"] - x0] = v
            text[r["y"] - y0][r["x"] - x0] = k[:2]
            custom[r["y"] - y0][r["x"] - x0] = [r["cell"], k, v]
        trace = go.Heatmap(z=z, x=list(range(x0, x0 + w)), y=list(range(y0, y0 + h)),
                           text=text, texttemplate="%{text}", textfont={"size": 9},
                           customdata=custom, colorscale=scale, xgap=1, ygap=1,
                           colorbar={"title": label}, hovertemplate=hover, **color_args)
    else:
        marker = {"symbol": "square", "size": 16, "color": vals, "colorscale": scale,
                  "colorbar": {"title": label}, "line": {"width": 1, "color": "#444"},
                  "showscale": True}
        if diverging:
            marker.update(cmid=0, cmin=-span, cmax=span)
        else:
            marker.update(cmin=0)
        trace = go.Scatter(x=xs, y=ys, mode="markers+text", text=[k[:2] for k in kinds],
                           textfont={"size": 8}, marker=marker,
                           customdata=[[r["cell"], k, v] for r, k, v in
                                       zip(cell_rows, kinds, vals, strict=True)],
                           hovertemplate=hover)
    fig = go.Figure(trace)
    return _layout(fig, title, xaxis={"visible": False, "constrain": "domain"},
                   yaxis={"visible": False, "autorange": "reversed", "scaleanchor": "x"},
                   height=520)


def _map_panels(n: int, titles: list[str] | None) -> tuple[go.Figure, int, int]:
    """A grid of ``n`` small map panels (two a row for four, else up to three): (figure,
    panels per row, rows). Panel ``k`` sits at row ``k // per_row + 1``, column
    ``k % per_row + 1``; :func:`_finish_map_panel` sets its axes."""
    from plotly.subplots import make_subplots

    per_row = 2 if n == 4 else min(n, 3)
    n_rows = -(-n // per_row)
    fig = make_subplots(rows=n_rows, cols=per_row, subplot_titles=titles,
                        horizontal_spacing=0.04, vertical_spacing=0.08)
    return fig, per_row, n_rows


def _finish_map_panel(fig: go.Figure, k: int, row: int, col: int,
                      outline: tuple[Any, Any] | None = None, size: int = 14) -> None:
    """Panel ``k``'s axes (hidden, y downwards, square cells) and, at ``outline`` (x, y),
    the outlined cell of the current move."""
    if outline is not None:
        fig.add_trace(go.Scatter(x=[outline[0]], y=[outline[1]], mode="markers",
                                 showlegend=False, hoverinfo="skip",
                                 marker={"symbol": "square-open", "size": size,
                                         "color": "#111", "line": {"width": 3}}),
                      row=row, col=col)
    axis = "" if k == 0 else str(k + 1)
    fig.update_xaxes(visible=False, constrain="domain", row=row, col=col)
    fig.update_yaxes(visible=False, autorange="reversed", scaleanchor=f"x{axis}",
                     row=row, col=col)


def board_at_step(cells: Any, moves: Any, step: int, seats: list[str],
                  title: str = "Board") -> go.Figure:
    """One small map per seat: the cells each seat worked (moves with a ``cell``) up to
    ``step``, darker for more moves, the cell of the move at ``step`` outlined. A generic
    board view rebuilt from the move log on the game's own geometry (a shared map shows each
    seat's own placements; a per-player map, such as Glimmerdeep's, each player's sheet)."""
    cell_rows = _rows(cells)
    if not cell_rows:
        return _empty_figure(title, "This game has no map to draw")
    n = max(len(seats), 1)
    fig, per_row, n_rows = _map_panels(n, seats)
    counts: list[dict[Any, int]] = [{} for _ in range(n)]
    current = None
    for m in _rows(moves):
        if m.get("cell") is None or int(m["step"]) > step or not 0 <= int(m["seat"]) < n:
            continue
        counts[int(m["seat"])][m["cell"]] = counts[int(m["seat"])].get(m["cell"], 0) + 1
        if int(m["step"]) == step:
            current = (int(m["seat"]), m["cell"])
    top = max([max(c.values(), default=0) for c in counts] + [1])
    xy = {r["cell"]: (r["x"], r["y"]) for r in cell_rows}
    for i in range(n):
        values = [{"cell": c, "value": v} for c, v in counts[i].items()]
        sub = map_heatmap(cells, values, "value", "", value_label="moves")
        row, col = i // per_row + 1, i % per_row + 1
        for trace in sub.data:
            if isinstance(trace, go.Heatmap):
                trace.update(zmin=0, zmax=top, showscale=i == 0, texttemplate="",
                             colorbar={"title": "moves", "len": 0.5})
            else:  # spaces at free coordinates: smaller markers, no labels, in a small panel
                trace.update(mode="markers")
                trace.marker.update(cmin=0, cmax=top, showscale=i == 0, size=9)
            fig.add_trace(trace, row=row, col=col)
        here = current and current[0] == i and current[1] in xy
        _finish_map_panel(fig, i, row, col, outline=xy[current[1]] if here else None)
    return _layout(fig, title, height=300 * n_rows + 80, showlegend=False)


NEUTRAL_COLOR = "#9E9E9E"


def _short(label: str) -> str:
    """A cell's text: the first 4 letters of its label ('+' when more lies there)."""
    parts = [p for p in str(label).split(" · ") if p]
    head = parts[0] if parts else ""
    return head[:4] + ("+" if len(parts) > 1 else "")


def board_state(cells: Any, view: Any, seats: list[str], title: str = "Board",
                current: Any = None) -> go.Figure:
    """The board as it is at one state, drawn on the game's own geometry (``map_cells``:
    ``cell``, ``x``, ``y``, ``kind``): every cell of the map in light grey, each occupied
    cell (``view``: ``(cell, seat or None, label)`` rows from ``Game.board_view``) coloured
    by its owner seat (grey: neutral) with a short text and its full label on hover.
    When a cell carries entries of several seats (each player has a sheet of their own),
    one panel per seat shows that seat's sheet, neutral entries on every panel; otherwise
    one shared board. ``current`` (a cell) is outlined: the cell of the move at this step."""
    cell_rows = _rows(cells)
    if not cell_rows:
        return _empty_figure(title, "This game has no map to draw")
    entries = [(c, None if s is None else int(s), str(lab)) for c, s, lab in view]
    xy = {r["cell"]: (r["x"], r["y"]) for r in cell_rows}
    kind = {r["cell"]: str(r["kind"]) for r in cell_rows}
    owners: dict[Any, set[int]] = {}
    for c, s, _lab in entries:
        if s is not None:
            owners.setdefault(c, set()).add(s)
    sheets = any(len(v) > 1 for v in owners.values())
    panels = list(range(len(seats))) if sheets and seats else [None]
    fig, per_row, n_rows = _map_panels(
        len(panels), [f"{seats[i]}'s sheet" for i in panels] if sheets else None)
    xs = [r["x"] for r in cell_rows]
    ys = [r["y"] for r in cell_rows]
    span = max(max(xs) - min(xs), max(ys) - min(ys)) + 1
    size = max(6, min(30, int(620 / per_row / span * 0.8)))
    colors = [PALETTE[i % len(PALETTE)] for i in range(len(seats))]
    shown: set[Any] = set()
    for k, panel in enumerate(panels):
        row, col = k // per_row + 1, k % per_row + 1
        fig.add_trace(go.Scatter(
            x=xs, y=ys, mode="markers", showlegend=False,
            marker={"symbol": "square", "size": size, "color": "#F2F2F2",
                    "line": {"width": 1, "color": "#CCCCCC"}},
            customdata=[[r["cell"], kind[r["cell"]]] for r in cell_rows],
            hovertemplate="cell %{customdata[0]} (%{customdata[1]})<extra></extra>"),
            row=row, col=col)
        groups: dict[Any, list] = {}
        for c, s, lab in entries:
            if c in xy and (s is None or panel is None or s == panel):
                groups.setdefault(s, []).append((c, lab))
        for s in sorted(groups, key=lambda v: (v is None, v if v is not None else 0)):
            items = groups[s]
            name = "neutral" if s is None else (seats[s] if s < len(seats) else f"seat {s}")
            fig.add_trace(go.Scatter(
                x=[xy[c][0] for c, _ in items], y=[xy[c][1] for c, _ in items],
                mode="markers+text", name=name, legendgroup=name,
                showlegend=name not in shown,
                text=[_short(lab) for _, lab in items], textfont={"size": 8, "color": "#111"},
                marker={"symbol": "square", "size": size, "line": {"width": 1, "color": "#444"},
                        "color": NEUTRAL_COLOR if s is None else colors[s % len(colors)]},
                customdata=[[c, kind.get(c, ""), lab] for c, lab in items],
                hovertemplate=(f"{name}<br>cell %{{customdata[0]}} (%{{customdata[1]}})"
                               "<br>%{customdata[2]}<extra></extra>")), row=row, col=col)
            shown.add(name)
        here = current is not None and current in xy and \
            (panel is None or panel in owners.get(current, ()))
        _finish_map_panel(fig, k, row, col, outline=xy[current] if here else None,
                          size=size + 4)
    height = (330 * n_rows + 90) if sheets else 620
    return _layout(fig, title, height=height, legend={"orientation": "h", "y": -0.02})


def score_race(scores: Any, seats: list[str], step: int | None = None,
               title: str = "Score by step") -> go.Figure:
    """Cumulative score of every seat along the game's steps, with the current step marked.
    ``scores`` has ``step``, ``seat`` and ``points`` (one row per score event)."""
    rows = sorted(_rows(scores), key=lambda r: (int(r["step"]), int(r["seat"])))
    fig = go.Figure()
    last = max([int(r["step"]) for r in rows] + [step or 0, 1])
    for i, name in enumerate(seats):
        xs, ys, total = [0], [0], 0
        for r in rows:
            if int(r["seat"]) == i:
                total += int(r["points"])
                xs.append(int(r["step"]))
                ys.append(total)
        xs.append(last)
        ys.append(total)
        fig.add_trace(go.Scatter(name=name, x=xs, y=ys, mode="lines", line_shape="hv",
                                 line={"color": PALETTE[i % len(PALETTE)]}))
    if step is not None:
        fig.add_vline(x=step, line_dash="dot", line_color="#333")
    return _layout(fig, title, xaxis_title="step", yaxis_title="points", height=360)
