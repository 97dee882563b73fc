"""The `delve` command line.

Every failure caused by the user's input (a DelveError, a bad option value) prints one
paragraph naming the culprit to stderr, without a traceback, and exits with code 2.  All input
is validated before the database file is created or a run row is written.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import click

from engine.core.errors import DelveError

DEFAULT_DB = "data/delve.duckdb"


class DelveGroup(click.Group):
    """Turns every user-input failure into one paragraph on stderr and exit code 2."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        try:
            rv = super().main(args, prog_name, complete_var, False, **extra)
        except DelveError as exc:
            click.echo(f"Error: {exc}", err=True)
            sys.exit(getattr(exc, "exit_code", 2))
        except click.UsageError as exc:
            hint = f" (see '{exc.ctx.command_path} --help')" if exc.ctx is not None else ""
            click.echo(f"Error: {exc.format_message()}{hint}", err=True)
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            click.echo(f"Error: {exc.format_message()}", err=True)
            sys.exit(exc.exit_code)
        except click.Abort:
            click.echo("Aborted.", err=True)
            sys.exit(130)
        sys.exit(rv if isinstance(rv, int) else 0)


def _db_option(f):
    return click.option("--db", default=DEFAULT_DB, show_default=True, type=click.Path(),
                        help="DuckDB database file.")(f)


@click.group(cls=DelveGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="delve")
def main():
    """Delve: a balance lab for board-game designers."""


# -- simulate ---------------------------------------------------------------------------------

@main.command()
@click.argument("game")
@click.option("--games", "n_games", type=click.IntRange(min=1), default=100, show_default=True,
              help="Number of games to play.")
@click.option("--players", type=click.IntRange(min=1), default=4, show_default=True)
@click.option("--bots", default="random", show_default=True,
              help="A bot for every seat (greedy, random) or a comma list, one per seat.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True, help="Run seed.")
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True,
              help="Worker processes (loky).")
@click.option("--chunk-size", type=click.IntRange(min=1), default=None,
              help="Games per task (default: about a quarter of the games per worker, at most 50).")
@click.option("--variant", "variants", multiple=True, type=click.Path(),
              help="A TOML patch over the base rules (repeatable, applied in order).")
@click.option("--set", "sets", multiple=True, metavar="PATH=VALUE",
              help="Override one rules value, e.g. game.rounds=6 (repeatable).")
@click.option("--map", "map_id", default=None, help="Play every game on this map.")
@click.option("--factions", default="rotate", show_default=True,
              help="'rotate' (all factions) or a comma list, one per seat; rotated over seats.")
@_db_option
@click.option("--label", default="", help="Free text to find the run again.")
@click.option("--backend", type=click.Choice(["loky", "dask"]), default="loky", show_default=True)
@click.option("--scheduler", default=None, help="Dask scheduler address (with --backend dask).")
@click.option("--no-log-moves", is_flag=True, help="Do not record moves (scores still are).")
@click.option("--no-progress", is_flag=True, help="Hide the progress bar.")
@click.option("--flush-seconds", type=click.FloatRange(min=0), default=0.5, show_default=True,
              help="Write completed games at most this often (one short transaction each).")
