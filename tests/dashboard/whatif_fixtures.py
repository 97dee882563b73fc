"""A small real Glimmerdeep database for the What-if and Checks page tests: a base run, a
paired run under a changed rule, and a two-value sweep (random bots, a few dozen games)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from delve.cli import main


def delve(*args) -> str:
    res = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    return res.stdout.splitlines()[0] if res.stdout else ""


def build_whatif_db(path: Path) -> dict:
    base = delve("simulate", "glimmerdeep", "--games", 24, "--seed", 1, "--db", path,
                 "--label", "whatif-base", "--no-progress")
    paired = delve("simulate", "glimmerdeep", "--paired-with", base, "--set", "game.rounds=4",
                   "--variant-name", "four_rounds_test", "--db", path, "--no-progress")
    delve("sweep", "glimmerdeep", "--set", "game.rounds=4,5", "--games", 8, "--seed", 2,
          "--db", path, "--no-progress", "--no-log-moves")
    return {"db": path, "base": base, "paired": paired}
