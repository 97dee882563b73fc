"""`delve ladder` (the skill ladder) and `delve tune` (the search bot's per-game grid)."""

from __future__ import annotations

import click

from .base import db_option, seating_option


@click.command("ladder")
@click.argument("game")
@click.option("--players", type=click.IntRange(min=1), default=4, show_default=True)
@click.option("--games", type=click.IntRange(min=1), default=100, show_default=True,
              help="Games per rung (split evenly over the seats, each seat's share rounded "
                   "up to whole seating cycles so that it holds every faction equally often).")
@click.option("--budget", "start_budget", type=click.IntRange(min=1), default=100,
              show_default=True, help="Budget of the first MCTS rung (forward-model calls).")
@click.option("--rungs", "n_search", type=click.IntRange(min=0), default=3, show_default=True,
              help="MCTS rungs above greedy, the budget doubling at each.")
@click.option("--specs", default=None,
              help="The rungs from the bottom as a comma list of bot specs (e.g. "
                   "'random,greedy,mcts:400,mcts:1600'), instead of --budget and --rungs.")
@click.option("--vs", default=None, help="Play every rung against this bot (e.g. greedy) "
                                         "instead of the rung below; a rung is then validated "
                                         "by its paired gain over the rung before it.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--label", default="", help="Label of the ladder's runs (default 'ladder ID').")
@click.option("--show", "show_id", default=None, metavar="LADDER_ID",
              help="Print a stored ladder's table again (tested again from its runs) instead "
                   "of playing one.")
@click.option("--resume", "resume_id", default=None, metavar="LADDER_ID",
              help="Finish a ladder that was cut short (interrupted, a machine restarted): "
                   "its finished runs are kept, a run cut short plays only its missing games, "
                   "and the rest is played with the ladder's own options (--jobs may differ).")
@seating_option
@db_option
def ladder_command(game, players, games, start_budget, n_search, specs, vs, seed, jobs, label,
                   show_id, resume_id, seating, db):
    """Play the skill ladder of GAME: random < greedy < mcts:B < mcts:2B < ..., each rung in
    one seat against the rung below in the others (seats rotated, every rung on the same
    deals); print each rung's win rate with its 95% interval, its test against the rung below
    (Holm-corrected over the ladder's rungs) and the strongest validated rung.  The rungs are
    runs in the database (label 'ladder ID')."""
    from engine.core.registry import get_game
    from pipelines.ladder.ladder import ladder_rungs, per_seat_games, run_ladder, stored_rungs
    from pipelines.run.plan import parse_bots
    from pipelines.store import Store, check_db_path

    g = get_game(game)
    if show_id is not None:
        from pathlib import Path

        from engine.core.errors import DelveError
        if not Path(db).is_file():
            raise DelveError(f"Database '{db}' does not exist (--db): expected the database "
                             f"the ladder was played into")
        out, n_players, stored_vs = stored_rungs(Store(db), show_id)
        if not out:
            raise click.BadParameter(f"no run of '{db}' belongs to ladder '{show_id}'",
                                     param_hint="--show")
        click.echo(f"ladder {show_id} of {game} at {n_players} players <- {db}")
        print_ladder(out, stored_vs)
        return
    if resume_id is not None:
        from pathlib import Path

        from engine.core.errors import DelveError
        from pipelines.ladder.ladder import resume_ladder
        if not Path(db).is_file():
            raise DelveError(f"Database '{db}' does not exist (--db): expected the database "
                             f"the ladder was played into")
        listed = None
        if specs is not None:
            listed = [x.strip() for x in specs.split(",") if x.strip()]
        info, out = resume_ladder(Store(db), resume_id, game=g.id, jobs=jobs, specs=listed,
                                  echo=click.echo)
        click.echo(f"\nladder {resume_id} of {g.id} at {info['players']} players: "
                   f"{' < '.join(info['rungs'])} -> {db}")
        print_ladder(out, info["vs"])
        return
    if players not in g.player_counts:
        from engine.core.errors import SetupError
        raise SetupError(f"--players {players}: {g.title} seats "
                         f"{', '.join(map(str, g.player_counts))} players")
    if vs:
        parse_bots(vs, 1)
    if specs is not None:
        rungs = [x.strip() for x in specs.split(",") if x.strip()]
        if len(rungs) < 2:
            raise click.BadParameter(f"'{specs}': expected at least two bot specs, the bottom "
                                     f"rung first", param_hint="--specs")
        try:
            parse_bots(",".join(rungs), len(rungs))
        except Exception as exc:
            raise click.BadParameter(str(exc), param_hint="--specs") from exc
    else:
        rungs = ladder_rungs(start_budget, n_search)
    check_db_path(db)
    fair = 1.0 / players
    per_seat = per_seat_games(game, games, players, seating)
    click.echo(f"ladder of {game} at {players} players: {' < '.join(rungs)}; "
               f"{per_seat * players} games per rung ({per_seat} per seat, whole seating "
               f"cycles; the same deals in every rung); fair share {fair:.1%}")
    lid, out = run_ladder(game, Store(db), players=players, games=games, rungs=rungs,
                          seed=seed, jobs=jobs, vs=vs, label=label, echo=click.echo,
                          seating=seating)
    click.echo(f"\nladder {lid} -> {db}")
    print_ladder(out, vs)


