"""`delve bench`: what a decision costs, for every registered game, printed as ratios.

Sections, per game:
1. engine: cost per decision and games/s for random and greedy bots, move logging on and off,
   one and two workers (games played in memory, nothing written); then where a random
   decision's time goes (`split.py`: choosing it, per decision kind, against the rest);
2. pipeline: random bots with full logging *into DuckDB* (`run_plan` into a temporary
   database, the writer included), one and two workers: cost per decision, the two-worker
   speed-up, and the writer's share of the wall time, measured as the time the parent (the
   only writer) spends inside `Store.write` transactions (open, insert, commit, close)
   divided by the run's wall time; also the writer's CPU time in them (DuckDB runs in the
   writing thread), the number of write transactions, and the parent's CPU time over the
   run (every CPU-second of it competes with the workers on a 2-core machine), and the
   writer's CPU by part of its transactions (`Store.write_parts`); `--pipeline-bots` plays
   these runs with other bots than random;
3. memory: a longer run (two workers, `--long-games`) sampling this process's resident set
   after every chunk: the first-quarter, middle and final RSS and the peak (flat = results are
   streamed to the database, not accumulated);
4. `--peer catanatron` (the `[bench]` extra): a random decision with the move log on against
   catanatron's random action (4 players each), both in CPU time (`time.process_time`, which
   other sessions' load does not inflate as it does the wall), interleaved in rounds of
   catanatron, ours, catanatron in this process, and the ratio of the median round (goal: ours
   at most one third of catanatron's); then, for reference, our wall time per decision with the
   DuckDB writer too.
"""

from __future__ import annotations

import os
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import click

from engine.core.errors import DelveError

from pipelines.run.plan import make_plan
from pipelines.run.execute import ChunkTask, iter_results, make_tasks, run_plan
from pipelines.store import Store

from .split import decision_split, format_split

GOAL_PEER_RATIO = 1 / 3
GOAL_SPEEDUP = 1.8
GOAL_WRITER_SHARE = 0.05
PEER_ROUNDS = 3           # interleaved rounds of the peer comparison (section 4)


@dataclass
class BenchRow:
    bots: str
    log: bool
    workers: int
    games: int
    decisions: int
    wall_s: float

    @property
    def us_per_decision(self) -> float:
        return self.wall_s * 1e6 / max(1, self.decisions)

    @property
    def games_per_s(self) -> float:
        return self.games / self.wall_s if self.wall_s else float("inf")


def _run(tasks: list[ChunkTask], workers: int) -> tuple[int, float]:
    t0 = time.perf_counter()
    decisions = 0
    for batch in iter_results(tasks, jobs=workers):
        decisions += sum(batch["games"].column("steps").to_pylist())
    return decisions, time.perf_counter() - t0


def _players(game_id: str, players: int) -> int:
    from engine.core.registry import get_game
    counts = get_game(game_id).player_counts
    return players if players in counts else max(counts)


