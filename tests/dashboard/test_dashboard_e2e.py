"""End to end: `delve dashboard --db ... --port <free>` in a subprocess, headless Chromium on
every page for every game with a run in the simulated database (no exception, no error box),
and the exported HTML report opened with the network cut off.  (Every page of every game at
2, 3 and 4 players is opened through AppTest: test_every_page_every_game.py.)

With ``$DELVE_SCREENSHOTS`` set, a full-page screenshot of every page is saved under the test's
temp dir and copied there. Without chromium the tests fail when ``CI`` is set and skip otherwise.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from dashfix import REPO, XSS, registered_games, sim_runs
from test_dashboard_browser import (
    CHROMIUM,
    CHROMIUM_ARGS,
    PAGE_TIMEOUT_MS,
    _free_port,
    _require_chromium,
    serving,
)

pytestmark = pytest.mark.browser

#: (URL path, page title, the keyed element that proves the page drew its main content)
PAGES = [
    ("", "Runs", ".st-key-faction_chart .js-plotly-plot"),
    ("factions", "Factions", ".st-key-matrix_chart .js-plotly-plot"),
    ("scoring", "Scoring", ".st-key-winners_chart .js-plotly-plot"),
    ("map", "Map", ".st-key-map_chart .js-plotly-plot"),
    ("replay", "Replay", ".st-key-replay_race .js-plotly-plot"),
    ("report", "Report", ".st-key-report_prepare button"),
    ("whatif", "What-if", None),
    ("checks", "Checks", None),
    ("playtests", "Playtests", None),
]
NO_ERROR = ("[data-testid=stException]", "[data-testid=stAlertContentError]")
RUNNING = "[data-testid=stStatusWidgetRunningIcon]"     # Streamlit's "running" indicator


def _screenshot(page, shot: Path) -> None:
    """The whole page, when ``$DELVE_SCREENSHOTS`` asks for it (36 full-page PNGs were about
    15% of these tests' time): Streamlit scrolls inside its main block, so grow the viewport
    to it."""
    if not os.environ.get("DELVE_SCREENSHOTS"):
        return
    height = page.evaluate(
        "() => Math.max(...Array.from(document.querySelectorAll('[data-testid=stMain], "
        "[data-testid=stMainBlockContainer]')).map(e => e.scrollHeight), 900)")
    width = page.viewport_size["width"]
    page.set_viewport_size({"width": width, "height": min(int(height) + 40, 9000)})
    page.wait_for_timeout(300)  # let plotly relayout to the new size
    page.screenshot(path=str(shot), full_page=True)
    page.set_viewport_size({"width": width, "height": 1000})
    assert shot.stat().st_size > 10_000
    _keep(shot)
    print(f"screenshot: {shot}")


def _keep(shot: Path) -> None:
    target = os.environ.get("DELVE_SCREENSHOTS")
    if target:
        Path(target).mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, Path(target) / shot.name)


@pytest.fixture(scope="module")
def dashboard_url(sim_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`delve dashboard --db sim.duckdb --port <free>` as a subprocess."""
    port = _free_port()
    log = tmp_path_factory.mktemp("server") / "dashboard.log"
    env = {k: v for k, v in os.environ.items() if k != "DELVE_DB"}
    cmd = [sys.executable, "-m", "delve", "dashboard", "--db", str(sim_db),
           "--port", str(port)]
    with serving(cmd, port, log, env) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    _require_chromium()
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=PAGE_TIMEOUT_MS * 2)  # two shared cores: pages may take a while

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


def _run_of(db: Path, game: str) -> str:
    runs = sim_runs(db)
    return runs["baseline" if game == "glimmerdeep" else f"{game}-e2e"]


@pytest.mark.parametrize("game", registered_games())
def test_every_page_renders_without_exception(game: str, sim_db: Path, dashboard_url: str,
                                              browser, tmp_path: Path):
    from playwright.sync_api import expect

    run_id = _run_of(sim_db, game)
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.set_default_timeout(PAGE_TIMEOUT_MS * 2)
    try:
        for path, title, marker in PAGES:
            page.goto(f"{dashboard_url}/{path}?run={run_id}")
            expect(page.get_by_role("heading", name=title, exact=True)).to_be_visible()
            if marker:
                expect(page.locator(marker).first).to_be_visible()
            if path == "report":
                page.locator(marker).click()
                expect(page.locator(".st-key-report_download button")).to_be_visible(
                    timeout=PAGE_TIMEOUT_MS * 3)
            if path == "factions" and game == "cave_colony":
                # the cards each seat held (players.held_cards): win rate by card held
                expect(page.locator(".st-key-card_rates_chart .js-plotly-plot")).to_be_visible()
            if path == "replay":
                expect(page.get_by_text("Rebuilt from its seed")).to_be_visible()
                # the real board at the step, rebuilt from the seed (Game.board_view)
                expect(page.locator(".st-key-replay_board_state .js-plotly-plot")).to_be_visible()
            expect(page).to_have_url(re.compile(rf"[?&]run={re.escape(run_id)}\b"))
            expect(page.get_by_text("Page not found")).to_have_count(0)
            expect(page.locator(RUNNING)).to_have_count(0)      # the page's script has ended
            shot = tmp_path / f"{game}-{path or 'runs'}.png"
            _screenshot(page, shot)
            for bad in NO_ERROR:     # no exception and no error box, once the page has drawn
                expect(page.locator(bad)).to_have_count(0)
    finally:
        page.close()


