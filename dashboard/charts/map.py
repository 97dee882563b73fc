"""Figures of the Map page: heatmaps on the game's own geometry, and the map-panel grid the
boards share."""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go

from .common import _empty_figure, _layout, _num, _rows


def kind_codes(kinds: Any) -> dict[str, str]:
    """A short code for each cell kind, one kind to a code (issue 31: 'co' stood for four
    colony kinds): the initials of a kind of several words ('colony blue' -> 'cb', 'ring 2' ->
    'r2'), else its first two letters, lengthened until no two kinds share one."""
    out: dict[str, str] = {}
    taken: set[str] = set()
    for k in sorted({str(k) for k in kinds}):
        words = k.replace("_", " ").split()
        code = "".join(w[0] for w in words) if len(words) > 1 else k[:2]
        n = 3
        while code in taken and n <= len(k):
            code = k.replace(" ", "")[:n]
            n += 1
        taken.add(code)
        out[k] = code
    return out


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
    fig = go.Figure(map_trace(cell_rows, values, value, diverging, value_label))
    return _layout(fig, title, xaxis={"visible": False, "constrain": "domain"},
                   yaxis={"visible": False, "autorange": "reversed", "scaleanchor": "x"},
                   height=520)


def map_trace(cell_rows: list[dict[str, Any]], values: Any, value: str = "moves",
              diverging: bool = False, value_label: str | None = None
              ) -> go.Heatmap | go.Scatter:
    """The trace of :func:`map_heatmap` alone (``cell_rows``: the map's cells as row dicts),
    for figures that draw several maps (the Replay page's board per seat) without building
    a whole figure per map."""
    by_cell = {r["cell"]: _num(r.get(value)) or 0.0 for r in _rows(values)}
    xs = [r["x"] for r in cell_rows]
    ys = [r["y"] for r in cell_rows]
    vals = [by_cell.get(r["cell"], 0.0) for r in cell_rows]
    kinds = [str(r["kind"]) for r in cell_rows]
    code = kind_codes(kinds)
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
            text[r["y"] - y0][r["x"] - x0] = code[k]
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
        trace = go.Scatter(x=xs, y=ys, mode="markers+text", text=[code[k] for k in kinds],
                           textfont={"size": 8}, marker=marker,
                           customdata=[[r["cell"], k, v] for r, k, v in
                                       zip(cell_rows, kinds, vals, strict=True)],
                           hovertemplate=hover)
    return trace


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
