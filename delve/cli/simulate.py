"""`delve simulate` and `delve resume`: play a batch of seeded games into the database."""

from __future__ import annotations

import click

from engine.core.errors import DelveError

from .base import db_option, seating_option


@click.command()
@click.argument("game", required=False)
@click.option("--games", "n_games", type=click.IntRange(min=1), default=100, show_default=True,
              help="Number of games to play.")
@click.option("--players", type=click.IntRange(min=1), default=4, show_default=True,
              help="Players at every table (the game's allowed counts: `delve games`).")
@click.option("--bots", default="random", show_default=True,
              help="A bot for every seat, or a comma list, one per seat: random, greedy, or the "
                   "search bot mcts (mcts:800 for 800 forward-model calls per decision; tuned "
                   "parameters can follow, e.g. mcts:400/c=0.3).  random is fastest; greedy and "
                   "mcts play like (better) players.")
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
              help="'rotate' (all factions, seated by a seeded balanced design: see --seating) "
                   "or a comma list, one per seat; seats rotated.")
@seating_option
@db_option
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
@click.option("--until-settled", is_flag=True,
              help="Add --games games at a time (rounded up to whole seating cycles) until every "
                   "faction is balanced within the margin, too strong or too weak; with "
                   "--paired-with RUN, grow RUN and the paired run together until every "
                   "faction's change is shown or ruled out within the margin. The error of all "
                   "the looks together is at most 5%.")
@click.option("--margin", type=float, default=None, metavar="POINTS",
              help="The smallest imbalance that matters, in win-rate points (default: the "
                   "game's, data/balance/margins.toml, e.g. 3).")
@click.option("--max-games", type=click.IntRange(min=1), default=20000, show_default=True,
              help="Upper bound on games with --until-ci or --until-settled.")
@click.option("--variant-name", default=None, help="Name of the variant (with --paired-with).")
@click.option("--resume", "resume_run", default=None, metavar="RUN",
              help="Finish the interrupted run RUN (plays exactly its missing games).")
@click.option("--tiers", default=None, metavar="BOTS",
              help="Skill tiers, e.g. greedy,mcts:200,mcts:800: one paired run per tier (every "
                   "seat that bot; the same seeds and seatings), grouped like a sweep.")
def simulate(game, n_games, players, bots, seed, jobs, chunk_size, variants, sets, map_id,
             factions, seating, db, label, backend, scheduler, no_log_moves, no_progress,
             flush_seconds, paired_with, until_ci, until_settled, margin, max_games, variant_name, resume_run,
             tiers):
    """Play a batch of seeded games of GAME with bots and write every move to the database.
    With --backend dask and no --scheduler, a local Dask cluster runs on 127.0.0.1."""
    from pipelines.run.plan import make_plan
    from delve.cli.run_output import exit_if_games_failed, interrupt_exits
    from pipelines.run.execute import run_plan
    from pipelines.store import Store, check_db_path

    if resume_run:  # the run's own game, rules and options (delve/cli/run_output.py)
        from delve.cli.run_output import resume as do_resume
        ctx = click.get_current_context()
        given = ctx.get_parameter_source("jobs") != click.core.ParameterSource.DEFAULT
        return do_resume(db, resume_run, jobs=jobs if given else None, progress=not no_progress,
                         backend=backend, scheduler=scheduler, flush_s=flush_seconds)
    if not game:
        raise click.UsageError("Missing argument 'GAME' (or --resume RUN).")
    if scheduler and backend != "dask":
        raise DelveError("--scheduler is only used with --backend dask")
    check_db_path(db)
    if margin is not None and not until_settled:
        raise DelveError("--margin is the margin of --until-settled (the pages and `delve checks` "
                         "take their own): add --until-settled, or drop --margin")
    if until_settled and paired_with:  # a paired comparison grown until settled
        if until_ci or tiers or backend != "loky":
            raise DelveError("--paired-with RUN --until-settled grows a paired pair on the loky "
                             "backend: drop --until-ci, --tiers and --backend")
        from delve.cli.lab import simulate_paired_until_settled
        return simulate_paired_until_settled(click.get_current_context().params)
    if until_settled:  # grow until every faction's verdict is settled (pipelines/run/settle.py)
        if until_ci or tiers or backend != "loky":
            raise DelveError("--until-settled grows one run on the loky backend: drop --until-ci, "
                             "--tiers and --backend")
        return simulate_until_settled(game, n_games=n_games, players=players, bots=bots,
                                      seed=seed, variants=variants, sets=sets, map_id=map_id,
                                      factions=factions, db=db, label=label, jobs=jobs,
                                      chunk_size=chunk_size, no_log_moves=no_log_moves,
                                      no_progress=no_progress, margin=margin, max_games=max_games,
                                      seating=seating)
    if paired_with or until_ci or variant_name:  # the what-if lab (delve/cli/lab.py)
        from delve.cli.lab import simulate_whatif
        return simulate_whatif(click.get_current_context().params)
    if tiers:  # balance per skill tier (pipelines/ladder/tiers.py)
        return simulate_tiers(game, tiers, n_games=n_games, players=players, seed=seed,
                              variants=variants, sets=sets, map_id=map_id, factions=factions,
                              seating=seating,
                              db=db, label=label, jobs=jobs, chunk_size=chunk_size,
                              log_moves=not no_log_moves, progress=not no_progress)
    plan = make_plan(game, n_games=n_games, n_players=players, bots=bots, seed=seed,
                     variants=variants, sets=sets, map=map_id, factions=factions, seating=seating)
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
    echo_rates(db, summary.run_id, 1.0 / plan.n_players)
    click.echo(seating_line(plan))
    exit_if_games_failed(summary)  # a game that raised: its seed and how to reproduce it


