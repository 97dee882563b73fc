"""Per-run aggregate tables, maintained by the writer beside the raw rows (issue 16; at most one
catch-up behind them, issue 31), so that the dashboard's pages read small tables whatever the
run's size.

The raw tables stay the contract and the source of truth.  Each aggregate is one SQL
definition in `sql/aggregates/agg_<name>.sql`, written over the placeholders `{games}`,
`{players}`, `{moves}` and `{score_events}` (the rows being aggregated) and used three ways:

- the writer (`add`): over the games of one catch-up (`catch_up`: the games pending since the
  last one), or the games just ingested from staged files by a resume, appended as *delta* rows: every measure is a count or an
  integer sum, and every row a sum of per-game contributions, so deltas add up exactly and a
  reader always sums them by key (`compact` merges a run's deltas into one row per key);
- `rebuild`: over every game of a run (a database written before the aggregates existed,
  `delve aggregate`);
- `delve check` (`verify`): the definition over every game the run's aggregates cover (every
  game once nothing is pending), compared row by row with the stored rows summed by key.

`agg_runs` lists the runs whose aggregates are maintained (since the run's first game, or
rebuilt) and the definitions' `VERSION`: the pages read the aggregates of those runs only, and
fall back to the raw tables for the others.

The aggregates lag the raw rows by at most one catch-up (issue 31, PERFORMANCE.md "The
aggregates lag the raw rows"): `agg_pending` (run_id, game_id) lists the games written but not
yet aggregated, filled in the raw rows' own transaction (`pend`); `catch_up` aggregates exactly
those games from the raw tables and empties their rows in one transaction.  So at every commit

    aggregates + (the definitions over the pending games) = the definitions over every game,

the aggregates are exact for the *covered* games (a run's games not pending), a run with
nothing pending has exact aggregates, and a killed run loses nothing: its pending games are
caught up by the resume (or by the next process that opens the file for writing).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

#: Bump when a definition changes: runs aggregated with another version are rebuilt/ignored.
VERSION = 2   # 2: head to head over decided games only (agg_matrix)

SQL_DIR = Path(__file__).with_name("sql") / "aggregates"

# the game-level filter columns every aggregate carries
_GAME = (("n_players", "INTEGER"), ("map", "VARCHAR"))
_PLAYER = _GAME + (("bot", "VARCHAR"), ("faction", "VARCHAR"))


@dataclass(frozen=True)
class Aggregate:
    name: str
    keys: tuple[tuple[str, str], ...]      # grouping columns (after run_id), in output order
    measures: tuple[tuple[str, str], ...]  # additive columns (counts, integer sums)

    @property
    def table(self) -> str:
        return f"agg_{self.name}"

    @property
    def columns(self) -> tuple[tuple[str, str], ...]:
        return (("run_id", "VARCHAR"),) + self.keys + self.measures

    def definition(self, sources: dict[str, str]) -> str:
        players = (SQL_DIR / "_players.sql").read_text().split("\n", 2)[2]  # after the comment
        text = (SQL_DIR / f"{self.table}.sql").read_text()
        text = text.replace("{gp}", players.strip()).replace("{seat_pivot}", seat_pivot_sql())
        return text.format(**sources)


#: Seats the strength model's seat pivot handles (agg_lineups and the Factions page's raw path).
LINEUP_SEATS = 8


def seat_pivot_sql(alias: str = "p") -> str:
    """The select list that turns one game's player rows (`alias`, grouped by game) into one
    row: the faction, bot and finishing rank in each seat 0..LINEUP_SEATS-1, who won (a bit
    mask), the top seat and the number of seats.  A pivot with a constant list of seats: hash
    aggregation, no per-game sorting.  The one definition agg_lineups and the raw path share."""
    a, seats = alias, range(LINEUP_SEATS)
    cols = [f"max(CASE WHEN {a}.seat = {i} THEN {a}.faction END) AS f{i}, "
            f"max(CASE WHEN {a}.seat = {i} THEN coalesce({a}.bot, '') END) AS b{i}" for i in seats]
    cols += [f"max(CASE WHEN {a}.seat = {i} THEN {a}.rank END) AS r{i}" for i in seats]
    cols += [f"sum(CAST({a}.won AS BIGINT) << {a}.seat)::BIGINT AS won_mask",
             f"max({a}.seat)::INTEGER AS top_seat", "count(*)::BIGINT AS seats"]
    return ",\n           ".join(cols)


_LINEUP = tuple((f"{k}{i}", "VARCHAR") for i in range(LINEUP_SEATS) for k in ("f", "b")) \
    + tuple((f"r{i}", "INTEGER") for i in range(LINEUP_SEATS)) \
    + (("won_mask", "BIGINT"), ("top_seat", "INTEGER"), ("seats", "BIGINT"))

AGGREGATES: tuple[Aggregate, ...] = (
    Aggregate("games", _GAME, (("games", "BIGINT"),)),
    Aggregate("seats", _PLAYER + (("seat", "INTEGER"), ("start_position", "INTEGER"),
                                  ("won", "BOOLEAN"), ("n_won", "INTEGER")),
              (("players", "BIGINT"), ("score_sum", "BIGINT"), ("score_sq", "HUGEINT"))),
    Aggregate("scores", _PLAYER + (("won", "BOOLEAN"), ("score", "INTEGER")),
              (("players", "BIGINT"),)),
    Aggregate("matrix", _PLAYER + (("opponent", "VARCHAR"),),
              (("pairs", "BIGINT"), ("half_wins", "BIGINT"))),
    Aggregate("lineups", _GAME + _LINEUP, (("games", "BIGINT"),)),
    Aggregate("categories", _PLAYER + (("won", "BOOLEAN"), ("category", "VARCHAR"),
                                       ("points", "BIGINT")),
              (("players", "BIGINT"),)),
    Aggregate("category_totals", (("category", "VARCHAR"),), (("points", "BIGINT"),)),
    Aggregate("rounds", _PLAYER + (("won", "BOOLEAN"), ("round", "INTEGER")),
              (("points", "BIGINT"),)),
    Aggregate("within", _GAME + (("all_bots", "BOOLEAN"), ("bot", "VARCHAR"),
                                 ("category", "VARCHAR")),
              (("games", "BIGINT"), ("d_sum", "BIGINT"), ("d_sq", "HUGEINT"))),
    Aggregate("cells", _PLAYER + (("won", "BOOLEAN"), ("cell", "INTEGER"), ("action", "VARCHAR")),
              (("moves", "BIGINT"), ("points", "BIGINT"))),
)

#: Table name -> columns, for the writer's CREATE TABLE (beside the contract's SCHEMA).
#: `agg_pending` is bookkeeping, not an aggregate: the games written and not yet aggregated.
SCHEMA: dict[str, tuple[tuple[str, str], ...]] = {
    "agg_runs": (("run_id", "VARCHAR"), ("version", "INTEGER"), ("built_at", "TIMESTAMP")),
    "agg_pending": (("run_id", "VARCHAR"), ("game_id", "INTEGER")),
    **{a.table: a.columns for a in AGGREGATES},
}
PRIMARY_KEYS = {"agg_runs": ("run_id",)}


def run_sources(run_id_param: str = "$run") -> dict[str, str]:
    """Every game of one run (the raw tables cut to the run)."""
    return {t: f"(SELECT * FROM {t} WHERE run_id = {run_id_param})"
            for t in ("games", "players", "moves", "score_events")}


def subset_sources(ids_table: str) -> dict[str, str]:
    """The run's games whose ids are in the temporary table `ids_table` (game_id)."""
    return {t: f"(SELECT * FROM {t} WHERE run_id = $run AND game_id IN "
               f"(SELECT game_id FROM {ids_table}))"
            for t in ("games", "players", "moves", "score_events")}


