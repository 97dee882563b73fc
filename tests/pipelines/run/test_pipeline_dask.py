"""`--backend dask`: the same tasks on a Dask cluster through joblib give the same rows
(DESIGN.md, Determinism: whatever the backend); issue 6, fault test 3: the same seed with 1
and 2 workers, loky and Dask (worker processes on loopback), different chunk sizes, gives
identical sorted rows."""

from __future__ import annotations

import pytest

from pipeline_helpers import dump, e2e_setup

distributed = pytest.importorskip("dask.distributed")

GAME, PLAYERS, BOTS = e2e_setup()
COMMON = ("--games", 12, "--players", PLAYERS, "--bots", BOTS, "--seed", 11, "--no-progress")


@pytest.fixture(scope="module")
def cluster():
    """A real cluster: two worker processes, TCP on 127.0.0.1."""
    import logging
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       host="127.0.0.1", protocol="tcp", dashboard_address=None,
                                       silence_logs=logging.ERROR)
    try:
        yield cluster
    finally:
        cluster.close()


@pytest.fixture(scope="module")
def loky_rows(tmp_path_factory):
    from click.testing import CliRunner

    from delve.cli import main
    db = tmp_path_factory.mktemp("loky") / "one.duckdb"
    res = CliRunner().invoke(main, ["simulate", GAME, *map(str, COMMON), "--jobs", "1",
                                    "--db", str(db)], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    return dump(db)


@pytest.mark.parametrize("workers,chunk", [(2, 1), (2, 5)])
def test_loky_any_workers_and_chunk_size_give_identical_rows(tmp_path, cli, loky_rows,
                                                             workers, chunk):
    db = tmp_path / "loky.duckdb"
    res = cli("simulate", GAME, *COMMON, "--jobs", workers, "--chunk-size", chunk, "--db", db)
    assert res.exit_code == 0, res.output
    assert dump(db) == loky_rows


@pytest.mark.parametrize("chunk", [2, 7])
def test_dask_cluster_gives_the_loky_rows(tmp_path, cli, cluster, loky_rows, chunk):
    assert cluster.scheduler_address.startswith("tcp://127.0.0.1:")
    db = tmp_path / "dask.duckdb"
    res = cli("simulate", GAME, *COMMON, "--chunk-size", chunk, "--backend", "dask",
              "--scheduler", cluster.scheduler_address, "--db", db)
    assert res.exit_code == 0, res.output
    assert dump(db) == loky_rows


def test_dask_without_scheduler_starts_a_local_cluster_on_loopback(tmp_path, cli, loky_rows,
                                                                   monkeypatch):
    from pipelines.run import execute as runner
    started = []
    real = runner.dask_client

    def spy(scheduler, *args, **kwargs):
        client = real(scheduler, *args, **kwargs)
        started.append((scheduler, client.scheduler.address,
                        len(client.scheduler_info()["workers"])))
        return client
    monkeypatch.setattr(runner, "dask_client", spy)
    db = tmp_path / "local.duckdb"
    res = cli("simulate", GAME, *COMMON, "--jobs", 2, "--chunk-size", 3, "--backend", "dask",
              "--db", db)
    assert res.exit_code == 0, res.output
    assert dump(db) == loky_rows
    (scheduler, address, n_workers), = started
    assert scheduler is None and address.startswith("tcp://127.0.0.1:") and n_workers == 2


def test_unreachable_scheduler_is_named_and_nothing_is_written(tmp_path, cli):
    db = tmp_path / "d.duckdb"
    res = cli("simulate", "toy", "--games", 2, "--players", 2, "--backend", "dask",
              "--scheduler", "tcp://127.0.0.1:1", "--db", db)
    assert res.exit_code == 2 and "tcp://127.0.0.1:1" in res.stderr
    assert "Traceback" not in res.output
    assert not db.exists()