def test_a_shared_link_restores_the_filters(sim_db: Path, dashboard_url: str, browser):
    """Run, filters and faction live in the URL: opening the link restores the widgets."""
    from playwright.sync_api import expect

    run_id = _run_of(sim_db, "glimmerdeep")
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.set_default_timeout(PAGE_TIMEOUT_MS * 2)
    try:
        page.goto(f"{dashboard_url}/factions?run={run_id}&players=4&bot=greedy&faction=gildtails")
        expect(page.locator(".st-key-focus_chart .js-plotly-plot")).to_be_visible()
        for key, name, value in [("filter_players", "Players", "4"),
                                 ("filter_bot", "Bot", "greedy"),
                                 ("focus_faction", "Focus faction", "Gildtails")]:  # by name
            expect(page.locator(f".st-key-{key}")).to_match_aria_snapshot(
                f'- combobox "{name}": "{value}"')
        # XSRF protection stays on: the server hands out its XSRF cookie
        assert any(c["name"] == "_streamlit_xsrf" for c in page.context.cookies())
        expect(page.locator("[data-testid=stException]")).to_have_count(0)
    finally:
        page.close()


def _open_offline(browser, html: Path, tmp_path: Path, name: str):
    """Open a file with every non-file request aborted; returns (page, requests, dialogs)."""
    context = browser.new_context(viewport={"width": 1300, "height": 900})
    requests: list[str] = []
    dialogs: list[str] = []

    def route(r):
        requests.append(r.request.url)
        if r.request.url.startswith("file:"):
            r.continue_()
        else:
            r.abort()

    context.route("**/*", route)
    page = context.new_page()
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(html.as_uri())
    return context, page, requests, dialogs


def test_report_opens_offline_and_shows_its_charts(sim_db: Path, browser, tmp_path: Path):
    from playwright.sync_api import expect

    runs = sim_runs(sim_db)
    out = tmp_path / "report.html"
    subprocess.run([sys.executable, "-m", "delve", "report", runs[XSS], "--vs",
                    runs["baseline"], "-o", str(out), "--db", str(sim_db)],
                   cwd=REPO, check=True, capture_output=True, timeout=300)
    context, page, requests, dialogs = _open_offline(browser, out, tmp_path, "report")
    try:
        figures = page.locator("div.figure")
        n = figures.count()
        assert n >= 10
        expect(page.locator("div.figure.js-plotly-plot")).to_have_count(n, timeout=30_000)
        expect(page.locator("div.figure .main-svg").first).to_be_visible()
        # the label written by the run is shown as text, and nothing ran
        expect(page.locator("h1")).to_contain_text(XSS)
        expect(page.locator("table.manifest").first).to_contain_text(XSS)
        assert dialogs == []
        assert [u for u in requests if not u.startswith("file:")] == []
        shot = tmp_path / "report-offline.png"
        page.screenshot(path=str(shot), full_page=False)
        _keep(shot)
    finally:
        context.close()


def test_report_shows_a_malicious_faction_name_as_text(sim_db_copy: Path, browser,
                                                      tmp_path: Path):
    import duckdb

    con = duckdb.connect(str(sim_db_copy))
    con.execute("UPDATE players SET faction = ? WHERE faction = 'gildtails'", [XSS])
    con.close()
    from pipelines.store import Store  # the raw rows changed behind the writer: their aggregates too
    for run_id in sim_runs(sim_db_copy).values():
        Store(sim_db_copy).rebuild_aggregates(run_id)
    out = tmp_path / "xss.html"
    subprocess.run([sys.executable, "-m", "delve", "report", sim_runs(sim_db_copy)["baseline"],
                    "-o", str(out), "--db", str(sim_db_copy)],
                   cwd=REPO, check=True, capture_output=True, timeout=300)
    assert "<script>alert(1)" not in out.read_text()
    context, page, requests, dialogs = _open_offline(browser, out, tmp_path, "xss")
    try:
        expect = __import__("playwright.sync_api", fromlist=["expect"]).expect
        n = page.locator("div.figure").count()
        expect(page.locator("div.figure.js-plotly-plot")).to_have_count(n, timeout=30_000)
        expect(page.locator("table").nth(1)).to_contain_text(XSS)   # the faction table
        expect(page.locator(".xtick text", has_text="alert(1)").first).to_be_attached()
        assert dialogs == []
        shot = tmp_path / "report-xss.png"
        page.screenshot(path=str(shot), full_page=False)
        _keep(shot)
    finally:
        context.close()