def simulate_until_settled(game, *, n_games, players, bots, seed, variants, sets, map_id, factions,
                           db, label, jobs, chunk_size, no_log_moves, no_progress, margin,
                           max_games, seating=None) -> None:
    from pipelines.run.plan import make_plan
    from pipelines.run.settle import grow_until_settled
    from pipelines.stats.verdicts import check_margin, margin_for
    from pipelines.store import Store
    m = check_margin(margin / 100.0, "--margin") if margin is not None else margin_for(game)
    plan_kwargs = dict(n_players=players, bots=bots, seed=seed, variants=variants, sets=sets,
                       map=map_id, factions=factions, seating=seating)
    probe = make_plan(game, n_games=1, **plan_kwargs)
    config = {"game": game, "games": n_games, "players": players, "bots": bots, "seed": seed,
              "jobs": jobs, "chunk_size": chunk_size, "variants": list(variants),
              "sets": list(sets), "map": map_id, "factions": factions, "label": label,
              "backend": "loky", "log_moves": not no_log_moves,
              "game_modules": list(probe.game_modules)}
    res = grow_until_settled(game, Store(db), margin=m, batch=n_games, max_games=max_games,
                             plan_kwargs=plan_kwargs, label=label, config=config, jobs=jobs,
                             chunk_size=chunk_size, log_moves=not no_log_moves,
                             progress=not no_progress, echo=lambda t: click.echo(t, err=True))
    click.echo(res.run_id)
    state = ("settled" if res.settled else
             "NOT settled (the next batch would pass --max-games): the open factions are not yet known")
    click.echo(f"{res.n_games} games in {res.looks} looks, each at level {res.alpha_per_look:.2g}: "
               f"{state}")
    click.echo(f"{'faction':<20} {'win rate':>9}  verdict (margin ±{100 * m:g} points; Holm p of "
               f"its test: the difference for too strong or weak, the equivalence otherwise)")
    for f, (verdict, rate, p) in sorted(res.verdicts.items()):
        click.echo(f"{f:<20} {rate:>9.1%}  {verdict} ({p:.3g})")


