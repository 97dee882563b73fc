"""Every page through streamlit.testing.v1.AppTest on a real simulated run (conftest.sim_db:
`delve simulate glimmerdeep --games 40 --players 4 --bots greedy,random,random,random`),
plus the empty states: no database, no runs, a run with one game, a game without maps."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest
from dashfix import APP, SIM_GAMES, XSS, _delve, sim_runs
from streamlit.testing.v1 import AppTest

from dashboard import queries

PAGES = ("runs", "factions", "scoring", "map", "replay", "report")


def _page(db: Path, monkeypatch: pytest.MonkeyPatch, page: str, **params: str) -> AppTest:
    monkeypatch.setenv("DELVE_DB", str(db))
    at = AppTest.from_file(str(APP), default_timeout=60)
    for k, v in params.items():
        at.query_params[k] = v
    if page != "runs":
        at.switch_page(f"app_pages/{page}.py")
    return at.run()


def _text(at: AppTest) -> str:
    parts = [e.value for e in (*at.markdown, *at.info, *at.warning, *at.error, *at.success,
                               *at.caption)]
    return "\n".join(str(p) for p in parts)


def _table(at: AppTest, key: str):
    return at.get_by_key(key).dataframe[0].value


@pytest.fixture(scope="module")
def baseline(sim_db: Path) -> str:
    return sim_runs(sim_db)["baseline"]


# --- factions --------------------------------------------------------------------------

def test_factions_page_shows_rates_with_intervals_and_their_games(
        sim_db: Path, baseline: str, monkeypatch: pytest.MonkeyPatch):
    at = _page(sim_db, monkeypatch, "factions", run=baseline)
    assert not at.exception
    rates = _table(at, "faction_rates_table")
    assert len(rates) == 8                      # Glimmerdeep's eight factions
    assert rates["games"].sum() == SIM_GAMES * 4
    assert rates["wins"].sum() == SIM_GAMES     # one winner a game
    assert (rates["low"] <= rates["win_rate"]).all() and (rates["win_rate"] <= rates["high"]).all()
    assert rates["fair_share"].tolist() == pytest.approx([0.25] * 8)
    assert f"Based on **{SIM_GAMES}** games (**{SIM_GAMES * 4}** player-games)" in _text(at)
    seats = _table(at, "seat_table")
    # Glimmerdeep's start is always seat 0: turn order repeats the seats and is shown once
    assert set(seats["kind"]) == {"seat"}
    assert "turn order is the seat order" in _text(at)
    assert seats[seats["kind"] == "seat"]["games"].tolist() == [SIM_GAMES] * 4
    terms = _table(at, "strength_table")
    assert set(terms["kind"]) >= {"faction", "seat"}
    for key in ("faction_rates_chart", "score_box_chart", "seat_chart", "matrix_chart",
                "focus_chart", "strength_chart"):
        assert at.get_by_key(key) is not None
    assert at.query_params["run"] == baseline


def test_factions_filters_come_from_and_go_to_the_url(sim_db: Path, baseline: str,
                                                     monkeypatch: pytest.MonkeyPatch):
    at = _page(sim_db, monkeypatch, "factions", run=baseline, players="4", bot="greedy",
               faction="gildtails")
    assert not at.exception
    assert at.get_by_key("filter_bot").value == "greedy"
    assert at.get_by_key("focus_faction").value == "gildtails"
    rates = _table(at, "faction_rates_table")
    assert rates["games"].sum() == SIM_GAMES    # the greedy seat only: one per game
    at.get_by_key("filter_bot").select("random").run()
    assert not at.exception
    assert at.query_params["bot"] == "random"
    assert _table(at, "faction_rates_table")["games"].sum() == SIM_GAMES * 3


def test_a_filter_that_matches_nothing_says_so(sim_db: Path, baseline: str,
                                              monkeypatch: pytest.MonkeyPatch):
    at = _page(sim_db, monkeypatch, "factions", run=baseline, map="no-such-map")
    assert not at.exception  # an unknown URL value falls back to (all)
    assert at.get_by_key("filter_map").value == "(all)"


# --- scoring ---------------------------------------------------------------------------

def test_scoring_page_breakdown_sums_to_the_mean_score(sim_db: Path, baseline: str,
                                                      monkeypatch: pytest.MonkeyPatch):
    """Every point is one score event with a category (DESIGN.md), so the categories' mean
    points per player-game add up to the faction's mean final score."""
    at = _page(sim_db, monkeypatch, "scoring", run=baseline)
    assert not at.exception
    wide = _table(at, "category_table").set_index("faction")
    factions = _page(sim_db, monkeypatch, "factions", run=baseline)
    means = _table(factions, "faction_rates_table").set_index("faction")["mean_score"]
    assert wide.sum(axis=1).to_dict() == pytest.approx(means.to_dict())
    wl = _table(at, "winners_table")
    total = wl[wl["category"] == queries.TOTAL_SCORE].iloc[0]
    assert total["n_winners"] == SIM_GAMES and total["n_losers"] == SIM_GAMES * 3
    assert total["low"] < total["difference"] < total["high"]
    for key in ("category_stacked_chart", "category_box_chart", "round_faction_chart",
                "round_outcome_chart", "winners_chart"):
        assert at.get_by_key(key) is not None


