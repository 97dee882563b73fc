"""Every page of every game in a real browser (issue 31): one Streamlit server on a database
holding runs of all four games at 2, 3 and 4 players, Debian's chromium driven by Playwright;
each page of each game renders its title and shows no exception and no error box."""

from __future__ import annotations

from pathlib import Path

import pytest

from test_dashboard_browser import (CHROMIUM, CHROMIUM_ARGS, _require_chromium,
                                    serving_app)
from test_every_page_every_game import build_mixed_db

TITLES = {"runs": "Runs", "factions": "Factions", "scoring": "Scoring", "map": "Map",
          "replay": "Replay", "whatif": "What-if", "checks": "Checks", "report": "Report",
          "playtests": "Playtests"}


@pytest.mark.browser
def test_every_page_of_every_game_in_chromium(tmp_path: Path):
    _require_chromium()
    from playwright.sync_api import expect, sync_playwright

    db = tmp_path / "mixed.duckdb"
    runs = build_mixed_db(db, games=4, seed=5)
    problems = []
    with serving_app(db, tmp_path) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1400})
            page.set_default_timeout(60_000)
            for game, run in runs.items():
                for slug, title in TITLES.items():
                    path = "" if slug == "runs" else slug
                    page.goto(f"{url}/{path}?run={run}&base={run}")
                    expect(page.get_by_role("heading", name=title, exact=True).first) \
                        .to_be_visible()
                    page.wait_for_timeout(1500)       # the page's later blocks render
                    n_exc = page.locator("[data-testid=stException]").count()
                    n_err = page.locator("[data-testid=stAlertContentError]").count()
                    if n_exc or n_err:
                        problems.append((game, slug, n_exc, n_err))
        finally:
            browser.close()
    assert not problems, problems
