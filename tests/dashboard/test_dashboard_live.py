"""The dashboard while a simulation writes to the same database (issue 4: "the app opens
while a simulation is writing ... shows the run's progress and partial data and never a lock
error or traceback"). A real `delve simulate` process writes in short transactions; the
Runs and Factions pages render again and again until they have shown the run part-way."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from dashfix import APP, REPO
from streamlit.testing.v1 import AppTest

from dashboard import ui

DEADLINE_S = 120
GAMES = 30_000   # far more than it plays (stopped by SIGINT): random games are fast now


def _text(at: AppTest) -> str:
    parts = [e.value for e in (*at.markdown, *at.info, *at.warning, *at.error, *at.caption)]
    return "\n".join(str(p) for p in parts)


def test_pages_show_a_running_simulation_part_way(sim_db_copy: Path, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("DELVE_DB", str(sim_db_copy))
    log = tmp_path / "simulate.log"
    with log.open("w") as out:
        sim = subprocess.Popen(
            [sys.executable, "-m", "delve", "simulate", "glimmerdeep", "--games", str(GAMES),
             "--players", "4", "--bots", "random", "--seed", "5", "--jobs", "1",
             "--chunk-size", "5", "--flush-seconds", "0.2", "--label", "live-run",
             "--db", str(sim_db_copy), "--no-progress"],
            cwd=REPO, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    seen_partial: dict[str, str] = {}
    try:
        deadline = time.monotonic() + DEADLINE_S
        while time.monotonic() < deadline and len(seen_partial) < 2:
            assert sim.poll() is None, f"the simulation ended early:\n{log.read_text()}"
            for page in ("runs", "factions"):
                if page in seen_partial:
                    continue
                at = AppTest.from_file(str(APP), default_timeout=60)
                if page != "runs":
                    at.switch_page(f"app_pages/{page}.py")
                at.run()
                assert not at.exception, at.exception[0].value
                text = _text(at)
                assert "lock" not in text.lower() and "Traceback" not in text
                if page == "runs":
                    metrics = {m.label: m.value for m in at.metric}
                    stored, planned = (int(x) for x in metrics["games stored"].split(" / "))
                    if metrics["status"] == "running" and 0 < stored < planned:
                        assert at.get("progress")
                        assert metrics["games/s"] != "—"
                        assert len(at.get_by_key("faction_table").dataframe[0].value) == 8
                        seen_partial[page] = text
                else:
                    try:
                        rates = at.get_by_key("faction_rates_table")
                    except KeyError:  # no game stored yet: the page says so
                        assert "No games of this run" in text
                        continue
                    games = int(rates.dataframe[0].value["games"].sum())
                    if 0 < games < GAMES * 4:
                        seen_partial[page] = text
            time.sleep(0.3)
    finally:
        os.killpg(sim.pid, signal.SIGINT)      # the simulation marks its run 'failed'
        try:
            sim.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(sim.pid, signal.SIGKILL)
            sim.wait()
    assert set(seen_partial) == {"runs", "factions"}, log.read_text()


def test_run_progress_arithmetic():
    import datetime as dt

    t0 = dt.datetime(2026, 1, 1, 12, 0, 0)
    rate, left = ui.run_progress(50, 200, t0, t0 + dt.timedelta(seconds=10), None, "running")
    assert rate == pytest.approx(5.0) and left == pytest.approx(30.0)
    assert ui.run_progress(200, 200, t0, t0, 40.0, "done") == (5.0, 0.0)
    assert ui.run_progress(0, 200, t0, t0 + dt.timedelta(seconds=3), None, "running") == (None, None)
    assert ui.format_duration(30) == "30 s" and ui.format_duration(125) == "2 min 05 s"
