"""The skill ladder on the Runs page (issue 27): a rung's run shows every rung of its ladder,
tested again from the runs (the table of `delve ladder GAME --show ID`), and a chart of the
rungs' win rates with their intervals."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import polars as pl
import pytest
from dashfix import APP, _delve
from streamlit.testing.v1 import AppTest

from dashboard import charts
from dashboard.charts.ladder import VALIDATED
from dashboard.queries.ladder import ladder_id, ladder_table
from pipelines.ladder.ladder import stored_ladder
from pipelines.store import Store


@pytest.fixture(scope="module")
def ladder_db(tmp_path_factory) -> tuple[Path, str, list[str]]:
    """A real ladder, small: the cave colony at 2 players, random < greedy < mcts:8."""
    db = tmp_path_factory.mktemp("ladder") / "ladder.duckdb"
    out = _delve("ladder", "cave_colony", "--players", "2", "--specs", "random,greedy,mcts:8",
                 "--games", "8", "--seed", "3", "--db", str(db))
    con = duckdb.connect(str(db), read_only=True)
    rows = con.execute("SELECT run_id, config FROM runs ORDER BY run_id").fetchall()
    con.close()
    lid = json.loads(rows[0][1])["ladder"]["id"]
    assert f"ladder {lid}" in out
    return db, lid, [r for r, _c in rows]


def test_the_ladder_table_is_the_stored_ladders(ladder_db):
    db, lid, _runs = ladder_db
    table = ladder_table(str(db), lid)
    stored = stored_ladder(Store(db), lid)
    assert table["spec"].to_list() == ["greedy", "mcts:8"] == [r["spec"] for r in stored]
    assert table["below"].to_list() == [r["below"] for r in stored]
    assert table["games"].to_list() == [r["games"] for r in stored]
    assert table["validated"].to_list() == [r["validated"] for r in stored]
    assert table["rate"].to_list() == pytest.approx([r["wins"] / r["games"] for r in stored])
    assert (table["low"] <= table["rate"]).all() and (table["rate"] <= table["high"]).all()
    assert table["fair_share"].to_list() == [0.5, 0.5]
    assert ladder_table(str(db), "no-such-ladder").is_empty()


def test_a_rungs_run_shows_its_ladder_on_the_runs_page(ladder_db, monkeypatch):
    db, lid, runs = ladder_db
    monkeypatch.setenv("DELVE_DB", str(db))
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params["run"] = runs[-1]
    at.run()
    assert not at.exception
    text = "\n".join(m.value for m in at.markdown)
    assert f"Skill ladder `{lid}`" in text
    assert "Strongest validated rung" in text or "No rung is validated." in text
    shown = at.get_by_key("ladder_table").dataframe[0].value
    assert len(shown) == 2
    assert any(f"--show {lid}" in c.value for c in at.caption)


def test_a_run_outside_a_ladder_has_none():
    assert ladder_id({"config": json.dumps({"ladder": {"id": "ab12cd34", "spec": "mcts:8"}})}) \
        == "ab12cd34"
    assert ladder_id({"config": '{"tier": "greedy"}'}) is None
    assert ladder_id({"config": "not json"}) is None
    assert ladder_id({}) is None


def test_the_ladder_chart_marks_the_validated_rungs():
    frame = pl.DataFrame({"spec": ["greedy", "mcts:100", "mcts:400"],
                          "below": ["random", "greedy", "greedy"], "games": [400, 400, 400],
                          "rate": [0.98, 0.40, 0.41], "low": [0.96, 0.35, 0.36],
                          "high": [0.99, 0.45, 0.46], "fair_share": [0.25] * 3,
                          "validated": [True, True, False]})
    fig = charts.ladder_win_rates(frame)
    points = fig.data[0]
    assert list(points.x) == ["greedy over random", "mcts:100 over greedy", "mcts:400 over greedy"]
    assert list(points.marker.color)[:2] == [VALIDATED, VALIDATED]
    assert list(points.marker.color)[2] != VALIDATED
    assert list(points.error_y.array) == pytest.approx([0.01, 0.05, 0.05])
    assert list(points.error_y.arrayminus) == pytest.approx([0.02, 0.05, 0.05])
    assert any(s.y0 == 0.25 for s in fig.layout.shapes)          # the fair share
    empty = charts.ladder_win_rates(pl.DataFrame())
    assert "not a rung of a ladder" in json.dumps(empty.to_plotly_json())