def simulate(game, n_games, players, bots, seed, jobs, chunk_size, variants, sets, map_id,
             factions, db, label, backend, scheduler, no_log_moves, no_progress, flush_seconds):
    """Play a batch of seeded games of GAME with bots and write every move to the database."""
    from .plan import default_chunk_size, make_plan
    from .runner import run_plan
    from .store import Store, check_db_path

    if backend == "dask" and not scheduler:
        raise DelveError("--backend dask needs --scheduler ADDRESS (e.g. tcp://127.0.0.1:8786)")
    if scheduler and backend != "dask":
        raise DelveError("--scheduler is only used with --backend dask")
    check_db_path(db)
    plan = make_plan(game, n_games=n_games, n_players=players, bots=bots, seed=seed,
                     variants=variants, sets=sets, map=map_id, factions=factions)
    chunk = chunk_size or default_chunk_size(n_games, jobs)
    config = {"game": game, "games": n_games, "players": players, "bots": bots, "seed": seed,
              "jobs": jobs, "chunk_size": chunk, "variants": list(variants), "sets": list(sets),
              "map": map_id, "factions": factions, "label": label, "backend": backend,
              "scheduler": scheduler, "log_moves": not no_log_moves,
              "game_modules": list(plan.game_modules)}
    store = Store(db)
    try:
        summary = run_plan(plan, store, jobs=jobs, chunk_size=chunk, backend=backend,
                           scheduler=scheduler, log_moves=not no_log_moves, label=label,
                           config=config, progress=not no_progress, flush_s=flush_seconds)
    except KeyboardInterrupt:
        click.echo("Interrupted: the run is marked 'failed'.", err=True)
        sys.exit(130)
    click.echo(summary.run_id)
    click.echo(f"{summary.n_games} games of {plan.game.id} ({plan.variant_name}, rules "
               f"{plan.rules.hash}) in {summary.wall_s:.1f}s, {summary.games_per_s:.1f} games/s "
               f"-> {db}")
    fair = 1.0 / plan.n_players
    click.echo(f"{'faction':<20} {'seats':>6} {'wins':>6} {'win rate':>9}   (fair share {fair:.1%})")
    for faction in sorted(summary.seats):
        n, w = summary.seats[faction], summary.wins[faction]
        click.echo(f"{faction:<20} {n:>6} {w:>6} {w / n:>9.1%}")


@main.command()
@click.argument("run")
@_db_option
@click.option("--jobs", type=click.IntRange(min=1), default=None,
              help="Worker processes (default: as the run was started).")
@click.option("--no-progress", is_flag=True, help="Hide the progress bar.")
def resume(run, db, jobs, no_progress):
    """Finish a run that was killed or failed part-way: play only the games it does not have,
    with the run's stored rules and options (each game ends up in the database exactly once)."""
    from engine.core.registry import get_game

    from .plan import import_game, make_plan, stored_rules
    from .runner import run_plan
    from .store import Store, resolve_run

    row = resolve_run(db, run)
    if row["status"] == "done":
        raise DelveError(f"Run '{row['run_id']}' is already done: nothing to resume")
    cfg = json.loads(row["config"] or "{}")
    game = import_game(row["game"], cfg.get("game_modules", ()))
    get_game(game.id)
    plan = make_plan(game.id, n_games=int(row["n_games"]), n_players=int(cfg["players"]),
                     bots=cfg["bots"], seed=int(row["seed"]), map=cfg.get("map"),
                     factions=cfg.get("factions", "rotate"),
                     rules=stored_rules(game, row["rules"]))
    plan.variants = tuple(cfg.get("variants", ()))
    plan.sets = tuple(cfg.get("sets", ()))
    jobs = jobs or int(cfg.get("jobs", 1))
    summary = run_plan(plan, Store(db), jobs=jobs, chunk_size=cfg.get("chunk_size"),
                       backend="loky", log_moves=cfg.get("log_moves", True),
                       progress=not no_progress, run_id=row["run_id"], resume=True)
    click.echo(summary.run_id)
    click.echo(f"resumed: {summary.n_games} missing games played in {summary.wall_s:.1f}s")


# -- games, rules -----------------------------------------------------------------------------

@main.command()
def games():
    """The registered games: ids, player counts, factions and maps."""
    from engine.core.registry import all_games
    rows = []
    for gid, game in sorted(all_games().items()):
        try:
            rules = game.load_rules().model
            factions = ", ".join(game.factions(rules))
            maps = ", ".join(game.maps(rules))
        except DelveError as exc:
            factions, maps = f"(rules do not load: {exc})", ""
        rows.append((gid, game.title, ",".join(map(str, game.player_counts)), factions, maps))
    click.echo(f"{'id':<20} {'title':<24} {'players':<9} factions | maps")
    for gid, title, pc, factions, maps in rows:
        click.echo(f"{gid:<20} {title:<24} {pc:<9} {factions} | {maps}")