def _pending_sources() -> dict[str, str]:
    """The run's games listed in the temporary table `delve_pend` (game_id), whose ids lie in
    [$lo, $hi]: constant bounds DuckDB prunes the raw tables' row groups with (their zone maps),
    so a catch-up reads the run's recent row groups, not the whole run."""
    return {t: f"(SELECT * FROM {t} WHERE run_id = $run AND game_id BETWEEN $lo AND $hi "
               f"AND game_id IN (SELECT game_id FROM delve_pend))"
            for t in ("games", "players", "moves", "score_events")}


def _covered_sources() -> dict[str, str]:
    """The run's games that are not pending (what its aggregates cover)."""
    return {t: f"(SELECT * FROM {t} WHERE run_id = $run AND game_id NOT IN "
               f"(SELECT game_id FROM agg_pending WHERE run_id = $run))"
            for t in ("games", "players", "moves", "score_events")}


def _insert(con, agg: Aggregate, run_id: str, sources: dict[str, str],
            params: dict | None = None) -> None:
    cols = ", ".join(n for n, _ in agg.columns)
    con.execute(f"INSERT INTO {agg.table} ({cols}) SELECT $run, * FROM ("  # constants
                f"{agg.definition(sources)})", {"run": run_id, **(params or {})})


def add(con, run_id: str, sources: dict[str, str], params: dict | None = None) -> None:
    """Append the aggregates of the games in `sources` (delta rows) to the run's."""
    for agg in AGGREGATES:
        _insert(con, agg, run_id, sources, params)


# -- the lag: games written and not yet aggregated (agg_pending) ---------------------------------

def has_pending_table(con) -> bool:
    """Whether the database has `agg_pending` (one written before issue 31 has none, and
    nothing pending)."""
    return bool(con.execute("SELECT count(*) FROM duckdb_tables() WHERE schema_name = 'main' "
                            "AND table_name = 'agg_pending'").fetchone()[0])


def pend(con, run_id: str, game_ids) -> int:
    """List the games `game_ids` (an Arrow array of game ids) as written and not yet
    aggregated, in the raw rows' transaction; returns how many."""
    import pyarrow as pa
    ids = pa.table({"game_id": game_ids})
    if ids.num_rows == 0:
        return 0
    con.register("delve_pend_ids", ids)
    try:
        con.execute("INSERT INTO agg_pending SELECT ?, game_id FROM delve_pend_ids", [run_id])
    finally:
        con.unregister("delve_pend_ids")
    return ids.num_rows