# --- map -------------------------------------------------------------------------------

@pytest.mark.parametrize("view", ["players", "outcome", "runs"])
def test_map_page_draws_every_view(sim_db: Path, baseline: str, view: str,
                                   monkeypatch: pytest.MonkeyPatch):
    at = _page(sim_db, monkeypatch, "map", run=baseline, view=view, action="excavate",
               faction="ironclads")
    assert not at.exception
    assert at.get_by_key("map_chart") is not None
    assert at.query_params["view"] == view
    assert at.get_by_key("map_action").value == "excavate"
    if view == "runs":
        assert at.get_by_key("map_other_run").value == sim_runs(sim_db)[XSS]


def test_map_page_for_a_game_without_maps_says_so(sim_db_copy: Path,
                                                 monkeypatch: pytest.MonkeyPatch):
    con = duckdb.connect(str(sim_db_copy))
    con.execute("UPDATE games SET map = NULL")
    con.execute("UPDATE moves SET cell = NULL")
    con.execute("DELETE FROM map_cells")
    con.close()
    from pipelines.store import Store  # the raw rows changed behind the writer: their aggregates too
    for run_id in sim_runs(sim_db_copy).values():
        Store(sim_db_copy).rebuild_aggregates(run_id)
    at = _page(sim_db_copy, monkeypatch, "map", run=sim_runs(sim_db_copy)["baseline"])
    assert not at.exception
    assert "declares none" in at.info[0].value
    replay = _page(sim_db_copy, monkeypatch, "replay", run=sim_runs(sim_db_copy)["baseline"])
    assert not replay.exception


# --- replay ----------------------------------------------------------------------------

def test_replay_page_rebuilds_the_game_and_steps_through_it(sim_db: Path, baseline: str,
                                                            monkeypatch: pytest.MonkeyPatch):
    at = _page(sim_db, monkeypatch, "replay", run=baseline, game="3", step="40")
    assert not at.exception
    assert "Rebuilt from its seed" in at.success[0].value
    assert at.get_by_key("replay_step").value == 40
    scores_at_40 = _table(at, "replay_scores")["total"].sum()
    at.get_by_key("replay_step").set_value(at.get_by_key("replay_step").max).run()
    assert not at.exception
    assert at.query_params["step"] == str(int(at.get_by_key("replay_step").max))
    final = _table(at, "replay_scores")
    con = duckdb.connect(str(sim_db), read_only=True)
    stored = [r[0] for r in con.execute(
        "SELECT score FROM players WHERE run_id = ? AND game_id = 3 ORDER BY seat", [baseline]
    ).fetchall()]
    con.close()
    assert final["total"].tolist() == stored      # the scores at the last step are the final
    assert scores_at_40 <= sum(stored)
    assert at.get_by_key("replay_board") is not None
    # the real board at the last step, rebuilt from the seed (Game.board_view): every
    # occupied cell of the final state drawn on its seat's sheet, with its label
    from pipelines.run.replay import board_at_step
    last = int(at.get_by_key("replay_step").max)
    spec = json.loads(at.get_by_key("replay_board_now").proto.spec)
    assert f"Board after step {last}" in spec["layout"]["title"]["text"]
    owned = [t for t in spec["data"] if t.get("mode") == "markers+text" and t["name"] != "neutral"]
    board = board_at_step(str(sim_db), baseline, 3, last)
    view = board["cells"]
    # the map's own cells (a Deepdelvers building on its faction sheet lies off the map and
    # is not drawn: stop 34's new maps put one in this game)
    con = duckdb.connect(str(sim_db), read_only=True)
    on_map = {r[0] for r in con.execute("SELECT cell FROM map_cells WHERE game = 'glimmerdeep' "
                                        "AND map = ?", [board["map"]]).fetchall()}
    con.close()
    assert sum(len(t["x"]) for t in owned) == sum(s is not None and c in on_map
                                                  for c, s, _l in view) > 4
    assert {t["name"] for t in owned} == {f"{r['seat']}: {r['faction']} ({r['bot']})"
                                          for r in _table(at, "replay_scores").to_dict("records")}
    assert any("sett" in t["text"] for t in owned)   # the settlement on every sheet


def test_replay_first_view_rebuilds_the_game_once(sim_db: Path, baseline: str,
                                                 monkeypatch: pytest.MonkeyPatch):
    """The first view (the last step) takes its board from the verification's own replay
    instead of replaying the game a second time; a later step rebuilds only to that step."""
    import pipelines.run.replay as replay_mod

    calls = []
    real = replay_mod._rebuild
    monkeypatch.setattr(replay_mod, "_rebuild", lambda *a: calls.append(1) or real(*a))
    at = _page(sim_db, monkeypatch, "replay", run=baseline, game="2")
    assert not at.exception
    assert at.get_by_key("replay_board_now") is not None
    assert len(calls) == 1
    last = int(at.get_by_key("replay_step").max)
    res = replay_mod.replay(str(sim_db), baseline, 2, echo=lambda _line: None)
    assert res.final_board == replay_mod.board_at_step(str(sim_db), baseline, 2, last)


