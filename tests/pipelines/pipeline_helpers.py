"""Helpers of the pipeline tests (imported by the test modules; conftest puts this dir on sys.path)."""

from __future__ import annotations

TABLES = ("games", "players", "moves", "score_events")
VOLATILE = {"wall_ms", "created_at", "finished_at", "run_id", "wall_s", "config", "label",
            "host", "pid", "heartbeat_at"}  # who wrote a run and when it last beat


def glimmerdeep_ready() -> bool:
    try:
        from engine.core.registry import all_games
        return "glimmerdeep" in all_games()
    except Exception:
        return False


def dump(db, run_id=None, tables=TABLES):
    """Every row of the batch tables (optionally of one run), without volatile columns,
    sorted, as {table: [tuple, ...]} — for determinism comparisons."""
    from pipelines.store import SCHEMA, connect_read
    out = {}
    with connect_read(db) as con:
        for t in tables:
            cols = [c for c, _ in SCHEMA[t] if c not in VOLATILE]
            sql = f"SELECT {', '.join(cols)} FROM {t}"
            params = []
            if run_id is not None:
                sql += " WHERE run_id = ?"
                params = [run_id]
            out[t] = sorted(con.execute(sql, params).fetchall(), key=repr)
    return out


def only_run_id(db) -> str:
    from pipelines.store import connect_read
    with connect_read(db) as con:
        rows = con.execute("SELECT run_id FROM runs").fetchall()
    assert len(rows) == 1
    return rows[0][0]


def e2e_setup() -> tuple[str, int, str]:
    """(game, players, bots) of the end-to-end tests: Glimmerdeep once it is registered,
    the toy game until then."""
    if glimmerdeep_ready():
        return "glimmerdeep", 4, "greedy,random,random,random"
    return "toy", 3, "greedy,random,random"


def file_digest(path) -> str:
    import hashlib
    from pathlib import Path
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def aggregate_rows(db, run_id=None) -> dict[str, list]:
    """The run's (default: the only run's) aggregate tables summed by key (issue 16)."""
    from pipelines.store import aggregates, connect_read
    run_id = run_id or only_run_id(db)
    with connect_read(db) as con:
        return aggregates.summed(con, run_id)


def assert_aggregates_exact(db) -> None:
    """Every run has its aggregates, and each equals its recomputation from the raw rows (what
    `delve check` verifies)."""
    from pipelines.store import aggregates, connect_read
    with connect_read(db) as con:
        runs = [r[0] for r in con.execute("SELECT run_id FROM runs").fetchall()]
        for run_id in runs:
            assert aggregates.is_maintained(con, run_id), run_id
            assert aggregates.verify(con, run_id) == [], run_id
