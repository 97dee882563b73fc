"""Rooms and doors (DESIGN.md, README "The code"): layers only point down (engine <- pipelines <-
dashboard, the `delve` CLI on top), a game package imports only engine.core and itself, games
are independent, and inside pipelines the lab and the benchmarks sit on run/store/stats.

The contracts live in pyproject.toml ([tool.importlinter]); import-linter reads every import
of every module, function-local ones included, so an import tucked into a function to dodge a
cycle fails here too."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_import_contracts_hold():
    res = subprocess.run([sys.executable, "-c", "from importlinter.cli import lint_imports_command;"
                          "lint_imports_command()"], cwd=REPO, capture_output=True, text=True)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "BROKEN" not in res.stdout and "KEPT" in res.stdout


def test_every_registered_game_is_in_the_independence_contract():
    import tomllib

    from engine.core.registry import builtin_games

    contracts = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    independent = next(c for c in contracts if c["type"] == "independence")["modules"]
    assert sorted(independent) == sorted(f"engine.games.{g}" for g in builtin_games())


def test_no_game_module_is_over_about_500_lines():
    """A game package mirrors its rulebook's sections: no module over about 500 lines."""
    big = {str(p.relative_to(REPO)): n for p in (REPO / "engine" / "games").rglob("*.py")
           if (n := len(p.read_text(encoding="utf-8").splitlines())) > 520}
    assert big == {}


def test_top_level_packages_import_no_cycle_at_import_time():
    """`python -c` import checks: each top-level package imports on its own, in a fresh process,
    without pulling a package above it in."""
    order = ["engine", "pipelines", "dashboard", "delve"]
    for i, pkg in enumerate(order):
        above = order[i + 1:]
        code = (f"import sys, {pkg}, importlib, pkgutil\n"
                f"for m in pkgutil.walk_packages({pkg}.__path__, '{pkg}.'):\n"
                f"    if m.name != 'dashboard.app':  # the Streamlit script itself\n"
                f"        importlib.import_module(m.name)\n"
                f"bad = [m for m in sys.modules if m.split('.')[0] in {above!r}]\n"
                f"print(bad); sys.exit(1 if bad else 0)")
        res = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True)
        assert res.returncode == 0, f"{pkg}: {res.stdout} {res.stderr[-2000:]}"


def test_no_function_local_import_of_a_higher_layer():
    """No `import` inside a function reaches up a layer (the contracts above check the graph;
    this names the line)."""
    rank = {"engine": 0, "pipelines": 1, "dashboard": 2, "delve": 3}
    bad = []
    for pkg, r in rank.items():
        for path in (REPO / pkg).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    top = node.module.split(".")[0]
                    if rank.get(top, -1) > r:
                        bad.append(f"{path.relative_to(REPO)}:{node.lineno} imports {node.module}")
    assert bad == []
