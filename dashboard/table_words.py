"""A table as a designer reads it: plain column names, the game's names for the ids in its
cells, rates in %, p-values as people write them (`comparison_words.p_text`), other numbers
rounded.  The queries keep their column names and ids (the database, the CLI and the tests
read them); only what is shown changes.

`show(container, frame, game, column_config=...)` draws a polars frame with
`st.dataframe`; `words(frame, game, column_config)` is the pure part (the frame to show and
its column config), which tests call.  A column the page configures itself keeps its config;
every other column gets a label from `COLUMNS`, else its name with spaces for underscores.
"""

from __future__ import annotations

import re
from typing import Any, Mapping

import polars as pl

from dashboard.comparison_words import p_text
from dashboard.labels import game_labels

#: Columns whose cells are ids a game names (score categories, actions, options, sources...).
#: Columns of sentences that may end in an entry's id in brackets ('Knuckles (eq_knuckles)',
#: the key `delve checks --ablate` takes): shown without it.
SUBJECT_CELLS = ("subject",)

ID_CELLS = ("faction", "opponent", "category", "action", "phase", "option", "source", "id", "key", "cat", "winner_cat",
            "ended_by", "map", "card", "opening", "detail", "collection", "entry")

#: Plain names (and how to show the numbers) of the columns the queries return.
#: kind: "rate" (a share, shown in %), "p" (a p-value, as text), "n" (a count), "x" (a
#: number, 2 decimals), "text".
COLUMNS: dict[str, tuple[str, str]] = {
    "win_rate": ("win rate", "rate"), "rate": ("win rate", "rate"),
    "rest_win_rate": ("others' win rate", "rate"),
    "fair_share": ("fair share", "rate"), "share": ("share", "rate"),
    "share_low": ("share 95% low", "rate"), "share_high": ("share 95% high", "rate"),
    "share_chosen": ("share chosen", "rate"), "share_of_games": ("share of games", "rate"),
    "share_inside": ("share inside the range", "rate"), "share_at_most": ("share at its most", "rate"),
    "low_sim": ("simultaneous 95% low", "rate"), "high_sim": ("simultaneous 95% high", "rate"),
    "without_a_winner": ("games without a winner", "n"), "turn_limit": ("games cut by the turn limit", "n"),
    "p": ("p", "p"), "p_value": ("p", "p"), "p_holm": ("p (Holm)", "p"),
    "p_tost_holm": ("p balanced (Holm)", "p"),
    "n_games": ("games", "n"), "games": ("games", "n"), "n": ("count", "n"),
    "n_a": ("games A", "n"), "n_b": ("games B", "n"),
    "games_stored": ("games stored", "n"), "player_games": ("player-games", "n"),
    "mean_score": ("mean score", "x"), "sd_score": ("sd of score", "x"),
    "points_per_player_game": ("points per player-game", "x"),
    "mean_steps": ("mean steps", "x"), "median_steps": ("median steps", "x"),
    "median_rounds": ("median rounds", "x"), "max_round": ("last round", "n"),
    "rounds_p10": ("rounds (10th percentile)", "x"), "rounds_p90": ("rounds (90th percentile)", "x"),
    "uniform_would_choose": ("a uniform choice would choose", "x"),
    "vs_uniform": ("times a uniform choice", "x"), "vs_average": ("times the average", "x"),
    "more_games": ("more games to settle (80% power)", "n"),
    "diff": ("change B - A", "x"), "low": ("95% low", "x"), "high": ("95% high", "x"),
    "a": ("A", "x"), "b": ("B", "x"),
    "ended_by": ("ended by", "text"), "run_id": ("run", "text"), "rules_hash": ("rules hash", "text"),
    "n_players": ("players", "n"), "created_at": ("created", "text"),
}

_SNAKE = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)+$")
_ID = re.compile(r"^[a-z][a-z0-9_]*$")


def label_of(column: str) -> str:
    """A column's plain name: `COLUMNS`' label, else its name with spaces for underscores."""
    if column in COLUMNS:
        return COLUMNS[column][0]
    return column.replace("_", " ")


def word(labels: Mapping[str, str], token: str) -> str:
    """One id in words: the game's name for it, else (a snake_case id) spaces for underscores."""
    if token in labels:
        return labels[token]
    if "." in token and all(_ID.match(p) for p in token.split(".")):   # a rules path
        return " ".join(word(labels, p) for p in token.split("."))
    return token.replace("_", " ") if _SNAKE.match(token) else token


