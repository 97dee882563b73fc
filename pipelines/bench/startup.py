"""How fast the CLI answers (issue 16): `delve --help`, `delve games` and `delve simulate`'s
time to its first game, each in a fresh interpreter, wall and CPU seconds (the CPU time of the
child, from `resource.getrusage`, moves much less with the machine's load than the wall)."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _timed(args: list[str], env: dict | None = None) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "delve", *args], capture_output=True,
                          text=True, timeout=600, env=env)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"delve {' '.join(args)} failed: {done.stderr.strip()[-500:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def startup_times(game_id: str | None, players: int) -> list[tuple[str, float, float]]:
    """(what, wall s, CPU s): `delve --help`, `delve games`, and (with a shipped `game_id`)
    `delve simulate GAME --games 1` with one worker from process start to exit: its imports,
    the plan, the first game, its write and the summary, an upper bound of the time to the
    first game."""
    with tempfile.TemporaryDirectory() as cache:
        # `delve games` reads its listing from a cache (engine/core/listing.py): the first call
        # after a change of Delve's code or rules imports every game, later calls none
        env = {**os.environ, "DELVE_CACHE_DIR": cache}
        cold = _timed(["games"], env)
        out = [("delve --help", *_timed(["--help"])), ("delve games", *_timed(["games"], env)),
               ("delve games (first call: empty cache)", *cold)]
    if game_id is None:
        return out
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "first.duckdb")
        out.append((f"delve simulate {game_id} --games 1 (to exit)",
                    *_timed(["simulate", game_id, "--games", "1", "--players", str(players),
                             "--bots", "random", "--jobs", "1", "--db", db, "--no-progress"])))
    return out