def bench(game_id: str = "glimmerdeep", *, games: int = 20, players: int = 4, seed: int = 0,
          bots=("random", "greedy"), workers=(1, 2)) -> list[BenchRow]:
    """Section 1: the engine alone (nothing written)."""
    rows = []
    players = _players(game_id, players)
    for bot in bots:
        plan = make_plan(game_id, n_games=games, n_players=players, bots=bot, seed=seed)
        for log in (True, False):
            for w in workers:
                chunk = max(1, games // (w * 2))
                tasks = make_tasks(plan, chunk, log)
                # warm up outside the timing: imports, rules caches, the worker pool
                list(iter_results(make_tasks(plan, 1, log)[:w], jobs=w))
                decisions, wall = _run(tasks, w)
                rows.append(BenchRow(bot, log, w, games, decisions, wall))
    return rows


def format_table(rows: list[BenchRow]) -> str:
    out = [f"{'bots':<8} {'log':<5} {'workers':>7} {'games':>6} {'decisions':>10} "
           f"{'us/decision':>12} {'games/s':>9}"]
    for r in rows:
        out.append(f"{r.bots:<8} {('on' if r.log else 'off'):<5} {r.workers:>7} {r.games:>6} "
                   f"{r.decisions:>10} {r.us_per_decision:>12.1f} {r.games_per_s:>9.2f}")

    def find(bots, log, w):
        return next((r for r in rows if r.bots == bots and r.log == log and r.workers == w), None)

    out.append("")
    out.append(f"ratios ({_machine()}: other work on the machine lowers the 2-worker speedup)")

    def ratio(name, a, b, attr, note):
        if a and b and getattr(b, attr):
            out.append(f"  {name:<48} {getattr(a, attr) / getattr(b, attr):6.2f}x  {note}")

    ratio("greedy / random, cost per decision (log on)", find("greedy", True, 1),
          find("random", True, 1), "us_per_decision", "lookahead cost")
    for bots in ("random", "greedy"):
        ratio(f"{bots}: logging on / off, cost per decision", find(bots, True, 1),
              find(bots, False, 1), "us_per_decision", "logging overhead")
        ratio(f"{bots}: 2 workers / 1 worker, games/s (log on)", find(bots, True, 2),
              find(bots, True, 1), "games_per_s", "parallel speedup")
    return "\n".join(out)


def _machine() -> str:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return f"cpus {os.cpu_count()}, load average {load:.2f}"


# -- section 2 and 3: the whole pipeline into DuckDB --------------------------------------------

@dataclass
class PipelineRow:
    workers: int
    games: int
    decisions: int
    wall_s: float
    write_s: float
    rss_mb: list[float]
    log_moves: bool = True
    write_cpu_s: float = 0.0
    writes: int = 0
    parent_cpu_s: float = 0.0
    play_s: float = 0.0       # sum of the games' own wall time (games.wall_ms)
    write_parts: dict = field(default_factory=dict)   # the writer's CPU s by part (Store)

    @property
    def us_per_decision(self) -> float:
        return self.wall_s * 1e6 / max(1, self.decisions)

    @property
    def games_per_s(self) -> float:
        return self.games / self.wall_s if self.wall_s else float("inf")

    @property
    def writer_share(self) -> float:
        return self.write_s / self.wall_s if self.wall_s else 0.0

    @property
    def writer_cpu_share(self) -> float:
        return self.write_cpu_s / self.wall_s if self.wall_s else 0.0

    @property
    def parent_cpu_share(self) -> float:
        return self.parent_cpu_s / self.wall_s if self.wall_s else 0.0

    @property
    def occupancy(self) -> float:
        """How much of the run the workers spent playing a game (the rest: waiting for a
        chunk, idle at the end while the other finishes, or, with one worker playing in this
        process, writing).  Other load on the machine slows the games and the run alike, so
        this depends far less on it than games/s does."""
        return self.play_s / (self.workers * self.wall_s) if self.wall_s else 0.0


def _cpu_s() -> float:
    t = os.times()
    return t.user + t.system


def rss_mb() -> float:
    """This process's resident set size now (Linux /proc; else the peak from getrusage)."""
    try:
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:  # pragma: no cover - not Linux
        import resource
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def pipeline_run(game_id: str, *, games: int, workers: int, players: int = 4, seed: int = 0,
                 sample_memory: bool = False, log_moves: bool = True,
                 bots: str = "random") -> PipelineRow:
    """Random bots (or `bots`, a --bots spec), every move logged, written into a fresh
    temporary DuckDB file."""
    players = _players(game_id, players)
    plan = make_plan(game_id, n_games=games, n_players=players, bots=bots, seed=seed)
    rss: list[float] = []
    with tempfile.TemporaryDirectory(prefix="delve-bench-") as tmp:
        store = Store(Path(tmp) / "bench.duckdb")
        store.ensure_schema()  # creating the tables once is not part of a run
        store.write_s = 0.0
        c0, t0 = _cpu_s(), time.perf_counter()
        summary = run_plan(plan, store, jobs=workers, progress=False, log_moves=log_moves,
                           on_batch=(lambda s: rss.append(rss_mb())) if sample_memory else None)
        wall, cpu = time.perf_counter() - t0, _cpu_s() - c0
        with store.read() as con:
            play_s = con.execute("SELECT coalesce(sum(wall_ms), 0) / 1000 FROM games"
                                 ).fetchone()[0]
    return PipelineRow(workers, games, summary.decisions, wall, summary.write_s, rss,
                       log_moves, summary.write_cpu_s, summary.writes, cpu, play_s,
                       summary.write_parts)


def format_write_parts(r: PipelineRow) -> str:
    """Where the writer's CPU went in a run (`Store.write_parts`), per game and per write."""
    parts = dict(r.write_parts)
    parts["other statements"] = max(0.0, r.write_cpu_s - sum(parts.values()))
    total = max(r.write_cpu_s, 1e-12)
    text = ", ".join(f"{name} {v * 1e3 / max(1, r.games):.2f}" for name, v in
                     sorted(parts.items(), key=lambda kv: -kv[1]) if v > 0)
    moves = "moves logged" if r.log_moves else "moves not logged"
    return (f"  writer CPU, {r.workers} workers, {moves}: {r.write_cpu_s * 1e3 / max(1, r.games):.2f} "
            f"ms per game over {r.writes} writes ({r.write_cpu_s * 1e3 / max(1, r.writes):.0f} ms "
            f"per write; {total / r.wall_s:.1%} of the wall); ms per game by part: {text}")


def best_of(repeat: int, configs: list[dict], **common) -> list[PipelineRow]:
    """Each configuration `repeat` times, interleaved (so a burst of other load on the machine
    hits all of them alike); the fastest run of each (the least disturbed)."""
    best: list[PipelineRow | None] = [None] * len(configs)
    for _ in range(max(1, repeat)):
        for i, cfg in enumerate(configs):
            row = pipeline_run(**common, **cfg)
            if best[i] is None or row.wall_s < best[i].wall_s:
                best[i] = row
    return best


# -- section 4: the peer -------------------------------------------------------------------------

def catanatron_us_per_action(seconds: float, clock: Callable[[], float] = time.perf_counter
                             ) -> tuple[float, int, int]:
    """catanatron, 4 random players, games for about `seconds` of `clock`: (µs per action,
    games, actions).  DelveError if the `[bench]` extra is not installed."""
    try:
        from catanatron import Color, Game, RandomPlayer
    except ImportError:
        raise DelveError("--peer catanatron needs catanatron: pip install 'delve[bench]' "
                         "(a benchmark-only extra)") from None
    colors = (Color.RED, Color.BLUE, Color.ORANGE, Color.WHITE)
    Game([RandomPlayer(c) for c in colors], seed=0).play()  # warm-up
    t0 = clock()
    n = actions = 0
    while clock() - t0 < seconds:
        game = Game([RandomPlayer(c) for c in colors], seed=n)
        game.play()
        actions += len(game.state.actions)
        n += 1
    return (clock() - t0) * 1e6 / max(1, actions), n, actions


def random_decision_cpu_us(game_id: str, *, games: int, players: int, seed: int) -> float:
    """CPU µs per decision of `games` random games played in this process with the move log on
    (nothing written): the figure the peer ratio compares with catanatron's random game."""
    from engine.core.play import play_game
    plan = make_plan(game_id, n_games=games, n_players=_players(game_id, players), bots="random",
                     seed=seed)
    model = plan.rules.model
    t0 = time.process_time()
    decisions = 0
    for spec in plan.specs:
        rec = play_game(plan.game, model, list(spec.seats), spec.seed, map=spec.map, log=True,
                        game_index=spec.index)
        decisions += rec.game["steps"]
    return (time.process_time() - t0) * 1e6 / max(1, decisions)


@dataclass
class PeerRound:
    ours_us: float        # CPU µs per random decision, move log on
    theirs_us: float      # the peer's CPU µs per action, the mean of its runs before and after


def peer_rounds(ours: Callable[[], float], theirs: Callable[[], float], rounds: int
                ) -> list[PeerRound]:
    """`rounds` of peer, ours, peer (interleaved, so a burst of load on the shared machine hits
    both sides alike), CPU time each; the ratio is taken per round."""
    out = []
    for _ in range(max(1, rounds)):
        before = theirs()
        mine = ours()
        after = theirs()
        out.append(PeerRound(mine, (before + after) / 2))
    return out


# -- the report ----------------------------------------------------------------------------------

def report(game_ids: list[str], *, games: int, players: int, seed: int, pipeline_games: int,
           long_games: int, peer: str | None, peer_seconds: float, repeat: int = 1,
           n_rounds: int = PEER_ROUNDS, pipeline_bots: str = "random",
           echo: Callable[[str], None] = print) -> None:
    from .startup import startup_times
    echo("== the CLI: fresh interpreter each, wall and CPU seconds (goal: --help and games "
         "under 0.3 s)")
    from engine.core.registry import builtin_games
    shipped = [g for g in game_ids if g in builtin_games()]  # a fresh process knows these only
    for what, wall, cpu in startup_times(shipped[0] if shipped else None, players):
        echo(f"  {what:<48} {wall:6.2f} s wall {cpu:6.2f} s CPU")
    if shipped:
        from .startup import FIRST_GAME_GOAL, first_game_seconds
        small, _ = first_game_seconds(shipped[0], 1_000, players)
        big, _ = first_game_seconds(shipped[0], 1_000_000, players)
        echo(f"  first stored game of delve simulate {shipped[0]} (random, 2 workers): "
             f"{small:.2f} s at 1,000 planned, {big:.2f} s at 1,000,000: {big / small:.2f}x "
             f"(goal at most {FIRST_GAME_GOAL}x)")
    echo("")
    for gid in game_ids:
        echo(f"== {gid}: engine (in memory, nothing written)")
        echo(format_table(bench(gid, games=games, players=players, seed=seed)))
        split = decision_split(gid, games=games, players=players, seed=seed)
        if split is not None:
            echo("where a random decision's time goes (1 process):")
            echo(format_split(split))
        echo("")
        echo(f"== {gid}: pipeline, {pipeline_bots} bots, every move logged into DuckDB "
             f"(temporary file)")
        one, two, lean = best_of(repeat, [{"workers": 1}, {"workers": 2},
                                          {"workers": 2, "log_moves": False}],
                                 game_id=gid, games=pipeline_games, players=players, seed=seed,
                                 bots=pipeline_bots)
        if repeat > 1:
            echo(f"  (each the fastest of {repeat} runs, interleaved)")
        echo(f"  {'workers':>7} {'games':>7} {'decisions':>10} {'us/decision':>12} "
             f"{'games/s':>9} {'writer share':>13} {'writer CPU':>11} {'writes':>7} "
             f"{'parent CPU':>11} {'occupancy':>10}  moves")
        for r in (one, two, lean):
            echo(f"  {r.workers:>7} {r.games:>7} {r.decisions:>10} {r.us_per_decision:>12.1f} "
                 f"{r.games_per_s:>9.1f} {r.writer_share:>12.1%} {r.writer_cpu_share:>10.1%} "
                 f"{r.writes:>7} {r.parent_cpu_share:>10.1%} {r.occupancy:>9.1%}  "
                 f"{'logged' if r.log_moves else 'not logged (--no-log-moves)'}")
        echo("  (shares of the run's wall time: writer = inside Store.write, writer CPU = the "
             "writing thread's CPU there, parent CPU = this process, which plays the games "
             "itself with 1 worker; occupancy = the workers' time inside a game)")
        speedup = two.games_per_s / one.games_per_s
        echo(f"  2 workers / 1 worker, games/s (DuckDB incl.)   {speedup:6.2f}x  "
             f"(goal >= {GOAL_SPEEDUP}x; {_machine()})")
        echo(f"  writer share of wall time, 2 workers           {two.writer_share:6.1%}   "
             f"(goal < {GOAL_WRITER_SHARE:.0%}; time inside Store.write / run wall time)")
        for r in (two, lean):
            echo(format_write_parts(r))
        if long_games:
            echo("")
            echo(f"== {gid}: memory over a run of {long_games} games (2 workers, DuckDB), "
                 f"this process's RSS after each chunk")
            long = pipeline_run(gid, games=long_games, workers=2, players=players, seed=seed,
                                sample_memory=True)
            rss = long.rss_mb or [rss_mb()]
            q = rss[len(rss) // 4]
            echo(f"  RSS MB: first quarter {q:.0f}, middle {rss[len(rss) // 2]:.0f}, end "
                 f"{rss[-1]:.0f}, peak {max(rss):.0f}; end / first quarter "
                 f"{rss[-1] / q:.2f}x ({'flat' if rss[-1] / q < 1.15 else 'GROWING'}); "
                 f"{long.games_per_s:.0f} games/s, writer share {long.writer_share:.1%}")
        if peer:
            echo("")
            echo(f"== {gid} vs {peer}: a random decision, CPU time, interleaved in this process "
                 f"({n_rounds} rounds of {peer}, ours, {peer}; {_machine()})")
            rounds = peer_rounds(
                lambda: random_decision_cpu_us(gid, games=games, players=players, seed=seed + 1),
                lambda: catanatron_us_per_action(peer_seconds / (2 * n_rounds),
                                                 clock=time.process_time)[0],
                n_rounds)
            for i, r in enumerate(rounds, 1):
                echo(f"  round {i}: {gid} {r.ours_us:6.1f} us per decision (random bots, move "
                     f"log on, in memory); {peer} {r.theirs_us:6.1f} us per action (4 random "
                     f"players); ratio {r.ours_us / r.theirs_us:.2f}x")
            ratio = sorted(r.ours_us / r.theirs_us for r in rounds)[len(rounds) // 2]
            echo(f"  ratio {gid} / {peer}, the median round: {ratio:.2f}x  (goal <= "
                 f"{GOAL_PEER_RATIO:.2f}x: {'met' if ratio <= GOAL_PEER_RATIO else 'NOT met'})")
            piped = pipeline_run(gid, games=pipeline_games, workers=1, players=players,
                                 seed=seed + 1)
            echo(f"  (with the DuckDB writer as well, 1 worker, wall time: "
                 f"{piped.us_per_decision:.1f} us per decision)")
        echo("")
