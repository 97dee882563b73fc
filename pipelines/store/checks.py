"""The database contract's invariants (DESIGN.md), one SQL file each in pipelines/store/sql/."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .connect import connect_read

SQL_DIR = Path(__file__).with_name("sql")
CHECKS = {
    "score_sums": "sum(score_events.points) = players.score for every seat",
    "done_games_complete": "every game of a done run has its players, moves and score events "
                           "(none if nobody scored)",
    "games_once": "each game of a run stored exactly once",
    "move_cells_on_map": "every moves.cell is a space of its map in map_cells",
}


@dataclass
class CheckResult:
    name: str
    description: str
    violations: int
    example: tuple | None


def run_checks(db, run_id: str | None = None) -> list[CheckResult]:
    out = []
    with connect_read(db) as con:
        for name, description in CHECKS.items():
            sql = (SQL_DIR / f"check_{name}.sql").read_text()
            rows = con.execute(sql, {"run": run_id}).fetchall()
            out.append(CheckResult(name, description, len(rows), rows[0] if rows else None))
    return out
