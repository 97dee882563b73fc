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
@click.option("--long-games", type=click.IntRange(min=0), default=0, show_default=True,
              help="Games of the memory run (section 3; 0 = skip, e.g. 100000).")
@click.option("--repeat", type=click.IntRange(min=1), default=1, show_default=True,
              help="Run each pipeline configuration (section 2) this many times, interleaved, "
                   "and keep the fastest: steadier figures on a shared machine.")
@click.option("--peer", type=click.Choice(["catanatron"]), default=None,
              help="Also run this peer in the same process window and print the ratio.")
@click.option("--peer-seconds", type=click.FloatRange(min=0.5), default=10.0, show_default=True)
@click.option("--search-budget", type=click.IntRange(min=1), default=100, show_default=True,
              help="Budget of the first MCTS rung of the search section.")
@click.option("--search-rungs", type=click.IntRange(min=0), default=2, show_default=True,
              help="MCTS rungs timed in the search section (budgets doubling).")
@click.option("--search-only", is_flag=True, help="Only the search section (clone, apply, "
                                                   "MCTS iterations/s, a game per rung).")
def bench_command(game_ids, games, players, seed, pipeline_games, long_games, repeat, peer,
                  peer_seconds, search_budget, search_rungs, search_only):
    """Cost per decision, games/s, the 2-worker speed-up, the writer's share and memory, for
    every registered game, as ratios; `--peer catanatron` adds the ratio to catanatron; then
    the search section: clone and apply µs, MCTS iterations/s, one game at each ladder rung."""
    from engine.core.registry import builtin_games, get_game
    from pipelines.bench.engine import report
    ids = list(game_ids) or sorted(builtin_games())
    for gid in ids:
        get_game(gid)  # an unknown game is a user error, before anything runs
    if peer:
        import importlib.util
        if importlib.util.find_spec("catanatron") is None:
            raise DelveError("--peer catanatron needs catanatron: pip install 'delve[bench]' "
                             "(a benchmark-only extra)")
    from pipelines.bench.search import report_search
    if not search_only:
        report(ids, games=games, players=players, seed=seed, pipeline_games=pipeline_games,
               long_games=long_games, peer=peer, peer_seconds=peer_seconds, repeat=repeat,
               echo=click.echo)
    report_search(ids, players=players, seed=seed, budget=search_budget, rungs=search_rungs,
                  echo=click.echo)


@click.command("bench-dashboard")
@click.option("--games", type=click.IntRange(min=100), default=100_000, show_default=True)
@click.option("--db", default="data/bench_dashboard.duckdb", show_default=True,
              type=click.Path(), help="Where the synthetic database is built (and reused).")
@click.option("--repeat", type=click.IntRange(min=1), default=3, show_default=True,
              help="Cold and warm renders (and query timings) per page; medians are shown.")
def bench_dashboard_command(games: int, db: str, repeat: int) -> None:
    """Render every dashboard page on a synthetic GAMES-game, 4-player database: cold and
    warm seconds per page and per query, against the 1-second budget."""
    from dashboard.bench import bench_pages, ensure_db, query_timings, table_counts
    path, built = ensure_db(Path(db), games)
    counts = table_counts(path)
    click.echo(f"database {path}: " + ", ".join(f"{v:,} {k}" for k, v in counts.items())
               + (f" (built in {built:.1f}s)" if built else " (reused)"))
    click.echo(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores "
               "(other processes slow the figures down)")
    rows, warm_up = bench_pages(path, repeat)
    click.echo(f"warm-up (every page once: imports, component scan; once per server process): "
               f"{warm_up:.1f}s")
    click.echo(f"\nmedians of {repeat} renders per page")
    click.echo(f"{'page':<12} {'cold s':>8} {'fastest':>8} {'warm s':>8} {'cold / 1 s budget':>18}")
    for page, cold, fastest, warm in rows:
        click.echo(f"{page:<12} {cold:>8.3f} {fastest:>8.3f} {warm:>8.3f} {cold / 1.0:>17.2f}x")
    click.echo(f"load average after: {os.getloadavg()[0]:.2f}")
    click.echo(f"\n{'query (uncached)':<24} {'s':>7}")
    for name, secs in query_timings(str(path), repeat):
        click.echo(f"{name:<24} {secs:>7.3f}")


COMMANDS = (bench_command, bench_dashboard_command)