def print_ladder(out, vs) -> None:
    """The ladder's table: each rung's rate, interval, test against the rung below, Holm p."""
    from pipelines.ladder.ladder import strongest
    click.echo(f"{'rung':<24} {'against':<14} {'games':>6} {'win rate':>9} {'95% interval':>17}"
               f"  {'tested against':<38} {'Holm p':>8}  validated  no winner")
    for r in out:
        lo, hi = r.interval()
        test = r.against
        if r.pairs:
            test += f" {r.diff * 100:+.1f} [{r.diff_low * 100:+.1f}, {r.diff_high * 100:+.1f}]"
        click.echo(f"{r.spec:<24} {r.below:<14} {r.games:>6} {r.rate:>9.1%} "
                   f"{f'[{lo:.1%}, {hi:.1%}]':>17}  {test:<38} {r.p_holm:>8.2g}  "
                   f"{'yes' if r.validated else 'no':<9}  {r.undecided} "
                   f"({r.undecided / r.games if r.games else 0:.1%})")
    click.echo("A rung is validated when it beats the rung below (its share above the fair "
               "share" + ("; with --vs, a later rung's paired gain over the rung before it "
                          "on the same deals" if vs else "") +
               "), Holm over the ladder's rungs, and every rung below it is validated.  "
               "No winner: games stopped by a turn limit, a loss for every seat.")
    click.echo(f"strongest validated rung: {strongest(out) or 'none'}")


@click.command("tune")
@click.argument("game")
@click.option("--budget", type=click.IntRange(min=1), default=200, show_default=True)
@click.option("--grid", default="c=0.3,1.0;depth=0,4", show_default=True,
              help="Parameter values to try: 'KEY=V1,V2;KEY=...' (the spec's overrides: c, "
                   "depth, rollout, widen, order, reward, scale, prior, leaf, reuse, "
                   "opponents, worlds, narrow).")
@click.option("--games", type=click.IntRange(min=1), default=40, show_default=True)
@click.option("--players", type=click.IntRange(min=1), default=4, show_default=True)
@click.option("--vs", "opponent", default="greedy", show_default=True)
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True)
def tune_command(game, budget, grid, games, players, opponent, seed, jobs):
    """Grid-search the MCTS parameters of GAME: each candidate in one seat (rotated) against
    --vs in the others, the same seeds for every candidate; best (lowest mean rank) first.
    Put the winner in data/bots/GAME.toml with this command as its source."""
    from engine.core.registry import get_game
    from pipelines.ladder.tune import tune
    get_game(game)
    click.echo(f"tuning {game} at {players} players, budget {budget}, {games} games each "
               f"against {opponent}")
    ranked = tune(game, budget=budget, grid=grid, games=games, players=players, seed=seed,
                  jobs=jobs, opponent=opponent, echo=click.echo)
    click.echo(f"best: {ranked[0].spec} (mean rank {ranked[0].mean_rank:.2f}, "
               f"win {ranked[0].rate:.1%})")


@click.command("fit-leaf")
@click.argument("game")
@click.option("--games", type=click.IntRange(min=2), default=500, show_default=True,
              help="Self-play games (the even ones fit, the odd ones test).")
@click.option("--players", type=click.IntRange(min=1), default=4, show_default=True)
@click.option("--bots", default="greedy", show_default=True,
              help="The bots of the self-play games (one spec, or one per seat).")
@click.option("--every", type=click.IntRange(min=1), default=15, show_default=True,
              help="Keep about one state in this many decisions.")
@click.option("--ridge", type=click.FloatRange(min=0.0), default=30.0, show_default=True,
              help="Penalty per row shrinking the weights towards the plain leaf's (1).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--write", is_flag=True,
              help="Write the weights to data/bots/GAME.toml [leaf] (else print them).")
def fit_leaf_command(game, games, players, bots, every, ridge, seed, jobs, write):
    """Fit the search bot's leaf value of GAME (MCTS leaf = "fitted"): per bucket (Underhaven:
    rounds left) a weight for each of the game's leaf features and a constant, by least
    squares on states of self-play games, each state's target the seat's final score.
    Prints how well the plain leaf and the fit predict the test games' final scores."""
    import shlex

    from engine.bots.params import bots_path
    from engine.core.errors import DelveError
    from engine.core.registry import get_game
    from pipelines.ladder import leaf_fit as lf
    g = get_game(game)
    names = g.extra.get("leaf_feature_names")
    if names is None or "leaf_features" not in g.extra:
        raise DelveError(f"{game}: the game declares no leaf features "
                         f"(extra['leaf_features'], extra['leaf_feature_names'])")
    click.echo(f"fitting the leaf of {game}: {games} self-play games of {bots} at {players} "
               f"players, one state in {every} decisions")
    s = lf.collect(game, games=games, players=players, bots=bots, seed=seed, every=every,
                   jobs=jobs)
    even = s.game % 2 == 0
    train, test = lf.subset(s, even), lf.subset(s, ~even)
    w = lf.fit(train, ridge)
    click.echo(f"{len(s.scores)} seat-states from {len(set(s.moment.tolist()))} states; "
               f"test: the odd games ({len(test.scores)} seat-states)")
    for name, values in (("plain leaf (sum)", test.features.sum(1)),
                         ("fitted", lf.predict(test, w))):
        q = lf.quality(test, values)
        click.echo(f"  {name:<17} rmse {q['rmse']:7.2f}  top value a winner "
                   f"{q['winner']:.1%}  margin corr {q['margin_corr']:.3f}")
    weights = lf.fit(s, ridge)
    command = " ".join(shlex.quote(str(a)) for a in [
        "delve", "fit-leaf", game, "--games", games, "--players", players, "--bots", bots,
        "--every", every, "--ridge", ridge, "--seed", seed])   # jobs: the same weights
    table = lf.leaf_toml(names, weights, f"fitted: {command} ({len(s.scores)} seat-states)")
    if write:
        path = bots_path(game)
        lf.write_leaf(path, table)
        click.echo(f"written to {path} [leaf]")
    else:
        click.echo("\n" + table)


COMMANDS = (ladder_command, tune_command, fit_leaf_command)
