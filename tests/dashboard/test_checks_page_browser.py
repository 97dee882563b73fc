"""Issue 28 in a real browser: the Checks page shows the play checks per skill tier (a greedy
and a random run of the same rules side by side), and the Factions page leads its findings with
what the checks found.  A real Streamlit server, Debian's chromium driven by Playwright."""

from __future__ import annotations

import re

import subprocess
import sys
from pathlib import Path

import pytest
from dashfix import REPO

from test_dashboard_browser import CHROMIUM, CHROMIUM_ARGS, _require_chromium, serving_app


def _simulate(db: Path, bots: str) -> str:
    out = subprocess.run(
        [sys.executable, "-m", "delve", "simulate", "glimmerdeep", "--games", "24", "--players",
         "4", "--bots", bots, "--seed", "4", "--db", str(db), "--no-progress"],
        cwd=REPO, capture_output=True, text=True, check=True)
    return out.stdout.splitlines()[0].strip()


@pytest.mark.browser
def test_checks_per_tier_and_the_findings_lead_with_them(tmp_path: Path):
    _require_chromium()
    from playwright.sync_api import expect, sync_playwright

    db = tmp_path / "tiers.duckdb"
    greedy = _simulate(db, "greedy")
    _simulate(db, "random")
    with serving_app(db, tmp_path) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1600, "height": 2400})
            page.set_default_timeout(90_000)
            expect.set_options(timeout=90_000)
            page.goto(f"{url}/checks?run={greedy}")
            expect(page.get_by_role("heading", name="Per skill tier").first).to_be_visible()
            table = page.locator(".st-key-checks_by_tier")
            expect(table.locator("[role=columnheader]", has_text="greedy").first).to_be_attached()
            expect(table.locator("[role=columnheader]", has_text="random").first).to_be_attached()
            assert page.locator("[data-testid=stException]").count() == 0
            page.goto(f"{url}/factions?run={greedy}")
            block = page.locator(".st-key-check_findings")
            expect(block).to_be_visible()
            # the container shows before its sentences under load: wait for them, then read
            expect(block).to_contain_text(re.compile("Saturation|Dead option|No design check"))
            text = block.inner_text()
            assert "Saturation" in text or "Dead option" in text or "No design check" in text, text
            # both headings render in turn: wait for the later one before reading the order
            expect(page.locator("h4", has_text=re.compile(r"^Findings$")).first).to_be_visible()
            order = page.locator("h4").all_inner_texts()
            assert order.index("What the checks found") < order.index("Findings"), order
        finally:
            browser.close()
