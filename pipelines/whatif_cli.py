"""CLI of the what-if lab: `simulate --paired-with / --until-ci`, `compare`, `sweep`,
`balance`, `checks`.  Registered on the `delve` group by `register(main)` (pipelines/cli.py);
each command only parses options and delegates to its module."""

from __future__ import annotations

import json
import re

import click

from engine.core.errors import DelveError

DEFAULT_DB = "data/delve.duckdb"


def _db(f):
    return click.option("--db", default=DEFAULT_DB, show_default=True, type=click.Path(),
                        help="DuckDB database file.")(f)


def _config(**kw) -> dict:
    return {k: (list(v) if isinstance(v, tuple) else v) for k, v in kw.items()}


def simulate_whatif(params: dict):
    """`delve simulate` with --paired-with RUN or --until-ci W (`params`: the command's)."""
    return _simulate_whatif(**params)


def _simulate_whatif(*, game, n_games, players, bots, seed, jobs, chunk_size, variants, sets,
                     map_id, factions, db, label, backend, scheduler, no_log_moves, no_progress,
                     paired_with, until_ci, max_games, variant_name=None, **_ignored):
    from .paired import grow_until_ci, paired_plan, start_run
    from .store import Store

    if backend != "loky":
        raise DelveError("--paired-with and --until-ci run on the loky backend only (drop --backend)")
    if variant_name and not paired_with:
        raise DelveError("--variant-name names the variant of a --paired-with run; without it the "
                         "variant is named after the --variant files")
    if variant_name is not None and not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}", variant_name):
        raise DelveError(f"--variant-name '{variant_name}': expected 1-40 letters, digits, '_', "
                         f"'-' or '.', starting with a letter or digit")
    if paired_with and until_ci:
        raise DelveError("--paired-with and --until-ci cannot be combined: a paired run replays "
                         "exactly the base run's games")
    if paired_with:
        plan, base = paired_plan(db, paired_with, variants=variants, sets=sets)
        if base["game"] != game:
            raise DelveError(f"--paired-with {base['run_id']} is a run of '{base['game']}', not "
                             f"'{game}'")
        cfg_base = json.loads(base["config"] or "{}")
        # no --chunk-size: None, guided chunks that shrink towards the end (runner.chunk_sizes)
        config = dict(cfg_base, jobs=jobs, chunk_size=chunk_size, label=label,
                      variants=list(plan.variants), sets=list(plan.sets),
                      games=plan.n_games, paired_with=base["run_id"],
                      log_moves=not no_log_moves, game_modules=list(plan.game_modules))
        store = Store(db)
        summary = start_run(plan, store, label=label, config=config, paired_with=base["run_id"],
                            jobs=jobs, chunk_size=chunk_size, progress=not no_progress,
                            log_moves=not no_log_moves, variant=variant_name)
        click.echo(summary.run_id)
        click.echo(f"{summary.n_games} games of {game} replayed from {base['run_id']} (paired: same "
                   f"seeds, seats and maps) under rules {plan.rules.hash} in {summary.wall_s:.1f}s")
        click.echo(f"compare with: delve compare {base['run_id']} {summary.run_id} --db {db}")
        return None
    config = _config(game=game, games=n_games, players=players, bots=bots, seed=seed, jobs=jobs,
                     chunk_size=chunk_size, variants=variants, sets=sets, map=map_id,
                     factions=factions, label=label, backend=backend, log_moves=not no_log_moves)
    plan_kwargs = dict(n_players=players, bots=bots, seed=seed, variants=variants, sets=sets,
                       map=map_id, factions=factions)
    from .plan import make_plan
    config["game_modules"] = list(make_plan(game, n_games=1, **plan_kwargs).game_modules)
    res = grow_until_ci(game, Store(db), width=until_ci, batch=n_games, max_games=max_games,
                        plan_kwargs=plan_kwargs, label=label, config=config, jobs=jobs,
                        chunk_size=chunk_size, log_moves=not no_log_moves,
                        progress=not no_progress, echo=lambda s: click.echo(s, err=True))
    click.echo(res.run_id)
    state = "settled" if res.settled else "NOT settled (reached --max-games)"
    click.echo(f"{res.n_games} games: widest faction win-rate interval {res.width:.3f} "
               f"({res.widest}) vs target {until_ci}: {state}")
    return None


@click.command()
@click.argument("run_a")
@click.argument("run_b")
@_db
@click.option("--json", "as_json", is_flag=True, help="Print the table as JSON rows.")
def compare(run_a, run_b, db, as_json):
    """Compare RUN_B against RUN_A (ids, prefixes or 'latest'): per faction and seat, win rate
    and mean score with the difference, its 95% interval and Holm-corrected p-values; score
    categories; game length; heatmap change.  Says whether the pair is paired."""
    from .compare import compare as do_compare, format_comparison
    c = do_compare(db, run_a, run_b)
    if as_json:
        click.echo(json.dumps({"paired": c.paired, "why": c.why, "rows": c.table.to_dicts()},
                              default=str, indent=1))
    else:
        click.echo(format_comparison(c))


def register(main: click.Group) -> None:
    from .balance import command as balance
    from .design_checks import command as checks
    from .sweep import command as sweep
    for cmd in (compare, sweep, balance, checks):
        main.add_command(cmd)
