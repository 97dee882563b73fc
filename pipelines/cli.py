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
@click.argument("game", required=False)
@click.option("--games", "n_games", type=click.IntRange(min=1), default=100, show_default=True,
              help="Number of games to play.")
@click.option("--players", type=click.IntRange(min=1), default=4, show_default=True)
@click.option("--bots", default="random", show_default=True,
              help="A bot for every seat (greedy, random) or a comma list, one per seat.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True, help="Run seed.")
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True,
              help="Worker processes (loky).")
@click.option("--chunk-size", type=click.IntRange(min=1), default=None,
              help="Games per task (default: chunks of up to a quarter of the games per worker, "
                   "at most 50, shrinking towards the end so the workers finish together).")
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
@click.option("--paired-with", default=None, metavar="RUN",
              help="Replay RUN's exact seeds, seats and maps under these rules (paired comparison).")
@click.option("--until-ci", type=click.FloatRange(min=0, min_open=True), default=None, metavar="W",
              help="Add --games games at a time until every faction's win-rate interval is < W.")
@click.option("--max-games", type=click.IntRange(min=1), default=20000, show_default=True,
              help="Upper bound on games with --until-ci.")
@click.option("--variant-name", default=None, help="Name of the variant (with --paired-with).")
@click.option("--resume", "resume_run", default=None, metavar="RUN",
              help="Finish the interrupted run RUN (plays exactly its missing games).")
def simulate(game, n_games, players, bots, seed, jobs, chunk_size, variants, sets, map_id,
             factions, db, label, backend, scheduler, no_log_moves, no_progress, flush_seconds,
             paired_with, until_ci, max_games, variant_name, resume_run):
    """Play a batch of seeded games of GAME with bots and write every move to the database.
    With --backend dask and no --scheduler, a local Dask cluster runs on 127.0.0.1."""
    from .plan import make_plan
    from .run_cli import exit_if_games_failed, interrupt_exits
    from .runner import run_plan
    from .store import Store, check_db_path

    if resume_run:  # the run's own game, rules and options (pipelines/run_cli.py)
        from .run_cli import resume as do_resume
        ctx = click.get_current_context()
        given = ctx.get_parameter_source("jobs") != click.core.ParameterSource.DEFAULT
        return do_resume(db, resume_run, jobs=jobs if given else None, progress=not no_progress,
                         backend=backend, scheduler=scheduler, flush_s=flush_seconds)
    if not game:
        raise click.UsageError("Missing argument 'GAME' (or --resume RUN).")
    if scheduler and backend != "dask":
        raise DelveError("--scheduler is only used with --backend dask")
    check_db_path(db)
    if paired_with or until_ci or variant_name:  # the what-if lab (pipelines/whatif_cli.py)
        from .whatif_cli import simulate_whatif
        return simulate_whatif(click.get_current_context().params)
    plan = make_plan(game, n_games=n_games, n_players=players, bots=bots, seed=seed,
                     variants=variants, sets=sets, map=map_id, factions=factions)
    # no --chunk-size: None, guided chunks that shrink towards the end (runner.chunk_sizes)
    config = {"game": game, "games": n_games, "players": players, "bots": bots, "seed": seed,
              "jobs": jobs, "chunk_size": chunk_size, "variants": list(variants),
              "sets": list(sets),
              "map": map_id, "factions": factions, "label": label, "backend": backend,
              "scheduler": scheduler, "log_moves": not no_log_moves,
              "game_modules": list(plan.game_modules)}
    store = Store(db)
    with interrupt_exits():  # Ctrl-C: the completed games are kept; says how to resume
        summary = run_plan(plan, store, jobs=jobs, chunk_size=chunk_size, backend=backend,
                           scheduler=scheduler, log_moves=not no_log_moves, label=label,
                           config=config, progress=not no_progress, flush_s=flush_seconds)
    click.echo(summary.run_id)
    click.echo(f"{summary.n_games} games of {plan.game.id} ({plan.variant_name}, rules "
               f"{plan.rules.hash}) in {summary.wall_s:.1f}s, {summary.games_per_s:.1f} games/s "
               f"-> {db}")
    fair = 1.0 / plan.n_players
    click.echo(f"{'faction':<20} {'seats':>6} {'wins':>6} {'win rate':>9}   (fair share {fair:.1%})")
    for faction in sorted(summary.seats):
        n, w = summary.seats[faction], summary.wins[faction]
        click.echo(f"{faction:<20} {n:>6} {w:>6} {w / n:>9.1%}")
    exit_if_games_failed(summary)  # a game that raised: its seed and how to reproduce it


@main.command()
@click.argument("run")
@_db_option
@click.option("--jobs", type=click.IntRange(min=1), default=None,
              help="Worker processes (default: as the run was started).")
@click.option("--no-progress", is_flag=True, help="Hide the progress bar.")
def resume(run, db, jobs, no_progress):
    """Finish a run that was killed or failed part-way: play only the games it does not have,
    with the run's stored rules and options (each game ends up in the database exactly once).
    Same as `delve simulate --resume RUN`."""
    from .run_cli import resume as do_resume
    do_resume(db, run, jobs=jobs, progress=not no_progress)


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


from .bench import bench_command as _bench_command  # noqa: E402  delve bench (pipelines/bench.py)
main.add_command(_bench_command)


from .report import report_command as _report_command  # noqa: E402  delve report
main.add_command(_report_command)
from .bench_dashboard import bench_dashboard_command as _bench_dashboard  # noqa: E402
main.add_command(_bench_dashboard)

from . import whatif_cli as _whatif  # noqa: E402  compare, sweep, balance, checks
_whatif.register(main)

if __name__ == "__main__":  # pragma: no cover
    main()
