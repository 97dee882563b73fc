"""DESIGN.md, 'The database contract': simulations write in chunks and never hold the file
between chunks, so a reader (the dashboard) polling while `delve simulate` writes never sees a
lock error, and sees every game complete or not at all."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]  # tests/pipelines: toygame.py

WRITER = ("import sys; sys.path.insert(0, {here!r}); import toygame; "
          "from delve.cli import main; main()")

READER = r"""
import json, sys, time
from pipelines.store import connect_read
db, stop_file = sys.argv[1], sys.argv[2]
seen, polls, errors, torn = [], 0, [], 0
import pathlib
while not pathlib.Path(db).exists():
    time.sleep(0.01)
stop = pathlib.Path(stop_file)
while True:
    last = stop.exists()
    try:
        with connect_read(db, timeout=30) as con:
            done = con.execute("SELECT coalesce(max(games_done), 0) FROM runs").fetchone()[0]
            n_games, want_players = con.execute(
                "SELECT count(*), coalesce(sum(n_players), 0) FROM games").fetchone()
            have_players = con.execute("SELECT count(*) FROM players").fetchone()[0]
            if want_players != have_players or (n_games != done):
                torn += 1
            seen.append(n_games)
        polls += 1
    except Exception as exc:
        errors.append(f"{type(exc).__name__}: {exc}")
    if last:
        break
print(json.dumps({"polls": polls, "errors": errors[:5], "torn": torn, "seen": seen}))
"""


def test_a_reader_polling_while_simulate_writes_never_sees_a_lock_error(tmp_path):
    db = tmp_path / "live.duckdb"
    stop = tmp_path / "stop"
    reader = subprocess.Popen([sys.executable, "-c", READER, str(db), str(stop)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    t0 = time.perf_counter()
    writer = subprocess.run(
        [sys.executable, "-c", WRITER.format(here=str(HERE)), "simulate", "toy", "--games", "100",
         "--players", "3", "--bots", "greedy", "--chunk-size", "2", "--seed", "3", "--db", str(db),
         "--no-progress", "--flush-seconds", "0"], capture_output=True, text=True, timeout=300)
    wall = time.perf_counter() - t0
    stop.write_text("stop")
    out, err = reader.communicate(timeout=120)
    assert writer.returncode == 0, writer.stderr
    assert "lock" not in writer.stderr.lower()
    assert reader.returncode == 0, err
    report = json.loads(out)
    assert report["errors"] == [], report["errors"]
    assert report["torn"] == 0, "a reader saw part of a chunk"
    assert report["polls"] >= 10, (report["polls"], wall)
    seen = report["seen"]
    assert seen == sorted(seen) and seen[-1] == 100
    assert len(set(seen)) > 3, "the reader saw the run grow chunk by chunk"
