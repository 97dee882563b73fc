"""The tables of the database contract (DESIGN.md): columns, types, keys, Arrow schemas.

Names are a public interface: add columns, never rename.
"""

from __future__ import annotations

import pyarrow as pa

DEFAULT_DB = "data/delve.duckdb"

# Column order and types of every table.  Names are a public interface: add, never rename.
SCHEMA: dict[str, tuple[tuple[str, str], ...]] = {
    "runs": (
        ("run_id", "VARCHAR"), ("created_at", "TIMESTAMP"), ("game", "VARCHAR"),
        ("label", "VARCHAR"), ("variant", "VARCHAR"), ("rules_hash", "VARCHAR"),
        ("rules", "JSON"), ("config", "JSON"), ("seed", "BIGINT"), ("n_games", "INTEGER"),
        ("status", "VARCHAR"), ("engine_version", "VARCHAR"), ("finished_at", "TIMESTAMP"),
        ("error", "VARCHAR"), ("n_players", "INTEGER"), ("bots", "VARCHAR"),
        ("factions", "VARCHAR"), ("map", "VARCHAR"), ("sets", "JSON"),
        ("games_done", "INTEGER"), ("wall_s", "DOUBLE"),
        ("paired_with", "VARCHAR"), ("sweep_id", "VARCHAR"),  # what-if lab (pipelines/run/pairing.py)
        # liveness (pipelines/store/liveness.py): who writes a running run, and its heartbeat
        ("host", "VARCHAR"), ("pid", "INTEGER"), ("heartbeat_at", "TIMESTAMP"),
    ),
    "games": (
        ("run_id", "VARCHAR"), ("game_id", "INTEGER"), ("seed", "UBIGINT"),
        ("n_players", "INTEGER"), ("map", "VARCHAR"), ("rounds", "INTEGER"),
        ("steps", "INTEGER"), ("first_seat", "INTEGER"), ("winner_seat", "INTEGER"),
        ("ended_by", "VARCHAR"), ("wall_ms", "DOUBLE"),
        ("start_seat", "INTEGER"),  # the starting player (first_seat: first player of the last round)
    ),
    "players": (
        ("run_id", "VARCHAR"), ("game_id", "INTEGER"), ("seat", "INTEGER"),
        ("faction", "VARCHAR"), ("bot", "VARCHAR"), ("score", "INTEGER"), ("rank", "INTEGER"),
        ("won", "BOOLEAN"), ("ability", "VARCHAR"),
        ("held_cards", "VARCHAR"),  # cards the seat held, space-separated ids (Game state.held_cards)
    ),
    "moves": (
        ("run_id", "VARCHAR"), ("game_id", "INTEGER"), ("step", "INTEGER"), ("round", "INTEGER"),
        ("phase", "VARCHAR"), ("seat", "INTEGER"), ("action", "VARCHAR"), ("detail", "VARCHAR"),
        ("cell", "INTEGER"),
        ("offered", "VARCHAR"),  # what the decision offered (engine/core/offers.py), NULL if not listed
    ),
    "score_events": (
        ("run_id", "VARCHAR"), ("game_id", "INTEGER"), ("step", "INTEGER"),
        ("round", "INTEGER"), ("seat", "INTEGER"), ("category", "VARCHAR"),
        ("points", "INTEGER"),
    ),
    "map_cells": (
        ("game", "VARCHAR"), ("map", "VARCHAR"), ("cell", "INTEGER"), ("x", "INTEGER"),
        ("y", "INTEGER"), ("kind", "VARCHAR"),
    ),
}

# Designers' own playtests (human games), beside the simulated ones and of the same shape:
# `playtests` is one played game (as `games`, with the import it came from), `playtest_players`
# one seat (as `players`), `playtest_score_events` one noted category total (as `score_events`,
# step and round NULL: a playtest notes final totals).  `playtest_id` names one imported file.
# Written by `delve playtests import` (pipelines/playtests/store.py); public like the six above.
PLAYTEST_SCHEMA: dict[str, tuple[tuple[str, str], ...]] = {
    "playtests": (
        ("playtest_id", "VARCHAR"), ("game_id", "INTEGER"), ("game", "VARCHAR"),
        ("label", "VARCHAR"), ("source_file", "VARCHAR"), ("content_hash", "VARCHAR"),
        ("imported_at", "TIMESTAMP"), ("game_key", "VARCHAR"), ("played_on", "DATE"),
        ("event", "VARCHAR"), ("game_number", "INTEGER"), ("n_players", "INTEGER"),
        ("map", "VARCHAR"), ("variant", "VARCHAR"), ("rules_hash", "VARCHAR"),
        ("rounds", "INTEGER"), ("winner_seat", "INTEGER"), ("tie", "BOOLEAN"),
    ),
    "playtest_players": (
        ("playtest_id", "VARCHAR"), ("game_id", "INTEGER"), ("seat", "INTEGER"),
        ("faction", "VARCHAR"), ("player", "VARCHAR"), ("score", "INTEGER"), ("rank", "INTEGER"),
        ("won", "BOOLEAN"), ("notes", "VARCHAR"),
    ),
    "playtest_score_events": (
        ("playtest_id", "VARCHAR"), ("game_id", "INTEGER"), ("step", "INTEGER"),
        ("round", "INTEGER"), ("seat", "INTEGER"), ("category", "VARCHAR"), ("points", "INTEGER"),
    ),
}

PLAYTEST_KEYS: dict[str, tuple[str, ...]] = {
    "playtests": ("playtest_id", "game_id"),
    "playtest_players": ("playtest_id", "game_id", "seat"),
}

_ARROW = {"VARCHAR": pa.string(), "INTEGER": pa.int32(), "BIGINT": pa.int64(),
          "UBIGINT": pa.uint64(), "DOUBLE": pa.float64(), "BOOLEAN": pa.bool_(),
          "TIMESTAMP": pa.timestamp("us"), "JSON": pa.string()}

# The batch columns a worker produces (everything but run_id, which the writer adds).
BATCH_TABLES = ("games", "players", "moves", "score_events")

# Primary keys: a game (and each of its seats) can be in a run only once, so a resumed or
# re-sent chunk can never duplicate one.  Moves and score events are written in the same
# transaction as their game's row, so the games key covers them too.
PRIMARY_KEYS: dict[str, tuple[str, ...]] = {
    "runs": ("run_id",),
    "games": ("run_id", "game_id"),
    "players": ("run_id", "game_id", "seat"),
    "map_cells": ("game", "map", "cell"),
}


def arrow_schema(table: str, *, with_run_id: bool = False) -> pa.Schema:
    cols = SCHEMA[table]
    if not with_run_id:
        cols = tuple(c for c in cols if c[0] != "run_id")
    return pa.schema([(name, _ARROW[typ]) for name, typ in cols])


def to_arrow(table: str, columns: dict[str, list]) -> pa.Table:
    """Columns (dict of lists) -> an Arrow table with the contract's types.  A column added
    to the schema that the producer does not give is NULL."""
    schema = arrow_schema(table, with_run_id="run_id" in columns)
    n = len(next(iter(columns.values()), []))
    return pa.table({f.name: pa.array(columns[f.name], type=f.type) if f.name in columns
                     else pa.nulls(n, type=f.type) for f in schema}, schema=schema)


def to_arrow_subset(table: str, columns: dict[str, list]) -> pa.Table:
    types = dict(SCHEMA[table])
    return pa.table({n: pa.array(v, type=_ARROW[types[n]]) for n, v in columns.items()})
