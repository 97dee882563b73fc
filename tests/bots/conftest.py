"""Fixtures of the bot tests."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _fresh_bots_files():
    """Some tests point data/bots at a temporary directory (monkeypatch) and read a game's bots
    file there, which `engine.bots.params.bots_file` remembers.  After each test, once
    monkeypatch has put the directory back (an autouse fixture is torn down last), forget what
    was read, so no later test in this worker sees a game's bots file as missing (the stop-35
    fresh-clone failure: Glimmerdeep's strongest rung read as greedy after test_mcts)."""
    yield
    import engine.bots.params as params
    params.bots_file.cache_clear()