@main.command()
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


# -- runs, replay ------------------------------------------------------------------------------

@main.command()
@_db_option
def runs(db):
    """The runs in the database, newest first."""
    from .store import connect_read
    with connect_read(db) as con:
        rows = con.execute("SELECT run_id, created_at, game, label, variant, rules_hash, n_games, "
                           "games_done, status FROM runs ORDER BY created_at DESC").fetchall()
    click.echo(f"{'run_id':<40} {'created':<19} {'game':<12} {'variant':<16} {'hash':<16} "
               f"{'games':>11} status   label")
    for rid, created, gm, label, variant, h, n, done, status in rows:
        click.echo(f"{rid:<40} {str(created)[:19]:<19} {gm:<12} {variant:<16} {h:<16} "
                   f"{f'{done or 0}/{n}':>11} {status:<8} {label or ''}")


@main.command()
@_db_option
@click.argument("run")
@click.argument("game_id", type=click.IntRange(min=0))
def replay(db, run, game_id):
    """Replay game GAME_ID of RUN move by move, rebuilt from its seed, and check it against the
    database.  RUN is a run id, a unique prefix of one, or 'latest'."""
    from .replay import replay as do_replay
    res = do_replay(db, run, game_id, echo=click.echo)
    if res.ok:
        click.echo(f"OK: {res.n_moves} moves replayed, identical to the database.")
    else:
        click.echo(f"MISMATCH in run {res.run_id} game {game_id}: {len(res.mismatches)} "
                   f"difference(s); first: {res.mismatches[0]}", err=True)
        sys.exit(1)


@main.command()
@_db_option
@click.argument("run", required=False)
def check(db, run):
    """Check the database contract's invariants (all runs, or RUN: an id, prefix or 'latest').
    Exits 1 if any is violated."""
    from .checks import run_checks
    from .store import resolve_run
    run_id = resolve_run(db, run)["run_id"] if run else None
    results = run_checks(db, run_id)
    for r in results:
        mark = "ok  " if not r.violations else "FAIL"
        extra = f"  ({r.violations} violations, e.g. {r.example})" if r.violations else ""
        click.echo(f"{mark} {r.name:<22} {r.description}{extra}")
    if any(r.violations for r in results):
        sys.exit(1)


# -- dashboard, bench ----------------------------------------------------------------------------

@main.command()
@_db_option
@click.option("--port", type=click.IntRange(1, 65535), default=8501, show_default=True)
def dashboard(db, port):
    """Open the Streamlit dashboard on the database."""
    from engine.core.rules import REPO_ROOT
    app = REPO_ROOT / "dashboard" / "app.py"
    if not app.is_file():
        raise DelveError(f"The dashboard app '{app}' is missing")
    db_abs = str(Path(db).resolve())
    env = dict(os.environ, DELVE_DB=db_abs)
    cmd = [sys.executable, "-m", "streamlit", "run", str(app), "--server.port", str(port),
           "--server.headless", "true", "--browser.gatherUsageStats", "false", "--", "--db", db_abs]
    click.echo(f"Dashboard on http://localhost:{port} (database {db_abs})", err=True)
    try:
        sys.exit(subprocess.call(cmd, env=env))
    except KeyboardInterrupt:
        sys.exit(0)


@main.command()
@click.option("--game", "game_id", default="glimmerdeep", show_default=True)
@click.option("--games", type=click.IntRange(min=1), default=20, show_default=True,
              help="Games per configuration.")
@click.option("--players", type=click.IntRange(min=1), default=4, show_default=True)
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
def bench(game_id, games, players, seed):
    """Cost per decision and games/s: random vs greedy bots, logging on/off, 1 and 2 workers."""
    from .bench import bench as run_bench, format_table
    rows = run_bench(game_id, games=games, players=players, seed=seed)
    click.echo(format_table(rows))


if __name__ == "__main__":  # pragma: no cover
    main()
