"""Selecting a run warms the cache of the other pages' analyses in the background, so the
next page a designer opens is served from the cache."""

from __future__ import annotations

from pathlib import Path

import pytest
from dashfix import APP, sim_runs
from streamlit.testing.v1 import AppTest

from dashboard import queries, ui
from dashboard.queries import background


def _wait_for_prefetch(timeout: float = 120.0) -> None:
    assert background.wait_idle(timeout), "the prefetch did not finish"


def test_the_runs_page_prefetches_the_factions_page(sim_db: Path,
                                                    monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("DELVE_PREFETCH", "1")
    monkeypatch.setenv("DELVE_DB", str(sim_db))
    monkeypatch.setattr(ui, "_prefetched", set())
    run_id = sim_runs(sim_db)["baseline"]
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params["run"] = run_id
    at.run()
    assert not at.exception
    _wait_for_prefetch()

    reads: list[str] = []
    real = queries.core.read_frame
    monkeypatch.setattr(queries.core, "read_frame",
                        lambda db, sql, params=(), **kw: reads.append(sql) or real(db, sql, params, **kw))
    factions = AppTest.from_file(str(APP), default_timeout=60)
    factions.query_params["run"] = run_id
    factions.switch_page("app_pages/factions.py")
    factions.run()
    assert not factions.exception
    analyses = [sql for sql in reads if "FROM fp" in sql or "tables AS (" in sql]
    assert analyses == [], "the Factions page should find its analyses in the cache"


def test_prefetch_can_be_turned_off(sim_db: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("DELVE_PREFETCH", "0")
    monkeypatch.setattr(ui, "_prefetched", set())
    submitted = []
    monkeypatch.setattr(background, "submit", lambda *a: submitted.append(a))
    ui.prefetch({"run_id": "x", "games_stored": 1, "status": "done"})
    assert submitted == []
    assert ui._prefetched == set()
