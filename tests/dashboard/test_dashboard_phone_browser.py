"""Issue 18, the page as people expect it, in a real Chromium against a real Streamlit server:
no deploy button or developer menu, Delve's title and favicon, a Findings block at the top of
the Factions page, CSV download on the tables and PNG download on the charts (their own
toolbars, offline), and a phone-width window that lays the page out without sideways scrolling.
Screenshots of both widths are saved (and printed) to be looked at."""

from __future__ import annotations

from pathlib import Path

import pytest
from dashfix import DONE_RUN

from test_dashboard_browser import (CHROMIUM, CHROMIUM_ARGS, _require_chromium,  # noqa: F401
                                    streamlit_server)

#: A cold first render (imports, the first statistics) can be slow on a busy 2-core machine.
PAGE_TIMEOUT_MS = 90_000

PHONE = {"width": 390, "height": 3200}   # a phone's width; tall, so one shot shows the page
WIDE = {"width": 1400, "height": 1500}


@pytest.mark.browser
def test_factions_page_wide_and_on_a_phone(streamlit_server: str, tmp_path: Path):
    _require_chromium()
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            for name, viewport in (("wide", WIDE), ("phone", PHONE)):
                page = browser.new_page(viewport=viewport)
                page.set_default_timeout(PAGE_TIMEOUT_MS)
                expect.set_options(timeout=PAGE_TIMEOUT_MS)
                page.goto(f"{streamlit_server}/factions?run={DONE_RUN}")
                expect(page.get_by_role("heading", name="Factions")).to_be_visible()
                findings = page.locator(".st-key-findings")
                expect(findings).to_be_visible()
                expect(findings.locator("li").first).to_contain_text("fair 33%")
                expect(findings).to_contain_text("played by greedy bots")   # who played
                expect(page.locator("[data-testid=stException]")).to_have_count(0)
                # for users, not Streamlit developers
                expect(page.locator("[data-testid=stAppDeployButton]")).to_have_count(0)
                expect(page.locator("[data-testid=stMainMenu]")).to_have_count(0)
                assert page.title() == "Delve", page.title()
                icon = page.locator("link[rel~=icon]").first.get_attribute("href") or ""
                assert icon.endswith(".png"), icon          # dashboard/assets/favicon.png
                # PNG download of a chart: Plotly's own modebar (drawn in the browser, offline)
                holder = page.locator("[data-testid=stPlotlyChart]").first
                holder.scroll_into_view_if_needed()
                first = page.locator(".js-plotly-plot").first
                expect(first).to_be_visible()
                first.hover()
                expect(first.locator(".modebar-btn[data-title='Download plot as a PNG']")
                       ).to_have_count(1)
                # CSV download of a table: the dataframe's own toolbar
                table = page.locator(".st-key-faction_rates_table [data-testid=stDataFrame]")
                table.scroll_into_view_if_needed()
                table.hover()
                expect(page.locator(".st-key-faction_rates_table [data-testid=stElementToolbar] "
                                    "button[aria-label='Download as CSV']")).to_have_count(1)
                if name == "phone":  # nothing wider than the window: no sideways scrolling
                    width = page.evaluate("document.documentElement.scrollWidth")
                    assert width <= viewport["width"] + 1, width
                shot = tmp_path / f"factions_{name}.png"
                page.screenshot(path=str(shot), full_page=True)
                assert shot.stat().st_size > 10_000
                print(f"screenshot: {shot}")
                page.close()
        finally:
            browser.close()
