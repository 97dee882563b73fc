"""Issue 31: the writer aggregates the games it writes at most one catch-up later.  A live run's
pages may lag its games by that much (the games count they state is the games they cover);
the runs overview counts every stored game; a run whose writer died with games pending is
read from the raw rows; once the run's last write has caught up, every page's figure equals
its computation from the raw rows."""

from __future__ import annotations

import subprocess

import duckdb
import streamlit as st
from test_dashboard_aggregates import PAGE_HELPERS, _both, _equal

from dashboard import queries, ui
from dashboard.queries import core
from pipelines.run.execute import _run_row, make_tasks, play_chunk
from pipelines.run.plan import make_plan
from pipelines.store import BATCH_TABLES, Store
from pipelines.store import writer as W


def _dead_pid() -> int:
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


def test_a_live_run_lags_by_one_catch_up_a_dead_one_reads_raw_and_its_end_is_exact(
        tmp_path, monkeypatch):
    monkeypatch.setattr(W, "CATCH_UP_S", 1e9)   # only the first and the last write catch up
    monkeypatch.setenv("DELVE_DB", str(tmp_path / "lag.duckdb"))
    db = str(tmp_path / "lag.duckdb")
    plan = make_plan("glimmerdeep", n_games=12, n_players=4, bots="greedy,random,random,random",
                     seed=4)
    store, run_id = Store(db), "glimmerdeep-lag"
    store.create_run(_run_row(plan, run_id, "lag", None),
                     map_cells=(plan.game.id, list(plan.game.map_cells(plan.rules.model))))
    chunks = [{t: b[t] for t in BATCH_TABLES}
              for b in (play_chunk(task) for task in make_tasks(plan, 4, True))]
    store.write_batch(run_id, chunks[0])        # the first write catches up
    store.write_batch(run_id, chunks[1])        # 4 games pending

    st.cache_data.clear()
    assert core.aggregated(db, run_id)          # live: its writer (this process) beats
    assert queries.games_count(db, run_id) == 4     # the pages cover the caught-up games
    run = queries.runs_overview(db).row(0, named=True)
    assert run["games_stored"] == 8             # the overview counts every stored game
    assert queries.run_details(db, run_id)["games_stored"] == 8
    live_version = ui.data_version(run)
    assert live_version.endswith(":agg")

    con = duckdb.connect(db)                    # the writer dies (SIGKILL): its pid is gone
    try:
        con.execute("UPDATE runs SET pid = ? WHERE run_id = ?", [_dead_pid(), run_id])
    finally:
        con.close()
    st.cache_data.clear()
    assert not core.aggregated(db, run_id)      # games pending and nobody to catch up: raw
    assert queries.games_count(db, run_id) == 8
    assert ui.data_version(run) != live_version  # analyses cached while live are not reused

    store.write_batch(run_id, chunks[2], finish={"status": "done", "error": None, "wall_s": 1.0})
    st.cache_data.clear()
    assert core.aggregated(db, run_id)
    assert queries.games_count(db, run_id) == 12
    for helper in PAGE_HELPERS:
        raw, agg = _both(monkeypatch, helper, db, run_id)
        assert _equal(raw, agg), helper.__name__
    for helper in (queries.filter_options, queries.points_by_category, queries.run_details):
        raw, agg = _both(monkeypatch, helper, db, run_id)
        assert _equal(raw, agg), helper.__name__
    st.cache_data.clear()
