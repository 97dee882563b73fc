"""`delve export`: the contract tables of some runs as files (Parquet or CSV), streamed by DuckDB.

One file per table (`runs`, `games`, `players`, `moves`, `score_events`, `map_cells`) holding
the rows of the chosen runs (`map_cells`: the cells of their games), readable by polars,
pandas and DuckDB.  Each is DuckDB's `COPY (SELECT ...) TO` from a read-only connection, so
the rows go from the database file to the output file without passing through Python, however
big the run; the file is held only while the copy runs.  Rows are ordered by their key, so two
exports of the same runs hold the same rows in the same order.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Sequence

from engine.core.errors import DelveError

from .connect import connect_read, resolve_run
from .schema import SCHEMA

FORMATS = {"parquet": "(FORMAT parquet, COMPRESSION zstd)", "csv": "(FORMAT csv, HEADER true)"}

_ORDER = {"runs": "run_id", "games": "run_id, game_id", "players": "run_id, game_id, seat",
          "moves": "run_id, game_id, step", "score_events": "run_id, game_id, step, seat, category",
          "map_cells": "game, map, cell"}


def export_runs(db: str | os.PathLike, runs: Sequence[str], out: str | os.PathLike,
                fmt: str = "parquet") -> dict[str, tuple[Path, int]]:
    """Write the tables of `runs` (ids, unique prefixes or 'latest') to directory `out`;
    returns {table: (file, rows)}."""
    if fmt not in FORMATS:
        raise DelveError(f"--format {fmt}: expected one of {', '.join(FORMATS)}")
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise DelveError(f"Output '{out}' (-o) is a file: expected a directory")
    ids = list(dict.fromkeys(resolve_run(db, r)["run_id"] for r in runs))
    out.mkdir(parents=True, exist_ok=True)
    written: dict[str, tuple[Path, int]] = {}
    with connect_read(db) as con:
        con.execute("CREATE TEMP TABLE delve_export_runs AS SELECT unnest(?::VARCHAR[]) AS run_id",
                    [ids])
        for table in SCHEMA:
            cols = ", ".join(n for n, _ in SCHEMA[table])
            if table == "map_cells":
                where = ("game IN (SELECT r.game FROM runs AS r SEMI JOIN delve_export_runs "
                         "AS e ON e.run_id = r.run_id)")
            else:
                where = "run_id IN (SELECT run_id FROM delve_export_runs)"
            query = f"SELECT {cols} FROM {table} WHERE {where} ORDER BY {_ORDER[table]}"
            path = out / f"{table}.{fmt}"
            con.execute(f"COPY ({query}) TO '{_quote(path)}' {FORMATS[fmt]}")
            rows = con.execute(f"SELECT count(*) FROM {table} WHERE {where}").fetchone()[0]
            written[table] = (path, int(rows))
    return written


def _quote(path: Path) -> str:
    return str(path).replace("'", "''")