def pending(con, run_id: str | None = None) -> int:
    """Games written and not yet aggregated (of `run_id`, or of every run)."""
    if not has_pending_table(con):
        return 0
    return int(con.execute("SELECT count(*) FROM agg_pending WHERE $run IS NULL OR run_id = $run",
                           {"run": run_id}).fetchone()[0])


def pending_runs(con) -> list[str]:
    """The runs with games written and not yet aggregated."""
    if not has_pending_table(con):
        return []
    return [r[0] for r in con.execute(
        "SELECT DISTINCT run_id FROM agg_pending ORDER BY run_id").fetchall()]


def catch_up(con, run_id: str) -> int:
    """Aggregate exactly the run's pending games (from the raw tables, as delta rows) and empty
    their `agg_pending` rows, in the caller's transaction; returns the games caught up.
    Whoever calls it (the run's writer, a resume, another process opening the file) the sums
    stay exact: the pending list is read from the file, never from a process's memory."""
    con.execute("CREATE TEMP TABLE delve_pend AS SELECT DISTINCT game_id FROM agg_pending "
                "WHERE run_id = ?", [run_id])
    try:
        n, lo, hi = con.execute("SELECT count(*), min(game_id), max(game_id) FROM delve_pend"
                                ).fetchone()
        if n:
            if is_maintained(con, run_id):
                add(con, run_id, _pending_sources(), {"lo": lo, "hi": hi})
            con.execute("DELETE FROM agg_pending WHERE run_id = ?", [run_id])
    finally:
        con.execute("DROP TABLE delve_pend")
    return int(n)


def is_maintained(con, run_id: str) -> bool:
    row = con.execute("SELECT version FROM agg_runs WHERE run_id = ?", [run_id]).fetchone()
    return row is not None and row[0] == VERSION


def mark(con, run_id: str) -> None:
    con.execute("DELETE FROM agg_runs WHERE run_id = ?", [run_id])
    con.execute("INSERT INTO agg_runs VALUES (?, ?, current_timestamp::TIMESTAMP)",
                [run_id, VERSION])


def _grouped(agg: Aggregate, source: str) -> str:
    keys = ", ".join(n for n, _ in agg.keys)
    sums = ", ".join(f"sum({n})::{t} AS {n}" for n, t in agg.measures)
    return f"SELECT {keys}, {sums} FROM {source} WHERE run_id = $run GROUP BY ALL"


def compact(con, run_id: str) -> None:
    """Merge the run's delta rows into one row per key (the same sums)."""
    for agg in AGGREGATES:
        cols = ", ".join(n for n, _ in agg.columns)
        con.execute(f"CREATE TEMP TABLE delve_compact AS SELECT $run AS run_id, * FROM ("
                    f"{_grouped(agg, agg.table)})", {"run": run_id})
        con.execute(f"DELETE FROM {agg.table} WHERE run_id = ?", [run_id])
        con.execute(f"INSERT INTO {agg.table} ({cols}) SELECT {cols} FROM delve_compact")
        con.execute("DROP TABLE delve_compact")


def rebuild(con, run_id: str) -> None:
    """Recompute the run's aggregates from its raw rows (one row per key) and mark the run:
    every game covered, nothing pending."""
    if has_pending_table(con):
        con.execute("DELETE FROM agg_pending WHERE run_id = ?", [run_id])
    for agg in AGGREGATES:
        con.execute(f"DELETE FROM {agg.table} WHERE run_id = ?", [run_id])
        _insert(con, agg, run_id, run_sources())
    compact(con, run_id)
    mark(con, run_id)


@dataclass
class Mismatch:
    table: str
    rows: int          # rows that differ (stored not recomputed + recomputed not stored)
    example: tuple | None


def verify(con, run_id: str) -> list[Mismatch]:
    """Every aggregate of the run against its recomputation from the raw rows of the games it
    covers: every game of the run once nothing is pending (a finished or resumed run), else
    the games not listed in `agg_pending` (`pending` says how many are not compared)."""
    out = []
    sources = _covered_sources() if has_pending_table(con) else run_sources()
    for agg in AGGREGATES:
        stored = _grouped(agg, agg.table)
        fresh = _grouped(agg, f"(SELECT $run AS run_id, * FROM ({agg.definition(sources)}))")
        rows = con.execute(f"(({stored}) EXCEPT ALL ({fresh})) UNION ALL "
                           f"(({fresh}) EXCEPT ALL ({stored}))", {"run": run_id}).fetchall()
        if rows:
            out.append(Mismatch(agg.table, len(rows), rows[0]))
    return out


def summed(con, run_id: str) -> dict[str, list[tuple]]:
    """The run's aggregates, summed by key and sorted (without run_id): equal for two runs
    whose games are equal, whatever their write transactions."""
    out = {}
    for agg in AGGREGATES:
        rows = con.execute(_grouped(agg, agg.table), {"run": run_id}).fetchall()
        out[agg.table] = sorted(rows, key=repr)
    return out
