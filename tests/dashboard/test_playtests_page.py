"""Issue 30: the Playtests page for every game (AppTest and Chromium), the report's section and
delve.api, on one database holding each game's invented example playtests and bot tiers on
the same rules and player count."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from dashfix import APP, REPO
from streamlit.testing.v1 import AppTest

from delve.cli import main

GAMES = ("glimmerdeep", "underhaven", "underwater_cities", "cave_colony")
TIERS = {"glimmerdeep": "random,greedy", "underhaven": "random,greedy",
         "underwater_cities": "random", "cave_colony": "random,greedy"}


def build_playtest_db(db: Path, games: int = 6) -> dict[str, str]:
    """Each game's example playtests and a tiers group at 4 players; the first tier run per game."""
    runs = {}
    for game in GAMES:
        res = CliRunner().invoke(main, ["playtests", "import", game,
                                        str(REPO / "examples" / "playtests" / f"{game}.csv"),
                                        "--db", str(db)], catch_exceptions=False)
        assert res.exit_code == 0, res.output
        res = CliRunner().invoke(main, ["simulate", game, "--games", str(games), "--players", "4",
                                        "--tiers", TIERS[game], "--seed", "4", "--db", str(db),
                                        "--no-progress"], catch_exceptions=False)
        assert res.exit_code == 0, res.output
        runs[game] = next(line.split(": ")[1].split(" ")[0] for line in res.output.splitlines()
                          if line.startswith("tier "))
    return runs


@pytest.fixture(scope="module")
def playtest_db(tmp_path_factory) -> tuple[Path, dict[str, str]]:
    db = tmp_path_factory.mktemp("playtests") / "pt.duckdb"
    return db, build_playtest_db(db)


def _open(db: Path, game: str, monkeypatch) -> AppTest:
    monkeypatch.setenv("DELVE_DB", str(db))
    at = AppTest.from_file(str(APP), default_timeout=90)
    at.query_params["game"] = game
    at.switch_page("app_pages/playtests.py")
    return at.run()


@pytest.mark.parametrize("game", GAMES)
def test_the_playtests_page_of_every_game(playtest_db, game, monkeypatch):
    db, _ = playtest_db
    at = _open(db, game, monkeypatch)
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    assert at.selectbox(key="pt_game").value == game
    findings = " ".join(m.value for m in at.get_by_key("pt_findings").markdown)
    assert "look most like" in findings and "How few" in findings, findings
    table = at.get_by_key("pt_rates_table").dataframe[0].value
    assert "playtests" in set(table["source"]) and len(set(table["source"])) >= 2
    assert len(at.get("plotly_chart")) == 3


def test_the_page_without_playtests_says_how_to_import(tmp_path, monkeypatch):
    db = tmp_path / "only_runs.duckdb"
    res = CliRunner().invoke(main, ["simulate", "glimmerdeep", "--games", "2", "--players", "2",
                                    "--db", str(db), "--no-progress"], catch_exceptions=False)
    assert res.exit_code == 0
    at = _open(db, "glimmerdeep", monkeypatch)
    assert not at.exception
    assert "delve playtests import" in " ".join(i.value for i in at.info)


def test_the_report_holds_the_comparison(playtest_db, tmp_path):
    db, runs = playtest_db
    out = tmp_path / "r.html"
    res = CliRunner().invoke(main, ["report", runs["glimmerdeep"], "-o", str(out), "--db", str(db)],
                             catch_exceptions=False)
    assert res.exit_code == 0, res.output
    text = out.read_text()
    assert "Playtests beside the bots" in text and "look most like" in text


def test_the_api_sets_playtests_beside_the_bots(playtest_db):
    from delve import api
    db, _ = playtest_db
    base = api.open_db(db)
    assert set(base.playtests()["game"]) == set(GAMES)
    c = base.playtest_comparison("underhaven")
    assert c.n_games == 12 and set(c.tiers) == {"random", "greedy"}
    assert c.closest_scores in c.tiers
    assert any("look most like" in s for s in base.playtest_findings("underhaven"))


@pytest.mark.browser
def test_the_playtests_page_of_every_game_in_chromium(playtest_db, tmp_path):
    from test_dashboard_browser import (CHROMIUM, CHROMIUM_ARGS, _require_chromium,
                                        serving_app)
    _require_chromium()
    from playwright.sync_api import expect, sync_playwright
    db, _ = playtest_db
    with serving_app(db, tmp_path) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1400})
            page.set_default_timeout(60_000)
            for game in GAMES:
                page.goto(f"{url}/playtests?game={game}")
                expect(page.get_by_role("heading", name="Playtests", exact=True).first) \
                    .to_be_visible(timeout=60_000)
                # the comparison (bootstraps, a Monte Carlo test) takes a second or more
                expect(page.get_by_text("look most like").first).to_be_visible(timeout=60_000)
                assert page.locator("[data-testid=stException]").count() == 0, game
                assert page.locator("[data-testid=stAlertContentError]").count() == 0, game
                expect(page.locator("[data-testid=stPlotlyChart]")).to_have_count(3, timeout=60_000)
        finally:
            browser.close()
