"""The runs page through streamlit.testing.v1.AppTest (widgets found by key)."""

from __future__ import annotations

from pathlib import Path

import pytest
from dashfix import APP, DONE_LABEL, DONE_RUN, RUNNING_LABEL, RUNNING_RUN
from streamlit.testing.v1 import AppTest

from dashboard import queries, ui


def _app(db: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv("DELVE_DB", str(db))
    return AppTest.from_file(str(APP), default_timeout=15)


def _text(at: AppTest) -> str:
    parts = [e.value for e in (*at.markdown, *at.info, *at.warning, *at.error)]
    parts += [e.value for e in at.title] + [e.value for e in at.subheader]
    return "\n".join(str(p) for p in parts)


def test_runs_table_lists_every_run(fixture_db: Path, monkeypatch: pytest.MonkeyPatch):
    at = _app(fixture_db, monkeypatch).run()
    assert not at.exception
    assert at.title[0].value == "Runs"
    table = at.get_by_key("runs_table").dataframe[0].value
    assert table["run_id"].tolist() == [RUNNING_RUN, DONE_RUN]
    assert table["label"].tolist() == [RUNNING_LABEL, DONE_LABEL]
    assert table["games_stored"].tolist() == [2, 4]
    assert set(table.columns) >= {
        "run_id", "created_at", "game", "label", "variant", "n_games", "status",
        "games_stored", "rules_hash",
    }


def test_newest_run_is_selected_by_default_and_put_in_the_url(
    fixture_db: Path, monkeypatch: pytest.MonkeyPatch
):
    at = _app(fixture_db, monkeypatch).run()
    assert at.get_by_key("run_select").value == RUNNING_RUN
    assert at.query_params["run"] == RUNNING_RUN
    assert at.subheader[0].value == RUNNING_LABEL
    # a running run shows how far it got
    assert at.get("progress")


def test_selecting_a_run_shows_its_summary_and_updates_the_url(
    fixture_db: Path, monkeypatch: pytest.MonkeyPatch
):
    at = _app(fixture_db, monkeypatch).run()
    at.get_by_key("run_select").select(DONE_RUN).run()
    assert not at.exception
    assert at.query_params["run"] == DONE_RUN
    assert at.subheader[0].value == DONE_LABEL
    factions = at.get_by_key("faction_table").dataframe[0].value
    rates = dict(zip(factions["faction"], factions["win_rate"], strict=True))
    assert rates == pytest.approx({"dwarves": 0.5, "goblins": 0.25, "kobolds": 0.25})
    scores = dict(zip(factions["faction"], factions["mean_score"], strict=True))
    assert scores["dwarves"] == pytest.approx(16.5)
    categories = at.get_by_key("category_table").dataframe[0].value
    assert categories["points"].sum() == 178
    assert at.get_by_key("faction_chart") is not None
    assert at.get_by_key("category_chart") is not None


def test_run_in_the_url_is_selected(fixture_db: Path, monkeypatch: pytest.MonkeyPatch):
    at = _app(fixture_db, monkeypatch)
    at.query_params["run"] = DONE_RUN
    at.run()
    assert not at.exception
    assert at.get_by_key("run_select").value == DONE_RUN
    assert at.subheader[0].value == DONE_LABEL


def test_unknown_run_in_the_url_falls_back_with_a_warning(
    fixture_db: Path, monkeypatch: pytest.MonkeyPatch
):
    at = _app(fixture_db, monkeypatch)
    at.query_params["run"] = "run-9999"
    at.run()
    assert not at.exception
    assert "run-9999" in at.warning[0].value
    assert at.get_by_key("run_select").value == RUNNING_RUN
    assert at.query_params["run"] == RUNNING_RUN


def test_missing_database_shows_how_to_make_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    db = tmp_path / "missing.duckdb"
    at = _app(db, monkeypatch).run()
    assert not at.exception
    assert not at.error
    message = at.info[0].value
    assert "make demo" in message and "delve simulate" in message and str(db) in message
    assert not db.exists()


def test_empty_database_shows_how_to_fill_it(empty_db: Path, monkeypatch: pytest.MonkeyPatch):
    at = _app(empty_db, monkeypatch).run()
    assert not at.exception
    assert "no runs yet" in at.info[0].value
    assert "make demo" in at.info[0].value


def test_foreign_file_shows_a_friendly_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    db = tmp_path / "junk.duckdb"
    db.write_bytes(b"junk" * 1000)
    at = _app(db, monkeypatch).run()
    assert not at.exception
    assert "not a DuckDB database" in at.error[0].value


def test_busy_database_shows_the_busy_message_not_a_lock_error(
    fixture_db: Path, monkeypatch: pytest.MonkeyPatch
):
    def always_busy(*_args, **_kwargs):
        raise queries.DatabaseBusy("busy")

    monkeypatch.setattr(queries.core, "read_frame", always_busy)
    monkeypatch.setattr(ui, "BUSY_AUTO_RETRIES", 0)
    at = _app(fixture_db, monkeypatch).run()
    assert not at.exception
    assert at.warning[0].value == ui.BUSY_MESSAGE
    assert at.get_by_key("busy_retry") is not None
    assert "lock" not in _text(at).lower()


def test_busy_database_is_retried_automatically_before_offering_a_button(
    fixture_db: Path, monkeypatch: pytest.MonkeyPatch
):
    calls = []

    def always_busy(*_args, **_kwargs):
        calls.append(1)
        raise queries.DatabaseBusy("busy")

    monkeypatch.setattr(queries.core, "read_frame", always_busy)
    monkeypatch.setattr(ui, "BUSY_AUTO_RETRIES", 2)
    monkeypatch.setattr(ui, "BUSY_RETRY_PAUSE_S", 0.01)
    at = _app(fixture_db, monkeypatch).run()
    assert not at.exception
    assert len(calls) == 3  # the first try and two automatic reruns
    assert at.warning[0].value == ui.BUSY_MESSAGE
    assert at.get_by_key("busy_retry") is not None


def test_a_run_that_fails_between_two_reads_shows_its_error_at_once(
    fixture_db: Path, monkeypatch: pytest.MonkeyPatch
):
    """The run's details are cached for a few seconds, its state is read live: when the run
    stops in between, the page must not show "failed" over the stale running view (a progress
    bar, no error box, and no refresh left to fix it: fresh-clone CI, stop 22)."""
    import subprocess
    import sys
    at = _app(fixture_db, monkeypatch).run()
    assert not at.exception and at.get("progress")          # the running run, details cached
    error = "interrupted (SIGTERM): resumable; 2 of 10 games are kept"
    script = ("import sys; from pipelines.store.connect import retrying_connect\n"
              "con = retrying_connect(sys.argv[1], read_only=False, timeout=30)\n"
              "con.execute('ALTER TABLE runs ADD COLUMN error VARCHAR')\n"
              "con.execute(\"UPDATE runs SET status = 'failed', error = ? WHERE run_id = ?\", "
              "[sys.argv[2], sys.argv[3]])\ncon.close()\n")
    subprocess.run([sys.executable, "-c", script, str(fixture_db), error, RUNNING_RUN],
                   check=True, cwd=Path(__file__).resolve().parents[2])
    at.run()                                                 # within the details' cache life
    assert not at.exception
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["status"] == "failed"
    assert any(error in e.value for e in at.error), _text(at)
    assert not at.get("progress")