def echo_rates(db, run_id: str, fair: float) -> None:
    """Each faction's win rate with its 95% Wilson interval, over the decided games, its verdict
    against the game's margin (pipelines/stats/verdicts.py), and the games that ended without a
    winner (a turn limit the rulebook does not score), if any."""
    from dashboard.report.html import _quiet_streamlit
    _quiet_streamlit()                   # the queries' cache outside a Streamlit server
    from dashboard import queries
    from dashboard.findings import undecided_sentence
    from pipelines.stats.verdicts import margin_for, with_verdicts
    rates = queries.faction_rates(str(db), run_id, version="cli")
    undecided = queries.undecided_share(str(db), run_id, version="cli")
    if undecided["undecided"]:
        click.echo(undecided_sentence(undecided))
    game = queries.run_details(str(db), run_id)["game"]
    margin = margin_for(game)
    decided = int(undecided["games"]) - int(undecided["undecided"])
    judged = with_verdicts(rates, margin=margin, total_games=decided) if rates.height else rates
    click.echo(f"{'faction':<20} {'seats':>6} {'wins':>7} {'win rate':>9} {'95% interval':>16}"
               f"   verdict (fair share {fair:.1%}, margin ±{100 * margin:g} points)")
    for r in judged.sort("faction").iter_rows(named=True):
        if r["games"]:
            interval = f"[{r['low']:.1%}, {r['high']:.1%}]"
            rate = f"{r['win_rate']:>9.1%} {interval:>16}"
            more = r.get("more_games")
            verdict = r.get("verdict", "") + (f" (~{int(more):,} more games would settle it)"
                                               if more == more and more else "")
        else:
            rate, verdict = f"{'-':>9} {'-':>16}", ""
        click.echo(f"{r['faction']:<20} {r['games']:>6} {r['wins']:>7.1f} {rate}   {verdict}")


def seating_line(plan) -> str:
    """The seating design and its balance over the games played (pairs together, faction in
    seat: min / max), e.g. for `delve simulate`."""
    from pipelines.run.seating import balance
    b = balance([[s.faction for s in spec.seats] for spec in plan.specs], plan.factions)
    kind = plan.design.kind if plan.design is not None else "alphabetical rotation (older run)"
    cycle, partial = "", ""
    if plan.design is not None:
        c = plan.design.cycle
        cycle = f", a cycle is {c} games"
        if b.games % c:
            partial = (f" (the last cycle is partial, {b.games % c} of {c} games: a multiple of "
                       f"{c} games is exactly balanced)")
    return f"seating ({plan.seating}): {kind}{cycle}; {b.describe()}{partial}"


def simulate_tiers(game, tiers, *, n_games, players, seed, variants, sets, map_id, factions, db,
                   label, jobs, chunk_size, log_moves, progress, seating=None):
    from pipelines.ladder.tiers import parse_tiers, run_tiers
    from pipelines.ladder.match import wilson
    from pipelines.run.pairing import faction_rates
    from pipelines.store import Store

    tier_list = parse_tiers(tiers)
    kw = {"variants": variants, "sets": sets, "map": map_id, "factions": factions,
          "seating": seating}
    sweep_id, runs = run_tiers(game, Store(db), tiers=tier_list, n_games=n_games,
                               players=players, seed=seed, plan_kwargs=kw, label=label,
                               jobs=jobs, chunk_size=chunk_size, log_moves=log_moves,
                               progress=progress, echo=click.echo)
    click.echo(f"{sweep_id}: {len(runs)} tiers of {n_games} games -> {db}")
    rates = {tier: faction_rates(db, run_id) for tier, run_id in runs}
    factions_all = sorted({f for r in rates.values() for f in r})
    widths = [max(26, len(t) + 2) for t, _ in runs]     # a long tier spec keeps its gap
    click.echo(f"{'faction':<20}" + "".join(f"{t:>{w}}" for (t, _), w in zip(runs, widths)))
    for f in factions_all:
        cells = []
        for tier, _ in runs:
            w, n = rates[tier].get(f, (0, 0))
            lo, hi = wilson(w, n)
            cells.append(f"{w / max(1, n):.1%} [{lo:.1%}, {hi:.1%}]")
        click.echo(f"{f:<20}" + "".join(f"{c:>{w}}" for c, w in zip(cells, widths)))


@click.command()
@click.argument("run")
@db_option
@click.option("--jobs", type=click.IntRange(min=1), default=None,
              help="Worker processes (default: as the run was started).")
@click.option("--no-progress", is_flag=True, help="Hide the progress bar.")
def resume(run, db, jobs, no_progress):
    """Finish a run that was killed or failed part-way: play only the games it does not have,
    with the run's stored rules and options (each game ends up in the database exactly once).
    Same as `delve simulate --resume RUN`."""
    from delve.cli.run_output import resume as do_resume
    do_resume(db, run, jobs=jobs, progress=not no_progress)




COMMANDS = (simulate, resume)
