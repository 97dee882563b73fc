"""`delve bench`: cost per decision and games/s for random and greedy bots, with and without
move logging, on one and two workers.  Prints ratios, not only bare times."""

from __future__ import annotations

import time
from dataclasses import dataclass

from .plan import make_plan
from .runner import ChunkTask, iter_results, make_tasks


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


def bench(game_id: str = "glimmerdeep", *, games: int = 20, players: int = 4, seed: int = 0,
          bots=("random", "greedy"), workers=(1, 2)) -> list[BenchRow]:
    rows = []
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

    import os
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    out.append("")
    out.append(f"ratios (cpus {os.cpu_count()}, load average {load:.2f}: other work on the "
               f"machine lowers the 2-worker speedup)")

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
