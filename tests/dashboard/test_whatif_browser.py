"""The What-if launch-and-compare flow in a real browser against a real Streamlit server:
change one rule value in the generated form, name the variant, launch the paired run (a real
background `delve simulate --paired-with`), watch it finish, read the comparison."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from test_dashboard_browser import (CHROMIUM, CHROMIUM_ARGS, _require_chromium,
                                    serving_app)
from whatif_fixtures import build_whatif_db

RUN_TIMEOUT_MS = 180_000


@pytest.mark.browser
def test_launch_and_compare_in_chromium(tmp_path: Path):
    _require_chromium()
    from playwright.sync_api import expect, sync_playwright

    fx = build_whatif_db(tmp_path / "w.duckdb")
    with serving_app(fx["db"], tmp_path) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1600})
            page.set_default_timeout(30_000)
            page.goto(f"{url}/whatif?base={fx['base']}")
            rounds = page.get_by_role("spinbutton", name="rounds", exact=True)
            expect(rounds).to_have_value("5")
            rounds.fill("6")
            page.get_by_role("button", name="Apply").click()
            expect(page.locator(".st-key-whatif_changes_table")).to_be_visible()
            name = page.get_by_role("textbox", name="Variant name")
            name.fill("six_rounds_browser")
            name.press("Enter")
            launch = page.get_by_role("button", name="Launch paired run")
            expect(launch).to_be_enabled()
            launch.click()
            # the run goes to the background; its comparison opens when it is done
            # (before, the comparison shows the fixture's own paired run)
            fresh = re.compile(rf"[?&]b=(?!{re.escape(fx['paired'])})glimmerdeep-")
            expect(page).to_have_url(fresh, timeout=RUN_TIMEOUT_MS)
            expect(page.get_by_text(re.compile(r"^Paired: paired game by game on 24 common"))) \
                .to_be_visible(timeout=RUN_TIMEOUT_MS)
            b = re.search(r"[?&]b=([^&]+)", page.url).group(1)
            assert b not in (fx["paired"], fx["base"])
            expect(page.locator(".st-key-whatif_compare_table")).to_be_visible()
            expect(page.locator(".st-key-whatif_forest_win .js-plotly-plot").first).to_be_visible()
            expect(page.locator("[data-testid=stException]")).to_have_count(0)
            shot = tmp_path / "whatif.png"
            page.screenshot(path=str(shot), full_page=True)
            assert shot.stat().st_size > 10_000
        finally:
            browser.close()
    from pipelines.store import connect_read
    with connect_read(fx["db"]) as con:
        row = con.execute("SELECT variant, paired_with, status FROM runs WHERE run_id = ?",
                          [b]).fetchone()
    assert row == ("six_rounds_browser", fx["base"], "done")