def test_replay_page_explains_a_game_without_a_board_view(sim_db: Path, baseline: str,
                                                         monkeypatch: pytest.MonkeyPatch):
    from engine.core.registry import get_game

    monkeypatch.setattr(get_game("glimmerdeep"), "board_view", None)
    at = _page(sim_db, monkeypatch, "replay", run=baseline, game="5", step="17")
    assert not at.exception
    assert any("does not describe its board" in i.value for i in at.info)
    assert at.get_by_key("replay_board") is not None          # the cells worked, still drawn


def test_replay_page_reports_a_log_that_differs_from_the_rebuilt_game(
        sim_db_copy: Path, monkeypatch: pytest.MonkeyPatch):
    run = sim_runs(sim_db_copy)["baseline"]
    con = duckdb.connect(str(sim_db_copy))
    con.execute("UPDATE moves SET action = 'tampered' WHERE run_id = ? AND game_id = 0 "
                "AND step = 5", [run])
    con.close()
    at = _page(sim_db_copy, monkeypatch, "replay", run=run, game="0")
    assert not at.exception
    assert "differs from the database" in at.error[0].value
    assert "tampered" in at.code[0].value or any("tampered" in c.value for c in at.code)


# --- report ----------------------------------------------------------------------------

def test_report_page_offers_the_same_file_as_the_cli(sim_db: Path, baseline: str,
                                                     monkeypatch: pytest.MonkeyPatch):
    from dashboard.report.html import build_report

    at = _page(sim_db, monkeypatch, "report", run=baseline)
    assert not at.exception
    at.get_by_key("report_prepare").click().run()
    assert not at.exception
    download = at.get_by_key("report_download")
    assert download is not None
    assert download.proto.label == "Download the HTML report"
    assert "MB, self-contained" in _text(at)
    assert build_report(str(sim_db), baseline).startswith("<!DOCTYPE html>")


# --- every page: empty states ------------------------------------------------------------

@pytest.mark.parametrize("page", PAGES)
def test_every_page_without_a_database_explains(page: str, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch):
    at = _page(tmp_path / "none.duckdb", monkeypatch, page)
    assert not at.exception
    assert "make demo" in at.info[0].value


@pytest.mark.parametrize("page", PAGES)
def test_every_page_on_an_empty_database_explains(page: str, empty_db: Path,
                                                  monkeypatch: pytest.MonkeyPatch):
    at = _page(empty_db, monkeypatch, page)
    assert not at.exception
    assert "no runs yet" in at.info[0].value


@pytest.fixture(scope="module")
def one_game_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("one") / "one.duckdb"
    _delve("simulate", "glimmerdeep", "--games", "1", "--players", "4", "--bots", "greedy",
           "--db", str(db), "--no-progress")
    return db


@pytest.mark.parametrize("page", PAGES)
def test_every_page_with_a_single_game_run_renders(page: str, one_game_db: Path,
                                                   monkeypatch: pytest.MonkeyPatch):
    at = _page(one_game_db, monkeypatch, page)
    assert not at.exception
    assert not at.error
    if page in ("factions", "scoring"):
        assert any("single game" in i.value for i in at.info)


@pytest.mark.parametrize("page", PAGES)
def test_every_page_renders_the_synthetic_fixture(page: str, fixture_db: Path,
                                                  monkeypatch: pytest.MonkeyPatch):
    """The older synthetic database (3 players, text cells, a running run) renders too."""
    at = _page(fixture_db, monkeypatch, page)
    assert not at.exception


# --- hardening ---------------------------------------------------------------------------

def test_no_page_renders_raw_html_and_no_sql_is_formatted():
    """No ``unsafe_allow_html`` anywhere in the dashboard, and the SQL text is constant: every
    value reaches DuckDB as a bound parameter ($run, $np, ... or ?)."""
    import re

    root = Path(__file__).resolve().parents[2] / "dashboard"
    # every module but the page benchmark's synthetic-database builder (it formats module
    # constants into its INSERTs: no value from a user or a database)
    mine = sorted(p for p in root.rglob("*.py") if p != root / "bench.py")
    assert len(mine) > 20 and root / "app_pages" / "factions.py" in mine
    for path in mine:
        source = path.read_text()
        assert "unsafe_allow_html" not in source, path
        assert not re.search(r"""read_frame\(\s*db,\s*f["']""", source), path
        assert not re.search(r"""execute\(\s*f["']""", source), path


def test_xss_label_is_shown_as_text_on_the_runs_page(sim_db: Path,
                                                     monkeypatch: pytest.MonkeyPatch):
    at = _page(sim_db, monkeypatch, "runs", run=sim_runs(sim_db)[XSS])
    assert not at.exception
    assert at.subheader[0].value == XSS   # st.subheader escapes: the label is text
