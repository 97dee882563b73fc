"""Issue 18, exports: `delve export RUN [RUN ...] --format parquet|csv -o DIR` writes the
contract tables of those runs, one file per table, with the same rows as the database,
readable by polars, pandas and DuckDB."""

from __future__ import annotations

import duckdb
import polars as pl
import pytest

from pipelines.store import SCHEMA, connect_read

TABLES = ("runs", "games", "players", "moves", "score_events", "map_cells")


def _simulate(cli, db, seed, label):
    r = cli("simulate", "toy", "--games", "12", "--players", "3", "--seed", seed, "--db", db,
            "--no-progress", "--label", label)
    assert r.exit_code == 0, r.output
    return r.stdout.splitlines()[0]


def _db_rows(db, table, run_ids):
    cols = ", ".join(n for n, _ in SCHEMA[table])
    with connect_read(db) as con:
        if table == "map_cells":
            where = "game IN (SELECT game FROM runs WHERE run_id IN (SELECT unnest(?)))"
        else:
            where = "run_id IN (SELECT unnest(?))"
        return sorted(con.execute(f"SELECT {cols} FROM {table} WHERE {where}", [run_ids]).fetchall(),
                      key=repr)


@pytest.mark.parametrize("fmt", ["parquet", "csv"])
def test_export_writes_the_same_rows_as_the_database(cli, tmp_path, fmt):
    db = tmp_path / "x.duckdb"
    a = _simulate(cli, db, 1, "a")
    b = _simulate(cli, db, 2, "b")
    _simulate(cli, db, 3, "not exported")
    out = tmp_path / "out"
    r = cli("export", a, b, "--format", fmt, "-o", out, "--db", db)
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in out.iterdir()) == sorted(f"{t}.{fmt}" for t in TABLES)
    con = duckdb.connect()
    for table in TABLES:
        path = out / f"{table}.{fmt}"
        expected = _db_rows(db, table, [a, b])
        assert expected, table
        if fmt == "parquet":
            got = con.execute(f"SELECT * FROM read_parquet('{path}')").fetchall()
            assert sorted(got, key=repr) == expected, table
            assert pl.read_parquet(path).height == len(expected)
        else:  # CSV: the same rows once typed as in the database ("" is an empty text, an
            # empty field NULL: DuckDB writes them so, and reads them so with allow_quoted_nulls off)
            types = ", ".join(f"'{n}': '{t if t != 'JSON' else 'VARCHAR'}'" for n, t in SCHEMA[table])
            got = con.execute(f"SELECT * FROM read_csv('{path}', header = true, allow_quoted_nulls = false, "
                              f"columns = {{{types}}})").fetchall()
            assert sorted(got, key=repr) == [tuple(str(v) if isinstance(v, str) else v for v in row)
                                             for row in expected], table
            import pandas as pd
            assert len(pd.read_csv(path)) == len(expected)
        assert f"{table}" in r.stdout and f"{len(expected):,} rows" in r.stdout.split(table, 1)[1].splitlines()[0]
    runs = pl.read_parquet(out / "runs.parquet") if fmt == "parquet" else pl.read_csv(out / "runs.csv")
    assert sorted(runs["run_id"].to_list()) == sorted([a, b])
    assert runs["rules"].null_count() == 0       # the run rows carry their rules


def test_export_bad_input_names_the_culprit(cli, tmp_path):
    db = tmp_path / "x.duckdb"
    _simulate(cli, db, 1, "a")
    r = cli("export", "nope", "-o", tmp_path / "o", "--db", db)
    assert r.exit_code == 2 and "Unknown run 'nope'" in r.output
    (tmp_path / "file").write_text("")
    r = cli("export", "latest", "-o", tmp_path / "file", "--db", db)
    assert r.exit_code == 2
