"""`delve games`, `rules`, `runs`, `replay`, `check`, `aggregate`, `export`: the games, their rules and the data."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from engine.core.errors import DelveError

from .base import db_option


@click.command()
def games():
    """The registered games: ids, player counts, factions and maps."""
    from engine.core.listing import game_listing
    click.echo(f"{'id':<20} {'title':<24} {'players':<9} factions | maps")
    for g in game_listing():
        factions = f"(rules do not load: {g.error})" if g.error else ", ".join(g.factions)
        players = ",".join(map(str, g.player_counts))
        click.echo(f"{g.id:<20} {g.title:<24} {players:<9} {factions} | {', '.join(g.maps)}")


@click.command()
@click.argument("game")
@click.option("--variant", "variants", multiple=True, type=click.Path())
@click.option("--set", "sets", multiple=True, metavar="PATH=VALUE")
@click.option("--diff-only", is_flag=True, help="Print only the differences from the base rules.")
def rules(game, variants, sets, diff_only):
    """The effective rules of GAME (JSON), the diff against the base rules and the rules hash."""
    from engine.core.registry import get_game
    from engine.core.rules import diff
    g = get_game(game)
    for v in variants:
        if not Path(v).is_file():
            raise DelveError(f"Variant file '{v}' (--variant) does not exist")
    loaded = g.load_rules(variants=tuple(variants), sets=tuple(sets))
    if not diff_only:
        click.echo(json.dumps(loaded.model.model_dump(mode="json"), indent=2))
    changes = diff(loaded.base_doc, loaded.doc)
    click.echo(f"# rules hash: {loaded.hash}")
    click.echo(f"# sources: {', '.join(_short(s) for s in loaded.sources)}")
    if not changes:
        click.echo("# no differences from the base rules")
    for path, old, new in changes:
        click.echo(f"~ {path}: {json.dumps(old)} -> {json.dumps(new)}")


def _short(source: str) -> str:
    from engine.core.rules import REPO_ROOT
    try:
        return str(Path(source).resolve().relative_to(REPO_ROOT))
    except (ValueError, OSError):
        return source


@click.command()
@db_option
def runs(db):
    """The runs in the database, newest first.  A running run whose writer is gone (killed,
    crashed, no heartbeat for a minute) is shown as stalled, with the command that resumes it."""
    from pipelines.store.liveness import liveness, stalled_text
    rows = _run_rows(db)
    click.echo(f"{'run_id':<40} {'created':<19} {'game':<12} {'variant':<16} {'hash':<16} "
               f"{'games':>11} status   label")
    stalled = []
    for row in rows:
        live = liveness(row)
        n, done = row["n_games"], row["games_done"]
        click.echo(f"{row['run_id']:<40} {str(row['created_at'])[:19]:<19} {row['game']:<12} "
                   f"{row['variant']:<16} {row['rules_hash']:<16} {f'{done or 0}/{n}':>11} "
                   f"{live.state:<8} {row['label'] or ''}")
        if live.stalled:
            stalled.append(f"{row['run_id']}: {stalled_text(row['run_id'], live, _db_arg(db))}")
    for line in stalled:
        click.echo(line)


def _db_arg(db) -> str | None:
    """The --db to repeat in a suggested command (none for the default database)."""
    from .base import DEFAULT_DB
    return None if str(db) == DEFAULT_DB else str(db)


def _run_rows(db) -> list[dict]:
    """The runs, newest first, with the liveness columns (NULL in an older database)."""
    from pipelines.store import connect_read
    with connect_read(db) as con:
        have = {r[0] for r in con.execute("SELECT column_name FROM information_schema.columns "
                                          "WHERE table_name = 'runs'").fetchall()}
        extra = ", ".join(c if c in have else f"NULL AS {c}" for c in ("host", "pid", "heartbeat_at"))
        cur = con.execute("SELECT run_id, created_at, game, label, variant, rules_hash, n_games, "
                          f"games_done, status, {extra} FROM runs ORDER BY created_at DESC")
        names = [d[0] for d in cur.description]
        return [dict(zip(names, r)) for r in cur.fetchall()]


@click.command()
@db_option
@click.argument("run")
@click.argument("game_id", type=click.IntRange(min=0))
def replay(db, run, game_id):
    """Replay game GAME_ID of RUN move by move, rebuilt from its seed, and check it against the
    database.  RUN is a run id, a unique prefix of one, or 'latest'."""
    from pipelines.run.replay import replay as do_replay
    res = do_replay(db, run, game_id, echo=click.echo)
    if res.ok:
        click.echo(f"OK: {res.n_moves} moves replayed, identical to the database.")
    else:
        click.echo(f"MISMATCH in run {res.run_id} game {game_id}: {len(res.mismatches)} "
                   f"difference(s); first: {res.mismatches[0]}", err=True)
        sys.exit(1)


@click.command()
@db_option
@click.argument("run", required=False)
def check(db, run):
    """Database health: the contract's invariants (all runs, or RUN: an id, prefix or 'latest');
    exits 1 if any is violated.  (The game's design checks are `delve checks RUN`.)"""
    from pipelines.store.checks import run_checks
    from pipelines.store import resolve_run
    run_id = resolve_run(db, run)["run_id"] if run else None
    results = run_checks(db, run_id)
    for r in results:
        mark = "ok  " if not r.violations else "FAIL"
        extra = f"  ({r.violations} violations, e.g. {r.example})" if r.violations else ""
        click.echo(f"{mark} {r.name:<22} {r.description}{extra}")
        if getattr(r, "note", ""):
            click.echo(f"     {'':<22} {r.note}")
    from pipelines.store.liveness import liveness, stalled_text
    for row in _run_rows(db):  # a running run: still written, or stalled (not a violation)
        if row["status"] != "running" or (run_id and row["run_id"] != run_id):
            continue
        live = liveness(row)
        if live.stalled:
            click.echo(f"warn {'stalled_run':<22} run {row['run_id']} is "
                       f"{stalled_text(row['run_id'], live, _db_arg(db))}")
        else:
            click.echo(f"ok   {'live_run':<22} run {row['run_id']} is running "
                       f"({row['games_done'] or 0}/{row['n_games']} games"
                       f"{', heartbeat ' + format(row['heartbeat_at'], '%H:%M:%S') + ' UTC' if row['heartbeat_at'] else ''})")
    if any(r.violations for r in results):
        sys.exit(1)


@click.command("aggregate")
@db_option
@click.argument("run", required=False)
@click.option("--all", "every", is_flag=True,
              help="Rebuild every run's aggregates, not only the runs that lack them.")
def aggregate(db, run, every):
    """Build the aggregate tables the dashboard reads (they keep its pages fast at millions of
    games) for RUN (an id, prefix or 'latest'), or for every run that lacks them (a database
    written before they existed), from the raw rows; one transaction per run.  `delve check`
    verifies them."""
    from pipelines.store import Store, resolve_run
    from pipelines.store.aggregates import VERSION
    store = Store(db)
    if run:
        todo = [resolve_run(db, run)["run_id"]]
    else:
        store.ensure_schema()
        with store.read() as con:
            todo = [r[0] for r in con.execute(
                "SELECT r.run_id FROM runs r LEFT JOIN agg_runs a USING (run_id) "
                "WHERE $every OR a.version IS DISTINCT FROM $version ORDER BY r.created_at, r.run_id",
                {"every": every, "version": VERSION}).fetchall()]
    for run_id in todo:
        store.rebuild_aggregates(run_id)
        click.echo(f"aggregated run {run_id}")
    if not todo:
        click.echo("every run has its aggregates (--all rebuilds them)")


@click.command("export")
@db_option
@click.argument("run_ids", nargs=-1, required=True, metavar="RUN [RUN ...]")
@click.option("--format", "fmt", type=click.Choice(["parquet", "csv"]), default="parquet",
              show_default=True)
@click.option("-o", "--output", "output", required=True, type=click.Path(file_okay=False),
              help="The directory to write (one file per table).")
def export(db, run_ids, fmt, output):
    """Export the tables of RUN(s) (ids, unique prefixes or 'latest'): runs, games, players,
    moves, score_events and map_cells, one file per table, streamed by DuckDB."""
    from pipelines.store.export import export_runs
    for table, (path, rows) in export_runs(db, run_ids, output, fmt).items():
        click.echo(f"{table:<13} {rows:>10,} rows -> {path}")


COMMANDS = (games, rules, runs, replay, check, aggregate, export)
