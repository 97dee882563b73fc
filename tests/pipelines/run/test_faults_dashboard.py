"""Issue 6, fault test 6: the dashboard (AppTest of dashboard/app.py) while `delve simulate`
writes: it shows the run's progress and never a lock error.  Then Ctrl-C (SIGINT) stops the
simulation cleanly: the completed games are kept and the message says how to resume."""

from __future__ import annotations

import signal
from pathlib import Path

from faults_helpers import counts, run_state, start, wait_for_games

APP = Path(__file__).resolve().parents[3] / "dashboard" / "app.py"
GAMES = 50_000   # far more than it plays before the Ctrl-C: random games are fast now


def _texts(at) -> str:
    parts = [e.value for e in (*at.markdown, *at.info, *at.warning, *at.error, *at.caption)]
    return "\n".join(str(p) for p in parts)


def test_dashboard_during_a_running_simulation_then_ctrl_c(tmp_path, monkeypatch):
    from streamlit.testing.v1 import AppTest

    from dashboard import ui
    db = tmp_path / "live.duckdb"
    proc = start("simulate", "glimmerdeep", "--games", GAMES, "--bots", "random", "--seed", 4,
                 "--chunk-size", 5, "--flush-seconds", 0.2, "--db", db, "--no-progress")
    try:
        run_id, _, _ = wait_for_games(proc, db, at_least=5)
        monkeypatch.setenv("DELVE_DB", str(db))
        at = AppTest.from_file(str(APP), default_timeout=60).run()
        assert not at.exception, at.exception
        text = _texts(at)
        assert "lock" not in text.lower() and ui.BUSY_MESSAGE not in text
        metrics = {m.label: m.value for m in at.metric}
        assert metrics["status"] == "running", metrics
        stored, planned = metrics["games stored"].split(" / ")
        assert planned == str(GAMES) and int(stored) >= 5
        assert at.get("progress"), "a running run shows a progress bar"
        wait_for_games(proc, db, at_least=int(stored) + 1)  # still writing after the page
        assert proc.poll() is None, "the simulation ended too early to test Ctrl-C"
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    _, status, done = run_state(db)
    assert status == "failed" and done > int(stored)
    assert f"Interrupted: {done} of {GAMES} games are kept" in err
    assert f"delve simulate --resume {run_id} --db {db}" in err
    assert "Traceback" not in err
    assert counts(db, run_id) == (done, done)
    from pipelines.store import connect_read
    with connect_read(db) as con:
        error = con.execute("SELECT error FROM runs").fetchone()[0]
    assert error.startswith("interrupted (KeyboardInterrupt): resumable")
