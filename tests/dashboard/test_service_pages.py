"""Issue 17 on the pages: a run whose writer was SIGKILLed shows as stalled on the Runs page,
with since when and the resume command, and the page's resume (a queued launch, a real
process) finishes it; served beyond loopback without --allow-launch, the What-if, Checks and
Runs pages say launching is off and offer no launch."""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from dashfix import APP, REPO
from streamlit.testing.v1 import AppTest
from whatif_fixtures import build_whatif_db

from dashboard import jobs
from pipelines.store import connect_read

WHATIF = REPO / "dashboard" / "app_pages" / "whatif.py"
CHECKS = REPO / "dashboard" / "app_pages" / "checks.py"
OFF = "Launching runs from the pages is off"


@pytest.fixture(autouse=True)
def fresh_queue():
    """Each test gets the server's queue afresh (it is made from the environment)."""
    jobs._QUEUE = None
    yield
    if jobs._QUEUE is not None:
        jobs._QUEUE.shutdown()
    jobs._QUEUE = None


@pytest.fixture(scope="module")
def whatif_template(tmp_path_factory):
    return build_whatif_db(tmp_path_factory.mktemp("svc") / "w.duckdb")


def _killed_run(db: Path) -> str:
    """A real `delve simulate` SIGKILLed part-way into `db`; returns its run id."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "delve", "simulate", "glimmerdeep", "--games", "40", "--players",
         "4", "--bots", "random", "--chunk-size", "2", "--flush-seconds", "0", "--label",
         "killed", "--db", str(db), "--no-progress"], cwd=REPO, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            assert proc.poll() is None, proc.stderr.read()
            with connect_read(db) as con:
                row = con.execute("SELECT run_id, games_done FROM runs WHERE label = 'killed'"
                                  ).fetchone()
            if row and row[1] >= 2:
                proc.send_signal(signal.SIGKILL)
                proc.wait(timeout=30)
                return row[0]
            time.sleep(0.05)
        raise AssertionError("the run stored no games in time")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _text(at: AppTest) -> str:
    parts = [e.value for e in (*at.markdown, *at.info, *at.warning, *at.error, *at.caption)]
    return "\n".join(str(p) for p in parts)


def test_runs_page_shows_a_killed_run_stalled_and_its_resume_finishes_it(
        whatif_template, tmp_path, monkeypatch):
    db = tmp_path / "w.duckdb"
    shutil.copy(whatif_template["db"], db)
    run_id = _killed_run(db)
    monkeypatch.setenv("DELVE_DB", str(db))
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params["run"] = run_id
    at.run()
    assert not at.exception, at.exception
    table = at.get_by_key("runs_table").dataframe[0].value
    states = dict(zip(table["run_id"], table["state"]))
    assert states[run_id] == "stalled" and states[whatif_template["base"]] == "done"
    assert {m.label: m.value for m in at.metric}["status"] == "stalled"
    warning = at.get_by_key("run_stalled").warning[0].value
    assert "stalled since " in warning and "is gone" in warning
    assert f"resume with `delve simulate --resume {run_id} --db {db}`" in warning
    assert not at.get("progress")                     # not shown as in progress

    at.button(key="resume_run").click().run()        # the page offers the resume: queued
    assert not at.exception, at.exception
    queue = jobs.launch_queue()
    (job,) = queue.jobs()
    assert job.args[:3] == ["simulate", "--resume", run_id]
    deadline = time.monotonic() + 180
    while job.active and time.monotonic() < deadline:
        time.sleep(0.5)
    assert job.state == "done", job.log_tail()
    at.run()
    assert not at.exception, at.exception
    table = at.get_by_key("runs_table").dataframe[0].value
    assert dict(zip(table["run_id"], table["state"]))[run_id] == "done"
    assert "stalled" not in _text(at)
    queued = at.get_by_key("launch_queue").dataframe[0].value
    assert queued["state"].tolist() == ["done"] and queued["run"].tolist() == [run_id]


def test_pages_beyond_loopback_say_launching_is_off(whatif_template, tmp_path, monkeypatch):
    db = tmp_path / "w.duckdb"
    shutil.copy(whatif_template["db"], db)
    monkeypatch.setenv("DELVE_DB", str(db))
    monkeypatch.setenv("DELVE_HOST", "0.0.0.0")
    monkeypatch.setenv("DELVE_ALLOW_LAUNCH", "0")

    at = AppTest.from_file(str(WHATIF), default_timeout=60)
    at.query_params["base"] = whatif_template["base"]
    at.run()
    assert not at.exception, at.exception
    at.number_input(key="whatif_field::game.rounds").set_value(6)
    at.button(key="whatif_apply").click().run()
    at.text_input(key="whatif_name").set_value("off_test").run()
    assert OFF in _text(at) and "--allow-launch" in _text(at)
    assert at.button(key="whatif_launch").disabled

    at = AppTest.from_file(str(CHECKS), default_timeout=60)
    at.query_params["run"] = whatif_template["base"]
    at.run()
    assert not at.exception, at.exception
    assert OFF in _text(at)
    assert at.button(key="checks_ablate").disabled

    # with --allow-launch the same address may launch
    monkeypatch.setenv("DELVE_ALLOW_LAUNCH", "1")
    at = AppTest.from_file(str(CHECKS), default_timeout=60)
    at.query_params["run"] = whatif_template["base"]
    at.run()
    assert OFF not in _text(at) and not at.button(key="checks_ablate").disabled
