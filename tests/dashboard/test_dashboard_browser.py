"""A real browser against a real Streamlit server: the runs page renders the fixture run.

Starts ``streamlit run dashboard/app.py -- --db <fixture>`` on 127.0.0.1 and drives Debian's
chromium (/usr/bin/chromium) with Playwright. Without chromium the test fails when ``CI``
is set (CI installs it via .ci/run) and skips otherwise.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from dashfix import DONE_LABEL, DONE_RUN, REPO, RUNNING_LABEL, RUNNING_RUN

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SERVER_START_TIMEOUT_S = 30
PAGE_TIMEOUT_MS = 90_000   # the first render on a busy 2-core machine (stop 37 CI: 20 s was short)


def _require_chromium() -> None:
    if CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK):
        return
    message = (
        f"Debian chromium not found at {CHROMIUM}: install it with "
        "`apt-get install -y chromium` (.ci/run does this in CI)."
    )
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_until_healthy(proc: subprocess.Popen, url: str, log: Path) -> None:
    deadline = time.monotonic() + SERVER_START_TIMEOUT_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"streamlit exited with {proc.returncode}:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1) as resp:
                if resp.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.2)
    pytest.fail(f"streamlit did not answer within {SERVER_START_TIMEOUT_S}s:\n{log.read_text()}")


@contextmanager
def serving(cmd: list[str], port: int, log: Path, env: dict[str, str]) -> Iterator[str]:
    """Run a dashboard server command in its own process group; yield its URL; stop it."""
    with log.open("w") as out:
        proc = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)
    try:
        url = f"http://127.0.0.1:{port}"
        _wait_until_healthy(proc, url, log)
        yield url
    finally:
        try:
            os.killpg(proc.pid, signal.SIGTERM)  # the server and its streamlit child
        except ProcessLookupError:
            pass
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


@contextlib.contextmanager
def serving_app(db: Path, tmp_path: Path) -> Iterator[str]:
    """The dashboard on a real Streamlit server, a free local port, reading `db`; its URL."""
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k != "DELVE_DB"}  # --db must win
    cmd = [
        sys.executable, "-m", "streamlit", "run", str(REPO / "dashboard" / "app.py"),
        "--server.headless", "true",
        "--server.address", "127.0.0.1",
        "--server.port", str(port),
        "--server.fileWatcherType", "none",
        "--browser.gatherUsageStats", "false",
        "--", "--db", str(db),
    ]
    with serving(cmd, port, tmp_path / "streamlit.log", env) as url:
        yield url


@pytest.fixture
def streamlit_server(fixture_db: Path, tmp_path: Path) -> Iterator[str]:
    """A real Streamlit server on a free local port, reading the fixture database."""
    with serving_app(fixture_db, tmp_path) as url:
        yield url


@pytest.mark.browser
def test_runs_page_in_chromium_shows_the_runs_and_the_chart(
    streamlit_server: str, tmp_path: Path
):
    _require_chromium()
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1500})
            page.set_default_timeout(PAGE_TIMEOUT_MS)
            expect.set_options(timeout=PAGE_TIMEOUT_MS)  # assertions too (default: 5 s)

            # The landing page: both runs listed, the newest selected and put in the URL.
            page.goto(streamlit_server)
            cells = page.locator(".st-key-runs_table [role=gridcell]")
            expect(cells.filter(has_text=DONE_LABEL)).to_have_count(1)
            expect(cells.filter(has_text=RUNNING_LABEL)).to_have_count(1)
            expect(page).to_have_url(re.compile(rf"[?&]run={RUNNING_RUN}\b"))

            # A shared link opens the run it names.
            page.goto(f"{streamlit_server}/?run={DONE_RUN}")
            expect(page.get_by_role("heading", name=DONE_LABEL)).to_be_visible()
            chart = page.locator(".st-key-faction_chart .js-plotly-plot")
            expect(chart).to_be_visible()
            # one interval per faction, on the faction's tick
            expect(chart.locator(".xtick text")).to_have_text(["dwarves", "goblins", "kobolds"])
            expect(chart.locator(".scatterlayer .trace").nth(1).locator(".point")).to_have_count(3)
            expect(page.locator(".st-key-category_chart .js-plotly-plot")).to_be_visible()
            expect(page.locator("[data-testid=stException]")).to_have_count(0)
            expect(page.get_by_text("Page not found")).to_have_count(0)

            shot = tmp_path / "runs_page.png"
            page.screenshot(path=str(shot), full_page=True)
            assert shot.stat().st_size > 10_000
            print(f"screenshot: {shot}")
        finally:
            browser.close()


def test_missing_chromium_fails_in_ci(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    monkeypatch.setattr(sys.modules[__name__], "CHROMIUM", tmp_path / "no-chromium")
    monkeypatch.setenv("CI", "1")
    with pytest.raises(pytest.fail.Exception, match="chromium"):
        _require_chromium()


def test_missing_chromium_skips_outside_ci(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    monkeypatch.setattr(sys.modules[__name__], "CHROMIUM", tmp_path / "no-chromium")
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="chromium"):
        _require_chromium()
