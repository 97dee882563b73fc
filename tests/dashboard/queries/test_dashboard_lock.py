"""A simulation holding the write lock must not break the dashboard (DESIGN.md, "The
database contract": the dashboard must never show a raw lock error).

Another process opens a DuckDB read-write connection on the file and keeps it for about
two seconds; the page's query helpers retry with backoff and then succeed, or, when the
writer outlasts the retry window, raise DatabaseBusy, which the page shows as a friendly
"busy, retrying" message.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from dashfix import APP
from streamlit.testing.v1 import AppTest

from dashboard import queries, ui

HOLD_S = 2.0

WRITER = r"""
import sys, time, duckdb
con = duckdb.connect(sys.argv[1])
con.execute(
    "INSERT INTO runs (run_id, created_at, game, label, n_games, status) "
    "VALUES ('run-lock', TIMESTAMP '2030-01-01', 'glimmerdeep', 'written-while-locked', 1, 'running')"
)
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
con.close()
print("released", flush=True)
"""


@contextmanager
def writer_holding(db: Path, seconds: float = HOLD_S) -> Iterator[subprocess.Popen]:
    """Run a separate process that holds a write connection on ``db`` for ``seconds``."""
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(db), str(seconds)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stdout.readline().strip()
        assert line == "locked", f"writer failed to start: {line!r} {proc.stderr.read()}"
        yield proc
    finally:
        try:
            proc.wait(timeout=seconds + 10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_query_waits_for_the_writer_and_then_succeeds(fixture_db: Path):
    with writer_holding(fixture_db):
        started = time.monotonic()
        runs = queries.runs_overview(str(fixture_db))
        waited = time.monotonic() - started
    assert waited >= 1.0, "the read should have had to wait for the writer"
    assert waited < HOLD_S + queries.BUSY_TIMEOUT_S
    assert "written-while-locked" in runs["label"].to_list()


def test_writer_outlasting_the_retry_window_raises_database_busy(
    fixture_db: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(queries.core, "BUSY_TIMEOUT_S", 0.3)
    with writer_holding(fixture_db):
        with pytest.raises(queries.DatabaseBusy) as info:
            queries.runs_overview(str(fixture_db))
    assert "PID" not in str(info.value)
    # once the writer is gone, the same call succeeds
    assert "written-while-locked" in queries.runs_overview(str(fixture_db))["label"].to_list()


def test_page_during_a_write_waits_and_then_shows_the_runs(
    fixture_db: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("DELVE_DB", str(fixture_db))
    at = AppTest.from_file(str(APP), default_timeout=20)
    with writer_holding(fixture_db):
        at.run()
    assert not at.exception
    labels = at.get_by_key("runs_table").dataframe[0].value["label"].tolist()
    assert "written-while-locked" in labels


def test_page_shows_busy_message_then_recovers(fixture_db: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("DELVE_DB", str(fixture_db))
    monkeypatch.setattr(queries.core, "BUSY_TIMEOUT_S", 0.3)
    monkeypatch.setattr(ui, "BUSY_AUTO_RETRIES", 0)
    at = AppTest.from_file(str(APP), default_timeout=20)
    with writer_holding(fixture_db):
        at.run()
        assert not at.exception
        assert [w.value for w in at.warning] == [ui.BUSY_MESSAGE]
        assert not at.error
    at.button(key="busy_retry").click().run()
    assert not at.exception
    assert not at.warning
    labels = at.get_by_key("runs_table").dataframe[0].value["label"].tolist()
    assert "written-while-locked" in labels
