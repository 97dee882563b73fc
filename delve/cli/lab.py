"""CLI of the what-if lab: `simulate --paired-with / --until-ci`, `compare`, `sweep`,
`balance`, `checks`.  Each command only parses options and delegates to pipelines/lab/."""

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
                     paired_with, until_ci, max_games, variant_name=None, seating=None,
                     **_ignored):
    from pipelines.run.pairing import grow_until_ci, paired_plan, start_run
    from pipelines.store import Store

    if backend != "loky" and not paired_with:
        raise DelveError("--until-ci runs on the loky backend only (drop --backend)")
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
                      log_moves=not no_log_moves, game_modules=list(plan.game_modules),
                      backend=backend, scheduler=scheduler)
        store = Store(db)
        summary = start_run(plan, store, label=label, config=config, paired_with=base["run_id"],
                            jobs=jobs, chunk_size=chunk_size, progress=not no_progress,
                            log_moves=not no_log_moves, variant=variant_name, backend=backend,
                            scheduler=scheduler)
        click.echo(summary.run_id)
        click.echo(f"{summary.n_games} games of {game} replayed from {base['run_id']} (paired: same "
                   f"seeds, seats and maps) under rules {plan.rules.hash} in {summary.wall_s:.1f}s")
        click.echo(f"compare with: delve compare {base['run_id']} {summary.run_id} --db {db}")
        return None
    config = _config(game=game, games=n_games, players=players, bots=bots, seed=seed, jobs=jobs,
                     chunk_size=chunk_size, variants=variants, sets=sets, map=map_id,
                     factions=factions, label=label, backend=backend, log_moves=not no_log_moves)
    plan_kwargs = dict(n_players=players, bots=bots, seed=seed, variants=variants, sets=sets,
                       map=map_id, factions=factions, seating=seating)
    from pipelines.run.plan import make_plan
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


def simulate_paired_until_settled(params: dict):
    """`delve simulate GAME --paired-with A --until-settled` (pipelines/lab/settle_paired.py)."""
    from pipelines.lab.settle_paired import grow_paired_until_settled, settled_lines
    from pipelines.run.pairing import paired_plan
    from pipelines.stats.verdicts import check_margin, margin_for
    from pipelines.store import Store, check_db_path

    p = params
    check_db_path(p["db"])
    plan, base = paired_plan(p["db"], p["paired_with"], variants=p["variants"], sets=p["sets"])
    if base["game"] != p["game"]:
        raise DelveError(f"--paired-with {base['run_id']} is a run of '{base['game']}', not "
                         f"'{p['game']}'")
    m = (check_margin(p["margin"] / 100.0, "--margin") if p["margin"] is not None
         else margin_for(p["game"]))
    cfg = dict(json.loads(base["config"] or "{}"), jobs=p["jobs"], chunk_size=p["chunk_size"],
               label=p["label"], variants=list(plan.variants), sets=list(plan.sets),
               paired_with=base["run_id"], log_moves=not p["no_log_moves"],
               game_modules=list(plan.game_modules), backend="loky", scheduler=None)
    res = grow_paired_until_settled(
        Store(p["db"]), base["run_id"], variants=p["variants"], sets=p["sets"], margin=m,
        batch=p["n_games"], max_games=p["max_games"], config=cfg, label=p["label"],
        variant=p.get("variant_name"), jobs=p["jobs"], chunk_size=p["chunk_size"],
        log_moves=not p["no_log_moves"], progress=not p["no_progress"],
        echo=lambda s: click.echo(s, err=True))
    click.echo(res.run_b)
    for line in settled_lines(res, m):
        click.echo(line)
    click.echo(f"compare with: delve compare {res.run_a} {res.run_b} --db {p['db']}")
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
    from pipelines.lab.compare import compare as do_compare, format_comparison
    c = do_compare(db, run_a, run_b)
    if as_json:
        click.echo(json.dumps({"paired": c.paired, "why": c.why, "rows": c.table.to_dicts()},
                              default=str, indent=1))
    else:
        click.echo(format_comparison(c))


@click.command("sweep")
@click.argument("game")
@click.option("--set", "sets", multiple=True, metavar="PATH=V1,V2|LO:HI[:STEP]", required=True,
              help="A swept value list or range (one run per value); a single value is fixed.")
@click.option("--games", "n_games", type=click.IntRange(min=1), default=100, show_default=True,
              help="Games per run.")
@click.option("--players", type=click.IntRange(min=1), default=4, show_default=True)
@click.option("--bots", default="random", show_default=True)
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--variant", "variants", multiple=True, type=click.Path())
@click.option("--map", "map_id", default=None)
@click.option("--factions", default="rotate", show_default=True)
@click.option("--label", default="")
@click.option("--db", default="data/delve.duckdb", show_default=True, type=click.Path())
@click.option("--no-log-moves", is_flag=True)
@click.option("--no-progress", is_flag=True)
def sweep(game, sets, n_games, players, bots, seed, jobs, variants, map_id, factions, label, db,
            no_log_moves, no_progress):
    """One run of GAME per value of the swept --set, all on the same seeds, grouped as a sweep;
    prints each faction's win rate with its 95% interval against the value, and each point's
    paired win-rate differences against the first point (Holm over the whole sweep)."""
    from pipelines.lab.sweep import (format_sweep, run_sweep, split_sets, sweep_table,
                                     sweep_vs_reference)
    from pipelines.store import Store, check_db_path
    check_db_path(db)
    fixed, swept = split_sets(sets)
    kw = dict(n_players=players, bots=bots, seed=seed, variants=variants, map=map_id,
              factions=factions)
    res = run_sweep(game, Store(db), swept=swept, fixed=fixed, n_games=n_games, plan_kwargs=kw,
                    label=label, jobs=jobs, log_moves=not no_log_moves,
                    progress=not no_progress, echo=lambda s: click.echo(s, err=True))
    click.echo(f"sweep {res.sweep_id}: {len(res.runs)} runs of {n_games} games on the same seeds")
    click.echo(format_sweep(sweep_table(db, res.sweep_id), sweep_vs_reference(db, res.sweep_id)))


