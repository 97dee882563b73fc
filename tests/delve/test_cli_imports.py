"""Issue 16: the CLI answers at once.  Heavy libraries load only in the commands that use them:
`delve --help` and every command's `--help` load none of them, and `delve games` none of the
data or statistics stack (it needs the engine's rules models: pydantic and numpy).  A fresh
interpreter per command; the budget is CPU time (`time.process_time`, steady under load)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

# what the issue names (statsmodels, scipy, pandas) and the rest of the data stack
HEAVY = {"scipy", "statsmodels", "pandas", "polars", "duckdb", "pyarrow", "streamlit", "plotly",
         "joblib", "dask", "distributed", "sklearn"}
PROBE = """
import json, sys, time
t0 = time.process_time()
from delve.cli import main
try:
    main({args!r}, standalone_mode=False)
except SystemExit:
    pass
cpu = time.process_time() - t0
print(json.dumps({{"cpu": cpu, "modules": sorted({{m.split('.')[0] for m in sys.modules}})}}))
"""


def _probe(*args: str) -> dict:
    done = subprocess.run([sys.executable, "-c", PROBE.format(args=list(args))],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_delve_help_loads_no_heavy_library_and_fits_the_budget():
    out = _probe("--help")
    assert not HEAVY & set(out["modules"]), HEAVY & set(out["modules"])
    assert "numpy" not in out["modules"]  # not even the engine's arrays
    assert out["cpu"] < 0.3, out["cpu"]


@pytest.mark.parametrize("command", ["simulate", "check", "aggregate", "bench", "bench-dashboard",
                                     "dashboard", "report", "compare", "games", "runs"])
def test_a_commands_help_loads_no_heavy_library(command):
    out = _probe(command, "--help")
    assert not HEAVY & set(out["modules"]), (command, HEAVY & set(out["modules"]))


def test_delve_games_loads_no_data_or_statistics_library():
    out = _probe("games")
    assert not HEAVY & set(out["modules"]), HEAVY & set(out["modules"])
