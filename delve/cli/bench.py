"""`delve bench` (engine and pipeline costs) and `delve bench-dashboard` (page renders)."""

from __future__ import annotations

import os
from pathlib import Path

import click

from engine.core.errors import DelveError


@click.command("bench")
@click.option("--game", "game_ids", multiple=True,
              help="A registered game (repeatable; default: every registered game).")
@click.option("--games", type=click.IntRange(min=1), default=20, show_default=True,
              help="Games per engine configuration (section 1).")
@click.option("--players", type=click.IntRange(min=1), default=4, show_default=True)
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option("--pipeline-games", type=click.IntRange(min=1), default=300, show_default=True,
              help="Games of each DuckDB pipeline run (section 2).")
@click.option("--pipeline-bots", default="random", show_default=True,
              help="The bots of the DuckDB pipeline runs (section 2), a --bots spec: e.g. greedy "
                   "for the writer's share in a designer's usual run.")
@click.option("--long-games", type=click.IntRange(min=0), default=0, show_default=True,
              help="Games of the memory run (section 3; 0 = skip, e.g. 100000).")
@click.option("--repeat", type=click.IntRange(min=1), default=1, show_default=True,
              help="Run each pipeline configuration (section 2) this many times, interleaved, "
                   "and keep the fastest: steadier figures on a shared machine.")
@click.option("--peer", type=click.Choice(["catanatron"]), default=None,
              help="Also run this peer in the same process window and print the ratio.")
@click.option("--peer-seconds", type=click.FloatRange(min=0.5), default=10.0, show_default=True,
              help="The peer's CPU seconds in all, split over the interleaved rounds.")
@click.option("--peer-rounds", type=click.IntRange(min=1), default=3, show_default=True,
              help="Interleaved rounds (peer, ours, peer) of the peer comparison; the ratio "
                   "given is the median round's (more rounds: steadier on a shared machine).")
@click.option("--search-budget", type=click.IntRange(min=1), default=100, show_default=True,
              help="Budget of the first MCTS rung of the search section.")
@click.option("--search-rungs", type=click.IntRange(min=0), default=2, show_default=True,
              help="MCTS rungs timed in the search section (budgets doubling).")
@click.option("--search-only", is_flag=True, help="Only the search section (clone, apply, "
                                                   "MCTS iterations/s, a game per rung).")
@click.option("--options", "options_only", is_flag=True,
              help="Only the options offered per decision, by decision kind, over --games games "
                   "of --options-bot in every seat (mean, 99th percentile, maximum, the share "
                   "above 30: the decisions too wide for a search tree).")
@click.option("--options-bot", default="greedy", show_default=True,
              type=click.Choice(["greedy", "random"]), help="The bot of the --options games.")
def bench_command(game_ids, games, players, seed, pipeline_games, pipeline_bots, long_games,
                  repeat, peer, peer_seconds, peer_rounds, search_budget, search_rungs,
                  search_only, options_only, options_bot):
    """Cost per decision, games/s, the 2-worker speed-up, the writer's share and memory, for
    every registered game, as ratios; `--peer catanatron` adds the ratio to catanatron; then
    the search section: clone and apply µs, MCTS iterations/s, one game at each ladder rung;
    `--options` instead: the options each kind of decision offers."""
    from engine.core.registry import builtin_games, get_game
    from pipelines.bench.engine import report
    ids = list(game_ids) or sorted(builtin_games())
    for gid in ids:
        get_game(gid)  # an unknown game is a user error, before anything runs
    if options_only:
        from pipelines.bench.options import report_options
        report_options(ids, games=games, seed=seed, players=players, bot=options_bot,
                       echo=click.echo)
        return
    if pipeline_bots != "random" and not search_only:
        from pipelines.run.plan import parse_bots
        try:  # a bad spec is named before anything runs
            parse_bots(pipeline_bots, players)
        except DelveError as exc:
            raise DelveError(f"--pipeline-bots: {exc}") from None
    if peer:
        import importlib.util
        if importlib.util.find_spec("catanatron") is None:
            raise DelveError("--peer catanatron needs catanatron: pip install 'delve[bench]' "
                             "(a benchmark-only extra)")
    from pipelines.bench.search import report_search
    if not search_only:
        report(ids, games=games, players=players, seed=seed, pipeline_games=pipeline_games,
               long_games=long_games, peer=peer, peer_seconds=peer_seconds, repeat=repeat,
               n_rounds=peer_rounds, pipeline_bots=pipeline_bots, echo=click.echo)
    report_search(ids, players=players, seed=seed, budget=search_budget, rungs=search_rungs,
                  echo=click.echo)


@click.command("bench-dashboard")
@click.option("--games", "sizes", type=click.IntRange(min=100), multiple=True,
              help="Games of the bench run (repeatable: one database per size, and the growth "
                   "ratios of every page against the smallest)  [default: 100000]")
