"""`--backend dask --scheduler ADDR`: the same tasks on a Dask cluster through joblib give the
same rows (DESIGN.md, Determinism: whatever the backend)."""

from __future__ import annotations

import pytest

from pipeline_helpers import dump, e2e_setup

distributed = pytest.importorskip("dask.distributed")

GAME, PLAYERS, BOTS = e2e_setup()


@pytest.fixture(scope="module")
def cluster():
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                       host="127.0.0.1", protocol="tcp", dashboard_address=None)
    try:
        yield cluster
    finally:
        cluster.close()


def test_dask_backend_gives_identical_rows(tmp_path, cli, cluster):
    assert cluster.scheduler_address.startswith("tcp://127.0.0.1:")
    common = ("--games", 6, "--players", PLAYERS, "--bots", BOTS, "--seed", 11, "--no-progress")
    local, remote = tmp_path / "local.duckdb", tmp_path / "dask.duckdb"
    res = cli("simulate", GAME, *common, "--db", local)
    assert res.exit_code == 0, res.output
    res = cli("simulate", GAME, *common, "--chunk-size", 2, "--backend", "dask",
              "--scheduler", cluster.scheduler_address, "--db", remote)
    assert res.exit_code == 0, res.output
    assert dump(remote) == dump(local)


def test_dask_without_scheduler_is_a_user_error(tmp_path, cli):
    db = tmp_path / "d.duckdb"
    res = cli("simulate", "toy", "--games", 2, "--players", 2, "--backend", "dask", "--db", db)
    assert res.exit_code == 2 and "--scheduler" in res.stderr
    assert not db.exists()


def test_unreachable_scheduler_is_named_and_nothing_is_written(tmp_path, cli):
    db = tmp_path / "d.duckdb"
    res = cli("simulate", "toy", "--games", 2, "--players", 2, "--backend", "dask",
              "--scheduler", "tcp://127.0.0.1:1", "--db", db)
    assert res.exit_code == 2 and "tcp://127.0.0.1:1" in res.stderr
    assert "Traceback" not in res.output
    assert not db.exists()
