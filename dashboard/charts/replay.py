"""Figures of the Replay page: the board at a step (per seat, or the game's board view) and
the score race."""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go

from .common import PALETTE, _empty_figure, _layout, _rows
from .map import _finish_map_panel, _map_panels, map_trace


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
        trace = map_trace(cell_rows, values, "value", value_label="moves")
        row, col = i // per_row + 1, i % per_row + 1
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