@click.option("--db", default="data/bench_dashboard.duckdb", show_default=True,
              type=click.Path(), help="Where the synthetic database is built (and reused); with "
                                      "several sizes, one file per size (NAME-GAMES.duckdb).")
@click.option("--repeat", type=click.IntRange(min=1), default=3, show_default=True,
              help="Cold and warm renders (and query timings) per page; medians are shown.")
@click.option("--extra-runs", type=click.IntRange(min=0), default=0, show_default=True,
              help="Other runs in the same database (a season of runs in one file).")
@click.option("--extra-games", type=click.IntRange(min=1), default=10_000, show_default=True,
              help="Games of each other run.")
@click.option("--raw", is_flag=True, help="The pages read the raw tables, not the aggregates "
                                          "(slower: the figures without them).")
@click.option("--no-queries", is_flag=True, help="Skip the per-query timings.")
@click.option("--json-out", type=click.Path(dir_okay=False), default=None, hidden=True,
              help="Also write the page rows as JSON (the parent of a several-size run).")
def bench_dashboard_command(sizes, db: str, repeat: int, extra_runs: int, extra_games: int,
                            raw: bool, no_queries: bool, json_out: str | None) -> None:
    """Render every dashboard page on a synthetic GAMES-game, 4-player database: cold and
    warm seconds per page and per query, against the 1-second budget, and with several
    --games the growth of every page's cold render from the smallest size."""
    sizes = sorted(set(sizes or (100_000,)))
    if len(sizes) == 1:
        _bench_dashboard_one(sizes[0], Path(db), repeat, extra_runs, extra_games, raw,
                             no_queries, json_out)
        return
    # one process per size: Streamlit's AppTest and the app's settings live once per process
    import json
    import subprocess
    import sys
    import tempfile
    results: dict[int, list] = {}
    for games in sizes:
        path = Path(db).with_name(f"{Path(db).stem}-{games}{Path(db).suffix or '.duckdb'}")
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "rows.json"
            cmd = [sys.executable, "-m", "delve", "bench-dashboard", "--games", str(games),
                   "--db", str(path), "--repeat", str(repeat), "--extra-runs", str(extra_runs),
                   "--extra-games", str(extra_games), "--json-out", str(out)]
            cmd += ["--raw"] * raw + ["--no-queries"] * no_queries
            done = subprocess.run(cmd)
            if done.returncode != 0:
                raise SystemExit(done.returncode)
            results[games] = json.loads(out.read_text())
    if len(sizes) > 1:
        base = sizes[0]
        click.echo(f"\ngrowth of the cold render (median) from {base:,} games "
                   f"(goal: at most 1.5x at 10x the games)")
        click.echo(f"{'page':<12} " + " ".join(f"{g:>11,}" for g in sizes)
                   + " " + " ".join(f"{f'x{g // base}':>7}" for g in sizes[1:]))
        for k, (page, *_rest) in enumerate(results[base]):
            cold = [results[g][k][1] for g in sizes]
            click.echo(f"{page:<12} " + " ".join(f"{c:>10.3f}s" for c in cold) + " "
                       + " ".join(f"{c / cold[0]:>6.2f}x" for c in cold[1:]))



def _bench_dashboard_one(games: int, path: Path, repeat: int, extra_runs: int,
                         extra_games: int, raw: bool, no_queries: bool,
                         json_out: str | None) -> None:
    from dashboard.bench import bench_pages, ensure_db, query_timings, raw_tables, table_counts
    path, built = ensure_db(path, games, extra_runs, extra_games)
    counts = table_counts(path)
    click.echo(f"\ndatabase {path}: " + ", ".join(f"{v:,} {k}" for k, v in counts.items())
               + (f" (built in {built:.1f}s)" if built else " (reused)"))
    click.echo(f"pages read {'the raw tables (--raw)' if raw else 'the aggregates'}; "
               f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores "
               "(other processes slow the figures down)")
    with raw_tables(raw):
        rows, warm_up = bench_pages(path, repeat)
        click.echo(f"warm-up (every page once: imports, component scan; once per server "
                   f"process): {warm_up:.1f}s")
        click.echo(f"medians of {repeat} renders per page, {games:,} games")
        click.echo(f"{'page':<12} {'cold s':>8} {'fastest':>8} {'warm s':>8} "
                   f"{'cold / 1 s budget':>18}")
        for page, cold, fastest, warm in rows:
            click.echo(f"{page:<12} {cold:>8.3f} {fastest:>8.3f} {warm:>8.3f} "
                       f"{cold / 1.0:>17.2f}x")
        click.echo(f"load average after: {os.getloadavg()[0]:.2f}")
        if not no_queries:
            click.echo(f"\n{'query (uncached)':<24} {'s':>7}")
            for name, secs in query_timings(str(path), repeat):
                click.echo(f"{name:<24} {secs:>7.3f}")
    if json_out:
        import json
        Path(json_out).write_text(json.dumps(rows))


COMMANDS = (bench_command, bench_dashboard_command)