@click.command("balance")
@click.argument("game")
@click.option("--param", required=True, metavar="PATH", help="Dotted rules path to tune.")
@click.option("--range", "rng", required=True, metavar="LO:HI[:STEP]",
              help="Candidate values (inclusive), or a comma list.")
@click.option("--target", default="fair", show_default=True,
              help="'fair' (every faction: minimise the largest deviation) or one FACTION, the "
                   "one the parameter touches (its own deviation, which the parameter moves).")
@click.option("--batch", type=click.IntRange(min=1), default=100, show_default=True,
              help="Games per candidate at the first look; every look doubles them.")
@click.option("--max-games", type=click.IntRange(min=1), default=5000, show_default=True,
              help="At most this many games per candidate.")
@click.option("--alpha", type=float, default=0.05, show_default=True,
              help="Error rate: chance of ruling out the best value.")
@click.option("--tolerance", type=click.FloatRange(min=0), default=0.02, show_default=True,
              help="Stop once every two remaining values are within this much of each other "
                   "in largest deviation (paired bound); at --max-games the achieved width is "
                   "reported instead.")
@click.option("--set", "sets", multiple=True, metavar="PATH=VALUE", help="Fixed overrides.")
@click.option("--variant", "variants", multiple=True, type=click.Path())
@click.option("--players", type=click.IntRange(min=1), default=4, show_default=True)
@click.option("--bots", default="random", show_default=True)
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option("--factions", default="rotate", show_default=True)
@click.option("--map", "map_id", default=None)
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--label", default="")
@click.option("--db", default="data/delve.duckdb", show_default=True, type=click.Path())
def balance(game, param, rng, target, batch, max_games, alpha, tolerance, sets, variants, players,
            bots, seed, factions, map_id, jobs, label, db):
    """Search the value of PARAM in --range that brings faction win rates closest to the fair
    share, adding games until the answer is settled (successive elimination, error rate alpha)."""
    from pipelines.lab.balance import balance_search, format_balance
    from pipelines.lab.sweep import parse_values
    from pipelines.store import Store, check_db_path
    check_db_path(db)
    values = parse_values(f"{param}={rng}", rng)
    kw = dict(n_players=players, bots=bots, seed=seed, variants=variants, map=map_id,
              factions=factions)
    res = balance_search(game, Store(db), param=param, values=values, plan_kwargs=kw,
                         fixed_sets=sets, batch=batch, max_games=max_games, alpha=alpha,
                         tolerance=tolerance, jobs=jobs, label=label,
                         echo=lambda s: click.echo(s, err=True),
                         target=None if target == "fair" else target)
    click.echo(format_balance(res))
    click.echo(json.dumps({"suggested": res.best.value if res.settled else None,
                           "target": res.target, "interval": list(res.interval),
                           "survivors": res.surviving_values, "within": res.within,
                           "settled": res.settled, "games": res.total_games,
                           "sweep_id": res.sweep_id}, default=str))


@click.command("checks")
@click.argument("run")
@click.option("--rare", "rare_share", type=click.FloatRange(0, 1), default=0.25,
              show_default=True, help="Flag entries chosen less than this times their collection's average.")
@click.option("--min-count", type=click.IntRange(min=1), default=20, show_default=True,
              help="Openings used fewer times are not tested.")
@click.option("--ablate", "ablate", multiple=True, metavar="ID",
              help="Also play the run's games without this card/building (paired) and compare.")
@click.option("--tiers", is_flag=True,
              help="Also show the play checks of every finished run of RUN's game, rules and "
                   "player count side by side, one column per skill tier.")
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--db", default="data/delve.duckdb", show_default=True, type=click.Path())
def checks(run, rare_share, min_count, ablate, tiers, jobs, db):
    """Design checks of RUN (id, prefix or 'latest'), each with its 95% interval and its
    threshold (data/checks/checks.toml), per skill tier: saturated scores, dead and forced
    options, runaway leaders, early decisions, lead changes, turn limits, scores out of their
    reference range, dominant sources of points; then rarely chosen entries, stalls, dominant
    openings and deciding cards; with --ablate ID, a paired ablation run.
    (The database's own health check is `delve check`.)"""
    from pipelines.lab.design_checks import ablation, format_report, run_checks
    rep = run_checks(db, run, rare_share=rare_share, min_count=min_count)
    for entry in ablate:
        _, _, found = ablation(db, rep.run["run_id"], entry, jobs=jobs,
                               echo=lambda s: click.echo(s, err=True))
        rep.findings.extend(found)
    click.echo(format_report(rep))
    flagged = len(rep.flagged)
    click.echo(f"{flagged} flag(s)")
    if tiers:
        import polars as pl
        from pipelines.lab.play_checks import by_tier, tier_checks
        found, _tables, ids = tier_checks(db, rep.run["run_id"])
        click.echo(f"\nper skill tier, over {len(ids)} run(s) of the same rules and player count:")
        with pl.Config(tbl_rows=-1, tbl_cols=-1, fmt_str_lengths=60, tbl_width_chars=200,
                       tbl_hide_dataframe_shape=True, tbl_hide_column_data_types=True):
            click.echo(str(by_tier(found)))


COMMANDS = (compare, sweep, balance, checks)
