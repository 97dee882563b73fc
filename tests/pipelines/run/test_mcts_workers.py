"""MCTS determinism across processes (issue 13): the same seed gives the same rows with one
and two workers and on Dask — the search's budget counts forward-model calls, never time,
and its randomness is the bot's own stream."""

from __future__ import annotations

import pytest

from pipeline_helpers import dump

COMMON = ("simulate", "underhaven", "--games", 3, "--players", 2, "--bots", "mcts:12,greedy", "--seed", 5,
          "--no-progress")


@pytest.fixture(scope="module")
def one_worker_rows(tmp_path_factory):
    from click.testing import CliRunner

    from delve.cli import main
    db = tmp_path_factory.mktemp("mcts1") / "one.duckdb"
    res = CliRunner().invoke(main, [*map(str, COMMON), "--jobs", "1", "--db", str(db)],
                             catch_exceptions=False)
    assert res.exit_code == 0, res.output
    return dump(db)


def test_mcts_rows_are_the_same_with_two_workers(tmp_path, cli, one_worker_rows):
    db = tmp_path / "two.duckdb"
    res = cli(*COMMON, "--jobs", 2, "--chunk-size", 1, "--db", db)
    assert res.exit_code == 0, res.output
    rows = dump(db)
    assert rows == one_worker_rows
    assert {r[3] for r in rows["players"]} == {"mcts:12", "greedy"}


def test_mcts_rows_are_the_same_on_dask(tmp_path, cli, one_worker_rows):
    pytest.importorskip("dask.distributed")
    db = tmp_path / "dask.duckdb"
    res = cli(*COMMON, "--jobs", 2, "--chunk-size", 2, "--backend", "dask",
              "--db", db)
    assert res.exit_code == 0, res.output
    assert dump(db) == one_worker_rows
