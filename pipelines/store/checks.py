"""The database contract's invariants (DESIGN.md), one SQL file each in pipelines/store/sql/."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from . import aggregates
from .connect import connect_read

SQL_DIR = Path(__file__).with_name("sql")
CHECKS = {
    "score_sums": "sum(score_events.points) = players.score for every seat",
    "done_games_complete": "every game of a done run has its players, moves and score events "
                           "(none if nobody scored)",
    "games_once": "each game of a run stored exactly once",
    "move_cells_on_map": "every moves.cell is a space of its map in map_cells",
}
AGGREGATES_CHECK = ("aggregates", "every aggregate table equals its recomputation from the raw "
                                  "rows of the games it covers (runs listed in agg_runs; every "
                                  "game once nothing is pending, and a done run has nothing "
                                  "pending)")


@dataclass
class CheckResult:
    name: str
    description: str
    violations: int
    example: tuple | None
    note: str = ""     # e.g. how many games are pending (not yet aggregated, not compared)


def run_checks(db, run_id: str | None = None) -> list[CheckResult]:
    out = []
    with connect_read(db) as con:
        for name, description in CHECKS.items():
            sql = (SQL_DIR / f"check_{name}.sql").read_text()
            rows = con.execute(sql, {"run": run_id}).fetchall()
            out.append(CheckResult(name, description, len(rows), rows[0] if rows else None))
        out.append(_check_aggregates(con, run_id))
    return out


def _check_aggregates(con, run_id: str | None) -> CheckResult:
    """Each aggregated run's tables against their recomputation (pipelines.store.aggregates);
    runs without aggregates (written before them: `delve aggregate` builds them) are skipped."""
    name, description = AGGREGATES_CHECK
    have = {r[0] for r in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
    if "agg_runs" not in have:
        return CheckResult(name, description, 0, None)
    runs = [r[0] for r in con.execute(
        "SELECT run_id FROM agg_runs WHERE version = $version AND ($run IS NULL OR run_id = $run) "
        "ORDER BY run_id", {"run": run_id, "version": aggregates.VERSION}).fetchall()]
    violations, example, pending = 0, None, {}
    status = dict(con.execute("SELECT run_id, status FROM runs").fetchall())
    for run in runs:
        for bad in aggregates.verify(con, run):   # the games covered (all, if none pending)
            violations += bad.rows
            example = example or (run, bad.table, bad.example)
        waiting = aggregates.pending(con, run)
        if waiting:
            pending[run] = waiting
            if status.get(run) == "done":   # the run's last write catches up: a bug
                violations += waiting
                example = example or (run, "agg_pending", f"{waiting} games of a done run")
    note = ""
    if pending:
        note = ("compared the games covered; " + ", ".join(
            f"run {run}: {n} games pending (written, not yet aggregated)"
            for run, n in pending.items()))
    return CheckResult(name, description, violations, example, note)