def cell_words(labels: Mapping[str, str], value: Any) -> Any:
    """An id cell in words: the cell's name, else each of its ids named ('build:ai_centre' ->
    'Build: AI Centre', 'discard e1_steel_mill' -> 'Discard a card Steel Mill')."""
    if value is None:
        return ""
    if not isinstance(value, str):
        return value
    if value in labels:
        return labels[value]
    def token(tok: str) -> str:
        if "=" in tok:                      # 'rejected=col_workshop' -> 'rejected: Workshop'
            k, _, v = tok.partition("=")
            return f"{word(labels, k)}: {token(v)}"
        return ": ".join(word(labels, p) for p in tok.split(":"))
    return " ".join(token(t) for t in value.split(" "))


_TRAILING_ID = re.compile(r" \(([\w.]+)\)$")


def drop_id(labels: Mapping[str, str], value: Any) -> Any:
    """'buildings: Bunk House (bunk_house)' -> 'buildings: Bunk House' when the bracket holds
    an id the names know (the sentence already names it); other brackets stay."""
    if not isinstance(value, str):
        return "" if value is None else value
    m = _TRAILING_ID.search(value)
    if m and (m.group(1) in labels or _SNAKE.match(m.group(1))):
        value = value[:m.start()]
    return " ".join(word(labels, t) if _SNAKE.match(t) else t for t in value.split(" "))


def _is_rate(frame: pl.DataFrame, column: str) -> bool:
    return column in COLUMNS and COLUMNS[column][1] == "rate"


def words(frame: pl.DataFrame | None, game: Any = None,
          column_config: Mapping[str, Any] | None = None,
          names: Mapping[str, str] | None = None) -> tuple[Any, dict[str, Any]]:
    """(frame to show, column config): ids in cells named, p-values as text, every column
    labelled and its numbers given a format, unless `column_config` already configures it."""
    import streamlit as st

    cfg: dict[str, Any] = dict(column_config or {})
    if frame is None or not hasattr(frame, "columns"):
        return frame, cfg
    labels = names if names is not None else game_labels(game)
    out = frame
    rate_low_high = any(_is_rate(frame, c) for c in frame.columns) and "mean_score" not in frame.columns
    for c in frame.columns:
        dtype = frame.schema[c]
        if dtype == pl.Utf8 and c in ID_CELLS:
            out = out.with_columns(pl.col(c).map_elements(lambda v: cell_words(labels, v),
                                                          return_dtype=pl.Utf8))
        elif dtype == pl.Utf8 and c in SUBJECT_CELLS:
            out = out.with_columns(pl.col(c).map_elements(lambda v: drop_id(labels, v),
                                                          return_dtype=pl.Utf8))
        elif dtype == pl.Utf8 and c == "game":
            from dashboard.labels import game_title
            out = out.with_columns(pl.col(c).map_elements(game_title, return_dtype=pl.Utf8))
        elif dtype == pl.Utf8:
            out = out.with_columns(pl.col(c).fill_null(""))
        kind = COLUMNS.get(c, ("", ""))[1]
        name = labels[c] if c in labels and c not in COLUMNS else label_of(c)   # a map's column
        numeric = dtype.is_numeric() if hasattr(dtype, "is_numeric") else False
        if kind == "p" and numeric:   # as people write it, even where the page names the column
            given = cfg.get(c)
            name = (given.get("label") if isinstance(given, Mapping) else given) or name
            out = out.with_columns(pl.col(c).map_elements(p_text, return_dtype=pl.Utf8))
            cfg[c] = st.column_config.TextColumn(name)
            continue
        if c in cfg:
            continue
        if numeric and (kind == "rate" or (c in ("low", "high") and rate_low_high)):
            cfg[c] = st.column_config.NumberColumn(name, format="percent")
        elif numeric and dtype.is_float():
            cfg[c] = st.column_config.NumberColumn(name, format="%.2f")
        elif numeric:
            cfg[c] = st.column_config.NumberColumn(name)
        elif name != c:
            cfg[c] = name
    return out, cfg


def show(container: Any, frame: Any, game: Any = None, *,
         column_config: Mapping[str, Any] | None = None,
         names: Mapping[str, str] | None = None, **kwargs: Any) -> Any:
    """Draw `frame` in `container` (st or a container) in a designer's words (`names`: the
    run's, `dashboard.labels.run_names`; else the game's labels)."""
    shown, cfg = words(frame, game, column_config, names)
    kwargs.setdefault("hide_index", True)
    return container.dataframe(shown, column_config=cfg, **kwargs)
